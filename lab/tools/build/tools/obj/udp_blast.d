/work/main/lab/tools/build/tools/obj/udp_blast.o: \
 /work/main/lab/tools/udp_blast.c /work/main/lab/tools/blaststat.h \
 /work/main/lab/tools/guard.h /work/main/lab/tools/shmfile.h \
 /work/main/lab/tools/udpsock.h /work/main/lab/tools/util.h
/work/main/lab/tools/blaststat.h:
/work/main/lab/tools/guard.h:
/work/main/lab/tools/shmfile.h:
/work/main/lab/tools/udpsock.h:
/work/main/lab/tools/util.h:
