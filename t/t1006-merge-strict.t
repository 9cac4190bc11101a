#!/bin/sh
# t1006-merge-strict.t - --merge reads strict JSON, exact 64-bit counts,
# figures that agree, no sum past 2^64-1, and draws bars of huge counts
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_cmd python3

# Edits of a good result (two inputs, "hello world\n" and "abc"), each
# refused with the message after "not a gpuhist json result: ".  Each line:
# FILE|PYTHON EXPRESSION OF s (the document's bytes)|MESSAGE (an ERE).
refused='
zero|s.replace(b"\"bytes_read\": 12", b"\"bytes_read\": 012", 1)|malformed JSON at byte [0-9]+: a number with a leading zero$
point|s.replace(b"\"entropy\": 3.022055", b"\"entropy\": .5", 1)|malformed JSON at byte [0-9]+: not a JSON value$
minus|s.replace(b"\"entropy\": 3.022055", b"\"entropy\": --1", 1)|malformed JSON at byte [0-9]+: not a JSON value$
dots|s.replace(b"\"entropy\": 3.022055", b"\"entropy\": 1.2.3", 1)|malformed JSON at byte [0-9]+: expected .,. or .}.$
exp|s.replace(b"\"entropy\": 3.022055", b"\"entropy\": 1e", 1)|malformed JSON at byte [0-9]+: a number needs a digit here$
ctrl|s.replace(b"\"name\": \"a\"", b"\"name\": \"a\x01\"", 1)|malformed JSON at byte [0-9]+: a raw control character in a string$
tab|s.replace(b"\"name\": \"a\"", b"\"name\": \"a\tb\"", 1)|malformed JSON at byte [0-9]+: a raw control character in a string$
latin1|s.replace(b"\"name\": \"a\"", b"\"name\": \"caf\xe9\"", 1)|malformed JSON at byte [0-9]+: a string that is not valid UTF-8$
overlong|s.replace(b"\"name\": \"a\"", b"\"name\": \"\xc0\xaf\"", 1)|malformed JSON at byte [0-9]+: a string that is not valid UTF-8$
rawsurrogate|s.replace(b"\"name\": \"a\"", b"\"name\": \"\xed\xa0\x80\"", 1)|malformed JSON at byte [0-9]+: a string that is not valid UTF-8$
escq|s.replace(b"\"name\": \"a\"", b"\"name\": \"a\\q\"", 1)|malformed JSON at byte [0-9]+: an unknown escape in a string$
escu|s.replace(b"\"name\": \"a\"", b"\"name\": \"\\u00\"", 1)|malformed JSON at byte [0-9]+: a \\u escape needs four hex digits$
lonehigh|s.replace(b"\"name\": \"a\"", b"\"name\": \"\\ud800x\"", 1)|malformed JSON at byte [0-9]+: a \\u escape of a lone high surrogate$
twohigh|s.replace(b"\"name\": \"a\"", b"\"name\": \"\\ud800\\ud800\"", 1)|malformed JSON at byte [0-9]+: a \\u escape of a lone high surrogate$
lonelow|s.replace(b"\"name\": \"a\"", b"\"name\": \"\\udc00\"", 1)|malformed JSON at byte [0-9]+: a \\u escape of a lone low surrogate$
formfeed|b"{\x0c" + s[1:]|malformed JSON at byte 1: a string should begin with
bom|b"\xef\xbb\xbf" + s|malformed JSON at byte 0: a result is a JSON object$
after|s + b"x"|malformed JSON at byte [0-9]+: text after the document$
twodocs|s + s|malformed JSON at byte [0-9]+: text after the document$
empty|b""|malformed JSON: it ends early
cut|s[:-3]|malformed JSON: it ends early
deep|s.replace(b"\"entropy\": 3.022055", b"\"entropy\": " + b"[" * 100 + b"]" * 100, 1)|JSON nested too deeply$
float|s.replace(b"\"histogram\": [0, ", b"\"histogram\": [1.5, ", 1)|inputs\[0\]: histogram\[0\] is not a non-negative integer: 1\.5$
floatzero|s.replace(b"\"histogram\": [0, ", b"\"histogram\": [0.0, ", 1)|inputs\[0\]: histogram\[0\] is not a non-negative integer: 0\.0$
negative|s.replace(b"\"histogram\": [0, 0, 0, ", b"\"histogram\": [0, 0, 0, -1, ", 1)|inputs\[0\]: histogram\[3\] is not a non-negative integer: -1$
exponent|s.replace(b"\"histogram\": [0, ", b"\"histogram\": [1e2, ", 1)|inputs\[0\]: histogram\[0\] is not a non-negative integer: 1e2$
string|s.replace(b"\"histogram\": [0, ", b"\"histogram\": [\"0\", ", 1)|inputs\[0\]: histogram\[0\] is not a non-negative integer$
huge|s.replace(b"\"histogram\": [0, ", b"\"histogram\": [18446744073709551616, ", 1)|inputs\[0\]: histogram\[0\] is larger than 2\^64-1: 18446744073709551616$
hugeread|s.replace(b"\"bytes_read\": 12", b"\"bytes_read\": 99999999999999999999999", 1)|inputs\[0\]: bytes_read is larger than 2\^64-1: 99999999999999999999999$
read|s.replace(b"\"bytes_read\": 12", b"\"bytes_read\": 13", 1)|inputs\[0\]: bytes_read is 13, but the histogram adds up to 12$
counted|s.replace(b"\"counted\": 10", b"\"counted\": 11", 1)|inputs\[0\]: counted is 11, but the bins. counts add up to 10$
morecounted|edit(s, "e = d[\"inputs\"][0]; e[\"counted\"] += 100; e[\"bins\"][0][\"count\"] += 100")|inputs\[0\]: counted \(110\) is more than bytes_read \(12\)$
nototal|edit(s, "d[\"total\"][\"histogram\"][10] += 1; d[\"total\"][\"bytes_read\"] += 1")|total: histogram is not the sum of the inputs. \(byte value 10\)$
nohist|edit(s, "del d[\"inputs\"][1][\"histogram\"]")|inputs\[1\]: no "histogram"$
long|edit(s, "d[\"total\"][\"histogram\"].append(0)")|total: histogram holds more than 256 values$
twice|s.replace(b"\"counted\": 10,", b"\"counted\": 10, \"counted\": 10,", 1)|inputs\[0\]: "counted" is there twice$
twoinputs|s.replace(b"{\"inputs\": [", b"{\"inputs\": [], \"inputs\": [", 1)|"inputs" is there twice$
noinputs|edit(s, "del d[\"inputs\"]")|no "inputs"$
array|b"[" + s + b"]"|malformed JSON at byte 0: a result is a JSON object$
'
# Edits that are still good JSON of the same result: merged as the original.
accepted='
keys|s.replace(b"\"total\"", b"\"tot\\u0061l\"").replace(b"\"histogram\"", b"\"hist\\u006fgram\"").replace(b"\"name\"", b"\"n\\u0061me\"")
pair|s.replace(b"\"name\": \"a\"", b"\"name\": \"\\ud83d\\ude00 \\u00e9 \xc3\xa9 \\/\\b\\f\\n\\r\\t\"", 1)
python|json.dumps(json.loads(s), indent=1, sort_keys=True, ensure_ascii=True).encode()
extra|s.replace(b"\"entropy\"", b"\"more\": {\"a\": [true, false, null, -0.5e-3, 1E+2, \"\\u00e9\", {}, []]}, \"entropy\"")
spaces|s.replace(b", ", b" \r\n\t,\t")
'
n_refused=$(printf '%s\n' "$refused" | grep -c '|')
n_accepted=$(printf '%s\n' "$accepted" | grep -c '|')
plan $((n_refused + 2 * n_accepted + 10))

