#!/bin/sh
# t0005-closed-std-fds.t - a closed stdin, stdout or stderr stays closed:
# no file opened later takes its number
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

plan 7

# A few MB, so that several readers and the "-" worker overlap.
head -c 4000000 /dev/zero >"$TMP/zeros"

# zeros_control: the rows for zeros, as the only input, in -c -f tsv.
"$GPUHIST" -c -f tsv "$TMP/zeros" >"$TMP/alone" 2>/dev/null

run_gh -c -f tsv "$TMP/zeros" - 0<&-
is "closed stdin: FILE - fails, exit 1, - named with EBADF" "$rc:$err" \
	"1:gpuhist: -: Bad file descriptor"
grep "^$TMP/zeros	" "$TMP/out" >"$TMP/got"
grep "^$TMP/zeros	" "$TMP/alone" >"$TMP/want"
same_file "closed stdin: FILE is counted whole" "$TMP/got" "$TMP/want"
is "closed stdin: - gets no rows" "$(grep -c '^-	' "$TMP/out")" 0

run_gh --threads=1 -b "$TMP/zeros" - 0<&-
is "closed stdin, one thread: exit 1, - named with EBADF" "$rc:$err" \
	"1:gpuhist: -: Bad file descriptor"

run_gh --raw 0<&-
is "closed stdin, no operand, --raw: exit 1, - named with EBADF" \
	"$rc:$err" "1:gpuhist: -: Bad file descriptor"

"$GPUHIST" -f tsv "$TMP/zeros" >&- 2>"$TMP/err"
is "closed stdout: exit 1 and a write error" "$?:$(cat "$TMP/err")" \
	"1:gpuhist: write error: Bad file descriptor"

"$GPUHIST" -c -f tsv "$TMP/zeros" "$TMP/missing" >"$TMP/out" 2>&-
rc=$?
grep "^$TMP/zeros	" "$TMP/out" >"$TMP/got"
grep "^$TMP/zeros	" "$TMP/alone" >"$TMP/want"
is "closed stderr: exit 1, FILE still counted whole" \
	"$rc:$(cmp -s "$TMP/got" "$TMP/want" && echo same)" "1:same"
