#!/bin/sh
# t2001-gzip.t - gzip by magic bytes, members, stdin, --raw, empty, odd bytes
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_cmd python3
need_cmd gzip

plan 23

gendata 51 200000 >"$TMP/text"
gendata 52 50000 >"$TMP/text2"
gzip -6c "$TMP/text" >"$TMP/text.gz"
gzip -1c "$TMP/text2" >"$TMP/text2.gz"
cd "$TMP" || exit 1

# same_as_gzip DESCRIPTION VIEW FILE: gpuhist on FILE through stdin equals
# the oracle's counts of the bytes `gzip -dc FILE` gives.
same_as_gzip() {
	gzip -dc "$3" | oracle --raw $2 - >want
	"$GPUHIST" $2 -f tsv <"$3" >got
	same_file "$1 (stdin)" got want
}

"$GPUHIST" -b -f tsv text.gz >got
oracle -b text.gz >want
same_file "a gzip file is decoded (Python's gzip agrees)" got want
same_as_gzip "gzip on stdin: cat f.gz | gpuhist" -b text.gz

cat text.gz text2.gz >two.gz
same_as_gzip "two members: counted as gzip -dc decodes them" -b two.gz
"$GPUHIST" -f tsv -c two.gz | sed 1d | cut -f3 >got
"$GPUHIST" -f tsv -c text text2 | sed -n 's/^total	//p' | cut -f2 >want
same_file "two members: the sum of both files" got want

: >empty
i=0
rm -f many.gz
while [ $i -lt 40 ]; do
	head -c $((i * 997)) text | gzip -c >>many.gz
	[ $i = 20 ] && gzip -c empty >>many.gz
	i=$((i + 1))
done
same_as_gzip "41 members, one of them empty" -c many.gz
"$GPUHIST" -c -f tsv many.gz >got
oracle -c many.gz >want
same_file "41 members, as a file" got want

# --raw counts the compressed bytes as they are.
"$GPUHIST" --raw -b -f tsv text.gz >got
oracle --raw -b text.gz >want
same_file "--raw: the compressed bytes are counted" got want
is "--raw: bytes read is the file's size" \
	"$("$GPUHIST" --raw -f json text.gz | python3 -c 'import json, sys
print(json.load(sys.stdin)["total"]["bytes_read"])')" \
	"$(wc -c <text.gz | tr -d ' ')"
"$GPUHIST" --raw -b -f tsv <text.gz >got
oracle --raw -b <text.gz >want
same_file "--raw on stdin" got want

# Empty inputs.
run_gh -b -f tsv empty
is "an empty file: exit 0, 256 rows of 0" \
	"$rc:$(sed 1d "$TMP/out" | cut -f3 | sort -u)" "0:0"
"$GPUHIST" <empty >got
is "empty stdin: 0 read, 0 counted, entropy 0" \
	"$(tail -3 got | tr -s ' ')" "bytes read 0
bytes counted 0
entropy 0.000000 bits per byte"
gzip -c empty >empty.gz
run_gh -c -f json empty.gz
is "an empty gzip file: exit 0, 0 bytes read" "$rc:$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))["total"]
print(d["bytes_read"], d["counted"], sum(d["histogram"]))' "$TMP/out")" "0:0 0 0"

# NUL and 0xff bytes, plain and in gzip.
printf '\000\000\377 a\000\377\377' >odd
gzip -c odd >odd.gz
for f in odd odd.gz; do
	"$GPUHIST" -b -f tsv $f | awk -F'\t' 'NR > 1 && $3 != 0 { print $2 ":" $3 }' >got
	is "$f: NUL and 0xff counted" "$(cat got | tr '\n' ' ')" \
		"0:3 32:1 97:1 255:3 "
done
"$GPUHIST" -c -f tsv odd >got
oracle -c odd >want
same_file "NUL is a control byte, 0xff a high one" got want

# Header fields gzip may write: FEXTRA, FNAME, FCOMMENT, FHCRC.
python3 -c '
import struct, sys, zlib
data = open("text2", "rb").read()
c = zlib.compressobj(9, zlib.DEFLATED, -15)
body = c.compress(data) + c.flush()
hdr = b"\x1f\x8b\x08\x1e" + struct.pack("<I", 0) + b"\x00\x03"
hdr += struct.pack("<H", 6) + b"AB\x02\x00xy"          # FEXTRA
hdr += b"name.txt\x00" + b"a comment\x00"              # FNAME, FCOMMENT
hdr += struct.pack("<H", zlib.crc32(hdr) & 0xffff)      # FHCRC
sys.stdout.buffer.write(hdr + body + struct.pack("<II",
    zlib.crc32(data), len(data)))' >flags.gz
same_as_gzip "a header with extra field, name, comment and header CRC" -b \
	flags.gz

# Zero bytes after the last member are padding to gzip -dc, and here.
cp text2.gz padded.gz
head -c 1000 /dev/zero >>padded.gz
run_gh -b -f tsv padded.gz
gzip -dc padded.gz 2>/dev/null | oracle --raw -b - | sed 's/^-	/padded.gz	/' >want
is "zero padding after the last member: exit 0, counted as gzip -dc" \
	"$rc:$(cmp -s "$TMP/out" want && echo same)" "0:same"

# Detection is by content, not by name.
cp text.gz looks-plain.txt
cp text2 looks-gzip.gz
"$GPUHIST" -f tsv looks-plain.txt looks-gzip.gz >got
oracle looks-plain.txt looks-gzip.gz >want
same_file "gzip found by magic bytes, not by the name" got want
printf '\037abc' >starts-1f
printf '\037' >just-1f
"$GPUHIST" -b -f tsv starts-1f just-1f >got
oracle -b starts-1f just-1f >want
same_file "0x1f without 0x8b is plain text" got want
gzip -c text.gz >double.gz
same_as_gzip "gzip inside gzip: one layer is decoded" -b double.gz

# Bigger, more repetitive data: many decoder refills and chunks.
i=0
while [ $i -lt 8 ]; do cat text text2; i=$((i + 1)); done >big
gzip -9c big >big.gz
"$GPUHIST" -c -f tsv big.gz >got
oracle -c big.gz >want
same_file "2 MB in gzip -9" got want

# Where one member ends and the next begins (or zero padding does) at
# every offset around 256 KiB, a common size of reads: an extra field in
# the first member's header puts its end there.
python3 -c '
import random, struct, sys, zlib
rng = random.Random(7)
data = bytes(rng.randrange(256) for _ in range(230000))
c = zlib.compressobj(6, zlib.DEFLATED, -15)
body = c.compress(data) + c.flush()
tail = struct.pack("<II", zlib.crc32(data), len(data))
second = zlib.compress(b"second member\n" * 100, wbits=31)
for end in range(262136, 262156):
    xlen = end - 12 - len(body) - 8
    first = (b"\x1f\x8b\x08\x04" + bytes(6) + struct.pack("<H", xlen) +
             bytes(xlen) + body + tail)
    assert len(first) == end
    open("edge-%d.gz" % end, "wb").write(first + second)
    open("edge-%d-pad.gz" % end, "wb").write(first + bytes(9))'
"$GPUHIST" -c -f tsv edge-*[0-9].gz >got
oracle -c edge-*[0-9].gz >want
same_file "a second member starting at each offset around 256 KiB" got want
"$GPUHIST" -c -f tsv edge-*-pad.gz >got
oracle -c edge-*-pad.gz >want
same_file "zero padding starting at each offset around 256 KiB" got want
