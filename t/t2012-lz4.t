#!/bin/bash
# t2012-lz4.t - lz4 input, recognised by its magic bytes and decoded
# exactly as lz4 -dc decodes it: frames, concatenated frames, legacy
# frames (lz4 -l), skippable frames, stdin and pipes; truncations, bit
# flips and trailing garbage get lz4's verdict; -m and -s across frames
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_cmd python3
need_cmd lz4
"$GPUHIST" --version -v 2>&1 | grep '^decodes:' | grep -q 'lz4\($\|,\)' ||
	skip_all "gpuhist was built without lz4 (liblz4-dev)"

cd "$TMP" || exit 1
gendata 17 400000 >text
gentext() { python3 "$T_SRCDIR/gentext.py" "$@"; }
gen random 100000 >random
: >empty

# counts ARGS...: byte counts, the name column dropped.
counts() { "$GPUHIST" -b -f tsv "$@" 2>/dev/null | sed 1d | cut -f2-; }

# verdict DESCRIPTION FILE: gpuhist agrees with lz4 -dc on FILE: where lz4
# fails, exit 1 and one message naming FILE; where it decodes, its counts,
# exit 0 and nothing said.  Pass the file through a pipe when PIPE is set.
verdict() {
	local desc=$1 file=$2 trc grc
	lz4 -dc <"$file" >plain 2>/dev/null
	trc=$?
	if [ -n "${PIPE-}" ]; then
		cat "$file" | "$GPUHIST" -b -f tsv >out 2>err
		grc=$?
		name=-
	else
		"$GPUHIST" -b -f tsv "$file" >out 2>err
		grc=$?
		name=$file
	fi
	if [ $trc -ne 0 ]; then
		is "$desc: lz4 -dc fails (exit $trc), so does gpuhist: exit 1, one message" \
			"$grc:$(wc -l <err | tr -d ' '):$(grep -c "^gpuhist: $name: " err)" "1:1:1"
	else
		counts --raw plain >want
		sed 1d out | cut -f2- >got
		is "$desc: lz4 -dc decodes it, so does gpuhist, silently, with its counts" \
			"$grc:$(cat err):$(cmp -s got want && echo same)" "0::same"
	fi
}

# sweep DESCRIPTION FILE KIND: FILE cut short at every N-th offset (KIND
# cut) or with one byte inverted (KIND flip): gpuhist's verdict and counts
# are lz4's each time; one line for all.
sweep() {
	local desc=$1 file=$2 kind=$3 bad=0 n=0 trc grc
	local size
	size=$(wc -c <"$file")
	for at in $(python3 -c "import sys; n=$size; print(*sorted(set(list(range(0, min(n, 40))) + list(range(0, n, max(1, n // 60))) + [n - 1])))"); do
		if [ "$kind" = cut ]; then
			head -c "$at" "$file" >bad.lz4
		else
			python3 -c 'import sys
d = bytearray(open(sys.argv[1], "rb").read()); d[int(sys.argv[2])] ^= 0xff
sys.stdout.buffer.write(d)' "$file" "$at" >bad.lz4
		fi
		# Without its magic number it is no lz4 input: nothing to compare.
		[ "$at" -lt 4 ] && continue
		lz4 -dc <bad.lz4 >plain 2>/dev/null
		trc=$?
		"$GPUHIST" -b -f tsv bad.lz4 >out 2>err
		grc=$?
		n=$((n + 1))
		if [ $trc -ne 0 ]; then
			[ $grc -eq 1 ] && [ "$(wc -l <err)" -eq 1 ] || { bad=$((bad + 1)); diag "$kind at $at: lz4 $trc, gpuhist $grc"; }
		else
			counts --raw plain >want
			sed 1d out | cut -f2- | cmp -s - want && [ $grc -eq 0 ] ||
				{ bad=$((bad + 1)); diag "$kind at $at: lz4 decodes, gpuhist $grc"; }
		fi
	done
	is "$desc: lz4's verdict and counts at all $n places" "$bad" 0
}

plan 22

lz4 -q -c text >t.lz4
lz4 -q -c random >r.lz4
lz4 -q -c empty >e.lz4
lz4 -q -l -c text >legacy.lz4
lz4 -q -B4 -BD --content-size -c text >linked.lz4
lz4 -q --no-frame-crc -c text >nocrc.lz4
printf '\x50\x2a\x4d\x18\x05\x00\x00\x00skip!' >skip.bin
verdict "text" t.lz4
verdict "random bytes" r.lz4
verdict "empty input" e.lz4
verdict "legacy frame (lz4 -l)" legacy.lz4
verdict "64 KiB linked blocks, content size" linked.lz4
verdict "no content checksum" nocrc.lz4
cat t.lz4 r.lz4 e.lz4 t.lz4 >many.lz4
verdict "four concatenated frames" many.lz4
cat legacy.lz4 t.lz4 legacy.lz4 >mixed.lz4
verdict "legacy, frame, legacy" mixed.lz4
cat t.lz4 skip.bin t.lz4 >skipping.lz4
verdict "a skippable frame between frames" skipping.lz4
(cat t.lz4; printf 'garbage') >garbage.lz4
verdict "trailing garbage" garbage.lz4
(cat t.lz4; printf '\0\0\0\0') >zeros.lz4
verdict "trailing zero bytes" zeros.lz4
(cat legacy.lz4; printf 'xy') >legacy-tail.lz4
verdict "legacy frame, 2 stray bytes" legacy-tail.lz4
(cat legacy.lz4; printf '\xff\xff\xff\x7f') >legacy-huge.lz4
verdict "legacy frame, then no block's size" legacy-huge.lz4
PIPE=1 verdict "through a pipe: four concatenated frames" many.lz4
PIPE=1 verdict "through a pipe: legacy, frame, legacy" mixed.lz4
PIPE=1 verdict "through a pipe: trailing garbage" garbage.lz4

"$GPUHIST" -b -f tsv - <many.lz4 >out 2>/dev/null
lz4 -dc many.lz4 | "$GPUHIST" -b -f tsv - >want
same_file "standard input as a file: the counts of lz4 -dc" out want

head -c 30000 text | lz4 -q -c >small-text.lz4
sweep "truncations" small-text.lz4 cut
sweep "bit flips" small-text.lz4 flip
head -c 30000 text | lz4 -q -l -c >small-legacy.lz4
sweep "legacy frame: bit flips" small-legacy.lz4 flip

# -m and -s across frames: each frame ends inside a character and a
# 6-byte group; the counts are those of the decoded stream.
gentext mixed 5 200000 >utf8
python3 -c 'import sys
d = open("utf8", "rb").read()
for i, (a, b) in enumerate([(0, 70001), (70001, 140003), (140003, len(d))]):
    open("part%d" % i, "wb").write(d[a:b])'
for i in 0 1 2; do lz4 -q -c part$i >p$i.lz4; done
cat p0.lz4 p1.lz4 p2.lz4 >parts.lz4
"$GPUHIST" -m -f json --threads=4 parts.lz4 | sed 's/"parts.lz4"/"x"/' >got
"$GPUHIST" -m -f json --threads=4 utf8 | sed 's/"utf8"/"x"/' >want
same_file "-m across lz4 frames split inside characters" got want
"$GPUHIST" -s -f csv parts.lz4 | sed 1d | cut -d, -f2- >got
"$GPUHIST" -s -f csv utf8 | sed 1d | cut -d, -f2- >want
same_file "-s across lz4 frames" got want
