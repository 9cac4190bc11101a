#!/bin/bash
# t1030-per-time.t - where --per reads a line's time: --time-key (the value
# at a key of JSON lines: a timestamp, epoch seconds or milliseconds) and
# --time-format (strptime's letters, on the line's start, a --time-field
# or a --time-key, with %z or UTC, a missing year from --year).  The oracle
# is t/timeoracle.py (Python's json, datetime.strptime) on loggen's JSON
# lines and on files of edge cases, alone and beside --field (through
# t/tokenoracle.py), at chunk edges; --merge adopting a time key and
# refusing results whose time was read otherwise; Python's time_key= and
# time_format=; and the usage errors (exit 2)
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_cmd python3
LOGGEN=${LOGGEN:-$ABS_BUILDDIR/bench/corpus/loggen}
[ -x "$LOGGEN" ] || skip_all "no $LOGGEN (make check builds it)"

cd "$TMP" || exit 1
if ! "$GPUHIST" --key=.a /dev/null >/dev/null 2>err; then
	grep -q 'json-c' err && skip_all "built without json-c"
fi
plan 14

oracle_per() { PYTHONPATH="$T_SRCDIR" python3 "$T_SRCDIR/timeoracle.py" "$@"; }
rows() { "$GPUHIST" -f tsv "$@" | tail -n +2 | cut -f2-; }

"$LOGGEN" json 2000000 47 >json.log
cat >keys.log <<'EOF'
{"ts": "2026-11-27T10:00:01Z", "n": 1}
{"ts": 1764237605, "n": 2}
{"ts": 1764237665123, "n": 3}
{"ts": "1764237725", "n": 4}
{"ts": "[27/Nov/2026:10:04:00 +0100]", "n": 5}
{"ts": "2026-11-27 10:05:00+01:00", "n": 6}
{"ts": null}
{"n": 7}
{"ts": {"at": "2026-11-27T10:06:00Z"}}
not JSON 2026-11-27T10:07:00Z
{"ts": "2026-02-31T10:00:00Z"}
{"ts": "Nov 27 10:08:00"}
{"a": {"t": "2026-11-27T10:09:59.9Z"}}
EOF

rows --per=10s --time-key=.ts json.log >got
oracle_per --gaps --time-key .ts 10 json.log >want
same_file "loggen's JSON lines: --time-key=.ts per 10s" got want
rows --per=minute --time-key=.ts --year=2026 keys.log >got
oracle_per --gaps --time-key .ts --year 2026 60 keys.log >want
same_file "edge cases: strings, epoch s and ms, CLF, offsets, null, missing, objects, not JSON" \
	got want
rows --per=minute --time-key=.a.t keys.log >got
oracle_per --gaps --time-key .a.t 60 keys.log >want
same_file "--time-key=.a.t, a nested key" got want
rows --per=minute --time-key=.ts --chunk-size=4K --threads=3 json.log >got
oracle_per --gaps --time-key .ts 60 json.log >want
same_file "4 KiB chunks on 3 threads" got want
"$GPUHIST" -f json --per=minute --time-key=.ts --field=4 -F , json.log \
	>got.json
is "beside --field=4 -F , (tokenoracle.py)" \
	"$(PYTHONPATH="$T_SRCDIR" python3 "$T_SRCDIR/tokenoracle.py" \
	   field:4:44 json.log got.json per=60 time-key=.ts 2>&1)" same

# --time-format
cat >fmt.log <<'EOF'
27/11/2026 10:00:01 started
27/11/2026 10:00:59 working hard
27/11/2026 10:03:00 after a gap
31/02/2026 10:00:00 no such day
2026-11-27T10:00:00Z not this format
27/11/2026 25:00:00 no such hour
28/11/2026 00:00:00 the next day
EOF
rows --per=minute --time-format='%d/%m/%Y %H:%M:%S' fmt.log >got
oracle_per --gaps --time-format '%d/%m/%Y %H:%M:%S' 60 fmt.log >want
same_file "--time-format at the line's start" got want
printf '%s\n' "id,when,what" "1,27.11.2026 10:00:01 +0100,a" \
	"2,27.11.2026 10:30:00 -0230,b" "3,27.11.2026 10:59:59 +0000,c" \
	"4,not a time,d" >fmt.csv
rows --per=hour --time-field=2 -F , --time-format='%d.%m.%Y %H:%M:%S %z' \
	fmt.csv >got
