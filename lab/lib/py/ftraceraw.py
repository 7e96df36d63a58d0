# SPDX-License-Identifier: GPL-2.0
"""A guest's ring buffer as the trace port carries it (lab/tools/tracectl.h:
frames of tracefs files and of raw pages from per_cpu/cpu<N>/trace_pipe_raw)
decoded into the events softirqtrace.py reads from tracefs's text.

The pages are the ring buffer's sub-buffers (kernel/trace/ring_buffer.c,
the layout trace-cmd's libtraceevent reads): a header (events/header_page:
a u64 time stamp, the commit (bytes of events, flags in bits 30-31)), then
events, each a 32-bit header (type_len: 5 bits, time_delta: 27 bits) and
its data; type_len 1..28 is a record of type_len * 4 bytes, 0 one whose
length is its first word, 29 padding (the page's end when time_delta is
0), 30 a time extend, 31 an absolute time stamp.  A record's data is the
event's fields at the offsets its events/<sys>/<event>/format gives.  The
text the kernel would print is rebuilt for what softirqtrace.py reads:
the task's comm (saved_cmdlines, as the text's comm column), the context
flags of trace_print_lat_fmt(), the time in µs rounded as ns2usecs(), and
the fields of each event's print format.

Every function takes its input and returns its result."""

import re
import struct

from softirqtrace import Event

FRAME = re.compile(rb"# lab-trace (?P<what>[^\n]*?) bytes=(?P<n>\d+)\n")
MARK = re.compile(rb"# lab-trace (?:begin|end) [^\n]*\n")
FIELD = re.compile(r"field:(?P<decl>[^;]*);\s*offset:(?P<off>\d+);\s*size:(?P<size>\d+);"
                   r"\s*signed:(?P<signed>\d+);")
# include/linux/interrupt.h's softirq_to_name (6.1 and 6.12)
SOFTIRQ_NAMES = ("HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET", "SCHED",
                 "HRTIMER", "RCU")
# include/linux/trace_events.h's trace_flag_type
F_IRQS_OFF, F_NOSUPPORT, F_NEED_RESCHED, F_HARDIRQ = 0x01, 0x02, 0x04, 0x08
F_SOFTIRQ, F_PREEMPT_RESCHED, F_NMI, F_BH_OFF = 0x10, 0x20, 0x40, 0x80
RB_MISSED_EVENTS, RB_MISSED_STORED = 0x80000000, 0x40000000
TYPE_PADDING, TYPE_TIME_EXTEND, TYPE_TIME_STAMP = 29, 30, 31
# time_delta's bits in an event header; an absolute stamp's bits
DELTA_BITS, STAMP_BITS = 27, 59
# an event header's type_len; a __data_loc word's length (its offset:
# the low 16 bits); integers up to 8 bytes, longer fields are char arrays
TYPE_BITS, LOC_SHIFT, INT_MAX_BYTES = 5, 16, 8
# the common fields every record starts with: type, flags, preempt count, pid
COMMON = struct.Struct("<HBBi")
# preempt_count's high nibble: migrate_disable()'s depth
MIGRATE_SHIFT = 4


def is_raw(blob):
    """A dump in the raw frames (not the text of earlier runs)."""
    return blob.startswith(b"# lab-trace begin ") and b" format=raw" in blob[:200]


def frames(blob):
    """(what, payload) of every frame of a dump, in order; "what" is the
    frame line's words before bytes= ("file tag=X name=..." or "raw tag=X
    cpu0").  The begin and end lines are skipped."""
    out, pos = [], 0
    while pos < len(blob):
        m = MARK.match(blob, pos)
        if m:
            pos = m.end()
            continue
        m = FRAME.match(blob, pos)
        if not m:
            raise ValueError(f"trace dump: no frame at byte {pos}")
        n = int(m["n"])
        payload = blob[m.end():m.end() + n]
        if len(payload) != n:
            raise ValueError(f"trace dump: frame at byte {pos} cut short ({len(payload)} of {n})")
        out.append((m["what"].decode(), payload))
        pos = m.end() + n
    return tuple(out)


def words(what):
    """key=value words of a frame line, and its bare words under ''."""
    kv = dict(w.split("=", 1) for w in what.split() if "=" in w)
    kv[""] = [w for w in what.split() if "=" not in w]
    return kv


def parse_fields(text):
    """{name: (offset, size, signed, data_loc)} of a format file."""
    out = {}
    for m in FIELD.finditer(text):
        decl = m["decl"].strip()
        name = re.sub(r"\[.*\]$", "", decl.split()[-1])
        out[name] = (int(m["off"]), int(m["size"]), m["signed"] == "1", "__data_loc" in decl)
    return out


