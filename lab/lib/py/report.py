# SPDX-License-Identifier: GPL-2.0
"""report.md of a run, from the analysis's results (lab/lib/py/analyze.py):
every number here is computed there once; this module only words it."""

import claims as C
import compare
import rates as R
from fmt import num, pct1, target, thou

STATUS_LEAD = {"reproduced": "Reproduced", "partly": "Partly reproduced",
               "not-reproduced": "Not reproduced", "inconclusive": "Inconclusive",
               "not-measured": "Not measured in this run"}


def cell(s):
    s = str(s).replace("|", "\\|").replace("\r", " ").replace("\n", " ")
    return s if s else "(none)"


def ci_range(s, kind, n):
    if s is None or s.med is None:
        return "–"
    if kind == "pps":
        return thou(s.med) if n <= 1 else f"{thou(s.med)} [{thou(s.lo)}–{thou(s.hi)}]"
    if kind == "us":
        return num(s.med) if n <= 1 else f"{num(s.med)} [{num(s.lo)}–{num(s.hi)}]"
    return pct1(s.med) if n <= 1 else f"{pct1(s.med)} [{pct1(s.lo)}–{pct1(s.hi)}]"


def mcell(r, m, kind):
    if r is None:
        return "–"
    return ci_range(r.stats[m], kind, r.n)


def closure_cell(x, rules):
    if x is None:
        return "–"
    return f"{x:+.1f}" + (" ✗" if abs(x) > rules["books.closure_pct"] else "")


def coverage_text(n, cov):
    if n <= 1:
        return f"one repetition: no interval"
    return f"{n} repetitions: {100 * cov:.0f} % coverage"


def accel_name(a):
    return {"tcg": "TCG (emulated CPU)", "kvm": "KVM"}.get(a, "an unknown accelerator")


def speed_name(p):
    s = p.get("speed") or "native"
    if s == "native":
        return "native speed"
    return f"fixed speed, {num(p.get('guest_mips') or 0)} M instructions/s ({s})"


def kernel_label(p):
    vs = []
    for k in (p.get("kernels") or {}).values():
        b = k.get("base_version", "")
        if b and b not in vs:
            vs.append(b)
    return "Linux " + " / ".join(vs) if vs else "kernel unknown"


def variant_order(p, nvariants):
    if p.get("variant_order") != "williams":
        return "variant order rotated per repetition"
    if p.get("order_balanced") is True:
        return "variant order from a Williams design, balanced"
    reps = p.get("reps")
    block = 2 * nvariants
    return (f"variant order from a Williams design, not balanced: {reps} "
            f"{'repetition is' if reps == 1 else 'repetitions are'} not a whole number of blocks of "
            f"{block} (each rate direction a complete Latin square)")


def header(a):
    p = a.params
    acc = (p.get("accel") or "accelerator unknown").upper() if p.get("accel") else "accelerator unknown"
    note = f": {p['note']}" if p.get("note") else ""
    out = [f"# Receive livelock lab: run {p.get('run', '')}{note} ({kernel_label(p)}, {acc}, {speed_name(p)})", ""]
    lat = f"latency pass at {p.get('lat_rates')} pps" if p.get("lat_rates") else "no latency pass"
    out.append(f"{kernel_label(p)} guests ({', '.join(a.variants)}) under {accel_name(p.get('accel'))}, "
               f"1 vCPU, on {p.get('host_model', '')} ({p.get('host_cpus', '')} CPUs, host kernel "
               f"{p.get('host_kernel', '')}); {len(a.run.rows)} points: throughput pass at "
               f"{p.get('rates', '')} pps, {lat}, × {p.get('reps', '')} repetitions "
               f"({variant_order(p, len(a.variants))}, {p.get('rate_order', 'rate order alternating')}).")
    out.append("")
    if p.get("generator") == "iperf3":
        out += [f"Generator and receiver: {p.get('iperf3', '')}, its UDP client in the lab netns and "
                "its server in the guest (`lab/run -g iperf3`), not the lab's flooder and udp_sink.", ""]
    return out


def verdict_point(a, rules):
    out = ["## The verdict point", ""]
    kv = "claim " if a.extras else ""
    if a.vrate is None:
        out += [f"**No verdict point.** At no offered rate was every {kv}variant's guest saturated "
                f"(median idle ≤ {num(rules['gate.idle_pct'])} % of its CPU) with the flooder on target "
                f"(median within {num(rules['gate.gen_err_pct'])} % of the rate asked for), the guest at "
                "its speed and the host able to deliver it; see the gates at every rate below. The "
                "claims are inconclusive.", ""]
        return out
    knee = a.params.get("knee_pps")
    kn = f" ({num(a.vrate / knee)}× the knee of {thou(knee)} pps)" if knee else ""
    ceil = [r.stats["host_ceiling"].med for r in a.rates
            if r.rate == a.vrate and r.stats["host_ceiling"].med is not None]
    cn = ""
    if ceil:
        lo = min(ceil)
        cn = (f" The host's delivery ceiling there: at least {thou(lo)} pps (the lowest median over "
              f"the variants)" + (f", {num(lo / knee)}× the knee" if knee else "") + ".")
    out.append(f"**{thou(a.vrate)} pps**{kn}: the highest offered rate at which every {kv}variant's "
               f"guest was saturated (median idle ≤ {num(rules['gate.idle_pct'])} % of its CPU), the "
               f"flooder on target (median within {num(rules['gate.gen_err_pct'])} % of the rate asked "
               "for) and the host able to deliver it: the same offered load for all, chosen by the "
               "state of the guests, not by a generator setting. Every number below is taken there."
               + cn)
    out.append("")
    out.append("| Variant | Delivered (pps) | Receiver CPU (%) | Receiver run delay (%) | "
               "Receiver µs/packet | ksoftirqd/0 (%) | napi (%) | softirq in irq ctx (%) | "
               "Guest idle (%) | Generator error (%) | QEMU main loop ran / waited (%) | CPU books (%) |")
    out.append("|---|---|---|---|---|---|---|---|---|---|---|---|")
    ns = []
    for v in a.variants:
        r = R.find(a.rates, v, a.vrate)
        ns.append(r.n if r else 0)
        ge = "–" if r is None or r.stats["gen_err"].med is None else num(r.stats["gen_err"].med)
        out.append(f"| {v} | {mcell(r, 'delivered', 'pps')} | {mcell(r, 'recv_cpu', 'pct')} | "
                   f"{mcell(r, 'recv_wait', 'pct')} | {mcell(r, 'recv_us_per_pkt', 'us')} | "
                   f"{mcell(r, 'ksoftirqd_cpu', 'pct')} | {mcell(r, 'napi_cpu', 'pct')} | "
                   f"{mcell(r, 'softirq_irqctx', 'pct')} | {mcell(r, 'idle', 'pct')} | {ge} | "
                   f"{pct1(r.stats['qemu_main_run'].med) if r else '–'} / "
                   f"{pct1(r.stats['qemu_main_wait'].med) if r else '–'} | "
                   f"{closure_cell(r.stats['closure'].med, rules) if r else '–'} |")
    out.append("")
    r0 = R.find(a.rates, a.variants[0], a.vrate)
    n = max(ns) if ns else 0
    out.append("Medians over the repetitions [lo–hi]: a distribution-free confidence interval of the "
               f"median from order statistics ({coverage_text(n, r0.stats['delivered'].cov if r0 else 0)}). "
               "Receiver CPU: the receiving process's user + system time (schedstat run time), not "
               "/proc/stat's user column. Run delay: the share of the window the receiver was "
               "runnable but waiting for the CPU. softirq in irq ctx: the irq time of /proc/pressure/irq "
               "(hardirq and softirq run in irq context, exact) less hardirq. CPU books: how far the sum "
               "of every task's run time, hardirq, softirq in irq context and idle is from the window, "
               "median over the repetitions (0: they add up; ✗ outside "
               f"±{num(rules['books.closure_pct'])} %). A repetition whose books do not close gives no "
               "CPU share (receiver, threads, softirq, µs per packet): its shares are left out of the "
               "medians, and a cell with none is –. QEMU main loop: the host thread that moves "
               "packets from the tap into the guest, its run and wait (runnable, not running) shares "
               "of the window.")
    out.append("")
    return out


