#!/bin/sh
# t1004-several-inputs.t - one block per input, then the total; names quoted
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_cmd python3

plan 17

gendata 31 50000 >"$TMP/one"
gendata 32 70000 | gzip -c >"$TMP/two.gz"
printf 'ZZZ zzz\n' >"$TMP/three"
set -- "$TMP/one" "$TMP/two.gz" "$TMP/three"

# tsv: the total rows are the sums of the inputs' rows, and come last.
"$GPUHIST" -c -f tsv "$@" >"$TMP/got"
awk -F'\t' 'NR > 1 && $1 != "total" { sum[$2] += $3; if (!($2 in seen)) {
	seen[$2] = 1; order[++n] = $2 } }
	END { for (i = 1; i <= n; i++) print "total\t" order[i] "\t" sum[order[i]] }' \
	"$TMP/got" >"$TMP/sum"
grep '^total	' "$TMP/got" >"$TMP/total"
same_file "tsv: total rows = the sum over the inputs" "$TMP/total" "$TMP/sum"
is "tsv: inputs in order, then total" \
	"$(cut -f1 "$TMP/got" | uniq | sed 's|.*/||')" "input
one
two.gz
three
total"
oracle -c "$@" >"$TMP/want"
same_file "tsv: as the oracle says" "$TMP/got" "$TMP/want"

# table: one block per input with its name, then the total block.
"$GPUHIST" -w 6 "$@" >"$TMP/got"
is "table: a header per block, the total last" \
	"$(sed -n 's|^==> .*/\(.*\) <==$|\1|p; s|^==> total <==$|total|p' "$TMP/got")" \
	"one
two.gz
three
total"
oracle_ok "table: every block's counts and footer as the oracle says" \
	-w 6 --check-table "$TMP/got" "$@"
read_sum=$(sed -n 's/^bytes read *//p' "$TMP/got" |
	awk 'NR < 4 { s += $1 } NR == 4 { t = $1 } END { print s == t }')
is "table: total bytes read = the sum over the inputs" "$read_sum" 1

# json: the total's histogram is the sum of the inputs' histograms.
"$GPUHIST" -f json "$@" >"$TMP/got"
python3 -c '
import json, sys
doc = json.load(open(sys.argv[1]))
sums = [sum(e["histogram"][v] for e in doc["inputs"]) for v in range(256)]
sys.exit(sums != doc["total"]["histogram"] or len(doc["inputs"]) != 3)' \
	"$TMP/got"
ok $? "json: total histogram = the sum of the inputs'"

# The same file twice, and stdin among files.
"$GPUHIST" -b -f tsv "$TMP/one" "$TMP/one" | grep '^total' | cut -f3 >"$TMP/got"
"$GPUHIST" -b -f tsv "$TMP/one" | sed 1d | cut -f3 |
	awk '{ print 2 * $1 }' >"$TMP/want"
same_file "the same file twice: total = twice its counts" "$TMP/got" "$TMP/want"
gzip -dc "$TMP/two.gz" | "$GPUHIST" -f tsv "$TMP/one" - "$TMP/three" >"$TMP/got"
gzip -dc "$TMP/two.gz" | oracle "$TMP/one" - "$TMP/three" >"$TMP/want"
same_file "stdin (-) among files" "$TMP/got" "$TMP/want"

# One input: no total in tsv, csv and table; json always has one.
"$GPUHIST" -f tsv "$TMP/three" >"$TMP/got"
is "one input: no total rows in tsv" "$(grep -c '^total' "$TMP/got")" 0
"$GPUHIST" "$TMP/three" >"$TMP/got"
is "one input: one table block, no header (as head and tail)" \
	"$(grep -c '^==> ' "$TMP/got"):$(grep -c '^bytes read' "$TMP/got")" "0:1"

# Names that need quoting.
mkdir "$TMP/dir"
cp "$TMP/three" "$TMP/dir/a,b \"c\".txt"
cp "$TMP/three" "$TMP/dir/tab	name"
cd "$TMP/dir" || exit 1
"$GPUHIST" -f csv 'a,b "c".txt' >"$TMP/got"
is "csv: a name with a comma and quotes is quoted (RFC 4180)" \
	"$(sed -n 2p "$TMP/got")" '"a,b ""c"".txt",a-d,0'
python3 -c '
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
sys.exit(rows[1] != ["a,b \"c\".txt", "a-d", "0"] or rows[7][2] != "3")' \
	"$TMP/got"
ok $? "csv: Python's csv module reads the name and counts back"
"$GPUHIST" -f tsv 'tab	name' >"$TMP/got"
is "tsv: a tab in a name is escaped" "$(sed -n 2p "$TMP/got")" \
	'tab\tname	a-d	0'
"$GPUHIST" -f json 'a,b "c".txt' 'tab	name' >"$TMP/got"
python3 -c '
import json, sys
doc = json.load(open(sys.argv[1]))
sys.exit([e["name"] for e in doc["inputs"]] != ["a,b \"c\".txt", "tab\tname"])' \
	"$TMP/got"
ok $? "json: names with quotes and tabs read back exactly"

# JSON is UTF-8: a UTF-8 name is kept as it is, a byte that is not UTF-8
# becomes U+FFFD, so the document stays valid.
cp "$TMP/three" "$(printf 'caf\303\251 \342\202\254.txt')"
cp "$TMP/three" "$(printf 'latin1 caf\351.txt')"
"$GPUHIST" -f json "$(printf 'caf\303\251 \342\202\254.txt')" >"$TMP/got"
python3 -c '
import json, sys
doc = json.loads(open(sys.argv[1], "rb").read())
sys.exit(doc["inputs"][0]["name"] != "caf\u00e9 \u20ac.txt")' "$TMP/got"
ok $? "json: a UTF-8 name is kept exactly"
"$GPUHIST" -f json "$(printf 'latin1 caf\351.txt')" >"$TMP/got"
python3 -c '
import json, sys
doc = json.loads(open(sys.argv[1], "rb").read())
sys.exit(doc["inputs"][0]["name"] != "latin1 caf\ufffd.txt")' "$TMP/got"
ok $? "json: a name that is not UTF-8 still gives valid JSON (U+FFFD)"
