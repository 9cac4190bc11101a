#!/bin/bash
# t1023-field-keys.t - keys of several fields (--field=1,9): each line's
# fields, in the order named, counted as one key.  The oracle is Python
# (t/tokenoracle.py's fields: view, a Counter of tuples) on generated
# logs of three shapes (loggen's access and csv, t/gen.py's log), a file
# with lines shorter than the key and across chunks of 4 KiB, gzip and a
# pipe; every format's columns, --top, --merge (adopted and refused),
# spilled past --memory, --match, Python's field=(1, 9), the GPU backend
# (on a GPU host), and the options refused with exit 2
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_cmd python3
need_cmd gzip
LOGGEN=${LOGGEN:-$ABS_BUILDDIR/bench/corpus/loggen}
[ -x "$LOGGEN" ] || skip_all "no $LOGGEN (make check builds it)"

cd "$TMP" || exit 1
plan 29

"$LOGGEN" access 3000000 7 >access.log
"$LOGGEN" csv 2000000 7 >events.csv
gen log 1000000 >gen.log
# Lines with fewer fields than the key, blanks at both ends, tabs, empty
# lines, lines of every length around 4 KiB, no newline at the end.
python3 - <<'PY'
import random
r = random.Random(1023)
out = []
for i in range(4000):
    n = r.choice([0, 1, 2, 3, 5])
    words = [r.choice([b"a", b"b", b"GET", b"x" * r.choice([1, 4000, 4100])])
             for _ in range(n)]
    sep = r.choice([b" ", b"\t", b"  \t "])
    out.append(r.choice([b"", b" ", b"\t"]) + sep.join(words) +
               r.choice([b"", b" "]))
open("odd.log", "wb").write(b"\n".join(out))
PY

check_tokens "access: --field=1,9, the client and the status" fields:1,9 \
	access.log --field=1,9 access.log
check_tokens "access: --field=9,1,6, three fields in the order named" \
	fields:9,1,6 access.log --field=9,1,6 access.log
check_tokens "csv: -F , --field=3,4, country and event" fields:3,4:44 \
	events.csv -F , --field=3,4 events.csv
check_tokens "csv: -F , --field=7,5 (an empty field among them)" \
	fields:7,5:44 events.csv -F , --field=7,5 events.csv
check_tokens "gen.py's log: --field=1,9" fields:1,9 gen.log --field=1,9 gen.log
check_tokens "lines with fewer fields: \"\" in their place" fields:2,1,3 \
	odd.log --field=2,1,3 odd.log
check_tokens "the same across 4 KiB chunks, 3 threads" fields:2,1,3 odd.log \
	--field=2,1,3 --chunk-size=4096 --threads=3 odd.log
check_tokens "access across 4 KiB chunks, 3 threads" fields:1,9 access.log \
	--field=1,9 --chunk-size=4096 --threads=3 access.log
gzip -c access.log >access.log.gz
check_tokens "a gzip file: its decoded lines' keys" fields:1,9 access.log \
	--field=1,9 access.log.gz
check_tokens "a pipe" fields:1,9 access.log --field=1,9 - <access.log.gz
check_tokens "spilled past --memory=1M" fields:1,7 access.log \
	--field=1,7 --memory=1M access.log

# Columns: tsv and csv a column a field, json a member a field.
"$GPUHIST" -f tsv --field=9,1 access.log >out
is "tsv: a header column a field" "$(head -1 out)" "$(printf 'input\tfield9\tfield1\tcount')"
python3 - access.log out >got <<'PY'
import collections, re, sys
lines = open(sys.argv[1], "rb").read().split(b"\n")[:-1]
want = collections.Counter()
for l in lines:
    f = re.findall(rb"[^ \t]+", l)
    want[(f[8].decode(), f[0].decode())] += 1
got = collections.Counter()
for row in open(sys.argv[2]).read().split("\n")[1:-1]:
    name, status, client, n = row.split("\t")
    if name != "total":
        got[(status, client)] += int(n)
print("same" if got == want else "differ")
PY
is "tsv: each row's fields in their columns, as Python splits them" "$(cat got)" same
"$GPUHIST" -f csv -F , --field=3,4 --total=never events.csv | sed -n '1p;$p' >got
python3 - events.csv >want <<'PY'
import collections, sys
rows = [l.split(b",") for l in open(sys.argv[1], "rb").read().split(b"\n")[:-1]]
c = collections.Counter((r[2], r[3]) for r in rows)
last = sorted(c.items(), key=lambda kv: (-kv[1], kv[0]))[-1]
print("input,field3,field4,count")
print("events.csv,%s,%s,%d" % (last[0][0].decode(), last[0][1].decode(), last[1]))
PY
same_file "csv: the header, and the least common key in its columns" got want
"$GPUHIST" -f json -F , --field=3,4 events.csv | python3 -c '
import json, sys
e = json.load(sys.stdin)["inputs"][0]
print(e["view"], e["fields"], e["separator"], sorted(e["counts"][0]))' >got
is "json: view \"fields\", its fields and separator, a member a field" \
	"$(cat got)" "fields [3, 4] 44 ['count', 'field3', 'field4']"
"$GPUHIST" --field=1,9 odd.log access.log >/dev/null 2>&1
"$GPUHIST" --field=6,9 access.log >out
like "the table: a key's fields with a space between" "$(cat out)" \
	'^"GET 200 +[0-9]+ '
is "the table's label column: key" "$(head -1 out | awk '{print $1}')" key
"$GPUHIST" -f tsv --top=2 --total=never --field=6,9 access.log | tail -1 >got
like "--top: the other row, its other columns empty" "$(cat got)" \
	"$(printf '^access.log\t\\(other\\)\t\t[0-9]+$')"

# --merge: the results' keys added up, the view taken from the first.
head -n 8000 access.log >a.log
tail -n +8001 access.log >b.log
"$GPUHIST" -f json --field=1,9 a.log >a.json
"$GPUHIST" -f json --field=1,9 b.log >b.json
"$GPUHIST" -f tsv --field=1,9 --total=only a.log b.log | sort >want
"$GPUHIST" -f tsv --merge --field=1,9 --total=only a.json b.json | sort >got
same_file "--merge: two results' keys add up to counting both" got want
"$GPUHIST" -f tsv --merge --total=only a.json b.json | sort >got
same_file "--merge with no view: the key's, adopted from the first result" got want
"$GPUHIST" -f json --merge --field=1,9 a.json b.json >m.json
python3 "$T_SRCDIR/tokenoracle.py" fields:1,9 access.log m.json total >got
is "--merge's json total against Python" "$(cat got)" same
printf 'c\nc\na b\n' >short.log
"$GPUHIST" -f json --field=1,2 short.log >short.json
"$GPUHIST" -f tsv --merge short.json | sed 1d | sort >got
printf 'short.json\ta\tb\t1\nshort.json\tc\t\t2\n' | sort >want
same_file "--merge: a key whose second field is empty in every row" got want
run_gh --merge --field=9,1 a.json
like "--merge of another key: refused, naming both" "$rc $err" \
	'^1 .*view fields 1,9, but this merge.s is fields 9,1'

# --match, then the key of the lines kept.
grep ' 404 ' access.log >kept.log
check_tokens "--match=' 404 ' --field=1,7: the keys of the lines kept" \
	fields:1,7 kept.log --match=' 404 ' --field=1,7 access.log

# Python: field=(1, 9) gives a Counter of tuples of bytes.
if [ -f "$ABS_BUILDDIR/.libs/libgpuhist.so.1" ] && [ -f "$ABS_BUILDDIR/python/gpuhist.py" ]; then
	PYTHONPATH=$ABS_BUILDDIR/python GPUHIST_LIBRARY=$ABS_BUILDDIR/.libs/libgpuhist.so.1 \
		python3 - access.log >got 2>&1 <<'PY'
import collections, re, sys
import gpuhist
data = open(sys.argv[1], "rb").read()
want = collections.Counter()
for l in data.split(b"\n")[:-1]:
    f = re.findall(rb"[^ \t]+", l)
    want[(f[0], f[8])] += 1
got = gpuhist.count(sys.argv[1], view="field", field=(1, 9))
s = gpuhist.Stream(view="field", field=(1, 9), top=3)
s.write(data)
print(got == want and s.close() == collections.Counter(dict(want.most_common(3))))
PY
	is "Python: field=(1, 9), count() and a Stream's top 3" "$(cat got)" True
else
	skip "Python: field=(1, 9)" "no shared libgpuhist in the build"
fi

# Refused, exit 2.
run_gh --field=1,1 access.log
like "a field twice in a key: exit 2" "$rc $err" "^2 gpuhist: field 1 twice in '1,1'"
run_gh --values=1,2 access.log
like "--values of a key: exit 2" "$rc $err" "^2 gpuhist: --values reads one field"
run_gh --field=1,2,3,4,5,6,7,8,9 access.log
like "nine fields: exit 2" "$rc $err" "^2 gpuhist: too many fields"

# The GPU's kernels cut one field: the host cuts a key, and -v says so.
if have_gpu; then
	check_tokens "--backend=gpu: the key counted by the host, the same" \
		fields:1,9 access.log --backend=gpu --field=1,9 access.log
else
	skip "--backend=gpu: the key counted by the host" "no CUDA device"
fi
