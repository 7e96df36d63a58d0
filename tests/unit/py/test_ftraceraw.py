# SPDX-License-Identifier: GPL-2.0
"""ftraceraw.py on hand-made ring-buffer pages: the layout of
kernel/trace/ring_buffer.c written here byte by byte, decoded into the
events softirqtrace.py reads from tracefs's text."""

import struct
import unittest

import ftraceraw as R
import softirqtrace as T

HEADER_PAGE = """\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;
\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;
\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;
\tfield: char data;\toffset:16;\tsize:4080;\tsigned:1;
"""
COMMON = """\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;
\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;
\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;
\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;

"""
RAISE = f"name: softirq_raise\nID: 7\nformat:\n{COMMON}\tfield:unsigned int vec;\toffset:8;\tsize:4;\tsigned:0;\n"
ENTRY = f"name: softirq_entry\nID: 8\nformat:\n{COMMON}\tfield:unsigned int vec;\toffset:8;\tsize:4;\tsigned:0;\n"
WAKEUP = (f"name: sched_wakeup\nID: 9\nformat:\n{COMMON}"
          "\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
          "\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n"
          "\tfield:int prio;\toffset:28;\tsize:4;\tsigned:1;\n"
          "\tfield:int target_cpu;\toffset:32;\tsize:4;\tsigned:1;\n")
NAPI = (f"name: napi_poll\nID: 10\nformat:\n{COMMON}"
        "\tfield:struct napi_struct * napi;\toffset:8;\tsize:8;\tsigned:0;\n"
        "\tfield:__data_loc char[] dev_name;\toffset:16;\tsize:4;\tsigned:0;\n"
        "\tfield:int work;\toffset:20;\tsize:4;\tsigned:1;\n"
        "\tfield:int budget;\toffset:24;\tsize:4;\tsigned:1;\n")


def common(ident, flags, preempt, pid):
    return struct.pack("<HBBi", ident, flags, preempt, pid)


def record(delta, data):
    """A data record: type_len = words of data (data padded to 4 bytes)."""
    data += b"\0" * (-len(data) % 4)
    return struct.pack("<I", (delta << 5) | (len(data) // 4)) + data


def long_record(delta, data):
    """type_len 0: the length word (data + itself) first"""
    data += b"\0" * (-len(data) % 4)
    return struct.pack("<II", delta << 5, len(data) + 4) + data


def page(ts, body, commit_flags=0, tail=b""):
    head = struct.pack("<QQ", ts, len(body) | commit_flags)
    return (head + body + tail).ljust(4096, b"\0")


def frame(what, payload):
    return f"# lab-trace {what} bytes={len(payload)}\n".encode() + payload


def dump(pages, tag="t1", cmdlines="15 ksoftirqd/0\n80 udp_sink\n"):
    blob = f"# lab-trace begin tag={tag} format=raw\n".encode()
    blob += frame(f"file tag={tag} name=events/header_page", HEADER_PAGE.encode())
    for i, fmt in enumerate((RAISE, ENTRY, WAKEUP, NAPI)):
        blob += frame(f"file tag={tag} name=events/x/e{i}/format", fmt.encode())
    blob += frame(f"raw tag={tag} cpu0", b"".join(pages))
    blob += frame(f"file tag={tag} name=saved_cmdlines", cmdlines.encode())
    blob += f"# lab-trace end tag={tag} bytes={4096 * len(pages)} overrun=0 dropped=0\n".encode()
    return blob


def napi_data(pid, work):
    name = b"eth0\0"
    fixed = common(10, 0x10, 0x01, pid) + struct.pack("<QIii", 0xffff888004a0c010,
                                                      (len(name) << 16) | 28, work, 64)
    return fixed + name


class Decode(unittest.TestCase):
    def test_records_times_flags_fields(self):
        """records of one page: time deltas, a time extend, a long record, padding, flags, fields"""
        body = (record(0, common(7, 0x08, 0x01, 0) + struct.pack("<I", 3))       # raise NET_RX in a hardirq
                + struct.pack("<II", (5 << 5) | R.TYPE_TIME_EXTEND, 1)            # + (1 << 27) + 5 ns
                + record(1500, common(8, 0x10, 0x01, 80) + struct.pack("<I", 3))  # entry, softirq, udp_sink
                + struct.pack("<II", (1 << 5) | R.TYPE_PADDING, 8) + b"\0" * 4    # a discarded record
                + long_record(700, common(9, 0x01, 0x00, 80) + b"ksoftirqd/0".ljust(16, b"\0")
                              + struct.pack("<iii", 15, 120, 0))                  # wake-up, irqs off
                + record(300, napi_data(15, 12)))
        events, missed = R.decode(dump([page(1_000_000_000, body)]))
        self.assertEqual(missed, 0)
        self.assertEqual([e.name for e in events],
                         ["softirq_raise", "softirq_entry", "sched_wakeup", "napi_poll"])
        t1 = 1_000_000_000 + (1 << 27) + 5 + 1500
        self.assertEqual([e.ts_us for e in events],
                         [1_000_000, (t1 + 500) // 1000, (t1 + 700 + 500) // 1000,
                          (t1 + 1000 + 500) // 1000])
        self.assertEqual([e.flags for e in events], ["..h1.", "..s1.", "d....", "..s1."])
        self.assertEqual([e.comm for e in events], ["<idle>", "udp_sink", "udp_sink", "ksoftirqd/0"])
        self.assertEqual(events[0].rest, "vec=3 [action=NET_RX]")
        self.assertEqual(events[2].rest, "comm=ksoftirqd/0 pid=15 prio=120 target_cpu=000")
        self.assertEqual(T.NAPI.search(events[3].rest).groups(), ("eth0", "12", "64"))

    def test_page_end_and_missed(self):
        """padding of time_delta 0 ends a page; a page that lost events says how many"""
        body = (record(0, common(7, 0, 0, 0) + struct.pack("<I", 1))
                + struct.pack("<I", R.TYPE_PADDING)
                + record(0, common(7, 0, 0, 0) + struct.pack("<I", 9)))
        p1 = page(10_000, body)
        p2 = page(20_000, record(0, common(8, 0x10, 0, 0) + struct.pack("<I", 1)),
                  R.RB_MISSED_EVENTS | R.RB_MISSED_STORED, struct.pack("<Q", 42))
        events, missed = R.decode(dump([p1, p2]))
        self.assertEqual([(e.name, e.rest) for e in events],
                         [("softirq_raise", "vec=1 [action=TIMER]"),
                          ("softirq_entry", "vec=1 [action=TIMER]")])
        self.assertEqual(missed, 42)

    def test_figures_as_from_text(self):
        """the figures of decoded pages are the figures of the same events as tracefs text"""
        body = (record(0, common(7, 0x08, 0x01, 0) + struct.pack("<I", 1))
                + record(2000, common(9, 0x08, 0x01, 0) + b"ksoftirqd/0".ljust(16, b"\0")
                         + struct.pack("<iii", 15, 120, 0))
                + record(3000, common(8, 0x10, 0x01, 15) + struct.pack("<I", 1)))
        events, _ = R.decode(dump([page(5_000_000, body)]))
        text = "\n".join(f"{e.comm}-{e.pid} [{e.cpu:03d}] {e.flags} {e.ts_us // 10**6}."
                         f"{e.ts_us % 10**6:06d}: {e.name}: {e.rest}" for e in events)
        self.assertEqual(T.parse(text), events)
        f = T.figures(events)
        self.assertEqual(f.vectors["TIMER"].wait_us, [5])
        self.assertEqual(f.vectors["TIMER"].contexts["ksoftirqd"], 1)
        self.assertEqual(f.wake_us, {"ksoftirqd": [], "napi": []})

    def test_extract_and_load(self):
        """the port's stream cut by frame lengths (a page holding a marker line is not cut there); load tells raw from text"""
        trap = b"\n# lab-trace end tag=t2 bytes=0 overrun=0 dropped=0\n"
        body = record(0, common(7, 0, 0, 0) + struct.pack("<I", 9)) + record(0, trap)
        d = dump([page(1_000, body)], tag="t2")
        port = b"noise\n" + dump([page(1_000, b"")], tag="t1") + d + b"more\n"
        self.assertEqual(R.extract(port, "t2"), d)
        self.assertEqual([e.rest for e in T.load(R.extract(port, "t2"))], ["vec=9 [action=RCU]"])
        self.assertEqual(T.load(b"<idle>-0 [000] ..s1. 5.000001: softirq_entry: vec=1 [action=TIMER]\n")[0].name,
                         "softirq_entry")
        with self.assertRaises(ValueError):
            R.extract(port, "t3")
        with self.assertRaises(ValueError):
            R.decode(d[:-200])


if __name__ == "__main__":
    unittest.main()
