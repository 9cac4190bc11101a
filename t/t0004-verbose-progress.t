#!/bin/sh
# t0004-verbose-progress.t - -v and the progress meter, both on stderr only
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_cmd python3

plan 12

gendata 4 300000 >"$TMP/text"
gzip -c "$TMP/text" >"$TMP/text.gz"
"$GPUHIST" -f tsv "$TMP/text" >"$TMP/plain" 2>/dev/null
"$GPUHIST" -f tsv "$TMP/text.gz" >"$TMP/plain-gz" 2>/dev/null

run_gh -v -f tsv "$TMP/text"
is "-v: exit 0, stdout unchanged" \
	"$rc:$(cmp -s "$TMP/out" "$TMP/plain" && echo same)" "0:same"
like "-v names the backend and how it runs" "$err" \
	'^gpuhist: (cpu backend, [0-9]+ threads?, chunk [0-9]+ bytes|.*gpu)'
like "-v reports bytes, seconds and throughput" "$err" \
	'^gpuhist: 300000 bytes in [0-9]+\.[0-9]+ s, [0-9]+\.[0-9]+ GB/s'
run_gh -v --threads=3 --chunk-size=64k --backend=cpu "$TMP/text"
like "-v shows --threads and --chunk-size" "$err" \
	'^gpuhist: cpu backend, 3 threads, chunk 65536 bytes'
run_gh -v -f tsv "$TMP/text.gz"
like "-v counts decoded gzip bytes" "$err" '^gpuhist: 300000 bytes in'

# stderr is a file here, not a terminal: no meter unless asked for.
run_gh -f tsv "$TMP/text"
is "no meter by default when stderr is not a terminal" "$err" ""
run_gh --progress -f tsv "$TMP/text.gz"
is "--progress: exit 0, stdout unchanged" \
	"$rc:$(cmp -s "$TMP/out" "$TMP/plain-gz" && echo same)" "0:same"
like "--progress draws a meter on stderr (bytes and rate)" \
	"$(tr '\r' '\n' <"$TMP/err")" \
	"^gpuhist: .*text\\.gz: [0-9]+\\.[0-9] MB, [0-9]+\\.[0-9]+ GB/s"
like "--progress shows percent and time left for a file" \
	"$(tr '\r' '\n' <"$TMP/err")" ', [0-9]+%, [0-9]+:[0-9][0-9] left'
like "--progress clears its line at the end" "$(od -An -c "$TMP/err" | tr -d ' \n')" \
	'\\r033\[K$'
# Chunks larger than the file: the reader that draws may get none of it.
run_gh --progress --threads=4 --chunk-size=4M -f tsv "$TMP/text"
like "--progress with several readers of a plain file draws a meter" \
	"$(tr '\r' '\n' <"$TMP/err")" "^gpuhist: .*text: [0-9]+\\.[0-9] MB, [0-9.]+ GB/s"
run_gh --progress --no-progress -f tsv "$TMP/text"
is "--no-progress (last one wins): nothing on stderr" "$err" ""
