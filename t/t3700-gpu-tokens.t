#!/bin/bash
# t3700-gpu-tokens.t - the tokens views counted on the GPU (kernels/
# tokens.cu): the same counts as Python's (t/tokenoracle.py) and as the
# CPU backend's, byte for byte, on a log in every view, chunks of 100
# bytes to 4 MiB (tokens across many chunks), a pipe, gzip, real man
# pages, CRLF, NUL bytes, lines longer than a chunk, all-distinct lines
# spilled past --memory, two devices' tables, and auto's CPU and GPU
# counting parts of one file; --values, whose field the GPU cuts
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_gpu
need_cmd python3
need_cmd gzip

cd "$TMP" || exit 1

plan 51

# check_gpu DESC VIEW PLAIN ARGS...: check_tokens on the GPU.
check_gpu() {
	d=$1 v=$2 p=$3
	shift 3
	check_tokens "$d" "$v" "$p" --backend=gpu "$@"
}

gen log 3000000 >log
for v in words lines field:1 field:9 field:2:34; do
	# shellcheck disable=SC2046
	check_gpu "log, $v" "$v" log $(token_args "$v") log
done
for v in words lines field:9; do
	# shellcheck disable=SC2046
	check_gpu "log, $v, 3 readers of 4 KiB chunks" "$v" log \
		$(token_args "$v") --chunk-size=4k --threads=3 log
done
check_gpu "log, words, chunks of 100 bytes" words log -t --chunk-size=100 log
check_gpu "log, field:1, 16 MiB chunks" field:1 log --field=1 --chunk-size=16M log
check_gpu "log, lines, through a pipe" lines log --lines - <log
gzip -6 -n -c log >log.gz
check_gpu "log.gz, words" words log -t log.gz
GPUHIST_GZIP_REGION=65536 check_gpu "log.gz in parallel regions, field:1" \
	field:1 log --field=1 --threads=4 --chunk-size=64k log.gz

mans=$(find /usr/share/man -name '*.gz' 2>/dev/null | sort | head -40)
if [ -n "$mans" ]; then
	# shellcheck disable=SC2086
	cat $mans >man.gz
	gzip -dc man.gz >man
	check_gpu "40 man pages, words" words man -t man.gz
	check_gpu "40 man pages, lines, chunks of 100 bytes" lines man \
		--lines --chunk-size=100 man.gz
else
	skip "40 man pages, words" "no man pages"
	skip "40 man pages, lines" "no man pages"
fi

# Edge cases.
printf '\n\n\n' >newlines
check_gpu "only newlines, lines (three empty lines)" lines newlines --lines newlines
check_gpu "only newlines, field 2 (three empty fields)" field:2 newlines --field=2 newlines
python3 -c 'import sys
sys.stdout.buffer.write(b"a b\r\nc d\r\n\r\n" * 5000 + b"last")' >crlf
for v in words lines field:2; do
	# shellcheck disable=SC2046
	check_gpu "CRLF and no last newline, $v, chunks of 64 bytes" "$v" crlf \
		$(token_args "$v") --chunk-size=64 crlf
done
python3 -c 'import sys
sys.stdout.buffer.write(b"a\0b c\0\0d\n\0\n\xff\xfe caf\xc3\xa9 \xc3\n" * 3000)' >odd
for v in words lines field:2; do
	# shellcheck disable=SC2046
	check_gpu "NUL bytes and bytes that are not UTF-8, $v" "$v" odd \
		$(token_args "$v") odd
done
check_gpu "a separator byte, field 3 of a:b::c" field:3:58 odd --field=3 -F : odd
python3 -c 'import sys
sys.stdout.buffer.write((b"x" * 300000 + b"\n" + b"y" * 5 + b"\n") * 3 + b"z\n" * 1000)' >long
check_gpu "lines longer than a chunk (300000 bytes, 64 KiB chunks)" lines long \
	--lines --chunk-size=64k --threads=2 long
python3 -c 'import random
random.seed(3700)
for _ in range(300000): print("%016x" % random.getrandbits(64))' >distinct
check_gpu "300000 distinct lines" lines distinct --lines distinct
check_gpu "300000 distinct lines spilled past --memory=1M" lines distinct \
	--lines --memory=1M -T "$TMP" distinct
check_gpu "log, words, device 0 listed twice" words log -t --devices=0,0 log

# The device's tables at their fewest slots and keys: emptied into the
# counts mid-input whenever the next chunk might not fit.
GPUHIST_GPU_TOKEN_TABLE=min check_gpu "300000 distinct lines, tables emptied mid-input" \
	lines distinct --lines distinct
GPUHIST_GPU_TOKEN_TABLE=min check_gpu "300000 distinct lines, tables emptied mid-input, 64 KiB chunks, 3 readers, spilled" \
	lines distinct --lines --chunk-size=64k --threads=3 --memory=1M -T "$TMP" distinct
GPUHIST_GPU_TOKEN_TABLE=min check_gpu "log, words, tables emptied mid-input, 4 KiB chunks, 2 devices" \
	words log -t --chunk-size=4k --threads=3 --devices=0,0 log
# ... or at their fewest and grown as they fill (one device: slots placed
# again in twice as many, records copied into twice the room).
GPUHIST_GPU_TOKEN_TABLE=min-grown check_gpu "300000 distinct lines, tables grown from their fewest, 64 KiB chunks" \
	lines distinct --lines --chunk-size=64k distinct
GPUHIST_GPU_TOKEN_TABLE=min-grown check_gpu "log, words, tables grown from their fewest, 4 KiB chunks, 3 readers" \
	words log -t --chunk-size=4k --threads=3 log
GPUHIST_GPU_TOKEN_TABLE=min-grown "$GPUHIST" -v --lines --chunk-size=64k --backend=gpu distinct 2>err >/dev/null
ok "$(grep -q 'grown to 128 Mi slots' err; echo $?)" "-v: the tables grow"
# Several inputs at once share the streams' tables: each input's units
# go to it (a table is emptied into its input before another's chunk).
cat distinct log >both
"$GPUHIST" --lines -f tsv --total=never --backend=cpu distinct log both distinct >cpu.tsv
GPUHIST_GPU_TOKEN_TABLE=min "$GPUHIST" --lines -f tsv --total=never --backend=gpu \
	--chunk-size=64k distinct log both distinct >gpu.tsv
same_file "four inputs counted at once, tables emptied between them: the CPU backend's" \
	gpu.tsv cpu.tsv
GPUHIST_GPU_TOKEN_TABLE=min-grown "$GPUHIST" --lines -f tsv --total=never --backend=gpu \
	--chunk-size=64k distinct log both distinct >gpu.tsv
same_file "four inputs at once, tables grown and emptied between them: the CPU backend's" \
	gpu.tsv cpu.tsv
"$GPUHIST" -t -f tsv --backend=gpu --chunk-size=64k distinct log both distinct >gpu.tsv
"$GPUHIST" -t -f tsv --backend=cpu distinct log both distinct >cpu.tsv
same_file "four inputs at once, words, default tables: the CPU backend's" \
	gpu.tsv cpu.tsv
rm -f both

"$GPUHIST" --backend=gpu -v -t log 2>err >/dev/null
ok "$(grep -q 'tokens counted on the device' err; echo $?)" \
	"-v: the tokens are counted on the device"
ok "$(grep -q 'handed to its counts whole' err; echo $?)" \
	"-v: one device's table is handed to the counts whole"

# An input's last table handed to its counts whole (gpu_tokens.c's
# hand_over, tokens/adopted.c): against the tables emptied into the counts
# as before, and where the counts may not take it.
GPUHIST_GPU_TOKEN_KEEP=0 check_gpu "log, words, tables emptied into the counts, not handed over" \
	words log -t log
"$GPUHIST" -t -f tsv --backend=gpu log >kept.tsv
GPUHIST_GPU_TOKEN_KEEP=0 "$GPUHIST" -t -f tsv --backend=gpu log >drained.tsv
same_file "log, words: handed over equals emptied into the counts, byte for byte" \
	kept.tsv drained.tsv
python3 -c 'import random
random.seed(3701)
for _ in range(1000000): print("%040x" % random.getrandbits(160))' >wide
check_gpu "a million distinct lines of 40 bytes under --memory=64M (64 MB of records: not taken, emptied as before)" \
	lines wide --lines --memory=64M -T "$TMP" wide
check_gpu "the same under --memory=1G (taken whole)" \
	lines wide --lines --memory=1G wide
rm -f wide

# The CPU backend's output, byte for byte, over several inputs.
"$GPUHIST" -t -f tsv --backend=cpu log.gz odd crlf >cpu.tsv
"$GPUHIST" -t -f tsv --backend=gpu log.gz odd crlf >gpu.tsv
same_file "three inputs, tsv: the CPU backend's, byte for byte" gpu.tsv cpu.tsv
"$GPUHIST" --field=1 --top=5 --backend=cpu log >cpu.txt
"$GPUHIST" --field=1 --top=5 --backend=gpu log >gpu.txt
same_file "the table of the top 5 first fields: the CPU backend's" gpu.txt cpu.txt
# --values: the GPU cuts the field, the numbers are the CPU's.
"$GPUHIST" --values=10 -f json --backend=cpu log log.gz >cpu.json
"$GPUHIST" --values=10 -f json --backend=gpu log log.gz >gpu.json
same_file "--values of the size field, json: the CPU backend's" gpu.json cpu.json
check_values() {
	"$GPUHIST" -f json "$@" >got.json 2>err
	python3 "$T_SRCDIR/valuesoracle.py" 10 log got.json 2>&1
}
is "--values on the GPU, 64 KiB chunks: Python's sort and sums" \
	"$(check_values --values=10 --backend=gpu --chunk-size=64k log)" same

# auto: one CPU thread counts while the GPU starts, then the GPU counts the
# rest; the counts meet exactly.
unset GPUHIST_GPU_ONLY
yes 'abc def 123' | head -c $((12 * 200000000)) >big
"$GPUHIST" -v --threads=1 -t -f tsv big >got 2>err.words
printf '%s\n' 'big	123	200000000' 'big	abc	200000000' 'big	def	200000000' >want
sed 1d got | sort >got.rows
same_file "2.4 GB of one line, words, auto: exact" got.rows want
# Words and lines of one large file: the GPU alone (choose.c), the CPU
# idle while it starts.
set -- $(sed -n 's/.*; \([0-9]*\) bytes counted there, \([0-9]*\) on the GPU (.*/\1 \2/p' err.words)
ok "$([ "${1:-x}" = 0 ] && [ "${2:-0}" = 2400000000 ]; echo $?)" \
	"2.4 GB, words, auto: the GPU alone (${1:-?} bytes on the CPU)"
# A field is auto's usual share: the CPU while the GPU starts.
"$GPUHIST" -v --threads=1 --field=2 -f tsv big >got 2>err
printf '%s\n' 'big	def	200000000' >want
sed 1d got >got.rows
same_file "2.4 GB of one line, field 2, auto: exact" got.rows want
set -- $(sed -n 's/.*; \([0-9]*\) bytes counted there, \([0-9]*\) on the GPU (.*/\1 \2/p' err)
diag "auto: ${1:-?} bytes on the CPU, ${2:-?} on the GPU"
ok $([ "${1:-0}" -gt 0 ] && [ "${2:-0}" -gt 0 ]; echo $?) \
	"2.4 GB, auto: both the CPU and the GPU counted a part"
rm -f big
