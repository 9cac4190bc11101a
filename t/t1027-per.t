#!/bin/bash
# t1027-per.t - lines per interval of time (--per): against
# t/timeoracle.py (Python's re and datetime) on loggen's five shapes (Common
# Log Format, syslog with --year, ISO 8601 in JSON lines, ISO with a comma
# fraction, a csv field with --time-field and -F), a file of edge cases
# (offsets, fractions, invalid dates and times, syslog days, before 1970,
# CR, no newline) at six intervals, epoch seconds and milliseconds; chunk
# edges inside lines and timestamps, gzip, a pipe, json's rows, --merge
# (named and adopted, and refused for another interval), --top, Python's
# view="per" (count and Stream), the GPU backend (on a GPU host), and the
# options refused with exit 2
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_cmd python3
need_cmd gzip
LOGGEN=${LOGGEN:-$ABS_BUILDDIR/bench/corpus/loggen}
[ -x "$LOGGEN" ] || skip_all "no $LOGGEN (make check builds it)"

cd "$TMP" || exit 1
plan 22

oracle_per() { python3 "$T_SRCDIR/timeoracle.py" "$@"; }
# gpuhist's tsv rows without the input column.
rows() { "$GPUHIST" -f tsv "$@" | tail -n +2 | cut -f2-; }

for s in access syslog json app csv; do
	"$LOGGEN" $s 3000000 27 >$s.log
done
"$LOGGEN" app 300000 28 >app.small.log

rows --per=minute access.log >got
oracle_per --gaps 60 access.log >want
same_file "access log, per minute: Common Log Format's times" got want
rows --per=5m --year=2025 syslog.log >got
oracle_per --gaps --year 2025 300 syslog.log >want
same_file "syslog, per 5m, --year=2025" got want
rows --per=10s json.log >got
oracle_per --gaps 10 json.log >want
same_file "JSON lines, per 10s: ISO 8601 with a fraction and Z" got want
rows --per=second app.small.log >got
oracle_per --gaps 1 app.small.log >want
same_file "application log, per second: ISO with a comma fraction" got want
rows --per=hour --time-field=1 -F , csv.log >got
oracle_per --gaps --time-field 1 --separator , 3600 csv.log >want
same_file "csv, --time-field=1 -F , per hour: the header line has no time" \
	got want
like "... and the header line is counted as (no time)" "$(head -1 got)" \
	'^\(no time\)	1$'

# Edge cases, at six intervals.
cat >edge.log <<'EOF'
1.2.3.4 - - [27/Nov/2026:10:00:00 +0100] "GET / HTTP/1.1" 200 1
1.2.3.4 - - [27/Nov/2026:23:59:59 -0700] "GET / HTTP/1.1" 200 1
bad [31/Feb/2026:10:00:00 +0000] then 2026-11-27T10:15:00+05:30 ok
2026-11-27T10:00:00Z first
2026-11-27 10:00:00,123 comma fraction
2026-11-27t10:00:00.5z lower case
x2026-11-27T10:00:00Z glued to a letter
12026-11-27T10:00:00Z glued to a digit
2026-11-27T24:00:00Z bad hour
2026-11-27T10:00:60Z a leap second
2026-02-29T10:00:00Z not a leap year
2024-02-29T10:00:00Z a leap year
Nov 27 10:00:00 host sshd[1]: hi
Nov  7 10:00:00 host sshd[1]: hi
Feb 30 10:00:00 host sshd[1]: bad day
 Nov 27 10:00:00 not at the start
1969-12-31T23:59:30Z before the epoch
2026-11-27T10:00:00+2500 bad offset
2026-11-27T10:00:00-03 hours only
[27/Nov/2026:10:00:00 +0000] at the start
EOF
printf 'with cr 2026-11-27T11:00:00Z\r\n\nno newline 2026-11-27T12:00:00Z' >>edge.log
bad=""
for per in 1 60 3600 86400 604800 300; do
	rows --per=$per --year=2025 edge.log >got
	oracle_per --gaps --year 2025 $per edge.log >want
	cmp -s got want || bad="$bad $per"
done
is "edge cases at 1 s, 1 min, 1 h, 1 day, 1 week and 5 min" "$bad" ""

# Epoch seconds and milliseconds in a field.
python3 - <<'PY'
import random
r = random.Random(1027)
with open("epoch.log", "w") as f:
    for i in range(20000):
        t = 1795000000 + r.randrange(0, 86400)
        if i % 3 == 0:
            f.write(f"{t * 1000 + r.randrange(1000)} ms line {i}\n")
        elif i % 3 == 1:
            f.write(f"{t}.{r.randrange(1000)} fraction {i}\n")
        else:
            f.write(f"{t} s line {i}\n")
    f.write("notanumber x\n")
PY
rows --per=15m --time-field=1 epoch.log >got
oracle_per --gaps --time-field 1 900 epoch.log >want
same_file "--time-field=1: epoch seconds, milliseconds and fractions" got want

# Chunk edges inside lines and timestamps, 3 threads; gzip; a pipe.
oracle_per --gaps 60 access.log >want
rows --per=minute --chunk-size=4k --threads=3 access.log >got
same_file "4 KiB chunks on 3 threads" got want
gzip -c access.log >access.log.gz
rows --per=minute access.log.gz >got
same_file "gzip" got want
rows --per=minute - <access.log >got
same_file "a pipe" got want

# json: the rows (no empty intervals: its rows add up under --merge).
"$GPUHIST" --per=minute -f json access.log json.log >a.json
python3 -c '
import json, sys
d = json.load(open("a.json"))
for c in sorted(d["total"]["counts"], key=lambda c: c["token"]):
    print(c["token"] + "\t" + str(c["count"]))' >got
oracle_per 60 access.log json.log >want
same_file "json: the total's rows, the intervals with lines" got want
is "json: the view and its interval" \
	"$(python3 -c 'import json; t = json.load(open("a.json"))["total"]; print(t["view"], t["per"])')" \
	"per 60"

# --merge: named, adopted, refused for another interval.
"$GPUHIST" --per=minute -f json access.log >m1.json
"$GPUHIST" --per=minute -f json json.log >m2.json
oracle_per --gaps 60 access.log json.log >want
"$GPUHIST" --merge --per=minute --total=only -f tsv m1.json m2.json |
	tail -n +2 | cut -f2- >got
same_file "--merge --per=minute of two results: both logs' rows" got want
"$GPUHIST" --merge --total=only -f tsv m1.json m2.json | tail -n +2 |
	cut -f2- >got
same_file "--merge with no view named: per minute adopted" got want
"$GPUHIST" --merge --per=hour m1.json >/dev/null 2>err
is "--merge --per=hour of a per-minute result: exit 1" $? 1
like "... naming both intervals" "$(cat err)" \
	"view per 60 s, but this merge's is per 3600 s"

# --top: the busiest intervals, no empty ones between them.
"$GPUHIST" --per=minute --top=3 -f tsv access.log | tail -n +2 | cut -f2- | grep -v "^(other)" |
	sort >got
oracle_per 60 access.log | sort -t '	' -k2,2nr -k1,1 | head -3 | sort >want
same_file "--top=3: the three busiest minutes" got want

# Python: view="per", count() and a Stream.
if [ -f "$ABS_BUILDDIR/.libs/libgpuhist.so.1" ] &&
   [ -f "$ABS_BUILDDIR/python/gpuhist.py" ]; then
	PYTHONPATH=$ABS_BUILDDIR/python \
	GPUHIST_LIBRARY=$ABS_BUILDDIR/.libs/libgpuhist.so.1 \
		python3 - "$T_SRCDIR/timeoracle.py" >got 2>&1 <<'PY'
import collections, subprocess, sys
import gpuhist
want = collections.Counter()
for line in subprocess.run([sys.executable, sys.argv[1], "--year", "2025",
                            "300", "syslog.log", "edge.log"],
                           capture_output=True, check=True).stdout.splitlines():
    label, n = line.split(b"\t")
    want[label] += int(n)
got = gpuhist.count("syslog.log", view="per", per="5m", year=2025)
s = gpuhist.Stream(view="per", per=300, year=2025)
s.write(open("edge.log", "rb").read())
print(got + s.close() == want or (got, want))
PY
	is "Python: view='per', count() and a Stream" "$(cat got)" True
else
	skip "Python: view='per'" "no shared libgpuhist in the build"
fi

# The GPU backend: the host reads the times.
if have_gpu; then
	"$GPUHIST" --backend=gpu -v --per=minute -f tsv access.log >gpu.tsv 2>err
	tail -n +2 gpu.tsv | cut -f2- >got
	oracle_per --gaps 60 access.log >want
	same_file "--backend=gpu: the same rows" got want
	like "... -v says the host counted them" "$(cat err)" \
		"counts per interval of time"
else
	skip "--backend=gpu: the same rows" "no CUDA device"
	skip "... -v says the host counted them" "no CUDA device"
fi

# Refused, exit 2.
bad=""
for args in "--per=5x" "--per=0m" "--per=" "--time-field=1" "--year=2025" \
	    "--per=hour --year=0" "--per=hour -F ," \
	    "--per=hour -s"; do
	"$GPUHIST" $args access.log >/dev/null 2>&1
	[ $? -eq 2 ] || bad="$bad [$args]"
done
is "bad intervals and options without --per: exit 2" "$bad" ""
