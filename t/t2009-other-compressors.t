#!/bin/bash
# t2009-other-compressors.t - zstd, xz and bzip2 input, recognised by its
# magic bytes and decoded exactly as zstd -dc, xz -dc and bzip2 -dc decode
# it, round trips through the real tools: text, random and empty data,
# many frames or streams, skippable frames, pzstd, xz -T0 and lbzip2
# output, stdin; truncations and bit flips get the tool's verdict (fail:
# a message, nothing added, exit 1); a format this build leaves out is
# counted as it is, with one warning naming what to install (the spec)
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_cmd python3

cd "$TMP" || exit 1
gendata 91 300000 >text
gen random 200000 >random
: >empty
"$GPUHIST" --version -v >version 2>&1

# built FORMAT: whether this gpuhist decodes FORMAT.
built() { grep '^decodes:' version | grep -q "$1\\($\\|,\\)"; }

# counts FILE: its byte counts, the name column dropped.
counts() { "$GPUHIST" -b -f tsv "$@" 2>>"$TMP/stderr" | sed 1d | cut -f2-; }

# roundtrip DESCRIPTION TOOL FILE: gpuhist FILE counts what TOOL -dc FILE
# writes, exit 0, nothing said.
roundtrip() {
	local desc=$1 tool=$2 file=$3
	: >"$TMP/stderr"
	"$tool" -dc "$file" >plain 2>/dev/null
	counts --raw plain >want
	counts "$file" >got
	"$GPUHIST" -b -f tsv "$file" >/dev/null 2>"$TMP/err1"
	is "$desc: exit 0, silent, the counts of $tool -dc" \
		"$?:$(cat "$TMP/err1"):$(cmp -s got want && echo same)" "0::same"
}

# verdict DESCRIPTION TOOL FILE: gpuhist agrees with TOOL -dc on whether
# FILE decodes; when it does not, one message naming FILE, exit 1, and no
# rows; when it does, TOOL's counts.
verdict() {
	local desc=$1 tool=$2 file=$3 trc grc
	"$tool" -dc "$file" >plain 2>/dev/null
	trc=$?
	"$GPUHIST" -b -f tsv "$file" >out 2>err
	grc=$?
	if [ $trc -ne 0 ]; then
		is "$desc: $tool fails, so does gpuhist: exit 1, one message, no rows" \
			"$grc:$(wc -l <err | tr -d ' '):$(grep -c "^gpuhist: $file: " err):$(sed 1d out | wc -l | tr -d ' ')" \
			"1:1:1:0"
	else
		counts --raw plain >want
		sed 1d out | cut -f2- >got
		is "$desc: $tool decodes it, so does gpuhist, with its counts" \
			"$grc:$(cmp -s got want && echo same)" "0:same"
	fi
}

# A zstd skippable frame of n bytes of content: magic 0x184D2A5?, length.
skippable() {
	python3 -c 'import sys, struct
n = int(sys.argv[1]); sys.stdout.buffer.write(struct.pack("<II", 0x184D2A53, n) + b"s" * n)' "$1"
}

plan 59

