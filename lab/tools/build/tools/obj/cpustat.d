/work/main/lab/tools/build/tools/obj/cpustat.o: \
 /work/main/lab/tools/cpustat.c /work/main/lab/tools/cpustat.h \
 /work/main/lab/tools/util.h /work/main/lab/tools/procparse.h
/work/main/lab/tools/cpustat.h:
/work/main/lab/tools/util.h:
/work/main/lab/tools/procparse.h:
