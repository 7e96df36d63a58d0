#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The field's linters on the lab's own code, each clean:
#   ShellCheck, with .shellcheckrc, on every shell script and sourced file
#   scripts/checkpatch.pl --no-tree -f on lab/tools/*.[ch], with the
#   exceptions below, each with its reason
#   Python's own parser on the analysis (standard library only)
# (their results kept per file outside the clone, like ccache's objects:
# see file_keys); and the experiments' meta files list exactly their
# options and columns; and no build output is committed.
# tests/run: side
set -u
# shellcheck source=lab/lib/lib.sh
. "$(dirname "$0")/../../lab/lib/lib.sh"
# shellcheck source=tests/lib.sh
. "$LAB_TOP/tests/lib.sh"

cd "$LAB_TOP" || exit 1
LINT_NEW=
trap 'rm -rf "$LINT_NEW"' EXIT

# Every file of the repository that is shell: by name or by shebang.
shell_files()
{
	local f

	{ git ls-files; git ls-files --others --exclude-standard; } | sort -u |
		while read -r f; do
			[ -f "$f" ] || continue
			case $f in
			*.sh|*.t) echo "$f" ;;
			*.*) ;;
			*) head -1 "$f" | grep -qE '^#!/bin/(ba)?sh' && echo "$f" ;;
			esac
		done
}

# The files shellcheck -x follows: those its directives name.
sourced_files()
{
	shell_files | xargs -r grep -hoE '^[[:space:]]*#[ ]shellcheck[ ]source=[^ ]+' |
		sed 's/.*source=//' | sort -u | while read -r f; do [ ! -f "$f" ] || echo "$f"; done
}

# Build outputs are never committed (.gitignore: build/ at any depth).
elf_files()
{
	git ls-files -z | xargs -0 -r file -N -F '|' | grep '| ELF ' | cut -d'|' -f1
}
check "git ls-files lists no ELF file (build outputs stay under ignored build/)" \
	test -z "$(elf_files)"

# A linter's verdict on the same inputs is the same verdict, so like
# ccache's objects the results are kept outside the clone, in
# $LAB_CACHE/lint/<linter>-<key of its version and options>/, one per
# file under a hash of all the linter reads for it: the file, and (for
# ShellCheck -x) every file its source= directives name (what
# it follows; any change to one of them lints every shell file again).
# A commit that changes two files lints two.  LAB_LINT_CACHE=0 runs the
# linter on every file whatever is kept; results not used for 30 days go.
LINT_CACHE=$LAB_CACHE/lint

# file_keys <shared inputs>: "<key> <file>" for each file on stdin, the key
# a hash of the file's content and the inputs every file shares
file_keys()
{
	local shared=$1 f

	while read -r f; do
		printf '%s %s\n' "$({ echo "$shared"; cat "$f"; } | sha256sum | cut -c1-32)" "$f"
	done
}

# lint_dir <linter> <what it reads besides each file>: sets LINT_DIR, the
# directory of the linter's results for these options
lint_dir()
{
	LINT_DIR=$LINT_CACHE/$1-$(echo "$2" | sha256sum | cut -c1-16)
	mkdir -p "$LINT_DIR"
}

