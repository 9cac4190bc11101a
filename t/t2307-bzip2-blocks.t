#!/bin/bash
# t2307-bzip2-blocks.t - bzip2 files (bzip2 -1 and -9, lbzip2, streams
# joined) decoded a block a thread: bzip2 -dc's bytes, every view across
# blocks (the tokens views joined piece by piece), -s decoded serially, and
# the serial verdict wherever a block or a stream's end is bad, the file is
# cut, or garbage follows
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_cmd python3
need_cmd bzip2

cd "$TMP" || exit 1
"$GPUHIST" --version -v >version 2>&1
grep '^decodes:' version | grep -q 'bzip2\($\|,\)' ||
	skip_all "bzip2 not built in"
gendata 37 2500000 >text
python3 "$T_SRCDIR/gentext.py" mixed 17 1500000 >utf8
# bzip2 -1: blocks of 100 kB, so 25 blocks; -9: 900 kB, 3.
bzip2 -1 -c text >t1.bz2
bzip2 -9 -c text >t9.bz2
bzip2 -1 -c utf8 >u.bz2

# counts ARGS...: byte counts, the name column dropped.
counts() { "$GPUHIST" -b -f tsv "$@" 2>/dev/null | sed 1d | cut -f2-; }

# same_verdict DESCRIPTION FILE: 4 threads, one and a pipe agree on FILE
# (exit status, messages, counts), and with bzip2 -dc on whether it decodes
# and, where it does, on its bytes (bzip2 -dc warns of trailing garbage
# with exit status 0 there too).
same_verdict() {
	local desc=$1 file=$2 brc
	bzip2 -dc "$file" >plain 2>/dev/null
	brc=$?
	"$GPUHIST" -b -f tsv --threads=4 "$file" >par 2>par.err
	echo $? >>par.err
	"$GPUHIST" -b -f tsv --threads=1 "$file" >ser 2>ser.err
	echo $? >>ser.err
	"$GPUHIST" -b -f tsv --threads=4 <"$file" >pipe 2>pipe.err
	echo $? >>pipe.err
	local same=same
	cmp -s par ser && cmp -s par.err ser.err || same=differ
	[ "$brc" = 0 ] && ! { sed 1d par | cut -f2- | cmp -s - <(counts --raw plain); } &&
		same="$same, not bzip2's counts"
	is "$desc: 4 threads, one and a pipe say the same; bzip2 -dc $([ $brc = 0 ] && echo decodes || echo refuses) it" \
		"$same:$(tail -n 1 par.err):$(tail -n 1 pipe.err)" \
		"same:$([ $brc = 0 ] && echo 0 || echo 1):$([ $brc = 0 ] && echo 0 || echo 1)"
}

plan 25

counts --raw text >want
for f in t1.bz2 t9.bz2; do
	counts --threads=4 $f >got
	"$GPUHIST" -v -b --threads=4 $f 2>&1 >/dev/null | grep 'decoded' >how
	is "$f on 4 threads: bzip2 -dc's counts, a block a thread" \
		"$(cmp -s got want && echo same):$(grep -c "$f: bzip2 decoded by 4 threads: [0-9]* blocks in 1 stream\$" how)" \
		"same:1"
done
blocks=$(grep -o '[0-9]* blocks' how | cut -d' ' -f1)
is "bzip2 -9 of 2.5 MB: 3 blocks found" "$blocks" 3
counts --threads=2 t1.bz2 >got
same_file "... on 2 threads: the same counts" got want
counts --threads=4 <t1.bz2 >got
same_file "... through a pipe (in order): the same counts" got want
if command -v lbzip2 >/dev/null; then
	lbzip2 -n 3 -c text >l.bz2
	counts --threads=4 l.bz2 >got
	same_file "lbzip2's file: the same counts" got want
else
	skip "lbzip2 not installed"
fi

# Every view across blocks, in 64 KiB chunks, decoded in parallel (the
# tokens joined piece by piece): as the text itself.
for view in -m -t --lines "--field=2" "-m -c"; do
	"$GPUHIST" $view -v -f tsv --threads=4 --chunk-size=64K u.bz2 \
		2>err | sed 1d | cut -f2- >got
	"$GPUHIST" $view -f tsv --threads=1 utf8 | sed 1d | cut -f2- >want
	is "$view across 16 blocks cut inside characters and tokens, a block a thread: as the text itself" \
		"$(cmp -s got want && echo same):$(grep -c 'decoded by 4 threads: 16 blocks' err)" \
		"same:1"
done

# -s needs each chunk's offset, which blocks do not give: decoded in order.
"$GPUHIST" -s -f json --threads=4 -v u.bz2 2>err | sed 's/"u.bz2"/"x"/' >got
"$GPUHIST" -s -f json utf8 | sed 's/"utf8"/"x"/' >want
is "-s: decoded serially, saying why; ent's figures as the text's" \
	"$(grep -c 'its blocks do not say their size, which -s needs' err):$(cmp -s got want && echo same)" \
	"1:same"

# Streams joined: levels 1 and 9, an empty stream between them.
: | bzip2 -c >empty.bz2
cat t1.bz2 empty.bz2 u.bz2 t9.bz2 >cat.bz2
cat text utf8 text | counts --raw >want
counts --threads=4 cat.bz2 >got
"$GPUHIST" -v -b --threads=4 cat.bz2 2>&1 >/dev/null | grep -c 'blocks in 4 streams$' >how
is "four streams joined (one empty; levels 1 and 9): all counted, a block a thread" \
	"$(cmp -s got want && echo same):$(cat how)" "same:1"

# One block: decoded in order, as before.
head -c 50000 text | bzip2 -c >one.bz2
"$GPUHIST" -v -b --threads=4 one.bz2 2>&1 >/dev/null | grep -c 'decoded with libbz2' >how
is "one block: libbz2 in order" "$(cat how)" 1

# Bad files: the serial decoder's verdict, bzip2's.
size=$(stat -c %s t1.bz2)
flip t1.bz2 6 >f1.bz2
same_verdict "a byte flipped in the first block's magic" f1.bz2
flip t1.bz2 12 >f2.bz2
same_verdict "a byte flipped in the first block's data" f2.bz2
flip t1.bz2 $((size / 2)) >f3.bz2
same_verdict "a byte flipped in a block in the middle" f3.bz2
flip t1.bz2 $((size - 3)) >f4.bz2
same_verdict "a byte flipped in the stream's CRC" f4.bz2
head -c $((size / 2)) t1.bz2 >cut.bz2
same_verdict "the file cut in the middle of a block" cut.bz2
head -c $((size - 2)) t1.bz2 >cut2.bz2
same_verdict "the file cut inside the stream's end" cut2.bz2
# A megabyte of zero bytes between the first block and the second's mark
# (the stream's CRC still right): more than a block, never held whole.
python3 - t1.bz2 gap.bz2 <<'PY'
import sys
d = open(sys.argv[1], "rb").read()
bits = "".join(format(x, "08b") for x in d)
second = bits.find(format(0x314159265359, "048b"), 33)
bits = bits[:second] + "0" * (8 << 20) + bits[second:]
bits += "0" * (-len(bits) % 8)
open(sys.argv[2], "wb").write(int(bits, 2).to_bytes(len(bits) // 8, "big"))
PY
same_verdict "a megabyte between a block and the next mark" gap.bz2
(cat t1.bz2; printf 'garbage after it') >tail.bz2
same_verdict "garbage after the last stream (bzip2 warns)" tail.bz2
"$GPUHIST" -b --threads=4 tail.bz2 2>&1 >/dev/null | grep -c 'trailing garbage after EOF ignored' >how
is "... with the serial decoder's warning" "$(cat how)" 1

# A sweep: a byte flipped every 1/20 of the file.
bad=0
for k in $(seq 1 19); do
	flip t1.bz2 $((size * k / 20)) >sw.bz2
	bzip2 -dc sw.bz2 >plain 2>/dev/null
	brc=$?
	"$GPUHIST" -b -f tsv --threads=4 sw.bz2 >par 2>/dev/null
	grc=$?
	[ $brc = 0 ] || brc=1
	if [ $grc != $brc ] ||
	   { [ $brc = 0 ] && ! sed 1d par | cut -f2- | cmp -s - <(counts --raw plain); }; then
		bad=$((bad + 1))
	fi
done
is "a byte flipped at each 5% of the file: bzip2 -dc's verdict and counts every time" "$bad" 0

# A good input beside a bad one: counted right, the bad one named, exit 1.
"$GPUHIST" -b -f tsv --threads=4 t1.bz2 f3.bz2 >out 2>err
rc=$?
counts --raw text >want
grep "^t1.bz2	" out | cut -f2- >got
is "a good file beside a bad one: its counts, the bad one named, exit 1" \
	"$rc:$(cmp -s got want && echo same):$(grep -c '^gpuhist: f3.bz2: ' err)" "1:same:1"
