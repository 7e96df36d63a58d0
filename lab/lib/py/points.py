# SPDX-License-Identifier: GPL-2.0
"""A run's inputs: points.csv (lab/exp/rx/point.awk's rows) and
params.json, read and checked.  Rows are read by column name, so extra
columns (a later format) do not matter and a missing required one is an
error.  Every function returns a new value and keeps no state."""

import csv
import json
import os
import re
from dataclasses import dataclass, field


class InputError(Exception):
    pass


# the columns the analysis needs, by name
REQUIRED = (
    "variant rep pass rate_target offered_pps delivered_pps recv_cpu "
    "tap_drop_pps nic_drop_pps rcvbuf_err_pps cpu_user cpu_system "
    "cpu_irq cpu_softirq cpu_idle cpu_steal ksoftirqd_cpu napi_cpu "
    "loss_pct idle_cpu gen_err_pct closure_pct recv_wait_pct recv_us_per_pkt "
    "softirq_irqctx_cpu hardirq_cpu other_cpu sampler_cpu responder_cpu "
    "qemu_main_run_pct qemu_main_wait_pct qemu_vcpu_run_pct flood_run_pct").split()
# the latency probes' columns: all of them or none (a run before the probes)
LATENCY = (
    "probe_sent probe_lost probe_loss_pct probe_p50_us probe_p90_us probe_p99_us "
    "probe_p999_us probe_max_us probe_lost_bounded tlat_n tlat_p50_us "
    "tlat_p99_us tlat_max_us tlat_overruns").split()
# may be empty where not measured: the latency columns outside the latency
# pass (and a percentile without samples), the generator's error at the
# unlimited rate, the CPU books without PSI, µs/packet with no packet
BLANK = set((
    "probe_p50_us probe_p90_us probe_p99_us probe_p999_us probe_max_us "
    "tlat_p50_us tlat_p99_us tlat_max_us probe_sent probe_lost probe_loss_pct "
    "tlat_n tlat_overruns gen_err_pct closure_pct softirq_irqctx_cpu "
    "recv_us_per_pkt").split())
# the CPU shares a row gives only when its books close (closure_ok 1):
# an attribution that does not add up is not reported
BOOKS_SHARES = (
    "recv_cpu ksoftirqd_cpu napi_cpu sampler_cpu responder_cpu "
    "softirq_irqctx_cpu hardirq_cpu other_cpu recv_us_per_pkt").split()

NUMBER = re.compile(r"^-?[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?$")
BOUNDED = re.compile(r"^(none|(p50|p90|p99|p999|max)(\+(p50|p90|p99|p999|max))*)$")
VARIANT = re.compile(r"^[A-Za-z0-9_.+-]+$")


@dataclass(frozen=True)
class Run:
    path: str
    params: dict = field(hash=False)
    rows: tuple                 # of dicts: column -> text
    columns: tuple
    latency: bool               # the latency probes' columns are there


def num(row, col):
    """A row's number in col, None when empty or absent."""
    x = row.get(col, "")
    return None if x == "" else float(x)


def is_starved(row):
    return row.get("starved", "") == "1"


def books_close(row):
    """The row's CPU books close (lab/exp/rx/point.awk's closure_ok)."""
    return row.get("closure_ok", "") == "1"


def share(row, col):
    """A CPU share of the row: None where the books do not close."""
    if col in BOOKS_SHARES and "closure_ok" in row and not books_close(row):
        return None
    return num(row, col)


def rate(row):
    return int(float(row["rate_target"]))


def check_header(header, path):
    """The latency columns are all there or none; the required ones are."""
    have = [c for c in LATENCY if c in header]
    if have and len(have) != len(LATENCY):
        miss = ", ".join(c for c in LATENCY if c not in header)
        raise InputError(f"{path} has some latency columns but lacks {miss} "
                         "(corrupt or mixed format?)")
    need = REQUIRED + (LATENCY if have else [])
    miss = [c for c in need if c not in header]
    if miss:
        raise InputError(f"{path} header lacks required column(s) {', '.join(miss)} "
                         "(older or different format?)")
    return bool(have), need


