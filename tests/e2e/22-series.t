#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The two series as patches (RFC format-patch output, no sign-off, credits,
# facts, checkpatch and a W=1 build of every commit) and threaded NAPI in
# booted guests: virtio_net.napi_threaded=1 gives eth0 its napi threads
# from boot and nothing else; dummy0 (no NAPI) refuses "threaded"; tun0
# (IFF_NAPI, instances only while attached) takes 0 and 1 between
# attaches on threaded-napi and refuses them on vanilla; eth0's
# "threaded" set to 0 before the first ifup keeps it in softirq mode.
set -u
# shellcheck source=lab/lib/lib.sh
. "$(dirname "$0")/../../lab/lib/lib.sh"
# shellcheck source=tests/lib.sh
. "$LAB_TOP/tests/lib.sh"

SERIES="series-ksoftirqd-fix series-threaded-napi series-ksoftirqd-bounded series-per-vector"

# ---- the patches ----------------------------------------------------------
# Subject of a git format-patch file, unfolded, without "[RFC PATCH n/m] ".
subject()
{
	awk '/^Subject: / { s = $0; getline; while ($0 ~ /^ /) { s = s $0; getline } print s; exit }' "$1" |
		sed 's/^Subject: \[RFC PATCH[^]]*\] //'
}

# git format-patch --rfc --cover-letter output: every subject "[RFC PATCH
# n/m]", the cover letter's From line the all-zero hash and each patch's a
# commit's, and a series file that lists every patch but the cover letter,
# in file order.
series_shape()
{
	local d=$LAB_TOP/$1 want have n p

	[ -f "$d/0000-cover-letter.patch" ] || return 1
	head -1 "$d/0000-cover-letter.patch" | grep -qx 'From 0\{40\} Mon Sep 17 00:00:00 2001' || return 1
	want=$(cd "$d" && for p in 0*.patch; do [ "${p#0000-}" != "$p" ] || echo "$p"; done)
	have=$(series_patches "$1" | xargs -n1 basename)
	[ -n "$want" ] && [ "$want" = "$have" ] || return 1
	n=$(wc -l <<<"$want")
	for p in $want; do
		head -1 "$d/$p" | grep -q '^From [0-9a-f]\{40\} Mon Sep 17 00:00:00 2001$' &&
			! head -1 "$d/$p" | grep -q '^From 0\{40\} ' || return 1
	done
	for p in "$d"/0*.patch; do
		grep -q "^Subject: \[RFC PATCH [0-9]*/$n\] " "$p" || return 1
	done
}

# Subjects: "subsys: Capitalised imperative", at most 72 columns.
subjects_ok()
{
	local p s rc=0

	for p in "$LAB_TOP/$1"/0*.patch; do
		s=$(subject "$p")
		echo "$(basename "$p"): ${#s} columns: $s" >>"$T_LOG"
		[ ${#s} -le 72 ] || rc=1
		printf '%s\n' "$s" | grep -Eq '^[a-z0-9_/.-]+(: [a-z0-9_/.-]+)*: [A-Z]' || rc=1
	done
	return $rc
}

# Date: headers strictly increasing in file order (cover letter first)
dates_in_order()
{
	local p last=0 t

	for p in "$LAB_TOP/$1"/0*.patch; do
		t=$(date -d "$(sed -n 's/^Date: //p' "$p" | head -1)" +%s) || return 1
		echo "$(basename "$p"): $t" >>"$T_LOG"
		[ "$t" -gt "$last" ] || return 1
		last=$t
	done
}

# livelock-lab is the only author, and nobody signs: livelock-lab is not
# a person, so a Signed-off-by from it certifies nothing (the DCO).  A
# submitter adds their own; the cover letter says so.
people_ok()
{
	local p

	for p in "$@"; do
		[ "$(grep -c '^From: ' "$p")" = 1 ] &&
			grep -qx 'From: livelock-lab <livelock-lab@example.org>' "$p" &&
			! grep -Eqi '^(signed-off|co-developed|reviewed|acked|tested)-by: ' "$p" || return 1
	done
}

# The cover letter: short (the lab's narrative is in README.md and docs/), marked not
# for merging, saying who signs, linking the revert's thread.
REVERT_LINKS="https://lore.kernel.org/netdev/305d7742212cbe98621b16be782b0562f1012cb6.camel@redhat.com
https://lore.kernel.org/r/57e66b364f1b6f09c9bc0316742c3b14f4ce83bd.1683526542.git.pabeni@redhat.com"
cover_ok()
{
	local c=$LAB_TOP/$1/0000-cover-letter.patch l

	echo "$(basename "$1") cover letter: $(wc -l <"$c") lines" >>"$T_LOG"
	[ "$(wc -l <"$c")" -le 120 ] && grep -q '^Not for merging' "$c" &&
		grep -q 'no Signed-off-by; whoever submits them adds their own' "$c" || return 1
	for l in $REVERT_LINKS; do
		grep -qx "Link: $l" "$c" || return 1
	done
}

for s in $SERIES; do
	check "$s: RFC format-patch output (all-zero cover hash), series file lists every patch" series_shape "$s"
	check "$s: subjects 'subsys: Capitalised', <= 72 columns" subjects_ok "$s"
	check "$s: Date: headers in series order" dates_in_order "$s"
	check "$s: livelock-lab is the only author, no Signed-off-by or other tag" people_ok "$LAB_TOP/$s"/0*.patch
	check "$s: cover letter <= 120 lines, not for merging, who signs, Link: to the revert's thread" cover_ok "$s"
done
check "lab/ablations: livelock-lab is the only author, no Signed-off-by" people_ok "$LAB_TOP"/lab/ablations/*/0*.patch

# The message body of a patch, unwrapped into one line (credits span lines)
body()
{
	sed -n '/^$/,/^---$/p' "$1" | tr '\n' ' ' | tr -s ' '
}
reapply=$(find "$LAB_TOP/series-ksoftirqd-fix" -name '0*-softirq-Reapply-*.patch' | sort | head -1)
credits_ok()
{
	local b

	[ -f "$reapply" ] || return 1
	b=$(body "$reapply")
	grep -qF 'commit 4cd13c21b207 ("softirq: Let ksoftirqd do its job")' <<<"$b" &&
		grep -qF 'commit 3c53776e29f8 ("Mark HI and TASKLET softirq synchronous")' <<<"$b" &&
		grep -qF 'commit 1342d8080f61 ("softirq: Don'"'"'t skip softirq execution when softirq thread is parking")' <<<"$b" &&
		grep -qiF 'commit d15121be7485 ("Revert "softirq: Let ksoftirqd do its job"")' <<<"$b"
}
check "ksoftirqd-fix: one Reapply patch credits 4cd13c21b207, 3c53776e29f8, 1342d8080f61 and the revert by hash and subject" \
	credits_ok
check "ksoftirqd-fix: the kthread patch cites be33db21427c by hash and subject" \
	bash -c "sed -n '/^\$/,/^---\$/p' '$LAB_TOP'/series-ksoftirqd-fix/0001-*.patch | tr '\n' ' ' | tr -s ' ' |
		grep -qF 'commit be33db21427c (\"kthread: unexport __kthread_should_park()\")'"

check "ksoftirqd-fix: the Reapply patch links the revert's thread" \
	bash -c 'for l in $1; do grep -qx "Link: $l" "$2" || exit 1; done' _ "$REVERT_LINKS" "$reapply"
tn_body()
{
	body "$(ls "$LAB_TOP"/series-threaded-napi/0"$1"-*.patch)"
}
check "threaded-napi: the sysfs patch credits 29863d41bb6e and 5fdd2f0e5c64 by hash and subject" \
	bash -c 'grep -qF "commit 29863d41bb6e (\"net: implement threaded-able napi poll loop support\")" <<<"$1" &&
		grep -qF "commit 5fdd2f0e5c64 (\"net: add sysfs attribute to control napi threaded mode\")" <<<"$1"' \
	_ "$(tn_body 001)"
check "threaded-napi: the virtio_net patch cites db9ae3b6b43c, the driver default reverted from stable" \
	bash -c 'grep -qF "commit db9ae3b6b43c (\"wireguard: device: enable threaded NAPI\")" <<<"$1"' _ "$(tn_body 002)"
# The middle grounds credit what they re-make: each of Jakub Kicinski's
# three patches by its Message-Id, Frederic Weisbecker's proof of concept
# by subject and tree.
bounded_credits()
{
	local n

	for n in 1 2 3; do
		body "$(ls "$LAB_TOP"/series-ksoftirqd-bounded/000"$n"-*.patch)" |
			grep -qF "Jakub Kicinski (Message-Id <20221222221244.1290833-$((n + 1))-kuba@kernel.org>)" || return 1
	done
}
check "ksoftirqd-fix+bounded: each patch credits Kicinski's posting by its Message-Id" bounded_credits
check "per-vector: the patch credits Weisbecker's \"softirq: Per vector thread deferment\" and its tree" \
	bash -c 'grep -qF "\"softirq: Per vector thread deferment\" by Frederic Weisbecker" <<<"$1" &&
		grep -qF "frederic/linux-dynticks" <<<"$1"' _ "$(body "$(ls "$LAB_TOP"/series-per-vector/0001-*.patch)")"

# Cheap rebuilds: kthread.h stays untouched; netdevice.h only by the
# threaded-napi patch that needs a field (its one full rebuild).
check "no series patch touches include/linux/kthread.h; netdevice.h only series-threaded-napi's 0001" \
	bash -c "! grep -lE '^diff --git a/include/linux/(kthread|netdevice)\.h' '$LAB_TOP'/series-*/0*.patch '$LAB_TOP'/lab/ablations/*/0*.patch |
		grep -v '/series-threaded-napi/0001-'"

# Facts: 3bcb846ca4cf is v4.8 (net-next, after the v4.7 merge window).
facts_files()
{
	ls "$LAB_TOP"/series-*/0*.patch "$LAB_TOP"/lab/ablations/*/0*.patch \
		"$LAB_TOP"/lab/kernel/check-tree "$LAB_TOP"/README.md "$LAB_TOP"/docs/*.md
}
check "3bcb846ca4cf is never dated v4.7 (it is v4.8)" \
	bash -c "! grep -nE 'net_tx_action\(\)\"?\)?\"?, v4\.7|3bcb846ca4cf.*\(v4\.7\)|^v4\.7\)' $(facts_files | tr '\n' ' ')"
check "3bcb846ca4cf is dated v4.8 in the ablation, check-tree, README and docs/tx.md" \
	bash -c "grep -q 'v4.8' '$LAB_TOP'/lab/ablations/trylock/0001-*.patch && grep -q 'v4.8' '$LAB_TOP/lab/kernel/check-tree' &&
		grep -q '3bcb846ca4cf.*v4\.8' '$LAB_TOP/README.md' && grep -q '3bcb846ca4cf.*v4\.8' '$LAB_TOP/docs/tx.md'"
check "no claim that the revert's latency cost 'does not show'" \
	bash -c "! cat $(facts_files | tr '\n' ' ') | tr '\n' ' ' | tr -s ' ' | grep -qi 'revert describes does not show'"

# ---- every commit builds with W=1 ------------------------------------------
# lab/kernel/check-series: each commit of a series variant's branch, from
# its base, compiles the C files the series touches with W=1 and adds no
# warning to the base's.
check "make kernels VARIANTS='ksoftirqd-fix threaded-napi'" \
	make -s -C "$LAB_TOP" kernels VARIANTS="ksoftirqd-fix threaded-napi"
for v in ksoftirqd-fix threaded-napi; do
	check "$v: every commit builds the files it touches with W=1, no new warning" \
		"$LAB_TOP/lab/kernel/check-series" "$v"
done
# ... and fails on a commit that adds one: an unused static const is a
# W=1 warning only (-Wunused-const-variable)
tmp=$(mktemp -d)
mkdir "$tmp/series-w1bad"
sed 's/^DEFINE_PER_CPU(struct task_struct \*, ksoftirqd);$/&\nstatic const int lab_w1_unused = 1;/' \
	"$LAB_KBUILD/linux/kernel/softirq.c" >"$tmp/softirq.c"
(cd "$tmp" && diff -u --label a/kernel/softirq.c --label b/kernel/softirq.c \
	"$LAB_KBUILD/linux/kernel/softirq.c" softirq.c >series-w1bad/0001-w1bad.patch) || true
echo 0001-w1bad.patch >"$tmp/series-w1bad/series"
printf 'vanilla\nw1bad\t%s\n' "$tmp/series-w1bad" >"$tmp/variants"
w1_refused()
{
	local out rc=0

	out=$(LAB_VARIANTS_FILE="$tmp/variants" "$LAB_TOP/lab/kernel/check-series" \
		-c "$LAB_KBUILD/kernels/vanilla/config" w1bad 2>&1) || rc=$?
	printf '%s\n' "$out" >>"$T_LOG"
	[ $rc != 0 ] && grep -q 'w1bad: 0001-w1bad.patch adds W=1 warnings' <<<"$out" &&
		grep -q 'lab_w1_unused' <<<"$out"
}
check "check-series refuses a commit that adds a W=1 warning (naming it)" w1_refused
# Its W=1 tree stays, like every variant's: the next run resets it rather
# than copying the tree and preparing kbuild's scripts anew (22 -> ~4 s).
rm -rf "$tmp"

# ---- threaded NAPI in guests -----------------------------------------------
RUN=$LAB_BUILD/test-runs/series
rm -rf "$RUN"
check "make initramfs" make -s -C "$LAB_TOP" initramfs
# virtio_net.napi_threaded=1 comes from lab/kernel/variants; lab_threaded=0
# makes the guest's init write 0 to eth0's "threaded" before "ip link set
# eth0 up"; lab_napi_check=1 runs the dummy0 and tun0 checks at boot
# (lab/guest/init).  One rate, 16 kpps, at TCG's own speed: what is
# checked is where the receive work runs, not how much of it, and a
# guest at its own speed is ready ~2.5 s sooner after its start (QEMU to
# "lab: ready" 2.8 s against 5.0 s at icount:4, 2026-12-07); no latency
# pass (nothing here reads it).
rate=16000
# lab_trace_boot=0.5: half a second of the softirq experiment's
# tracepoints at boot, printed on the console (lab/guest/init)
check "lab/run: vanilla and threaded-napi with lab_threaded=0 lab_napi_check=1, one short point at $rate pps" \
	"$LAB_TOP/lab/run" -v "vanilla threaded-napi" --cmdline "lab_threaded=0 lab_napi_check=1 lab_selftest=1 lab_trace_boot=0.5" \
	-r "$rate" --lat-rates "" -n 1 -W 1 -w 2 --speed native --no-plot -o "$RUN"

# The traced window at boot: its lines are tracefs's text, every one of
# them an event lab/lib/py/softirqtrace.py parses, the scheduler, the
# local timer and softirqs among them (an idle guest's ticks raise TIMER
# and RCU, run on the timer interrupt's tail), nothing overrun; its
# figures: every softirq entry in a known context, no negative wait.
traced_boot()
{
	local c=$RUN/guests/$1-r1/console.log

	tr -d '\r' <"$c" | grep -a '^lab: trace-begin ' | grep -q ' overrun=0$' || return 1
	tr -d '\r' <"$c" | sed -n 's/^lab: trace //p' >"$RUN/$1.trace"
	PYTHONPATH=$LAB_TOP/lab/lib/py python3 - "$RUN/$1.trace" <<'PY' >>"$T_LOG" 2>&1
import sys, softirqtrace as T
text = open(sys.argv[1]).read()
lines = [x for x in text.splitlines() if x.strip()]
ev = T.parse(text)
names = {e.name for e in ev}
f = T.figures(ev)
ctx = {c for v in f.vectors.values() for c in v.contexts}
waits = [w for v in f.vectors.values() for w in v.wait_us]
print(f"{sys.argv[1]}: {len(lines)} lines, {len(ev)} events, {sorted(names)}, contexts {sorted(ctx)}")
print("\n".join(T.summary_lines(f)))
ok = (len(ev) == len(lines) and {"sched_switch", "local_timer_entry", "softirq_raise",
                                  "softirq_entry", "softirq_exit"} <= names and "irq-tail" in ctx
      and all(c in ("irq-tail", "ksoftirqd", "napi") or c.startswith("task:") for c in ctx)
      and all(w >= 0 for w in waits))
sys.exit(0 if ok else 1)
PY
}
check "vanilla: the boot's traced window parses into softirq figures (tracefs text, nothing overrun)" traced_boot vanilla

# The same ring buffer's raw pages (tracedump, as the softirq experiment's
# dumps send them, base64 on the console) decoded by ftraceraw.py: the
# same events, times, tasks and contexts as the kernel's own text, and
# the same figures.
raw_as_text()
{
	local c=$RUN/guests/$1-r1/console.log

	tr -d '\r' <"$c" | sed -n 's/^lab: trace-raw //p' | base64 -d >"$RUN/$1.trace-raw" || return 1
	PYTHONPATH=$LAB_TOP/lab/lib/py python3 - "$RUN/$1.trace" "$RUN/$1.trace-raw" <<'PY' >>"$T_LOG" 2>&1
import sys, softirqtrace as T, ftraceraw as R
text = T.parse(open(sys.argv[1]).read())
blob = open(sys.argv[2], "rb").read()
raw, missed = R.decode(blob)
key = lambda e: (e.ts_us, e.comm, e.pid, e.cpu, e.flags, e.name)
print(f"{sys.argv[2]}: {len(blob)} bytes, {len(raw)} events (text {len(text)}), missed {missed}")
bad = [(a, b) for a, b in zip(text, raw) if key(a) != key(b)]
for a, b in bad[:5]:
    print(f"text {a}\nraw  {b}")
same = (R.is_raw(blob) and missed == 0 and len(raw) == len(text) > 0 and not bad
        and T.summary_lines(T.figures(raw)) == T.summary_lines(T.figures(text)))
print("\n".join(T.summary_lines(T.figures(raw))))
sys.exit(0 if same else 1)
PY
}
check "vanilla: the boot trace's raw pages decode into the text's events and figures (ftraceraw.py)" raw_as_text vanilla

# console line "lab: <tag> ..." of variant $1 as key=value words
line()
{
	tr -d '\r' <"$RUN/guests/$1-r1/console.log" 2>/dev/null | sed -n "s/^.*lab: $2 //p" | head -1
}
val()
{
	tr ' ' '\n' <<<" $(line "$1" "$2")" | sed -n "s/^$3=//p" | head -1
}
for v in vanilla threaded-napi; do
	for tag in boot up "napi-check dummy0" "napi-check tun0"; do
		echo "$v $tag: $(line "$v" "$tag")" >>"$T_LOG"
	done
done

check "threaded-napi booted with virtio_net.napi_threaded=1, lab_threaded=0 and lab_napi_check=1" \
	bash -c "line() { tr -d '\r' <'$RUN/guests/threaded-napi-r1/console.log'; }
		line | grep -q 'lab: boot cpus=.* cmdline=.*virtio_net.napi_threaded=1.*lab_threaded=0 lab_napi_check=1'"
check "virtio_net.napi_threaded=1: eth0 reads threaded=1 at boot" test "$(val threaded-napi boot threaded)" = 1
check "virtio_net.napi_threaded=1: napi threads for eth0 at boot" \
	bash -c "grep -q 'napi/eth0-' <<<'$(val threaded-napi boot napi_threads)'"
check "virtio_net.napi_threaded=1: no napi thread for anything but eth0 at boot" \
	bash -c "! tr ',' '\n' <<<'$(val threaded-napi boot napi_threads)' | grep -v '^napi/eth0-' | grep -q ."
check "vanilla: eth0 reads threaded=0 at boot, no napi thread" \
	test "$(val vanilla boot threaded):$(val vanilla boot napi_threads)" = "0:"
for v in vanilla threaded-napi; do
	check "$v: the ipip fallback tunnel tunl0 (gro_cells) reads threaded=0" test "$(val $v up tunl0_threaded)" = 0
	check "$v: dummy0 (never a NAPI instance) reads 0, refuses 1, still reads 0" \
		test "$(val $v "napi-check dummy0" threaded):$(val $v "napi-check dummy0" write1):$(val $v "napi-check dummy0" after)" = "0:refused:0"
	check "$v: tun0 with a queue attached takes threaded=1 and gets its napi thread" \
		bash -c "[ '$(val $v "napi-check tun0" attached_write1)' = ok ] && grep -q '^napi/tun0-' <<<'$(val $v "napi-check tun0" attached_threads)'"
	check "$v: tun0 detached (no NAPI instance) still reads threaded=1" \
		test "$(val $v "napi-check tun0" detached)" = 1
done
# the gap 0001 closes: 6.12 refuses either value while the instance is away
check "threaded-napi: tun0 detached takes 0 then 1 (symmetric), reads them back" \
	test "$(val threaded-napi "napi-check tun0" write0):$(val threaded-napi "napi-check tun0" after0):$(val threaded-napi "napi-check tun0" write1):$(val threaded-napi "napi-check tun0" after1)" = "ok:0:ok:1"
check "threaded-napi: tun0 attached again gets its napi thread back" \
	bash -c "grep -q '^napi/tun0-' <<<'$(val threaded-napi "napi-check tun0" reattached_threads)'"
check "vanilla: tun0 detached refuses 0 and 1 (the gap the series closes)" \
	test "$(val vanilla "napi-check tun0" write0):$(val vanilla "napi-check tun0" write1)" = "refused:refused"

# The series' own selftest (tools/testing/selftests/net/napi_threaded_detached.sh,
# taken from its patch into the initramfs, run with lab_selftest=1): it
# passes on threaded-napi and shows 6.12's refusals on vanilla, the three
# cases 0001 changes and no other.
selftest_out()
{
	tr -d '\r' <"$RUN/guests/$1-r1/console.log" 2>/dev/null | sed -n 's/^lab: selftest //p'
}
for v in vanilla threaded-napi; do
	selftest_out $v | sed "s/^/$v selftest: /" >>"$T_LOG"
done
selftest_passes()
{
	local out

	out=$(selftest_out threaded-napi)
	grep -qx 'exit=0' <<<"$out" && [ "$(grep -c '^TEST: .*\[ OK \]$' <<<"$out")" = 9 ] &&
		! grep -q '\[FAIL\]' <<<"$out"
}
check "threaded-napi: the series' selftest passes (exit 0, 9 tests OK)" selftest_passes
selftest_refusals()
{
	local out want got

	out=$(selftest_out vanilla)
	want=$(printf '%s\n' "tun attached again after 0: no NAPI kthread" "tun detached: 0 taken and read back" \
		"tun detached: 1 taken and read back")
	got=$(sed -n 's/^TEST: \(.*[^ ]\) *\[FAIL\]$/\1/p' <<<"$out" | sort)
	echo "vanilla selftest failures: $got" >>"$T_LOG"
	grep -qx 'exit=1' <<<"$out" && [ "$got" = "$want" ] &&
		[ "$(grep -c '^TEST: .*\[ OK \]$' <<<"$out")" = 6 ] &&
		[ "$(grep -c 'Operation not supported' <<<"$out")" = 2 ]
}
check "vanilla: the selftest fails the three detached-tun cases only, 6.12 refusing the writes (EOPNOTSUPP)" \
	selftest_refusals

check "threaded=0 written before the first ifup: eth0 reads 0 once up" test "$(val threaded-napi up threaded)" = 0
# 6.12 keeps a device's napi kthreads when threaded mode is switched off
# (they go only with the NAPI instances), so the mode shows in where the
# receive work runs: NET_RX softirqs, no CPU for the napi threads.
tput()
{
	awk -F, -v v="$1" -v n="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["pass"] == "tput" && $c["variant"] == v { print $c[n]; exit }' "$RUN/points.csv"
}
softirq_mode()
{
	local rx napi

	rx=$(tput threaded-napi net_rx_softirq_ps)
	napi=$(tput threaded-napi napi_cpu)
	echo "$rate pps: net_rx_softirq_ps=$rx napi_cpu=$napi" >>"$T_LOG"
	[ -n "$rx" ] && [ -n "$napi" ] && awk -v r="$rx" -v n="$napi" 'BEGIN { exit !(r > 100 && n == 0) }'
}
check "threaded=0 written before the first ifup: under the flood NET_RX runs as softirqs, napi threads get no CPU" \
	softirq_mode
check "the guests' consoles are clean" \
	bash -c "test -s '$RUN/health.txt' && ! grep -v '^ok' '$RUN/health.txt'"
