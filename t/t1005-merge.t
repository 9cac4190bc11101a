#!/bin/sh
# t1005-merge.t - --merge: summing -f json results equals counting at once
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_cmd python3

plan 14

gendata 41 80000 >"$TMP/a"
gendata 42 60000 | gzip -c >"$TMP/b.gz"
gendata 43 30000 >"$TMP/c"
cd "$TMP" || exit 1

"$GPUHIST" -f json a >a.json
"$GPUHIST" -f json b.gz >b.json
"$GPUHIST" -f json c >c.json

# total_hist FILE: the 256 values of a json result's total, one a line.
total_hist() {
	python3 -c 'import json, sys
print("\n".join(map(str, json.load(open(sys.argv[1]))["total"]["histogram"])))' "$1"
}

"$GPUHIST" -f json a b.gz >both.json
run_gh --merge -f json a.json b.json
is "--merge of two results: exit 0, nothing on stderr" "$rc:$err" "0:"
total_hist "$TMP/out" >got
total_hist both.json >want
same_file "--merge: the total histogram equals counting both at once" got want
is "--merge: json entries carry the json files' names" \
	"$(python3 -c 'import json, sys
print(" ".join(e["name"] for e in json.load(open(sys.argv[1]))["inputs"]))' \
	"$TMP/out")" "a.json b.json"

# The merged result re-viewed: the total rows equal the oracle's.
for v in "-w 5" "-b" "-c -i"; do
	# shellcheck disable=SC2086
	"$GPUHIST" --merge $v -f tsv a.json b.json | grep '^total' >got
	oracle $v a b.gz | grep '^total' >want
	same_file "--merge $v -f tsv: the total as the oracle counts it" got want
done
"$GPUHIST" --merge -w 3 a.json b.json | sed -n '/^==> total <==$/,$p' >got
"$GPUHIST" -w 3 a b.gz | sed -n '/^==> total <==$/,$p' >want
same_file "--merge table: the total block equals counting at once" got want

# Merging is associative: a merged result merges again, from stdin too.
"$GPUHIST" --merge -f json a.json b.json >ab.json
"$GPUHIST" --merge -f json c.json - <ab.json >"$TMP/out"
total_hist "$TMP/out" >got
"$GPUHIST" -f json a b.gz c >abc.json
total_hist abc.json >want
same_file "--merge of a merged result (read from stdin)" got want

# Bad results: each named, the good ones still merged.
head -c 1000 a.json >truncated.json
python3 -c 'import json, sys
doc = json.load(open(sys.argv[1]))
del doc["total"]["histogram"][-1]
json.dump(doc, sys.stdout)' c.json >short.json
run_gh --merge -f tsv -b a.json truncated.json b.json short.json a
is "--merge with bad results: exit 1" "$rc" 1
is "--merge: each bad result named once" \
	"$(printf '%s\n' "$err" | sed 's/: not a gpuhist json result: .*//')" \
	"gpuhist: truncated.json
gpuhist: short.json
gpuhist: a"
like "--merge: a short histogram is named as such" "$err" \
	'^gpuhist: short.json: .*histogram holds fewer than 256 values'
grep '^total' "$TMP/out" >got
oracle -b a b.gz | grep '^total' >want
same_file "--merge: the total is that of the good results only" got want

# A NUL byte inside a result, and a literal that is not one, are refused.
printf 'ab' | "$GPUHIST" -f json >"$TMP/ab.json"
python3 -c '
import sys
s = open(sys.argv[1]).read()
open(sys.argv[2], "w").write(s.replace("\"histogram\": [", "\"histogram\": [\0"))
open(sys.argv[3], "w").write(s.replace("\"entropy\": ", "\"entropy\": tfff, \"x\": "))
' "$TMP/ab.json" "$TMP/nul.json" "$TMP/word.json"
run_gh --merge "$TMP/nul.json"
like "--merge: a NUL byte inside the histogram is refused" "$rc:$err" \
	'^1:gpuhist: .*nul.json: not a gpuhist json result'
run_gh --merge "$TMP/word.json"
like "--merge: a literal that is not true, false or null is refused" "$rc:$err" \
	'^1:gpuhist: .*word.json: not a gpuhist json result'
