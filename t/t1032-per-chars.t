#!/bin/bash
# t1032-per-chars.t - -m per interval (--per beside -m, -m -i, -m -c): each
# line's characters, its newline with it, counted in its line's interval.
# The oracle is Python: t/tokenoracle.py's interval of each line, Python's
# own UTF-8 decoder on each line (t/charoracle.py's bins: decode('utf-8',
# 'surrogateescape'), an escape the invalid byte), folded by
# CaseFolding.txt (-i) or UnicodeData.txt's categories (-c) read there;
# on multilingual lines with ill-formed sequences, CRLF, NUL, lines without
# a time and minutes back and forth, in chunks that cut sequences, through
# gzip and a pipe, on loggen's JSON lines, under --match, --top and --sort,
# two inputs' total, spilled past --memory; the table and csv exactly;
# mpirun; Python's per= beside "chars" (count, Stream, merge); the
# GPU backend (on a GPU host); --merge of such results (their code points)
# against the same oracle, and refused where they do not add up; and what
# it does not go with yet (-s: exit 2)
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_cmd python3
need_cmd gzip
LOGGEN=${LOGGEN:-$ABS_BUILDDIR/bench/corpus/loggen}
[ -x "$LOGGEN" ] || skip_all "no $LOGGEN (make check builds it)"
[ -f "${UCD_DIR:-/usr/share/unicode}/UnicodeData.txt" ] ||
	skip_all "no UnicodeData.txt (Debian's unicode-data) for the oracle"

cd "$TMP" || exit 1
plan 18

"$LOGGEN" json 1500000 32 >json.log
# Lines in many scripts, with ill-formed sequences (a lead byte cut short,
# a lone continuation, an overlong form, a surrogate, past U+10FFFF),
# CRLF, NUL, empty lines, lines without a time, and minutes going back
# and forth.
python3 -c '
import random, sys
r = random.Random(1032)
words = ["héllo", "wörld", "日本語", "Ελληνικά", "русский", "😀", "İstanbul",
         "ǅ", "ß", "ﬁ", "x", "A", "\u0301", "\u00a0", "\u2028"]
bad = [b"\xc3", b"\x80", b"\xc0\xaf", b"\xed\xa0\x80", b"\xf4\x90\x80\x80",
       b"\xe2\x82", b"\xff", b"\x00"]
out = []
for i in range(6000):
    k = r.random()
    m = r.choice([0, 1, 0, 2, 1, 3])
    body = b" ".join(r.choice(words).encode() if r.random() < 0.85
                     else r.choice(bad) for _ in range(r.randrange(12)))
    if k < 0.05:
        out.append(b"\n")
    elif k < 0.15:
        out.append(b"no time " + body + b"\r\n")
    else:
        out.append(b"2026-11-27T10:%02d:%02dZ " % (m, r.randrange(60)) +
                   body + (b"\r\n" if k < 0.3 else b"\n"))
sys.stdout.buffer.write(b"".join(out) + b"2026-11-27T10:04:00Z \xc3")' >multi.log

# check.py SRCDIR MODE RESULT WHICH PER [match=RE] [top=N] [sort=count]
#	FILES...: gpuhist's json rows against Python's.  MODE is m, i or c.
cat >check.py <<'PY'
import collections, json, re, sys, types
sys.path.insert(0, sys.argv[1])
import charoracle, tokenoracle
mode, result, which, per = sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
args = dict(a.split("=", 1) for a in sys.argv[6:] if "=" in a)
files = [a for a in sys.argv[6:] if "=" not in a]
opts = types.SimpleNamespace(per=per, time_field=0, separator=None,
                             time_key=None, time_format=None, year=2026)
match = re.compile(args["match"].encode()) if "match" in args else None
fold = charoracle.simple_folding() if mode == "i" else {}
cat = charoracle.categories() if mode == "c" else None

def rows_of(counts):
    """The view's bins of one interval's characters, in bin order."""
    if cat is not None:
        by = collections.Counter()
        for b, n in counts.items():
            by["invalid" if b >= 0x110000
               else charoracle.MAJOR[cat.get(b, "Cn")[0]]] += n
        return [(c, by[c]) for c in charoracle.CATEGORIES]
    folded = collections.Counter()
    for b, n in counts.items():
        folded[fold.get(b, b) if b < 0x110000 else b] += n
    return [(charoracle.name(b), folded[b]) for b in sorted(folded)]

per_interval = collections.defaultdict(collections.Counter)
for f in files:
    data = open(f, "rb").read()
    lines = data.split(b"\n")
    last = lines.pop()
    lines = [l + b"\n" for l in lines] + ([last] if last else [])
    for line in lines:
        if match and not match.search(line.rstrip(b"\n")):
            continue
        label = tokenoracle.interval_of(line.rstrip(b"\n"), opts).decode()
        per_interval[label].update(charoracle.bins(line))
want = []
counted = 0
top = int(args.get("top", 0))
for label in sorted(per_interval):
    rows = rows_of(per_interval[label])
    counted += sum(n for _, n in rows)
    order = list(range(len(rows)))
    if top or args.get("sort") == "count":
        order.sort(key=lambda i: -rows[i][1])
    keep = order[:top] if top else order
    if args.get("sort") != "count":
        keep.sort()
    want += [(label, rows[i][0], rows[i][1]) for i in keep]
    if top and top < len(rows):
        want.append((label, "(other)", sum(rows[i][1] for i in order[top:])))
doc = json.load(open(result))
entry = doc["total"] if which == "total" else doc["inputs"][0]
got = [(r["interval"], r["bin"], r["count"]) for r in entry["bins"]]
bad = []
if got != want:
    diff = [(g, w) for g, w in zip(got, want) if g != w][:3]
    bad.append(f"rows {len(got)} against {len(want)}: {diff}")
if entry["per"] != per or entry["counted"] != counted or \
        entry["view"] != "chars":
    bad.append(f"view {entry['view']} per {entry['per']} counted "
               f"{entry['counted']}, not {counted}")
print("; ".join(bad) if bad else "same")
PY

# per_chars DESC MODE WHICH PER ORACLE_ARGS -- GPUHIST_ARGS...
per_chars() {
	local desc=$1 mode=$2 which=$3 per=$4 oargs=$5 status verdict
	shift 6
	"$GPUHIST" -f json "$@" >got.json 2>err
	status=$?
	verdict=$(python3 check.py "$T_SRCDIR" "$mode" got.json "$which" \
		  "$per" $oargs 2>&1)
	[ $status = 0 ] || verdict="exit $status: $(head -c 300 err) $verdict"
	is "$desc" "$verdict" same
}

per_chars "many scripts, ill-formed sequences: code points per minute (-m)" \
	m first 60 multi.log -- --per=minute -m multi.log
per_chars "-m -i: case-folded per minute" i first 60 multi.log -- \
	--per=minute -m -i multi.log
per_chars "-m -c: categories per 10s" c first 10 multi.log -- \
	--per=10s -m -c multi.log
per_chars "100-byte chunks on 3 threads, through gzip in a pipe" m first 60 \
	multi.log -- --chunk-size=100 --threads=3 --per=minute -m - \
	< <(gzip -c multi.log)
per_chars "loggen's JSON lines: -m per 5m" m first 300 json.log -- \
	--per=5m -m json.log
per_chars "--match and --top=3 --sort=count within each interval" m first \
	60 "match=日本 top=3 sort=count multi.log" -- --per=minute -m \
	--match=日本 --top=3 --sort=count multi.log
per_chars "two inputs: the total's rows" i total 3600 \
	"multi.log json.log" -- --per=hour -m -i multi.log json.log

# Thousands of intervals, spilled past --memory: the same rows.
python3 -c '
with open("seconds.log", "w", encoding="utf-8") as f:
    for i in range(30000):
        f.write("2026-11-27T%02d:%02d:%02dZ ü%s\n" % (i // 3600 % 24,
                i // 60 % 60, i % 60, chr(0x4e00 + i % 500)))'
"$GPUHIST" -f tsv --per=second -m seconds.log >mem.tsv
"$GPUHIST" -f tsv --per=second -m --memory=1M seconds.log >spill.tsv 2>err
is "30000 seconds' code points spilled past --memory=1M: the same $(grep -c . \
mem.tsv) rows" "$(cmp mem.tsv spill.tsv && echo same)" same

# The table and csv: an interval's bins, the empty intervals between.
printf '2026-11-27T10:00:05Z é\xff\nno time ß\n2026-11-27T10:02:00Z É' \
	>small.log
"$GPUHIST" --per=minute -m -i small.log >got
cat >want <<'EOF'
interval             bin         count    share
(no time)            U+0020 ' '      2    3.57%  ################
(no time)            U+000A \n       1    1.79%  ########
(no time)            U+0065 e        1    1.79%  ########
(no time)            U+0069 i        1    1.79%  ########
(no time)            U+006D m        1    1.79%  ########
(no time)            U+006E n        1    1.79%  ########
(no time)            U+006F o        1    1.79%  ########
(no time)            U+0074 t        1    1.79%  ########
(no time)            U+00DF ß        1    1.79%  ########
2026-11-27T10:00:00Z U+0030 0        5    8.93%  ########################################
EOF
head -11 got >got.head
same_file "the table: -m -i per interval, most frequent first" got.head want
"$GPUHIST" --per=minute -m -c -f csv --top=1 small.log >got
printf '%s\n' "input,interval,bin,count" \
	"small.log,(no time),letter,7" "small.log,(no time),(other),3" \
	"small.log,2026-11-27T10:00:00Z,number,14" \
	"small.log,2026-11-27T10:00:00Z,(other),10" \
	"small.log,2026-11-27T10:01:00Z,,0" \
	"small.log,2026-11-27T10:02:00Z,number,14" \
	"small.log,2026-11-27T10:02:00Z,(other),8" >want
same_file "csv: -m -c --top=1 per interval, the empty minute with 0" got want

# mpirun: one process's rows.
if "$GPUHIST" --version -v 2>/dev/null | grep -q '^mpirun mode: yes' &&
   command -v mpirun >/dev/null; then
	"$GPUHIST" --per=minute -m -i -f tsv --backend=cpu multi.log \
		small.log >one.out
	OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
	mpirun --oversubscribe -np 3 "$GPUHIST" \
		--per=minute -m -i -f tsv --backend=cpu multi.log \
		small.log >mpi.out 2>err </dev/null
	same_file "-m per interval under mpirun: one process's rows" \
		mpi.out one.out
else
	skip "-m per interval under mpirun" "no mpirun mode"
fi

# The GPU backend: the host counts them.
if have_gpu; then
	"$GPUHIST" --backend=gpu -f tsv --per=minute -m multi.log >gpu.tsv
	"$GPUHIST" --backend=cpu -f tsv --per=minute -m multi.log >cpu.tsv
	same_file "--backend=gpu: the same rows" gpu.tsv cpu.tsv
else
	skip "--backend=gpu: the same rows" "no CUDA device"
fi

# Not there yet: exit 2.
"$GPUHIST" --per=hour -m -s small.log >/dev/null 2>err
is "-s with --per -m: exit 2, not there yet" \
	"$? $(grep -c 'cannot be combined' err)" "2 1"

# --merge: shards counted as -m, -m -i and -m -c (their json's "chars"
# are the code points, whatever the rows folded), added up as -m -i and
# as -m with no view named, against Python over the whole log.
split -n l/3 -d multi.log multi.part.
"$GPUHIST" --per=minute -m -f json multi.part.00 >p0.json
"$GPUHIST" --per=minute -m -i --top=2 -f json multi.part.01 >p1.json
"$GPUHIST" --per=minute -m -c -f json multi.part.02 >p2.json
"$GPUHIST" --merge --per=minute -m -i -f json p0.json p1.json p2.json \
	>got.json 2>err
is "--merge of -m, -m -i --top and -m -c shards, as -m -i: Python's" \
	"$? $(python3 check.py "$T_SRCDIR" i got.json total 60 multi.log 2>&1)" \
	"0 same"
"$GPUHIST" --merge -f json p2.json p0.json p1.json >got.json 2>err
is "--merge with no view named: -m per minute adopted, Python's" \
	"$? $(python3 check.py "$T_SRCDIR" m got.json total 60 multi.log 2>&1)" \
	"0 same"
# Spilled shards and merge: the whole log's rows.
split -n l/2 -d seconds.log seconds.part.
for p in 00 01; do
	"$GPUHIST" -f json --per=second -m --memory=1M seconds.part.$p \
		>sec.$p.json
done
"$GPUHIST" --merge -f tsv --per=second -m --memory=1M --total=only \
	sec.00.json sec.01.json | cut -f2- >got.tsv
is "30000 seconds' shards, spilled, merged: the whole log's rows" \
	"$(cmp got.tsv <(cut -f2- mem.tsv) && echo same)" same
# Python: count(view="chars", per=) and Stream, a dict of each interval's
# Counter of characters, as Python's decoder counts each line's; merge()
# of the shards the same.
if [ -f "$ABS_BUILDDIR/.libs/libgpuhist.so.1" ] &&
   [ -f "$ABS_BUILDDIR/python/gpuhist.py" ]; then
	PYTHONPATH="$ABS_BUILDDIR/python:$T_SRCDIR" \
	GPUHIST_LIBRARY=$ABS_BUILDDIR/.libs/libgpuhist.so.1 \
		python3 - >got 2>&1 <<'PY'
import collections, types
import gpuhist, tokenoracle
opts = types.SimpleNamespace(per=60, time_field=0, separator=None, year=2026,
                             time_key=None, time_format=None)
want = collections.defaultdict(collections.Counter)
for line in open("multi.log", "rb").read().splitlines(keepends=True):
    label = tokenoracle.interval_of(line.rstrip(b"\n"), opts)
    want[label].update(line.decode("utf-8", "surrogateescape"))
want = dict(sorted(want.items()))
got = gpuhist.count("multi.log", view="chars", per="minute")
s = gpuhist.Stream(view="chars", per=60)
data = open("multi.log", "rb").read()
for at in range(0, len(data), 777):     # pieces that cut sequences
    s.write(data[at:at + 777])
merged = gpuhist.merge(["p0.json", "p1.json", "p2.json"], view="chars",
                       per="minute")
print(got == want and list(got) == list(want) and s.close() == want and
      merged == want or (len(got), len(want)))
PY
	is "Python: per= beside the chars view (count, Stream, merge)" \
		"$(cat got)" True
else
	skip "Python: per= beside the chars view" "no shared libgpuhist"
fi
# Refused, exit 1: a total not its inputs', a name of no code point,
# another interval, another view.
"$GPUHIST" --per=minute -m -f json small.log >pm.json
"$GPUHIST" --per=minute -c -f json small.log >pc.json
python3 - <<'PY'
import json
d = json.load(open("pm.json"))
d["total"]["chars"]["(no time)"]["U+0020"] += 1
d["total"]["counted"] += 1
json.dump(d, open("bad-total.json", "w"))
d = json.load(open("pm.json"))
d["inputs"][0]["chars"]["(no time)"]["U+D800"] = 1
json.dump(d, open("bad-name.json", "w"))
PY
bad=""
for c in "bad-total.json:total: its chars' sum is not the sum" \
	 "bad-name.json:names no code point" \
	 "pm.json --per=hour:per 60 s, but this merge's is chars per 3600 s" \
	 "pc.json:view classes per 60 s"; do
	f=${c%%:*} want=${c#*:}
	"$GPUHIST" --merge -m --per=minute $f >/dev/null 2>err
	rc=$?
	[ $rc = 1 ] && grep -q "^gpuhist: ${f%% *}: .*$want" err ||
		bad="$bad [$f: exit $rc: $(cat err)]"
done
is "refused, exit 1: a total not its inputs', no code point, another interval, another view" \
	"$bad" ""
