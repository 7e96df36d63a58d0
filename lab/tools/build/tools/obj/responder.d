/work/main/lab/tools/build/tools/obj/responder.o: \
 /work/main/lab/tools/responder.c /work/main/lab/tools/sinkstat.h \
 /work/main/lab/tools/shmfile.h /work/main/lab/tools/udpsock.h \
 /work/main/lab/tools/util.h
/work/main/lab/tools/sinkstat.h:
/work/main/lab/tools/shmfile.h:
/work/main/lab/tools/udpsock.h:
/work/main/lab/tools/util.h:
