#!/bin/bash
# t1022-match.t - --match and --exclude: only the lines a pattern keeps are
# counted, by every view, as if they were the input.  The oracle is
# Python's re keeping the same lines into a file of their own, which
# gpuhist then counts unfiltered (and, for lines and bytes, Counter
# directly); gzip, a pipe, lines across chunks of 4 KiB, a kept line
# longer than a chunk, a last line without its newline, -i, every format;
# bad patterns and --merge refused with exit 2
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_cmd python3
need_cmd gzip

cd "$TMP" || exit 1
if ! "$GPUHIST" --match=x /dev/null >/dev/null 2>err; then
	grep -q 'PCRE2' err && skip_all "built without PCRE2"
fi

plan 35

gen log 3000000 >gen.log
# A log with a kept line of 100 KB, lines of every length around 4 KiB
# and a last line without its newline.
python3 - <<'PY'
import random
r = random.Random(1022)
lines = []
for i in range(3000):
    n = r.choice([0, 1, 10, 100, 4095, 4096, 4097, 9000])
    word = r.choice(["ERROR", "error", "WARN", "INFO", "debug"])
    lines.append(("%s %d %s" % (word, i, "x" * n)).encode())
lines.insert(1500, b"ERROR huge " + b"y" * 100000)
open("odd.log", "wb").write(b"\n".join(lines))     # no \n at the end
PY

# keep_field FILE PATTERN N [SEP]: the lines whose Nth field (awk's
# blanks, or SEP) Python's re matches, into kept.
keep_field() {
	python3 - "$@" <<'PY'
import re, sys
path, pat, n = sys.argv[1], sys.argv[2].encode(), int(sys.argv[3])
sep = sys.argv[4].encode() if len(sys.argv) > 4 else None
out = []
for line in open(path, "rb").read().splitlines(keepends=True):
    body = line[:-1] if line.endswith(b"\n") else line
    fields = body.split(sep) if sep else re.split(rb"[ \t]+", body.strip(b" \t"))
    field = fields[n - 1] if len(fields) >= n else b""
    if re.search(pat, field):
        out.append(line)
open("kept", "wb").write(b"".join(out))
PY
}

# keep FILE PATTERN [exclude|both EXCL] [i]: FILE's lines Python's re keeps,
# each with its own ending, into kept.
keep() {
	python3 - "$@" <<'PY'
import re, sys
path, pat = sys.argv[1], sys.argv[2]
mode = sys.argv[3] if len(sys.argv) > 3 else "match"
excl = sys.argv[4] if len(sys.argv) > 4 else None
flags = re.I if sys.argv[-1] == "i" else 0
data = open(path, "rb").read()
out = []
for line in data.splitlines(keepends=True):
    body = line[:-1] if line.endswith(b"\n") else line
    if mode == "exclude":
        ok = not re.search(pat.encode(), body, flags)
    else:
        ok = re.search(pat.encode(), body, flags) is not None
        if ok and mode == "both":
            ok = not re.search(excl.encode(), body, flags)
    if ok:
        out.append(line)
open("kept", "wb").write(b"".join(out))
PY
}

# same_view DESC FILE ARGS...: gpuhist -f tsv ARGS FILE with the pattern
# options (in PAT_ARGS) against gpuhist -f tsv ARGS on the file kept, the
# name column dropped.
same_view() {
	local desc=$1 file=$2
	shift 2
	"$GPUHIST" -f tsv --total=never "${PAT_ARGS[@]}" "$@" "$file" 2>err |
		cut -f2- >got
	"$GPUHIST" -f tsv --total=never "$@" kept | cut -f2- >want
	same_file "$desc" got want
}

PAT_ARGS=(--match=' 404 ')
keep gen.log ' 404 '
same_view "-b --match=' 404 ': the bytes of the lines it keeps" gen.log -b
same_view "-t: their words" gen.log -t
same_view "--lines: their lines" gen.log --lines
same_view "--field=9: their statuses" gen.log --field=9
same_view "-m: their code points" gen.log -m -b
same_view "-s: ent's figures of the kept lines as one stream" gen.log -s -b
same_view "--values=10: their sizes" gen.log --values=10
"$GPUHIST" -f json --match=' 404 ' gen.log | python3 -c '
import json, sys
d = json.load(sys.stdin)
print(d["inputs"][0]["bytes_read"] == len(open("kept", "rb").read()))' >got
is "json: bytes_read is the kept lines' bytes" "$(cat got)" True
python3 - >want <<'PY'
import collections
c = collections.Counter(open("kept", "rb").read().split(b"\n")[:-1])
for k, v in sorted(c.items(), key=lambda kv: (-kv[1], kv[0])):
    print("%d\t%s" % (v, k.decode()))
PY
"$GPUHIST" --lines -f tsv --total=never --match=' 404 ' gen.log |
	sed 1d | awk -F'\t' '{ print $3 "\t" $2 }' | sort -t"$(printf '\t')" -k1,1nr -k2,2 >got
sort -t"$(printf '\t')" -k1,1nr -k2,2 want >want.sorted
same_file "--lines: Counter of the lines re keeps" got want.sorted

PAT_ARGS=(--exclude='GET /(index|login)')
keep gen.log 'GET /(index|login)' exclude
same_view "--exclude: the lines it does not match" gen.log -t
PAT_ARGS=(--match='Mozilla' --exclude=' 304 ')
keep gen.log 'Mozilla' both ' 304 '
same_view "--match and --exclude: kept by one, not dropped by the other" gen.log --lines
PAT_ARGS=(--match='^error')
keep odd.log '^error' match - i
same_view "-i --match: without case (and the letters folded)" odd.log -b -i
PAT_ARGS=(-i --match='^error')
same_view "-i --match, tokens: -i is the pattern's alone" odd.log --field=1

PAT_ARGS=(--match='ERROR|WARN')
keep odd.log 'ERROR|WARN'
same_view "lines across 4 KiB chunks, one of 100 KB, the last without its newline" \
	odd.log -b --chunk-size=4096
same_view "the same, --lines" odd.log --lines --chunk-size=4096
# A plain file is filtered by its readers, each a span of a chunk's size,
# the kept lines placed in order: spans of 4 KiB, a line across dozens.
same_view "3 readers, 4 KiB spans: -s, one stream in order" odd.log -s -b --threads=3 --chunk-size=4096
same_view "3 readers, 4 KiB spans: -m" odd.log -m -b --threads=3 --chunk-size=4096
same_view "3 readers, 4 KiB spans: -t" odd.log -t --threads=3 --chunk-size=4096
same_view "3 readers, 5000-byte spans: --field=2" odd.log --field=2 --threads=3 --chunk-size=5000
gzip -c odd.log >odd.log.gz
same_view "a gzip file: its decoded lines" odd.log.gz -b
"$GPUHIST" -f tsv --total=never --match='ERROR|WARN' -b - <odd.log.gz | cut -f2- >got
"$GPUHIST" -f tsv --total=never -b kept | cut -f2- >want
same_file "standard input, gzip'd" got want
cat odd.log | "$GPUHIST" -f tsv --total=never --match='ERROR|WARN' --lines | cut -f2- >got
"$GPUHIST" -f tsv --total=never --lines kept | cut -f2- >want
same_file "a pipe: the same lines" got want

PAT_ARGS=(--match='^[45]' --match-field=9)
keep_field gen.log '^[45]' 9
same_view "--match-field=9: the lines whose status begins 4 or 5" gen.log --field=1
PAT_ARGS=(--match='^$' --match-field=3)
keep_field odd.log '^$' 3
same_view "--match-field=3: a line of fewer fields has an empty one" odd.log --lines
tr ' ' ',' <odd.log >odd.csv
PAT_ARGS=(-F, --match='^1' --match-field=2)
keep_field odd.csv '^1' 2 ,
same_view "-F, --match-field=2: fields between commas" odd.csv -b

# A line of 4 MB across a thousand spans: each span it fills is read once
# (it was read again to the line's end by every one: minutes).
python3 -c 'import sys; sys.stdout.write("a b\n" + "y" * (4 << 20) + "\nc d\n")' >long.log
"$GPUHIST" -f tsv --total=never --lines --threads=3 --chunk-size=4096 --match=y long.log |
	awk -F'\t' 'NR > 1 { print length($2) "=" $3 }' >got
is "a line of 4 MB across 4 KiB spans on 3 threads: kept, once" "$(cat got)" "4194304=1"

# A pattern PCRE2 gives up on (its match limit), on a reader's line: the
# input fails, saying why (the reason outlives the reader's filter).
python3 -c '
for i in range(2000): print("x" * 50)
print("a" * 40 + "b")
for i in range(2000): print("x" * 50)' >backtrack.log
run_gh --threads=3 --chunk-size=4096 --match='^(a+)+$' -s -f tsv backtrack.log
like "a match PCRE2 gives up on: exit 1, its reason" "$rc:$err" \
	"^1:gpuhist: backtrack.log: matching a line failed: match limit exceeded"
run_gh --threads=1 --match='^(a+)+$' -b backtrack.log
like "the same, read in order by one thread" "$rc:$err" \
	"^1:gpuhist: backtrack.log: matching a line failed: match limit exceeded"

printf 'a\nb' >nolf.log
"$GPUHIST" -b -f tsv --total=never --match=b nolf.log | awk -F'\t' 'NR > 1 && $3 > 0 { print $2 "=" $3 }' >got
is "a last line without a newline: counted as it is" "$(cat got)" "98=1"

if have_gpu; then
	for v in -t -s; do
		"$GPUHIST" --backend=gpu -f tsv --match=' 404 ' $v -b gen.log >got 2>/dev/null
		"$GPUHIST" --backend=cpu -f tsv --match=' 404 ' $v -b gen.log >want
		same_file "--backend=gpu $v: the CPU's counts of the lines kept" got want
	done
else
	skip "--backend=gpu -t: the CPU's counts of the lines kept" "no CUDA device"
	skip "--backend=gpu -s: the CPU's counts of the lines kept" "no CUDA device"
fi

keep gen.log ' 404 '
run_gh -v --match=' 404 ' -t gen.log
like "-v: how many lines it kept of how many, and where" \
	"$err" "gen.log: $(tr -cd '\n' <kept 2>/dev/null | wc -c | tr -d ' ')"' of [0-9]+ lines matched \(on the CPU, [0-9]+ threads?, PCRE2'

run_gh --match='(' gen.log
like "a bad pattern: exit 2, naming --match and PCRE2's reason" \
	"$rc:$err" "^2:gpuhist: --match: invalid pattern '\\(': missing closing parenthesis at offset 1"
run_gh --exclude='[z-a]' gen.log
like "a bad --exclude: exit 2" "$rc:$err" "^2:gpuhist: --exclude: invalid pattern"
"$GPUHIST" -f json gen.log >r.json
run_gh --merge --match=x r.json
like "--merge with --match: exit 2" "$rc:$err" "^2:gpuhist: option --match cannot be combined with --merge"