def check_row(row, need, line, path):
    """One row's fields, or the first thing wrong with them."""
    starved = is_starved(row)
    for c in need:
        x = row[c]
        if c == "variant":
            if not VARIANT.match(x):
                raise InputError(f"{path} line {line}: bad variant name '{x}'")
        elif c == "pass":
            if x not in ("tput", "lat"):
                raise InputError(f"{path} line {line}: pass is '{x}', not tput or lat")
        elif c == "probe_lost_bounded":
            if x == "" and row["pass"] != "lat":
                continue
            if not BOUNDED.match(x):
                raise InputError(f"{path} line {line}: probe_lost_bounded is '{x}', "
                                 "not 'none' or e.g. 'p99+p999+max'")
        elif x == "" and (c in BLANK or starved):
            continue
        elif not NUMBER.match(x):
            raise InputError(f"{path} line {line}: {c} is '{x}', not a number")


def read_points(path):
    """(header, rows, latency) of a points.csv, checked."""
    try:
        with open(path, encoding="utf-8", newline="") as f:
            text = f.read()
    except FileNotFoundError:
        raise InputError(f"{path} missing: not a results directory "
                         "(or the run never started)") from None
    if not text:
        raise InputError(f"{path} is empty")
    if not text.endswith("\n"):
        raise InputError(f"{path}: the last line is incomplete (no newline at the end): "
                         "truncated file?")
    lines = list(csv.reader(text.splitlines()))
    header = lines[0]
    latency, need = check_header(header, path)
    rows, seen = [], {}
    for n, fields in enumerate(lines[1:], 2):
        if len(fields) != len(header):
            raise InputError(f"{path} line {n} has {len(fields)} fields, the header has "
                             f"{len(header)} (truncated or corrupt file?)")
        row = dict(zip(header, fields))
        check_row(row, need, n, path)
        key = (row["variant"], row["rep"], float(row["rate_target"]), row["pass"])
        if key in seen:
            raise InputError(f"{path} line {n} repeats the point of line {seen[key]} "
                             f"({row['variant']} rep {row['rep']} rate {row['rate_target']} "
                             f"pass {row['pass']})")
        seen[key] = n
        rows.append(row)
    if not rows:
        raise InputError(f"{path} holds no points (header only)")
    return tuple(header), tuple(rows), latency


def read_params(path):
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except FileNotFoundError:
        raise InputError(f"{path} missing or empty") from None
    if not text.strip():
        raise InputError(f"{path} missing or empty")
    try:
        params = json.loads(text)
    except json.JSONDecodeError as e:
        raise InputError(f"{path} is not valid JSON ({e.msg})") from None
    if not isinstance(params, dict):
        raise InputError(f"{path} is not a JSON object")
    return params


# the newest results format this analysis reads (params.json "format";
# none: a run before it was recorded, format 1)
FORMAT = 2


def read_run(path):
    if not os.path.isdir(path):
        raise InputError(f"{path}: no such results directory")
    header, rows, latency = read_points(os.path.join(path, "points.csv"))
    params = read_params(os.path.join(path, "params.json"))
    fmt = params.get("format", 1)
    if not isinstance(fmt, int) or fmt > FORMAT:
        raise InputError(f"{path}/params.json: results format {fmt}, newer than this lab reads "
                         f"(up to {FORMAT}): analyze it with the lab that made it")
    return Run(path, params, rows, header, latency)


def variants_in_order(rows):
    """The variants in the order they first appear."""
    seen = []
    for r in rows:
        if r["variant"] not in seen:
            seen.append(r["variant"])
    return tuple(seen)


def by_pass(rows, which):
    return tuple(r for r in rows if r.get("pass", "tput") == which)


def rates_sorted(rates):
    """Rates ascending, unlimited (0) above every paced rate."""
    return sorted(set(rates), key=lambda t: (t == 0, t))


def group(rows):
    """{(variant, rate): (rows sorted by repetition)}."""
    g = {}
    for r in rows:
        g.setdefault((r["variant"], rate(r)), []).append(r)
    return {k: tuple(sorted(v, key=lambda r: int(r["rep"]))) for k, v in g.items()}


def speed(params):
    s = params.get("speed") or "native"
    return s


def fixed_speed(params):
    return speed(params) != "native"
