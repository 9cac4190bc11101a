#!/bin/bash
# t1029-per-values.t - --values per interval (--per beside --values): each
# interval's count of numbers, extremes, sum and quantiles against Python
# (t/valuesoracle.py's number rules, t/timeoracle.py's intervals, an exact
# sort's nearest rank) on loggen's access log (bytes sent, field 10) and
# JSON lines (--values=.latency_ms), at chunk edges inside lines and
# timestamps, through gzip; tsv's and csv's columns and the empty
# intervals between; thousands of intervals, spilled past --memory;
# --values per interval under mpirun; and --merge of
# such results refused with exit 2 (not there yet)
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_cmd python3
need_cmd gzip
LOGGEN=${LOGGEN:-$ABS_BUILDDIR/bench/corpus/loggen}
[ -x "$LOGGEN" ] || skip_all "no $LOGGEN (make check builds it)"

cd "$TMP" || exit 1
plan 11

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
entry = json.load(open(result))["inputs"][0]
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

# --merge of values per interval: not there yet.
"$GPUHIST" --merge --per=minute --values=10 got.json >/dev/null 2>err
rc=$?
like "--merge --per --values: exit 2, not there yet" "$rc $(cat err)" \
	'^2 .*--per and --values cannot be combined with --merge yet'
"$GPUHIST" -f json --per=minute --values=10 small.log >pv.json
"$GPUHIST" --merge pv.json >/dev/null 2>err
is "--merge adopting a result of values per interval: refused" "$?" 1
