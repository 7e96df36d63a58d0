/work/main/lab/tools/build/tools/obj/txstat.o: \
 /work/main/lab/tools/txstat.c /work/main/lab/tools/blaststat.h \
 /work/main/lab/tools/procparse.h /work/main/lab/tools/qdisc_nl.h \
 /work/main/lab/tools/txstat.h /work/main/lab/tools/shmfile.h \
 /work/main/lab/tools/util.h
/work/main/lab/tools/blaststat.h:
/work/main/lab/tools/procparse.h:
/work/main/lab/tools/qdisc_nl.h:
/work/main/lab/tools/txstat.h:
/work/main/lab/tools/shmfile.h:
/work/main/lab/tools/util.h:
