/work/main/lab/tools/build/tools/obj/latprobe.o: \
 /work/main/lab/tools/latprobe.c /work/main/lab/tools/guard.h \
 /work/main/lab/tools/latstats.h /work/main/lab/tools/util.h \
 /work/main/lab/tools/udpsock.h
/work/main/lab/tools/guard.h:
/work/main/lab/tools/latstats.h:
/work/main/lab/tools/util.h:
/work/main/lab/tools/udpsock.h:
