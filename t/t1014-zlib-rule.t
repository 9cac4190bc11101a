#!/bin/sh
# t1014-zlib-rule.t - the one rule for gzip data is zlib's: two hand-made
# streams that gzip 1.12 decodes and zlib refuses (a fixed block whose
# first match reaches back before any output; a dynamic block whose
# code-length codes begin with a repeat) are refused with zlib's words,
# as the man page says, on a file, a pipe and either inflater (issue
# "What users see", item 11)
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_cmd python3

plan 4

cd "$TMP" || exit 1
python3 - "$T_SRCDIR" <<'PY' || exit 1
import sys
sys.path.insert(0, sys.argv[1])
from mkdeflate import Bits, PRECODE_ORDER, member

# A last fixed block: length 3 at distance 1 first, then the end of block.
w = Bits(); w.put(1, 1); w.put(1, 2)
w.code(0b0000001, 7); w.code(0, 5); w.code(0, 7)
open("far.gz", "wb").write(member(w.bytes(), b"\0\0\0"))
# A last dynamic block whose code-length code gives 16 (repeat) 1 bit and
# 0 and 8 two bits each, and whose first code length is a repeat.
w = Bits(); w.put(1, 1); w.put(2, 2); w.put(0, 5); w.put(0, 5); w.put(15, 4)
lengths = {16: 1, 0: 2, 8: 2}
for s in PRECODE_ORDER:
    w.put(lengths.get(s, 0), 3)
w.code(0, 1); w.put(3, 2); w.put(0, 64)
open("repeat.gz", "wb").write(member(w.bytes(), b""))
PY

for f in far.gz repeat.gz; do
	want=$(python3 -c 'import sys, zlib
try:
    zlib.decompressobj(31).decompress(open(sys.argv[1], "rb").read())
    print("ok")
except zlib.error as e:
    print(str(e).split(": ", 1)[1])' "$f")
	command -v gzip >/dev/null &&
		diag "$f: gzip -dc exits $(gzip -dc "$f" >/dev/null 2>&1; echo $?), zlib says: $want"
	got=$("$GPUHIST" -b "$f" 2>&1 >/dev/null; echo "exit $?")
	got="$got|$("$GPUHIST" -b - <"$f" 2>&1 >/dev/null; echo "exit $?")"
	got="$got|$(GPUHIST_INFLATE=zlib "$GPUHIST" -b --threads=1 "$f" 2>&1 >/dev/null; echo "exit $?")"
	is "$f: refused with zlib's verdict on a file, a pipe, and with zlib" \
		"$got" "gpuhist: $f: corrupt gzip data ($want)
exit 1|gpuhist: -: corrupt gzip data ($want)
exit 1|gpuhist: $f: corrupt gzip data ($want)
exit 1"
	case $f in
	far.gz) is "far.gz: zlib's verdict is the one the man page names" \
			"$want" "invalid distance too far back" ;;
	repeat.gz) is "repeat.gz: zlib's verdict is the one the man page names" \
			"$want" "invalid bit length repeat" ;;
	esac
done
