#!/bin/bash
# t3701-gpu-top.t - the commonest tokens picked on the device (gpu_tokens.c's
# pick_commonest): one input's table or --top rows, the device's counts
# binned and only the records above the bound copied back, with the
# host's own units (joined ends, the last unit) added on the device
# first; where most units tie at the bound (distinct lines), the ties
# narrowed by their leading bytes.  Every output against the CPU
# backend's, byte for byte, and two against Python's sort; -v says where
# the pick was made; several devices' tables added into the first one's.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_gpu
need_cmd python3
need_cmd gzip

cd "$TMP" || exit 1

plan 61

# same_top DESC FILE ARGS...: the GPU alone (the device's pick) and the
# CPU backend give the same output, byte for byte.
same_top() {
	local d=$1 f=$2
	shift 2
	GPUHIST_GPU_ONLY=1 "$GPUHIST" --backend=gpu "$@" "$f" >gpu.out 2>gpu.err
	"$GPUHIST" --backend=cpu "$@" "$f" >cpu.out 2>cpu.err
	same_file "$d: the CPU backend's" gpu.out cpu.out
}

# picked: whether the last same_top's GPU run picked on the device (-v).
picked() {
	GPUHIST_GPU_ONLY=1 "$GPUHIST" --backend=gpu -v "$@" >/dev/null 2>v.err
	grep -q 'commonest tokens picked on the device' v.err
}

# python_top FILE N: Python's sort of FILE's words, the top N as gpuhist's
# tsv writes them (bytes below 32 as \xNN) and the rest as (other).
python_top() {
	python3 - "$1" "$2" <<'EOF'
import collections, sys
name, top = sys.argv[1], int(sys.argv[2])
c = collections.Counter(open(name, "rb").read().split())
rows = sorted(c.items(), key=lambda kv: (-kv[1], kv[0]))
out = sys.stdout.buffer
out.write(b"input\ttoken\tcount\n")
for k, n in rows[:top]:
    k = b"".join(b"\\x%02x" % b if b < 32 else bytes([b]) for b in k)
    out.write(name.encode() + b"\t" + k + b"\t%d\n" % n)
out.write(name.encode() + b"\t(other)\t%d\n" % sum(n for _, n in rows[top:]))
EOF
}

gen log 3000000 >log
same_top "log, words, the table's top 20" log -t
picked -t log
ok $? "-v: log's words picked on the device"
same_top "log, lines, the table" log --lines
same_top "log, field 1, the table" log --field=1
same_top "log, field 9, --top=5, tsv" log --field=9 --top=5 -f tsv
same_top "log, words, --top=1000, csv" log -t --top=1000 -f csv
same_top "log, words, --top=3, json" log -t --top=3 -f json
same_top "log, words, --top=20 --sort=bin" log -t --top=20 --sort=bin
same_top "log, words, chunks of 100 bytes (many joined ends)" log -t \
	--top=10 --chunk-size=100
picked -t --top=10 --chunk-size=100 log
ok $? "-v: chunks of 100 bytes picked on the device"
same_top "log, lines, 4 KiB chunks, 3 readers" log --lines --top=7 \
	--chunk-size=4k --threads=3
cat log | GPUHIST_GPU_ONLY=1 "$GPUHIST" --backend=gpu -t --top=15 - >gpu.out
cat log | "$GPUHIST" --backend=cpu -t --top=15 - >cpu.out
same_file "log, words, through a pipe: the CPU backend's" gpu.out cpu.out
gzip -6 -n -c log >log.gz
same_top "log.gz, words" log.gz -t --top=12

# The top against Python's own sort of the words.
GPUHIST_GPU_ONLY=1 "$GPUHIST" --backend=gpu -t --top=25 -f tsv log >got.tsv
python_top log 25 >want.tsv
same_file "log, words, --top=25: Python's sort" got.tsv want.tsv