def mlfrr(a, rules):
    out = ["## MLFRR", "", "| Variant | MLFRR (pps) |", "|---|---|"]
    for v in a.variants:
        lo, hi = a.mlfrr[v]
        if lo is None:
            s = f"below {thou(hi)}" if hi is not None else "–"
        elif hi is None:
            s = f"≥ {thou(lo)} (no rate lost ≥ {num(rules['loss.free_pct'])} %)"
        else:
            s = f"between {thou(lo)} and {thou(hi)}"
        out.append(f"| {v} | {s} |")
    out += ["", "Mogul & Ramakrishnan's maximum loss-free receive rate, bracketed by the grid: the "
            f"highest rate such that it and every lower rate lost < {num(rules['loss.free_pct'])} % "
            "(median over the repetitions), and the first rate that did not.", ""]
    return out


def claim_measured(c):
    if c.parts:
        return " ".join(f"{p.id}: {p.why}." for p in c.parts)
    s = c.why
    if c.mechanism:
        s += "; " + c.mechanism
    return s


def region_text(c):
    if c.region is None:
        return "entirely short of it: not reproduced"
    lo, hi = c.region
    hi_s = "∞" if hi == float("inf") else num(hi)
    return f"inside [{num(lo)}, {hi_s}]: not reproduced"


def claim_verdict(c, caveat):
    lead = STATUS_LEAD[c.status]
    if c.status == "not-measured":
        why = c.parts[0].why if c.parts and c.parts[0].status == "not-measured" else c.why
        return f"**{lead}:** {why}."
    d = "≥" if c.direction == ">=" else "<"
    rule = (f"the rule is {c.metric} {d} {num(c.threshold)} with its interval entirely "
            f"{'past' if c.direction == '>=' else 'below'} it; {region_text(c)}")
    if c.parts:
        rule = "; ".join(f"{p.id} {p.status} ({num(p.threshold)}, {region_text(p)})" for p in c.parts)
    return f"**{lead}:** {rule}." + caveat


def caveat(p):
    accel, speed = p.get("accel"), p.get("speed") or "native"
    if accel == "tcg" and speed != "native":
        return (" Absolute rates are not comparable with 2016's bare metal: this guest ran under "
                f"TCG at a fixed {num(p.get('guest_mips') or 0)} M instructions/s ({speed}), behind "
                "QEMU's user-space virtio-net; compare ratios and rates in units of the knee.")
    if accel == "tcg":
        return (" Absolute rates are not comparable with 2016's bare metal: this guest ran under "
                "TCG (emulated CPU) behind QEMU's user-space virtio-net; compare ratios.")
    if accel == "kvm":
        return (" Absolute rates are not comparable with 2016's bare metal (a 1-vCPU KVM guest "
                "behind virtio-net); compare ratios.")
    return ""


