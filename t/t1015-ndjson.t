#!/bin/sh
# t1015-ndjson.t - -f ndjson: json's entries, one object a line, in the
# order of the operands, the total last with "total": true, a failed
# input's name and error, and a run's error on a line of its own; each
# entry equal to the json document's (issue "What users see", item 7)
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_cmd python3

plan 7

cd "$TMP" || exit 1
gen log 300000 >a.log
gen random 70000 >b.bin
gzip -c a.log >c.gz

# same_entries VIEW...: the ndjson run's lines against the json document's
# entries, parsed: "same" or what differs.
same_entries() {
	"$GPUHIST" "$@" -f json a.log missing b.bin c.gz >doc.json 2>/dev/null
	"$GPUHIST" "$@" -f ndjson a.log missing b.bin c.gz >lines 2>err
	echo "exit $?"
	python3 - doc.json lines <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
lines = open(sys.argv[2]).read().split("\n")
assert lines[-1] == "", "the last line ends in a newline"
objs = [json.loads(l) for l in lines[:-1]]
total = objs.pop()
assert total.pop("total") is True, "the last line is the total"
assert list(total)[0] == "name", "then the total's entry as json has it"
if objs != doc["inputs"]:
    print("inputs differ")
elif total != doc["total"]:
    print("total differs")
else:
    print("same")
PY
}

is "bytes: each line is json's entry, the total last" \
	"$(same_entries -b)" "exit 1
same"
is "... and the failed input's message is said" "$(cat err)" \
	"gpuhist: missing: No such file or directory"
is "-m: the same" "$(same_entries -m)" "exit 1
same"
is "--stats: the same" "$(same_entries -s)" "exit 1
same"
is "one object a line, names in operand order" \
	"$(python3 -c 'import json, sys
for l in open(sys.argv[1]):
    d = json.loads(l)
    print(d["name"], "total" in d, "error" in d)' lines)" \
	"a.log False False
missing False True
b.bin False False
c.gz False False
total True False"

mkdir adir
"$GPUHIST" -f ndjson --files0-from=adir >lines 2>/dev/null
is "a run that failed as a whole: its error on the last line" \
	"$?:$(tail -1 lines)" '1:{"error": "adir: read error: Is a directory"}'

if command -v jq >/dev/null; then
	is "jq reads it: the total's bytes read" \
		"$("$GPUHIST" -f ndjson a.log b.bin | jq -c 'select(.total) | .bytes_read')" \
		370000
else
	skip "jq reads it" "no jq"
fi
