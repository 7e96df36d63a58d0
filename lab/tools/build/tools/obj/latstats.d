/work/main/lab/tools/build/tools/obj/latstats.o: \
 /work/main/lab/tools/latstats.c /work/main/lab/tools/latstats.h \
 /work/main/lab/tools/util.h
/work/main/lab/tools/latstats.h:
/work/main/lab/tools/util.h:
