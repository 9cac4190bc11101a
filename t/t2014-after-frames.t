#!/bin/bash
# t2014-after-frames.t - after zstd frames (or a skippable frame that
# begins an lz4 file), the format is found again from the next bytes, as
# zstd -dc does (issue "What users see, third round", item 6): zstd then
# gzip, xz or lz4 data decoded as zstd -dc decodes it, from a file (frames
# in parallel giving up to the serial decoder), a pipe and memory (the
# Python module); zstd then bzip2 refused, as zstd -dc refuses it; an lz4
# file that begins with a skippable frame decoded as lz4 -dc decodes it,
# libarchive's test file of one among them
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_cmd python3
need_cmd zstd
for f in zstd xz lz4; do
	"$GPUHIST" --version -v 2>&1 | grep '^decodes:' | grep -q "$f" ||
		skip_all "gpuhist was built without $f"
done

cd "$TMP" || exit 1
plan 13

gen log 3000000 >log
split -n 3 log part.

# same DESC REFERENCE_CMD FILE: gpuhist's byte counts of FILE (as a file,
# then through a pipe) are those of REFERENCE_CMD's output, exit 0.
same() {
	local desc=$1 ref=$2 file=$3 want got piped rc
	want=$($ref <"$file" | "$GPUHIST" -b -f tsv - | sed 1d | cut -f2-)
	got=$("$GPUHIST" -b -f tsv "$file" 2>err | sed 1d | cut -f2-)
	rc=$?
	piped=$("$GPUHIST" -b -f tsv - <"$file" 2>>err | sed 1d | cut -f2-)
	if [ "$got" = "$want" ] && [ "$piped" = "$want" ] && [ ! -s err ]; then
		ok 0 "$desc"
	else
		ok 1 "$desc"
		diag "$(head -3 err)"
	fi
}

for second in gzip xz lz4; do
	{ zstd -q -c part.aa; $second -c part.ab; } >zstd-$second
	same "zstd then $second: zstd -dc's bytes" "zstd -dc" zstd-$second
done
# Several frames: the parallel decoder gives up, the serial goes on.
{ for p in part.a?; do zstd -q -c "$p"; done; gzip -c log; } >frames-gzip
same "three zstd frames then gzip, 2 threads" "zstd -dc" frames-gzip
# A skippable frame between the frames and the gzip data.
{ zstd -q -c part.aa; python3 -c 'import struct, sys
sys.stdout.buffer.write(struct.pack("<II", 0x184D2A5E, 3) + b"xyz")'
  gzip -c part.ab; } >skip-gzip
same "zstd, a skippable frame, then gzip" "zstd -dc" skip-gzip

# The Python module reads memory: the rest is handed over from it.
if [ -f "${ABS_BUILDDIR:-}/python/gpuhist.py" ] &&
   [ -f "$ABS_BUILDDIR/.libs/libgpuhist.so.1" ]; then
	is "memory (Python's count of bytes): zstd then xz, zstd -dc's bytes" \
		"$(PYTHONPATH=$ABS_BUILDDIR/python GPUHIST_LIBRARY=$ABS_BUILDDIR/.libs/libgpuhist.so.1 \
		   python3 -c 'import gpuhist, subprocess, sys
data = open(sys.argv[1], "rb").read()
want = subprocess.run(["zstd", "-dc", sys.argv[1]], capture_output=True).stdout
got = gpuhist.count(data)
print("same" if list(got) == [want.count(bytes([v])) for v in range(256)]
      else "differ")' zstd-xz)" same
else
	skip "memory (Python's count of bytes): zstd then xz" "no Python module"
fi

# zstd -dc does not go on to bzip2: neither does gpuhist.
{ zstd -q -c part.aa; bzip2 -c part.ab; } >zstd-bzip2
zstd -dc zstd-bzip2 >/dev/null 2>&1
zrc=$?
run_gh -b zstd-bzip2
is "zstd then bzip2: refused, as zstd -dc refuses it ($zrc)" "$rc" 1
like "zstd then bzip2: the message names the file" "$err" \
	'^gpuhist: zstd-bzip2: corrupt zstd data'
# Garbage after a frame: still zstd's verdict.
{ zstd -q -c part.aa; printf 'garbage!'; } >zstd-garbage
run_gh -b zstd-garbage
is "zstd then garbage: refused" "$rc" 1

# An lz4 file that begins with a skippable frame (lz4's frame format has
# them too): lz4 -dc's bytes, from a file and a pipe.
{ python3 -c 'import struct, sys
sys.stdout.buffer.write(struct.pack("<II", 0x184D2A50, 8) + b"skipped!")'
  lz4 -c part.aa; } >skip.lz4
same "a skippable frame, then lz4: lz4 -dc's bytes" "lz4 -dc" skip.lz4
{ python3 -c 'import struct, sys
sys.stdout.buffer.write(struct.pack("<II", 0x184D2A51, 0))'
  lz4 -c part.aa; lz4 -c part.ab; } >skip2.lz4
same "an empty skippable frame, then two lz4 frames" "lz4 -dc" skip2.lz4

# libarchive's own test file (t/data/README).
same "libarchive's test_compat_lz4_skippable_frames_B4.tar.lz4" "lz4 -dc" \
	"$T_SRCDIR/data/lz4-skippable-frames.tar.lz4"

# The tokens views across the hand-over: lines cut where zstd ends.
want=$(zstd -dc zstd-gzip | "$GPUHIST" --lines -f tsv - | sed 1d | cut -f2- | sort)
got=$("$GPUHIST" --lines -f tsv zstd-gzip | sed 1d | cut -f2- | sort)
is "--lines across the hand-over: zstd -dc's lines" "$got" "$want"
