#!/bin/sh
# t1002-views-formats.t - every view in every format, against the oracle
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_cmd python3

views='
-w1
-w2
-w3
-w4
-w5
-w7
-w13
-w25
-w26
--width=6
-i
-i:-w1
-w5:-i
--ignore-case:--width=26
-b
-b:-i
--bytes
-c
-c:-i
--classes:--ignore-case'

plan $((20 * 4 + 1))

gendata 11 60000 >"$TMP/text"
gendata 12 90000 | gzip -c >"$TMP/more.gz"
python3 -c 'import sys; sys.stdout.buffer.write(bytes(range(256)) * 3)' \
	>"$TMP/all-bytes"
set -- "$TMP/text" "$TMP/more.gz" "$TMP/all-bytes"

# The default view is -w 4.
"$GPUHIST" -f tsv "$@" >"$TMP/default"
"$GPUHIST" -w 4 -f tsv "$@" >"$TMP/w4"
same_file "no view option is -w 4" "$TMP/default" "$TMP/w4"

for v in $views; do
	opts=$(echo "$v" | tr ':' ' ')
	# shellcheck disable=SC2086
	{
		"$GPUHIST" $opts -f tsv "$@" >"$TMP/got" &&
			oracle $opts -f tsv "$@" >"$TMP/want"
		same_file "$opts: tsv" "$TMP/got" "$TMP/want"

		"$GPUHIST" $opts -f csv "$@" >"$TMP/got" &&
			oracle $opts -f csv "$@" >"$TMP/want"
		same_file "$opts: csv" "$TMP/got" "$TMP/want"

		"$GPUHIST" $opts -f json "$@" >"$TMP/got"
		oracle_ok "$opts: json (bins, histogram, bytes_read, counted)" \
			$opts --check-json "$TMP/got" "$@"

		"$GPUHIST" $opts "$@" >"$TMP/got"
		oracle_ok "$opts: table (labels, counts, shares, footer)" \
			$opts --check-table "$TMP/got" "$@"
	}
done
