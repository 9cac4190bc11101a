#!/bin/sh
# t0004-verbose-progress.t - -v and the progress meter, both on stderr only
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_cmd python3

plan 19

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
# Not a terminal: plain lines, as pv -n writes them, never redrawn.
like "--progress draws a meter on stderr (bytes and rate)" "$err" \
	"^gpuhist: .*text\\.gz: [0-9]+\\.[0-9] MB, [0-9.]+ [GM]B/s"
like "--progress shows percent and time left for a file" "$err" \
	', [0-9]+%, [0-9]+:[0-9][0-9] left$'
is "--progress to a file: no carriage return, no escape sequence" \
	"$(tr -d '\r\033' <"$TMP/err" | cmp -s - "$TMP/err" && echo none)" none
is "--progress to a file: it ends with a newline" \
	"$(tail -c 1 "$TMP/err" | od -An -c | tr -d ' ')" '\n'
# Chunks larger than the file: the reader that draws may get none of it.
run_gh --progress --threads=4 --chunk-size=4M -f tsv "$TMP/text"
like "--progress with several readers of a plain file draws a meter" \
	"$err" "^gpuhist: .*text: [0-9]+\\.[0-9] MB, [0-9.]+ [GM]B/s"
# Two inputs: each shown with its own bytes, the run's as a labelled total.
gendata 5 3000000 >"$TMP/first"
gendata 6 5000000 >"$TMP/second"
run_gh --progress --threads=1 "$TMP/first" "$TMP/second"
like "--progress, two inputs: the first ends at its own 3.0 MB" "$err" \
	'^gpuhist: .*/first: 3\.0 MB, 100%'
like "--progress, two inputs: the second at its 5.0 MB, total 8.0 MB" "$err" \
	'^gpuhist: .*/second: 5\.0 MB, 100%, [0-9]+:[0-9][0-9] left; total 8\.0 MB, [0-9.]+ [GM]B/s$'
is "--progress, two inputs: the second never shows more than its bytes" \
	"$(grep '/second: ' "$TMP/err" | awk '$3 + 0 > 5.0')" ""
# A control character in a name cannot reach the terminal or end a line.
cp "$TMP/first" "$TMP/esc$(printf '\033')name"
run_gh --progress "$TMP/esc$(printf '\033')name"
like "--progress shows a control character in a name as ?" "$err" \
	'^gpuhist: .*/esc\?name: 3\.0 MB'
run_gh --progress --no-progress -f tsv "$TMP/text"
is "--no-progress (last one wins): nothing on stderr" "$err" ""
# The time left needs the input's pace: the first line of an input the
# meter meets partly read has none (it said "0:00 left" with seconds to go).
if command -v bzip2 >/dev/null &&
   ! "$GPUHIST" --version -v | grep -q 'bzip2 (not built in)'; then
	gen log 40000000 | bzip2 -1 >"$TMP/slow.bz2"
	run_gh --progress --threads=1 -b "$TMP/slow.bz2"
	first=$(printf '%s\n' "$err" | grep ' MB' | grep -v ', 100%' | head -1)
	if [ -n "$first" ]; then
		like "the first line before the end shows no time left yet" \
			"$first" '^gpuhist: .*slow\.bz2: [0-9.]+ MB, [0-9.]+ [GM]B/s, [0-9]+%$'
	else
		skip "the first line shows no time left yet" \
			"bzip2 decoded 40 MB before the first line"
	fi
else
	skip "the first line shows no time left yet" "no bzip2, or built without it"
fi
# -v says how each compressed input was decoded, naming it; a plain one
# gets no such line.
cp "$TMP/text.gz" "$TMP/again.gz"
run_gh -v -b "$TMP/text.gz" "$TMP/text" "$TMP/again.gz"
is "-v: one decoding line for each compressed input, named" \
	"$(printf '%s\n' "$err" | grep 'decoded with' | sed 's|^gpuhist: .*/||')" \
	"text.gz: gzip decoded with $(printf '%s\n' "$err" |
		sed -n 's|^gpuhist: .*/text\.gz: gzip decoded with ||p')
again.gz: gzip decoded with $(printf '%s\n' "$err" |
		sed -n 's|^gpuhist: .*/text\.gz: gzip decoded with ||p')"
