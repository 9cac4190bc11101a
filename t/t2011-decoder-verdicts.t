#!/bin/bash
# t2011-decoder-verdicts.t - the reference tools' verdicts however the bytes
# are fed: zstd frames on which libzstd's verdict depends on how it is fed
# (fed as zstd -dc feeds it), an xz check liblzma cannot verify (counted,
# with xz's warning), and a zip archive (counted as it is, with a hint)
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_cmd python3

cd "$TMP" || exit 1
"$GPUHIST" --version -v >version 2>&1
built() { grep '^decodes:' version | grep -q "$1\\($\\|,\\)"; }

# counts ARGS...: byte counts, the name column dropped.
counts() { "$GPUHIST" -b -f tsv "$@" 2>/dev/null | sed 1d | cut -f2-; }

# fed DESCRIPTION FILE TOOL: gpuhist's exit status on FILE read as a file,
# from a pipe, from standard input and with 4 threads is TOOL -dc's, and
# where that is 0 the counts are TOOL's.  The verdict is the installed
# tool's, not one written here: Debian's zstd 1.5.4+dfsg2-5+deb12u1 (and
# its libzstd) refuse the frame of window size 0 that 1.5.4+dfsg2-5
# decoded, and gpuhist, on that libzstd, with it.
fed() {
	local desc=$1 file=$2 tool=$3 want trc got=""
	"$tool" -dc "$file" >plain 2>/dev/null
	trc=$?
	want=$trc
	counts --raw plain >want
	"$GPUHIST" -b "$file" >/dev/null 2>&1; got="$got$?"
	cat "$file" | "$GPUHIST" -b >/dev/null 2>&1; got="$got$?"
	"$GPUHIST" -b <"$file" >/dev/null 2>&1; got="$got$?"
	"$GPUHIST" -b --threads=4 "$file" "$file" >/dev/null 2>&1; got="$got$?"
	same=same
	[ "$want" = 0 ] && ! { counts "$file" | cmp -s - want; } && same=differ
	is "$desc: $tool -dc exits $trc; gpuhist fed four ways exits $want each time, $tool's counts" \
		"$trc:$got:$same" "$want:$want$want$want$want:same"
}

plan 14

if ! built zstd || ! command -v zstd >/dev/null 2>&1; then
	for i in 1 2 3 4 5 6; do skip "zstd verdicts" "zstd not built in or not found"; done
else
	# Single segment, window and content size 0, one 2-byte compressed
	# block (no literals, no sequences): valid to zstd 1.5.4 (refused by
	# Debian's deb12u1 of it).  Fed its magic bytes alone first,
	# libzstd's streaming path refused it where zstd -dc did not.
	printf '\x28\xb5\x2f\xfd\x20\x00\x15\x00\x00\x00\x00' >empty-block.zst
	fed "a frame of window and content size 0, one 2-byte block" \
		empty-block.zst zstd
	# Declares 241 bytes of content, holds an empty last raw block:
	# zstd -dc refuses it; fed in pieces, libzstd counted nothing, exit 0.
	# (Each verdict below is the installed zstd's.)
	printf '\x28\xb5\x2f\xfd\x20\xf1\x01\x00\x00' >short.zst
	fed "a frame shorter than its declared content size" short.zst zstd
	# The same two after a good frame, in one file.
	printf 'hello\n' | zstd -q -c >good.zst
	cat good.zst empty-block.zst good.zst >three.zst
	fed "the valid one between two frames" three.zst zstd
	# Each beginning in the last bytes of the first input buffer (128 KiB
	# and 3 bytes), after a skippable frame: zstd -dc has it whole.
	for f in short empty-block; do
		python3 -c 'import struct, sys