def parse_format(text):
    """(id, name, fields) of events/<sys>/<event>/format."""
    name = re.search(r"^name: (\S+)", text, re.M)[1]
    ident = int(re.search(r"^ID: (\d+)", text, re.M)[1])
    return ident, name, parse_fields(text)


def header_layout(text):
    """(commit offset, commit size, data offset, data size) of
    events/header_page."""
    f = parse_fields(text)
    return f["commit"][0], f["commit"][1], f["data"][0], f["data"][1]


def cmdlines(text):
    """{pid: comm} of saved_cmdlines ("<pid> <comm>" lines)."""
    out = {}
    for line in text.splitlines():
        pid, _, comm = line.partition(" ")
        if pid.isdigit():
            out[int(pid)] = comm
    return out


def value(data, f):
    """A field's value: an int, or a str for char arrays and __data_loc
    strings."""
    off, size, signed, data_loc = f
    if data_loc:
        loc = struct.unpack_from("<I", data, off)[0]
        start, length = loc & 0xFFFF, loc >> LOC_SHIFT
        return data[start:start + length].split(b"\0")[0].decode(errors="replace")
    if size > INT_MAX_BYTES:
        return data[off:off + size].split(b"\0")[0].decode(errors="replace")
    return int.from_bytes(data[off:off + size], "little", signed=signed)


def page_records(page, layout):
    """(ts_ns, data) of every record of one page, and the events the
    writer lost before it (-1: some, not counted; 0: none)."""
    c_off, c_size, d_off, d_size = layout
    ts = struct.unpack_from("<Q", page, 0)[0]
    commit = int.from_bytes(page[c_off:c_off + c_size], "little")
    size = commit & ~(RB_MISSED_EVENTS | RB_MISSED_STORED) & 0xFFFFFFFF
    missed = 0
    if commit & RB_MISSED_EVENTS:
        missed = -1
        if commit & RB_MISSED_STORED:
            missed = struct.unpack_from("<Q", page, d_off + size)[0]
    out, pos, end = [], d_off, d_off + min(size, d_size)
    while pos + 4 <= end:
        head = struct.unpack_from("<I", page, pos)[0]
        type_len, delta = head & 0x1F, head >> TYPE_BITS
        if type_len == TYPE_PADDING:
            if delta == 0:
                break
            pos += 4 + struct.unpack_from("<I", page, pos + 4)[0]
        elif type_len == TYPE_TIME_EXTEND:
            ts += (struct.unpack_from("<I", page, pos + 4)[0] << DELTA_BITS) + delta
            pos += 8
        elif type_len == TYPE_TIME_STAMP:
            stamp = (struct.unpack_from("<I", page, pos + 4)[0] << DELTA_BITS) | delta
            ts = (ts & ~((1 << STAMP_BITS) - 1)) | stamp
            pos += 8
        elif type_len == 0:
            length = struct.unpack_from("<I", page, pos + 4)[0]
            ts += delta
            out.append((ts, page[pos + 8:pos + 4 + length]))
            pos += 4 + length
        else:
            ts += delta
            out.append((ts, page[pos + 4:pos + 4 + type_len * 4]))
            pos += 4 + type_len * 4
    return out, missed


def flags_text(flags, preempt):
    """The context columns trace_print_lat_fmt() prints."""
    irqs_off = ("D" if flags & F_IRQS_OFF and flags & F_BH_OFF else "d" if flags & F_IRQS_OFF
                else "b" if flags & F_BH_OFF else "X" if flags & F_NOSUPPORT else ".")
    need = {F_NEED_RESCHED | F_PREEMPT_RESCHED: "N", F_NEED_RESCHED: "n",
            F_PREEMPT_RESCHED: "p"}.get(flags & (F_NEED_RESCHED | F_PREEMPT_RESCHED), ".")
    nmi, hard, soft = flags & F_NMI, flags & F_HARDIRQ, flags & F_SOFTIRQ
    hs = ("Z" if nmi and hard else "z" if nmi else "H" if hard and soft else "h" if hard
          else "s" if soft else ".")
    pc = f"{preempt & 0xF:x}" if preempt & 0xF else "."
    mig = f"{preempt >> MIGRATE_SHIFT:x}" if preempt & 0xF0 else "."
    return irqs_off + need + hs + pc + mig


def rest_text(name, v):
    """The fields of an event as its print format shows them (the events of
    tracectl.c's trace_events)."""
    if name in ("softirq_raise", "softirq_entry", "softirq_exit"):
        vec = v["vec"]
        action = SOFTIRQ_NAMES[vec] if vec < len(SOFTIRQ_NAMES) else "UNKNOWN"
        return f"vec={vec} [action={action}]"
    if name == "sched_wakeup":
        return f"comm={v['comm']} pid={v['pid']} prio={v['prio']} target_cpu={v['target_cpu']:03d}"
    if name == "sched_switch":
        return (f"prev_comm={v['prev_comm']} prev_pid={v['prev_pid']} prev_prio={v['prev_prio']} "
                f"prev_state={v['prev_state']} ==> next_comm={v['next_comm']} "
                f"next_pid={v['next_pid']} next_prio={v['next_prio']}")
    if name == "irq_handler_entry":
        return f"irq={v['irq']} name={v['name']}"
    if name == "irq_handler_exit":
        return f"irq={v['irq']} ret={'handled' if v['ret'] else 'unhandled'}"
    if name in ("local_timer_entry", "local_timer_exit"):
        return f"vector={v['vector']}"
    if name == "napi_poll":
        return (f"napi poll on napi struct {v['napi']:#x} for device {v['dev_name']} "
                f"work {v['work']} budget {v['budget']}")
    return " ".join(f"{k}={x}" for k, x in v.items() if not k.startswith("common_"))


def decode(blob):
    """(events, missed) of a raw dump: the events of every CPU in time
    order, as softirqtrace.Event, and the events the writer lost (a page
    flagged without a count counts 1)."""
    formats, comms, raws, layout = {}, {}, [], None
    for what, payload in frames(blob):
        w = words(what)
        text = payload.decode(errors="replace")
        if what.startswith("file "):
            name = w.get("name", "")
            if name == "events/header_page":
                layout = header_layout(text)
            elif name.endswith("/format"):
                ident, ev, fields = parse_format(text)
                formats[ident] = (ev, fields)
            elif name == "saved_cmdlines":
                comms = cmdlines(text)
        elif what.startswith("raw "):
            cpu = next((int(x[3:]) for x in w[""] if x.startswith("cpu")), 0)
            raws.append((cpu, payload))
    if layout is None:
        raise ValueError("trace dump: no events/header_page")
    page = layout[2] + layout[3]
    stamped, missed = [], 0
    for cpu, data in raws:
        for at in range(0, len(data) - page + 1, page):
            records, lost = page_records(data[at:at + page], layout)
            missed += 1 if lost < 0 else lost
            for ts, rec in records:
                if len(rec) < COMMON.size:
                    continue
                ident, flags, preempt, pid = COMMON.unpack_from(rec, 0)
                if ident not in formats:
                    continue
                ev, fields = formats[ident]
                v = {k: value(rec, f) for k, f in fields.items()}
                comm = "<idle>" if pid == 0 else comms.get(pid, "<...>")
                stamped.append((ts, len(stamped), Event((ts + 500) // 1000, comm, pid, cpu,
                                                        flags_text(flags, preempt), ev,
                                                        rest_text(ev, v))))
    # the CPUs merged by time, as tracefs's text merges them
    stamped.sort(key=lambda x: x[:2])
    return tuple(e for _, _, e in stamped), missed


def extract(port, tag):
    """One dump of the trace port's stream (its last with @tag), from its
    begin line to its end line: frames are skipped by their lengths, so
    that no byte of a page is taken for a line."""
    begin = f"# lab-trace begin tag={tag} ".encode()
    start = port.rfind(begin)
    if start < 0 or (start > 0 and port[start - 1:start] != b"\n"):
        raise ValueError(f"trace port: no dump tagged {tag}")
    pos = port.index(b"\n", start) + 1
    end = f"# lab-trace end tag={tag} ".encode()
    while not port.startswith(end, pos):
        m = FRAME.match(port, pos)
        if not m:
            raise ValueError(f"trace port: dump {tag} broken at byte {pos}")
        pos = m.end() + int(m["n"])
    return port[start:port.index(b"\n", pos) + 1]


if __name__ == "__main__":
    import sys
    if len(sys.argv) != 5 or sys.argv[1] != "extract":
        sys.exit("usage: ftraceraw.py extract PORT TAG OUT")
    with open(sys.argv[2], "rb") as fh:
        dump = extract(fh.read(), sys.argv[3])
    with open(sys.argv[4], "wb") as fh:
        fh.write(dump)
