#!/bin/bash
# t2302-bgzf.t - BGZF (bgzip: members of at most 64 KiB that carry their
# size) decoded on several threads: gzip -dc's bytes and verdict, every
# view across regions, and the serial verdict wherever a member is bad,
# cut, followed by garbage, not BGZF, or lies about its size
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_cmd python3
need_cmd bgzip

cd "$TMP" || exit 1
export GPUHIST_GZIP_REGION=65536
gendata 23 3000000 >text
python3 "$T_SRCDIR/gentext.py" mixed 9 2000000 >utf8
bgzip -c text >t.gz
bgzip -c utf8 >u.gz

# counts ARGS...: byte counts, the name column dropped.
counts() { "$GPUHIST" -b -f tsv "$@" 2>/dev/null | sed 1d | cut -f2-; }

# same_verdict DESCRIPTION FILE: 4 threads and the serial path (one
# thread) agree on FILE: exit status, messages, counts; and both agree
# with gzip -dc on whether it decodes.
same_verdict() {
	local desc=$1 file=$2 zrc
	gzip -dc "$file" >/dev/null 2>&1
	zrc=$?
	"$GPUHIST" -b -f tsv --threads=4 "$file" >par 2>par.err
	echo $? >>par.err
	"$GPUHIST" -b -f tsv --threads=1 "$file" >ser 2>ser.err
	echo $? >>ser.err
	is "$desc: 4 threads and one say the same; gzip -dc $([ $zrc = 0 ] && echo decodes || echo refuses) it" \
		"$(cmp -s par ser && cmp -s par.err ser.err && echo same):$(tail -n 1 par.err)" \
		"same:$([ $zrc = 0 ] && echo 0 || echo 1)"
}

plan 13

gzip -dc t.gz >plain
counts --raw plain >want
counts --threads=4 t.gz >got
"$GPUHIST" -v -b --threads=4 t.gz 2>&1 >/dev/null | grep 'decoded' >how
is "BGZF, 4 threads, many regions: gzip -dc's counts, decoded in parallel" \
	"$(cmp -s got want && echo same):$(grep -c 'decoded by 4 threads' how)" "same:1"
cat t.gz | counts >got
same_file "... through a pipe (in order): the same counts" got want

for view in -m -s "-m -s"; do
	"$GPUHIST" $view -f json --threads=4 u.gz | sed 's/"u.gz"/"x"/' >got
	"$GPUHIST" $view -f json --threads=1 utf8 | sed 's/"utf8"/"x"/' >want
	same_file "$view across regions split anywhere: as the text itself" got want
done

# Bad data: a member's deflate data flipped in the middle, the file cut,
# garbage after the last member, a member that is not BGZF after them, a
# member whose size field lies.
python3 - <<'PY'
d = open("t.gz", "rb").read()
def members(d):
    at, out = 0, []
    while at < len(d):
        size = d[at + 16] | d[at + 17] << 8
        out.append((at, size + 1)); at += size + 1
    return out
m = members(d)
mid = m[len(m) // 2]
b = bytearray(d); b[mid[0] + 40] ^= 0x55
open("flip.gz", "wb").write(b)
open("cut.gz", "wb").write(d[:mid[0] + 100])
open("garbage.gz", "wb").write(d + b"garbage")
import gzip
open("plainmember.gz", "wb").write(d[:m[-1][0]] + gzip.compress(b"plain gzip member\n" * 100, mtime=0) + d[m[-1][0]:])
b = bytearray(d); b[mid[0] + 16] ^= 0x01
open("liar.gz", "wb").write(b)
PY
same_verdict "a corrupt member in the middle" flip.gz
same_verdict "cut inside a member" cut.gz
same_verdict "garbage after the last member" garbage.gz
same_verdict "a plain gzip member among them" plainmember.gz
same_verdict "a member whose size field lies" liar.gz

# Members the parallel path decodes one by one with the serial inflater
# (ISA-L, its block headers judged by zlib's rules): a member whose
# Huffman code zlib refuses (CRC right) in the middle; and one whose
# declared size (ISIZE) is not what it decodes to.
python3 "$T_SRCDIR/mkdeflate.py" . || exit 1
python3 - <<'PY'
import struct, zlib
d = open("t.gz", "rb").read()
def members(d):
    at, out = 0, []
    while at < len(d):
        size = d[at + 16] | d[at + 17] << 8
        out.append(d[at:at + size + 1]); at += size + 1
    return out
def bgzf(deflate, crc, isize):
    size = 18 + len(deflate) + 8
    return (b"\x1f\x8b\x08\x04\0\0\0\0\0\xff\x06\0BC\x02\0" +
            struct.pack("<H", size - 1) + deflate +
            struct.pack("<II", crc, isize))
m = members(d)
bad = open("incomplete-litlen.gz", "rb").read()
body, crc, isize = bad[10:-8], *struct.unpack("<II", bad[-8:])
mid = len(m) // 2
open("code.gz", "wb").write(b"".join(m[:mid]) + bgzf(body, crc, isize) +
                            b"".join(m[mid:]))
good = m[mid]
body, crc, isize = good[18:-8], *struct.unpack("<II", good[-8:])
open("isize.gz", "wb").write(b"".join(m[:mid]) +
                             bgzf(body, crc, isize + 1) + b"".join(m[mid + 1:]))
PY
same_verdict "a member whose Huffman code zlib refuses, in the middle" code.gz
"$GPUHIST" -b --threads=4 code.gz >/dev/null 2>err
like "... refused with zlib's message" "$(cat err)" \
	'corrupt gzip data \(invalid literal/lengths set\)'
same_verdict "a member whose ISIZE is one more than it decodes to" isize.gz