# lint_run <shared inputs> <command...>: the command on each file read
# from stdin (in the order reported) that has no result kept for its key
# (the file its last argument), as many at once as
# there are cores; each file's output and exit status kept by key, and
# $LINT_NEW/keys, "<key> <file>" in order, for lint_report
lint_run()
{
	local shared=$1

	shift
	LINT_NEW=$(mktemp -d)
	file_keys "$shared" >"$LINT_NEW/keys"
	while read -r k f; do
		if [ "${LAB_LINT_CACHE:-1}" = 1 ] && [ -f "$LINT_DIR/$k.rc" ]; then
			touch "$LINT_DIR/$k.rc"
		else
			printf '%s %s\n' "$k" "$f"
		fi
	done <"$LINT_NEW/keys" >"$LINT_NEW/todo"
	echo "# ${LINT_DIR##*/}: $(wc -l <"$LINT_NEW/todo") of $(wc -l <"$LINT_NEW/keys") files to lint," \
		"the others' results kept (${LINT_DIR#"$HOME"/}); LAB_LINT_CACHE=0 lints all"
	# each result written beside its place and moved there whole: a run
	# interrupted, or another clone's beside it, never leaves half of one
	# (xargs -L 1 appends each line's key and file to the command)
	xargs -r -a "$LINT_NEW/todo" -L 1 -P "$(nproc)" bash -c \
		'd=$1 k=${*: -2:1} f=${*: -1}; shift; set -- "${@:1:$#-2}"
		"$@" "$f" >"$d/$k.out.$$" 2>&1; echo $? >"$d/$k.rc.$$"
		mv -f "$d/$k.out.$$" "$d/$k.out"; mv -f "$d/$k.rc.$$" "$d/$k.rc"' _ "$LINT_DIR" "$@"
	find "$LINT_DIR" -name '*.rc' -mtime +30 | sed 's/\.rc$//' |
		while read -r k; do rm -f "$k.rc" "$k.out"; done
}

# lint_report <what>: a check per file, in the order listed
lint_report()
{
	local k f

	while read -r k f; do
		check "$1: $f" bash -c 'cat "$1.out"; exit "$(cat "$1.rc")"' _ "$LINT_DIR/$k"
	done <"$LINT_NEW/keys"
	rm -rf "$LINT_NEW"
	LINT_NEW=
}

# ShellCheck on every shell file (one by one they took 32 s of the unit
# tests' 50).
if command -v shellcheck >/dev/null; then
	lint_dir shellcheck "$(shellcheck --version; cat .shellcheckrc)"
	lint_run "$(sourced_files | xargs -r cat)" shellcheck -x < <(shell_files)
	lint_report shellcheck
else
	skip "shellcheck" "shellcheck not installed (make deps)"
fi

# checkpatch.pl and its data files, from the kernel tree the lab builds
# from ($LAB_KBUILD/linux), else straight from the tarball.
checkpatch()
{
	local dir=$LAB_BUILD/checkpatch tarball=/usr/src/linux-source-6.12.tar.xz

	if [ -f "$LAB_KBUILD/linux/scripts/checkpatch.pl" ]; then
		echo "$LAB_KBUILD/linux/scripts/checkpatch.pl"
		return
	fi
	if [ ! -f "$dir/scripts/checkpatch.pl" ] && [ -f "$tarball" ]; then
		mkdir -p "$dir"
		tar -xJf "$tarball" -C "$dir" --strip-components=1 --wildcards \
			'*/scripts/checkpatch.pl' '*/scripts/spelling.txt' \
			'*/scripts/const_structs.checkpatch' >>"$T_LOG" 2>&1
	fi
	[ -f "$dir/scripts/checkpatch.pl" ] && echo "$dir/scripts/checkpatch.pl"
}

