#!/bin/sh
# t1003-ent.t - the byte view and the entropy agree with ent(1)
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_cmd ent
need_cmd python3

# ent -t -c FILE prints "3,VALUE,OCCURRENCES,FRACTION" for every byte value
# and "1,BYTES,ENTROPY,..." for the file.
ent_counts() { ent -t -c "$1" | awk -F, '$1 == 3 { print $2 "\t" $3 }'; }
ent_entropy() { ent -t "$1" | awk -F, '$1 == 1 { print $3 }'; }

# within_1e6 A B: whether two decimal numbers differ by at most 1e-6.
within_1e6() {
	awk -v a="$1" -v b="$2" 'BEGIN {
		d = a - b; if (d < 0) d = -d
		exit !(a != "" && b != "" && d <= 1.0000001e-6)
	}'
}

gendata 21 150000 >"$TMP/text"
gzip -9c "$TMP/text" >"$TMP/text.gz"
head -c 100000 /dev/zero >"$TMP/zeros"
python3 -c 'import sys; sys.stdout.buffer.write(bytes(range(256)) * 40)' \
	>"$TMP/uniform"
printf 'programming massively parallel processors' >"$TMP/pmpp"
files="text zeros uniform pmpp gpuhist"
cp "$GPUHIST" "$TMP/gpuhist"

plan $((6 * 3 + 1))

for f in $files text.gz; do
	raw=
	[ "$f" = text.gz ] && raw=--raw
	what="$f${raw:+ $raw}"
	"$GPUHIST" $raw -b -f tsv "$TMP/$f" | sed '1d; s/^[^	]*	//' \
		>"$TMP/got"
	ent_counts "$TMP/$f" >"$TMP/want"
	same_file "$what: -b counts equal ent -t -c's occurrences" \
		"$TMP/got" "$TMP/want"

	want=$(ent_entropy "$TMP/$f")
	got=$("$GPUHIST" $raw "$TMP/$f" | sed -n 's/^entropy *\([0-9.]*\) bits per byte$/\1/p')
	within_1e6 "$got" "$want"
	ok $? "$what: table entropy $got equals ent's $want"

	got=$("$GPUHIST" $raw -c -f json "$TMP/$f" |
		python3 -c 'import json, sys; print("%.6f" % json.load(sys.stdin)["inputs"][0]["entropy"])')
	within_1e6 "$got" "$want"
	ok $? "$what: json entropy $got equals ent's $want"
done

# A gzip file is counted decoded; ent sees the decoded bytes through a pipe.
gzip -dc "$TMP/text.gz" >"$TMP/decoded"
"$GPUHIST" -b -f tsv "$TMP/text.gz" | sed '1d; s/^[^	]*	//' >"$TMP/got"
ent_counts "$TMP/decoded" >"$TMP/want"
same_file "text.gz decoded: -b counts equal ent's on gzip -dc" \
	"$TMP/got" "$TMP/want"
