/work/main/lab/tools/build/tools/obj/flood.o: \
 /work/main/lab/tools/flood.c /work/main/lab/tools/guard.h \
 /work/main/lab/tools/udpsock.h /work/main/lab/tools/util.h
/work/main/lab/tools/guard.h:
/work/main/lab/tools/udpsock.h:
/work/main/lab/tools/util.h:
