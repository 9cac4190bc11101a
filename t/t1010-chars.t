#!/bin/bash
# t1010-chars.t - -m, the code-point view, on the CPU backend: every
# count equal to Python's (t/charoracle.py: decode('utf-8',
# 'surrogateescape') and collections.Counter; CaseFolding.txt for -i,
# UnicodeData.txt for -c) and to LC_ALL=C.UTF-8 wc -m, on multilingual,
# CJK, ill-formed and random text and on real files; exact across chunk
# edges at every offset, pipes, readers, gzip members and zstd frames;
# labels, sorting, --top, json's chars and --merge -m
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_cmd python3
[ -r "${UCD_DIR:-/usr/share/unicode}/CaseFolding.txt" ] ||
	skip_all "no ${UCD_DIR:-/usr/share/unicode} (Debian's unicode-data)"

plan 39

cd "$TMP" || exit 1
for shape in mixed cjk invalid random; do
	python3 "$T_SRCDIR/gentext.py" $shape 7 400000 >$shape
done

# agrees DESCRIPTION ORACLE_ARGS -- GPUHIST_ARGS: gpuhist -m -f tsv's rows
# equal the oracle's.
agrees() {
	local desc=$1 oracle_args=() gh_args=()
	shift
	while [ "$1" != -- ]; do oracle_args+=("$1"); shift; done
	shift
	gh_args=("$@")
	python3 "$T_SRCDIR/charoracle.py" "${oracle_args[@]}" >want
	"$GPUHIST" --backend=cpu -m -f tsv "${gh_args[@]}" >got 2>err
	if [ $? -eq 0 ] && cmp -s want got; then
		ok 0 "$desc"
	else
		ok 1 "$desc"
		sed 's/^/# /' err | head -3
		diff want got | head -6 | sed 's/^/# /'
	fi
}

for shape in mixed cjk invalid random; do
	agrees "$shape text: Python's code points" $shape -- $shape
done
agrees "four inputs and their total" mixed cjk invalid random -- \
	mixed cjk invalid random

# wc -m counts the characters of valid UTF-8 as we do.
for shape in mixed cjk; do
	want=$(LC_ALL=C.UTF-8 wc -m <$shape)
	got=$("$GPUHIST" -m $shape | sed -n 's/^chars counted  *//p')
	is "$shape text: as many characters as LC_ALL=C.UTF-8 wc -m" "$got" "$want"
done

# Every ill-formed form, each alone with ASCII around it and at the very
# end of the input: overlongs, surrogates, past U+10FFFF, bytes that are
# never UTF-8, lone continuations, truncated sequences.
n=0
for form in 'c080' 'c1bf' 'e08080' 'e09fbf' 'eda080' 'edbfbf' 'f0808080' \
	    'f4908080' 'f5808080' 'ff' 'fe' '80' 'bfbf' 'e697' 'f09f98' 'c3' \
	    'e282' 'f0908080' 'efbfbf' 'f48fbfbf'; do
	n=$((n + 1))
	printf "a$(echo $form | sed 's/../\\x&/g')b" >form$n
	printf "a$(echo $form | sed 's/../\\x&/g')" >end$n
done
agrees "20 ill-formed and edge forms, inside text and at the end" \
	form* end* -- form* end*

# Chunks so small that characters cross their edges at every offset:
# through a pipe (one reader) and read at offsets by four threads.
fails=
for cs in 1 2 3 4 5 6 7 11 12 13 16 17; do
	python3 "$T_SRCDIR/charoracle.py" invalid | sed 's/^invalid\t/-\t/' >want
	"$GPUHIST" --backend=cpu -m -f tsv --chunk-size=$cs <invalid >got
	cmp -s want got || fails="$fails pipe:$cs"
	python3 "$T_SRCDIR/charoracle.py" cjk >want
	"$GPUHIST" --backend=cpu -m -f tsv --chunk-size=$cs --threads=4 cjk >got
	cmp -s want got || fails="$fails readers:$cs"
done
is "chunks of 1..17 bytes, pipe and 4 readers: exact" "$fails" ""

# A chunk boundary at every offset of every sequence length, one at a
# time: 2-, 3- and 4-byte characters after 0..40 ASCII bytes.
fails=
for pad in $(seq 0 40); do
	{ head -c $pad /dev/zero | tr '\0' x; printf 'é日😀é日😀\xe6\x97'; } >cut
	python3 "$T_SRCDIR/charoracle.py" cut >want
	"$GPUHIST" --backend=cpu -m -f tsv --chunk-size=16 --threads=3 cut >got
	cmp -s want got || fails="$fails $pad"
done
is "a 16-byte chunk edge at every offset of 2-, 3- and 4-byte characters" \
	"$fails" ""

# gzip members (and zstd frames) that end inside a character, decoded in
# parallel regions too.
head -c 200001 cjk >part1
tail -c +200002 cjk >part2
gzip -c part1 >split.gz
gzip -c part2 >>split.gz
agrees "two gzip members split inside a character" split.gz -- split.gz
# (Text only: with the random shape among it, the parallel decoder gives
# up on this file and decodes it serially, which is exact but not this
# test.)
for shape in mixed cjk invalid; do cat $shape; done >all3
for i in 1 2 3 4 5 6 7 8; do cat all3; done >big
gzip -1 -c big >big.gz
python3 "$T_SRCDIR/charoracle.py" big | sed 's/^big\t/big.gz\t/' >want
GPUHIST_GZIP_REGION=131072 "$GPUHIST" --backend=cpu -m -f tsv -v \
	--threads=4 big.gz >got 2>err
same_file "one gzip member decoded by 4 threads in 128 KiB regions" got want
like "... and it was decoded in parallel" "$(cat err)" "decoded by 4 threads"
if command -v zstd >/dev/null; then
	zstd -q -c part1 >split.zst
	zstd -q -c part2 >>split.zst
	zstd -dc split.zst >split.out
	python3 "$T_SRCDIR/charoracle.py" split.out |
		sed 's/^split.out\t/split.zst\t/' >want
	"$GPUHIST" --backend=cpu -m -f tsv --threads=4 split.zst >got
	same_file "two zstd frames split inside a character, in parallel" got want
else
	skip "zstd frames" "no zstd"
fi

# Real files nobody here wrote: translated man pages and doc files.
set -- $(ls /usr/share/man/??/man*/*.gz 2>/dev/null | head -30)
if [ $# -gt 0 ]; then
	agrees "$# translated man pages (gzip)" "$@" -- "$@"
else
	skip "translated man pages" "none under /usr/share/man/??"
fi
set -- $(ls /usr/share/doc/*/copyright /usr/share/i18n/locales/* \
	 2>/dev/null | head -200)
agrees "$# doc and locale files" "$@" -- "$@"

# -i: Unicode's simple case folding; -c: general categories (a build
# without libutf8proc refuses both, as a usage error).
if "$GPUHIST" -m -i /dev/null >/dev/null 2>&1; then
	agrees "-m -i: CaseFolding.txt's simple folding" -i mixed invalid -- \
		-i mixed invalid
	agrees "-m -c: UnicodeData.txt's general categories" -c mixed \
		invalid -- -c mixed invalid
	python3 -c 'import sys
sys.stdout.buffer.write("".join(chr(c) for c in range(0x110000)
	if not 0xd800 <= c <= 0xdfff).encode())' >every
	agrees "-m -i on every code point" -i every -- -i every
	agrees "-m -c on every code point" -c every -- -c every
else
	run_gh -m -c /dev/null
	is "without libutf8proc, -m -c is a usage error" "$rc" 2
	like "... that says so" "$err" "built without libutf8proc"
	skip "-m -i on every code point" "built without libutf8proc"
	skip "-m -c on every code point" "built without libutf8proc"
fi

# The table: most frequent first, labels, the character where it shows.
"$GPUHIST" -m mixed >table
first=$(sed -n 2p table | awk '{print $1}')
want=$(python3 "$T_SRCDIR/charoracle.py" mixed | sed 1d |
       sort -t"$(printf '\t')" -k3,3nr -k2,2 | head -1 | cut -f2)
is "the table lists the most frequent character first" "$first" "$want"
like "a label shows the character beside its code point" "$(cat table)" \
	'^U\+00E9 é +[0-9]+ '
like "a label shows a newline as \\n" "$(cat table)" '^U\+000A \\n '
like "the block says bytes read" "$(cat table)" \
	"^bytes read +$(wc -c <mixed)\$"
want=$(python3 -c 'import collections, math, sys
d = open(sys.argv[1], "rb").read().decode("utf-8", "surrogateescape")
n = len(d)
print("%.6f" % -sum(c / n * math.log2(c / n)
			for c in collections.Counter(d).values()))' mixed)
like "the entropy is of the characters, in bits per character" \
	"$(cat table)" "^entropy +$want bits per character\$"
"$GPUHIST" -m invalid >table
like "an invalid byte is labelled by its value" "$(cat table)" '^0xc3 +[0-9]+ '

# --top and --sort.
"$GPUHIST" -m -f tsv --sort=count --top=3 cjk >top
python3 "$T_SRCDIR/charoracle.py" cjk | sed 1d |
	sort -t"$(printf '\t')" -k3,3nr -k2,2 >sorted
want=$(head -3 sorted; awk -F'\t' 'NR > 3 { s += $3 }
	END { printf "cjk\t(other)\t%d\n", s }' sorted)
is "--top=3 --sort=count: three rows and (other)" "$(sed 1d top)" "$want"
is "--sort=bin is code-point order" \
	"$("$GPUHIST" -m -f tsv --sort=bin cjk | sed 1d | cut -f2 | head -5)" \
	"$(python3 "$T_SRCDIR/charoracle.py" cjk | sed 1d | cut -f2 | head -5)"

# json: chars as "U+XXXX" and "0xNN", the histogram their bytes exactly.
"$GPUHIST" -m -f json mixed invalid >r.json
check "json chars: keys as gpuhist names them, bytes that add up" \
	python3 -c 'import json, re, sys
d = json.load(open(sys.argv[1]))
for e in d["inputs"] + [d["total"]]:
    hist = [0] * 256
    for k, n in e["chars"].items():
        if k.startswith("0x"):
            assert re.fullmatch(r"0x[89a-f][0-9a-f]", k), k
            hist[int(k, 16)] += n
            continue
        assert re.fullmatch(r"U\+(?:[1-9A-F]?[0-9A-F]{4}|10[0-9A-F]{4})", k), k
        for b in chr(int(k[2:], 16)).encode():
            hist[b] += n
    assert hist == e["histogram"], e["name"]
    assert e["counted"] == sum(e["chars"].values())' r.json

# --merge -m adds the chars exactly.
"$GPUHIST" -m -f json mixed cjk >a.json
"$GPUHIST" -m -f json invalid random >b.json
"$GPUHIST" -m -f tsv --merge a.json b.json | grep '^total' >merged
"$GPUHIST" -m -f tsv mixed cjk invalid random | grep '^total' >direct
same_file "--merge -m: the total of two results, exactly" merged direct
"$GPUHIST" -b -f json mixed >bytes.json
run_gh -m --merge bytes.json
is "--merge -m of a result made without -m: exit 1" "$rc" 1
like "... saying what is missing" "$err" 'bytes.json: .*no "chars"'
like "... and that it was written without -m (issue 26, item 8)" "$err" \
	'no "chars" \(--merge -m takes results of -m -f json; this one was written without -m\)$'
sed 's/"U+0041": \([0-9]*\)/"U+0041": 1\1/' a.json >bad.json
run_gh -m --merge bad.json
like "--merge -m: chars that do not match the histogram are refused" \
	"$err" "bad.json: .*chars do not add up"

printf 'a\303\251\n' >small
"$GPUHIST" -m -f json small >s.json
sed 's/"U+0061": 1/"U+0061": 0, "U+0061": 1/' s.json >dup.json
run_gh -m --merge dup.json
like "--merge -m: a key given twice is refused, even at 0" "$err" \
	'dup.json: .*"U\+0061" is there twice'
python3 -c 'import sys
t = open("s.json").read().replace("\"counted\": 3", "\"counted\": 2", 1)
t = t.replace("{\"bin\": \"U+0061\", \"count\": 1}",
	      "{\"bin\": \"U+0061\", \"count\": 0}", 1)
open("counted.json", "w").write(t)'
run_gh -m --merge counted.json
like "--merge -m: counted must be the characters in chars" "$err" \
	'counted.json: .*counted is 2, but chars add up to 3'

# Usage errors.
run_gh -m -b mixed
is "-m -b: a usage error" "$rc" 2
like "... naming both" "$err" "options -m and -b select different views"

# Ill-formed UTF-8: each bad byte is a bin of its own, which glibc's wc -m
# does not count: the man page's rule, total = wc -m + the bad bytes.
printf 'a\303b\377\342\202z\n' >ill
if [ "$(printf '\303\251' | LC_ALL=C.UTF-8 wc -m 2>/dev/null | tr -d ' ')" = 1 ]; then
	is "ill-formed bytes: -m counts wc -m's characters and each bad byte" \
		"$("$GPUHIST" -m -f tsv ill | awk -F '\t' 'NR > 1 { s += $3 } END { print s }')" \
		"$(( $(LC_ALL=C.UTF-8 wc -m <ill | tr -d ' ') + 4 ))"
else
	skip "ill-formed bytes against wc -m" "no C.UTF-8 locale for wc"
fi