# The last unit, without a newline, among the commonest; and the one
# unit of the last chunk.
python3 -c 'import sys
sys.stdout.buffer.write(b"b\na\nb\na\nc\n" * 2000 + b"a")' >last
same_top "the last line without a newline is the commonest" last --lines --top=2
same_top "the same in chunks of 64 bytes" last --lines --top=1 --chunk-size=64

# Ties at the bound: 1000 words of count 5 (their bin the bound's),
# 100000 of count 1; the top 20 of equal counts in byte order.
python3 -c 'import random
random.seed(3701)
w = ["t%04d" % i for i in range(1000)] * 5 + ["u%06d" % i for i in range(100000)]
random.shuffle(w)
print(" ".join(w))' >ties
same_top "ties at the bound, words" ties -t --top=20
picked -t --top=20 ties
ok $? "-v: ties at the bound picked on the device"

# Counts of every size, across the bins' powers of two.
python3 -c 'import random, sys
random.seed(37012)
w = []
for i in range(3000):
    w += ["k%d" % i] * (1 + int(1.003 ** i * 3) % 9000)
random.shuffle(w)
for i in range(0, len(w), 9):
    print(" ".join(w[i:i + 9]))' >sizes
same_top "counts of every size, --top=100" sizes -t --top=100 -f tsv
same_top "counts of every size, --top=1" sizes -t --top=1

# Every line distinct: the bound's bin (count 1) holds them all, so the
# ties are narrowed by their leading bytes before the pick.
python3 -c 'import random
random.seed(3700)
for _ in range(300000): print("%016x" % random.getrandbits(64))' >distinct
same_top "300000 distinct lines, the table" distinct --lines
picked --lines distinct
ok $? "-v: distinct lines picked on the device (their ties narrowed)"
same_top "300000 distinct lines, --top=1000, json" distinct --lines \
	--top=1000 -f json
same_top "300000 distinct lines under --memory=1M" distinct --lines \
	--top=10 --memory=1M -T "$TMP"

same_top "300000 distinct lines, --top=100000 (too many to pick)" distinct \
	--lines --top=100000 -f tsv

# Ties alike in their first 44 bytes (several rounds of 8 bytes), in no
# order; and ties alike in their first 70 (past the 64 bytes narrowed:
# the whole table handed over).
python3 -c 'import random
random.seed(37013)
n = list(range(200000))
random.shuffle(n)
for i in n: print("2026-11-27T10:00:00.000Z host-0001 app[42]: %08d req" % i)' >prefixed
same_top "lines alike in their first 44 bytes, --top=30" prefixed --lines \
	--top=30 -f tsv
picked --lines --top=30 prefixed
ok $? "-v: lines alike in their first 44 bytes picked on the device"
python3 -c 'for i in range(3000, 0, -1): print("y" * 70 + "%06d" % i)' >alike
same_top "lines alike in their first 70 bytes, --top=3" alike --lines --top=3
picked --lines --top=3 alike
ok $([ $? != 0 ]; echo $?) "-v: lines alike in their first 70 bytes not picked"

# Keys that end inside the bytes narrowed, among ties still equal: lines
# of 10 bytes alike then a number (the top: P..P0, P..P1, P..P10, P..P100
# ...), and words of count 2 that are short numbers (0, 1, 10, 100 ...).
python3 -c 'import random
random.seed(37016)
n = ["P" * 10 + "%d" % i for i in range(100000)]
random.shuffle(n)
print("\n".join(n))' >shortkeys
same_top "lines ending inside the narrowed bytes, --top=20" shortkeys \
	--lines --top=20 -f tsv
python3 -c 'import random
random.seed(37017)
w = ["%d" % i for i in range(200000)] * 2 + ["s%d" % i for i in range(100000)]
random.shuffle(w)
for i in range(0, len(w), 11): print(" ".join(w[i:i + 11]))' >shortwords
same_top "short words of count 2, --top=40" shortwords -t --top=40 -f tsv