n = 131071
sys.stdout.buffer.write(struct.pack("<II", 0x184D2A50, n - 8) + bytes(n - 8) +
                        open(sys.argv[1], "rb").read())' $f.zst >edge-$f.zst
	done
	fed "the short frame at the first buffer's edge" edge-short.zst zstd
	fed "the valid frame at the first buffer's edge" edge-empty-block.zst zstd
	# Through a pipe that delivers a frame in two writes.
	(head -c 8 empty-block.zst; sleep 0.3; tail -c +9 empty-block.zst) |
		"$GPUHIST" -b >/dev/null 2>&1
	r1=$?
	(head -c 7 short.zst; sleep 0.3; tail -c +8 short.zst) |
		"$GPUHIST" -b >/dev/null 2>&1
	r2=$?
	zstd -dc empty-block.zst >/dev/null 2>&1
	z1=$?
	zstd -dc short.zst >/dev/null 2>&1
	is "frames split across two writes to a pipe: zstd's verdicts" "$r1:$r2" "$z1:$?"
fi

if ! built xz || ! command -v xz >/dev/null 2>&1; then
	for i in 1 2 3; do skip "xz unsupported check" "xz not built in or not found"; done
else
	cp "$T_SRCDIR/data/unsupported-check.xz" u.xz
	xz -dc u.xz >plain 2>/dev/null
	is "xz's unsupported-check.xz: xz -dc decodes it and warns (exit 2)" "$?" 2
	run_gh -b -f tsv u.xz
	sed 1d "$TMP/out" | cut -f2- >got
	counts --raw plain >want
	is "... gpuhist counts what xz decodes, exit 0, one warning naming the input" \
		"$rc:$err:$(cmp -s got want && echo same)" \
		"0:gpuhist: u.xz: unsupported type of integrity check; not verifying file integrity:same"
	cat u.xz | "$GPUHIST" -b >/dev/null 2>err
	like "... from a pipe too" "$?:$(cat err)" "^0:gpuhist: -: unsupported type of integrity check"
fi

# A zip archive (stored, so its text shows): counted as it is, one warning.
python3 -c 'import zipfile
with zipfile.ZipFile("a.zip", "w") as z: z.writestr("a.txt", "hello zip\n" * 50)'
run_gh -b -f tsv a.zip
sed 1d "$TMP/out" | cut -f2- >got
counts --raw a.zip >want
is "zip: counted as it is, exit 0, one warning saying how to count its files" \
	"$rc:$err:$(cmp -s got want && echo same)" \
	"0:gpuhist: a.zip: zip archive: counted as it is; unzip -p ARCHIVE | gpuhist counts its files:same"
run_gh -b --raw a.zip
is "zip with --raw: silent" "$rc:$err" "0:"
cat a.zip | "$GPUHIST" -b >/dev/null 2>err
is "zip from a pipe: the same warning" "$?:$(cat err)" \
	"0:gpuhist: -: zip archive: counted as it is; unzip -p ARCHIVE | gpuhist counts its files"

# -s on zstd frames that do not say their size: decoded serially, as
# planned (-s joins frames by their offsets), and -v says so as a plan,
# not as a decoder that "gave up" (issue 26, item 12); the tokens views
# join frames piece by piece, in parallel.
if command -v zstd >/dev/null; then
	gendata 5 300000 >piece
	zstd -q --no-content-size -c piece >f1.zst
	cat f1.zst f1.zst f1.zst f1.zst >frames.zst
	"$GPUHIST" -v -s --threads=4 frames.zst >/dev/null 2>err
	like "-s on frames without sizes: -v says why serially, not 'gave up'" \
		"$?:$(grep -c 'gave up' err):$(grep 'serially' err)" \
		'^0:0:gpuhist: frames.zst: decoded serially with libzstd: its frames do not all say their size, which -s needs'
	# The tokens views join frames piece by piece: no size needed.
	cat piece piece piece piece >pieces
	"$GPUHIST" -v -t --threads=4 --chunk-size=4K -f tsv frames.zst \
		>got 2>err
	rc=$?
	"$GPUHIST" -t -f tsv pieces | sed 's/^pieces\t/frames.zst\t/' >want
	like "-t on frames without sizes: decoded in parallel, the plain file's tokens" \
		"$rc:$(grep -c 'serially' err):$(cmp -s got want && echo same):$(grep -o 'decoded by [0-9]* threads: 4 frames' err)" \
		'^0:0:same:decoded by 4 threads: 4 frames'
else
	skip "-s on frames without sizes" "no zstd"
	skip "-t on frames without sizes" "no zstd"
fi
