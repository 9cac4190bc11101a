#!/bin/sh
# t2010-huffman-codes.t - the verdict on Huffman codes is zlib's whichever
# inflater runs: incomplete literal/length, distance and code-length codes
# are refused (ISA-L alone would take them), a single one-bit code is not;
# on files and pipes, with one thread and several, and when the parallel
# decoder gives up and the file is decoded again.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_cmd python3
need_cmd gzip
need_cmd python3

plan 24

cd "$TMP" || exit 1
python3 "$T_SRCDIR/mkdeflate.py" . || exit 1
# The report's example: 33 bytes, CRC valid, an incomplete code.
echo 1f8b080000000000000305c0010900000083b0acda3f84c3006d48839e02000000 |
	python3 -c 'import sys; sys.stdout.buffer.write(bytes.fromhex(sys.stdin.read()))' >issue.gz
gendata 29 3000000 >text
gzip -6c text >good.gz
# The bad member after 3 MB of good text: read through the 1 MiB ring
# more than once, and big enough for the parallel decoder.
cat good.gz incomplete-litlen.gz >late.gz
# Two faults: the first in the stream gives the message, as in zlib.
python3 - <<'PY'
data = open("good.gz", "rb").read()
badcrc = data[:-8] + bytes([data[-8] ^ 1]) + data[-7:]
bad = open("incomplete-litlen.gz", "rb").read()
open("crc-first.gz", "wb").write(badcrc + bad)
open("code-first.gz", "wb").write(bad + badcrc)
PY
cat single-litlen.gz good.gz single-dist.gz >singles.gz

# zlib's verdict on each, member after member: "ok" or its reason.
cat >verdict.py <<'PY'
import sys, zlib
for name in sys.argv[1:]:
    data, why = open(name, "rb").read(), "ok"
    while data and why == "ok":
        d = zlib.decompressobj(31)
        try:
            d.decompress(data)
            if not d.eof:
                why = "unexpected end of file"
        except zlib.error as e:
            why = str(e).split(": ", 1)[1]
        data = d.unused_data
    print(name, why)
PY
bad="issue.gz incomplete-litlen.gz incomplete-dist.gz incomplete-precode.gz late.gz crc-first.gz code-first.gz"
python3 verdict.py $bad single-dist.gz single-litlen.gz singles.gz >zlib.verdict
is "Python's zlib refuses each bad stream and takes the single one-bit codes" \
	"$(cut -d' ' -f2- zlib.verdict | tr '\n' '|')" \
	"invalid literal/lengths set|invalid literal/lengths set|invalid distances set|invalid code lengths set|invalid literal/lengths set|incorrect data check|invalid literal/lengths set|ok|ok|ok|"
fails=0
for f in $bad; do
	gzip -dc "$f" >/dev/null 2>&1 || fails=$((fails + 1))
done
is "gzip -dc refuses each bad stream too" $fails 7

# Every way one input is read serially: a file with default and with one
# thread, a pipe with both; "rc message" each, one line a way.
ways() {
	for threads in "" --threads=1; do
		"$GPUHIST" $threads -b "$1" >/dev/null 2>err
		echo "$? $(cat err)"
		cat "$1" | "$GPUHIST" $threads -b >/dev/null 2>err
		echo "$? $(cat err)" | sed 's/gpuhist: -: /gpuhist: PIPE: /'
	done
}

for f in $bad; do
	why=$(grep "^$f " zlib.verdict | cut -d' ' -f2-)
	want=$(printf '%s\n%s\n%s\n%s\n' \
		"1 gpuhist: $f: corrupt gzip data ($why)" \
		"1 gpuhist: PIPE: corrupt gzip data ($why)" \
		"1 gpuhist: $f: corrupt gzip data ($why)" \
		"1 gpuhist: PIPE: corrupt gzip data ($why)")
	is "$f: refused as zlib does (file, pipe, 1 and default threads)" \
		"$(ways "$f")" "$want"
	is "$f: the same with GPUHIST_INFLATE=zlib" \
		"$(GPUHIST_INFLATE=zlib; export GPUHIST_INFLATE; ways "$f")" "$want"
done

# The parallel decoder refuses late.gz and gives up; the file is decoded
# again from its start, by zlib, whose verdict stands.
GPUHIST_GZIP_REGION=65536 "$GPUHIST" --threads=4 -v -b late.gz >/dev/null 2>err
echo $? >rc
is "parallel decoder gives up: exit 1, zlib's message" \
	"$(cat rc) $(grep 'corrupt gzip data' err)" \
	"1 gpuhist: late.gz: corrupt gzip data (invalid literal/lengths set)"
like "-v says the file was decoded again with zlib" "$(cat err)" \
	'late.gz: the parallel gzip decoder gave up; decoding serially with zlib'

# Single one-bit codes are valid: counted as zlib decodes them, each way.
for f in single-dist.gz single-litlen.gz singles.gz; do
	python3 - "$f" <<'PY' >want.tsv
import sys, zlib
data, out = open(sys.argv[1], "rb").read(), b""
while data:
    d = zlib.decompressobj(31)
    out += d.decompress(data)
    data = d.unused_data
hist = [0] * 256
for b in out:
    hist[b] += 1
print("input\tbin\tcount")
for v in range(256):
    print("%s\t%d\t%d" % (sys.argv[1], v, hist[v]))
PY
	got=""
	for engine in isal zlib; do
		for threads in "" --threads=1; do
			GPUHIST_INFLATE=$engine "$GPUHIST" $threads -b -f tsv "$f" >out 2>err &&
				cmp -s out want.tsv && ! test -s err && got="${got}ok " ||
				got="${got}differs "
			cat "$f" | GPUHIST_INFLATE=$engine "$GPUHIST" $threads -b -f tsv |
				sed "s/^-/$f/" >out 2>err &&
				cmp -s out want.tsv && ! test -s err && got="${got}ok " ||
				got="${got}differs "
		done
	done
	is "$f: taken and counted as zlib decodes it, every way" "$got" \
		"ok ok ok ok ok ok ok ok "
done

# A stored block after a Huffman block (gzip -1 turns incompressible bytes
# into stored blocks): the marked decoder once kept bits of the stored
# bytes' first byte in its bit buffer, read them into the next block's
# header, and refused the valid file (trailing garbage) beside ISA-L, and
# gave up in parallel.
python3 "$T_SRCDIR/gentext.py" mixed 7 400000 >stored.in
python3 "$T_SRCDIR/gentext.py" random 7 400000 >>stored.in
gzip -1 -c stored.in >stored.gz
"$GPUHIST" -b -f tsv <stored.in | sed 1d | cut -f2,3 >want
"$GPUHIST" -b -f tsv --threads=1 stored.gz | sed 1d | cut -f2,3 >got
same_file "stored blocks after Huffman blocks: counted, one thread" got want
GPUHIST_GZIP_REGION=65536 "$GPUHIST" -b -f tsv -v --threads=4 stored.gz \
	2>err | sed 1d | cut -f2,3 >got
same_file "... and in parallel" got want
like "... without giving up" "$(cat err)" "gzip decoded by 4 threads"