# What the kernel's rules do not fit in user-space tools, and why:
#   SPLIT_STRING             usage texts are paragraphs wrapped at 80
#                            columns; the rule keeps kernel log messages
#                            greppable, and no tool message is split
#   VOLATILE                 volatile sig_atomic_t is what C11 prescribes
#                            for a flag set by a signal handler
#   EMBEDDED_FUNCTION_NAME   "usage" in the usage text is the word, not
#                            the function's name
#   PREFER_DEFINED_ATTRIBUTE_MACRO  user space has no __noreturn or
#                            __printf macros; the attributes are spelled out
#   STRCPY                   strscpy() is the kernel's, not libc's
IGNORE=SPLIT_STRING,VOLATILE,EMBEDDED_FUNCTION_NAME,PREFER_DEFINED_ATTRIBUTE_MACRO,STRCPY
# checkpatch on every C file of the tools (one by one 15 s).  It reads
# its own script and data files besides the tree.
cp=$(checkpatch)
if [ -n "$cp" ]; then
	lint_dir checkpatch "$IGNORE $(cat "$cp" "${cp%/*}/spelling.txt" "${cp%/*}/const_structs.checkpatch" 2>/dev/null | sha256sum)"
	# checkpatch exits 0 on warnings: any line it prints fails the file
	lint_run "" bash -c 'out=$(perl "$1" --no-tree -f -q --ignore "$2" "$3" 2>&1); rc=$?
		printf "%s\n" "$out"; [ "$rc" = 0 ] && [ -z "$out" ]' _ "$cp" "$IGNORE" \
		< <(printf '%s\n' lab/tools/*.c lab/tools/*.h)
	lint_report "checkpatch --no-tree -f"
else
	skip "checkpatch" "no kernel tree and no /usr/src/linux-source-6.12.tar.xz (make deps)"
fi

# Python (the analysis, lab/lib/py; its tests, tests/unit/py): every module
# compiles, and imports only the standard library and the lab's own
# modules (no numpy or pandas: Debian 12's python3 is all a machine has).
py_stdlib_only()
{
	python3 - lab/analyze lab/lib/py/*.py tests/unit/py/*.py <<'PY'
import ast, os, sys
own = {os.path.splitext(os.path.basename(f))[0] for f in sys.argv[1:]}
bad = []
for f in sys.argv[1:]:
    tree = ast.parse(open(f).read(), f)
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [node.module or ""]
        for n in names:
            top = n.split(".")[0]
            if top not in own and top not in sys.stdlib_module_names:
                bad.append(f"{f}: imports {n}")
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
}
check "Python: the analysis and its tests compile and use only the standard library" py_stdlib_only

# meta: its "column" lines are exactly point.awk's header, in order; its
# "parameter" lines name options the experiment's --help lists.
meta_columns()
{
	awk -F'\t' '/^column / { sub(/^column /, "", $1); print $1 }' "lab/exp/$1/meta" | paste -sd,
}
# every experiment is a directory of lab/exp/; those with a point.awk
# of their own have columns
EXPS=$(for d in lab/exp/*/; do basename "$d"; done)
for e in $EXPS; do
	[ -f "lab/exp/$e/point.awk" ] || continue
	check "lab/exp/$e/meta lists every points.csv column, in order" test \
		"$(meta_columns "$e")" = \
		"$(awk -v header=1 -f lab/lib/stats.awk -f lab/lib/snapshot.awk -f "lab/exp/$e/point.awk")"
done
for e in $EXPS; do
	prog=$(awk '/^entry / { print $2 }' "lab/exp/$e/meta")
	help=$("$prog" --help 2>&1)
	check "lab/exp/$e/meta: every parameter's option is in $prog --help" bash -c '
		awk -F"\t" "/^parameter / { print \$2 }" "lab/exp/'"$e"'/meta" | while read -r o; do
			grep -qE -- "(^| )$o[ ,]" <<<"$1" || { echo "no $o" >&2; exit 1; }
		done' _ "$help"
done

# The README is for users: short, every page of docs/ linked from it
# (the notebook lives there), and no link in either that leads nowhere.
check "README.md is at most 250 lines ($(wc -l <README.md))" test "$(wc -l <README.md)" -le 250
for d in docs/*.md; do
	check "README.md links $d" grep -qF "]($d)" README.md
done
dead_links()
{
	local f t

	for f in README.md docs/*.md; do
		grep -oE '\]\([^)#][^)]*\)' "$f" | sed 's/^](//; s/)$//; s/#.*//' | grep -v '^https\?:' |
			while read -r t; do
				[ -e "$(dirname "$f")/$t" ] || echo "$f: $t"
			done
	done
}
check "every relative link of README.md and docs/*.md leads to a file ($(dead_links | paste -sd' '))" \
	test -z "$(dead_links)"