def claims_section(a, rules):
    out = ["## Published claims against this run", "",
           f"Judged under the rules of lab/lib/rules.tsv version {rules.version} ({rules.sha}).", "",
           "| Claim | Published | This run | Verdict |", "|---|---|---|---|"]
    for c in a.claims_by_tree[0][1] if a.claims_by_tree else ():
        out.append(f"| {cell(c.name)} | {cell(c.published)} | {cell(claim_measured(c))} | "
                   f"{cell(claim_verdict(c, caveat(a.params) if c.id == 'dumazet' else ''))} |")
    out += ["", "One rule decides every verdict (lab/lib/py/claims.py): a claim is a ratio, a "
            "threshold and a not-reproduced region; the ratio is taken per repetition, pairing "
            "numbers of the same repetition, and the confidence interval of its median is set "
            "against them. Entirely past the threshold: the claim holds, and is *reproduced* if its "
            "mechanism gates hold too (the work visibly in ksoftirqd/0 or the napi threads, ≥ "
            f"{num(rules['mech.thread_cpu_pct'])} % of the CPU; for the livelock, softirq in irq "
            "context taking more CPU than the receiver), *partly* if not or if the mechanism was not "
            "measured (a starved guest). Entirely inside the region: *not reproduced*. Anything "
            f"else: *inconclusive*. Fewer than {num(rules['claim.min_pairs'])} pairs judge nothing. "
            "A point or rate left out for any reason but the claim's own definition (a point off its "
            f"generator target by more than {num(rules['gate.point_gen_err_pct'])} % or off its "
            "clock, a rate whose generator, clock or host ceiling gate fails) makes the claim "
            "inconclusive, with the ratio it would have had printed beside it. 0/0 counts as 1.", ""]
    return out


def upstream_section(a):
    if len(a.claims_by_tree) <= 1:
        return []
    (t1, c1), (t2, c2) = a.claims_by_tree[0], a.claims_by_tree[1]
    out = [f"## {t1} forward port against {t2} upstream code", "",
           "The same claims, rule and gates on two kernels, each judged on its own variants and its "
           "own overload region: 6.12 with our forward port (vanilla, ksoftirqd-fix, threaded-napi) "
           "and Debian's 6.1 LTS with upstream's own code (v6.1-revert: the v6.5 revert d15121be7485 "
           "applied; v6.1: Eric Dumazet's fix as 6.1 ships it; v6.1+threaded: threaded NAPI through "
           "its sysfs switch), " + ("with no verdict rate in this run." if a.vrate is None else
                                    f"at the run's verdict rate, {thou(a.vrate)} pps."), "",
           f"| Claim | {t1}, forward port | {t2}, upstream code | Same verdict |", "|---|---|---|---|"]
    for x, y in zip(c1, c2):
        out.append(f"| {x.id} | {x.status}: {cell(claim_measured(x))} | {y.status}: "
                   f"{cell(claim_measured(y))} | {'yes' if x.status == y.status else '**no**'} |")
    out.append("")
    return out


def old_rules_section(a):
    """The run judged under its own rules beside today's, where they differ."""
    if a.own is None:
        return ["## The rules this run was judged by", "",
                "The run records no rules of its own (a run before lab/lib/rules.tsv had a version, "
                "and its lab commit's rules could not be read): it is judged under today's only.", ""]
    if a.own.rules.sha == a.today.rules.sha:
        return []
    out = ["## Under the run's own rules and under today's", "",
           f"This run was recorded under rules version {a.own.rules.version} ({a.own.rules.sha}, "
           f"{a.own.rules.source}); today's are version {a.today.rules.version} "
           f"({a.today.rules.sha}). Both judgments, side by side (the report above is today's):", "",
           "| Claim | Under its own rules | Under today's | Same |", "|---|---|---|---|"]
    for (tree, old), (_, new) in zip(a.own.claims_by_tree, a.today.claims_by_tree):
        for x, y in zip(old, new):
            out.append(f"| {x.id} ({tree}) | {x.status}: {cell(claim_measured(x))} | {y.status}: "
                       f"{cell(claim_measured(y))} | {'yes' if x.status == y.status else '**no**'} |")
    out.append("")
    return out


