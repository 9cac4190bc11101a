#!/bin/sh
# t2002-input-errors.t - bad inputs: named once, skipped, the rest counted
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_cmd python3
need_cmd gzip

plan 27

gendata 61 300000 >"$TMP/good1"
gendata 62 40000 >"$TMP/good2"
cd "$TMP" || exit 1
gzip -9c good1 >good.gz
size=$(wc -c <good.gz | tr -d ' ')

# flip_in FILE OFFSET COUNT: inverts COUNT bytes of FILE from OFFSET on.
flip_in() {
	python3 -c 'import sys
f, off, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
d = bytearray(open(f, "rb").read())
for i in range(off, off + n):
    d[i] ^= 0xff
open(f, "wb").write(d)' "$@"
}

cp good.gz corrupt.gz && flip_in corrupt.gz $((size / 2)) 16
head -c $((size / 2)) good.gz >truncated.gz
cp good.gz badcrc.gz && flip_in badcrc.gz $((size - 8)) 1
cp good.gz badlen.gz && flip_in badlen.gz $((size - 3)) 1
{ cat good.gz; echo 'trailing garbage'; } >garbage.gz
printf '\037\213' >magic-only.gz
cat good.gz truncated.gz >second-truncated.gz
cat good.gz corrupt.gz >second-corrupt.gz
: >unreadable && chmod 000 unreadable

# bad_input NAME REASON_ERE: NAME between two good files fails alone.
bad_input() {
	run_gh -c -f tsv good1 "$1" good2
	if [ "$rc" -eq 1 ] && [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] &&
	   printf '%s\n' "$err" | grep -Eq "^gpuhist: $1: $2"; then
		ok 0 "$1: exit 1, one message naming it"
	else
		ok 1 "$1: exit 1, one message naming it"
		diag "exit $rc, stderr: $err"
	fi
	oracle -c good1 "$1" good2 >want 2>/dev/null
	orc=$?
	is "$1: the good files are reported, the total excludes it" \
		"$orc:$(cmp -s "$TMP/out" want && echo same)" "1:same"
}

bad_input corrupt.gz '.*corrupt'
bad_input truncated.gz 'unexpected end of file'
bad_input badcrc.gz '.*(check|CRC)'
bad_input badlen.gz '.*(check|length)'
bad_input garbage.gz 'trailing garbage'
bad_input magic-only.gz 'unexpected end of file'
bad_input second-truncated.gz 'unexpected end of file'
bad_input second-corrupt.gz '.*corrupt'
bad_input missing 'No such file or directory$'
if [ "$(id -u)" -eq 0 ]; then
	skip "unreadable: exit 1, one message naming it" \
		"running as root, who can read a mode 000 file"
	skip "unreadable: the good files are reported" \
		"running as root, who can read a mode 000 file"
else
	bad_input unreadable 'Permission denied$'
fi

# All of them at once, in every format.
set -- good1 corrupt.gz missing truncated.gz good.gz badcrc.gz \
	garbage.gz badlen.gz good2
run_gh -f tsv "$@"
is "all at once: exit 1" "$rc" 1
is "all at once: each bad input named once, in order" \
	"$(printf '%s\n' "$err" | cut -d: -f2 | tr '\n' ' ')" \
	" corrupt.gz  missing  truncated.gz  badcrc.gz  garbage.gz  badlen.gz "
oracle "$@" >want 2>/dev/null
same_file "all at once: tsv as the oracle says (bad ones left out)" \
	"$TMP/out" want
"$GPUHIST" -b -f json "$@" >got 2>/dev/null
oracle_ok "all at once: json inputs and total as the oracle says" \
	-b --check-json got "$@"
"$GPUHIST" -w 2 "$@" >got 2>/dev/null
oracle_ok "all at once: table blocks and total as the oracle says" \
	-w 2 --check-table got "$@"

# A bad gzip stream on stdin: named "-", nothing reported for it.
run_gh -f tsv <corrupt.gz
is "corrupt gzip on stdin: exit 1, named -, no rows" \
	"$rc:$(printf '%s\n' "$err" | cut -d: -f1-2):$(cat "$TMP/out")" \
	"1:gpuhist: -:input	bin	count"
run_gh -f tsv - good2 <truncated.gz
oracle - good2 <truncated.gz >want 2>/dev/null
is "truncated gzip on stdin, then a good file: the good one counted" \
	"$rc:$(cmp -s "$TMP/out" want && echo same)" "1:same"