cd "$TMP" || exit 1
mkresult() { python3 "$T_SRCDIR/mkresult.py" "$@"; }
printf 'hello world\n' >a
printf 'abc' >b
"$GPUHIST" -f json a b >good.json

# make_file NAME EXPR: NAME.json is the python expression of s, good.json.
make_file() {
	python3 -c 'import json, sys
s = open("good.json", "rb").read()
def edit(s, code):
    d = json.loads(s)
    exec(code, {"d": d})
    return json.dumps(d).encode()
open(sys.argv[1] + ".json", "wb").write(eval(sys.argv[2]))' "$1" "$2"
}

printf '%s\n' "$refused" | grep '|' >refused.list
while IFS='|' read -r name expr message; do
	make_file "$name" "$expr"
	run_gh --merge "$name.json"
	like "refused: $name (exit 1, the message, no output)" \
		"$rc:$(wc -c <"$TMP/out"):$err" \
		"^1:0:gpuhist: $name.json: not a gpuhist json result: $message"
done <refused.list

"$GPUHIST" --merge -b -f tsv good.json >want
printf '%s\n' "$accepted" | grep '|' >accepted.list
while IFS='|' read -r name expr; do
	make_file "$name" "$expr"
	run_gh --merge -b -f tsv "$name.json"
	is "accepted: $name (exit 0, no message)" "$rc:$err" "0:"
	sed "s/^$name.json	/good.json	/" "$TMP/out" >got
	same_file "accepted: $name merges as the original" got want
done <accepted.list

# Exact to 2^64-1, and not one past it: within one result, across the
# inputs of one, and across results, a bin or all bytes together.
mkresult '0=2**64-1' >max.json
run_gh --merge -b -f tsv max.json
is "2^64-1 is read exactly" "$rc:$err:$(grep -c . "$TMP/out"):$(sed -n 2p "$TMP/out")" \
	"0::257:max.json	0	18446744073709551615"

mkresult --wrap '0=2**63,1=2**63' >wraps.json
run_gh --merge wraps.json
is "one histogram adding up past 2^64-1: refused, exit 1, no output" \
	"$rc:$(wc -c <"$TMP/out"):$err" \
	"1:0:gpuhist: wraps.json: not a gpuhist json result: inputs[0]: the histogram's values add up to more than 2^64-1"

mkresult --wrap '0=2**63' '0=2**63' >inputs.json
run_gh --merge inputs.json
is "inputs adding up past 2^64-1 in one bin: refused" \
	"$rc:$(wc -c <"$TMP/out"):$err" \
	"1:0:gpuhist: inputs.json: not a gpuhist json result: the inputs' histograms add up to more than 2^64-1 (byte value 0)"

mkresult '0=2**63' >h0.json
mkresult '0=2**63' >h0b.json
mkresult '1=2**63' >h1.json
run_gh --merge -b -f tsv h0.json h0b.json
is "results adding up past 2^64-1 in one bin: the second refused, exit 1" \
	"$rc:$err" \
	"1:gpuhist: h0b.json: its counts and those of the results before it add up to more than 2^64-1 (byte value 0)"
is "... and the total is the first's alone" \
	"$(grep -c '^total' "$TMP/out"):$(grep '^total	0	' "$TMP/out")" \
	"256:total	0	9223372036854775808"
run_gh --merge -b -f tsv h0.json h1.json
is "results adding up past 2^64-1 bytes: the second refused, exit 1" \
	"$rc:$err" \
	"1:gpuhist: h1.json: its counts and those of the results before it add up to more than 2^64-1 bytes"
is "... and the total is the first's alone" \
	"$(grep '^total	[01]	' "$TMP/out" | tr '\t' ' ' | tr '\n' ' ')" \
	"total 0 9223372036854775808 total 1 0 "
run_gh --merge -b -f json h0.json h1.json
is "... in json, the refused result is an entry with its error" \
	"$rc:$(python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(d["inputs"][1], d["total"]["bytes_read"])' "$TMP/out")" \
	"1:{'name': 'h1.json', 'error': 'its counts and those of the results before it add up to more than 2^64-1 bytes'} 9223372036854775808"

# Bars of counts past 2^64 / 40 are drawn to scale.
mkresult '97=2**60,101=2**59' >bars.json
run_gh --merge bars.json
is "bars of 2^60 and 2^59: 40 and 20 marks" \
	"$rc:$(awk '$1 == "a-d" || $1 == "e-h" { printf "%s %d ", $1, length($4) }' "$TMP/out")" \
	"0:a-d 40 e-h 20 "
mkresult '97=2**63+2**62,101=2**61,105=1' >bars2.json
run_gh --merge bars2.json
is "bars near 2^64: 40, 7 and 1 marks" \
	"$rc:$(awk '$1 ~ /^[aei]-/ { printf "%s %d ", $1, length($4) }' "$TMP/out")" \
	"0:a-d 40 e-h 7 i-l 1 "
