#!/bin/sh
# t2013-block-headers.t - ISA-L stopped at every deflate block, each header
# judged by zlib's rules: counts and verdicts equal zlib's however the
# bytes arrive (pipes written a few bytes at a time split headers across
# reads), with stored, fixed and dynamic blocks, members of one block and
# of hundreds, faults in a header after many good blocks, and faults in a
# block's data that only the decoder can see (zlib's message, where the
# block's codes say which code was missing).
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_cmd python3
need_cmd gzip

plan 13

cd "$TMP" || exit 1
python3 "$T_SRCDIR/mkdeflate.py" . || exit 1
gendata 31 600000 >text
gzip -6c text >six.gz
gzip -1c text >one.gz
# stored blocks between Huffman blocks, and a member of fixed blocks only
{ cat text; head -c 200000 /dev/urandom; cat text; } >mixed
gzip -1c mixed >stored.gz
python3 -c '
import sys, zlib
c = zlib.compressobj(6, zlib.DEFLATED, 31, 8, zlib.Z_FIXED)
sys.stdout.buffer.write(c.compress(sys.stdin.buffer.read()) + c.flush())' \
	<text >fixed.gz
# empty stored blocks (a sync flush) between every 4 KiB
python3 -c '
import sys, zlib
c, data, out = zlib.compressobj(6, zlib.DEFLATED, 31), sys.stdin.buffer.read(), b""
for i in range(0, len(data), 4096):
    out += c.compress(data[i:i + 4096]) + c.flush(zlib.Z_SYNC_FLUSH)
sys.stdout.buffer.write(out + c.flush())' <text >flushed.gz
cat six.gz one.gz fixed.gz >members.gz

# Writes FILE to standard output N bytes at a time, each its own write.
cat >drip.py <<'PY'
import os, sys
data, n = open(sys.argv[1], "rb").read(), int(sys.argv[2])
for i in range(0, len(data), n):
    os.write(1, data[i:i + n])
PY
# zlib's output, member after member, as gpuhist's tsv rows
cat >want.py <<'PY'
import sys, zlib
data, out = open(sys.argv[1], "rb").read(), b""
while data:
    d = zlib.decompressobj(31)
    out += d.decompress(data)
    data = d.unused_data
hist = [0] * 256
for b in out:
    hist[b] += 1
for v in range(256):
    print("%d\t%d" % (v, hist[v]))
PY

for f in six.gz one.gz stored.gz fixed.gz flushed.gz members.gz; do
	python3 want.py $f >want
	got=""
	"$GPUHIST" --threads=1 -b -f tsv $f 2>err | sed 1d | cut -f2,3 >out
	cmp -s out want && ! test -s err && got="${got}file " || got="${got}FILE "
	for n in 1 7 300; do
		python3 drip.py $f $n | "$GPUHIST" -b -f tsv 2>err |
			sed 1d | cut -f2,3 >out
		cmp -s out want && ! test -s err && got="${got}$n " ||
			got="${got}DIFFERS-$n "
	done
	is "$f: zlib's bytes, from a file and from pipes written 1, 7, 300 bytes at a time" \
		"$got" "file 1 7 300 "
done

# A header zlib refuses after hundreds of good blocks, and before them.
cat six.gz incomplete-dist.gz >late-dist.gz
cat six.gz incomplete-precode.gz six.gz >late-precode.gz
for f in late-dist.gz late-precode.gz; do
	why=$(python3 -c '
import sys, zlib
data, why = open(sys.argv[1], "rb").read(), "ok"
while data and why == "ok":
    d = zlib.decompressobj(31)
    try:
        d.decompress(data)
    except zlib.error as e:
        why = str(e).split(": ", 1)[1]
    data = d.unused_data
print(why)' $f)
	got=""
	for n in 5 100000; do
		python3 drip.py $f $n | "$GPUHIST" --threads=1 -b >/dev/null 2>err
		got="$got$? $(cat err)|"
	done
	is "$f: refused with zlib's message, the same however it arrives" \
		"$got" "1 gpuhist: -: corrupt gzip data ($why)|1 gpuhist: -: corrupt gzip data ($why)|"
done

# Faults in the data of a block whose header zlib takes: a code the block
# lacks.  A fixed block has literal/length codes 286 and 287 and distance
# codes 30 and 31, which no data may use; a block whose distance code is a
# single one-bit code lacks the other one-bit code.
cat >faults.py <<'PY'
import struct, zlib
class Bits:
    def __init__(self):
        self.bits = []
    def put(self, v, n):                # least significant bit first
        self.bits += [(v >> i) & 1 for i in range(n)]
    def code(self, c, n):               # Huffman codes: most significant first
        self.bits += [(c >> i) & 1 for i in range(n - 1, -1, -1)]
    def bytes(self):
        b = self.bits + [0] * (-len(self.bits) % 8)
        return bytes(sum(b[i + j] << j for j in range(8))
                     for i in range(0, len(b), 8))
def fixed(w, sym):
    if sym < 144: w.code(0x30 + sym, 8)
    elif sym < 256: w.code(0x190 + sym - 144, 9)
    elif sym < 280: w.code(sym - 256, 7)
    else: w.code(0xc0 + sym - 280, 8)
def member(raw, out):
    return (b"\x1f\x8b\x08\0\0\0\0\0\0\x03" + raw +
            struct.pack("<II", zlib.crc32(out), len(out)))
for name, tail in (("lit286", [286]), ("lit287", [287]),
                   ("dist30", [257, "d30"]), ("dist31", [257, "d31"])):
    w = Bits()
    w.put(1, 1); w.put(1, 2)
    for c in b"abc":
        fixed(w, c)
    for s in tail:
        if s == "d30": w.code(30, 5)
        elif s == "d31": w.code(31, 5)
        else: fixed(w, s)
    fixed(w, 256)
    open(name + ".gz", "wb").write(member(w.bytes(), b"abc"))
PY
python3 faults.py
cat six.gz lit286.gz >late-lit.gz
for f in lit286.gz lit287.gz dist30.gz dist31.gz late-lit.gz; do
	gzip -dc $f >/dev/null 2>&1
	zrc=$?
	"$GPUHIST" --threads=1 -b $f >/dev/null 2>err
	is "$f: refused as gzip -dc refuses it" \
		"$? $zrc $(grep -c 'corrupt gzip data' err)" "1 1 1"
done
