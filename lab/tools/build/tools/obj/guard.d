/work/main/lab/tools/build/tools/obj/guard.o: \
 /work/main/lab/tools/guard.c /work/main/lab/tools/guard.h \
 /work/main/lab/tools/util.h
/work/main/lab/tools/guard.h:
/work/main/lab/tools/util.h:
