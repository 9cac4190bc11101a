#!/bin/sh
# t3000-gpu-equals-cpu - the GPU backend's 256 totals equal the CPU backend's
# on real and generated data, at chunk-boundary lengths, through pipes and
# gzip, with one stream and with several.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_gpu
plan 28

# same_totals DESCRIPTION [OPTIONS] FILE...: both backends, byte view, json
# histogram, exit status; extra options go to both runs.
same_totals() {
	desc=$1; shift
	"$GPUHIST" --backend=gpu -b -f tsv "$@" >"$TMP/gpu.out" 2>"$TMP/gpu.err"
	gpu_status=$?
	"$GPUHIST" --backend=cpu -b -f tsv "$@" >"$TMP/cpu.out" 2>/dev/null
	cpu_status=$?
	if [ $gpu_status -eq $cpu_status ] && [ -s "$TMP/cpu.out" ] &&
	   cmp -s "$TMP/gpu.out" "$TMP/cpu.out"; then
		ok 0 "$desc"
	else
		ok 1 "$desc"
		echo "# gpu status $gpu_status, cpu status $cpu_status"
		sed 's/^/# /' "$TMP/gpu.err" | head -5
		diff "$TMP/cpu.out" "$TMP/gpu.out" | head -10 | sed 's/^/# /'
	fi
}


gen random 10000000 >"$TMP/random"
gen repeat 20000000 97 >"$TMP/repeat-a"
gen repeat 20000000 0 >"$TMP/zeros"
gen log 30000000 >"$TMP/log"
for n in 0 1 15 16 17; do gen random $n >"$TMP/len$n"; done
M16=16777216
for n in $((M16 - 1)) $M16 $((M16 + 1)); do gen log $n >"$TMP/len$n"; done
for n in 65535 65536 65537; do gen random $n >"$TMP/len$n"; done
gzip -c "$TMP/log" >"$TMP/a.gz"
gzip -c "$TMP/random" >"$TMP/b.gz"
cat "$TMP/a.gz" "$TMP/b.gz" >"$TMP/multi.gz"

same_totals "the test scripts and sources" "$T_SRCDIR"/*.t "$T_SRCDIR"/*.c
same_totals "random bytes" "$TMP/random"
same_totals "one repeated byte (a)" "$TMP/repeat-a"
same_totals "one repeated byte (0x00)" "$TMP/zeros"
same_totals "log text" "$TMP/log"
for n in 0 1 15 16 17; do
	same_totals "length $n" "$TMP/len$n"
done
for n in $((M16 - 1)) $M16 $((M16 + 1)); do
	same_totals "length $n: default chunk size -1, =, +1" "$TMP/len$n"
done
for n in 65535 65536 65537; do
	same_totals "length $n with --chunk-size=64k" --chunk-size=64k "$TMP/len$n"
done
same_totals "many small chunks (1000 bytes, unaligned lengths)" \
	--chunk-size=1000 "$TMP/log"
same_totals "chunks of 4097 bytes over random data" --chunk-size=4097 "$TMP/random"
same_totals "multi-member gzip" "$TMP/multi.gz"
same_totals "gzip with small chunks" --chunk-size=100k "$TMP/a.gz" "$TMP/b.gz"
# A gzip file decoded by several threads (gzip_parallel.c) straight into
# the GPU's chunks: small regions, so that many threads submit at once.
export GPUHIST_GZIP_REGION=65536
same_totals "gzip decoded in parallel, 8 threads" \
	--threads=8 "$TMP/a.gz" "$TMP/multi.gz"
"$GPUHIST" --backend=gpu -v -b --threads=8 "$TMP/a.gz" 2>"$TMP/par.err" >/dev/null
export GPUHIST_GZIP_REGION=4096
same_totals "gzip in parallel, small chunks, 4 threads" \
	--threads=4 --chunk-size=64k "$TMP/a.gz"
unset GPUHIST_GZIP_REGION
like "the GPU run above was decoded in parallel" "$(cat "$TMP/par.err")" \
	"gzip decoded by 8 threads"
same_totals "one stream" --streams=1 "$TMP/log"
same_totals "eight streams, small chunks" --streams=8 --chunk-size=256k "$TMP/log"
same_totals "several inputs with a total" "$TMP/log" "$TMP/random" "$TMP/len17"

"$GPUHIST" --backend=gpu -b -f tsv <"$TMP/log" >"$TMP/stdin.out"
"$GPUHIST" --backend=cpu -b -f tsv "$TMP/log" | sed '2,$ s|^[^	]*	|-	|' >"$TMP/file.out"
same_file "stdin redirected from a file" "$TMP/stdin.out" "$TMP/file.out"
cat "$TMP/multi.gz" | "$GPUHIST" --backend=gpu -b -f tsv >"$TMP/pipe.out"
gzip -dc "$TMP/multi.gz" | "$GPUHIST" --backend=cpu -b -f tsv >"$TMP/pipe-cpu.out"
same_file "gzip through a pipe" "$TMP/pipe.out" "$TMP/pipe-cpu.out"
