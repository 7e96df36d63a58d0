# SPDX-License-Identifier: GPL-2.0
"""lab/lib/py/softirqtrace.py on a hand-made trace in tracefs's text
format: per vector the first raise to entry, entry to exit and the context
of each entry; ksoftirqd's wake-up to run; the packets each context
polled."""

import unittest

import softirqtrace as T

TRACE = """\
# tracer: nop
#
#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION
#              | |         |   |||||     |         |
          <idle>-0       [000] d.h2.   100.000100: local_timer_entry: vector=236
          <idle>-0       [000] d.h2.   100.000110: softirq_raise: vec=1 [action=TIMER]
          <idle>-0       [000] d.h2.   100.000120: local_timer_exit: vector=236
          <idle>-0       [000] ..s2.   100.000130: softirq_entry: vec=1 [action=TIMER]
          <idle>-0       [000] dNs2.   100.000140: sched_wakeup: comm=kworker/0:1 pid=9 prio=120 target_cpu=000
          <idle>-0       [000] ..s2.   100.000150: softirq_exit: vec=1 [action=TIMER]
          <idle>-0       [000] .Ns2.   100.000160: softirq_entry: vec=4 [action=BLOCK]
          <idle>-0       [000] .Ns2.   100.000170: softirq_exit: vec=4 [action=BLOCK]
          <idle>-0       [000] d.h2.   100.001000: irq_handler_entry: irq=24 name=virtio0-input.0
          <idle>-0       [000] d.h2.   100.001010: softirq_raise: vec=3 [action=NET_RX]
          <idle>-0       [000] d.h2.   100.001020: irq_handler_exit: irq=24 ret=handled
          <idle>-0       [000] ..s2.   100.001030: softirq_entry: vec=3 [action=NET_RX]
          <idle>-0       [000] ..s2.   100.001040: napi_poll: napi poll on napi struct 00000000a1b2c3d4 for device eth0 work 64 budget 64
          <idle>-0       [000] d.s3.   100.001050: softirq_raise: vec=3 [action=NET_RX]
          <idle>-0       [000] d.s3.   100.001060: sched_wakeup: comm=ksoftirqd/0 pid=14 prio=120 target_cpu=000
          <idle>-0       [000] ..s2.   100.001070: softirq_exit: vec=3 [action=NET_RX]
          <idle>-0       [000] d..2.   100.001080: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=ksoftirqd/0 next_pid=14 next_prio=120
     ksoftirqd/0-14      [000] ..s1.   100.001200: softirq_entry: vec=3 [action=NET_RX]
     ksoftirqd/0-14      [000] ..s1.   100.001210: napi_poll: napi poll on napi struct 00000000a1b2c3d4 for device eth0 work 10 budget 64
     ksoftirqd/0-14      [000] ..s1.   100.001300: softirq_exit: vec=3 [action=NET_RX]
     ksoftirqd/0-14      [000] d..2.   100.001310: sched_switch: prev_comm=ksoftirqd/0 prev_pid=14 prev_prio=120 prev_state=S ==> next_comm=udp_sink next_pid=80 next_prio=120
        udp_sink-80      [000] ..s1.   100.002000: softirq_raise: vec=9 [action=RCU]
        udp_sink-80      [000] ..s1.   100.002010: softirq_entry: vec=9 [action=RCU]
        udp_sink-80      [000] ..s1.   100.002020: softirq_exit: vec=9 [action=RCU]
        udp_sink-80      [000] ..s1.   100.002030: softirq_entry: vec=7 [action=SCHED]
"""


class Figures(unittest.TestCase):
    def setUp(self):
        self.f = T.figures(T.parse(TRACE))

    def test_parse(self):
        """trace: every event line parsed, comments skipped, µs timestamps exact"""
        ev = T.parse(TRACE)
        self.assertEqual(len(ev), 25)
        self.assertEqual((ev[0].ts_us, ev[0].comm, ev[0].pid, ev[0].name),
                         (100000100, "<idle>", 0, "local_timer_entry"))
        self.assertEqual((ev[17].comm, ev[17].pid, ev[17].flags), ("ksoftirqd/0", 14, "..s1."))

    def test_first_raise(self):
        """trace: the wait of a vector is from its first raise since its last entry (NET_RX: 20 and 150 µs)"""
        self.assertEqual(self.f.vectors["NET_RX"].wait_us, [20, 150])
        self.assertEqual(self.f.vectors["TIMER"].wait_us, [20])
        self.assertEqual(self.f.vectors["NET_RX"].raises, 2)

    def test_run(self):
        """trace: each entry's run time to its exit"""
        self.assertEqual(self.f.vectors["NET_RX"].run_us, [40, 100])
        self.assertEqual(self.f.vectors["RCU"].run_us, [10])

    def test_context(self):
        """trace: an entry on an irq's tail, in ksoftirqd, in a task's local_bh_enable()"""
        self.assertEqual(dict(self.f.vectors["NET_RX"].contexts), {"irq-tail": 1, "ksoftirqd": 1})
        self.assertEqual(dict(self.f.vectors["TIMER"].contexts), {"irq-tail": 1})
        self.assertEqual(dict(self.f.vectors["RCU"].contexts), {"task:udp_sink": 1})

    def test_same_loop(self):
        """trace: a wake-up inside a softirq does not end the loop: the next vector is still on the irq's tail"""
        self.assertEqual(dict(self.f.vectors["BLOCK"].contexts), {"irq-tail": 1})

    def test_lost(self):
        """trace: an entry whose raise came before the trace began has no wait (counted apart)"""
        self.assertEqual((self.f.lost, self.f.vectors["SCHED"].wait_us), (2, []))

    def test_wake(self):
        """trace: ksoftirqd woken at 1060 µs runs at 1080: 20 µs"""
        self.assertEqual(self.f.wake_us, {"ksoftirqd": [20], "napi": []})

    def test_napi(self):
        """trace: the packets polled in NET_RX on an irq's tail and in ksoftirqd"""
        self.assertEqual(dict(self.f.napi_packets), {"irq-tail": 64, "ksoftirqd": 10})

    def test_percentile(self):
        """trace: percentiles by nearest rank, as latstats.h"""
        xs = list(range(1, 1001))
        self.assertEqual((T.percentile(xs, 500), T.percentile(xs, 990), T.percentile(xs, 1000)),
                         (500, 990, 1000))
        self.assertIsNone(T.percentile([], 990))


if __name__ == "__main__":
    unittest.main()
