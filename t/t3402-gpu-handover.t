#!/bin/sh
# t3402-gpu-handover.t - --backend=gpu counts on the CPU while its GPU
# starts, then on the GPU: every decoder hands its chunks over mid-input,
# and the totals (bytes, -m, -s) are exactly the CPU backend's.  Streams
# pause after their first half, so the GPU is up before the second; big
# files of zeros decoded on four threads (gzip regions, BGZF members)
# take seconds, where a GPU starts in under one.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_gpu
need_cmd gzip
plan 12
unset GPUHIST_GPU_ONLY

# split ERRFILE: "CPU_BYTES GPU_BYTES" from -v's line on the backend.
split() {
	sed -n 's/.*; \([0-9]*\) bytes counted there, \([0-9]*\) on the GPU (.*/\1 \2/p' "$1"
}

# handed DESCRIPTION: the last run's -v says both counted a part.
handed() {
	set -- "$1" $(split "$TMP/err")
	diag "$1: ${2:-?} bytes on the CPU, ${3:-?} on the GPU"
	ok $([ "${2:-0}" -gt 0 ] && [ "${3:-0}" -gt 0 ]; echo $?) \
		"$1: the CPU and then the GPU counted a part"
}

gen log 40000003 >"$TMP/log"
python3 "$T_SRCDIR/gentext.py" mixed 5 20000000 >"$TMP/utf8"

# Each format through a pipe that pauses for 3 s halfway.
for tool in gzip zstd xz bzip2 lz4; do
	if ! command -v $tool >/dev/null; then
		skip "$tool: handed over mid-stream" "no $tool"
		continue
	fi
	$tool -c "$TMP/log" >"$TMP/log.z"
	half=$(($(wc -c <"$TMP/log.z") / 2))
	"$GPUHIST" --backend=cpu -b -f tsv <"$TMP/log" | sed 1d | cut -f2- >"$TMP/want"
	{ head -c $half "$TMP/log.z"; sleep 3; tail -c +$((half + 1)) "$TMP/log.z"; } |
		"$GPUHIST" --backend=gpu -v -b -f tsv 2>"$TMP/err" |
		sed 1d | cut -f2- >"$TMP/got"
	if cmp -s "$TMP/got" "$TMP/want" && [ "$(split "$TMP/err" | wc -w)" = 2 ]; then
		handed "$tool, paused halfway"
	else
		ok 1 "$tool, paused halfway: the CPU backend's totals"
		sed 's/^/# /' "$TMP/err" | head -5
	fi
done

# -m and -s across the hand-over: the joins of chunks counted by either.
gzip -c "$TMP/utf8" >"$TMP/utf8.gz"
half=$(($(wc -c <"$TMP/utf8.gz") / 2))
for view in -m -s; do
	"$GPUHIST" --backend=cpu $view -f json <"$TMP/utf8" >"$TMP/want"
	{ head -c $half "$TMP/utf8.gz"; sleep 3; tail -c +$((half + 1)) "$TMP/utf8.gz"; } |
		"$GPUHIST" --backend=gpu -v $view -f json 2>"$TMP/err" >"$TMP/got"
	same_file "$view, gzip paused halfway: the CPU backend's json" \
		"$TMP/got" "$TMP/want"
done
handed "-s, gzip paused halfway"

# Files decoded on four threads: gzip regions (pigz) and BGZF members.
for tool in pigz bgzip; do
	if ! command -v $tool >/dev/null; then
		skip "$tool: 6 GiB of zeros handed over" "no $tool"
		skip "$tool: handed over mid-file" "no $tool"
		continue
	fi
	head -c 6442450944 /dev/zero | $tool -c -@ 8 2>/dev/null >"$TMP/zeros.gz" ||
		head -c 6442450944 /dev/zero | $tool -c -p 8 >"$TMP/zeros.gz"
	"$GPUHIST" --backend=gpu --threads=4 -v -b -f tsv "$TMP/zeros.gz" \
		2>"$TMP/err" | awk -F '\t' 'NR > 1 && $3 != 0 { print $2, $3 }' >"$TMP/got"
	is "$tool: 6 GiB of zeros decoded on 4 threads, every byte counted" \
		"$(cat "$TMP/got")" "0 6442450944"
	handed "$tool, 6 GiB of zeros on 4 threads"
	rm -f "$TMP/zeros.gz"
done
