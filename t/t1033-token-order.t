#!/bin/bash
# t1033-token-order.t - the order of a tokens view's every row (most
# frequent first, equal counts in byte order, a prefix before what it
# starts) against Python's sort: tokens that share long prefixes, end at
# and around the 8-byte words the sort compares (token_order.c's
# multikey quicksort), hold NUL and other control bytes and bytes that
# are not UTF-8, tie by the thousand, and share 1,000 bytes; every row
# and --top's, in tsv, csv and json, in memory and spilled past --memory;
# --sort=bin's byte order; 300,000 rows sorted on several threads
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_cmd python3

cd "$TMP" || exit 1

plan 14

# Lines from a few stems of 40 bytes (NUL, \x01 and \xff among their
# bytes), cut at every length from 0 to 40, some with a tail; each line
# 1 to 3 times, shuffled.
python3 -c 'import random, sys
r = random.Random(1033)
abc = [b"a", b"b", b"\x00", b"\x01", b"\xff", b"z"]
stems = [b"".join(r.choice(abc) for _ in range(40)) for _ in range(6)]
stems += [b"2026-11-30 04:12:11 host app[1]: " + b"x" * 8]
lines = set()
for s in stems:
    for n in range(41):
        lines.add(s[:n])
        for _ in range(40):
            lines.add(s[:n] + b"".join(r.choice(abc) for _ in range(r.randrange(1, 12))))
out = []
for l in lines:
    out += [l] * r.choice((1, 1, 1, 2, 3))
r.shuffle(out)
sys.stdout.buffer.write(b"\n".join(out) + b"\n")' >stems

# want FILE TOP FORMAT [bin]: gpuhist --lines -f FORMAT [--top=TOP]
# [--sort=bin] FILE's rows by Python's sort (TOP 0: every row), escaped as
# tsv and csv show bytes (control bytes and bytes that are not UTF-8 as
# \xHH); json: the counts.
want() {
	python3 - "$@" <<'PY'
import collections, json, sys
path, top, fmt = sys.argv[1], int(sys.argv[2]), sys.argv[3]
c = collections.Counter(open(path, "rb").read().split(b"\n")[:-1])
rows = sorted(c.items(), key=lambda kv: (-kv[1], kv[0]))
shown = rows[:top] if top else rows
if sys.argv[4:] == ["bin"]:
    shown.sort()
def esc(b):
    return "".join(chr(x) if 0x20 <= x < 0x7f and x != 0x5c else
                   "\\\\" if x == 0x5c else "\\x%02x" % x for x in b)
if fmt == "json":
    print(json.dumps([[esc(k), n] for k, n in shown]))
    sys.exit()
sep = "\t" if fmt == "tsv" else ","
print(sep.join(("input", "token", "count")))
for k, n in shown:
    print(sep.join((path, esc(k), str(n))))
if top and top < len(rows):
    print(sep.join((path, "(other)", str(sum(n for _, n in rows[top:])))))
PY
}

# json's rows, escaped as want escapes them (from the bytes json gives
# back through surrogateescape).
json_rows() {
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
def esc(b):
    return "".join(chr(x) if 0x20 <= x < 0x7f and x != 0x5c else
                   "\\\\" if x == 0x5c else "\\x%02x" % x for x in b)
print(json.dumps([[esc(r["token"].encode("utf-8", "surrogateescape")),
                   r["count"]] for r in d["inputs"][0]["counts"]]))' "$1"
}

for fmt in tsv csv; do
	"$GPUHIST" --lines -f $fmt stems >got
	want stems 0 $fmt >want
	same_file "every row, $fmt: Python's sort" got want
done
"$GPUHIST" --lines -f json stems >got.json
json_rows got.json >got
want stems 0 json >want
same_file "every row, json: Python's sort" got want
"$GPUHIST" --lines --top=300 -f tsv --threads=2 stems >got
want stems 300 tsv >want
same_file "--top=300, tsv: Python's sorted(...)[:300]" got want
"$GPUHIST" --lines -f tsv --memory=1M -T . --chunk-size=4k stems >got
want stems 0 tsv >want
same_file "every row spilled past --memory=1M: Python's sort" got want
"$GPUHIST" --lines -f tsv --sort=bin stems >got
want stems 0 tsv bin >want
same_file "--sort=bin, every row: Python's sorted(...)" got want
"$GPUHIST" --lines -f tsv --sort=bin --top=300 stems >got
want stems 300 tsv bin >want
same_file "--sort=bin --top=300: the 300 commonest in byte order" got want
"$GPUHIST" --lines -f tsv --sort=bin --memory=1M -T . --chunk-size=4k stems >got
want stems 0 tsv bin >want
same_file "--sort=bin spilled past --memory=1M: Python's sorted(...)" got want

# 3,000 lines of 1,000 bytes that differ only in their last 10, tied at
# 1 and at 2; and the same lines cut short at every length of the last
# word's (prefixes of one another).
python3 -c 'import random, sys
r = random.Random(33)
head = bytes(r.randrange(32, 127) for _ in range(990)).replace(b"\\", b"/")
out = []
for i in range(3000):
    l = head + b"%010d" % r.getrandbits(32)
    out += [l] * (1 + i % 2)
for n in range(984, 1000):
    out.append(head[:n] if n < 990 else head + b"0" * (n - 990))
r.shuffle(out)
sys.stdout.buffer.write(b"\n".join(out) + b"\n")' >long
"$GPUHIST" --lines -f tsv long >got
want long 0 tsv >want
same_file "lines of 1,000 bytes sharing 990: Python's sort" got want
"$GPUHIST" --lines -f tsv --top=1500 long >got
want long 1500 tsv >want
same_file "... --top=1500: Python's sorted(...)[:1500]" got want

# 300,000 lines of a timestamp, a level and an id, once or twice: parts
# of 32 Ki keys and more are sorted on threads of their own.
python3 -c 'import random, sys
r = random.Random(300)
out = []
for i in range(300000):
    l = b"2026-11-30 04:%02d:%02d %s id=%x" % (r.randrange(60), r.randrange(60),
        r.choice((b"INFO", b"WARN", b"ERROR")), r.getrandbits(r.choice((8, 24, 40))))
    out += [l] * r.choice((1, 1, 2))
r.shuffle(out)
sys.stdout.buffer.write(b"\n".join(out) + b"\n")' >rows
"$GPUHIST" --lines -f tsv --threads=4 rows >got
want rows 0 tsv >want
same_file "300,000 rows on 4 threads: Python's sort" got want
"$GPUHIST" --lines -f tsv --sort=bin --threads=3 rows >got
want rows 0 tsv bin >want
same_file "... --sort=bin on 3 threads: Python's sorted(...)" got want

# Words of a log: most once, all sorted; and a table of them.
gen log 400000 >log
"$GPUHIST" -t -f tsv --threads=2 log | sed 1d | cut -f2,3 >got
python3 - log <<'PY' >want
import collections, sys
c = collections.Counter(open(sys.argv[1], "rb").read().split())
for k, n in sorted(c.items(), key=lambda kv: (-kv[1], kv[0])):
    print("%s\t%d" % (k.decode(), n))
PY
same_file "words of a log, every row: Python's sort" got want
"$GPUHIST" -t --top=5 log | sed -n 2,6p | awk '{print $1 "\t" $2}' >got
head -5 want >want5
same_file "... the table's 5 commonest: Python's" got want5
