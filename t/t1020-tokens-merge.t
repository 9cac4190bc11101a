#!/bin/bash
# t1020-tokens-merge.t - --merge of the tokens views' json: shards of a log
# (cut at lines) counted apart and merged must give what the whole gives,
# byte for byte and against Python (t/tokenoracle.py), in every view, for
# tokens of any bytes (control bytes, bytes that are not UTF-8), merged
# again from merged results, and spilled (--memory); and the strict
# reader: a result cut by --top, of another view or field, whose total
# is not its inputs' (a count moved between tokens, a token twice), whose
# figures disagree, of a failed input, or of the histogram views, is
# refused with a message naming the file (exit 1), the other operands
# still merged
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_cmd python3

cd "$TMP" || exit 1

plan 37

gen log 2000000 >log
# Odd bytes: NUL, controls, ill-formed UTF-8, CRLF, a long line.
python3 - <<'PY'
import random
r = random.Random(1020)
with open("odd", "wb") as f:
    for i in range(20000):
        f.write(bytes(r.choice([0, 1, 9, 27, 0x80, 0xc3, 0xa9, 0xff, 0x41, 0x20, 0x2c])
                      for _ in range(r.randrange(1, 12))) + b"\r\n")
    f.write(b"x" * 300000 + b"\n")
PY
cat log odd >all
split -n l/4 all shard.

# merged VIEW_ARGS...: the shards counted apart, then merged, in all.json
merged() {
	for s in shard.a?; do
		"$GPUHIST" "$@" -f json "$s" >"$s.json" || return 1
	done
	"$GPUHIST" "$@" --merge -f json shard.a?.json >all.json
}
check_merge() {
	desc=$1 view=$2
	shift 2
	merged "$@"
	status=$?
	verdict=$(python3 "$T_SRCDIR/tokenoracle.py" "$view" all all.json \
		  total 2>&1)
	[ $status = 0 ] || verdict="exit $status: $verdict"
	is "$desc" "$verdict" same
	"$GPUHIST" "$@" -f tsv --total=only all >whole.tsv
	"$GPUHIST" "$@" --merge -f tsv --total=only shard.a?.json >merged.tsv
	same_file "... and tsv's total, byte for byte" merged.tsv whole.tsv
}
check_merge "words of 4 shards merged, against Python" words -t
check_merge "lines of 4 shards merged, against Python" lines --lines
check_merge "field 1 of 4 shards merged, against Python" field:1 --field=1
check_merge "field 2 by ',' of 4 shards merged, against Python" field:2:44 \
	--field=2 -F ,

# Merged results merged again: two of the shards, then the rest.
merged --lines
"$GPUHIST" --lines --merge -f json shard.aa.json shard.ab.json >half.json
"$GPUHIST" --lines -f json shard.ac >c.json
"$GPUHIST" --lines -f json shard.ad >d.json
"$GPUHIST" --lines --merge -f json c.json d.json >rest.json
"$GPUHIST" --lines --merge -f json half.json rest.json >again.json
verdict=$(python3 "$T_SRCDIR/tokenoracle.py" lines all again.json total 2>&1)
is "merged results merged again" "$verdict" same
"$GPUHIST" --lines --merge --memory=1M -T . -f tsv --total=only \
	shard.a?.json >spilled.tsv 2>err
"$GPUHIST" --lines -f tsv --total=only all >whole.tsv
same_file "merged in 1M (spilled), byte for byte" spilled.tsv whole.tsv
is "... nothing left behind" "$(ls -A | grep -c '^gpuhist-')" 0
"$GPUHIST" --lines --merge -f json - <half.json >from-stdin.json
ok $? "a result from standard input"

# The table of a merge: the operands' blocks, then their total.
"$GPUHIST" --lines --merge c.json d.json >table 2>err
status=$?
like "the table shows each operand and the total" "$(cat table)" \
	'^==> total <==$'
is "... exit 0" "$status" 0

# The strict reader.  refused DESC FILE ERE [VIEW_ARGS]: --merge of FILE
# and a good result of the view exits 1, says ERE naming FILE, and still
# reports the good one.
refused() {
	desc=$1 file=$2 pattern=$3
	shift 3
	[ $# = 0 ] && set -- --lines
	"$GPUHIST" "$@" -f json shard.ab >good.json
	"$GPUHIST" "$@" --merge -f tsv "$file" good.json >out 2>err
	status=$?
	if [ $status = 1 ] && grep -Eq "^gpuhist: $file: .*($pattern)" err &&
	   grep -q '^good.json	' out; then
		ok 0 "$desc"
	else
		ok 1 "$desc"
		diag "exit $status: $(head -c 300 err)"
	fi
}
"$GPUHIST" --lines --top=5 -f json shard.aa >top.json
refused "a result cut by --top" top.json 'cut by --top'
"$GPUHIST" -t -f json shard.aa >words.json
refused "a result of words, merged as lines" words.json \
	'the view words, but this merge.s is lines' --lines
refused "... of words, merged as field 1" words.json \
	'the view words, but this merge.s is field 1' --field=1
"$GPUHIST" --field=2 -f json shard.aa >f2.json
refused "... of field 2, merged as field 3" f2.json \
	'the view field 2, but this merge.s is field 3' --field=3
refused "... of field 2, merged with -F ," f2.json \
	'the view field 2, but this merge.s is field 2, separator 44' \
	--field=2 -F ,
"$GPUHIST" -b -f json shard.aa >bytes.json
refused "a result of the byte view" bytes.json 'no "view"'

# Tampered results: python edits a good one.
"$GPUHIST" --lines -f json shard.ac shard.ad >two.json
tamper() {
	python3 - "$1" <<PY
import json, sys
d = json.load(open("two.json", encoding="utf-8", errors="surrogateescape"))
t = d["total"]
c = t["counts"]
$2
json.dump(d, open(sys.argv[1], "w", encoding="utf-8", errors="surrogateescape"))
PY
}
tamper moved.json 'c[0]["count"] += 1; c[1]["count"] -= 1; assert c[1]["count"]'
refused "a count moved between two tokens of the total" moved.json \
	'not the inputs. added up'
tamper twice.json 't["counts"] = c + [c[0]]; t["distinct"] += 1; t["tokens"] += c[0]["count"]
d["inputs"][0]["counts"].append(c[0]); d["inputs"][0]["distinct"] += 1
d["inputs"][0]["tokens"] += c[0]["count"]; d["inputs"][0]["bytes_read"] += 0'
refused "a token twice in the total" twice.json 'twice|not the sum'
tamper sum.json 't["tokens"] += 1'
refused "tokens that are not the counts' sum" sum.json \
	'tokens is .*, but the counts add up to'
tamper distinct.json 't["distinct"] -= 1'
refused "distinct that is not the rows'" distinct.json \
	'distinct is .*, but counts holds'
tamper zero.json 'c[0]["count"] = 0'
refused "a count of 0" zero.json 'is 0'
tamper bytes.json 't["bytes_read"] += 1'
refused "a total's bytes_read that is not the inputs'" bytes.json \
	'bytes_read is not the sum'
tamper failed.json 'd["inputs"][0] = {"name": "x", "error": "No such file"}'
refused "an entry of a failed input" failed.json 'failed input x'
printf '{"inputs": [], "total": {"name": "total", "view": "lines", "bytes_read": 0, "tokens": 1, "distinct": 1, "counts": [{"token": "\\udc00", "count": 1}]}}' >surrogate.json
refused "a lone surrogate that is no byte" surrogate.json 'lone low surrogate'
refused "no such file" nosuch.json 'No such file'

# Counts that pass 2^64-1 only added across results: refused, never a
# token dropped (a count of 2^64 wrapped to 0 was a free slot); each input
# still reported, the total an entry with its error, said once.
cat >big.json <<'JSON'
{"inputs": [
  {"name": "-", "view": "lines", "bytes_read": 6, "tokens": 9223372036854775809, "distinct": 2,
   "counts": [{"token": "a", "count": 9223372036854775808}, {"token": "b", "count": 1}]}],
 "total": {"name": "total", "view": "lines", "bytes_read": 6, "tokens": 9223372036854775809, "distinct": 2,
   "counts": [{"token": "a", "count": 9223372036854775808}, {"token": "b", "count": 1}]}}
JSON
"$GPUHIST" --merge --lines -f json big.json big.json >out 2>err
is "--merge of two results whose counts pass 2^64-1 together: exit 1, one message" \
	"$?:$(grep -c 'passes 2^64-1' err):$(wc -l <err)" "1:1:1"
is "... json: both inputs, and the total an entry with its error" \
	"$(python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(len(d["inputs"]), [e["count"] for e in d["inputs"][1]["counts"]],
      sorted(d["total"]), "2^64-1" in d["total"]["error"])' out)" \
	"2 [9223372036854775808, 1] ['error', 'name'] True"
"$GPUHIST" --merge --lines -f ndjson big.json big.json >out 2>/dev/null
is "... ndjson: a line an input, the total's line with its error" \
	"$?:$(python3 -c 'import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
print(len(lines), lines[-1]["name"], lines[-1]["total"], "error" in lines[-1])' out)" \
	"1:3 total True True"

# --merge with no view of its own: the view the first result was written
# in (json names it), not a histogram's refusal.
"$GPUHIST" --merge -f tsv f2.json >out 2>err
"$GPUHIST" --merge --field=2 -f tsv f2.json >want 2>&1
is "--merge of a --field=2 result, no view given: merged as --field=2" \
	"$?:$(cmp -s out want && echo same):$(wc -c <err)" "0:same:0"
"$GPUHIST" --field=2 -F , -f json shard.aa >f2c.json
"$GPUHIST" --merge -f tsv f2c.json >out 2>err
"$GPUHIST" --merge --field=2 -F , -f tsv f2c.json >want 2>&1
is "... of --field=2 -F ,: merged with its separator" \
	"$?:$(cmp -s out want && echo same)" "0:same"
"$GPUHIST" --merge -f tsv words.json f2.json >out 2>err
is "... then a result of another view: refused, both views named" \
	"$?:$(grep -c "f2.json: .*the view field 2, but this merge's is words" err)" "1:1"

# A spill that fails while merging is a disk error, said as one, not a
# bad document.
"$GPUHIST" --lines --merge --memory=1M -T "$TMP/no-such-dir" -f tsv \
	shard.aa.json >out 2>err
is "--merge whose spill fails: exit 1, the directory named, not 'not a gpuhist json result'" \
	"$?:$(grep -c 'cannot spill tokens to .*no-such-dir' err):$(grep -c 'not a gpuhist json' err)" "1:1:0"

# Results whose bytes read add up past 64 bits: the second refused, named,
# with json's error entry, exit 1 (the total had wrapped before).
"$GPUHIST" -t -f json shard.aa >small.json
python3 -c '
import json
d = json.load(open("small.json"))
for e in d["inputs"] + [d["total"]]:
    e["bytes_read"] = 2**64 - 2
json.dump(d, open("huge.json", "w"))'
"$GPUHIST" --merge -t -f json huge.json huge.json >out 2>err
is "--merge of tokens past 2^64-1 bytes read: exit 1, the second named, an error entry" \
	"$?:$(grep -c "huge.json: the inputs' bytes read add up to more than 2^64-1" err):$(python3 -c 'import json; d = json.load(open("out")); print(d["inputs"][1]["error"], d["total"]["bytes_read"])')" \
	"1:1:the inputs' bytes read add up to more than 2^64-1 18446744073709551614"
