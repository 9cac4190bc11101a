#!/bin/bash
# t1026-merge-library.t - results read back through the library
# (gpuhist_merge_json, its table of readers, one a view), from Python:
# gpuhist.merge() of two -f json results of every view equals Python's
# own count of both logs together (Counter of bytes, of code points, of
# words, lines, fields, keys of several fields and JSON keys; an exact sum
# of a field's numbers); a result refused raises gpuhist.Error with the
# message the command prints, and a result of another view is refused.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_cmd python3
LOGGEN=${LOGGEN:-$ABS_BUILDDIR/bench/corpus/loggen}
[ -x "$LOGGEN" ] || skip_all "no $LOGGEN (make check builds it)"
[ -f "$ABS_BUILDDIR/.libs/libgpuhist.so.1" ] &&
	[ -f "$ABS_BUILDDIR/python/gpuhist.py" ] ||
	skip_all "no shared libgpuhist in the build (Python needs it)"
export PYTHONPATH=$ABS_BUILDDIR/python
export GPUHIST_LIBRARY=$ABS_BUILDDIR/.libs/libgpuhist.so.1

cd "$TMP" || exit 1
plan 13

"$LOGGEN" access 1500000 26 >a.log
"$LOGGEN" access 900000 27 >b.log
"$LOGGEN" json 600000 26 >a.json.log
"$LOGGEN" json 400000 27 >b.json.log
python3 "$T_SRCDIR/gentext.py" mixed 26 300000 >a.utf8
python3 "$T_SRCDIR/gentext.py" mixed 27 200000 >b.utf8

# Two results of each view, and the question Python answers of them.
results() {     # NAME INPUT_A INPUT_B GPUHIST_ARGS...
	local name=$1 a=$2 b=$3
	shift 3
	"$GPUHIST" --backend=cpu "$@" -f json "$a" >"$name.1.json" &&
		"$GPUHIST" --backend=cpu "$@" -f json "$b" >"$name.2.json"
}
merged() {      # DESCRIPTION NAME INPUT_A INPUT_B PYTHON_EXPRESSION...
	local what=$1 name=$2 a=$3 b=$4
	shift 4
	python3 - "$name" "$a" "$b" "$@" >got 2>&1 <<'PY'
import collections, json, re, sys
import gpuhist
name, a, b, want, call = sys.argv[1:6]
data = open(a, "rb").read() + open(b, "rb").read()
lines = data.split(b"\n")[:-1]
words = lambda l: re.findall(rb"[^ \t\r\n]+", l)
def jq(l):
    try:
        v = json.loads(l).get("level")
    except ValueError:
        return b"\xff"
    return b"null" if v is None else str(v).encode()
want = eval(want)
got = eval("gpuhist.merge([name + '.1.json', name + '.2.json'], " + call +
           ")")
got = got.tolist() if hasattr(got, "tolist") else got     # numpy's
print(got == want or (got, want))
PY
	is "$what" "$(cat got)" True
}

results b a.log b.log -b
merged "bytes: the 256 totals are Python's Counter of both logs' bytes" \
	b a.log b.log "[collections.Counter(data)[v] for v in range(256)]" \
	"view='bytes'"
results m a.utf8 b.utf8 -m
merged "chars: the code points are Python's decoding of both" m a.utf8 b.utf8 \
	"collections.Counter(data.decode('utf-8', 'surrogateescape'))" \
	"view='chars'"
results t a.log b.log -t
merged "words: Python's Counter of both logs' words" t a.log b.log \
	"collections.Counter(w for l in data.split(b'\n') for w in words(l))" \
	"view='words'"
results l a.log b.log --lines
merged "lines: Python's Counter of both logs' lines" l a.log b.log \
	"collections.Counter(lines)" "view='lines'"
results f a.log b.log --field=1
merged "field 1: Python's Counter of the clients" f a.log b.log \
	"collections.Counter(words(l)[0] for l in lines)" "view='field', field=1"
results k a.log b.log --field=1,9
merged "fields 1,9: a Counter of tuples" k a.log b.log \
	"collections.Counter((words(l)[0], words(l)[8]) for l in lines)" \
	"view='field', field=(1, 9)"
results top a.log b.log --field=9
merged "field 9, top=2: the two commonest statuses" top a.log b.log \
	"collections.Counter(dict(collections.Counter(words(l)[8] for l in lines).most_common(2)))" \
	"view='field', field=9, top=2"
results j a.json.log b.json.log --key=.level
merged "key .level: Python's json of each line" j a.json.log b.json.log \
	"collections.Counter(jq(l) for l in lines)" "view='key', key='.level'"
results sp a.log b.log -t
merged "words, spilled past memory=64K: the same Counter" sp a.log b.log \
	"collections.Counter(w for l in data.split(b'\n') for w in words(l))" \
	"view='words', memory=65536, temporary_directory='.'"
results v a.log b.log --values=10
python3 - >got 2>&1 <<'PY'
import re
import gpuhist
data = open("a.log", "rb").read() + open("b.log", "rb").read()
n = [int(re.findall(rb"[^ \t]+", l)[9]) for l in data.split(b"\n")[:-1]]
v = gpuhist.merge(["v.1.json", "v.2.json"], view="values", field=10)
print((v.numbers, v.min, v.max, v.sum, v.sum_exact) ==
      (len(n), min(n), max(n), sum(n), True) or v)
PY
is "values of field 10: count, min, max and the exact sum of Python's" \
	"$(cat got)" True
results s a.log b.log -s
"$GPUHIST" --merge -s -f json s.1.json s.2.json >cli.json
python3 - >got 2>&1 <<'PY'
import json
import gpuhist
got = gpuhist.merge(["s.1.json", "s.2.json"], view="stats")
total = json.load(open("cli.json"))["total"]["stats"]
print(all(got[k] == total[k] for k in ("pairs", "groups", "hits")) and
      abs(got["entropy"] - total["entropy"]) <= 5e-7 and
      got["bytes"] == json.load(open("cli.json"))["total"]["bytes_read"]
      or (got, total))
PY
is "stats: the sums and figures of gpuhist --merge -s" "$(cat got)" True

# Refused: a total changed, and a result of another view, with the
# command's own message.
sed '0,/"count": 1}/s//"count": 2}/' t.2.json >changed.json
"$GPUHIST" --merge -t changed.json >/dev/null 2>cli.err
python3 - >got 2>&1 <<'PY'
import gpuhist
try:
    gpuhist.merge(["t.1.json", "changed.json"], view="words")
    print("taken")
except gpuhist.Error as e:
    print(e.status == 4, "gpuhist: " + str(e))
PY
is "a changed result: gpuhist.Error, the command's message" "$(cat got)" \
	"True $(cat cli.err)"
python3 - >got 2>&1 <<'PY'
import gpuhist
try:
    gpuhist.merge("f.1.json", view="words")
    print("taken")
except gpuhist.Error as e:
    print(e.status, str(e))
PY
like "a result of field 1 merged as words: refused, naming both views" \
	"$(cat got)" "^4 f.1.json: not a gpuhist json result of tokens: .*view field 1, but this merge's is words"
