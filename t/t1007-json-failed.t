#!/bin/sh
# t1007-json-failed.t - json marks a failed input (its name and error, no
# counts), and --merge refuses a result that holds one
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_cmd python3

plan 14

cd "$TMP" || exit 1
printf 'hello world\n' >a
printf 'abc' >b
printf 'abc' | gzip -c | head -c 15 >cut.gz

# Failed inputs among good ones: an entry each, in operand order.
run_gh -f json a missing.gz b cut.gz nodir/f 'x: y'
is "json with failed inputs: exit 1, one message each" \
	"$rc:$(printf '%s\n' "$err" | sed 's/^\(gpuhist: [^:]*\): .*/\1/' | tr '\n' ' ')" \
	"1:gpuhist: missing.gz gpuhist: cut.gz gpuhist: nodir/f gpuhist: x "
cp "$TMP/out" failed.json
cp "$TMP/err" failed.err
is "the failed entries: name and error only, the reason of the message" \
	"$(python3 -c 'import json, sys
doc = json.load(open(sys.argv[1]))
err = open(sys.argv[2]).read().splitlines()
for e in doc["inputs"]:
    if "error" in e:
        said = "gpuhist: %s: %s" % (e["name"], e["error"]) in err
        print(e["name"], sorted(e), "said" if said else "not said")
    else:
        print(e["name"], len(e["histogram"]))' failed.json failed.err)" \
	"a 256
missing.gz ['error', 'name'] said
b 256
cut.gz ['error', 'name'] said
nodir/f ['error', 'name'] said
x: y ['error', 'name'] said"
is "the errors are the reasons only" \
	"$(python3 -c 'import json, sys
for e in json.load(open(sys.argv[1]))["inputs"]:
    if "error" in e:
        print(e["error"])' failed.json)" \
	"No such file or directory
unexpected end of file (truncated gzip data)
No such file or directory
No such file or directory"
"$GPUHIST" -f json a b >good.json
is "the total is that of the good inputs only" \
	"$(python3 -c 'import json, sys
print(json.load(open(sys.argv[1]))["total"] == json.load(open(sys.argv[2]))["total"])' \
	failed.json good.json)" "True"

# A failed stdin: one entry, a total of nothing.
run_gh -f json <cut.gz
is "a failed stdin: exit 1, an entry for -, the total zero" \
	"$rc:$(python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(d["inputs"], d["total"]["bytes_read"], sum(d["total"]["histogram"]))' \
	"$TMP/out")" \
	"1:[{'name': '-', 'error': 'unexpected end of file (truncated gzip data)'}] 0 0"

# The other formats show nothing of a failed input, as before.
run_gh -f tsv a missing.gz
is "tsv: no rows for a failed input" \
	"$rc:$(cut -f1 "$TMP/out" | sort -u | tr '\n' ' ')" "1:a input total "
run_gh a missing.gz
is "table: no block for a failed input" \
	"$rc:$(grep '^==>' "$TMP/out" | tr '\n' ' ')" "1:==> a <== ==> total <== "

# --merge refuses a result that holds a failed input, naming it.
"$GPUHIST" -f json a missing.gz >p.json 2>/dev/null
"$GPUHIST" -f json a >a.json
run_gh --merge -b -f tsv p.json a.json
is "--merge of a result with a failed input: exit 1, the input and error named" \
	"$rc:$err" \
	"1:gpuhist: p.json: failed input missing.gz: No such file or directory"
is "... and nothing of it is added" \
	"$(grep -v '^a.json	' "$TMP/out" | cut -f1 | sort -u | tr '\n' ' ')" \
	"input total "
grep '^a.json	' "$TMP/out" | cut -f2- >want
grep '^total	' "$TMP/out" | cut -f2- >got
same_file "... the total is the good result's" got want
run_gh --merge -f json p.json a.json
cp "$TMP/out" q.json
is "--merge -f json: the refused result is an entry with its error" \
	"$rc:$(python3 -c 'import json, sys
print(json.load(open(sys.argv[1]))["inputs"][0])' q.json)" \
	"1:{'name': 'p.json', 'error': 'failed input missing.gz: No such file or directory'}"
run_gh --merge q.json
is "... which a later --merge refuses in turn" "$rc:$(wc -c <"$TMP/out"):$err" \
	"1:0:gpuhist: q.json: failed input p.json: failed input missing.gz: No such file or directory"
run_gh --merge failed.json
is "--merge: the first failed input is named" "$rc:$(wc -c <"$TMP/out"):$err" \
	"1:0:gpuhist: failed.json: failed input missing.gz: No such file or directory"

# A result of several --merge failures keeps each reason.
run_gh --merge -f json missing.json a.json
is "--merge -f json of a missing result: its entry has the reason" \
	"$rc:$(python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(d["inputs"][0], d["total"]["bytes_read"])' "$TMP/out")" \
	"1:{'name': 'missing.json', 'error': 'No such file or directory'} 12"
