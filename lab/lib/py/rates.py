# SPDX-License-Identifier: GPL-2.0
"""Per (variant, rate): the median over the repetitions of every metric the
report and the plots show, with its interval; the latency metrics from the
latency pass, the rest from the throughput pass.  A lost-bounded probe
percentile (one among the lost probes: the timeout, a lower bound) is
flagged, and so is a median or interval end taken from such values."""

from dataclasses import dataclass

import points as P
from stats import median_ci

# name in the tables: column of points.csv
METRICS = (
    ("offered", "offered_pps"), ("delivered", "delivered_pps"), ("recv_cpu", "recv_cpu"),
    ("tap_drop", "tap_drop_pps"), ("nic_drop", "nic_drop_pps"), ("rcvbuf_err", "rcvbuf_err_pps"),
    ("cpu_user", "cpu_user"), ("cpu_system", "cpu_system"), ("cpu_softirq", "cpu_softirq"),
    ("cpu_irq", "cpu_irq"), ("cpu_idle", "cpu_idle"), ("cpu_steal", "cpu_steal"),
    ("ksoftirqd_cpu", "ksoftirqd_cpu"), ("napi_cpu", "napi_cpu"),
    ("idle", "idle_cpu"), ("gen_err", "gen_err_pct"), ("closure", "closure_pct"),
    ("recv_wait", "recv_wait_pct"), ("recv_us_per_pkt", "recv_us_per_pkt"),
    ("softirq_irqctx", "softirq_irqctx_cpu"), ("hardirq", "hardirq_cpu"), ("other", "other_cpu"),
    ("sampler", "sampler_cpu"), ("responder", "responder_cpu"),
    ("qemu_main_run", "qemu_main_run_pct"), ("qemu_main_wait", "qemu_main_wait_pct"),
    ("qemu_vcpu_run", "qemu_vcpu_run_pct"), ("flood_run", "flood_run_pct"),
    ("gate_clock", "gate_clock"), ("host_ceiling", "host_ceiling_pps"),
)
# the latency pass's metrics: name, column, name in probe_lost_bounded
LAT_METRICS = (
    ("probe_p50", "probe_p50_us", "p50"), ("probe_p99", "probe_p99_us", "p99"),
    ("probe_p999", "probe_p999_us", "p999"), ("probe_loss", "probe_loss_pct", ""),
    ("probe_ap99", "probe_ap99_us", ""),
    ("tlat_p50", "tlat_p50_us", ""), ("tlat_p99", "tlat_p99_us", ""),
    ("tlat_max", "tlat_max_us", ""), ("tlat_overruns", "tlat_overruns", ""),
    ("probe_lost_net", "probe_lost_net", ""), ("probe_lost_socket", "probe_lost_socket", ""),
    ("probe_lost_reply", "probe_lost_reply", ""),
)


@dataclass(frozen=True)
class Stat:
    med: object             # None: no repetition has it
    lo: object
    hi: object
    n: int
    cov: float
    b: int = 0              # 1: the median is lost-bounded
    lo_b: int = 0
    hi_b: int = 0


@dataclass(frozen=True)
class RateRow:
    variant: str
    rate: int
    n: int                  # throughput repetitions
    cov: float              # the delivered rate's interval coverage
    stats: dict             # metric name -> Stat
    gates: int              # 1: the rate's gates pass


def stat(values, cov, bounded=()):
    """Median and interval of the values (None skipped); bounded: the
    flags of each value, a bounded value ranks above every other."""
    vals = [(x, b) for x, b in zip(values, bounded or [0] * len(values)) if x is not None]
    if not vals:
        return Stat(None, None, None, 0, 0.0)
    iv = median_ci([x for x, _ in vals], cov)
    nb = sum(b for _, b in vals)
    b = lo_b = hi_b = 0
    if nb:
        n = len(vals)
        tmin = min(x for x, f in vals if f)
        u = (n + 1) // 2 if n % 2 else n // 2 + 1
        b = int(u > n - nb)
        lo_b = int(iv.lo >= tmin)
        hi_b = int(iv.hi >= tmin)
    return Stat(iv.med, iv.lo, iv.hi, iv.n, iv.cov, b, lo_b, hi_b)


def rate_rows(tput_groups, lat_groups, variants, rgates, rules, latency):
    """One RateRow per (variant, rate) of the throughput pass, variants in
    run order, rates ascending (unlimited last)."""
    cov = rules["stat.ci_coverage"]
    out = []
    for v in variants:
        for t in P.rates_sorted(t for (x, t) in tput_groups if x == v):
            rows = tput_groups[(v, t)]
            st = {name: stat([P.share(r, col) for r in rows], cov) for name, col in METRICS}
            if latency:
                lrows = lat_groups.get((v, t), ())
                for name, col, bname in LAT_METRICS:
                    st[name] = stat([P.share(r, col) if col in r else None for r in lrows], cov,
                                    [int(bool(bname) and bname in r.get("probe_lost_bounded", "").split("+"))
                                     for r in lrows])
            out.append(RateRow(v, t, len(rows), st["offered"].cov, st,
                               int(rgates[(v, t)].passes)))
    return tuple(out)


def find(rows, v, t):
    return next((r for r in rows if r.variant == v and r.rate == t), None)
