#!/bin/sh
# t1001-textbook.t - the textbook example, in the default view
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_cmd python3

plan 7

printf 'programming massively parallel processors' >"$TMP/pmpp"
want_rows='a-d	5
e-h	5
i-l	6
m-p	10
q-t	10
u-x	1
y-z	1'

run_gh -f tsv "$TMP/pmpp"
is "textbook example: exit 0" "$rc" 0
is "textbook example: a-d 5, e-h 5, i-l 6, m-p 10, q-t 10, u-x 1, y-z 1" \
	"$(sed -n '2,$s/^[^	]*	//p' "$TMP/out")" "$want_rows"
oracle "$TMP/pmpp" >"$TMP/want"
same_file "textbook example: tsv as the oracle says" "$TMP/out" "$TMP/want"

"$GPUHIST" <"$TMP/pmpp" >"$TMP/table"
is "table from stdin: no name header, the seven bins" \
	"$(sed -n '1,8p' "$TMP/table" | awk '{ print $1, $2 }')" \
	"bin count
a-d 5
e-h 5
i-l 6
m-p 10
q-t 10
u-x 1
y-z 1"
is "table footer: 41 bytes read, 38 counted (the spaces are not letters)" \
	"$(sed -n '9,10p' "$TMP/table")" "bytes read     41
bytes counted  38"
oracle_ok "table: shares, bars and entropy as the oracle says" \
	--check-table "$TMP/table" - <"$TMP/pmpp"
echo 'PROGRAMMING Massively Parallel Processors' | "$GPUHIST" -i -f tsv |
	sed -n '2,$s/^[^	]*	//p' >"$TMP/ci"
is "-i counts the upper-case version the same" "$(cat "$TMP/ci")" \
	"$want_rows"
