#!/bin/bash
# t1031-per-bytes.t - the bytes views per interval (--per beside -b, -c and
# -w): each line's bytes, its newline with it, counted in its line's
# interval.  The oracle is Python: t/tokenoracle.py's interval of each line
# (t/timeoracle.py's rules, in Python's re and datetime), the bytes added
# up with collections.Counter and folded into the view's bins here; on
# loggen's five shapes, at chunk edges inside lines and timestamps, through
# gzip and a pipe, under --match, over several inputs and their total,
# spilled past --memory; the table's and csv's rows with the empty
# intervals between, --top and --sort per interval; mpirun, Python's
# per= beside "bytes" (count, Stream), the GPU backend (on a GPU host);
# --merge of json results, whatever view they were written in (their
# histograms), against the same oracle, and refused where they do not add
# up; and what it does not go with yet (-m, -s: exit 2)
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_cmd python3
need_cmd gzip
LOGGEN=${LOGGEN:-$ABS_BUILDDIR/bench/corpus/loggen}
[ -x "$LOGGEN" ] || skip_all "no $LOGGEN (make check builds it)"

cd "$TMP" || exit 1
plan 25

for s in access syslog json app csv; do
	"$LOGGEN" $s 1500000 31 >$s.log
done

# check.py SRCDIR VIEW RESULT WHICH PER [year=Y] [match=RE] [top=N]
#	[sort=count] FILES...: gpuhist's json rows against Python's.  VIEW is
# bytes, classes or letters:N[:i] (-w N, -i).
cat >check.py <<'PY'
import collections, json, re, sys, types
sys.path.insert(0, sys.argv[1])
import tokenoracle
view, result, which, per = sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
args = dict(a.split("=", 1) for a in sys.argv[6:] if "=" in a)
files = [a for a in sys.argv[6:] if "=" not in a]
opts = types.SimpleNamespace(per=per, time_field=0, separator=None,
                             time_key=args.get("time-key"), time_format=None,
                             year=int(args.get("year", 2026)))
match = re.compile(args["match"].encode()) if "match" in args else None

def bins_of(view):
    """Each bin's name and the byte values it holds, as gpuhist's views."""
    if view == "bytes":
        return [(b, [b]) for b in range(256)]
    if view == "classes":
        def cls(b):
            if 97 <= b <= 122: return "lower"
            if 65 <= b <= 90: return "upper"
            if 48 <= b <= 57: return "digit"
            if b in b" \t\n\v\f\r": return "space"
            if 33 <= b <= 126: return "punct"
            if b < 32 or b == 127: return "control"
            return "high"
        names = ["lower", "upper", "digit", "space", "punct", "control", "high"]
        return [(n, [b for b in range(256) if cls(b) == n]) for n in names]
    parts = view.split(":")
    width, fold = int(parts[1]), len(parts) > 2
    out = []
    for lo in range(0, 26, width):
        hi = min(lo + width, 26) - 1
        name = chr(97 + lo) if lo == hi else f"{chr(97 + lo)}-{chr(97 + hi)}"
        vals = list(range(97 + lo, 98 + hi))
        if fold:
            vals += list(range(65 + lo, 66 + hi))
        out.append((name, vals))
    return out

per_interval = collections.defaultdict(collections.Counter)
read = 0
for f in files:
    data = open(f, "rb").read()
    lines = data.split(b"\n")
    last = lines.pop()
    lines = [l + b"\n" for l in lines] + ([last] if last else [])
    for line in lines:
        if match and not match.search(line.rstrip(b"\n")):
            continue
        read += len(line)
        label = tokenoracle.interval_of(line.rstrip(b"\n"), opts).decode()
        per_interval[label].update(line)
bins = bins_of(view)
want = []
counted = 0
top = int(args.get("top", 0))
for label in sorted(per_interval):
    c = per_interval[label]
    rows = [(name, sum(c[b] for b in vals)) for name, vals in bins]
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
# json's histograms: each interval's 256 byte totals, whatever the view
# (what --merge adds up).
hist = {label: [per_interval[label][b] for b in range(256)]
        for label in sorted(per_interval)}
if entry.get("histograms") != hist:
    got_h = entry.get("histograms") or {}
    bad.append(f"histograms of {len(got_h)} intervals against {len(hist)}: "
               f"{[k for k in hist if got_h.get(k) != hist[k]][:3]}")
if entry["per"] != per or entry["counted"] != counted:
    bad.append(f"per {entry['per']} counted {entry['counted']}, not {counted}")
size = sum(len(open(f, "rb").read()) for f in files)
if entry["bytes_read"] != size if not match else entry["bytes_read"] < read:
    bad.append(f"bytes_read {entry['bytes_read']}, not {size}")
print("; ".join(bad) if bad else "same")
PY

# per_bytes DESC VIEW WHICH PER ORACLE_ARGS -- GPUHIST_ARGS...
per_bytes() {
	local desc=$1 view=$2 which=$3 per=$4 oargs=$5 status verdict
	shift 6
	"$GPUHIST" -f json "$@" >got.json 2>err
	status=$?
	verdict=$(python3 check.py "$T_SRCDIR" "$view" got.json "$which" \
		  "$per" $oargs 2>&1)
	[ $status = 0 ] || verdict="exit $status: $(head -c 300 err) $verdict"
	is "$desc" "$verdict" same
}

per_bytes "access: byte values per minute (-b)" bytes first 60 access.log -- \
	--per=minute -b access.log
per_bytes "syslog: classes per hour (-c, --year)" classes first 3600 \
	"year=2026 syslog.log" -- --per=hour --year=2026 -c syslog.log
per_bytes "app log, stack traces without a time: -c per 10s" classes first \
	10 app.log -- --per=10s -c app.log
per_bytes "csv: letters a..z per minute (-w 1 -i)" letters:1:i first 60 \
	csv.log -- --per=minute -w 1 -i csv.log
per_bytes "JSON lines: -w 5 per 5m" letters:5 first 300 json.log -- \
	--per=5m -w 5 json.log
per_bytes "4 KiB chunks on 3 threads, through gzip in a pipe" bytes first \
	60 access.log -- --chunk-size=4K --threads=3 --per=minute -b - \
	< <(gzip -c access.log)
per_bytes "--match=\\s404\\s: only those lines' bytes" classes first 60 \
	'match=\s404\s access.log' -- --per=minute -c --match='\s404\s' \
	access.log
per_bytes "--top=3 --sort=count within each interval" bytes first 60 \
	"top=3 sort=count access.log" -- --per=minute -b --top=3 \
	--sort=count access.log
per_bytes "two inputs: the total's rows" classes total 3600 \
	"access.log app.log" -- --per=hour -c access.log app.log

# A last line without a newline; a line of 100 KB across chunks.
python3 -c '
import sys
sys.stdout.write("2026-11-27T10:00:01Z " + "x" * 100000 + "\n")
sys.stdout.write("2026-11-27T10:00:02Z \xc3\xa9t\xc3\xa9\n")
sys.stdout.write("2026-11-27T10:01:00Z no newline")' >edges.log
per_bytes "a long line across 4 KiB chunks, a last line without a newline" \
	bytes first 60 edges.log -- --chunk-size=4K --threads=2 \
	--per=minute -b edges.log

# CRLF, NUL and 0xff bytes, empty lines, lines without a time, and
# minutes going back and forth inside one chunk (the same interval read
# again after another), in chunks of 100 bytes on 3 threads.
python3 -c '
import random, sys
r = random.Random(1031)
out = []
for i in range(3000):
    m = r.choice([0, 1, 0, 2, 1])
    k = r.random()
    if k < 0.1:
        out.append(b"\n")
    elif k < 0.2:
        out.append(b"no time \x00\xff here\r\n")
    else:
        out.append(b"2026-11-27T10:%02d:%02dZ " % (m, r.randrange(60)) +
                   bytes(r.choice(b"ab \t\x00\xff\r") for _ in range(r.randrange(30))) +
                   b"\r\n")
sys.stdout.buffer.write(b"".join(out) + b"2026-11-27T10:02:00Z end")' >odd.log
per_bytes "CRLF, NUL, empty lines, minutes back and forth; 100-byte chunks" \
	bytes first 60 odd.log -- --chunk-size=100 --threads=3 --per=minute -b \
	odd.log

# Thousands of intervals, spilled past --memory: the same rows.
python3 -c '
with open("seconds.log", "w") as f:
    for i in range(30000):
        f.write("2026-11-27T%02d:%02d:%02dZ n=%d\n" % (i // 3600 % 24,
                i // 60 % 60, i % 60, i * 7919 % 100003))'
"$GPUHIST" -f tsv --per=second -c seconds.log >mem.tsv
"$GPUHIST" -f tsv --per=second -c --memory=1M seconds.log >spill.tsv 2>err
is "30000 seconds' classes spilled past --memory=1M: the same $(grep -c . \
mem.tsv) rows" "$(cmp mem.tsv spill.tsv && echo same)" same

# The table and csv: an interval's bins, the empty intervals between.
printf '%s\n' '2026-11-27T10:00:05Z aB' 'no time here' \
	'2026-11-27T10:03:00Z x' >small.log
printf '2026-11-27T10:00:59Z Z9' >>small.log
"$GPUHIST" --per=minute -c --top=2 small.log >got
cat >want <<'EOF'
interval             bin      count    share
(no time)            lower       10   12.05%  ##############
(no time)            space        3    3.61%  ####
(no time)            (other)      0    0.00%
2026-11-27T10:00:00Z digit       29   34.94%  ########################################
2026-11-27T10:00:00Z punct        8    9.64%  ###########
2026-11-27T10:00:00Z (other)     10   12.05%  ##############
2026-11-27T10:01:00Z              0    0.00%
2026-11-27T10:02:00Z              0    0.00%
2026-11-27T10:03:00Z digit       14   16.87%  ###################
2026-11-27T10:03:00Z punct        4    4.82%  ######
2026-11-27T10:03:00Z (other)      5    6.02%  #######
bytes read     83
bytes counted  83
EOF
same_file "the table: --top per interval, the empty minutes with 0" got want
"$GPUHIST" --per=minute -w 26 -f csv small.log >got
printf '%s\n' "input,interval,bin,count" "small.log,(no time),a-z,10" \
	"small.log,2026-11-27T10:00:00Z,a-z,1" "small.log,2026-11-27T10:01:00Z,,0" \
	"small.log,2026-11-27T10:02:00Z,,0" "small.log,2026-11-27T10:03:00Z,a-z,1" \
	>want
same_file "csv: a row an interval's bin, the empty minutes with 0" got want

# mpirun: one process's rows.
if "$GPUHIST" --version -v 2>/dev/null | grep -q '^mpirun mode: yes' &&
   command -v mpirun >/dev/null; then
	"$GPUHIST" --per=minute -c -f tsv --backend=cpu access.log \
		small.log >one.out
	OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
	mpirun --oversubscribe -np 3 "$GPUHIST" \
		--per=minute -c -f tsv --backend=cpu access.log \
		small.log >mpi.out 2>err </dev/null
	same_file "the bytes views per interval under mpirun: one process's rows" \
		mpi.out one.out
else
	skip "the bytes views per interval under mpirun" "no mpirun mode"
fi

# Python: per= beside "bytes", a dict of each interval's 256 totals.
if [ -f "$ABS_BUILDDIR/.libs/libgpuhist.so.1" ] &&
   [ -f "$ABS_BUILDDIR/python/gpuhist.py" ]; then
	PYTHONPATH="$ABS_BUILDDIR/python:$T_SRCDIR" \
	GPUHIST_LIBRARY=$ABS_BUILDDIR/.libs/libgpuhist.so.1 \
		python3 - >got 2>&1 <<'PY'
import collections, types
import gpuhist, tokenoracle
opts = types.SimpleNamespace(per=60, time_field=0, separator=None, year=2026)
want = collections.defaultdict(lambda: [0] * 256)
for line in open("access.log", "rb").read().splitlines(keepends=True):
    label = tokenoracle.interval_of(line.rstrip(b"\n"), opts)
    for b in line:
        want[label][b] += 1
want = dict(sorted(want.items()))
got = gpuhist.count("access.log", per="minute")
s = gpuhist.Stream(per=60)
data = open("access.log", "rb").read()
for at in range(0, len(data), 65537):   # pieces that cut lines
    s.write(data[at:at + 65537])
print(got == want and list(got) == list(want) and s.close() == want or
      (len(got), len(want)))
PY
	is "Python: per= beside the bytes view (count, Stream)" "$(cat got)" True
else
	skip "Python: per= beside the bytes view" "no shared libgpuhist"
fi

# The GPU backend: the host counts them, and says so.
if have_gpu; then
	"$GPUHIST" --backend=gpu -v -f tsv --per=minute -b access.log \
		>gpu.tsv 2>err
	"$GPUHIST" --backend=cpu -f tsv --per=minute -b access.log >cpu.tsv
	same_file "--backend=gpu: the same rows" gpu.tsv cpu.tsv
else
	skip "--backend=gpu: the same rows" "no CUDA device"
fi

# Not there yet: exit 2.
bad=""
for args in "--per=hour -b -m" "--per=hour -c -s" "--per=hour -s" \
	    "--per=hour -b --columns=share"; do
	"$GPUHIST" $args small.log >/dev/null 2>err
	[ $? -eq 2 ] && grep -q '^gpuhist: ' err || bad="$bad [$args]"
done
is "-m, -s and --columns: exit 2, not there yet" "$bad" ""

# --merge: shards counted in three views (their json's histograms are
# the bytes, whatever the bins were folded into), added up in a fourth
# and checked against the whole logs; the view adopted from the first
# result where the command names none.
for s in access syslog json app csv; do
	split -n l/3 -d $s.log $s.part.
	"$GPUHIST" --per=minute --year=2026 -b -f json $s.part.00 >$s.p0.json
	"$GPUHIST" --per=minute --year=2026 -c --top=2 -f json \
		$s.part.01 >$s.p1.json
	"$GPUHIST" --per=minute --year=2026 -w 2 -f json $s.part.02 >$s.p2.json
done
bad=""
for s in access syslog json app csv; do
	"$GPUHIST" --merge --per=minute --year=2026 -w 3 -i -f json \
		$s.p0.json $s.p1.json $s.p2.json >got.json 2>err ||
		bad="$bad [$s: exit $?: $(head -c 200 err)]"
	verdict=$(python3 check.py "$T_SRCDIR" letters:3:i got.json total 60 \
		  year=2026 $s.log 2>&1)
	[ "$verdict" = same ] || bad="$bad [$s: $verdict]"
done
is "--merge of -b, -c --top and -w 2 shards of five shapes, as -w 3 -i" \
	"$bad" ""
"$GPUHIST" --merge -f json access.p1.json access.p0.json access.p2.json \
	>adopted.json 2>err
verdict=$(python3 check.py "$T_SRCDIR" classes adopted.json total 60 \
	  access.log 2>&1)
is "--merge with no view: the first result's (-c per minute)" \
	"$verdict" same
# Adopted where the time is read by a field (-F , --time-field) or at a
# key of JSON lines: those keys come after bytes_read.
"$GPUHIST" -c --per=hour -F , --time-field=1 -f json csv.log >tf.json
cases="tf.json:-c --per=hour -F , --time-field=1 csv.log"
if "$GPUHIST" --key=.a /dev/null >/dev/null 2>&1; then  # (json-c)
	"$GPUHIST" -b --per=minute --time-key=.ts -f json json.log >tk.json
	cases="$cases|tk.json:-b --per=minute --time-key=.ts json.log"
fi
verdict=""
IFS='|' read -r -a list <<<"$cases"
for c in "${list[@]}"; do
	f=${c%%:*} args=${c#*:}
	"$GPUHIST" --merge -f csv $f 2>&1 | sed "s/^$f,/X,/" >got.csv
	"$GPUHIST" -f csv $args | sed "s/^[a-z]*\.log,/X,/" >want.csv
	cmp -s got.csv want.csv || verdict="$verdict [$f]"
done
is "--merge with no view: adopted by a time field and a time key" \
	"$verdict" ""
# A merged result merged again, in the table and csv: the whole log's.
"$GPUHIST" --merge -b --per=minute access.p0.json access.p1.json \
	-f json >m01.json
for f in table csv; do
	"$GPUHIST" --merge -c --per=minute -f $f --total=only m01.json \
		access.p2.json | sed 's/^total,/access.log,/' | \
		grep -v '^==> total <==$' >got.$f
	"$GPUHIST" -c --per=minute -f $f access.log >want.$f
done
is "a merged result merged again: the table and csv of the whole log" \
	"$(cmp got.table want.table && cmp got.csv want.csv && echo same)" same
# Spilled: 30000 seconds, every shard and the merge past --memory=1M.
split -n l/2 -d seconds.log seconds.part.
for p in 00 01; do
	"$GPUHIST" -f json --per=second -c --memory=1M seconds.part.$p \
		>sec.$p.json
done
"$GPUHIST" --merge -f tsv --per=second -c --memory=1M sec.00.json \
	sec.01.json >merged.tsv 2>err
is "30000 seconds' shards, spilled, merged: the whole log's rows" \
	"$(cmp <(grep -v '^total' merged.tsv | cut -f2- | sort) \
	       <(cut -f2- mem.tsv | sort) && echo same)" same
# Refused, exit 1, naming the result and why: a total that is not its
# inputs', a histogram of 255 values, another interval, another view.
"$GPUHIST" --per=minute -c -f json small.log >pb.json
"$GPUHIST" --per=minute -t -f json small.log >words.json
python3 - <<'PY'
import json
d = json.load(open("pb.json"))
d["total"]["histograms"]["(no time)"][97] += 1
json.dump(d, open("bad-total.json", "w"))
d = json.load(open("pb.json"))
d["inputs"][0]["histograms"]["(no time)"].pop()
json.dump(d, open("bad-255.json", "w"))
PY
bad=""
for c in "bad-total.json:total: its histograms" "bad-255.json:255 values" \
	 "pb.json --per=hour:per 60 s, but this merge's is a bytes view (bytes, classes, letters) per 3600 s" \
	 "words.json:view words per 60 s"; do
	f=${c%%:*} want=${c#*:}
	"$GPUHIST" --merge -c --per=minute $f >/dev/null 2>err
	rc=$?
	[ $rc = 1 ] && grep -q "^gpuhist: ${f%% *}: .*$want" err ||
		bad="$bad [$f: exit $rc: $(cat err)]"
done
is "refused, exit 1: a total not its inputs', 255 values, another interval, another view" \
	"$bad" ""

# Python's merge() of them: count()'s dict of each interval's 256 totals.
if [ -f "$ABS_BUILDDIR/.libs/libgpuhist.so.1" ] &&
   [ -f "$ABS_BUILDDIR/python/gpuhist.py" ]; then
	PYTHONPATH="$ABS_BUILDDIR/python" \
	GPUHIST_LIBRARY=$ABS_BUILDDIR/.libs/libgpuhist.so.1 \
		python3 - >got 2>&1 <<'PY'
import gpuhist
got = gpuhist.merge(["json.p0.json", "json.p1.json", "json.p2.json"],
                    per="minute")
want = gpuhist.count("json.log", per="minute")
print(got == want and list(got) == list(want) or (len(got), len(want)))
PY
	is "Python: merge() of shards per= beside the bytes view" "$(cat got)" True
else
	skip "Python: merge() of shards per= beside the bytes view" \
		"no shared libgpuhist"
fi
