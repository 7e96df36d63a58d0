#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Kernel pipeline: every variant builds from the Debian tarball, each
# branch is exactly base + its series, vanilla has none, bad input is
# refused, and the build-time checks (trylock, the ksoftirqd fix) can fail.
# tests/run: busy
set -u
# shellcheck source=lab/lib/lib.sh
. "$(dirname "$0")/../../lab/lib/lib.sh"
# shellcheck source=tests/lib.sh
. "$LAB_TOP/tests/lib.sh"

# each variant's branch lives in its own work tree
vtree()
{
	echo "$LAB_KBUILD/v/$1"
}

patch_ids_of_series()
{
	local d p

	for d in $(variant_series_dirs "$1"); do
		for p in $(series_patches "$d"); do
			git patch-id --stable <"$p" | cut -d' ' -f1
		done
	done
}

patch_ids_of_branch()
{
	local c

	for c in $(git -C "$(vtree "$1")" rev-list --reverse "base..$1"); do
		git -C "$(vtree "$1")" show "$c" | git patch-id --stable | cut -d' ' -f1
	done
}

# The branch carries exactly the series' commits, in order.
branch_is_series()
{
	local want have

	want=$(patch_ids_of_series "$1")
	have=$(patch_ids_of_branch "$1")
	printf 'want:\n%s\nhave:\n%s\n' "$want" "$have" >>"$T_LOG"
	[ "$want" = "$have" ] &&
		[ "$(git -C "$(vtree "$1")" rev-list --count "base..$1")" = "$(printf '%s' "$want" | grep -c .)" ] &&
		[ "$(git -C "$(vtree "$1")" symbolic-ref --short HEAD)" = "$1" ]
}

kernel_ok()
{
	local d=$LAB_KBUILD/kernels/$1

	file "$d/bzImage" | grep -q 'Linux kernel x86 boot executable' &&
		grep -qx "variant=$1" "$d/info" &&
		grep -q "^release=.*-$1\$" "$d/info" &&
		grep -qx "series_hash=$(variant_series_hash "$1")" "$d/info" &&
		grep -qE '^config_hash=[0-9a-f]{12}$' "$d/info" &&
		grep -qx 'CONFIG_IRQ_TIME_ACCOUNTING=y' "$d/config"
}

# fake_tree <dir> <spin_lock|spin_trylock> [fix]: net_tx_action() with
# that lock; kernel/softirq.c with ksoftirqd_running() and its three
# callers if "fix"
fake_tree()
{
	local dir=$1 lock=$2 fix=${3:-} runtime=${4:-50 * NSEC_PER_MSEC}

	mkdir -p "$dir/net/core" "$dir/kernel/sched"
	# 6.12's fair deadline server (runtime "none": a 6.1 tree, without it)
	if [ "$runtime" = none ]; then
		echo 'static void update_curr_dl(struct rq *rq)' >"$dir/kernel/sched/deadline.c"
	else
		cat >"$dir/kernel/sched/deadline.c" <<C
void dl_server_start(struct sched_dl_entity *dl_se)
{
	if (!dl_server(dl_se)) {
		u64 runtime =  $runtime;
		u64 period = 1000 * NSEC_PER_MSEC;
	}
}
C
	fi
	if [ "$fix" = fix ]; then
		cat >"$dir/kernel/softirq.c" <<C
static bool ksoftirqd_running(unsigned long pending)
{
}
	if (!pending || ksoftirqd_running(pending))
	if (ksoftirqd_running(local_softirq_pending()))
	if (pending && !ksoftirqd_running(pending))
C
	else
		echo 'static void wakeup_softirqd(void)' >"$dir/kernel/softirq.c"
	fi
	cat >"$dir/net/core/dev.c" <<C
static __latent_entropy void net_tx_action(void)
{
	if (!(q->flags & TCQ_F_NOLOCK)) {
		root_lock = qdisc_lock(q);
		$lock(root_lock);
	}
}
C
}

check "make kernels builds every variant" make -C "$LAB_TOP" kernels
# A build whose inputs are unchanged is not asked of kbuild again (~4 s a
# variant); one whose installed bzImage is not the build's is.
rebuild_says()	# <wanted log line> <variant>
{
	local log=$LAB_KBUILD/v/$2/out/build.log before out

	before=$(stat -c %Y.%s "$log")
	out=$("$LAB_TOP/lab/kernel/build" "$2" 2>&1)
	printf '%s\n' "$out" >>"$T_LOG"
	grep -q "$2: $1" <<<"$out" || return 1
	case $1 in
	"up to date"*) [ "$(stat -c %Y.%s "$log")" = "$before" ] ;;
	*) cmp -s "$LAB_KBUILD/v/$2/out/arch/x86/boot/bzImage" "$LAB_KBUILD/kernels/$2/bzImage" ;;
	esac
}
check "vanilla again, nothing changed: up to date, kbuild not run" rebuild_says "up to date" vanilla
printf 'x' >>"$LAB_KBUILD/kernels/vanilla/bzImage"
check "vanilla with an installed bzImage not the build's: kbuild runs, the build's is installed" \
	rebuild_says "building" vanilla
