#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The report's 6.12-against-6.1 section (plots/upstream.awk) on the
# recorded run with its rows copied to the 6.1 variants: the same numbers
# give the same verdicts; a v6.1 that delivers no more than v6.1-revert
# makes Dumazet's verdicts differ, and the section says so.  A run
# without the 6.1 variants has no such section.
# tests/run: side
set -u
# shellcheck source=lab/lib/lib.sh
. "$(dirname "$0")/../../lab/lib/lib.sh"
# shellcheck source=tests/lib.sh
. "$LAB_TOP/tests/lib.sh"

SRC=$LAB_TOP/tests/fixtures/run-sample
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
SECTION='## 6.12 forward port against 6.1 upstream code'

# upstream_run <dir> <variant whose rows v6.1 copies>: the sample with
# v6.1-revert, v6.1 and v6.1+threaded rows copied from vanilla, <variant>
# and threaded-napi, and their kernels in params.json
upstream_run()
{
	mkdir -p "$1"
	awk -F, -v OFS=, -v fix="$2" '
		NR == 1 { for (i = 1; i <= NF; i++) if ($i == "variant") c = i; print; next }
		{ print; v = $c
		  if (v == "vanilla") { $c = "v6.1-revert"; print }
		  if (v == fix) { $c = "v6.1"; print }
		  if (v == "threaded-napi") { $c = "v6.1+threaded"; print } }' \
		"$SRC/points.csv" >"$1/points.csv"
	jq '.kernels += {"v6.1-revert": (.kernels.vanilla + {variant: "v6.1-revert", tree: "6.1"}),
			 "v6.1": (.kernels.vanilla + {variant: "v6.1", tree: "6.1"}),
			 "v6.1+threaded": (.kernels.vanilla + {variant: "v6.1", tree: "6.1"})}' \
		"$SRC/params.json" >"$1/params.json"
}

# the section's row of claim <id>: its last cell (Same verdict)
same_verdict()
{
	sed -n "/^$SECTION/,/^## /p" "$1/report.md" | awk -F'|' -v id="$2" '$2 == " " id " " { print $5 }' |
		tr -d ' *'
}

upstream_run "$TMP/same" ksoftirqd-fix
check "plots/plot on a run with the 6.1 variants" "$LAB_TOP/plots/plot" "$TMP/same"
check "the report has the 6.12 against 6.1 section" grep -qx "$SECTION" "$TMP/same/report.md"
for id in dumazet abeni mogul; do
	check "same rows on both kernels: $id has the same verdict" test "$(same_verdict "$TMP/same" "$id")" = yes
done

upstream_run "$TMP/differ" vanilla
check "plots/plot with a v6.1 that delivers as v6.1-revert" "$LAB_TOP/plots/plot" "$TMP/differ"
check "that v6.1 fails Dumazet's claim: the section says the verdicts differ" \
	test "$(same_verdict "$TMP/differ" dumazet)" = no

mkdir -p "$TMP/plain"
cp "$SRC/points.csv" "$SRC/params.json" "$TMP/plain/"
check "plots/plot on a run without the 6.1 variants" "$LAB_TOP/plots/plot" "$TMP/plain"
check "... has no 6.1 section" bash -c "! grep -q '^$SECTION' '$TMP/plain/report.md'"
[ "$T_FAILED" = 0 ]