def extras_section(a, rules):
    if not a.extras:
        return []
    kernels = a.params.get("kernels") or {}
    out = ["## Every other variant at the verdict point", "",
           "The variants beyond the claims' (defences of lab/exp/rx/defences, ablations, one's own "
           "patch): the throughput pass at " +
           (f"the verdict rate, {thou(a.vrate)} pps" if a.vrate else "no verdict rate (none passed every "
            "claim variant's gates)") + ", the latency pass at " +
           (f"{thou(a.lrate)} pps" if a.lrate else "no rate") + "; medians [CI].", "",
           "The verdict rate is chosen by the claims' variants alone; every other variant is measured "
           "there and its own gates are shown: a variant whose guest is more than "
           f"{num(rules['gate.idle_pct'])} % idle at that rate is not overloaded by it. Its delivered "
           "rate against vanilla's and ksoftirqd-fix's (and the kernel it boots) is paired per "
           f"repetition like the claims: \"more\" or \"less\" when the interval lies entirely above or "
           f"below {num(rules['compare.ratio'])}.", "",
           "| Variant | Boots | Settings | Delivered (pps) | Receiver CPU (%) | Receiver run delay (%) | "
           "µs/packet | Guest idle (%) | Generator error (%) | Probe loss (%) | Probe p99 (µs) | Timer p99 (µs) |",
           "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for v in a.variants:
        r = R.find(a.rates, v, a.vrate) if a.vrate else None
        lr = R.find(a.rates, v, a.lrate) if a.lrate else None
        k = kernels.get(v, {})
        idle = mcell(r, "idle", "pct")
        g = a.gates.get((v, a.vrate)) if a.vrate else None
        if g is not None and not g.saturated:
            idle += " ○"
        ge = "–" if r is None or r.stats["gen_err"].med is None else num(r.stats["gen_err"].med)
        out.append(f"| {v} | {k.get('kernel') or v} | {('`' + k['settings'] + '`') if k.get('settings') else '–'} | "
                   f"{mcell(r, 'delivered', 'pps')} | {mcell(r, 'recv_cpu', 'pct')} | "
                   f"{mcell(r, 'recv_wait', 'pct')} | {mcell(r, 'recv_us_per_pkt', 'us')} | {idle} | {ge} | "
                   f"{loss_cell(lr)} | {lat_cell(lr, 'probe_p99')} | {lat_cell(lr, 'tlat_p99')} |")
    out.append("")
    out += ["- " + compare.sentence(e, rules, a.vrate, a.lrate) for e in a.extras]
    out.append("")
    return out


def usec(x, b):
    return "–" if x is None else ("≥ " if b else "") + thou(x)


def lat_cell(r, m):
    if r is None:
        return "–"
    s = r.stats[m]
    if s.med is None:
        return "–"
    if s.n > 1 and s.b and s.lo_b and s.hi_b:
        t = usec(s.med, 1) + " (whole CI)"
    elif s.n <= 1:
        t = usec(s.med, s.b)
    else:
        t = f"{usec(s.med, s.b)} [{usec(s.lo, s.lo_b)}–{usec(s.hi, s.hi_b)}]"
    return t + (f" (n={s.n})" if s.n < r.n else "")


def loss_cell(r):
    if r is None or r.stats["probe_loss"].med is None:
        return "–"
    return ci_range(r.stats["probe_loss"], "pct", r.stats["probe_loss"].n)


def ms_text(ms):
    return "an unrecorded timeout" if ms in (None, "") else f"{thou(ms)} ms"


def latency_section(a):
    p = a.params
    out = ["## Latency under flood", ""]
    if not a.run.latency:
        return out + ["Latency was not measured in this run: its points.csv has no latency probe "
                      "columns (a run made before the probes were added), so there are no latency "
                      "plots and the claim of the v6.5 revert below is not measured.", ""]
    if a.lrate is None:
        return out + ["This run had no latency pass (`--lat-rates \"\"`): latency was not measured "
                      "and the claim of the v6.5 revert below is not either.", ""]
    period = p.get("timer_period_us")
    ptext = ("periodic" if not period else
             f"{thou(period / 1000)} ms" if period % 1000 == 0 else f"{thou(period)} µs")
    out.append(f"In a pass of its own after the throughput pass (so that the probes do not load the "
               f"throughput windows), at {thou(a.lrate)} pps offered, the host sent "
               f"{p.get('probe_rate', 'an unrecorded number of')} request/response probes per second "
               f"(UDP, timeout {ms_text(p.get('probe_timeout_ms'))}) to a responder process in the "
               "guest (normal priority, its own port, not the flooded one), and a normal-priority "
               f"guest thread slept with clock_nanosleep to {ptext} boundaries. This is what the v6.5 "
               "revert of \"softirq: Let ksoftirqd do its job\" (d15121be7485) was about: other work "
               "that needs softirqs or the CPU while the flood is being handled.")
    out.append("")
    vr = "" if a.vrate is None else f", {thou(a.vrate)} pps"
    out.append(f"### At {thou(a.lrate)} pps" + (" (the verdict rate)" if a.lrate == a.vrate else
                                                  f" (not the verdict rate{vr})"))
    out.append("")
    out.append("| Variant | Probe p50 (µs) | Probe p99 (µs) | Probe p99.9 (µs) | Probe loss (%) | "
               "Timer p50 (µs) | Timer p99 (µs) | Timer max (µs) | Probe p99 of the answered (µs) |")
    out.append("|---|---|---|---|---|---|---|---|---|")
    first = None
    for v in a.variants:
        r = R.find(a.rates, v, a.lrate)
        if r is None:
            continue
        first = first or r
        out.append(f"| {v} | {lat_cell(r, 'probe_p50')} | {lat_cell(r, 'probe_p99')} | "
                   f"{lat_cell(r, 'probe_p999')} | {loss_cell(r)} | {lat_cell(r, 'tlat_p50')} | "
                   f"{lat_cell(r, 'tlat_p99')} | {lat_cell(r, 'tlat_max')} | {lat_cell(r, 'probe_ap99')} |")
    out.append("")
    n = first.stats["probe_p99"].n if first else 0
    cov = first.stats["probe_p99"].cov if first else 0
    out.append("Each cell: median over the repetitions [lo–hi], the CI of the median as in the "
               f"summary ({coverage_text(n, cov)}). A lost probe counts as lost, not fast: the "
               "percentiles rank lost probes above every answered one, so a percentile that falls "
               f"among them is reported as the timeout ({ms_text(p.get('probe_timeout_ms'))}) and "
               "marked ≥, a lower bound; \"(whole CI)\": the median and both ends of its interval are. "
               "With more than 1 % of the probes lost the p99 is such a bound, and the loss column says "
               "more than the p99; the last column, the p99 of the answered probes alone, is never a "
               "bound (the revert's latency metric; – in a run before it was recorded). Timer: how late the guest thread woke, over the wake-ups that "
               "happened; periods it overslept entirely are counted in the table below, not in the "
               "percentiles.")
    out.append("")
    out += plot("latency", "Latency against offered load",
                "Left: the request/response probe's round-trip time (p99 solid, p50 dashed); a hollow "
                "triangle on the dashed line is a percentile among the lost probes, at least the "
                "timeout. Right: the guest timer thread's wake-up lateness. Medians with their CI "
                "as error bars, log scales.")
    out += plot("tradeoff", "Throughput against latency",
                "Each variant at the latency pass's rate: packets/s delivered to the flooded receiver "
                "against the probe's p99 (a hollow point with an arrow: at least the timeout), with "
                "both CIs; the dotted line runs to the p50. The labels give the probe loss. Up and "
                "to the left is better.")
    window, tp = p.get("window_s") or 0, p.get("timer_period_us") or 0
    pw = f" (of {thou(window * 1e6 / tp)})" if window and tp else ""
    out += ["### Every rate of the latency pass (medians over the repetitions)", "",
            "| Variant | Rate target | Probe p50 (µs) | Probe p99 (µs) | Probe loss (%) | "
            "Lost probes: before the socket / at it / after the read | "
            f"Timer p99 (µs) | Timer max (µs) | Timer periods overslept{pw} |",
            "|---|---|---:|---:|---:|---:|---:|---:|---:|"]
    for r in a.rates:
        s = r.stats
        if s["probe_p50"].n == 0 and s["probe_loss"].n == 0:
            continue
        lost = ("–" if s["probe_lost_socket"].med is None else
                f"{thou(s['probe_lost_net'].med or 0)} / {thou(s['probe_lost_socket'].med)} / "
                f"{thou(s['probe_lost_reply'].med or 0)}")
        out.append(f"| {r.variant} | {target(r.rate)} | {usec(s['probe_p50'].med, s['probe_p50'].b)} | "
                   f"{usec(s['probe_p99'].med, s['probe_p99'].b)} | {pct1(s['probe_loss'].med)} | {lost} | "
                   f"{usec(s['tlat_p99'].med, 0)} | {usec(s['tlat_max'].med, 0)} | "
                   f"{'–' if s['tlat_overruns'].med is None else thou(s['tlat_overruns'].med)} |")
    out += ["", "Lost probes (medians of counts per point): before the responder's socket (the "
            "tap, the guest NIC or the stack: the host's and the flood's share), dropped at "
            "its socket (its receive buffer full), or read but not answered within the "
            "timeout (late, or the reply lost).", ""]
    return out


def plot(file, alt, text):
    return [f"### {alt}", "", f"![{alt}]({file}.png)", "", f"{text} ([SVG]({file}.svg))", ""]


def plots_section():
    out = ["## Plots", ""]
    out += plot("livelock", "Delivered vs offered",
                "Packets delivered to the receiving process against packets offered at the tap, per "
                "variant: medians with their CI as error bars; the dashed line is an ideal receiver. "
                "Receive livelock is the curve falling as the load rises. Hollow markers: points that "
                "fail a gate (guest not saturated, or the flooder off its target).")
    out += plot("user-share", "Receiver CPU share",
                "CPU share of the receiving process (its user + system time, not /proc/stat's user "
                "column) against offered load: a starved receiver drops to zero.")
    out += plot("cpu-breakdown", "Where the CPU went at the verdict point",
                "Each variant's guest CPU at the verdict rate (medians), stacked to 100 %: the "
                "receiving process (user + system), ksoftirqd/0, the napi threads, softirq run in irq "
                "context, hardirq, other tasks, the lab's sampler and responder, idle. The CPU books' "
                "residual is printed over each bar.")
    out += plot("run-delay", "Receiver run delay",
                "The share of each window the receiving process was runnable but not running, "
                "against offered load: the direct measure of its starvation.")
    out += plot("drops", "Drops by layer",
                "Packets lost per second at the host tap (QEMU not taking them), in the guest NIC/backlog "
                "and at the full socket receive buffer, one panel per variant.")
    return out


def points_table(a, rules):
    out = ["## Every rate: the gates and the numbers (medians over the repetitions)", "",
           "| Variant | Rate target | n | Offered (pps) | Delivered (pps) | Receiver CPU (%) | "
           "Guest idle (%) | Generator error (%) | QEMU main ran/waited (%) | QEMU vCPU ran (%) | "
           "CPU books (%) | Gates | Tap drops (pps) | NIC drops (pps) | Socket drops (pps) |",
           "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|"]
    for r in a.rates:
        s = r.stats
        g = a.gates[(r.variant, r.rate)]
        out.append(f"| {r.variant} | {target(r.rate)} | {r.n} | {thou(s['offered'].med or 0)} | "
                   f"{thou(s['delivered'].med or 0)} | {pct1(s['recv_cpu'].med)} | {pct1(s['idle'].med)} | "
                   f"{'–' if s['gen_err'].med is None else num(s['gen_err'].med)} | "
                   f"{pct1(s['qemu_main_run'].med)} / {pct1(s['qemu_main_wait'].med)} | "
                   f"{pct1(s['qemu_vcpu_run'].med)} | {closure_cell(s['closure'].med, rules)} | "
                   f"{'pass' if g.passes else g.why()} | {thou(s['tap_drop'].med or 0)} | "
                   f"{thou(s['nic_drop'].med or 0)} | {thou(s['rcvbuf_err'].med or 0)} |")
    out += ["", f"Gates: the guest saturated (median idle ≤ {num(rules['gate.idle_pct'])} %), the flooder "
            f"on target (median error within ±{num(rules['gate.gen_err_pct'])} %), the guest at its speed "
            f"in more than {num(100 * rules['gate.clock_majority'])} % of the points (at a fixed speed "
            f"QEMU's TCG thread ran < {num(rules['gate.tcg_run_pct'])} % of the window, so it slept to "
            "stay in step with the host's clock, and the guest's window was within "
            f"±{num(rules['gate.clock_err_pct'])} % of the host's; at native speed its vCPU thread was "
            "blocked, neither running, runnable nor halted in an idle guest, at most "
            f"{num(rules['gate.vcpu_blocked_pct'])} % of the window) and the offered rate within the "
            "host's delivery ceiling (the rate QEMU's main loop would move into the guest if busy all "
            "the window, at this point's cost per packet); unlimited has no target and is a stress "
            "point, never a verdict point. A starved point (vanilla past its knee at a fixed speed) is "
            "one whose guest could not answer a snapshot for the --starve timeout (its SCHED_FIFO "
            "sampler did not answer): its idle share is 0 (a runnable task waited the whole time), "
            "its clock is the one it has, A..B against the host's; its rates come from the point's "
            "exact totals over the flood, its delivered rate from the receiver's own history of the "
            "window, and it has no CPU split.", ""]
    return out


def params_section(p):
    out = ["## Run parameters (params.json)", "", "| Parameter | Value |", "|---|---|"]
    for k, v in flat(p):
        if not k.startswith("kernels."):
            out.append(f"| {k} | {cell(v)} |")
    out.append("")
    kernels = p.get("kernels") or {}
    if not kernels:
        return out
    fields = []
    for k in kernels.values():
        for f in k:
            if f not in fields and f != "variant":
                fields.append(f)
    out += ["### Kernels", "", "| Variant | " + " | ".join(fields) + " |",
            "|---" * (len(fields) + 1) + "|"]
    for v, k in kernels.items():
        out.append(f"| {v} | " + " | ".join(cell(jsonish(k.get(f, ""))) for f in fields) + " |")
    out.append("")
    return out


def jsonish(v):
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float) and v == int(v):
        return str(int(v))
    return str(v)


def flat(d, prefix=""):
    out = []
    for k, v in d.items():
        key = f"{prefix}{k}"
        if isinstance(v, dict):
            out += flat(v, key + ".")
        elif isinstance(v, list):
            for i, x in enumerate(v, 1):
                out += flat(x, f"{key}.{i}.") if isinstance(x, dict) else [(f"{key}.{i}", jsonish(x))]
        else:
            out.append((key, jsonish(v)))
    return out


def soak_section(soaks):
    out = []
    for title, lines in soaks:
        out += [f"## Soak ({title})", ""] + ["- " + x for x in lines] + [""]
    return out


def report(a):
    rules = a.today.rules
    out = header(a)
    out += verdict_point(a, rules)
    out += extras_section(a, rules)
    out += mlfrr(a, rules)
    out += claims_section(a, rules)
    out += old_rules_section(a)
    out += upstream_section(a)
    out += latency_section(a)
    out += plots_section()
    out += points_table(a, rules)
    out += params_section(a.params)
    out += soak_section(a.soaks)
    return "\n".join(out) + "\n"
