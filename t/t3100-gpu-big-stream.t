#!/bin/sh
# t3100-gpu-big-stream - more than 5 GiB through a pipe into the GPU backend,
# counted exactly: every total is past 2^32, where 32-bit counters wrap.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_gpu
plan 2

bytes=5600000001
yes_totals $bytes >"$TMP/want"

yes abcdefgh | head -c $bytes |
	"$GPUHIST" --backend=gpu -v -b -f tsv 2>"$TMP/err" |
	awk -F '\t' 'NR > 1 && $3 != 0' >"$TMP/got"
same_file "$bytes bytes through stdin, exact per value" "$TMP/got" "$TMP/want"
grep -q 'gpu backend' "$TMP/err"
ok $? "it ran on the GPU backend"
sed 's/^/# /' "$TMP/err"
