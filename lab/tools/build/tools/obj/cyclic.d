/work/main/lab/tools/build/tools/obj/cyclic.o: \
 /work/main/lab/tools/cyclic.c /work/main/lab/tools/cyclic.h \
 /work/main/lab/tools/util.h /work/main/lab/tools/latstats.h
/work/main/lab/tools/cyclic.h:
/work/main/lab/tools/util.h:
/work/main/lab/tools/latstats.h:
