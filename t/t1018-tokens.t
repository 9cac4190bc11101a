#!/bin/bash
# t1018-tokens.t - the tokens views (-t, --lines, --field, -F) against
# Python's counting (t/tokenoracle.py), awk and sort | uniq -c: on a log,
# real man pages, chunks of a few bytes (tokens across many chunks),
# several readers of a file, gzip decoded in parallel regions, BGZF, gzip
# members, zstd frames and xz blocks cut inside tokens, a pipe, lines
# longer than a chunk, empty input, CRLF, NUL bytes, bytes that are not
# UTF-8; several inputs and their total; usage errors
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_cmd python3
need_cmd gzip

cd "$TMP" || exit 1

plan 64

gen log 3000000 >log
# A log with a quoted request field, split by '"' too.
views="words lines field:1 field:9 field:2:34"

for v in $views; do
	# shellcheck disable=SC2046
	check_tokens "log, $v" "$v" log $(token_args "$v") log
done
for v in words lines field:9; do
	# shellcheck disable=SC2046
	check_tokens "log, $v, chunks of 7 bytes" "$v" log \
		$(token_args "$v") --chunk-size=7 --threads=3 log
done
# shellcheck disable=SC2046
check_tokens "log, words, 4 readers of 64 KiB chunks" words log \
	-t --chunk-size=64k --threads=4 log
# shellcheck disable=SC2046
check_tokens "log, lines, through a pipe" lines log --lines - <log

# Compressed, cut inside tokens wherever the pieces fall.
gzip -6 -n -c log >log.gz
for v in words field:1; do
	# shellcheck disable=SC2046
	GPUHIST_GZIP_REGION=65536 check_tokens "log.gz in parallel regions, $v" \
		"$v" log $(token_args "$v") --threads=4 --chunk-size=4k log.gz
done
if command -v bgzip >/dev/null; then
	bgzip -l 6 -c log >log.bgz
	check_tokens "BGZF, lines, 4 threads" lines log --lines --threads=4 log.bgz
else
	skip "BGZF, lines, 4 threads" "no bgzip"
fi
split -n 5 log piece.
for p in piece.a?; do gzip -1 -n -c "$p"; done >members.gz
check_tokens "5 gzip members cut inside lines, words" words log -t --threads=4 members.gz
check_tokens "5 gzip members, field 1" field:1 log --field=1 --threads=2 members.gz
if command -v zstd >/dev/null; then
	for p in piece.a?; do zstd -q -c "$p"; done >frames.zst
	check_tokens "5 zstd frames cut inside lines, lines" lines log --lines --threads=4 frames.zst
else
	skip "5 zstd frames cut inside lines, lines" "no zstd"
fi
if command -v xz >/dev/null; then
	xz -T2 --block-size=300000 -c log >blocks.xz
	check_tokens "xz blocks, words" words log -t --threads=4 blocks.xz
else
	skip "xz blocks, words" "no xz"
fi

# Real man pages nobody here wrote.
mans=$(find /usr/share/man -name '*.gz' 2>/dev/null | sort | head -40)
if [ -n "$mans" ]; then
	# shellcheck disable=SC2086
	cat $mans >man.gz
	gzip -dc man.gz >man
	check_tokens "40 man pages, words" words man -t man.gz
	check_tokens "40 man pages, lines, chunks of 100 bytes" lines man --lines --chunk-size=100 man.gz
else
	skip "40 man pages, words" "no man pages"
	skip "40 man pages, lines" "no man pages"
fi

# Edge cases.
: >empty
check_tokens "empty input, words" words empty -t empty
check_tokens "empty input, lines" lines empty --lines empty
printf '\n\n\n' >newlines
check_tokens "only newlines, lines (three empty lines)" lines newlines --lines newlines
check_tokens "only newlines, field 2 (three empty fields)" field:2 newlines --field=2 newlines
printf 'a b\r\nc d\r\n\r\nlast' >crlf
for v in words lines field:2; do
	# shellcheck disable=SC2046
	check_tokens "CRLF and no last newline, $v, chunks of 1 byte" "$v" crlf \
		$(token_args "$v") --chunk-size=1 crlf
done
printf 'a\0b c\0\0d\n\0\n\xff\xfe caf\xc3\xa9 \xc3\n' >odd
for v in words lines; do
	check_tokens "NUL bytes and bytes that are not UTF-8, $v" "$v" odd \
		$(token_args "$v") odd
done
python3 -c 'import sys
sys.stdout.buffer.write(b"x" * 300000 + b"\n" + b"y" * 5 + b"\n" + b"x" * 300000 + b"\n")' >long
check_tokens "lines longer than a chunk (300000 bytes, 64 KiB chunks)" lines long \
	--lines --chunk-size=64k --threads=2 long
python3 -c 'import random
random.seed(1018)
for _ in range(200000): print("%016x" % random.getrandbits(64))' >distinct
check_tokens "200000 distinct lines" lines distinct --lines distinct
check_tokens "a separator byte, fields 3 of a:b::c" field:3:58 odd --field=3 -F : odd

# Against awk and sort | uniq -c (C locale: bytes).
LC_ALL=C awk '{c[$1]++} END {for (k in c) print c[k] "\t" k}' log | sort >want
"$GPUHIST" --field=1 -f tsv log | sed 1d | awk -F'\t' '{print $3 "\t" $2}' | sort >got
same_file "field 1 of the log: awk '{c[\$1]++}'" got want
LC_ALL=C sort log | LC_ALL=C uniq -c | sed 's/^ *//; s/ /\t/' | sort >want
"$GPUHIST" --lines -f tsv log | sed 1d | awk -F'\t' '{print $3 "\t" $2}' | sort >got
same_file "lines of the log: sort | uniq -c" got want

# Several inputs: each, and the total of all.
"$GPUHIST" -t -f json piece.aa piece.ab piece.ac >several.json
python3 - several.json piece.aa piece.ab piece.ac <<'PY' >verdict
import json, re, sys
from collections import Counter
doc = json.load(open(sys.argv[1], encoding="utf-8", errors="surrogateescape"))
want_all = Counter()
ok = True
for entry, path in zip(doc["inputs"], sys.argv[2:]):
    want = Counter(re.findall(rb"[^ \t\r\n]+", open(path, "rb").read()))
    want_all += want
    got = Counter({r["token"].encode("utf-8", "surrogateescape"): r["count"] for r in entry["counts"]})
    ok = ok and got == want
got = Counter({r["token"].encode("utf-8", "surrogateescape"): r["count"] for r in doc["total"]["counts"]})
print("same" if ok and got == want_all and doc["total"]["tokens"] == sum(want_all.values()) else "differ")
PY
is "three inputs, words: each, and the total" "$(cat verdict)" same

# The table: the 20 commonest, the rest in (other), escapes for a terminal.
"$GPUHIST" -t log >table
rows=$(sed -n '/^token  /,/^bytes read/p' table | grep -c .)
is "the table: a head, 20 rows, (other), bytes read" "$rows" 23
printf 'tab\there\nbell\a\n' | "$GPUHIST" --lines -f tsv >tsv
is "tsv: a tab and a control byte escaped" "$(sed -n 2,3p tsv | cut -f2 | sort | tr '\n' ' ')" 'bell\x07 tab\there '
printf 'a,b "q"\n' | "$GPUHIST" --lines -f csv >csv
is "csv: a token with a comma and quotes, quoted" "$(sed -n 2p csv)" '-,"a,b ""q""",1'
# Rows that cannot be confused: the empty token, a token of two double
# quotes, one with trailing spaces (issue "What users see, third round").
printf '""\n\nab  \nab\n' >confusable
"$GPUHIST" --lines -f csv confusable >csv
is "csv: the empty token an empty field, \"\" quoted, trailing spaces kept" \
	"$(sed 1d csv | sort | tr '\n' ' ')" \
	'confusable,"""""",1 confusable,,1 confusable,ab  ,1 confusable,ab,1 '
"$GPUHIST" --lines -f tsv confusable >tsv
is "tsv: the empty token an empty field, \"\" as it is" \
	"$(sed 1d tsv | cut -f2 | sort | tr '\n' '|')" '|""|ab|ab  |'
"$GPUHIST" --lines confusable >table
is "table: \"\" for the empty token, \\\"\\\" for two quotes, trailing spaces as \\x20" \
	"$(sed -n '2,5p' table | awk '{print $1}' | sort | tr '\n' ' ')" \
	'"" \"\" ab ab\x20\x20 '

# A token wider than the label column: whole on a line of its own, the
# counts of every row still in one column.
printf 'short\n%s\nshort\n' "$(printf 'x%.0s' $(seq 60))" |
	"$GPUHIST" --lines >table
is "table: a token of 60 columns on its own line, the counts in line" \
	"$(grep -c "^$(printf 'x%.0s' $(seq 60))\$" table):$(grep '%' table | awk '{ print index($0, "%") }' | sort -u | wc -l)" "1:1"

# want_top FILE TOP: the tsv of gpuhist -t --top=TOP FILE, by Python's
# sort (most frequent first, ties in byte order).
want_top() {
	python3 - "$1" "$2" <<'PY'
import collections, sys
c = collections.Counter(open(sys.argv[1], "rb").read().split())
rows = sorted(c.items(), key=lambda kv: (-kv[1], kv[0]))
top = int(sys.argv[2])
print("input\ttoken\tcount")
for k, n in rows[:top]:
    print("%s\t%s\t%d" % (sys.argv[1], k.decode(), n))
print("%s\t(other)\t%d" % (sys.argv[1], sum(n for _, n in rows[top:])))
PY
}

# --top among equal counts: the commonest, ties in byte order, whatever
# order the tokens come in (a heap picks them): Python's sort.
python3 -c 'import random
r = random.Random(18)
w = ["%x" % r.getrandbits(r.choice((4, 20, 70, 140))) for _ in range(30000)]
w += [r.choice(w) for _ in range(20000)]
r.shuffle(w)
print(" ".join(w))' >ties
for top in 7 300; do
	"$GPUHIST" -t --top=$top -f tsv --chunk-size=4k --threads=3 ties >got
	want_top ties $top >want
	same_file "--top=$top among many equal counts: Python's sorted(...)[:$top]" got want
done

# --top where the host lists only the commonest (counts.c: the tokens of
# the top-th largest count or more): 5 words of 900, 12 of 300 (the
# bound), 300,000 of 1 to 3; --top=8 keeps 3 of the bound's 12 by their
# bytes.  The rows, (other) and the distinct and counted figures against
# Python's; and json's total, the input's rows again (-T naming no
# directory: the copy kept in memory, since the rest cannot be added up).
python3 -c 'import random
r = random.Random(2718)
w = []
for i in range(5): w += ["top%d" % i] * 900
for i in range(12): w += ["bound%02d" % (11 - i)] * 300
for i in range(300000): w += ["%x" % r.getrandbits(48)] * r.choice((1, 1, 2, 3))
r.shuffle(w)
print("\n".join(w))' >bound
"$GPUHIST" -t --top=8 -f tsv --threads=4 bound >got
want_top bound 8 >want
same_file "--top=8 above a bound of 12 equal counts: Python's sorted(...)[:8]" got want
"$GPUHIST" -t --top=8 bound >table
python3 - bound table <<'PY' >verdict
import collections, re, sys
c = collections.Counter(open(sys.argv[1], "rb").read().split())
t = open(sys.argv[2]).read()
d = int(re.search(r"^distinct tokens +(\d+)", t, re.M).group(1))
n = int(re.search(r"^tokens counted +(\d+)", t, re.M).group(1))
print("same" if (d, n) == (len(c), sum(c.values())) else "differ %d %d" % (d, n))
PY
is "... the table's distinct and counted figures are the whole input's" "$(cat verdict)" same
"$GPUHIST" -t --top=8 -f json -T "$TMP/no/such/dir" bound >bound.json
check "... json, -T naming no directory: the total's rows are the input's" python3 -c '
import json
d = json.load(open("bound.json"))
i, t = d["inputs"][0], d["total"]
assert "error" not in t and t["counts"] == i["counts"] and len(i["counts"]) == 8
assert t["distinct"] == i["distinct"] > 300000 and t["other"] == i["other"]'

# --top of 822,669 distinct tokens: picked on several threads (three
# shares of 256 Ki or more, on 4 or 8 threads: each a share's commonest,
# then the commonest of those), or on one: Python's sort either way.
python3 -c 'import random
r = random.Random(41)
w = ["%x" % r.getrandbits(r.choice((8, 24, 60, 130))) for _ in range(1100000)]
w += [r.choice(w[:2000]) for _ in range(30000)] + [r.choice(w) for _ in range(200000)]
r.shuffle(w)
print("\n".join(w))' >many
for args in "7 --threads=4" "40000 --threads=8" "7 --threads=1"; do
	set -- $args
	"$GPUHIST" -t --top=$1 -f tsv $2 many >got
	want_top many $1 >want
	same_file "--top=$1 of 822,669 distinct tokens, $2: Python's sorted(...)[:$1]" got want
done

