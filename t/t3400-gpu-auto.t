#!/bin/sh
# t3400-gpu-auto - --backend=auto on large work counts on the CPU while the
# GPU starts and on the GPU after: the totals are exactly the CPU backend's
# on several inputs at once (a file read by many readers, gzip, random
# bytes) and on a long pipe, where both backends surely count a part; -v
# says how the bytes were split, and the parts add up to the whole.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_gpu
plan 6

gen() { python3 "$T_SRCDIR/gen.py" "$@"; }
gen log 200000001 >"$TMP/log"
gen random 70000003 >"$TMP/random"
gzip -1 -c "$TMP/log" >"$TMP/log.gz"

# split ERRFILE: "CPU_BYTES GPU_BYTES" from -v's line about the auto backend.
split() {
	sed -n 's/.*; \([0-9]*\) bytes counted there while the GPU started ([0-9.]* s), \([0-9]*\) on the GPU: gpu backend.*/\1 \2/p' "$1"
}

"$GPUHIST" --backend=cpu -b -f tsv "$TMP/log" "$TMP/log.gz" "$TMP/random" \
	>"$TMP/want"
"$GPUHIST" -v -b -f tsv "$TMP/log" "$TMP/log.gz" "$TMP/random" \
	>"$TMP/got" 2>"$TMP/err"
is "three inputs at once: exit 0" $? 0
same_file "three inputs at once: the CPU backend's totals" "$TMP/got" "$TMP/want"
set -- $(split "$TMP/err")
diag "three inputs: ${1:-?} bytes on the CPU, ${2:-?} on the GPU"
is "three inputs: the parts add up to every byte" "$((${1:-0} + ${2:-0}))" \
	$((200000001 * 2 + 70000003))

# "abcdefgh\n" repeated, 3 GB through a pipe: seconds long, where the GPU
# starts in under one.
bytes=3000000001
lines=$((bytes / 9)); rest=$((bytes % 9))
: >"$TMP/want"
for c in 10 97 98 99 100 101 102 103 104; do
	n=$lines
	[ $c -ne 10 ] && [ $((c - 97)) -lt $rest ] && n=$((n + 1))
	printf '%s\t%d\t%d\n' - $c $n >>"$TMP/want"
done
yes abcdefgh | head -c $bytes | "$GPUHIST" -v -b -f tsv 2>"$TMP/err" |
	awk -F '\t' 'NR > 1 && $3 != 0' >"$TMP/got"
same_file "$bytes bytes through a pipe: exact per value" "$TMP/got" "$TMP/want"
set -- $(split "$TMP/err")
diag "the pipe: ${1:-?} bytes on the CPU, ${2:-?} on the GPU"
is "the pipe: the parts add up to every byte" "$((${1:-0} + ${2:-0}))" $bytes
ok $([ "${1:-0}" -gt 0 ] && [ "${2:-0}" -gt 0 ]; echo $?) \
	"the pipe: both the CPU and the GPU counted a part"
sed 's/^/# /' "$TMP/err"
