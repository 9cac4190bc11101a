#!/bin/sh
# t3300-gpu-devices - --devices spreads chunks over several devices (or twice
# over one: --devices=0,0) and sums their totals exactly: the same totals
# as one device and as the CPU, on a file read by many readers, on gzip,
# a pipe and several inputs at once.  With two devices, also 0,1, all, and
# --device=1 alone, and the tokens of two devices' tables (words, lines,
# a field) against the CPU's.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_gpu
n_gpus=$("$GPUHIST" --version -v 2>/dev/null | grep -c '^device [0-9]')
plan 16

gen log 50000001 >"$TMP/log"
gen random 7000003 >"$TMP/random"
gzip -c "$TMP/log" >"$TMP/log.gz"

# agree DESCRIPTION GPU_OPTIONS...: the GPU backend with those options gives
# the CPU backend's byte totals on every input shape, and exit status 0.
"$GPUHIST" --backend=cpu -b -f tsv "$TMP/log" "$TMP/log.gz" "$TMP/random" \
	>"$TMP/want" 2>/dev/null
python3 "$T_SRCDIR/gen.py" log 30000000 >"$TMP/piped"
"$GPUHIST" --backend=cpu -b -f tsv <"$TMP/piped" >"$TMP/want.pipe"
agree() {
	desc=$1; shift
	"$GPUHIST" --backend=gpu -v -b -f tsv --chunk-size=1M "$@" \
		"$TMP/log" "$TMP/log.gz" "$TMP/random" >"$TMP/got" 2>"$TMP/err"
	st=$?
	"$GPUHIST" --backend=gpu -b -f tsv --chunk-size=256k "$@" \
		<"$TMP/piped" >"$TMP/got.pipe" 2>>"$TMP/err"
	st=$((st + $?))
	if [ $st -eq 0 ] && cmp -s "$TMP/got" "$TMP/want" &&
	   cmp -s "$TMP/got.pipe" "$TMP/want.pipe"; then
		ok 0 "$desc"
	else
		ok 1 "$desc"
		sed 's/^/# /' "$TMP/err" | head -5
		diff "$TMP/want" "$TMP/got" | head -6 | sed 's/^/# /'
	fi
}

agree "--device=0: the CPU's totals"
agree "--devices=0,0: one device twice, the CPU's totals" --devices=0,0
like "--devices=0,0: -v names device 0 twice" "$(cat "$TMP/err")" \
	'gpu backend, devices 0 \(.*\), 0 \(.*\), 2 streams each'
agree "--devices=0,0,0 with 4 streams each" --devices=0,0,0 --streams=4
agree "--devices=all" --devices=all
agree "--devices=0,0 with 1 thread" --devices=0,0 --threads=1

run_gh --backend=gpu --devices=0,99 "$TMP/random"
is "--devices=0,99: exit status 1" "$rc" 1
like "--devices=0,99: says there is no device 99" "$err" \
	'^gpuhist: GPU backend unusable: no CUDA device 99 \([0-9]+ found\)'
is "--devices=0,99: no report" "$(wc -c <"$TMP/out")" 0

if [ "$n_gpus" -ge 2 ]; then
	agree "--devices=0,1 (two devices)" --devices=0,1
	like "--devices=0,1: -v names both" "$(cat "$TMP/err")" \
		'gpu backend, devices 0 \(.*\), 1 \(.*\)'
	agree "--device=1 alone (reader threads use device 1 too)" --device=1
	agree "--devices=1,0,1" --devices=1,0,1
	# Each device keeps a table of the tokens its chunks hold, and the
	# tables are merged at the end (the GPU alone: no CPU share).
	for view in -t --lines --field=1; do
		"$GPUHIST" --backend=cpu $view -f tsv "$TMP/log" \
			>"$TMP/want.tok" 2>/dev/null
		GPUHIST_GPU_ONLY=1 "$GPUHIST" --backend=gpu --devices=0,1 \
			$view -f tsv "$TMP/log" >"$TMP/got.tok" 2>"$TMP/err"
		st=$?
		ok "$([ $st -eq 0 ] && [ -s "$TMP/want.tok" ] &&
		      cmp -s "$TMP/got.tok" "$TMP/want.tok"; echo $?)" \
			"--devices=0,1 $view -f tsv: the CPU's tokens"
		[ $st -eq 0 ] || sed 's/^/# /' "$TMP/err" | head -5
	done
else
	for d in "--devices=0,1" "--devices=0,1 in -v" "--device=1" \
		 "--devices=1,0,1" "--devices=0,1 -t" "--devices=0,1 --lines" \
		 "--devices=0,1 --field=1"; do
		skip "$d" "one CUDA device here"
	done
fi