for tool in zstd xz bzip2; do
	ext=$tool
	[ $tool = bzip2 ] && ext=bz2
	if ! command -v $tool >/dev/null 2>&1; then
		for i in $(seq 15); do skip "$tool round trips" "$tool not found"; done
		continue
	fi
	case $tool in
	zstd) dev=libzstd-dev ;;
	xz) dev=liblzma-dev ;;
	bzip2) dev=libbz2-dev ;;
	esac
	if ! built $tool; then
		$tool -c text >t.$ext
		run_gh -b t.$ext
		mv "$TMP/out" asis
		is "$tool: left out of this build: counted as it is, one warning naming what to install" \
			"$rc:$err" "0:gpuhist: t.$ext: $tool data, but this gpuhist was built without $tool ($dev): counted as it is; $tool -dc FILE | gpuhist counts what it holds"
		run_gh -b --raw t.$ext
		is "$tool: left out, --raw counts the same bytes, silently" \
			"$rc:$err:$(cmp -s asis "$TMP/out" && echo same)" "0::same"
		for i in $(seq 13); do skip "$tool round trips" "$tool not built in"; done
		continue
	fi
	$tool -c text >t.$ext
	$tool -c random >r.$ext
	$tool -c empty >e.$ext
	roundtrip "$tool: text" $tool t.$ext
	roundtrip "$tool: random bytes" $tool r.$ext
	roundtrip "$tool: empty input" $tool e.$ext
	cat t.$ext r.$ext e.$ext t.$ext >many.$ext
	roundtrip "$tool: four concatenated" $tool many.$ext
	: >"$TMP/stderr"
	cat t.$ext | counts >got
	$tool -dc t.$ext >plain && counts --raw plain >want
	same_file "$tool: on standard input" got want
	cp t.$ext copy.$ext
	counts -v --threads=4 t.$ext copy.$ext r.$ext >/dev/null
	like "$tool: -v says which decoder" "$(cat "$TMP/stderr")" \
		"$tool decoded with lib"

	size=$(wc -c <many.$ext)
	head -c $((size / 2)) many.$ext >half.$ext
	verdict "$tool: cut in half" $tool half.$ext
	head -c $((size - 1)) many.$ext >less1.$ext
	verdict "$tool: one byte short" $tool less1.$ext
	head -c 10 t.$ext >ten.$ext
	verdict "$tool: its first ten bytes" $tool ten.$ext
	for at in 20 $((size / 3)) $((size - 6)); do
		flip many.$ext $at >flip$at.$ext
		verdict "$tool: byte $at flipped" $tool flip$at.$ext
	done
	(cat t.$ext; printf 'trailing garbage') >garbage.$ext
	verdict "$tool: garbage after the data" $tool garbage.$ext

	run_gh -b -f tsv t.$ext half.$ext r.$ext
	is "$tool: a corrupt file among good ones: those counted, exit 1" \
		"$rc:$(grep -c '^t\.'"$ext"'	' "$TMP/out"):$(grep -c '^half' "$TMP/out"):$(grep -c '^r\.'"$ext"'	' "$TMP/out"):$(grep -c '^total' "$TMP/out")" \
		"1:256:0:256:256"
	run_gh -b --raw -f tsv t.$ext
	counts --raw - <t.$ext >want
	is "$tool: --raw counts the compressed bytes" \
		"$rc:$(sed 1d "$TMP/out" | cut -f2- | cmp -s - want && echo same)" "0:same"
done

# Each format's own shapes.
if command -v zstd >/dev/null 2>&1 && built zstd; then
	(skippable 10; zstd -c text; skippable 0; zstd -c random; skippable 3) >skip.zst
	roundtrip "zstd: skippable frames around and between" zstd skip.zst
	zstd -c text >one.zst
	for i in $(seq 40); do cat one.zst; done >forty.zst
	for i in $(seq 40); do cat text; done >forty
	run_gh -v -b -f tsv --threads=4 forty.zst
	counts --raw forty >want
	is "zstd: 40 frames on 4 threads: decoded frame by frame, counts right" \
		"$rc:$(grep -c 'zstd decoded by 4 threads: 40 frames' "$TMP/err"):$(sed 1d "$TMP/out" | cut -f2- | cmp -s - want && echo same)" \
		"0:1:same"
	flip forty.zst 30000 >forty-bad.zst
	verdict "zstd: 40 frames, one corrupt, on 4 threads" zstd forty-bad.zst
	if command -v pzstd >/dev/null 2>&1; then
		gendata 92 3000000 >big
		pzstd -q -p 4 -c big >big.pz.zst 2>/dev/null
		roundtrip "pzstd's output" zstd big.pz.zst
	else
		skip "pzstd's output" "pzstd not found"
	fi
	# A frame asking for a window of 2^31 + bytes is refused unread.
	python3 -c 'import sys
# frame header: magic, descriptor (no single segment, no checksum, no
# dictionary, no content size), window descriptor exponent 22 -> 2^32.
sys.stdout.buffer.write(bytes.fromhex("28b52ffd") + bytes([0x00, 22 << 3]) + bytes(16))' >huge.zst
	run_gh -b huge.zst
	is "zstd: a frame whose window is 4 GiB: refused" "$rc:$err" \
		"1:gpuhist: huge.zst: zstd frame needs a window over the 2 GiB limit"
else
	for i in 1 2 3 4 5; do skip "zstd's shapes" "zstd not found or not built in"; done
fi
if command -v xz >/dev/null 2>&1 && built xz; then
	gendata 93 2000000 >mid
	xz -T4 --block-size=100KiB -c mid >blocks.xz 2>/dev/null
	run_gh -v -b -f tsv --threads=4 blocks.xz
	xz -dc blocks.xz | counts --raw >want
	is "xz -T4 blocks on 4 threads: a block a thread (t2303 has more), counts right" \
		"$rc:$(grep -c "xz decoded by 4 threads: [0-9]* blocks in 1 stream" "$TMP/err"):$(sed 1d "$TMP/out" | cut -f2- | cmp -s - want && echo same)" \
		"0:1:same"
	(xz -c text; printf '\0\0\0\0'; xz -c random; printf '\0\0\0\0\0\0\0\0') >padded.xz
	roundtrip "xz: stream padding between and after" xz padded.xz
	(xz -c text; printf '\0\0\0') >badpad.xz
	verdict "xz: padding not a multiple of four" xz badpad.xz
else
	for i in 1 2 3; do skip "xz's shapes" "xz not found or not built in"; done
fi
if command -v bzip2 >/dev/null 2>&1 && built bzip2; then
	(bzip2 -c text; printf 'BZ') >bzpart.bz2
	verdict "bzip2: the start of a magic after the data" bzip2 bzpart.bz2
	if command -v lbzip2 >/dev/null 2>&1; then
		gendata 94 3000000 >big2
		lbzip2 -n 4 -c big2 >big2.bz2
		roundtrip "lbzip2's output" bzip2 big2.bz2
	else
		skip "lbzip2's output" "lbzip2 not found"
	fi
else
	for i in 1 2; do skip "bzip2's shapes" "bzip2 not found or not built in"; done
fi

# Not quite a magic, or too short for one: plain data, counted.
printf 'BZh0' >bz-level0 && cat text >>bz-level0
printf '\375\067\172\130\132\001' >almost.xz
printf '\050\265\057' >short.zst
for f in bz-level0 almost.xz short.zst; do
	run_gh -b -f tsv "$f"
	oracle -b "$f" >want 2>/dev/null
	is "$f: not that format, counted as it is" \
		"$rc:$err:$(cmp -s "$TMP/out" want && echo same)" "0::same"
done

# bzip2's trailing garbage arriving through a pipe after the data, in a
# later write: read to the end (the writer is not cut off by SIGPIPE), the
# data counted as bzip2 -dc decodes it, with bzip2's warning.
if built bzip2 && command -v bzip2 >/dev/null; then
	bzip2 -c text >late.bz2
	bzip2 -dc late.bz2 >plain
	counts --raw plain >want
	{ cat late.bz2; sleep 0.3; head -c 300000 /dev/zero | tr '\0' '\216'
	  echo "$?" >writer.rc; } |
		"$GPUHIST" -b -f tsv - >got 2>late.err
	sed 1d got | cut -f2- >got.rows
	is "bzip2, garbage in a later write: all of it read, the data counted" \
		"$(cat writer.rc):$(grep -c 'trailing garbage after EOF ignored' late.err):$(cmp -s got.rows want && echo same)" \
		"0:1:same"
else
	skip "bzip2, garbage in a later write" "bzip2 not found or not built in"
fi