oracle_per --gaps --time-field 2 --separator , \
	--time-format '%d.%m.%Y %H:%M:%S %z' 3600 fmt.csv >want
same_file "--time-format on a --time-field, with %z" got want
printf '%s\n' '"27.11.2026 10:00:01",a' '"27.11.2026 11:00:01",b' >quoted.csv
rows --per=hour --time-field=1 -F , --time-format='%d.%m.%Y %H:%M:%S' \
	quoted.csv >got
printf '%s\n' "2026-11-27T10:00:00Z	1" "2026-11-27T11:00:00Z	1" >want
same_file "--time-format inside double quotes" got want
printf '%s\n' "Nov 27 10:00:00 host a" "Nov 27 11:00:00 host b" >fmt.syslog
rows --per=hour --time-format='%b %d %H:%M:%S' --year=2024 fmt.syslog >got
printf '%s\n' "2024-11-27T10:00:00Z	1" "2024-11-27T11:00:00Z	1" >want
same_file "--time-format without a year: --year's" got want
printf '%s\n' '{"t": "27/11/2026 10:00:01"}' '{"t": "27/11/2026 10:01:01"}' \
	>fmt.jsonl
rows --per=minute --time-key=.t --time-format='%d/%m/%Y %H:%M:%S' \
	fmt.jsonl >got
printf '%s\n' "2026-11-27T10:00:00Z	1" "2026-11-27T10:01:00Z	1" >want
same_file "--time-format on a --time-key's value" got want

# --merge: the time key adopted; refused where the time was read otherwise.
"$GPUHIST" -f json --per=minute --time-key=.ts json.log >a.json
"$GPUHIST" -f tsv --merge a.json a.json --total=only | tail -n +2 |
	cut -f2- >got
oracle_per --gaps --time-key .ts 60 json.log json.log >want
same_file "--merge adopting --time-key=.ts: twice the counts" got want
"$GPUHIST" --merge --per=minute a.json >/dev/null 2>err
rc=$?
like "--merge --per=minute of a result read at .ts: exit 1" \
	"$rc $(cat err)" "^1 .*time key .ts, but this merge's is per 60 s"

# Python
if [ -f "$ABS_BUILDDIR/.libs/libgpuhist.so.1" ] &&
   [ -f "$ABS_BUILDDIR/python/gpuhist.py" ]; then
	PYTHONPATH="$ABS_BUILDDIR/python" \
	GPUHIST_LIBRARY=$ABS_BUILDDIR/.libs/libgpuhist.so.1 python3 - \
		>got 2>&1 <<'PY'
import collections, subprocess, sys
import gpuhist
got = gpuhist.count("keys.log", view="per", per=60, time_key=".ts",
                    year=2026)
fmt = gpuhist.count("fmt.log", view="per", per="minute",
                    time_format="%d/%m/%Y %H:%M:%S")
print(got[b"2026-11-27T10:00:00Z"], got[b"(no time)"],
      fmt[b"2026-11-27T10:00:00Z"], fmt[b"(no time)"])
PY
	w1=$(oracle_per --time-key .ts --year 2026 60 keys.log |
	     awk -F'\t' '$1 == "2026-11-27T10:00:00Z" { a = $2 }
			 $1 == "(no time)" { b = $2 } END { print a, b }')
	w2=$(oracle_per --time-format '%d/%m/%Y %H:%M:%S' 60 fmt.log |
	     awk -F'\t' '$1 == "2026-11-27T10:00:00Z" { a = $2 }
			 $1 == "(no time)" { b = $2 } END { print a, b }')
	is "Python: time_key= and time_format=" "$(cat got)" "$w1 $w2"
else
	skip "Python: time_key= and time_format=" "no shared libgpuhist"
fi

# Usage errors: exit 2, naming the option.
bad=""
for args in "--time-key=.ts" "--time-format=%H" "--per=hour --time-key=.a." \
	    "--per=hour --time-key=.ts --time-field=1" "--per=hour --time-format="; do
	"$GPUHIST" $args keys.log >/dev/null 2>err
	rc=$?
	[ $rc -eq 2 ] && grep -q -- '--time-\|time' err || bad="$bad [$args: $rc]"
done
is "--time-key and --time-format refused where they cannot be used: exit 2" \
	"$bad" ""
