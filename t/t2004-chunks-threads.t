#!/bin/sh
# t2004-chunks-threads.t - --threads and --chunk-size never change a count
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_cmd python3
need_cmd gzip

gendata 71 1500000 >"$TMP/text"
gendata 72 30000 >"$TMP/small"
gzip -c "$TMP/text" >"$TMP/text.gz"
gzip -c "$TMP/small" >"$TMP/small.gz"
cat "$TMP/small.gz" "$TMP/small.gz" >"$TMP/two-members.gz"
set -- "$TMP/text" "$TMP/text.gz"
small="$TMP/small $TMP/small.gz $TMP/two-members.gz"

oracle -b "$@" >"$TMP/want"
oracle -b $small >"$TMP/want-small"

plan 17

for opts in --threads=1 --threads=2 --threads=5 --chunk-size=4096 \
	--chunk-size=4k:--threads=1 --chunk-size=1M --chunk-size=1M:--threads=3 \
	--chunk-size=65537:--threads=2 --chunk-size=64M:--threads=1 \
	--chunk-size=1000:--streams=3; do
	o=$(echo "$opts" | tr ':' ' ')
	# shellcheck disable=SC2086
	"$GPUHIST" $o -b -f tsv "$@" >"$TMP/got"
	same_file "$o: plain and gzip, as the oracle counts" "$TMP/got" "$TMP/want"
done

# Tiny chunks put a chunk boundary after every byte or every few bytes,
# also inside gzip members and across the two members of one file.
for opts in --chunk-size=1 --chunk-size=1:--threads=1 --chunk-size=2 \
	--chunk-size=7 --chunk-size=7:--threads=1 --chunk-size=13:--threads=4; do
	o=$(echo "$opts" | tr ':' ' ')
	# shellcheck disable=SC2086
	"$GPUHIST" $o -b -f tsv $small >"$TMP/got"
	same_file "$o: plain, gzip and two members, as the oracle counts" \
		"$TMP/got" "$TMP/want-small"
done

gzip -dc "$TMP/text.gz" | "$GPUHIST" --chunk-size=7 --threads=2 -b -f tsv \
	>"$TMP/got"
gzip -dc "$TMP/text.gz" | oracle --raw -b - >"$TMP/want"
same_file "--chunk-size=7 on 1.5 MB through a pipe" "$TMP/got" "$TMP/want"
