# SPDX-License-Identifier: GPL-2.0
# Per-variant summary of the RX experiment's points.csv (summarize() of
# lab/lib/lib.sh): the throughput pass only; columns read by name, those
# it needs must be there.  Per (variant, rate): medians over the repetitions of the
# delivered rate, loss, guest idle and the generator's error.  Then:
#   verdict_rate  the highest rate at which every variant passes the
#                 gates (gates_pass() of lab/lib/stats.awk): the
#                 same offered load for all; empty if none does.  With
#                 -v gated="v1 v2 ..." (lab/lib/lib.sh's gated_variants: the
#                 kernel variants, not the setting variants) only those
#                 must pass: a defence is measured at the kernels' verdict
#                 rate, its own gates reported beside it
#   MLFRR         [mlfrr_lo, mlfrr_hi): mlfrr_lo is the highest rate such
#                 that it and every lower rate lose < 1 % (median loss),
#                 mlfrr_hi the first rate that does not (empty: none)
# and each variant's numbers at the verdict rate with their CIs.

BEGIN { FS = "," }

NR == 1 {
	for (i = 1; i <= NF; i++)
		c[$i] = i
	nneed = split("variant rep rate_target delivered_pps loss_pct idle_cpu gen_err_pct recv_cpu", need, " ")
	for (i = 1; i <= nneed; i++)
		if (!(need[i] in c))
			miss = miss (miss == "" ? "" : " ") need[i]
	if (miss != "") {
		printf "summarize: %s has an unknown header: no %s (a run of an older lab?)\n",
			(file != "" ? file : FILENAME), miss > "/dev/stderr"
		bad = 1
		exit 1
	}
	next
}

("pass" in c) && $c["pass"] != "tput" { next }

{
	v = $c["variant"]; t = $c["rate_target"] + 0
	if (!(v in seen)) {
		seen[v] = 1
		order[++nv] = v
	}
	if (!((v, t) in n)) {
		n[v, t] = 0
		if (!(t in rate_seen)) {
			rate_seen[t] = 1
			rates[++nrates] = t
		}
	}
	k = ++n[v, t]
	reps[v, k] = 1
	split("delivered_pps loss_pct idle_cpu gen_err_pct offered_pps recv_cpu ksoftirqd_cpu " \
	      "napi_cpu softirq_irqctx_cpu recv_wait_pct recv_us_per_pkt closure_pct " \
	      "qemu_main_wait_pct qemu_vcpu_run_pct gate_clock host_ceiling_pps", m, " ")
	for (i in m)
		if (m[i] in c)
			val[v, t, m[i], k] = $c[m[i]]
}

# median over the repetitions of metric w at (v, t); ci_* set
function med(v, t, w,    a, k, cnt) {
	cnt = 0
	for (k = 1; k <= n[v, t]; k++)
		if (val[v, t, w, k] != "")
			a[++cnt] = val[v, t, w, k]
	mstat = med_ci(a, cnt)
	mn = cnt
	return cnt ? median(a, cnt) : ""
}

END {
	if (bad)
		exit 1
	# rates ascending; unlimited (0) above every paced rate
	for (i = 1; i <= nrates; i++)
		rk[i] = rates[i] == 0 ? unlimited_rank() : rates[i]
	sort_num(rk, nrates)
	for (i = 1; i <= nrates; i++)
		rs[i] = rk[i] == unlimited_rank() ? 0 : rk[i]
	vr = ""
	for (i = 1; i <= nrates; i++) {
		t = rs[i]
		if (t == 0)
			continue
		ok = 1
		for (j = 1; j <= nv; j++) {
			v = order[j]
			if (!gating(v))
				continue
			if (!((v, t) in n) || !gates_pass(med(v, t, "idle_cpu"),
			    med(v, t, "gen_err_pct"), med(v, t, "gate_clock"),
			    med(v, t, "host_ceiling_pps"), med(v, t, "offered_pps")))
				ok = 0
		}
		if (ok)
			vr = t
	}
	print "variant,reps,verdict_rate,mlfrr_lo,mlfrr_hi,delivered_pps,delivered_lo,delivered_hi," \
	      "recv_cpu,recv_cpu_lo,recv_cpu_hi,idle_cpu,gen_err_pct,ksoftirqd_cpu,napi_cpu," \
	      "softirq_irqctx_cpu,recv_wait_pct,recv_us_per_pkt,closure_pct,qemu_main_wait_pct"
	for (j = 1; j <= nv; j++) {
		v = order[j]
		lo = ""; hi = ""
		for (i = 1; i <= nrates; i++) {
			t = rs[i]
			if (!((v, t) in n))
				continue
			if (lossfree(med(v, t, "loss_pct")))
				lo = t
			else {
				hi = t
				break
			}
		}
		row = v "," n[v, rs[1]] "," vr "," lo "," hi
		if (vr == "") {
			print row ",,,,,,,,,,,,,,,"
			continue
		}
		med(v, vr, "delivered_pps"); row = row "," mstat
		med(v, vr, "recv_cpu"); row = row "," mstat
		split("idle_cpu gen_err_pct ksoftirqd_cpu napi_cpu softirq_irqctx_cpu recv_wait_pct " \
		      "recv_us_per_pkt closure_pct qemu_main_wait_pct", w, " ")
		for (i = 1; i <= 9; i++)
			row = row "," num(med(v, vr, w[i]))
		print row
	}
}