for v in $(known_variants); do
	check "$v: bzImage built, info stamped (release, series and config hash)" kernel_ok "$v"
	check "$v: branch is base + exactly the commits of its series" branch_is_series "$v"
done
check "vanilla: no commit on top of the pristine tree" \
	test "$(git -C "$(vtree vanilla)" rev-parse vanilla)" = "$(git -C "$LAB_KBUILD/linux" rev-parse base)"
check "the pristine tree stays on base, unmodified" \
	test -z "$(git -C "$LAB_KBUILD/linux" status --porcelain -uno)"
check "the 6.1 tree stays on base, unmodified" \
	test -z "$(git -C "$LAB_KBUILD/linux-6.1" status --porcelain -uno)"
# one config per tree: the same fragment on each tree's defconfig
same_config_per_tree()
{
	local t v

	for t in $(for v in $(known_variants); do variant_tree "$v"; done | sort -u); do
		for v in $(known_variants); do
			[ "$(variant_tree "$v")" != "$t" ] ||
				sed -n 's/^config_hash=//p' "$LAB_KBUILD/kernels/$v/info"
		done | sort -u | wc -l | grep -qx 1 || return 1
	done
}
check "every variant of a tree has the same config (6.12; 6.1)" same_config_per_tree
check "v6.1: built from linux-source-6.1 (info: tree, base_version 6.1.x)" \
	bash -c "grep -qx 'tree=6.1' '$LAB_KBUILD/kernels/v6.1/info' && grep -q '^base_version=6\.1\.[0-9]*\$' '$LAB_KBUILD/kernels/v6.1-revert/info'"
check "v6.1: what 6.1 lacks of the guest config is stamped (config_missing)" \
	grep -q '^config_missing=' "$LAB_KBUILD/kernels/v6.1/info"

refuse "make kernels VARIANTS=nope names the known variants" \
	"unknown variant 'nope' \(known: vanilla ksoftirqd-fix threaded-napi" \
	make -C "$LAB_TOP" kernels VARIANTS=nope

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fake_tree "$tmp/trylock" spin_trylock
fake_tree "$tmp/lock" spin_lock
fake_tree "$tmp/fix" spin_lock fix
refuse "check-tree fails loudly if the base tree brings the trylock back" \
	"spin_trylock\(root_lock\) again" "$LAB_TOP/lab/kernel/check-tree" "$tmp/trylock" vanilla
# what a tree must contain is each variant's has= (the variants file),
# never its name: a variants file of one's own, as LAB_VARIANTS_FILE
printf 'vanilla\nx\thas=trylock\nmy-fix\thas=ksoftirqd-deferral\nksoftirqd-fix-copy\nodd\thas=ksoftirqd-deferral,threads\n' \
	>"$tmp/decl-variants"
decl()
{
	LAB_VARIANTS_FILE="$tmp/decl-variants" "$LAB_TOP/lab/kernel/check-tree" "$@"
}
refuse "check-tree fails if a variant declaring has=trylock lacks the trylock" \
	"must restore spin_trylock" decl "$tmp/lock" x
check "check-tree takes the fix in my-fix, which declares has=ksoftirqd-deferral" decl "$tmp/fix" my-fix
refuse "check-tree refuses the fix in ksoftirqd-fix-copy, which does not declare it (the name says nothing)" \
	"ksoftirqd-fix-copy: kernel/softirq.c has ksoftirqd_running" decl "$tmp/fix" ksoftirqd-fix-copy
refuse "check-tree refuses a mechanism it does not know" "has=threads: no such mechanism" decl "$tmp/fix" odd
refuse "check-tree refuses a variant its variants file lacks" "unknown variant 'nope'" decl "$tmp/fix" nope
check "check-tree accepts spin_lock() for a normal variant" \
	"$LAB_TOP/lab/kernel/check-tree" "$tmp/lock" vanilla
refuse "check-tree fails if v6.1 lacks Eric Dumazet's fix" \
	"v6.1 must defer to a running ksoftirqd" "$LAB_TOP/lab/kernel/check-tree" "$tmp/lock" v6.1
refuse "check-tree fails if v6.1-revert still has the fix" \
	"v6.1-revert: kernel/softirq.c has ksoftirqd_running" "$LAB_TOP/lab/kernel/check-tree" "$tmp/fix" v6.1-revert
