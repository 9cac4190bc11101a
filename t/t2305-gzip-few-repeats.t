#!/bin/bash
# t2305-gzip-few-repeats.t - the parallel gzip decoder on data of few
# repeats (base64 of random bytes, alone and around text, and as members),
# where a region's window markers die out within a block (text keeps them
# alive: copies of copies): counts equal gzip -dc's, a byte flipped at 29
# places (some in block headers) gives the serial decoder's verdict, and
# -m and -s equal one thread's.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_cmd python3
need_cmd gzip

cd "$TMP" || exit 1

plan 13

# counts ARGS...: byte counts, the name column dropped.
counts() { "$GPUHIST" -b -f tsv "$@" 2>/dev/null | sed 1d | cut -f2-; }
# verdict ARGS...: output, messages and exit status, in one file.
verdict() {
	"$GPUHIST" -b -f tsv "$@" >out 2>err
	echo "status $?" >>out
	cat err >>out
	cat out
}

# Base64 of random bytes, then a stretch of text, then base64 again: the
# markers die in the first and last parts, not in the middle.
python3 - <<'PY'
import base64, random, gzip, subprocess
random.seed(2305)
rnd = lambda n: base64.encodebytes(bytes(random.getrandbits(8) for _ in range(n)))
words = [bytes(random.choice(b"abcdefghij klmnop") for _ in range(random.randint(2, 8)))
         for _ in range(400)]
text = b" ".join(random.choice(words) for _ in range(300000)) + b"\n"
open("random.txt", "wb").write(rnd(3 << 20))
open("mixed.txt", "wb").write(rnd(1 << 20) + text + rnd(1 << 20))
PY
gzip -6 -n -c random.txt >random.gz
gzip -6 -n -c mixed.txt >mixed.gz
# Three members: random, text, random.
{ gzip -1 -n -c random.txt; printf 'x y z %.0s' $(seq 3000) | gzip -9 -n -c;
  gzip -9 -n -c random.txt; } >members.gz

for f in random mixed members; do
	gzip -dc $f.gz >plain
	counts --raw plain >want
	for region in 65536 200000; do
		GPUHIST_GZIP_REGION=$region counts --threads=4 $f.gz >got
		is "$f.gz, $region-byte regions, 4 threads: gzip -dc's counts" \
			"$(cmp -s got want && echo same)" same
	done
done

# A byte changed: the verdict is the serial decoder's (which gzip -dc
# agrees is an error), at 29 places; some fall in block headers.
size=$(stat -c %s random.gz)
bad=0
for k in $(seq 1 29); do
	python3 -c 'import sys
d = bytearray(open("random.gz", "rb").read())
at = len(d) * int(sys.argv[1]) // 30
d[at] ^= 0x10
open("bad.gz", "wb").write(d)' $k
	verdict --threads=1 bad.gz >want
	GPUHIST_GZIP_REGION=131072 verdict --threads=4 bad.gz >got
	if ! cmp -s got want; then
		bad=$((bad + 1))
		diag "flip at $k/30 of $size bytes:"
		diff want got | head -5 | sed 's/^/# /'
	fi
	gzip -dc bad.gz >/dev/null 2>&1 && { bad=$((bad + 1)); diag "gzip -dc took the flip at $k/30"; }
done
is "random.gz with a byte flipped at 29 places: the serial decoder's verdict" $bad 0

# Cut short.
head -c $((size * 6 / 10)) random.gz >cut.gz
verdict --threads=1 cut.gz >want
GPUHIST_GZIP_REGION=131072 verdict --threads=4 cut.gz >got
same_file "random.gz cut short: the serial decoder's verdict" got want

# -m and -s across regions: as the serial decoder gives them.
for f in mixed members; do
	for view in -m -s; do
		"$GPUHIST" $view -f tsv --threads=1 $f.gz >want 2>&1
		GPUHIST_GZIP_REGION=65536 "$GPUHIST" $view -f tsv --threads=4 $f.gz >got 2>&1
		same_file "$f.gz, $view, 4 threads: as one thread gives it" got want
	done
done

# Through a pipe the serial decoder runs; the file is decoded in parallel:
# the same counts.
gzip -dc mixed.gz | counts --raw - >want
GPUHIST_GZIP_REGION=65536 counts --threads=4 mixed.gz >got
same_file "mixed.gz: the file in parallel, as gzip -dc | gpuhist --raw" got want
