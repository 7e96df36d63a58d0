# SPDX-License-Identifier: GPL-2.0
"""The data files of the gnuplot scripts in plots/: rates.dat (one block
per variant, every metric's median and interval), curve.dat (the lines
between the measured medians), overload.dat (the CPU breakdown at the
verdict rate), tradeoff.dat (throughput against latency at the latency
rate) and meta.gp (their column numbers, the variants, axis hints)."""

import rates as R
from fmt import num
from stats import median


# a log offered axis when the offered rates span this factor or more
LOG_SPAN = 10


def dnum(x):
    return "NaN" if x is None else num(x)


def header(latency):
    """The columns of rates.csv/.dat and their numbers (from 1)."""
    cols = ["variant", "rate_target", "n", "ci_coverage"]
    for name, _ in R.METRICS:
        cols += [name, name + "_lo", name + "_hi"]
    if latency:
        for name, _, bname in R.LAT_METRICS:
            cols += [name, name + "_lo", name + "_hi", name + "_n"]
            if bname:
                cols += [name + "_b", name + "_lo_b", name + "_hi_b"]
    cols.append("gates")
    return cols


def row_values(r, latency):
    vals = [r.variant, str(r.rate), str(r.n), num(r.cov)]
    for name, _ in R.METRICS:
        s = r.stats[name]
        vals += ["" if s.med is None else num(x) for x in (s.med, s.lo, s.hi)]
    if latency:
        for name, _, bname in R.LAT_METRICS:
            s = r.stats[name]
            vals += ["" if s.med is None else num(x) for x in (s.med, s.lo, s.hi)]
            vals.append(str(s.n))
            if bname:
                vals += [str(s.b), str(s.lo_b), str(s.hi_b)]
    vals.append(str(r.gates))
    return vals


def rates_csv(rows, latency):
    lines = [",".join(header(latency))]
    lines += [",".join(row_values(r, latency)) for r in rows]
    return "\n".join(lines) + "\n"


def rates_dat(rows, variants, latency):
    out = ["# " + ",".join(header(latency))]
    for i, v in enumerate(variants):
        if i:
            out += ["", ""]
        for r in rows:
            if r.variant == v:
                out.append(" ".join(x if x != "" else "NaN" for x in row_values(r, latency)))
    return "\n".join(out) + "\n"


def curve_dat(rows, variants):
    """Per variant the line through the medians of delivered against
    offered, straight segments between the measured points."""
    out = ["# offered delivered"]
    for i, v in enumerate(variants):
        if i:
            out += ["", ""]
        for r in rows:
            if r.variant == v:
                out.append(f"{dnum(r.stats['offered'].med)} {dnum(r.stats['delivered'].med)}")
    return "\n".join(out) + "\n"


BREAKDOWN = ("recv_cpu", "ksoftirqd_cpu", "napi_cpu", "softirq_irqctx", "hardirq", "other",
             "sampler", "idle")


def breakdown_rate(rows, v, vrate):
    """The rate of a variant's bar: the verdict rate, or without one its
    highest paced rate."""
    mine = [r.rate for r in rows if r.variant == v]
    if vrate is not None:
        return vrate
    paced = [t for t in mine if t != 0]
    return max(paced) if paced else 0


def overload_dat(rows, variants, vrate):
    """Where each variant's CPU went at the verdict rate: medians scaled to
    stack to 100 % (the unscaled sum's residual is the books' closure,
    printed beside)."""
    out = ["# variant " + " ".join(BREAKDOWN) + " closure rate"]
    for v in variants:
        t = breakdown_rate(rows, v, vrate)
        r = R.find(rows, v, t)
        x = []
        for name in BREAKDOWN:
            m = r.stats[name].med if r else None
            m = m or 0.0
            if name == "sampler" and r:
                m += r.stats["responder"].med or 0.0
            x.append(m)
        total = sum(x)
        out.append(v + " " + " ".join(num(100 * y / total if total > 0 else 0) for y in x) +
                   " " + num((r.stats["closure"].med or 0) if r else 0) + f" {t}")
    return "\n".join(out) + "\n"


TRADE_COLS = ("p99 p99_lo p99_hi p99_b p99_lo_b p99_hi_b delivered delivered_lo delivered_hi "
              "p50 p50_b loss").split()


def tradeoff_dat(rows, variants, lrate):
    out = ["# variant " + " ".join(TRADE_COLS)]
    for v in variants:
        r = R.find(rows, v, lrate)
        if r is None:
            out.append(v + " NaN NaN NaN 0 0 0 0 0 0 NaN 0 NaN")
            continue
        p99, d, p50 = r.stats["probe_p99"], r.stats["delivered"], r.stats["probe_p50"]
        out.append(" ".join([v, dnum(p99.med), dnum(p99.lo), dnum(p99.hi), str(p99.b),
                             str(p99.lo_b), str(p99.hi_b), num(d.med or 0), num(d.lo or 0),
                             num(d.hi or 0), dnum(p50.med), str(p50.b),
                             dnum(r.stats["probe_loss"].med)]))
    return "\n".join(out) + "\n"