refuse "check-tree fails if vanilla has the fix" \
	"vanilla: kernel/softirq.c has ksoftirqd_running" "$LAB_TOP/lab/kernel/check-tree" "$tmp/fix" vanilla
check "check-tree accepts the fix in v6.1 and ksoftirqd-fix" \
	bash -c "'$LAB_TOP/lab/kernel/check-tree' '$tmp/fix' v6.1 && '$LAB_TOP/lab/kernel/check-tree' '$tmp/fix' ksoftirqd-fix"

# The middle grounds (issue 38), on the trees make kernels made: each
# mechanism found where its has= says, refused where it does not
vt()
{
	echo "$LAB_KBUILD/v/$1"
}
check "check-tree accepts the bounded deferral in ksoftirqd-fix+bounded's tree" \
	"$LAB_TOP/lab/kernel/check-tree" "$(vt ksoftirqd-fix+bounded)" ksoftirqd-fix+bounded
check "check-tree accepts the per-vector deferral in per-vector's tree" \
	"$LAB_TOP/lab/kernel/check-tree" "$(vt per-vector)" per-vector
refuse "check-tree refuses ksoftirqd-fix+bounded's tree for ksoftirqd-fix (has= does not say bounded-deferral)" \
	"softirq_defer_until \(a bounded deferral" "$LAB_TOP/lab/kernel/check-tree" "$(vt ksoftirqd-fix+bounded)" ksoftirqd-fix
refuse "check-tree refuses ksoftirqd-fix's tree for ksoftirqd-fix+bounded (no bound)" \
	"must bound the deferral" "$LAB_TOP/lab/kernel/check-tree" "$(vt ksoftirqd-fix)" ksoftirqd-fix+bounded
refuse "check-tree refuses per-vector's tree for vanilla (has= does not say per-vector-deferral)" \
	"softirq_deferred \(per-vector deferral" "$LAB_TOP/lab/kernel/check-tree" "$(vt per-vector)" vanilla
refuse "check-tree refuses vanilla's tree for per-vector (no per-vector deferral)" \
	"must defer per vector" "$LAB_TOP/lab/kernel/check-tree" "$LAB_KBUILD/linux" per-vector
for v in ksoftirqd-fix+bounded per-vector; do
	check "$v: every commit builds the files it touches with W=1, no new warning" \
		"$LAB_TOP/lab/kernel/check-series" "$v"
done

# 6.12's fair deadline server: on (50 ms) everywhere but where a variant
# says has=no-fair-server (0); a tree without it (6.1) has nothing to check
fake_tree "$tmp/fs0" spin_lock "" 0
fake_tree "$tmp/nofs" spin_lock "" none
check "check-tree accepts the server off in vanilla+no-fair-server" \
	"$LAB_TOP/lab/kernel/check-tree" "$tmp/fs0" vanilla+no-fair-server
refuse "check-tree fails if vanilla+no-fair-server keeps the server's 50 ms" \
	"the fair server starts with runtime '50 \* NSEC_PER_MSEC', not '0'" \
	"$LAB_TOP/lab/kernel/check-tree" "$tmp/lock" vanilla+no-fair-server
refuse "check-tree fails if vanilla starts the server with no runtime" \
	"the fair server starts with runtime '0', not '50 \* NSEC_PER_MSEC'" \
	"$LAB_TOP/lab/kernel/check-tree" "$tmp/fs0" vanilla
refuse "check-tree fails if a tree without a fair server is to have it off" \
	"no fair server in kernel/sched/deadline.c to disable" \
	"$LAB_TOP/lab/kernel/check-tree" "$tmp/nofs" vanilla+no-fair-server
check "check-tree accepts a tree without a fair server (6.1) for vanilla" \
	"$LAB_TOP/lab/kernel/check-tree" "$tmp/nofs" vanilla

# A patch that does not apply stops the build naming the patch.
mkdir -p "$tmp/series-broken"
cat >"$tmp/series-broken/0001-broken.patch" <<'P'
From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
From: livelock-lab <livelock-lab@example.org>
Subject: [PATCH] test: a hunk that cannot apply

---
 Makefile | 2 +-
 1 file changed, 1 insertion(+), 1 deletion(-)

diff --git a/Makefile b/Makefile
--- a/Makefile
+++ b/Makefile
@@ -1,3 +1,3 @@
 # this line is not in the kernel Makefile
-VERSION = 5
+VERSION = 7
 PATCHLEVEL = 12
