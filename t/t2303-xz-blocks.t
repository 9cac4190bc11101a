#!/bin/bash
# t2303-xz-blocks.t - xz files of many blocks (xz -T, --block-size)
# decoded a block a thread: xz -dc's bytes and verdict, every view across
# blocks, concatenated streams, and the serial verdict wherever a block,
# an index or a footer is bad or the file is cut
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_cmd python3
need_cmd xz

cd "$TMP" || exit 1
"$GPUHIST" --version -v >version 2>&1
grep '^decodes:' version | grep -q 'xz\($\|,\)' ||
	skip_all "xz not built in"
gendata 31 3000000 >text
python3 "$T_SRCDIR/gentext.py" mixed 11 2000000 >utf8
# Threaded xz writes each block's sizes in its header; the single-threaded
# encoder cuts blocks too but leaves them to the index.
xz -T4 --block-size=100KiB -c text >t.xz
xz -T1 --block-size=77KiB -c text >t1.xz
xz -T4 --block-size=50001 -c utf8 >u.xz

# counts ARGS...: byte counts, the name column dropped.
counts() { "$GPUHIST" -b -f tsv "$@" 2>/dev/null | sed 1d | cut -f2-; }

# same_verdict DESCRIPTION FILE: 4 threads, one thread and a pipe agree
# on FILE (exit status, messages, counts), and with xz -dc on whether it
# decodes and, where it does, on its bytes.
same_verdict() {
	local desc=$1 file=$2 xrc
	xz -dc "$file" >plain 2>/dev/null
	xrc=$?
	"$GPUHIST" -b -f tsv --threads=4 "$file" >par 2>par.err
	echo $? >>par.err
	"$GPUHIST" -b -f tsv --threads=1 "$file" >ser 2>ser.err
	echo $? >>ser.err
	"$GPUHIST" -b -f tsv --threads=4 <"$file" >pipe 2>pipe.err
	echo $? >>pipe.err
	local same=same
	cmp -s par ser && cmp -s par.err ser.err || same=differ
	[ "$xrc" = 0 ] && ! { sed 1d par | cut -f2- | cmp -s - <(counts --raw plain); } &&
		same="$same, not xz's counts"
	is "$desc: 4 threads, one and a pipe say the same; xz -dc $([ $xrc = 0 ] && echo decodes || echo refuses) it" \
		"$same:$(tail -n 1 par.err):$(tail -n 1 pipe.err)" \
		"same:$([ $xrc = 0 ] && echo 0 || echo 1):$([ $xrc = 0 ] && echo 0 || echo 1)"
}

plan 22

xz -dc t.xz >plain
counts --raw plain >want
for f in t.xz t1.xz; do
	counts --threads=4 $f >got
	"$GPUHIST" -v -b --threads=4 $f 2>&1 >/dev/null | grep 'decoded' >how
	is "$f: $(xz -l $f | awk 'NR == 2 { print $2 }') blocks on 4 threads: xz -dc's counts, a block a thread" \
		"$(cmp -s got want && echo same):$(grep -c "$f: xz decoded by 4 threads: [0-9]* blocks in 1 stream\$" how)" \
		"same:1"
done
counts --threads=2 t.xz >got
same_file "... on 2 threads: the same counts" got want
cat t.xz | counts --threads=4 >got
same_file "... through a pipe (liblzma's threaded decoder): the same counts" got want

for view in -m -s "-m -s"; do
	"$GPUHIST" $view -f json --threads=4 u.xz | sed 's/"u.xz"/"x"/' >got
	"$GPUHIST" $view -f json --threads=1 utf8 | sed 's/"utf8"/"x"/' >want
	same_file "$view across blocks cut inside characters: as the text itself" got want
done

# Streams joined, with stream padding between and after them.
(xz -T2 --block-size=64KiB -c text; printf '\0\0\0\0'
 xz -T2 --block-size=40KiB -c utf8; printf '\0\0\0\0\0\0\0\0') >cat.xz
cat text utf8 | counts --raw >want
counts --threads=4 cat.xz >got
"$GPUHIST" -v -b --threads=4 cat.xz 2>&1 >/dev/null | grep -c 'blocks in 2 streams$' >how
is "two streams with padding: both counted, a block a thread" \
	"$(cmp -s got want && echo same):$(cat how)" "same:1"
"$GPUHIST" -s -f json --threads=4 cat.xz | sed 's/"cat.xz"/"x"/' >got
cat text utf8 | "$GPUHIST" -s -f json | sed 's/"-"/"x"/' >want
same_file "-s across two streams: each block placed by the index" got want

# xz -9's blocks need 65 MiB each: fewer threads, the same counts.
xz -9 -T2 --block-size=300KiB -c text >t9.xz
counts --threads=16 t9.xz >got
counts --raw text >want
same_file "xz -9 blocks, 16 threads asked: the memory for them caps the threads, counts right" got want

# One block: decoded in order, as before.
xz -c text >one.xz
"$GPUHIST" -v -b --threads=4 one.xz 2>&1 >/dev/null | grep -c 'threaded decoder' >how
is "one block: liblzma's decoder in order" "$(cat how)" 1

# Bad files: the serial decoder's verdict, xz's.  Where the blocks, the
# index and the footer lie in t.xz:
size=$(stat -c %s t.xz)
flip t.xz 13 >f1.xz
same_verdict "a byte flipped in the first block's header" f1.xz
flip t.xz $((size / 2)) >f2.xz
same_verdict "a byte flipped in a block in the middle" f2.xz
flip t.xz $((size - 40)) >f3.xz
same_verdict "a byte flipped in the index" f3.xz
flip t.xz $((size - 6)) >f4.xz
same_verdict "a byte flipped in the stream footer" f4.xz
head -c $((size / 2)) t.xz >cut.xz
same_verdict "the file cut in the middle of a block" cut.xz
head -c $((size - 1)) t.xz >cut2.xz
same_verdict "the file cut inside its footer" cut2.xz
(cat t.xz; printf 'garbage') >tail.xz
same_verdict "garbage after the last stream" tail.xz
(cat t.xz; printf '\0\0\0') >pad3.xz
same_verdict "stream padding not a multiple of four" pad3.xz

# Two blocks whose compressed bytes swap places: each is sound, the index
# is not theirs.
python3 - t.xz swap.xz <<'PY'
import sys
d = open(sys.argv[1], "rb").read()
import struct
def vli(b, i):
    v = s = 0
    while True:
        x = b[i]; i += 1; v |= (x & 0x7f) << s; s += 7
        if not x & 0x80: return v, i
back = (struct.unpack("<I", d[-8:-4])[0] + 1) * 4
idx = d[-12 - back:-12]
n, i = vli(idx, 1)
sizes = []
for _ in range(n):
    u, i = vli(idx, i); c, i = vli(idx, i); sizes.append(((u + 3) & ~3, c))
off = 12
spans = []
for total, c in sizes:
    spans.append((off, off + total)); off += total
a, b = spans[0], spans[1]
out = d[:a[0]] + d[b[0]:b[1]] + d[a[0]:a[1]] + d[b[1]:]
open(sys.argv[2], "wb").write(out)
PY
same_verdict "two blocks swapped (each sound; the index says other sizes)" swap.xz

# A sweep: a byte flipped every 1/20 of the file.
bad=0
for k in $(seq 1 19); do
	flip t.xz $((size * k / 20)) >sw.xz
	xz -dc sw.xz >plain 2>/dev/null
	xrc=$?
	"$GPUHIST" -b -f tsv --threads=4 sw.xz >par 2>/dev/null
	grc=$?
	[ $xrc = 0 ] && xrc=0 || xrc=1
	if [ $grc != $xrc ] ||
	   { [ $xrc = 0 ] && ! sed 1d par | cut -f2- | cmp -s - <(counts --raw plain); }; then
		bad=$((bad + 1))
	fi
done
is "a byte flipped at each 5% of the file: xz -dc's verdict and counts every time" "$bad" 0

# A good input beside a bad one: counted right, the bad one named, exit 1.
"$GPUHIST" -b -f tsv --threads=4 t.xz f2.xz >out 2>err
rc=$?
xz -dc t.xz | counts --raw >want
grep "^t.xz	" out | cut -f2- >got
is "a good file beside a bad one: its counts, the bad one named, exit 1" \
	"$rc:$(cmp -s got want && echo same):$(grep -c '^gpuhist: f2.xz: ' err)" "1:same:1"
