/work/main/lab/tools/build/tools/obj/threadstat.o: \
 /work/main/lab/tools/threadstat.c /work/main/lab/tools/procparse.h \
 /work/main/lab/tools/util.h
/work/main/lab/tools/procparse.h:
/work/main/lab/tools/util.h:
