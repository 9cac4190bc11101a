#!/bin/bash
# t1028-per-views.t - --per beside another view (-t, --lines, --field, a
# key of several fields, --key): each unit counted in its line's interval.
# The oracle is t/tokenoracle.py with per= (its units paired with the
# interval t/timeoracle.py reads, in Python's re and datetime) on loggen's
# shapes; the rows' order and --top per interval, with the empty intervals
# between, against a rendering in Python; chunk edges inside lines and
# timestamps, gzip, a pipe, spilled counts, --merge (named, adopted, and
# refused for another interval), Python's per= (count, Stream, merge), the
# GPU backend (on a GPU host), and -s, which it does not go with yet
# (exit 2; the bytes views per interval: t1031; -m per interval: t1032)
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_cmd python3
need_cmd gzip
LOGGEN=${LOGGEN:-$ABS_BUILDDIR/bench/corpus/loggen}
[ -x "$LOGGEN" ] || skip_all "no $LOGGEN (make check builds it)"

cd "$TMP" || exit 1
plan 25

for s in access syslog json app csv; do
	"$LOGGEN" $s 2000000 41 >$s.log
done

# per_check DESC VIEW PLAIN ORACLE_ARGS -- GPUHIST_ARGS...
per_check() {
	local desc=$1 view=$2 plain=$3 oargs=$4 status verdict
	shift 5
	"$GPUHIST" -f json "$@" >got.json 2>err
	status=$?
	verdict=$(PYTHONPATH="$T_SRCDIR" python3 "$T_SRCDIR/tokenoracle.py" \
		  "$view" "$plain" got.json $oargs 2>&1)
	[ $status = 0 ] || verdict="exit $status: $(head -c 300 err) $verdict"
	is "$desc" "$verdict" same
}

per_check "access: statuses per minute (--field=9)" field:9 access.log \
	per=60 -- --per=minute --field=9 access.log
per_check "access: words per hour (-t)" words access.log per=3600 -- \
	--per=hour -t access.log
per_check "access: lines per 5m (--lines)" lines access.log per=300 -- \
	--per=5m --lines access.log
per_check "access: client and status per minute (--field=1,9)" \
	fields:1,9 access.log per=60 -- --per=minute --field=1,9 access.log
per_check "syslog: programs per hour, --year=2025" field:5 syslog.log \
	"per=3600 year=2025" -- --per=hour --year=2025 --field=5 syslog.log
per_check "app log: levels per second" field:3 app.log per=1 -- \
	--per=second --field=3 app.log
per_check "csv: field 3 per hour, --time-field=1 -F ," field:3:44 csv.log \
	"per=3600 time-field=1 separator=44" -- --per=hour --time-field=1 \
	-F , --field=3 csv.log
if "$GPUHIST" --key=.a /dev/null >/dev/null 2>&1; then
	per_check "JSON lines: --key=.level per 10s" key:.level json.log \
		per=10 -- --per=10s --key=.level json.log
else
	skip "JSON lines: --key=.level per 10s" "built without json-c"
fi
per_check "4 KiB chunks on 3 threads: -t per minute" words access.log \
	per=60 -- --chunk-size=4K --threads=3 --per=minute -t access.log
gzip -c access.log >access.log.gz
per_check "gzip: --field=1 per minute" field:1 access.log per=60 -- \
	--per=minute --field=1 access.log.gz
per_check "a pipe: --field=9 per hour" field:9 access.log per=3600 -- \
	--per=hour --field=9 - <access.log.gz

# Spilled past --memory: the same rows, sorted on disk, in every format.
"$GPUHIST" -f tsv --per=minute -t access.log >mem.tsv
"$GPUHIST" -f tsv --per=minute -t --memory=1M access.log >spill.tsv 2>err
same_file "spilled past --memory=1M: the same tsv rows" spill.tsv mem.tsv

# The rows as shown: interval by interval in time order, (no time)
# first, each interval's most frequent first (ties in byte order), --top
# of each with an (other) row, and the empty intervals between with 0.
cat >render.py <<'PY'
import collections, sys, types
sys.path.insert(0, sys.argv[1])
import timeoracle, tokenoracle
per, top, plain = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
opts = types.SimpleNamespace(per=per, time_field=0, separator=None,
                             year=2026)
units = tokenoracle.units("field:9", open(plain, "rb").read(), opts)
by = collections.defaultdict(collections.Counter)
for interval, token in units:
    by[interval][token] += 1
previous = None
for interval in sorted(by):
    if interval != b"(no time)":
        s = int(timeoracle.datetime.datetime.strptime(
            interval.decode(), "%Y-%m-%dT%H:%M:%SZ").replace(
            tzinfo=timeoracle.UTC).timestamp())
        if previous is not None:
            for g in range(previous + per, s, per):
                print(f"{timeoracle.label(g)}\t\t0")
        previous = s
    rows = sorted(by[interval].items(), key=lambda kv: (-kv[1], kv[0]))
    shown = rows[:top] if top else rows
    for token, n in shown:
        print(f"{interval.decode()}\t{token.decode()}\t{n}")
    if top and len(rows) > top:
        print(f"{interval.decode()}\t(other)\t{sum(n for _, n in rows[top:])}")
PY
printf '10.0.0.1 - - [27/Nov/2026:10:00:01 +0000] "GET / HTTP/1.1" 200 5\nno time 1 2 3 4 5 6 7 8\n' >gaps.log
printf '10.0.0.2 - - [27/Nov/2026:10:04:59 +0000] "GET / HTTP/1.1" 404 5\n' >>gaps.log
"$GPUHIST" -f tsv --per=minute --field=9 access.log | tail -n +2 |
	cut -f2- >got
python3 render.py "$T_SRCDIR" 60 0 access.log >want
same_file "tsv rows: interval by interval, most frequent first" got want
"$GPUHIST" -f tsv --per=minute --field=9 --top=2 access.log | tail -n +2 |
	cut -f2- >got
python3 render.py "$T_SRCDIR" 60 2 access.log >want
same_file "--top=2: each interval's two commonest and its (other)" got want
"$GPUHIST" -f csv --per=minute --field=9 gaps.log >got
printf '%s\n' "input,interval,token,count" "gaps.log,(no time),7,1" \
	"gaps.log,2026-11-27T10:00:00Z,200,1" \
	"gaps.log,2026-11-27T10:01:00Z,,0" "gaps.log,2026-11-27T10:02:00Z,,0" \
	"gaps.log,2026-11-27T10:03:00Z,,0" \
	"gaps.log,2026-11-27T10:04:00Z,404,1" >want
same_file "csv: the empty intervals between with 0, ready to plot" got want
"$GPUHIST" --per=minute --field=9 gaps.log | sed -n '2p;5p;7p' >got
printf '%s\n' "(no time) 7                     1   33.33%" \
	"2026-11-27T10:02:00Z            0    0.00%" \
	"2026-11-27T10:04:00Z 404        1   33.33%" >want
cut -c1-42 got >got.cut
same_file "the table: an interval and its token a row" got.cut want

# A line without a time whose unit looks like a label's end ("Z", a tab
# after it): still of (no time), whole.
printf 'abcdefghiZ\tfoo\nplain\n' >z.log
"$GPUHIST" -f tsv --per=minute --lines z.log >got
printf '%s\n' "input	interval	token	count" \
	"z.log	(no time)	abcdefghiZ\\tfoo	1" "z.log	(no time)	plain	1" >want
same_file "(no time) with a unit like a label's end: one interval, whole" \
	got want

# --merge: named, adopted, and refused for another interval.
"$GPUHIST" -f json --per=minute --field=9 access.log >one.json
"$GPUHIST" -f json --per=minute --field=9 app.log access.log >two.json
"$GPUHIST" -f tsv --per=minute --field=9 access.log app.log access.log \
	--total=only >want
"$GPUHIST" -f tsv --merge --per=minute --field=9 one.json two.json \
	--total=only >got
same_file "--merge --per=minute --field=9: the inputs' counts added" got want
"$GPUHIST" -f tsv --merge one.json two.json --total=only >got
same_file "--merge with no view: per and the field adopted" got want
"$GPUHIST" --merge --per=hour --field=9 one.json >/dev/null 2>err
rc=$?
like "--merge --per=hour of results per minute: refused, exit 1" \
	"$rc $(cat err)" '^1 .*field 9 per 60 s, but this merge.s is field 9 per 3600 s'
sed 's/"interval": "2026-11-01T00:0/"interval": "2026-11-01X00:0/' one.json >bad.json
"$GPUHIST" --merge --per=minute --field=9 bad.json >/dev/null 2>err
rc=$?
like "--merge of a row whose interval is no label: refused, exit 1" \
	"$rc $(cat err)" '^1 .*the interval is neither'

# Python: per= beside a view; keys are (interval, token) pairs.
if [ -f "$ABS_BUILDDIR/.libs/libgpuhist.so.1" ] &&
   [ -f "$ABS_BUILDDIR/python/gpuhist.py" ]; then
	PYTHONPATH="$ABS_BUILDDIR/python:$T_SRCDIR" \
	GPUHIST_LIBRARY=$ABS_BUILDDIR/.libs/libgpuhist.so.1 \
		python3 - >got 2>&1 <<'PY'
import collections, sys, types
import gpuhist, tokenoracle
opts = types.SimpleNamespace(per=60, time_field=0, separator=None, year=2026)
want = collections.Counter(tokenoracle.units(
    "fields:1,9", open("access.log", "rb").read(), opts))
got = gpuhist.count("access.log", view="field", field=(1, 9), per="minute")
s = gpuhist.Stream(view="field", field=(1, 9), per=60)
s.write(open("access.log", "rb").read())
merged = gpuhist.merge(["one.json"], view="field", field=9, per=60)
words = collections.Counter(tokenoracle.units(
    "field:9", open("access.log", "rb").read(), opts))
print(got == want and s.close() == want and merged == words or
      (len(got), len(want)))
PY
	is "Python: per= beside the field view (count, Stream, merge)" \
		"$(cat got)" True
else
	skip "Python: per= beside the field view" "no shared libgpuhist"
fi

# The GPU backend: the host counts them, and says so.
if have_gpu; then
	"$GPUHIST" --backend=gpu -v -f tsv --per=minute --field=9 access.log \
		>gpu.tsv 2>err
	"$GPUHIST" --backend=cpu -f tsv --per=minute --field=9 access.log \
		>cpu.tsv
	same_file "--backend=gpu: the same rows" gpu.tsv cpu.tsv
	like "... -v says the host counted them" "$(cat err)" \
		"counts per interval of time"
else
	skip "--backend=gpu: the same rows" "no CUDA device"
	skip "... -v says the host counted them" "no CUDA device"
fi

# Not there yet, exit 2.
bad=""
for args in "--per=hour -s" "--per=hour -b -s" "--per=hour -m -s"; do
	"$GPUHIST" $args access.log >/dev/null 2>&1
	[ $? -eq 2 ] || bad="$bad [$args]"
done
is "--per beside -s (not there yet): exit 2" "$bad" ""
