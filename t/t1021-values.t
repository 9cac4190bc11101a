#!/bin/bash
# t1021-values.t - --values=N, a field's numbers, against Python's exact
# sort and sums (t/valuesoracle.py): integers, decimals, exponents,
# negatives, zeros, huge and tiny values, fields that are not numbers,
# lines without the field, empty input, one value; the access log's size
# field; chunks of a few bytes (numbers cut across chunks), several
# readers, gzip regions, zstd, xz and bzip2 through a pipe; -F; every
# output format; --precision and --quantiles; --merge of shards equal to
# the whole, and refusals of results of other views and precisions
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_cmd python3
need_cmd gzip

cd "$TMP" || exit 1

plan 37

# check_values DESC FIELD PLAIN [which [precision]] -- ARGS...: gpuhist -f
# json ARGS, its values against valuesoracle.py's of PLAIN.
check_values() {
	local desc=$1 field=$2 plain=$3 which=first precision=1 status verdict
	shift 3
	if [ "$1" != -- ]; then which=$1; shift; fi
	if [ "$1" != -- ]; then precision=$1; shift; fi
	shift
	"$GPUHIST" -f json "$@" >got.json 2>err
	status=$?
	verdict=$(python3 "$T_SRCDIR/valuesoracle.py" "$field" "$plain" got.json \
		  "$which" "$precision" 2>&1)
	[ $status = 0 ] || verdict="exit $status: $(head -c 300 err) $verdict"
	is "$desc" "$verdict" same
}

# Lines of numbers of every shape in field 2, and words around them.
python3 - <<'PY'
import random
r = random.Random(1021)
shapes = [
    lambda: str(r.randint(0, 5000)),
    lambda: str(r.randint(-10**6, 10**6)),
    lambda: "%.3f" % r.lognormvariate(0, 2),
    lambda: "%.6e" % (r.choice([-1, 1]) * r.lognormvariate(0, 40)),
    lambda: r.choice(["0", "-0", "+0", "0.0", ".0", "000"]),
    lambda: str(r.randint(10**17, 10**18 - 1)),          # 18 digits: exact
    lambda: str(r.randint(10**18, 10**19)),              # past: a double
    lambda: r.choice(["1e308", "-1.7e308", "4.9e-324", "2.2e-308", "1e-300"]),
    lambda: r.choice(["-", "NaN", "inf", "0x10", "1,234", "12ms", "1e",
                      ".", "+", "1e999", "--1", "1.2.3"]),
    lambda: "",
    lambda: r.choice(["5.", ".5", "+7", "1E3", "2e+2", "3e-2", "007"]),
]
with open("mixed.log", "w") as f:
    for i in range(60000):
        v = r.choice(shapes)()
        if v == "":
            f.write("lonely\n")                         # no field 2
        else:
            f.write(f"id{i} {v} tail{i % 7}\n")
with open("one.log", "w") as f:
    f.write("x 42\n")
with open("ints.log", "w") as f:
    for i in range(20000):
        f.write("%d,%d,%s\n" % (i, r.paretovariate(1.2) * 100, "ok"))
PY
: >empty.log
gen log 2000000 >access.log

check_values "mixed fields, every shape of number" 2 mixed.log -- --values=2 mixed.log
check_values "one value" 2 one.log -- --values=2 one.log
check_values "empty input" 2 empty.log -- --values=2 empty.log
check_values "integers, -F," 2:44 ints.log -- --values=2 -F , ints.log
check_values "a field with no numbers" 1 mixed.log -- --values=1 mixed.log
check_values "the access log's status" 9 access.log -- --values=9 access.log
check_values "the access log's size" 10 access.log -- --values=10 access.log
check_values "chunks of 5 bytes, 3 threads" 2 mixed.log -- \
	--values=2 --chunk-size=5 --threads=3 mixed.log
check_values "4 readers of 4 KiB chunks" 2 mixed.log -- \
	--values=2 --chunk-size=4k --threads=4 mixed.log
check_values "--precision=0.1" 2 mixed.log first 0.1 -- \
	--values=2 --precision=0.1 mixed.log
check_values "--precision=10" 2 mixed.log first 10 -- \
	--values=2 --precision=10 mixed.log
check_values "--quantiles=0,1,25,50,75,99.99,100" 2 mixed.log -- \
	--values=2 --quantiles=0,1,25,50,75,99.99,100 mixed.log

gzip -6 -n -c mixed.log >mixed.gz
GPUHIST_GZIP_REGION=16384 check_values "gzip in parallel regions" 2 mixed.log -- \
	--values=2 --threads=4 --chunk-size=4k mixed.gz
check_values "gzip through a pipe" 2 mixed.log -- --values=2 - <mixed.gz
decodes=$("$GPUHIST" --version -v 2>&1 | grep '^decodes:')
for z in zstd xz bzip2; do
	if ! echo "$decodes" | grep -q "$z\\(\$\\|,\\)"; then
		skip "$z" "this gpuhist was built without $z"
	elif command -v $z >/dev/null; then
		$z -c mixed.log >mixed.$z
		check_values "$z" 2 mixed.log -- --values=2 --threads=2 mixed.$z
	else
		skip "$z" "no $z"
	fi
done

# Several inputs: each, and their total.
split -n l/3 mixed.log shard.
check_values "three shards, each" 2 shard.aa,shard.ab,shard.ac inputs -- \
	--values=2 shard.aa shard.ab shard.ac
check_values "three shards, their total" 2 mixed.log total -- \
	--values=2 shard.aa shard.ab shard.ac

# --merge of the shards' results equals the whole's.
for s in shard.aa shard.ab shard.ac; do
	"$GPUHIST" -f json --values=2 "$s" >"$s.json"
done
"$GPUHIST" -f json --values=2 mixed.log >whole.json
python3 - whole.json >whole.total <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))["total"]
t.pop("name")
print(json.dumps(t, sort_keys=True))
PY
"$GPUHIST" -f json --merge --values=2 shard.a?.json >merged.json 2>err
python3 - merged.json >merged.total <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))["total"]
t.pop("name")
print(json.dumps(t, sort_keys=True))
PY
is "--merge of three shards: the whole's total" "$(cat merged.total)" \
	"$(cat whole.total)"
"$GPUHIST" -f json --merge shard.a?.json >adopted.json 2>err
is "--merge without --values takes the view from the result" \
	"$(python3 -c 'import json,sys; t=json.load(open(sys.argv[1]))["total"]; t.pop("name"); print(json.dumps(t, sort_keys=True))' adopted.json)" \
	"$(cat whole.total)"
"$GPUHIST" --merge --values=2 shard.a?.json >merged.table 2>err
"$GPUHIST" --values=2 mixed.log >whole.table 2>&1
is "--merge's table: the whole's" "$(tail -n +1 merged.table | sed -n '/^==> total/,$p' | tail -n +2)" \
	"$(cat whole.table)"
"$GPUHIST" -f json --merge --values=2 --precision=0.1 shard.aa.json >/dev/null 2>err
rc=$?
like "--merge at another precision is refused, naming both" \
	"$rc $(cat err)" '^1 .*128 buckets a power of two, but this merge.s precision makes 1024 \(give --precision=0.78125\)'
"$GPUHIST" -f json --merge --values=3 shard.aa.json >/dev/null 2>err
like "--merge of another field is refused, naming both views" \
	"$(cat err)" 'view values, field 2, but this merge.s is values, field 3'
"$GPUHIST" -f json --field=2 shard.aa >tokens.json
"$GPUHIST" --merge --values=2 tokens.json >/dev/null 2>err
like "--merge --values of a tokens result is refused" "$(cat err)" \
	'tokens.json: not a gpuhist json result of --values: inputs\[0\]: a result of the view field, field 2'
"$GPUHIST" -f json --values=2 -F , ints.log >ints.json
python3 - ints.json >tampered.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for e in (d["inputs"][0], d["total"]):
    e["buckets"][0]["low"] += 0.001
print(json.dumps(d))
PY
"$GPUHIST" --merge --values=2 -F , tampered.json >/dev/null 2>err
like "--merge refuses a bucket that is none of ours" "$(cat err)" \
	'is none at 0.7812% precision'

# The formats: tsv and csv give every bucket, the table a summary.
"$GPUHIST" -f tsv --values=2 mixed.log >got.tsv
"$GPUHIST" -f json --values=2 mixed.log >got.json
is "tsv: every bucket of json, and the fields that are not numbers" \
	"$(python3 - got.tsv got.json <<'PY'
import json, sys
rows = [l.split("\t") for l in open(sys.argv[1]).read().splitlines()]
doc = json.load(open(sys.argv[2]))["total"]
ok = rows[0] == ["input", "low", "high", "count"]
buckets = [[float(r[1]), float(r[2]), int(r[3])] for r in rows[1:]
           if r[1] != "(not a number)"]
want = [[b["low"], b["high"], b["count"]] for b in doc["buckets"]]
nan = [int(r[3]) for r in rows[1:] if r[1] == "(not a number)"]
print("same" if ok and buckets == want and nan == [doc["not_numbers"]]
      else "differ")
PY
)" same
"$GPUHIST" -f csv --values=2 mixed.log >got.csv
is "csv: tsv's rows, comma-separated" \
	"$(tr ',' '\t' <got.csv)" "$(cat got.tsv)"
"$GPUHIST" -f ndjson --values=2 shard.aa shard.ab >got.ndjson
"$GPUHIST" -f json --values=2 shard.aa shard.ab >got2.json
is "ndjson: json's entries, a line each" "$(python3 - got.ndjson got2.json <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
doc = json.load(open(sys.argv[2]))
total = lines.pop()
total.pop("total")
print("same" if lines == doc["inputs"] and total == doc["total"] else "differ")
PY
)" same
"$GPUHIST" --values=10 access.log >table
like "table: rows of ranges, then the summary" "$(cat table)" \
	'^value +count +share.*
bytes read +2000000
numbers +[0-9]+
not numbers +[0-9]+.*
min +[0-9]+
max +[0-9]+
sum +[0-9]+
mean +[0-9.]+
p50 +[0-9]+
p90 +[0-9]+
p99 +[0-9]+
p99.9 +[0-9]+
precision +0.7812%$'
rows=$(sed -n '2,/^bytes read/p' table | grep -vc '^bytes read')
check "table: at most 21 rows of ranges ($rows)" [ "$rows" -le 21 ]
"$GPUHIST" --values=2 empty.log >table 2>&1
is "table of empty input: counts, no figures" "$(cat table)" \
	"value  count    share
bytes read       0
numbers          0
not numbers      0"

# Usage errors.
run_gh --values=0 one.log
like "--values=0 is a usage error" "$rc $err" "^2 .*invalid field '0' for --values"
run_gh --values=2 --field=2 one.log
like "--values with --field is a usage error" "$rc $err" \
	"^2 .*options --field and --values select different views"
run_gh --precision=1 one.log
like "--precision without --values is a usage error" "$rc $err" \
	"^2 .*option --precision applies to --values only"
run_gh --values=2 --precision=0 one.log
like "--precision=0 is a usage error" "$rc $err" "^2 .*invalid precision '0'"
run_gh --values=2 --quantiles=50,101 one.log
like "--quantiles past 100 is a usage error" "$rc $err" \
	"^2 .*invalid list '50,101' for --quantiles"
