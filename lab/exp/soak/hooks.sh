# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034 # globals shared with the driver (lab/lib/driver.sh)
# The soak (lab/soak): the RX experiment's point, one per variant, at a
# sweep's verdict rate for a long window, the receiver sampled along the
# way; see lab/exp/soak/meta.  Hooks of lab/lib/driver.sh (the RX ones,
# but for these); sourced after lab/exp/soak/params.sh.

# shellcheck source=lab/exp/rx/hooks.sh
. "$LAB_TOP/lab/exp/rx/hooks.sh"

EXP=soak
EXP_RUN_PREFIX=soak-
EXP_POINT=$LAB_TOP/lab/exp/rx/point.awk

exp_params()
{
	jq -n --arg sweep "${SWEEP#"$LAB_TOP"/}" --argjson series "$SERIES" --arg rate "$RATES" \
		--argjson rx "$(GENERATOR=flood rx_params)" '
		$rx + {sweep: $sweep, soak_rate: $rate, series_s: $series,
		       stationary_within_pct: 10}'
}

exp_describe()
{
	echo "at $RATES pps (${SWEEP#"$LAB_TOP"/}'s verdict rate) for ${WINDOW}s"
}

exp_guest()
{
	apply_qemu_sched
	settle_guest
	POS=1
	CUR="$VARIANT soak at $RATES"
	measure_point tput "$RATES"
	point_done
}

exp_progress()
{
	echo "delivered $(last_row_col delivered_pps) pps over the window," \
		"$(series_median "$VARIANT" | cut -d' ' -f1) pps median of the samples"
}

# The median delivered rate over the samples of a variant's soak (one
# boot per variant, one point): "pps n".
series_median()
{
	awk 'NR > 1 && $1 > t { r[++n] = ($2 - p) / (($1 - t) / 1e9) }
	     { t = $1; p = $2 }
	     END {
		for (i = 2; i <= n; i++)
			for (j = i; j > 1 && r[j] < r[j - 1]; j--) { x = r[j]; r[j] = r[j - 1]; r[j - 1] = x }
		if (n) printf "%.0f %d\n", n % 2 ? r[(n + 1) / 2] : (r[n / 2] + r[n / 2 + 1]) / 2, n
	     }' "$RUN/raw/$1-r1-tput-$RATES.series"
}

# summary.csv: per variant the soak's median against the sweep's; the
# same verdicts, worded, in soak.txt
exp_summarize()
{
	local v got n want dev ok tol

	tol=$(rule soak.stationary_pct)

	echo "variant,rate,soak_median_pps,samples,sweep_median_pps,deviation_pct,stationary"
	echo "# soak of ${SWEEP#"$LAB_TOP"/} at its verdict rate $RATES pps, ${WINDOW}s per variant, sampled every ${SERIES}s$([ "$DEBUG" = 1 ] && echo ", DEBUG=1 kernels")" \
		>"$RUN/soak.txt"
	for v in $VARIANTS; do
		read -r got n <<<"$(series_median "$v")"
		want=$(awk -F, -v v="$v" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
			$c["variant"] == v { print $c["delivered_pps"] }' "$SWEEP/summary.csv")
		dev=$(awk -v g="$got" -v w="$want" 'BEGIN { if (w > 0) printf "%+.1f", 100 * (g / w - 1) }')
		ok=$(awk -v d="$dev" -v t="$tol" 'BEGIN { print (d != "" && d <= t && d >= -t) ? 1 : 0 }')
		echo "$v,$RATES,$got,$n,$want,$dev,$ok"
		echo "soak $v: $([ "$ok" = 1 ] && echo stationary || echo "NOT stationary"): ${got} pps median over $n samples of ${SERIES}s, the sweep's ${want:-(none)} (${dev:-?} %, $([ "$ok" = 1 ] && echo within || echo outside) ±$tol %); console $(grep -q "^ok $v " "$RUN/health.txt" && echo clean || echo "NOT clean")" \
			>>"$RUN/soak.txt"
	done
	cat "$RUN/soak.txt" >&2
}

# The sweep's report gets the soak's verdicts.
exp_plot()
{
	cp "$RUN/soak.txt" "$SWEEP/soak$([ "$DEBUG" = 1 ] && echo -debug).txt"
	[ "$PLOT" = 0 ] || "$LAB_TOP/plots/plot" "$SWEEP"
	! grep -q 'NOT stationary' "$RUN/soak.txt" || die "not stationary: see $RUN/soak.txt"
}
