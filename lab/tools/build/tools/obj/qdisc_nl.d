/work/main/lab/tools/build/tools/obj/qdisc_nl.o: \
 /work/main/lab/tools/qdisc_nl.c /work/main/lab/tools/qdisc_nl.h
/work/main/lab/tools/qdisc_nl.h:
