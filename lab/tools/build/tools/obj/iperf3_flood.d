/work/main/lab/tools/build/tools/obj/iperf3_flood.o: \
 /work/main/lab/tools/iperf3_flood.c /work/main/lab/tools/guard.h \
 /work/main/lab/tools/util.h
/work/main/lab/tools/guard.h:
/work/main/lab/tools/util.h:
