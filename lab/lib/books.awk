# SPDX-License-Identifier: GPL-2.0
# The CPU books of a points.csv, before anything reports a share: a row
# whose books do not close (closure_ok != 1: the residual of
# lab/exp/rx/point.awk is outside +-3 %, or there was no PSI irq time to
# close them with) keeps its residual, its idle share (the saturation
# gate's input, an exact NO_HZ counter) and its run delays, but loses the
# CPU shares the attribution gives (the threads, softirq in irq context,
# hardirq, other tasks) and the receiver's CPU per packet: an attribution
# that does not add up is not reported.  points.csv itself keeps every
# number (the record); lab/lib/lib.sh's summarize() and plots/plot read
# it through this filter.  A CSV without closure_ok (the TX experiment)
# passes unchanged.
#
#   awk -f lab/lib/books.awk points.csv

BEGIN {
	FS = OFS = ","
	nw = split("recv_cpu ksoftirqd_cpu napi_cpu sampler_cpu responder_cpu " \
		   "softirq_irqctx_cpu hardirq_cpu other_cpu recv_us_per_pkt", withheld, " ")
}

NR == 1 {
	for (i = 1; i <= NF; i++)
		c[$i] = i
	print
	next
}

!("closure_ok" in c) || $c["closure_ok"] == 1 { print; next }

{
	for (i = 1; i <= nw; i++)
		if (withheld[i] in c)
			$c[withheld[i]] = ""
	print
}
