#!/bin/bash
# t1024-json-key.t - keys of JSON lines (--key=.level): the value at a
# path of each line read as JSON, as jq -r prints it.  The oracle is
# Python's json module (t/tokenoracle.py's key: view) on loggen's JSON
# lines and on a file of edge cases (escapes, numbers as written, nested
# values, missing keys, roots that are not objects, lines that are not
# JSON: trailing text, two texts, bytes that are not UTF-8, NaN, blank
# lines), across 4 KiB chunks, gzip and a pipe; every format, --merge
# (adopted and refused), --match, Python's view="key", the GPU backend
# (on a GPU host) and bad paths refused with exit 2
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_cmd python3
need_cmd gzip
LOGGEN=${LOGGEN:-$ABS_BUILDDIR/bench/corpus/loggen}
[ -x "$LOGGEN" ] || skip_all "no $LOGGEN (make check builds it)"

cd "$TMP" || exit 1
if ! "$GPUHIST" --key=.a /dev/null >/dev/null 2>err; then
	grep -q 'json-c' err && skip_all "built without json-c"
fi
plan 30

"$LOGGEN" json 3000000 11 >app.jsonl
python3 - <<'PY'
lines = [
    b'{"a": "x\\ty", "n": 1}',
    b'{"a": "\\u00e9\\u4e2d caf\xc3\xa9"}',
    b'{"a": 1.50}', b'{"a": 1e3}', b'{"a": -0}', b'{"a": 12345678901234}',
    b'{"a": -7}', b'{"a": 2.5E-3}',
    b'{"a": true}', b'{"a": false}', b'{"a": null}',
    b'{"a": {"b": [1, "/", {"c": null}], "d": "q\\"uote"}}',
    b'{"a": {"b": "deep"}}', b'{"a": {"b": 7}}', b'{"a": "flat"}',
    b'{"b": 1}', b'[1, 2]', b'"just a string"', b'42',
    b'{"a": 1} trailing', b'{"a": 1}{"a": 2}', b'{"a": 1}\r',
    b'{"a": "\xff"}', b'', b'   ', b'  {"a" : "sp"}  ', b'{"a": NaN}',
    b'{"a": "x\\u0000y"}', b'{"a": "line\\nbreak"}', b'not json at all',
    b'{"a": ' + b'[' * 100 + b'1' + b']' * 100 + b'}',
    b'{"a": [Infinity]}', b'{"a": "NaN and Infinity in a string"}',
    b'{"a": 1e999}',
    b'{"a": "' + b'z' * 100000 + b'"}',
    b'{"a": ""}', b'{"a": {}}', b'{"a": []}', b'null', b' null ', b'7',
]
body = []
for i in range(300):
    body.extend(lines)
open("edge.jsonl", "wb").write(b"\n".join(body))     # no \n at the end
PY

check_tokens "loggen's JSON lines: --key=.level" key:.level app.jsonl \
	--key=.level app.jsonl
check_tokens "--key=.req.method, a nested key" key:.req.method app.jsonl \
	--key=.req.method app.jsonl
check_tokens "--key=.latency_ms: numbers as written" key:.latency_ms \
	app.jsonl --key=.latency_ms app.jsonl
check_tokens "--key=.req: objects as compact JSON" key:.req app.jsonl \
	--key=.req app.jsonl
check_tokens "edge cases: --key=.a" key:.a edge.jsonl --key=.a edge.jsonl
check_tokens "edge cases: --key=.a.b" key:.a.b edge.jsonl --key=.a.b \
	edge.jsonl
check_tokens "edge cases: --key=. (the whole value)" key:. edge.jsonl \
	--key=. edge.jsonl
check_tokens "edge cases across 4 KiB chunks, 3 threads" key:.a edge.jsonl \
	--key=.a --chunk-size=4096 --threads=3 edge.jsonl
gzip -c app.jsonl >app.jsonl.gz
check_tokens "a gzip file" key:.level app.jsonl --key=.level app.jsonl.gz
check_tokens "a pipe" key:.service app.jsonl --key=.service - <app.jsonl.gz
check_tokens "spilled past --memory=1M" key:.trace_id app.jsonl \
	--key=.trace_id --memory=1M app.jsonl

"$GPUHIST" -f tsv --total=never --key=.a edge.jsonl >out
like "tsv: a line that is not JSON is \\xff" "$(cat out)" \
	"$(printf '^edge.jsonl\t\\\\xff\t2400$')"
like "tsv: a tab inside a string is escaped" "$(cat out)" \
	"$(printf '^edge.jsonl\tx\\\\ty\t300$')"
"$GPUHIST" --key=.a edge.jsonl >out
like "the table: (not JSON), and the path over the labels" \
	"$(cat out)" '^\(not JSON\) +2400 '
is "the table's label column: the path" "$(head -1 out | awk '{print $1}')" .a
"$GPUHIST" -f json --key=.level app.jsonl | python3 -c '
import json, sys
e = json.load(sys.stdin)["inputs"][0]
print(e["view"], e["key"], sorted(e["counts"][0]))' >got
is "json: view \"key\" and its path" "$(cat got)" "key .level ['count', 'token']"
printf '{"a.b": 5}\n{"a": {"b": 6}}\n' >dotted.jsonl
"$GPUHIST" -f tsv --total=never --key='."a.b"' dotted.jsonl | cut -f2- >got
printf 'token\tcount\n5\t1\nnull\t1\n' >want
same_file "a quoted name holds a dot: .\"a.b\"" got want

# --merge: the results' values added up, the view taken from the first.
head -n 5000 app.jsonl >a.jsonl
tail -n +5001 app.jsonl >b.jsonl
"$GPUHIST" -f json --key=.status a.jsonl >a.json
"$GPUHIST" -f json --key=.status b.jsonl >b.json
"$GPUHIST" -f tsv --key=.status --total=only a.jsonl b.jsonl | sort >want
"$GPUHIST" -f tsv --merge --total=only a.json b.json | sort >got
same_file "--merge with no view: the key's, adopted, adds up" got want
run_gh --merge --key=.level a.json
like "--merge of another key: refused, naming both" "$rc $err" \
	'^1 .*view key .status, but this merge.s is key .level'

grep '"ERROR"' app.jsonl >kept.jsonl
check_tokens "--match=ERROR --key=.service: the values of the lines kept" \
	key:.service kept.jsonl --match='"ERROR"' --key=.service app.jsonl

# --values=.ms: the numbers of a key (strings of digits too; null and
# lines that are not JSON are not numbers).
values_ok() {
	local desc=$1 key=$2 plain=$3 verdict
	shift 3
	"$GPUHIST" -f json "$@" >got.json 2>err
	verdict=$(python3 "$T_SRCDIR/valuesoracle.py" "key:$key" "$plain" got.json 2>&1)
	is "$desc" "$verdict" same
}
values_ok "--values=.latency_ms against Python" .latency_ms app.jsonl \
	--values=.latency_ms app.jsonl
values_ok "--values=.a of the edge cases" .a edge.jsonl --values=.a edge.jsonl
"$GPUHIST" -f json --values=.latency_ms a.jsonl >va.json
"$GPUHIST" -f json --values=.latency_ms b.jsonl >vb.json
"$GPUHIST" -f json --merge va.json vb.json >vm.json
verdict=$(python3 "$T_SRCDIR/valuesoracle.py" key:.latency_ms app.jsonl vm.json total 2>&1)
is "--merge of two --values=.latency_ms results, the view adopted" "$verdict" same
run_gh --merge --values=.status va.json
like "--merge of another key's numbers: refused" "$rc $err" \
	'^1 .*values, key .latency_ms, but this merge.s is values, key .status'

if [ -f "$ABS_BUILDDIR/.libs/libgpuhist.so.1" ] && [ -f "$ABS_BUILDDIR/python/gpuhist.py" ]; then
	PYTHONPATH=$ABS_BUILDDIR/python GPUHIST_LIBRARY=$ABS_BUILDDIR/.libs/libgpuhist.so.1 \
		python3 - app.jsonl >got 2>&1 <<'PY'
import collections, json, sys
import gpuhist
want = collections.Counter(json.loads(l)["level"].encode()
                           for l in open(sys.argv[1], "rb"))
got = gpuhist.count(sys.argv[1], view="key", key=".level")
print(got == want)
PY
	is "Python: view=\"key\", key=\".level\"" "$(cat got)" True
else
	skip "Python: view=key" "no shared libgpuhist in the build"
fi

run_gh --key=level app.jsonl
like "a path without its dot: exit 2, said" "$rc $err" \
	"^2 gpuhist: --key 'level': a path begins with a dot"
run_gh --key='."a' app.jsonl
like "a quoted name not closed: exit 2" "$rc $err" "^2 gpuhist: --key '.\"a': a quoted name"
run_gh --key=.a --field=1 app.jsonl
like "--key and --field: exit 2" "$rc $err" "^2 gpuhist: options --key and --field select different views"
run_gh --key=.a -F , app.jsonl
like "-F with --key: exit 2" "$rc $err" "^2 gpuhist: option -F applies"

if have_gpu; then
	check_tokens "--backend=gpu: the values cut by the host, the same" \
		key:.level app.jsonl --backend=gpu --key=.level app.jsonl
else
	skip "--backend=gpu: the values cut by the host" "no CUDA device"
fi
