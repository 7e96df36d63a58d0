# SPDX-License-Identifier: GPL-2.0
# The iperf3 client's JSON report (iperf3 -J, as run by iperf3_flood) as
# the flooder's result line, so lab/run treats both generators alike:
#   flood: sent=N errors=0 duration_ns=N rate_pps=N target_pps=N
# from end.sum_sent (datagrams and seconds).  A report with an "error"
# other than the interrupt that ends every lab point, without sum_sent,
# or with nothing sent (the server refused the test), is a failure: one
# line on stderr, exit 1.  Slurped, so that an empty report fails too.
#   jq -r -s --argjson target PPS -f lab/exp/rx/iperf3.jq client.json

def fail(msg): ("iperf3: " + msg + "\n" | halt_error(1));

.[0] // {} |
if (.error // "") != "" and ((.error | startswith("interrupt - the client has terminated")) | not) then
	fail(.error)
elif (.end.sum_sent.packets | type) != "number" or (.end.sum_sent.seconds | type) != "number" then
	fail("no sum_sent in the client's report")
elif .end.sum_sent.packets == 0 then
	fail("the client sent nothing: its test never started (the server's error is on the guest console)")
else
	.end.sum_sent
	| "flood: sent=\(.packets) errors=0 duration_ns=\(.seconds * 1e9 | round)"
	  + " rate_pps=\(if .seconds > 0 then .packets / .seconds | round else 0 end) target_pps=\($target)"
end
