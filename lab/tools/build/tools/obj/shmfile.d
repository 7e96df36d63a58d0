/work/main/lab/tools/build/tools/obj/shmfile.o: \
 /work/main/lab/tools/shmfile.c /work/main/lab/tools/shmfile.h
/work/main/lab/tools/shmfile.h:
