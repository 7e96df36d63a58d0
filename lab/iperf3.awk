# SPDX-License-Identifier: GPL-2.0
# The iperf3 client's JSON report (iperf3 -J, as run by iperf3_flood) as
# the flooder's result line, so lab/run treats both generators alike:
#   flood: sent=N errors=0 duration_ns=N rate_pps=N target_pps=N
# from end.sum_sent (datagrams and seconds).  A report with an "error"
# other than the interrupt that ends every lab point, without sum_sent,
# or with nothing sent (the server refused the test), is a failure: one
# line on stderr, exit 1.
#   awk -v target=PPS -f lab/iperf3.awk client.json

function num(s) {
	sub(/^[^:]*:[[:space:]]*/, "", s)
	sub(/[,[:space:]]*$/, "", s)
	return s
}

/"sum_sent"[[:space:]]*:/ { in_sent = 1; next }
in_sent && /}/ { in_sent = 0 }
in_sent && /"packets"[[:space:]]*:/ { packets = num($0) }
in_sent && /"seconds"[[:space:]]*:/ { seconds = num($0) }
/^[[:space:]]*"error"[[:space:]]*:/ {
	error = $0
	sub(/^[^:]*:[[:space:]]*"/, "", error)
	sub(/"[,[:space:]]*$/, "", error)
}

END {
	if (error != "" && error !~ /^interrupt - the client has terminated/) {
		print "iperf3: " error > "/dev/stderr"
		exit 1
	}
	if (packets !~ /^[0-9]+$/ || seconds !~ /^[0-9.]+(e[-+]?[0-9]+)?$/) {
		print "iperf3: no sum_sent in the client's report" > "/dev/stderr"
		exit 1
	}
	if (packets == 0) {
		print "iperf3: the client sent nothing: its test never started (the server's error is on the guest console)" > "/dev/stderr"
		exit 1
	}
	printf "flood: sent=%d errors=0 duration_ns=%.0f rate_pps=%.0f target_pps=%d\n",
		packets, seconds * 1e9, (seconds > 0 ? packets / seconds : 0), target
}
