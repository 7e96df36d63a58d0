/work/main/lab/tools/build/tools/obj/schedset.o: \
 /work/main/lab/tools/schedset.c /work/main/lab/tools/procparse.h \
 /work/main/lab/tools/util.h
/work/main/lab/tools/procparse.h:
/work/main/lab/tools/util.h:
