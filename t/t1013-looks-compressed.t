#!/bin/sh
# t1013-looks-compressed.t - data that only starts like gzip (random bytes
# do, one file in 65,536) is refused with zlib's verdict and a hint that
# --raw counts its bytes as they are, however it arrives; a real gzip file
# corrupt after its header keeps the verdict alone (issue "What users
# see", item 5)
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_cmd python3
need_cmd gzip

plan 6

cd "$TMP" || exit 1
python3 -c 'import random, sys
r = random.Random(5)
head = bytes([0x1f, 0x8b, r.choice([c for c in range(256) if c != 8])])
sys.stdout.buffer.write(head + r.randbytes(100000))' >r.bin
hint='corrupt gzip data (unknown compression method); to count its bytes as they are, use --raw'

"$GPUHIST" -s r.bin >out 2>err
is "random bytes after gzip's magic: exit 1, zlib's verdict and the --raw hint" \
	"$?:$(cat err):$(wc -c <out)" "1:gpuhist: r.bin: $hint:0"
"$GPUHIST" -s - <r.bin >out 2>err
is "the same through a pipe" "$?:$(cat err)" "1:gpuhist: -: $hint"
GPUHIST_INFLATE=zlib "$GPUHIST" -b r.bin >out 2>err
is "the same with zlib's inflater" "$?:$(cat err)" "1:gpuhist: r.bin: $hint"
"$GPUHIST" --raw -b -f tsv --total=only r.bin >out 2>err
is "--raw counts it: every byte" \
	"$?:$(awk -F '\t' 'NR > 1 { s += $3 } END { print s }' out)" "0:100003"

# A gzip file decoded a while before its data goes wrong: no hint.
gen log 200000 >text
gzip -c text >good.gz
python3 -c 'import sys
d = bytearray(open("good.gz", "rb").read())
for i in range(len(d) // 2, len(d) // 2 + 16):
    d[i] ^= 0xff
open("bad.gz", "wb").write(d)'
"$GPUHIST" bad.gz >out 2>err
like "corrupt after its header: the verdict alone" "$?:$(cat err)" \
	'^1:gpuhist: bad\.gz: corrupt gzip data \([a-z /]*\)$'
# A second member that only starts like gzip: data came out, so no hint.
cat good.gz r.bin >second.gz
"$GPUHIST" second.gz >out 2>err
is "a bad second header: the verdict alone" "$?:$(cat err)" \
	"1:gpuhist: second.gz: corrupt gzip data (unknown compression method)"
