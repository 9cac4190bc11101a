#!/bin/sh
# t2007-many-readers.t - many readers and counting threads on one big input:
# every chunk counted once, whatever the threads (the ThreadSanitizer run's
# main course, see .ci/run)
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_cmd python3
need_cmd gzip

# 32 MiB: a 1 MiB piece 32 times (and 37 bytes more), so the expected
# counts are the piece's times 32, plus the tail's.
cd "$TMP" || exit 1
gendata 96 1048576 >piece
printf 'tail: not a multiple of any chunk\n\000\377' >tail
i=0
while [ $i -lt 32 ]; do cat piece; i=$((i + 1)); done >big
cat tail >>big
gzip -1c big >big.gz
oracle -b piece | sed 1d | cut -f2,3 >piece.counts
oracle -b tail | sed 1d | cut -f2,3 >tail.counts
# expect NAME...: the -b -f tsv rows gpuhist should print for NAMEs, each
# holding big (several names: their blocks and the total).
expect() {
	printf 'input\tbin\tcount\n'
	paste piece.counts tail.counts |
		awk -F'\t' '{ print $1 "\t" 32 * $2 + $4 }' >big.counts
	for name in "$@"; do
		sed "s/^/$name	/" big.counts
	done
	if [ $# -gt 1 ]; then
		awk -F'\t' -v n=$# '{ print "total\t" $1 "\t" n * $2 }' big.counts
	fi
}

plan 6

"$GPUHIST" --threads=4 --chunk-size=64k -b -f tsv big >got
expect big >want
same_file "4 readers, 64 KiB chunks: every chunk counted once" got want
"$GPUHIST" --threads=16 --chunk-size=4k -b -f tsv big >got
same_file "16 readers, 4 KiB chunks" got want
"$GPUHIST" --threads=3 --chunk-size=4093 -b -f tsv big.gz >got
expect big.gz >want
same_file "gzip, one reader and a pool of 3 counting threads" got want
cat big | "$GPUHIST" --threads=4 --chunk-size=100000 -b -f tsv >got
expect - >want
same_file "a pipe, one reader and 4 counting threads" got want
# One backend for inputs read both ways in turn.
cat big | "$GPUHIST" --threads=4 --chunk-size=64k -b -f tsv big - big.gz big \
	>got
expect big - big.gz big >want
same_file "file, pipe, gzip, file in one run: the readers change per input" \
	got want
"$GPUHIST" --threads=5 --chunk-size=1M -b -f tsv - - <big >got
expect - >one
{ cat one; sed 1d one | sed 's/	[0-9]*$/	0/'; sed 1d one | sed 's/^-/total/'
} >want
same_file "- - on a regular file with 5 readers: counted once" got want
