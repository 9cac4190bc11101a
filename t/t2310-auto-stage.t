#!/bin/sh
# t2310-auto-stage - under auto, the words or lines of one compressed file
# that the GPU is to count alone: while its start goes on the decoder fills
# the stage (backend/stage.c), and what the stage held is counted whoever
# counts it (here, with no GPU, the CPU, after a start made slower by
# GPUHIST_GPU_START_DELAY): every output equals --backend=cpu's, with the
# stage of its full size and of two chunks, and nothing is counted twice.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_cmd gzip
need_cmd python3
need_cmd base64

cd "$TMP" || exit 1
plan 8

# 35 MB of gzip, lines of base64 (a word each, nearly all distinct): on
# one thread, four times that is a text of 128 MiB a thread, from which
# auto gives all the words or lines to the GPU alone.
python3 -c 'import random, sys
random.seed(2310)
sys.stdout.buffer.write(random.randbytes(34000000))' | base64 -w 76 |
	gzip -1 -n >b64.gz
diag "b64.gz: $(wc -c <b64.gz) bytes"

# held ERRFILE: the bytes -v says the stage held.
held() {
	sed -n 's/.*; \([0-9]*\) bytes in [0-9]* chunks held meanwhile.*/\1/p' "$1"
}
# A build without CUDA starts no GPU in a thread: nothing is held there.
if "$GPUHIST" -v --version 2>&1 | grep -q '^CUDA runtime'; then
	threaded=1
else
	threaded=0
fi

"$GPUHIST" --backend=cpu --threads=1 -t -f tsv b64.gz >want
"$GPUHIST" --backend=cpu --threads=1 --lines --top=7 -f tsv b64.gz >want.lines
wc -l <want | { read n; diag "$n distinct words"; }

GPUHIST_GPU_START_DELAY=1500 "$GPUHIST" -v --threads=1 -t -f tsv b64.gz \
	>got 2>err
is "words, a slow start: exit 0" $? 0
same_file "words, a slow start: --backend=cpu's" got want
h=$(held err)
if [ $threaded = 1 ]; then
	ok "$([ "${h:-0}" -gt 0 ]; echo $?)" \
		"words, a slow start: the stage held ${h:-no} bytes meanwhile"
else
	skip "built without CUDA" "words, a slow start: the stage held bytes"
fi
sed 's/^/# /' err

GPUHIST_GPU_START_DELAY=1500 GPUHIST_STAGE_BYTES=8388608 "$GPUHIST" -v \
	--threads=1 -t -f tsv b64.gz >got 2>err
same_file "words, a stage of two chunks: --backend=cpu's" got want
h=$(held err)
if [ $threaded = 1 ]; then
	ok "$([ "${h:-0}" -gt 0 ] && [ "${h:-0}" -le 8388608 ]; echo $?)" \
		"words, a stage of two chunks: it held ${h:-no} bytes, 8 MiB at most"
else
	skip "built without CUDA" "words, a stage of two chunks: 8 MiB at most"
fi

# Lines, their commonest only (the same rule), in a stage of four chunks
# (4 MiB each, the GPU's size),
# with a slow start and with none.
GPUHIST_GPU_START_DELAY=1000 GPUHIST_STAGE_BYTES=16777216 "$GPUHIST" \
	--threads=1 --lines --top=7 -f tsv b64.gz >got
same_file "lines, --top=7, a slow start: --backend=cpu's" got want.lines
GPUHIST_STAGE_BYTES=16777216 "$GPUHIST" --threads=1 --lines --top=7 \
	-f tsv b64.gz >got
same_file "lines, --top=7: --backend=cpu's" got want.lines
# The same file twice: two inputs are never the GPU's alone.
"$GPUHIST" --threads=1 -t -f tsv b64.gz b64.gz >got
is "two inputs: twice the words each" \
	"$(awk -F '\t' 'NR > 1 && $1 == "b64.gz" { n += $3 } END { print n }' got)" \
	"$(awk -F '\t' 'NR > 1 { n += $3 } END { print 2 * n }' want)"
