/work/main/lab/tools/build/tools/obj/qdisc_setup.o: \
 /work/main/lab/tools/qdisc_setup.c /work/main/lab/tools/qdisc_nl.h \
 /work/main/lab/tools/util.h
/work/main/lab/tools/qdisc_nl.h:
/work/main/lab/tools/util.h:
