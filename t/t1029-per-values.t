#!/bin/bash
# t1029-per-values.t - --values per interval (--per beside --values): each
# interval's count of numbers, extremes, sum and quantiles against Python
# (t/valuesoracle.py's number rules, t/timeoracle.py's intervals, an exact
# sort's nearest rank) on loggen's access log (bytes sent, field 10) and
# JSON lines (--values=.latency_ms), at chunk edges inside lines and
# timestamps, through gzip; tsv's and csv's columns and the empty
# intervals between; thousands of intervals, spilled past --memory;
# --values per interval under mpirun; --merge of such results (their
# buckets and summaries) against the same oracle and the whole log's rows,
# and refused where they do not add up
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_cmd python3
need_cmd gzip
LOGGEN=${LOGGEN:-$ABS_BUILDDIR/bench/corpus/loggen}
[ -x "$LOGGEN" ] || skip_all "no $LOGGEN (make check builds it)"

cd "$TMP" || exit 1
plan 16

"$LOGGEN" access 2000000 43 >access.log
"$LOGGEN" json 2000000 43 >json.log

# The per-interval figures of gpuhist's json against Python's.
cat >check.py <<'PY'
import collections, json, math, sys, types
from fractions import Fraction
sys.path.insert(0, sys.argv[1])
import tokenoracle, valuesoracle
view, plain, result, per = sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
opts = types.SimpleNamespace(per=per, time_field=0, separator=None, year=2026)
by = collections.defaultdict(list)
for interval, field in tokenoracle.units(view, open(plain, "rb").read(), opts):
    by[interval.decode()].append(field)
doc = json.load(open(result))
entry = doc["total"] if sys.argv[6:] == ["total"] else doc["inputs"][0]
bad = []
if entry["per"] != per or entry["view"] != "values":
    bad.append(f"view {entry['view']} per {entry['per']}")
rows = entry["intervals"]
if [r["interval"] for r in rows] != sorted(by):
    bad.append(f"intervals {len(rows)}, not {len(by)}, or out of order")
for r in rows:
    fields = by.get(r["interval"], [])
    nums = [valuesoracle.number(f) for f in fields]
    good = [n for n in nums if n is not None]
    want = {"numbers": len(good), "not_numbers": len(fields) - len(good),
            "empty": sum(1 for f in fields if not f.strip(b" \t\r"))}
    for k, v in want.items():
        if r[k] != v:
            bad.append(f"{r['interval']}: {k} {r[k]}, not {v}")
    if not good:
        continue
    values = sorted(x for x, _ in good)
    if float(r["min"]) != values[0] or float(r["max"]) != values[-1]:
        bad.append(f"{r['interval']}: min/max {r['min']} {r['max']}")
    if all(i is not None for _, i in good) and \
            r["sum"] != sum(i for _, i in good):
        bad.append(f"{r['interval']}: sum {r['sum']}")
    for name, got in r["quantiles"].items():
        q = Fraction(name[1:]) / 100
        exact = values[max(1, math.ceil(q * len(values))) - 1]
        if abs(got - exact) > abs(exact) / 100:
            bad.append(f"{r['interval']}: {name} {got}, not about {exact}")
print("; ".join(bad[:5]) if bad else "same")
PY
per_values() {  # DESC VIEW PLAIN PER GPUHIST_ARGS...
	local desc=$1 view=$2 plain=$3 per=$4 status
	shift 4
	"$GPUHIST" -f json "$@" >got.json 2>err
	status=$?
	is "$desc" "$status $(python3 check.py "$T_SRCDIR" "$view" "$plain" \
		got.json "$per" 2>&1)" "0 same"
}

per_values "access log: bytes sent per minute (--values=10)" field:10 \
	access.log 60 --per=minute --values=10 access.log
per_values "--quantiles=50,99,100 per 5m" field:10 access.log 300 \
	--per=5m --values=10 --quantiles=50,99,100 access.log
per_values "4 KiB chunks on 3 threads, through gzip" field:10 access.log 60 \
	--chunk-size=4K --threads=3 --per=minute --values=10 - \
	< <(gzip -c access.log)
if "$GPUHIST" --key=.a /dev/null >/dev/null 2>&1; then
	per_values "JSON lines: --values=.latency_ms per 10s" key:.latency_ms \
		json.log 10 --per=10s --values=.latency_ms json.log
else
	skip "JSON lines: --values=.latency_ms per 10s" "built without json-c"
fi

# Thousands of intervals of distinct numbers, spilled past --memory:
# the same rows as in memory, and Python's.
python3 -c '
import random
r = random.Random(1029)
with open("distinct.log", "w") as f:
    for i in range(150000):
        f.write("2026-11-27T%02d:%02d:%02dZ v=%d %d\n" % (i // 3600 % 24,
                i // 60 % 60, i % 60, i, r.randrange(10**9)))'
"$GPUHIST" -f tsv --per=minute --values=3 distinct.log >mem.tsv
"$GPUHIST" -f tsv --per=minute --values=3 --memory=1M distinct.log \
	>spill.tsv 2>err
n=$(grep -c . mem.tsv)
is "1440 minutes of distinct numbers, spilled past --memory=1M: the same $n rows" \
	"$(cmp mem.tsv spill.tsv && echo same)" same
per_values "... and Python's" field:3 distinct.log 60 --per=minute \
	--values=3 --memory=1M distinct.log

# tsv and csv: a column a figure, the empty intervals with 0.
printf '%s\n' \
	'1.1.1.1 - - [27/Nov/2026:10:00:01 +0000] "GET / HTTP/1.1" 200 100' \
	'1.1.1.1 - - [27/Nov/2026:10:00:02 +0000] "GET / HTTP/1.1" 200 300' \
	'1.1.1.1 - - [27/Nov/2026:10:00:03 +0000] "GET / HTTP/1.1" 200 -' \
	'1.1.1.1 - - [27/Nov/2026:10:02:00 +0000] "GET / HTTP/1.1" 200 7' \
	>small.log
"$GPUHIST" -f csv --per=minute --values=10 --quantiles=50,100 small.log >got
printf '%s\n' "input,interval,numbers,not_numbers,min,max,sum,mean,p50,p100" \
	"small.log,2026-11-27T10:00:00Z,2,1,100,300,400,200,100,300" \
	"small.log,2026-11-27T10:01:00Z,0,0,,,,,," \
	"small.log,2026-11-27T10:02:00Z,1,0,7,7,7,7,7,7" >want
same_file "csv: a column a figure, the empty minute with 0" got want
"$GPUHIST" --per=minute --values=10 --quantiles=50,100 small.log |
	head -3 | cut -c1-60 >got
printf '%s\n' \
	"interval                   min       p50      p100       max" \
	"2026-11-27T10:00:00Z       100       100       300       300" \
	"2026-11-27T10:01:00Z         -         -         -         -" >want
same_file "the table: an interval a row, its figures in columns" got want

# mpirun: one process's rows.
if "$GPUHIST" --version -v 2>/dev/null | grep -q '^mpirun mode: yes' &&
   command -v mpirun >/dev/null; then
	"$GPUHIST" --per=minute --values=10 -f tsv --backend=cpu access.log \
		small.log >one.out
	OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
	mpirun --oversubscribe -np 3 "$GPUHIST" \
		--per=minute --values=10 -f tsv --backend=cpu access.log \
		small.log >mpi.out 2>err </dev/null
	same_file "--values per interval under mpirun: one process's rows" \
		mpi.out one.out
else
	skip "--values per interval under mpirun" "no mpirun mode"
fi

# --merge: shards' buckets and summaries added up, interval by
# interval, against Python over the whole log, and against the whole
# log's own rows; the view adopted where the command names none.
split -n l/3 -d access.log access.part.
for p in 00 01 02; do
	"$GPUHIST" -f json --per=minute --values=10 access.part.$p \
		>access.$p.json
done
"$GPUHIST" -f json --merge --per=minute --values=10 access.00.json \
	access.01.json access.02.json >merged.json 2>err
is "--merge of three shards' values per minute: Python's over the whole log" \
	"$? $(python3 check.py "$T_SRCDIR" field:10 access.log merged.json 60 \
	      total 2>&1)" "0 same"
for f in table csv json; do
	"$GPUHIST" --merge --total=only -f $f access.00.json access.01.json \
		access.02.json | grep -v '^==> total <==$' |
		sed 's/^total,/access.log,/; s/"name": "total"/"name": "access.log"/' \
		>got.$f
	"$GPUHIST" --per=minute --values=10 -f $f access.log >want.$f
done
python3 -c '
import json, sys
g, w = json.load(open("got.json"))["total"], json.load(open("want.json"))["total"]
g.pop("name"), w.pop("name")
print(g == w and "same" or "differ")' >json.same
is "... with no view named, the table, csv and json's total: the whole log's" \
	"$(cmp got.table want.table && cmp got.csv want.csv && cat json.same)" \
	same
if "$GPUHIST" --key=.a /dev/null >/dev/null 2>&1; then
	split -n l/2 -d json.log json.part.
	for p in 00 01; do
		"$GPUHIST" -f json --per=10s --values=.latency_ms json.part.$p \
			>json.$p.json
	done
	"$GPUHIST" -f json --merge json.00.json json.01.json >merged.json 2>err
	is "--merge of JSON lines' .latency_ms per 10s, adopted: Python's" \
		"$? $(python3 check.py "$T_SRCDIR" key:.latency_ms json.log \
		      merged.json 10 total 2>&1)" "0 same"
else
	skip "--merge of JSON lines' .latency_ms per 10s" "built without json-c"
fi
# Spilled: 1440 minutes of distinct numbers, shards and merge past
# --memory=1M.
split -n l/2 -d distinct.log distinct.part.
for p in 00 01; do
	"$GPUHIST" -f json --per=minute --values=3 --memory=1M \
		distinct.part.$p >distinct.$p.json
done
"$GPUHIST" -f tsv --merge --per=minute --values=3 --memory=1M \
	--total=only distinct.00.json distinct.01.json | cut -f2- >got.tsv
is "1440 minutes' shards, spilled, merged: the same rows as the whole log" \
	"$(cmp got.tsv <(cut -f2- mem.tsv) && echo same)" same
# Python: count(view="values", per=) gives each interval's Values, as
# the command's rows; merge() of the shards gives count()'s.
if [ -f "$ABS_BUILDDIR/.libs/libgpuhist.so.1" ] &&
   [ -f "$ABS_BUILDDIR/python/gpuhist.py" ]; then
	"$GPUHIST" -f json --per=minute --values=10 access.log >whole.json
	PYTHONPATH="$ABS_BUILDDIR/python" \
	GPUHIST_LIBRARY=$ABS_BUILDDIR/.libs/libgpuhist.so.1 \
		python3 - >got 2>&1 <<'PY'
import json
import gpuhist
got = gpuhist.count("access.log", view="values", field=10, per="minute")
rows = json.load(open("whole.json"))["total"]["intervals"]
bad = [r["interval"] for r in rows
       if (lambda v: (v.numbers, v.not_numbers, v.min, v.max, v.sum,
                      v.quantile(0.99)) !=
           (r["numbers"], r["not_numbers"], r["min"], r["max"], r["sum"],
            r["quantiles"]["p99"]))(got[r["interval"].encode()])]
if list(got) != [r["interval"].encode() for r in rows]:
    bad.append("intervals")
merged = gpuhist.merge(["access.00.json", "access.01.json",
                        "access.02.json"], view="values", field=10,
                       per="minute")
same = lambda a, b: (a.numbers, a.not_numbers, a.empty, a.min, a.max,
                     a.sum, a.buckets) == (b.numbers, b.not_numbers,
                     b.empty, b.min, b.max, b.sum, b.buckets)
if list(merged) != list(got) or not all(same(merged[k], got[k])
                                        for k in got):
    bad.append("merge()")
print(bad or True)
PY
	is "Python: count(view='values', per=) as the rows; merge() of shards" \
		"$(cat got)" True
else
	skip "Python: count(view='values', per=)" "no shared libgpuhist"
fi
# Intervals without numbers (their min, max and sum null: a header
# line's "(no time)", a minute of "-"), split into shards, read by a time
# field: adopted and merged as the whole log's rows.
"$LOGGEN" csv 400000 29 >events.csv
printf '1.1.1.1 - - [27/Nov/2026:10:00:01 +0000] "GET / HTTP/1.1" 200 -\n' \
	>>small.log
split -n l/2 -d events.csv events.part.
for p in 00 01; do
	"$GPUHIST" -f json --per=minute --values=5 -F , --time-field=1 \
		events.part.$p >events.$p.json
done
"$GPUHIST" --merge -f csv --total=only events.00.json events.01.json |
	sed 's/^total,/events.csv,/' >got.csv
"$GPUHIST" -f csv --per=minute --values=5 -F , --time-field=1 events.csv \
	>want.csv
"$GPUHIST" -f json --per=minute --values=10 small.log >nulls.json
"$GPUHIST" --merge -f csv nulls.json | sed 's/^nulls.json,/small.log,/' \
	>got2.csv
"$GPUHIST" -f csv --per=minute --values=10 small.log >want2.csv
is "intervals without numbers (null extremes), by a time field: merged, adopted" \
	"$(cmp got.csv want.csv && cmp got2.csv want2.csv && echo same)" same
# Refused, exit 1, naming the result and why: another precision, another
# interval, a total that is not its inputs', rows out of order.
"$GPUHIST" -f json --per=minute --values=10 small.log >pv.json
python3 - <<'PY'
import json
d = json.load(open("pv.json"))
d["total"]["intervals"][0]["buckets"][0]["count"] += 1
d["total"]["intervals"][0]["numbers"] += 1
d["total"]["fields"] += 1
json.dump(d, open("bad-total.json", "w"))
d = json.load(open("pv.json"))
d["inputs"][0]["intervals"].reverse()
json.dump(d, open("bad-order.json", "w"))
d = json.load(open("pv.json"))
for e in d["inputs"] + [d["total"]]:
    e["intervals"][0]["sum"] = 1.5
json.dump(d, open("bad-sum.json", "w"))
PY
bad=""
for c in "pv.json --precision=5:give --precision=0.78125" \
	 "pv.json --per=hour:per 60 s, but this merge's is values, field 10, per 3600 s" \
	 "bad-total.json:total: fields is not the sum" \
	 "bad-order.json:comes after" \
	 "bad-sum.json:total: intervals\[0\]: a sum"; do
	f=${c%%:*} want=${c#*:}
	"$GPUHIST" --merge --values=10 --per=minute $f >/dev/null 2>err
	rc=$?
	[ $rc = 1 ] && grep -q "^gpuhist: ${f%% *}: .*$want" err ||
		bad="$bad [$f: exit $rc: $(cat err)]"
done
is "refused, exit 1: another precision, interval, a total not its inputs', rows out of order, a sum not exact" \
	"$bad" ""
