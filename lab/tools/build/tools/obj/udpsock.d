/work/main/lab/tools/build/tools/obj/udpsock.o: \
 /work/main/lab/tools/udpsock.c /work/main/lab/tools/udpsock.h
/work/main/lab/tools/udpsock.h:
