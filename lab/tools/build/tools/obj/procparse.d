/work/main/lab/tools/build/tools/obj/procparse.o: \
 /work/main/lab/tools/procparse.c /work/main/lab/tools/procparse.h \
 /work/main/lab/tools/util.h
/work/main/lab/tools/procparse.h:
/work/main/lab/tools/util.h:
