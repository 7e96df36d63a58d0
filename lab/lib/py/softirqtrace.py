# SPDX-License-Identifier: GPL-2.0
"""A guest's ftrace events (tracefs's text of one CPU, or the raw pages
ftraceraw.py decodes; the events of lab/tools/tracectl.c) turned into the
figures of the softirq experiment:

- per softirq vector: how long it waited from its first raise since its
  last entry to its next entry (as bcc's softirqslower does: a
  hist-trigger's onmatch keeps only the last raise, wrong for TIMER,
  re-raised every tick), how long each entry ran, and in which context it
  ran: on an irq's tail, in a task's local_bh_enable() (which task), in
  ksoftirqd or in a napi thread;
- per thread of interest (ksoftirqd, napi threads): wake-up to run;
- NAPI polls: the packets each context processed.

Every function takes its input and returns its result."""

import re
from collections import Counter
from dataclasses import dataclass, field

LINE = re.compile(r"^\s*(?P<comm>.*?)-(?P<pid>\d+)\s+(?:\(\s*\S+\)\s+)?\[(?P<cpu>\d+)\]\s+"
                  r"(?P<flags>\S+)\s+(?P<ts>\d+\.\d+):\s+(?P<event>\w+):\s*(?P<rest>.*)$")
KV = re.compile(r"(\w+)=(\S+)")
VEC = re.compile(r"vec=(\d+) \[action=(\w+)\]")
NAPI = re.compile(r"device (\S+) work (\d+) budget (\d+)")
# the flags column that says hardirq (h), softirq (s), hardirq in softirq (H)
FLAG_CTX = 2
IRQ_EXITS = ("irq_handler_exit", "local_timer_exit", "call_function_single_exit",
             "reschedule_exit", "call_function_exit")


@dataclass(frozen=True)
class Event:
    ts_us: float
    comm: str
    pid: int
    cpu: int
    flags: str      # irqs-off, need-resched, hardirq/softirq, preempt, migrate
    name: str
    rest: str

    @property
    def in_softirq(self):
        """Recorded inside a softirq (or a hardirq that interrupted one):
        within a __do_softirq() loop, not where it was entered from."""
        return len(self.flags) > FLAG_CTX and self.flags[FLAG_CTX] in "sH"


def parse_line(line):
    """An Event of a trace line, None for a comment or a line of no event."""
    if not line or line.startswith("#"):
        return None
    m = LINE.match(line)
    if not m:
        return None
    sec, _, frac = m["ts"].partition(".")
    ts = int(sec) * 1_000_000 + int((frac + "000000")[:6])
    return Event(ts, m["comm"].strip(), int(m["pid"]), int(m["cpu"]), m["flags"], m["event"],
                 m["rest"])


def parse(text):
    return tuple(e for e in (parse_line(x) for x in text.splitlines()) if e is not None)


def load(blob):
    """The events of a dump as the trace port carried it: the raw frames
    of lab/tools/tracectl.h (ftraceraw.py), or tracefs's text (the dumps of
    runs before the raw frames, and the boot trace's console lines)."""
    import ftraceraw
    if ftraceraw.is_raw(blob):
        return ftraceraw.decode(blob)[0]
    return parse(blob.decode("utf-8", errors="replace"))


def fields(rest):
    return dict(KV.findall(rest))


@dataclass
class Vector:
    raises: int = 0
    entries: int = 0
    wait_us: list = field(default_factory=list)      # first raise -> entry
    run_us: list = field(default_factory=list)       # entry -> exit
    contexts: Counter = field(default_factory=Counter)


@dataclass(frozen=True)
class TraceFigures:
    span_us: int
    vectors: dict           # name -> Vector
    wake_us: dict           # "ksoftirqd" / "napi" -> [µs]
    napi_packets: Counter   # context -> packets polled
    lost: int               # entries whose raise came before the trace began


def thread_kind(comm):
    if comm.startswith("ksoftirqd/"):
        return "ksoftirqd"
    if comm.startswith("napi/"):
        return "napi"
    return None


def context_of(comm, irq_tail):
    """Where a softirq (or a NAPI poll) ran: ksoftirqd, a napi thread, an
    irq's tail, or the local_bh_enable() of a task (named)."""
    kind = thread_kind(comm)
    if kind:
        return kind
    if irq_tail:
        return "irq-tail"
    return f"task:{comm}"


def figures(events, since_us=None, until_us=None):
    """The trace's figures (one CPU: the guest has one online), of the
    window [since_us, until_us] when given: the events before it keep the
    state (a raise pending, a thread woken), only what happens in it is
    counted."""
    vectors, wake, napi = {}, {"ksoftirqd": [], "napi": []}, Counter()
    pending, started, woken = {}, {}, {}
    irq_tail = False        # the last event outside softirq context was an irq's exit
    lost = 0
    first = last = None
    for e in events:
        if until_us is not None and e.ts_us > until_us:
            break
        counted = since_us is None or e.ts_us >= since_us
        if counted:
            first = e.ts_us if first is None else first
            last = e.ts_us
        if e.name == "softirq_raise":
            m = VEC.match(e.rest)
            if m:
                v = vectors.setdefault(m[2], Vector())
                v.raises += counted
                pending.setdefault(m[2], e.ts_us)
            continue
        if e.name == "softirq_entry":
            m = VEC.match(e.rest)
            if m:
                v = vectors.setdefault(m[2], Vector())
                ctx = context_of(e.comm, irq_tail)
                raised = pending.pop(m[2], None)
                if counted:
                    v.entries += 1
                    v.contexts[ctx] += 1
                    if raised is not None:
                        v.wait_us.append(e.ts_us - raised)
                    else:
                        lost += 1
                started[m[2]] = (e.ts_us, ctx, counted)
            continue
        if e.name == "softirq_exit":
            m = VEC.match(e.rest)
            if m and m[2] in started:
                t0, _, was = started.pop(m[2])
                if was:
                    vectors[m[2]].run_us.append(e.ts_us - t0)
            continue
        if e.name == "napi_poll":
            # in NET_RX: where that softirq ran; else a napi thread's
            # (or a busy-polling task's) own poll
            m = NAPI.search(e.rest)
            if m and counted:
                ctx = started["NET_RX"][1] if "NET_RX" in started else context_of(e.comm, False)
                napi[ctx] += int(m[2])
            continue
        # where the next __do_softirq() loop is entered from: what happened
        # outside softirq context last (a wake-up inside one is not it)
        if not e.in_softirq:
            irq_tail = e.name in IRQ_EXITS
        if e.name == "sched_wakeup":
            f = fields(e.rest)
            if thread_kind(f.get("comm", "")):
                woken.setdefault(int(f.get("pid", -1)), e.ts_us)
        elif e.name == "sched_switch":
            f = fields(e.rest.replace(" ==> ", " "))
            pid = int(f.get("next_pid", -1))
            kind = thread_kind(f.get("next_comm", ""))
            if kind and pid in woken:
                t0 = woken.pop(pid)
                if counted:
                    wake[kind].append(e.ts_us - t0)
    span = last - first if first is not None else 0
    return TraceFigures(span, vectors, wake, napi, lost)


def percentile(xs, permille):
    """Nearest rank, as lab/tools/latstats.h: the sample of rank
    ceil(n * permille / 1000); None without samples."""
    if not xs:
        return None
    s = sorted(xs)
    k = max(1, (len(s) * permille + 999) // 1000)
    return s[k - 1]


def summary_lines(f):
    """One line per vector and per thread kind: counts, percentiles of the
    wait and run times (µs), contexts."""
    out = [f"span_us={f.span_us} lost={f.lost}"]
    for name in sorted(f.vectors):
        v = f.vectors[name]
        ctx = ",".join(f"{k}:{n}" for k, n in sorted(v.contexts.items()))
        out.append(f"vector={name} raises={v.raises} entries={v.entries} "
                   f"wait_p50_us={percentile(v.wait_us, 500)} wait_p99_us={percentile(v.wait_us, 990)} "
                   f"run_p50_us={percentile(v.run_us, 500)} contexts={ctx or '-'}")
    for kind in sorted(f.wake_us):
        w = f.wake_us[kind]
        out.append(f"thread={kind} wakeups={len(w)} wake_p50_us={percentile(w, 500)} "
                   f"wake_p99_us={percentile(w, 990)}")
    if f.napi_packets:
        out.append("napi " + " ".join(f"{k}={n}" for k, n in sorted(f.napi_packets.items())))
    return out


if __name__ == "__main__":
    import sys
    with open(sys.argv[1], "rb") as fh:
        print("\n".join(summary_lines(figures(load(fh.read())))))
