/work/main/lab/tools/build/tools/obj/util.o: /work/main/lab/tools/util.c \
 /work/main/lab/tools/util.h
/work/main/lab/tools/util.h:
