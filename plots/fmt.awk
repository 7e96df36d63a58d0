# SPDX-License-Identifier: GPL-2.0
# Number formatting of the TX report (plots/tx-report.awk).

# packets/s: rounded, thousands separated by commas (2,939)
function thou(x,    s, sign, r) {
	s = sprintf("%.0f", x)
	sign = ""
	if (substr(s, 1, 1) == "-") {
		sign = "-"
		s = substr(s, 2)
	}
	r = ""
	while (length(s) > 3) {
		r = "," substr(s, length(s) - 2) r
		s = substr(s, 1, length(s) - 3)
	}
	return sign s r
}

# percentages of guest CPU: one decimal; "–" for none
function pct1(x) {
	return x == "" ? "–" : sprintf("%.1f", x)
}

# "75 % CI, n=3"; one sample has no interval
function ci_note(cov, n) {
	if (n < 2)
		return "no CI, n=" n
	return sprintf("%.0f %% CI, n=%d", 100 * cov, n)
}

# "2,939 [2,610–3,041]" (kind "pps") or "49.4 [47.9–50.0]" (kind "pct")
function ci_range(m, lo, hi, kind, n) {
	if (kind == "pps")
		return n < 2 ? thou(m) : thou(m) " [" thou(lo) "–" thou(hi) "]"
	if (m == "")
		return "–"
	return n < 2 ? pct1(m) : pct1(m) " [" pct1(lo) "–" pct1(hi) "]"
}

function accel_name(a) {
	return a == "tcg" ? "TCG (emulated CPU)" : a == "kvm" ? "KVM" : "an unknown accelerator"
}

# P["speed"]: "fixed speed, 62.5 M instructions/s (icount:4)" or "native
# speed" (a run that records none ran at native speed)
function speed_name() {
	if (P["speed"] == "" || P["speed"] == "native")
		return "native speed"
	return "fixed speed, " P["guest_mips"] " M instructions/s (" P["speed"] ")"
}

# The reports' title pieces, from their S[i, "variant"] (i = 1..ns) and
# P["accel"]: "vanilla, ksoftirqd-fix" and "TCG".
function variant_list(    i, vl) {
	for (i = 1; i <= ns; i++)
		vl = vl (i > 1 ? ", " : "") S[i, "variant"]
	return vl
}

function accel_tag() {
	return (P["accel"] == "" ? "accelerator unknown" : toupper(P["accel"])) ", " speed_name()
}