# Ties at the commonest's last count: 300,000 distinct tokens, most once,
# 100 twice and 5 three times.  Only each table's first --top of the last
# row's count, in byte order, are listed (counts.c's pick), the rest
# left out: the rows are still Python's, among ties 2 (top 20), among
# ties 1 (top 2000) and among the 5 (top 1), and -v says the host picked.
python3 -c 'import random
r = random.Random(1018)
w = list({"%x" % r.getrandbits(r.choice((12, 28, 64))) for _ in range(300000)})
w += w[:100] + w[:5] * 2
r.shuffle(w)
print("\n".join(w))' >ties
for args in "20 --threads=2" "2000 --threads=4" "1 --threads=1"; do
	set -- $args
	"$GPUHIST" -v -t --top=$1 -f tsv $2 ties >got 2>err
	want_top ties $1 >want
	same_file "--top=$1 of tokens tied at the last row's count, $2: Python's sorted(...)[:$1]" got want
done
like "... -v: the commonest picked on the host" "$(cat err)" \
	'ties: the commonest tokens picked on the host: [0-9]+ of [0-9]+ distinct listed'

# Every row of them, counted by 8 threads in chunks of 64 KiB: the shared
# tables grow under the adds, and units of a table another thread holds
# wait in their thread's batch (local.c): none lost, none twice.
"$GPUHIST" -t -f tsv --threads=8 --chunk-size=64k many | sort >got
python3 - many <<'PY' | sort >want
import collections, sys
c = collections.Counter(open(sys.argv[1], "rb").read().split())
print("input\ttoken\tcount")
for k, n in c.items():
    print("many\t%s\t%d" % (k.decode(), n))
PY
same_file "every row of 822,669 distinct tokens on 8 threads: Python's Counter" got want

# Several inputs in one run, the first and last of 822,669 distinct
# tokens: between inputs the counts are reset, and a table past 1 MiB is
# let go rather than cleared (counts.c); each input's rows and the total
# against Python's Counter.
"$GPUHIST" -t -f tsv --threads=4 many distinct many | sort >got
python3 - many distinct many <<'PY' | sort >want
import collections, sys
total = collections.Counter()
print("input\ttoken\tcount")
for path in sys.argv[1:]:
    c = collections.Counter(open(path, "rb").read().split())
    total += c
    for k, n in c.items():
        print("%s\t%s\t%d" % (path, k.decode(), n))
for k, n in total.items():
    print("total\t%s\t%d" % (k.decode(), n))
PY
same_file "many, distinct, many again: each input's rows and the total, Python's Counter" got want

# json of one input: the total's rows are the input's, printed again from
# a file of them, not added up and sorted a second time (issue "What users
# see, third round", item 5); where that file cannot be made (-T names no
# directory) the total is added up as for several inputs: the same bytes.
"$GPUHIST" --lines -f json log >one.json
"$GPUHIST" --lines -f json -T "$TMP/no/such/dir" log >summed.json
same_file "json of one input: the total printed again, as the sum gives it" \
	one.json summed.json
check "... the total's counts are the input's" python3 -c '
import json
d = json.load(open("one.json"))
i, t = d["inputs"][0], d["total"]
assert t["counts"] == i["counts"] and t["distinct"] == i["distinct"] > 1000
assert t["tokens"] == i["tokens"] and t["bytes_read"] == i["bytes_read"]'
"$GPUHIST" -t --top=5 -f ndjson log >one.ndjson
"$GPUHIST" -t --top=5 -f ndjson -T "$TMP/no/such/dir" log >summed.ndjson
same_file "ndjson of one input, --top=5: the same bytes either way" \
	one.ndjson summed.ndjson
"$GPUHIST" --lines --memory=1M -T "$TMP" -f json log >spilled.json
same_file "json of one input whose rows are sorted on disk: the same bytes" \
	spilled.json one.json

# Usage errors.
"$GPUHIST" -t -m log >/dev/null 2>&1
is "-t with -m: usage error" $? 2
"$GPUHIST" -t --lines log >/dev/null 2>&1
is "-t with --lines: usage error" $? 2
"$GPUHIST" -F : -t log >/dev/null 2>&1
is "-F without --field: usage error" $? 2
"$GPUHIST" --field=0 log >/dev/null 2>&1
is "--field=0: usage error" $? 2

# The GPU counts the bytes; the tokens are the same.
if have_gpu; then
	"$GPUHIST" -t -f tsv --backend=cpu log.gz log.bgz 2>/dev/null >cpu.tsv
	"$GPUHIST" -t -f tsv --backend=gpu log.gz log.bgz >gpu.tsv
	same_file "--backend=gpu: the same tokens as --backend=cpu" gpu.tsv cpu.tsv
else
	skip "--backend=gpu: the same tokens as --backend=cpu" "no CUDA device"
fi