def label_dy(rows, variants, lrate, ymax):
    """Where each variant's label goes in the trade-off plot, in lines above
    (> 0) or below: above, unless the next higher point is within a tenth
    of the y range; then below, or further below that point's label."""
    y = {}
    for v in variants:
        r = R.find(rows, v, lrate)
        y[v] = (r.stats["delivered"].med if r else None) or 0.0
    order = sorted(variants, key=lambda v: -y[v])
    dy, prev, lab = 0.0, None, {}
    for j, v in enumerate(order):
        if j == 0 or prev - y[v] > ymax * 1.3 / 10:
            dy = 0.9
        else:
            dy = -0.9 if dy > 0 else dy - 1.1
        lab[v] = dy
        prev = y[v]
    return " ".join(num(lab[v]) for v in variants)


STYLES = {"vanilla": 1, "ksoftirqd-fix": 2, "threaded-napi": 3}


def styles(variants):
    """Line style per variant: the lab's three keep their colour in every
    run, others take the next free ones."""
    out, nxt = [], 4
    for v in variants:
        if v in STYLES:
            out.append(STYLES[v])
        else:
            out.append((nxt - 1) % 12 + 1)
            nxt += 1
    return " ".join(str(s) for s in out)


def meta_gp(rows, variants, vrate, lrate, latency, timeout_us):
    cols = header(latency)
    offered_lo = [r.stats["offered"].lo for r in rows if r.stats["offered"].lo is not None]
    offered_hi = [r.stats["offered"].hi for r in rows if r.stats["offered"].hi is not None]
    xmin = min(offered_lo) if offered_lo else 0
    xmax = max(offered_hi) if offered_hi else 0
    unl = [r.stats["offered"].med for r in rows if r.rate == 0 and r.stats["offered"].med is not None]
    ymax_d = max([r.stats["delivered"].hi or 0 for r in rows] + [0])
    # the lowest delivered above 0 (a log axis) and every paced rate (its tics)
    ypos = [r.stats["delivered"].lo for r in rows if (r.stats["delivered"].lo or 0) > 0]
    grid = sorted({r.rate for r in rows if r.rate > 0})
    ymax_drops = max([r.stats[m].hi or 0 for r in rows for m in ("tap_drop", "nic_drop", "rcvbuf_err")] + [0])
    out = [f'variants = "{" ".join(variants)}"', f"nv = {len(variants)}",
           f'vstyles = "{styles(variants)}"', f"xmin = {num(xmin)}", f"xmax = {num(xmax)}",
           f"logx = {int(xmin > 0 and xmax >= LOG_SPAN * xmin)}",
           f"x_unlimited = {num(median(unl)) if unl else -1}",
           f"ymax_delivered = {num(ymax_d if ymax_d > 0 else 1)}",
           f"ymin_delivered = {num(min(ypos)) if ypos else 1}",
           f'grid_rates = "{" ".join(str(g) for g in grid)}"',
           f"ymax_drops = {num(ymax_drops if ymax_drops > 0 else 1)}",
           "# rates.dat columns"]
    out += [f"c_{c} = {i}" for i, c in enumerate(cols, 1)
            if c not in ("ci_coverage",)]
    out += [f"vrate = {vrate if vrate is not None else -1}",
            f"lrate = {lrate if lrate is not None else -1}", "# overload.dat columns"]
    out += [f"o_{name} = {i}" for i, name in enumerate(BREAKDOWN, 2)]
    out += [f"o_closure = {len(BREAKDOWN) + 2}", f"o_rate = {len(BREAKDOWN) + 3}",
            f"latency = {int(latency)}"]
    if latency:
        lat_lo, lat_hi = [], []
        for r in rows:
            for m in ("probe_p50", "probe_p99", "tlat_p50", "tlat_p99"):
                s = r.stats[m]
                if s.med is not None:
                    if s.lo is not None and s.lo > 0:
                        lat_lo.append(s.lo)
                    if s.hi is not None:
                        lat_hi.append(s.hi)
        trade = [R.find(rows, v, lrate) for v in variants]
        trade = [r for r in trade if r is not None]
        txs = [x for r in trade for x in (r.stats["probe_p99"].lo, r.stats["probe_p99"].hi,
                                          r.stats["probe_p50"].med) if x is not None and x > 0]
        tymax = max([r.stats["delivered"].hi or 0 for r in trade] + [0])
        out += [f"timeout_us = {num(timeout_us) if timeout_us else -1}",
                f"lat_ymin = {num(min(lat_lo) if lat_lo else 1)}",
                f"lat_ymax = {num(max(lat_hi) if lat_hi and max(lat_hi) > 0 else 1)}",
                f"trade_xmin = {num(min(txs) if txs else 1)}",
                f"trade_xmax = {num(max(txs) if txs else 1)}",
                f"trade_ymax = {num(tymax if tymax > 0 else 1)}",
                f'label_dy = "{label_dy(rows, variants, lrate, tymax)}"',
                "# tradeoff.dat columns"]
        out += [f"t_{c} = {i}" for i, c in enumerate(TRADE_COLS, 2)]
    return "\n".join(out) + "\n"
