#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The field's linters on the lab's own code, each clean:
#   ShellCheck, with .shellcheckrc, on every shell script and sourced file
#   scripts/checkpatch.pl --no-tree -f on lab/tools/*.[ch], with the
#   exceptions below, each with its reason
# and the experiments' meta files list exactly their options and columns;
# and no build output is committed.
set -u
# shellcheck source=lab/lib/lib.sh
. "$(dirname "$0")/../../lab/lib/lib.sh"
# shellcheck source=tests/lib.sh
. "$LAB_TOP/tests/lib.sh"

cd "$LAB_TOP" || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

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

# Build outputs are never committed (.gitignore: build/ at any depth).
elf_files()
{
	git ls-files -z | xargs -0 -r file -N -F '|' | grep '| ELF ' | cut -d'|' -f1
}
check "git ls-files lists no ELF file (build outputs stay under ignored build/)" \
	test -z "$(elf_files)"

# One ShellCheck per file, as many at once as there are cores (one by
# one they took 32 s of the unit tests' 50), reported in file order.
if command -v shellcheck >/dev/null; then
	sc=$tmp/shellcheck
	mkdir "$sc"
	shell_files >"$sc/files"
	xargs -r -a "$sc/files" -P "$(nproc)" -I{} bash -c \
		'n=${1//\//%}; shellcheck -x "$1" >"$2/$n.out" 2>&1; echo $? >"$2/$n.rc"' _ {} "$sc"
	while read -r f; do
		check "shellcheck: $f" bash -c 'cat "$1.out"; exit "$(cat "$1.rc")"' _ "$sc/${f//\//%}"
	done <"$sc/files"
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
# One checkpatch per file, as many at once as there are cores (one by
# one they took 15 s), reported in file order.
cp=$(checkpatch)
if [ -n "$cp" ]; then
	cpd=$tmp/checkpatch
	mkdir "$cpd"
	printf '%s\n' lab/tools/*.c lab/tools/*.h >"$cpd/files"
	xargs -r -a "$cpd/files" -P "$(nproc)" -I{} bash -c \
		'perl "$1" --no-tree -f -q --ignore "$2" "$3" >"$4/${3//\//%}.out" 2>&1' _ "$cp" "$IGNORE" {} "$cpd"
	while read -r f; do
		check "checkpatch --no-tree -f: $f" bash -c 'tee -a "$T_LOG" <"$1.out" | grep -q . && exit 1 || exit 0' _ "$cpd/${f//\//%}"
	done <"$cpd/files"
else
	skip "checkpatch" "no kernel tree and no /usr/src/linux-source-6.12.tar.xz (make deps)"
fi

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