P
echo 0001-broken.patch >"$tmp/series-broken/series"
printf 'vanilla\nbroken\t%s\n' "$tmp/series-broken" >"$tmp/variants"
refuse "a patch that does not apply stops the build with its name" \
	"broken: patch .*0001-broken.patch does not apply" \
	env LAB_VARIANTS_FILE="$tmp/variants" "$LAB_TOP/lab/kernel/build" broken
check "a failed variant leaves no branch behind" \
	bash -c "! git -C '$LAB_KBUILD/v/broken' rev-parse -q --verify refs/heads/broken"
# Its work tree stays, like every variant's (back on base, the branch
# gone): the next run makes the branch anew rather than copying the tree
# and removing it again (28 -> 21 s).
rm -rf "$LAB_KBUILD/kernels/broken"

# checkpatch --strict on every patch the lab carries: nothing but "Unknown
# commit id" (a tree made from a tarball cannot resolve upstream ids).
checkpatch_clean()
{
	local out rc=0

	out=$(cd "$LAB_KBUILD/linux" && perl scripts/checkpatch.pl --strict --no-tree -q "$@" 2>&1) || rc=$?
	printf '%s\n' "$out" >>"$T_LOG"
	# -q says nothing about a clean patch
	{ [ -z "$out" ] && [ $rc = 0 ]; } && return 0
	printf '%s\n' "$out" | grep -q '^total: 0 errors, [0-9]* warnings, 0 checks' &&
		! printf '%s\n' "$out" | grep -E '^(ERROR|WARNING|CHECK):' | grep -qv 'Unknown commit id'
}
# maintainers_cover <patch>: every file the patch adds lies under a
# directory an F: line of the tree's MAINTAINERS names
maintainers_cover()
{
	local f n=0

	while read -r f; do
		n=$((n + 1))
		awk -v f="$f" '/^F:\t/ { d = $2; if (d ~ /\/$/ && index(f, d) == 1) ok = 1 } END { exit !ok }' \
			"$LAB_KBUILD/linux/MAINTAINERS" || { echo "no F: entry covers $f"; return 1; }
	done < <(awk '/^diff --git / { f = $4 } /^new file mode/ { sub(/^b\//, "", f); print f }' "$1")
	[ $n -gt 0 ]
}
# No patch the lab carries is signed: the series are RFCs whose submitter
# adds their own Signed-off-by (tests/e2e/22-series.t checks that none
# is there), the rest are lab builds.
for p in "$LAB_TOP"/series-*/0[0-9][0-9][1-9]-*.patch "$LAB_TOP"/lab/ablations/*/0*.patch \
	 "$LAB_TOP"/lab/upstream/*/0*.patch; do
	if grep -q '^new file mode' "$p"; then
		# checkpatch asks of every new file whether MAINTAINERS needs
		# updating: it does not when an F: entry already covers it
		check "checkpatch --strict (but the sign-off; new files MAINTAINERS covers): ${p#"$LAB_TOP"/}" \
			checkpatch_clean --ignore MISSING_SIGN_OFF,FILE_PATH_CHANGES "$p"
		check "MAINTAINERS covers every file ${p#"$LAB_TOP"/} adds" maintainers_cover "$p"
	else
		check "checkpatch --strict (but the sign-off): ${p#"$LAB_TOP"/}" \
			checkpatch_clean --ignore MISSING_SIGN_OFF "$p"
	fi
done
# the check fails where checkpatch complains: a line with trailing blanks
cptmp=$(mktemp -d)
sed '0,/^+[^+]/s/^+\([^+].*\)$/+\1  /' "$(ls "$LAB_TOP"/series-threaded-napi/0003-*.patch)" >"$cptmp/0001-blanks.patch"
check "checkpatch_clean refuses a patch with trailing whitespace" \
	bash -c "$(declare -f checkpatch_clean); T_LOG=/dev/null LAB_KBUILD='$LAB_KBUILD'; ! checkpatch_clean --ignore MISSING_SIGN_OFF '$cptmp/0001-blanks.patch'"
rm -rf "$cptmp"

# The optional poll-loop fix (not a default variant) still applies on
# top of threaded-napi.
check "lab/ablations/napi-yield applies on top of threaded-napi" \
	git -C "$(vtree threaded-napi)" apply --check \
	"$LAB_TOP"/lab/ablations/napi-yield/0001-*.patch

# Every commit of each series builds with W=1: tests/e2e/22-series.t
# (lab/kernel/check-series).

# Each variant's work tree shares the pristine files by hard link; the
# files its patches change are its own.
check "variant work trees do not write through to the pristine tree" \
	bash -c "git -C '$LAB_KBUILD/linux' diff --quiet base && ! cmp -s '$LAB_KBUILD/linux/kernel/softirq.c' '$LAB_KBUILD/v/ksoftirqd-fix/kernel/softirq.c'"
