#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# One's own patch in one command (lab/run --variant NAME=DIR): a directory
# of git format-patch output outside the clone (here a copy of
# series-ksoftirqd-fix's patches, without their series file, and a "has"
# file saying what its tree contains) is built on vanilla's tree and run,
# no tracked file touched; bad uses are refused before anything is built.
set -u
# shellcheck source=lab/lib/lib.sh
. "$(dirname "$0")/../../lab/lib/lib.sh"
# shellcheck source=tests/lib.sh
. "$LAB_TOP/tests/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mine=$tmp/outside-the-clone/my-series
mkdir -p "$mine" "$tmp/empty"
# git format-patch --cover-letter output as is: its cover is skipped
cp "$LAB_TOP"/series-ksoftirqd-fix/0*.patch "$mine/"
echo ksoftirqd-deferral >"$mine/has"
RUN=$LAB_BUILD/test-runs/own-variant
rm -rf "$RUN"
tracked_sum()
{
	git -C "$LAB_TOP" ls-files -z | (cd "$LAB_TOP" && xargs -0 sha256sum) | sha256sum
}
before=$(tracked_sum)

refuse "--variant without NAME=DIR is refused" "--variant 'mine': NAME=DIR" \
	"$LAB_TOP/lab/run" --variant mine --dry-run
refuse "--variant with no such directory is refused" "--variant mine: no directory '$tmp/nope'" \
	"$LAB_TOP/lab/run" --variant "mine=$tmp/nope" --dry-run
refuse "--variant under a known variant's name is refused" "has a variant of that name" \
	"$LAB_TOP/lab/run" --variant "vanilla=$mine" --dry-run
refuse "--variant with no patch in its directory is refused" "no series file and no \\*.patch" \
	"$LAB_TOP/lab/run" --variant "mine=$tmp/empty" --dry-run
refuse "--variant twice under one name is refused" "--variant mine: given twice" \
	"$LAB_TOP/lab/run" --variant "mine=$mine" --variant "mine=$mine" --dry-run
check "--variant --dry-run: the variant joins the boots, nothing built or left behind" \
	bash -c "out=\$('$LAB_TOP/lab/run' -v vanilla --variant 'mine=$mine' --dry-run 2>&1); echo \"\$out\";
		grep -q \"variants='vanilla mine'\" <<<\"\$out\" && ! ls -d '$LAB_BUILD'/own-variants.* 2>/dev/null"

check "make initramfs" make -s -C "$LAB_TOP" initramfs
# 6 x the knee: vanilla starves there (e2e/20-lab); the fix's deferral
# hands NET_RX to ksoftirqd/0 and the receiver gets its packets
check "lab/run --variant mine=DIR: built on vanilla's tree, one point at 48000 pps" \
	"$LAB_TOP/lab/run" -v "" --variant "mine=$mine" -r 48000 --lat-rates "" -n 1 -W 1 -w 2 --no-plot -o "$RUN"
check "the build checked the tree for what DIR/has declares" \
	grep -q "check-tree: mine: ksoftirqd deferral (ksoftirqd_running/should_handle) present as expected" "$T_LOG"
check "mine's kernel is made of the copied patches (the series hash of ksoftirqd-fix's)" \
	test "$(sed -n 's/^series_hash=//p' "$LAB_KBUILD/kernels/mine/info")" = "$(variant_series_hash ksoftirqd-fix)"
check "the results keep the variants it was built from, mine with has=" \
	bash -c "grep -qP '^mine\\t[^\\t]*\\thas=ksoftirqd-deferral\$' '$RUN/variants'"
check "params.json records mine's kernel" jq -e '.kernels.mine.series_hash | length == 12' "$RUN/params.json"
check "mine at 48000 pps: NET_RX in ksoftirqd/0 (> 25 %), the receiver fed (> 5,000 pps)" \
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["variant"] == "mine" { n++; ok += $c["ksoftirqd_cpu"] > 25 && $c["delivered_pps"] > 5000 }
		END { exit !(n == 1 && ok == 1) }' "$RUN/points.csv"
check "no tracked file changed by the run, no temporary variants file left" \
	bash -c "[ '$before' = \"\$($(declare -f tracked_sum); tracked_sum)\" ] && ! ls -d '$LAB_BUILD'/own-variants.* 2>/dev/null"
[ "$T_FAILED" = 0 ]
