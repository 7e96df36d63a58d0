# SPDX-License-Identifier: GPL-2.0
"""summary.csv: per variant the verdict rate, the MLFRR bracket and the
numbers at the verdict rate with their intervals (the soak, the defences
and the terminal read it)."""

import rates as R
from fmt import num

COLUMNS = ("variant,reps,verdict_rate,mlfrr_lo,mlfrr_hi,delivered_pps,delivered_lo,delivered_hi,"
           "recv_cpu,recv_cpu_lo,recv_cpu_hi,idle_cpu,gen_err_pct,ksoftirqd_cpu,napi_cpu,"
           "softirq_irqctx_cpu,recv_wait_pct,recv_us_per_pkt,closure_pct,qemu_main_wait_pct")
AT_VRATE = ("idle", "gen_err", "ksoftirqd_cpu", "napi_cpu", "softirq_irqctx", "recv_wait",
            "recv_us_per_pkt", "closure", "qemu_main_wait")


def cell(x):
    return "" if x is None else num(x)


def summary_csv(rows, variants, vrate, mlfrrs):
    out = [COLUMNS]
    for v in variants:
        mine = [r for r in rows if r.variant == v]
        lo, hi = mlfrrs[v]
        line = [v, str(mine[0].n if mine else 0), "" if vrate is None else str(vrate),
                "" if lo is None else str(lo), "" if hi is None else str(hi)]
        r = R.find(rows, v, vrate) if vrate is not None else None
        if r is None:
            out.append(",".join(line) + "," * 15)
            continue
        for m in ("delivered", "recv_cpu"):
            s = r.stats[m]
            line += [cell(s.med), cell(s.lo), cell(s.hi)]
        line += [cell(r.stats[m].med) for m in AT_VRATE]
        out.append(",".join(line))
    return "\n".join(out) + "\n"
