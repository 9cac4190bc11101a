#!/bin/sh
# t2005-stdin.t - standard input as a pipe and as a regular file
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_cmd python3

plan 10

gendata 81 3000000 >"$TMP/text"
gzip -c "$TMP/text" >"$TMP/text.gz"
oracle -b <"$TMP/text" >"$TMP/want"
: >"$TMP/empty"
many="--threads=4 --chunk-size=64k"

run_gh -b -f tsv <"$TMP/text"
same_file "no operand reads stdin (a regular file)" "$TMP/out" "$TMP/want"
cat "$TMP/text" | "$GPUHIST" -b -f tsv - >"$TMP/got"
same_file "- reads stdin (a pipe)" "$TMP/got" "$TMP/want"
# shellcheck disable=SC2086
"$GPUHIST" $many -b -f tsv <"$TMP/text" >"$TMP/got"
same_file "stdin as a regular file, several readers" "$TMP/got" "$TMP/want"

# Like cat - -: the second - finds stdin at its end.
{ cat "$TMP/want"; sed 1d "$TMP/want" | sed 's/	[0-9]*$/	0/'
  sed 1d "$TMP/want" | sed 's/^-/total/'; } >"$TMP/want2"
# shellcheck disable=SC2086
"$GPUHIST" $many -b -f tsv - - <"$TMP/text" >"$TMP/got"
same_file "- - on a regular file: counted once, the second is empty" \
	"$TMP/got" "$TMP/want2"
cat "$TMP/text" | "$GPUHIST" -b -f tsv - - >"$TMP/got"
same_file "- - on a pipe: counted once, the second is empty" \
	"$TMP/got" "$TMP/want2"
"$GPUHIST" -b -f tsv - - <"$TMP/text.gz" >"$TMP/got"
same_file "- - on gzip: decoded once, the second is empty" \
	"$TMP/got" "$TMP/want2"

# stdin shared with the commands around: start and stop where read() would.
# shellcheck disable=SC2086
{ dd bs=1000 count=1 of=/dev/null 2>/dev/null
  "$GPUHIST" $many -b -f tsv; } <"$TMP/text" >"$TMP/got"
tail -c +1001 "$TMP/text" | oracle -b >"$TMP/want3"
same_file "stdin already partly read: the rest is counted" \
	"$TMP/got" "$TMP/want3"
# shellcheck disable=SC2086
left=$({ "$GPUHIST" $many >/dev/null; wc -c | tr -d ' '; } <"$TMP/text")
is "after gpuhist, stdin is at its end (several readers)" "$left" 0
left=$({ "$GPUHIST" --threads=1 >/dev/null; wc -c | tr -d ' '; } <"$TMP/text")
is "after gpuhist, stdin is at its end (one reader)" "$left" 0

# A named pipe as an operand is read like stdin.
if mkfifo "$TMP/fifo" 2>/dev/null; then
	cat "$TMP/text.gz" >"$TMP/fifo" &
	"$GPUHIST" -b -f tsv "$TMP/fifo" | sed '2,$s/^[^	]*	/-	/' >"$TMP/got"
	wait
	same_file "a named pipe (carrying gzip) as an operand" "$TMP/got" \
		"$TMP/want"
else
	skip "a named pipe as an operand" "mkfifo failed"
fi
