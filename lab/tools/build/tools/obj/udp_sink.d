/work/main/lab/tools/build/tools/obj/udp_sink.o: \
 /work/main/lab/tools/udp_sink.c /work/main/lab/tools/shmfile.h \
 /work/main/lab/tools/sinkstat.h /work/main/lab/tools/udpsock.h \
 /work/main/lab/tools/util.h
/work/main/lab/tools/shmfile.h:
/work/main/lab/tools/sinkstat.h:
/work/main/lab/tools/udpsock.h:
/work/main/lab/tools/util.h:
