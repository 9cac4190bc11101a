#!/bin/sh
# t3100-gpu-big-stream - more than 5 GiB through a pipe into the GPU backend,
# counted exactly: every total is past 2^32, where 32-bit counters wrap.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_gpu
plan 2

# "abcdefgh\n" repeated: 9 bytes a line, so each value's count is known.
bytes=5600000001
lines=$((bytes / 9)); rest=$((bytes % 9))
: >"$TMP/want"
for c in 10 97 98 99 100 101 102 103 104; do
	# the partial last line holds the first `rest` letters, never the \n
	n=$lines
	[ $c -ne 10 ] && [ $((c - 97)) -lt $rest ] && n=$((n + 1))
	printf '%s\t%d\t%d\n' - $c $n >>"$TMP/want"
done

yes abcdefgh | head -c $bytes |
	"$GPUHIST" --backend=gpu -v -b -f tsv 2>"$TMP/err" |
	awk -F '\t' 'NR > 1 && $3 != 0' >"$TMP/got"
same_file "$bytes bytes through stdin, exact per value" "$TMP/got" "$TMP/want"
grep -q 'gpu backend' "$TMP/err"
ok $? "it ran on the GPU backend"
sed 's/^/# /' "$TMP/err"
