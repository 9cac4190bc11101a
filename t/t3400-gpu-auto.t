#!/bin/sh
# t3400-gpu-auto - --backend=auto, the default: on large files the CPU
# counts while a GPU starts and the GPU after; on a stream the GPU is
# started only if the CPU falls behind.  The totals are always exactly the
# CPU backend's, and -v's split of the bytes adds up to the whole.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_gpu
plan 10

gen log 50000001 >"$TMP/log"
gen random 7000003 >"$TMP/random"
gzip -1 -c "$TMP/log" >"$TMP/log.gz"

# split ERRFILE: "CPU_BYTES GPU_BYTES" from -v's line on the auto backend.
split() {
	sed -n 's/.*; \([0-9]*\) bytes counted there, \([0-9]*\) on the GPU (.*/\1 \2/p' "$1"
}

# 6 GiB of zeros (sparse) with --threads=1: seconds of counting for one CPU
# thread, where a GPU starts in under half a second, so both count a part.
truncate -s 6G "$TMP/zeros"
"$GPUHIST" -v --threads=1 -b -f tsv "$TMP/zeros" >"$TMP/got" 2>"$TMP/err"
is "6 GiB file, one thread: exit 0" $? 0
is "6 GiB file, one thread: every byte counted, as zeros" \
	"$(awk -F '\t' 'NR > 1 && $3 != 0 { print $2, $3 }' "$TMP/got")" \
	"0 6442450944"
set -- $(split "$TMP/err")
diag "6 GiB file: ${1:-?} bytes on the CPU, ${2:-?} on the GPU"
is "6 GiB file: the parts add up to every byte" "$((${1:-0} + ${2:-0}))" \
	6442450944
ok $([ "${1:-0}" -gt 0 ] && [ "${2:-0}" -gt 0 ]; echo $?) \
	"6 GiB file: both the CPU and the GPU counted a part"
rm -f "$TMP/zeros"

# Several inputs at once, files past 512 MiB a thread (a sparse tail) with
# gzip and random bytes: the CPU backend's totals.
cp "$TMP/log" "$TMP/big"
truncate -s 1500M "$TMP/big"
"$GPUHIST" --backend=cpu -b -f tsv "$TMP/big" "$TMP/log.gz" "$TMP/random" \
	>"$TMP/want"
"$GPUHIST" -v --threads=2 -b -f tsv "$TMP/big" "$TMP/log.gz" "$TMP/random" \
	>"$TMP/got" 2>"$TMP/err"
is "three inputs at once: exit 0" $? 0
same_file "three inputs at once: the CPU backend's totals" "$TMP/got" "$TMP/want"
set -- $(split "$TMP/err")
diag "three inputs: ${1:-?} bytes on the CPU, ${2:-?} on the GPU"
is "three inputs: the parts add up to every byte" "$((${1:-0} + ${2:-0}))" \
	$((1500 * 1048576 + 50000001 + 7000003))
rm -f "$TMP/big"

# A fast pipe into one thread: exact, whoever counted it.
bytes=3000000001
yes_totals $bytes >"$TMP/want"
yes abcdefgh | head -c $bytes |
	"$GPUHIST" --threads=1 -v -b -f tsv 2>"$TMP/err" |
	awk -F '\t' 'NR > 1 && $3 != 0' >"$TMP/got"
same_file "$bytes bytes through a pipe, one thread: exact per value" \
	"$TMP/got" "$TMP/want"
set -- $(split "$TMP/err")
diag "the fast pipe: ${1:-all} bytes on the CPU, ${2:-none} on the GPU"
sed 's/^/# /' "$TMP/err"

# A slow pipe (the generator writes 25 MB/s): the CPU keeps up.
gen log 20000000 | "$GPUHIST" -v -b -f tsv >"$TMP/got" 2>"$TMP/err"
is "a slow pipe: exit 0" $? 0
grep -q 'the CPU kept up, so no GPU was started' "$TMP/err"
ok $? "a slow pipe: no GPU started"
sed 's/^/# /' "$TMP/err"