# Ties of count 2 under ten words of count 100; and words that end in
# NUL bytes or are each other's prefixes, among 200000 that begin alike.
python3 -c 'import random, sys
random.seed(37014)
w = [b"c%d" % i for i in range(10)] * 100
w += [b"d%07d" % i for i in range(150000)] * 2
w += [b"x" + b"\0" * k for k in range(10)] + [b"x\1"]
w += [b"x%08x" % random.getrandbits(32) for _ in range(200000)]
random.shuffle(w)
sys.stdout.buffer.write(b" ".join(w) + b"\n")' >nul
same_top "ties of count 2 under ten of count 100, --top=25" nul -t --top=25
tr ' ' '\n' <nul | grep -av '^[cd]' | tr '\n' ' ' >xs
same_top "words ending in NUL bytes, each other's prefixes, --top=16" xs \
	-t --top=16 -f tsv
GPUHIST_GPU_ONLY=1 "$GPUHIST" --backend=gpu -t --top=16 -f tsv xs >got.tsv
python_top xs 16 >want.tsv
same_file "words ending in NUL bytes, --top=16: Python's sort" got.tsv want.tsv

# auto (choose.c): the lines of one file of 600 MB on 4 threads (143 MiB
# a thread, 128 from which lines go) that asks only for its commonest go to
# the GPU alone.
yes 'abc def 123' | head -c $((12 * 50000000)) >big
(unset GPUHIST_GPU_ONLY; "$GPUHIST" -v --threads=4 --lines --top=5 -f tsv big \
	>got 2>err.lines)
printf '%s\n' 'input	token	count' 'big	abc def 123	50000000' >want
same_file "600 MB of one line, lines, auto: exact" got want
set -- $(sed -n 's/.*; \([0-9]*\) bytes counted there, \([0-9]*\) on the GPU (.*/\1 \2/p' err.lines)
ok "$([ "${1:-x}" = 0 ] && [ "${2:-0}" = 600000000 ]; echo $?)" \
	"600 MB, lines, auto: the GPU alone (${1:-?} bytes on the CPU)"
# ... its words from 96 MiB a thread: on 5 threads (114 MiB) the GPU alone,
# on 6 (95 MiB) the cores alone, no GPU started; exact either way.
printf '%s\n' 'input	token	count' 'big	123	50000000' 'big	abc	50000000' \
	'big	def	50000000' >want
for threads in 5 6; do
	(unset GPUHIST_GPU_ONLY; "$GPUHIST" -v --threads=$threads -t --top=5 \
		-f tsv big >got 2>err.words)
	same_file "600 MB, words on $threads threads, auto: exact" got want
	set -- $(sed -n 's/.*; \([0-9]*\) bytes counted there, \([0-9]*\) on the GPU (.*/\1 \2/p' err.words)
	if [ $threads = 5 ]; then
		ok "$([ "${1:-x}" = 0 ] && [ "${2:-0}" = 600000000 ]; echo $?)" \
			"600 MB, words on 5 threads, auto: the GPU alone (${1:-?} bytes on the CPU)"
	else
		ok "$(! grep -q 'GPU' err.words &&
			grep -q '^gpuhist: cpu backend, 6 threads' err.words; echo $?)" \
			"600 MB, words on 6 threads, auto: the cores alone"
		sed 's/^/# /' err.words
	fi
done
rm -f big
# ... and of one gzip file of 136 MiB on 8 threads (its text guessed at 4
# times that: 68 MiB a thread), which the cores decode as the GPU counts.
python3 -c 'import random, sys
random.seed(37015)
sys.stdout.buffer.write(random.randbytes(140000000))' | base64 -w 76 |
	gzip -1 >packed.gz
(unset GPUHIST_GPU_ONLY; "$GPUHIST" -v --threads=8 --lines --top=5 -f tsv \
	packed.gz >got 2>err.packed)
"$GPUHIST" --backend=cpu --threads=8 --lines --top=5 -f tsv packed.gz >want
same_file "136 MiB of gzip, lines, auto: the CPU backend's" got want
set -- $(sed -n 's/.*; \([0-9]*\) bytes counted there, \([0-9]*\) on the GPU (.*/\1 \2/p' err.packed)
ok "$([ "${1:-x}" = 0 ] && [ "${2:-0}" -gt 180000000 ]; echo $?)" \
	"136 MiB of gzip, lines, auto: the GPU alone (${1:-?} bytes on the CPU)"
# held(ERRFILE): the bytes the decoders filled while the GPU started.
held() {
	sed -n 's/.*; \([0-9]*\) bytes in [0-9]* chunks held meanwhile.*/\1/p' "$1"
}
h=$(held err.packed)
ok "$([ "${h:-0}" -gt 0 ]; echo $?)" \
	"136 MiB of gzip, lines, auto: the decoders filled the stage meanwhile (${h:-no} bytes)"
# ... with a stage of two chunks, full long before the GPU is up; and with
# no device to be found, where what the stage held goes to the CPU.
(unset GPUHIST_GPU_ONLY; GPUHIST_STAGE_BYTES=8388608 "$GPUHIST" -v \
	--threads=8 --lines --top=5 -f tsv packed.gz >got 2>err.small)
same_file "136 MiB of gzip, lines, auto, a stage of 8 MiB: the CPU backend's" \
	got want
h=$(held err.small)
ok "$([ "${h:-0}" -gt 0 ] && [ "${h:-0}" -le 8388608 ]; echo $?)" \
	"a stage of 8 MiB: held ${h:-none} bytes, 8 MiB at most"
(unset GPUHIST_GPU_ONLY; CUDA_VISIBLE_DEVICES= "$GPUHIST" -v --threads=8 \
	--lines --top=5 -f tsv packed.gz >got 2>err.none)
same_file "136 MiB of gzip, lines, auto, no device: the CPU backend's" got want
diag "no device: $(grep -o 'counting on the CPU[^:]*' err.none)"
rm -f packed.gz

# Several inputs: each one's rows, and the total's sum of all of them.
same_top "two inputs, their tables and the total" log -t --top=5 sizes
same_top "the table with --total=always" log -t --top=5 --total=always

# Several devices (device 0 listed two and three times here): each keeps
# a table of the chunks it counted; at the input's end the others' are
# added into the first one's on its device, which is then picked from or
# handed over whole.
same_top "two devices, log, words, the table's top 20" log -t --devices=0,0
picked -t --devices=0,0 log
ok $? "-v: two devices' words picked on the first after the others'"
like "-v: the devices' tables added into the first one's" "$(cat v.err)" \
	"the devices' added into the first one's"
same_top "three devices of 4 KiB chunks on 3 threads, lines, tsv (every row)" \
	log --lines -f tsv --devices=0,0,0 --chunk-size=4k --threads=3
same_top "two devices, 300000 distinct lines, --top=50" distinct --lines \
	--top=50 --devices=0,0
same_top "two devices, distinct lines, every row in csv" distinct --lines \
	-f csv --devices=0,0
same_top "two devices, ties at the bound narrowed, --top=7" ties -t --top=7 \
	--devices=0,0
same_top "two devices, --memory=64M" log -t -f tsv --memory=64M --devices=0,0
same_top "two devices, two inputs and the total" log -t --top=5 \
	--devices=0,0 sizes
GPUHIST_GPU_TOKEN_MERGE=host same_top \
	"two devices' tables added through the host, distinct lines, --top=50" \
	distinct --lines --top=50 --devices=0,0
GPUHIST_GPU_TOKEN_MERGE=host same_top \
	"three devices' tables added through the host, words, tsv" \
	log -t -f tsv --devices=0,0,0 --chunk-size=64k
GPUHIST_GPU_TOKEN_TABLE=min same_top \
	"two devices' tables that do not grow: the other's emptied into the counts" \
	log -t -f tsv --devices=0,0 --chunk-size=64k
GPUHIST_GPU_TOKEN_TABLE=min-grown same_top \
	"three devices' small tables grown, then added into the first one's" \
	distinct --lines --top=20 --devices=0,0,0 --chunk-size=64k
