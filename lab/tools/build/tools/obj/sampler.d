/work/main/lab/tools/build/tools/obj/sampler.o: \
 /work/main/lab/tools/sampler.c /work/main/lab/tools/blaststat.h \
 /work/main/lab/tools/cpustat.h /work/main/lab/tools/util.h \
 /work/main/lab/tools/cyclic.h /work/main/lab/tools/procparse.h \
 /work/main/lab/tools/shmfile.h /work/main/lab/tools/sinkstat.h \
 /work/main/lab/tools/txstat.h
/work/main/lab/tools/blaststat.h:
/work/main/lab/tools/cpustat.h:
/work/main/lab/tools/util.h:
/work/main/lab/tools/cyclic.h:
/work/main/lab/tools/procparse.h:
/work/main/lab/tools/shmfile.h:
/work/main/lab/tools/sinkstat.h:
/work/main/lab/tools/txstat.h:
