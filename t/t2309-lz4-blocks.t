#!/bin/bash
# t2309-lz4-blocks.t - lz4 frames of independent blocks (lz4's default)
# decoded a block a thread: lz4 -dc's bytes with every block size, block
# checksums, content sizes (0: none), frames joined with skippable and
# empty ones; every view across blocks (the tokens views joined piece by
# piece); linked blocks, legacy frames, an empty stored block, blocks of a
# byte and -s decoded in order; and the serial verdict,
# lz4 -dc's, wherever a header, block, checksum or end is bad, the file is
# cut, or garbage follows
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_cmd python3
need_cmd lz4

cd "$TMP" || exit 1
"$GPUHIST" --version -v >version 2>&1
grep '^decodes:' version | grep -q 'lz4\($\|,\)' ||
	skip_all "lz4 not built in"
gendata 41 2500000 >text
python3 "$T_SRCDIR/gentext.py" mixed 19 1500000 >utf8
lz4 -q -c -B4 text >b4.lz4                  # 64 KiB blocks: 39 of them
lz4 -q -c -B5 text >b5.lz4                  # 256 KiB: 10
lz4 -q -c -B4 utf8 >u.lz4                   # 23
# Built without libxxhash, every lz4 file is decoded in order.
"$GPUHIST" -v -b --threads=2 b4.lz4 2>&1 >/dev/null |
	grep -q 'lz4 decoded by 2 threads' ||
	skip_all "lz4 blocks are not decoded in parallel (built without libxxhash)"

# counts ARGS...: byte counts, the name column dropped.
counts() { "$GPUHIST" -b -f tsv "$@" 2>/dev/null | sed 1d | cut -f2-; }

# decoded_by FILE: how gpuhist -v on 4 threads says FILE was decoded.
decoded_by() {
	"$GPUHIST" -v -b --threads=4 "$1" 2>&1 >/dev/null |
		sed -n "s/^gpuhist: $1: lz4 decoded //p"
}

# same_verdict DESCRIPTION FILE: 4 threads, one and a pipe agree on FILE
# (exit status, messages, counts), and with lz4 -dc on whether it decodes
# and, where it does, on its bytes.
same_verdict() {
	local desc=$1 file=$2 lrc
	lz4 -dc <"$file" >plain 2>/dev/null
	lrc=$?
	[ $lrc = 0 ] || lrc=1
	"$GPUHIST" -b -f tsv --threads=4 "$file" >par 2>par.err
	echo $? >>par.err
	"$GPUHIST" -b -f tsv --threads=1 "$file" >ser 2>ser.err
	echo $? >>ser.err
	"$GPUHIST" -b -f tsv --threads=4 <"$file" >pipe 2>pipe.err
	echo $? >>pipe.err
	local same=same
	cmp -s par ser && cmp -s par.err ser.err || same=differ
	[ "$lrc" = 0 ] && ! { sed 1d par | cut -f2- | cmp -s - <(counts --raw plain); } &&
		same="$same, not lz4's counts"
	is "$desc: 4 threads, one and a pipe say the same; lz4 -dc $([ $lrc = 0 ] && echo decodes || echo refuses) it" \
		"$same:$(tail -n 1 par.err):$(tail -n 1 pipe.err)" "same:$lrc:$lrc"
}

# lz4x.py MODE IN OUT: lz4's file IN changed as MODE says (the descriptor's
# checksum made right again where its fields change).
cat >lz4x.py <<'PY'
import struct, sys
def xxh32_short(b):
    # XXH32, seed 0, of fewer than 16 bytes: a descriptor's fields.
    P1, P2, P3, P4, P5 = 2654435761, 2246822519, 3266489917, 668265263, 374761393
    M = 0xffffffff
    rot = lambda x, r: ((x << r) | (x >> (32 - r))) & M
    h = (P5 + len(b)) & M
    i = 0
    while i + 4 <= len(b):
        h = rot((h + struct.unpack("<I", b[i:i+4])[0] * P3) & M, 17) * P4 & M
        i += 4
    while i < len(b):
        h = rot((h + b[i] * P5) & M, 11) * P1 & M
        i += 1
    h ^= h >> 15; h = h * P2 & M; h ^= h >> 13; h = h * P3 & M; h ^= h >> 16
    return h
mode, src, dst = sys.argv[1:4]
d = bytearray(open(src, "rb").read()) if src != "-" else bytearray()
if mode in ("size+1", "size0"):
    # The content's size (bytes 6-13): one more than it is, or 0, which
    # liblz4 reads as no size given.
    n = struct.unpack("<Q", d[6:14])[0] + 1 if mode == "size+1" else 0
    d[6:14] = struct.pack("<Q", n)
    d[14] = (xxh32_short(bytes(d[4:14])) >> 8) & 0xff
elif mode == "empty-stored":
    # A stored block of no bytes after the first block (no checksums).
    at = 7 + 4 + (struct.unpack("<I", d[7:11])[0] & 0x7fffffff)
    d[at:at] = struct.pack("<I", 0x80000000)
elif mode == "tiny":
    # 5000 stored blocks of one byte each, no checksums.
    fd = bytes([0x60, 0x40])
    d = bytearray(struct.pack("<I", 0x184D2204) + fd +
                  bytes([(xxh32_short(fd) >> 8) & 0xff]))
    for i in range(5000):
        d += struct.pack("<I", 0x80000001) + b"xyz\n"[i % 4:i % 4 + 1]
    d += b"\0\0\0\0"
open(dst, "wb").write(d)
PY

plan 34

counts --raw text >want
for f in b4.lz4 b5.lz4; do
	counts --threads=4 $f >got
	is "$f on 4 threads: lz4 -dc's counts, a block a thread" \
		"$(cmp -s got want && echo same):$(decoded_by $f)" \
		"same:by 4 threads: $([ $f = b4.lz4 ] && echo 39 || echo 10) blocks in 1 frame"
done
counts --threads=2 b4.lz4 >got
same_file "... on 2 threads: the same counts" got want
counts --threads=4 <b4.lz4 >got
same_file "... through a pipe (in order): the same counts" got want

# What the frame may carry: block checksums, no content checksum, the
# content's size; each checked on the way.
lz4 -q -c -B4 -BX text >bx.lz4
lz4 -q -c -B4 --no-frame-crc text >nocrc.lz4
lz4 -q -c -B4 --content-size text >size.lz4
for f in bx.lz4 nocrc.lz4 size.lz4; do
	counts --threads=4 $f >got
	is "$f (block checksums / no content checksum / content size): lz4 -dc's counts, in parallel" \
		"$(cmp -s got want && echo same):$(decoded_by $f)" \
		"same:by 4 threads: 39 blocks in 1 frame"
done

# Linked blocks need the bytes before them, a legacy frame has no
# checksums to split by, one block is one piece: in order.
lz4 -q -c -B4 -BD text >bd.lz4
lz4 -q -c -l text >legacy.lz4
head -c 50000 text | lz4 -q -c -B4 >one.lz4
for f in bd.lz4 legacy.lz4 one.lz4; do
	"$GPUHIST" -b -f tsv --threads=4 $f | sed 1d | cut -f2- >got
	lz4 -dc $f | counts --raw >want1
	is "$f (linked blocks / legacy frame / one block): liblz4 in order, lz4's counts" \
		"$(cmp -s got want1 && echo same):$(decoded_by $f)" "same:with liblz4"
done

# Every view across blocks, in 16 KiB chunks, decoded in parallel (the
# tokens joined piece by piece): as the text itself.
for view in -m -t --lines "--field=2" "-m -c"; do
	"$GPUHIST" $view -v -f tsv --threads=4 --chunk-size=16K u.lz4 \
		2>err | sed 1d | cut -f2- >got
	"$GPUHIST" $view -f tsv --threads=1 utf8 | sed 1d | cut -f2- >want1
	is "$view across 23 blocks cut inside characters and tokens, a block a thread: as the text itself" \
		"$(cmp -s got want1 && echo same):$(grep -c 'decoded by 4 threads: 23 blocks' err)" \
		"same:1"
done

# -s needs each chunk's offset, which blocks do not give: decoded in order.
"$GPUHIST" -s -f json --threads=4 -v u.lz4 2>err | sed 's/"u.lz4"/"x"/' >got
"$GPUHIST" -s -f json utf8 | sed 's/"utf8"/"x"/' >want1
is "-s: decoded serially, saying why; ent's figures as the text's" \
	"$(grep -c 'its blocks do not say their size, which -s needs' err):$(cmp -s got want1 && echo same)" \
	"1:same"

# Frames joined: two block sizes, an empty frame, a skippable frame.
: | lz4 -q -c >empty.lz4
printf '\x50\x2a\x4d\x18\x05\x00\x00\x00hello' >skip.lz4
cat b4.lz4 empty.lz4 skip.lz4 u.lz4 b5.lz4 >cat.lz4
cat text utf8 text | counts --raw >want1
counts --threads=4 cat.lz4 >got
is "five frames joined (one empty, one skippable): all counted, a block a thread" \
	"$(cmp -s got want1 && echo same):$(decoded_by cat.lz4)" \
	"same:by 4 threads: 72 blocks in 4 frames"

# A content size of 0 says nothing (liblz4 reads it so): in parallel.
python3 lz4x.py size0 size.lz4 size0.lz4
counts --threads=4 size0.lz4 >got
is "a content size field of 0: lz4 -dc's counts, in parallel" \
	"$(cmp -s got want && echo same):$(decoded_by size0.lz4)" \
	"same:by 4 threads: 39 blocks in 1 frame"
# A stored block of no bytes (an end mark to liblz4 before 1.9.3) and
# blocks far smaller than lz4 writes: the serial decoder's, in order.
python3 lz4x.py empty-stored nocrc.lz4 e0.lz4
python3 lz4x.py tiny - tiny.lz4
for f in e0.lz4 tiny.lz4; do
	is "$f (an empty stored block / 5000 blocks of one byte): liblz4 in order" \
		"$(decoded_by $f)" "with liblz4"
	same_verdict "... $f" $f
done

# Bad files: the serial decoder's verdict, lz4's.
size=$(stat -c %s b4.lz4)
flip b4.lz4 4 >h1.lz4
same_verdict "a byte flipped in the descriptor's flags" h1.lz4
flip b4.lz4 6 >h2.lz4
same_verdict "a byte flipped in the descriptor's checksum" h2.lz4
flip b4.lz4 20 >f1.lz4
same_verdict "a byte flipped in the first block" f1.lz4
flip b4.lz4 $((size / 2)) >f2.lz4
same_verdict "a byte flipped in a block in the middle" f2.lz4
flip b4.lz4 $((size - 2)) >f3.lz4
same_verdict "a byte flipped in the content checksum" f3.lz4
bsize=$(stat -c %s bx.lz4)
flip bx.lz4 $((bsize / 2)) >f4.lz4
same_verdict "a byte flipped where blocks have checksums" f4.lz4
lz4 -q -c -B4 --content-size utf8 >usize.lz4
lz4 -q -c -B4 --content-size utf8 >usize.lz4
python3 lz4x.py size+1 usize.lz4 wrong.lz4
same_verdict "a content size one byte more than the blocks hold" wrong.lz4
head -c $((size / 2)) b4.lz4 >cut.lz4
same_verdict "the file cut in the middle of a block" cut.lz4
head -c $((size - 6)) b4.lz4 >cut2.lz4
same_verdict "the file cut inside the end mark" cut2.lz4
(cat b4.lz4; printf 'garbage after it') >tail.lz4
same_verdict "garbage after the frame" tail.lz4

# A sweep: a byte flipped every 1/20 of the file.
bad=0
for k in $(seq 1 19); do
	flip b4.lz4 $((size * k / 20)) >sw.lz4
	lz4 -dc sw.lz4 >plain 2>/dev/null
	lrc=$?
	"$GPUHIST" -b -f tsv --threads=4 sw.lz4 >par 2>/dev/null
	grc=$?
	[ $lrc = 0 ] || lrc=1
	if [ $grc != $lrc ] ||
	   { [ $lrc = 0 ] && ! sed 1d par | cut -f2- | cmp -s - <(counts --raw plain); }; then
		bad=$((bad + 1))
	fi
done
is "a byte flipped at each 5% of the file: lz4 -dc's verdict and counts every time" "$bad" 0

# A good input beside a bad one: counted right, the bad one named, exit 1.
"$GPUHIST" -b -f tsv --threads=4 b4.lz4 f2.lz4 >out 2>err
rc=$?
grep "^b4.lz4	" out | cut -f2- >got
is "a good file beside a bad one: its counts, the bad one named, exit 1" \
	"$rc:$(cmp -s got want && echo same):$(grep -c '^gpuhist: f2.lz4: ' err)" "1:same:1"
