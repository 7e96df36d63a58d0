# SPDX-License-Identifier: GPL-2.0
# A small JSON flattener (no jq needed): prints one "path<TAB>value" line
# per scalar, objects joined by ".", array elements numbered from 1, in
# document order.  Strings lose their quotes (\" \\ \/ \n \t unescaped),
# null becomes empty.  Enough for params.json; on malformed input prints
# "json: ..." to stderr and exits 1.
#
#   awk -f plots/json.awk params.json

{ src = src $0 "\n" }

function jfail(msg) {
	printf "json: %s at offset %d\n", msg, pos > "/dev/stderr"
	failed = 1
	exit 1
}

function ws() {
	while (pos <= len && index(" \t\r\n", substr(src, pos, 1)))
		pos++
}

function jstring(    s, ch, e) {
	pos++
	s = ""
	while (pos <= len) {
		ch = substr(src, pos, 1)
		if (ch == "\"") {
			pos++
			return s
		}
		if (ch == "\\") {
			e = substr(src, pos + 1, 1)
			s = s (e == "n" ? "\n" : e == "t" ? " " : e == "u" ? "\\u" : e)
			pos += 2
			continue
		}
		s = s ch
		pos++
	}
	jfail("unterminated string")
}

function emit(path, v) {
	gsub(/[\t\n]/, " ", v)
	printf "%s\t%s\n", path, v
}

function jvalue(path,    ch, k, n, t) {
	ws()
	ch = substr(src, pos, 1)
	if (ch == "{") {
		pos++
		ws()
		if (substr(src, pos, 1) == "}") {
			pos++
			return
		}
		while (1) {
			ws()
			if (substr(src, pos, 1) != "\"")
				jfail("expected a key")
			k = jstring()
			ws()
			if (substr(src, pos, 1) != ":")
				jfail("expected ':'")
			pos++
			jvalue(path == "" ? k : path "." k)
			ws()
			ch = substr(src, pos++, 1)
			if (ch == "}")
				return
			if (ch != ",")
				jfail("expected ',' or '}'")
		}
	}
	if (ch == "[") {
		pos++
		ws()
		if (substr(src, pos, 1) == "]") {
			pos++
			return
		}
		for (n = 1; ; n++) {
			jvalue(path "." n)
			ws()
			ch = substr(src, pos++, 1)
			if (ch == "]")
				return
			if (ch != ",")
				jfail("expected ',' or ']'")
		}
	}
	if (ch == "\"") {
		emit(path, jstring())
		return
	}
	t = substr(src, pos)
	if (match(t, /^(-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?|true|false|null)/)) {
		pos += RLENGTH
		emit(path, substr(t, 1, RLENGTH) == "null" ? "" : substr(t, 1, RLENGTH))
		return
	}
	jfail("unexpected '" ch "'")
}

END {
	if (failed)
		exit 1
	len = length(src)
	pos = 1
	ws()
	if (pos > len)
		jfail("empty input")
	jvalue("")
	ws()
	if (pos <= len)
		jfail("trailing text")
}
