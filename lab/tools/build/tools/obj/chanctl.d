/work/main/lab/tools/build/tools/obj/chanctl.o: \
 /work/main/lab/tools/chanctl.c /work/main/lab/tools/util.h
/work/main/lab/tools/util.h:
