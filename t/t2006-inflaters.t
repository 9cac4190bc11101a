#!/bin/sh
# t2006-inflaters.t - ISA-L and zlib decode gzip to the same totals, and both
# refuse the same corrupt input; -v says which one ran.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_cmd python3
need_cmd gzip

printf 'x' | gzip -c | "$GPUHIST" -v 2>&1 >/dev/null | grep -q 'with isa-l' ||
	skip_all "gpuhist was built without ISA-L"

plan 11

cd "$TMP" || exit 1
gendata 61 3000000 >text
gzip -6c text >one.gz
head -c 1000000 text | gzip -1c >two.gz
tail -c +1000001 text | gzip -9c >>two.gz
gzip -c </dev/null >>two.gz
# A member whose last block ends exactly where a read ends, and many
# small members, so the read-ahead ISA-L hands back crosses refills.
i=0
while [ $i -lt 300 ]; do
	head -c $((i * 331 + 1)) text | gzip -c >>many.gz
	i=$((i + 1))
done
ls /usr/share/man/man1/*.gz 2>/dev/null | sort | awk 'NR % 40 == 1' | head -25 >real.list

for engine in isal zlib; do
	GPUHIST_INFLATE=$engine "$GPUHIST" -b -f json one.gz two.gz many.gz \
		$(cat real.list) >$engine.json 2>$engine.err
	echo $? >$engine.status
done
same_file "ISA-L and zlib: the same totals on gzip, multi-member and real files" \
	isal.json zlib.json
is "both exit 0" "$(cat isal.status) $(cat zlib.status)" "0 0"
python3 - one.gz two.gz many.gz $(cat real.list) <<'PY' >want.tsv
import gzip, json, sys
doc = json.load(open("isal.json"))
for name, entry in zip(sys.argv[1:], doc["inputs"]):
    data = gzip.open(name).read()
    hist = [0] * 256
    for b in data:
        hist[b] += 1
    print(name, "ok" if hist == entry["histogram"] else "differs")
PY
grep -c ' ok$' want.tsv >got
echo $(( $(wc -l <real.list) + 3 )) >want
same_file "ISA-L's totals equal Python's gzip module on every file" got want

python3 - <<'PY'
data = open("one.gz", "rb").read()
def put(name, b): open(name, "wb").write(b)
put("badcrc.gz", data[:-8] + bytes([data[-8] ^ 1]) + data[-7:])
put("badlen.gz", data[:-2] + bytes([data[-2] ^ 1]) + data[-1:])
put("trunc.gz", data[: len(data) // 2])
mid = bytearray(data); mid[len(mid) // 3] ^= 0x10
put("flip.gz", bytes(mid))
PY
for engine in isal zlib; do
	GPUHIST_INFLATE=$engine "$GPUHIST" -b -f tsv badcrc.gz badlen.gz \
		trunc.gz flip.gz one.gz >$engine.out 2>$engine.err
	echo $? >$engine.status
done
is "ISA-L: every corrupt file fails (exit 1)" "$(cat isal.status)" 1
# Inputs are counted several at once, but messages come in operand order.
is "ISA-L: each corrupt file is named, in order" \
	"$(cut -d: -f1,2 isal.err | tr '\n' ' ')" \
	"gpuhist: badcrc.gz gpuhist: badlen.gz gpuhist: trunc.gz gpuhist: flip.gz "
is "ISA-L and zlib fail the same files for the same reasons" \
	"$(tr '\n' ' ' <isal.err)" "$(tr '\n' ' ' <zlib.err)"
same_file "ISA-L and zlib: the good file still counted the same" isal.out zlib.out
like "ISA-L names a bad CRC" "$(grep badcrc isal.err)" 'incorrect data check'

# Members whose headers carry long names and comments and a header CRC,
# so that some headers straddle the decoder's 256 KiB reads.
python3 - <<'PY'
import random, struct, zlib
rng = random.Random(7)
text = open("text", "rb").read()
out = bytearray()
for i in range(400):
    data = text[rng.randrange(100000):][: rng.randrange(1, 9000)]
    c = zlib.compressobj(6, zlib.DEFLATED, -15)
    body = c.compress(data) + c.flush()
    hdr = b"\x1f\x8b\x08\x1e" + struct.pack("<I", 0) + b"\x00\x03"
    extra = bytes(rng.randrange(256) for _ in range(rng.randrange(0, 300)))
    hdr += struct.pack("<H", len(extra)) + extra
    hdr += b"n" * rng.randrange(1, 4000) + b"\x00"
    hdr += b"c" * rng.randrange(1, 4000) + b"\x00"
    hdr += struct.pack("<H", zlib.crc32(hdr) & 0xffff)
    out += hdr + body + struct.pack("<II", zlib.crc32(data), len(data))
open("headers.gz", "wb").write(out)
PY
for engine in isal zlib; do
	GPUHIST_INFLATE=$engine "$GPUHIST" -b -f tsv headers.gz >$engine.out 2>&1
done
gzip -dc headers.gz | "$GPUHIST" --raw -b -f tsv | sed 's/^-/headers.gz/' >want.out
same_file "headers with every optional field, split across reads: ISA-L" isal.out want.out
same_file "headers with every optional field, split across reads: zlib" zlib.out want.out
printf 'x' | gzip -c | GPUHIST_INFLATE=zlib "$GPUHIST" -v 2>&1 >/dev/null |
	grep -q 'gzip decoded with zlib'
ok $? "GPUHIST_INFLATE=zlib chooses zlib, and -v says so"
