#!/bin/sh
# t0007-sizes-threads.t - --chunk-size's suffixes as coreutils reads them,
# --threads=0 as all cores
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

plan 15

printf 'hello world\n' >"$TMP/small"

# chunk SIZE BYTES: --chunk-size=SIZE is a chunk of BYTES (the CPU backend
# says so under -v).  One thread: a ring of three chunks, however large.
chunk() {
	run_gh -v --backend=cpu --threads=1 --chunk-size="$1" "$TMP/small"
	like "--chunk-size=$1 is $2 bytes" "$rc:$err" \
		"^(0:)?gpuhist: cpu backend, [0-9]+ threads?, chunk $2 bytes"
}

chunk 4096 4096
chunk 4k 4096
chunk 4K 4096
chunk 4KiB 4096
chunk 4kB 4000
chunk 4KB 4000
chunk 3M 3145728
chunk 3MiB 3145728
chunk 3MB 3000000
chunk 3m 3145728
chunk 1G 1073741824
chunk 1GB 1000000000

# threads_of ARGS...: the threads the CPU backend counts with.
threads_of() {
	"$GPUHIST" -v --backend=cpu "$@" "$TMP/small" 2>&1 >/dev/null |
		sed -n 's/^gpuhist: cpu backend, \([0-9]*\) threads\{0,1\},.*/\1/p'
}

all=$(threads_of)
is "--threads=0: as many threads as the default (all cores)" \
	"$(threads_of --threads=0)" "$all"
is "--threads=3 then --threads=0: the last one wins" \
	"$(threads_of --threads=3 --threads=0)" "$all"
run_gh --threads=0 -f tsv "$TMP/small"
"$GPUHIST" -f tsv "$TMP/small" >"$TMP/want"
is "--threads=0: exit 0, the same counts" \
	"$rc:$(cmp -s "$TMP/out" "$TMP/want" && echo same)" "0:same"
