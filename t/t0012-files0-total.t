#!/bin/bash
# t0012-files0-total.t - --files0-from (NUL-separated names, any number,
# any bytes but NUL) and --total=auto|always|only|never, as coreutils wc
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_cmd python3

plan 21

cd "$TMP" || exit 1
mkdir shards
# 20,000 small files, and one list of them (find order), and what they
# hold together.
python3 -c 'import os
for i in range(20000):
    with open("shards/%05d" % i, "w") as f:
        f.write("shard %d\n" % i)'
find shards -type f -print0 >list0
find shards -type f -print0 | xargs -0 cat >all

run_gh -b -f tsv --files0-from=list0 --total=only
"$GPUHIST" -b -f tsv --raw all | sed 's/^all	/total	/' >want
is "20,000 names: exit 0, silent" "$rc:$err" "0:"
same_file "20,000 names, --total=only: the total alone, as the files hold it" \
	"$TMP/out" want

find shards -type f -print0 | "$GPUHIST" -b -f tsv --files0-from=- \
	--total=only >out2 2>err2
is "names on standard input (--files0-from=-)" \
	"$?:$(cat err2):$(cmp -s out2 want && echo same)" "0::same"

run_gh -c -f tsv --files0-from=list0
is "20,000 names: a block each, then the total" \
	"$(sed 1d "$TMP/out" | cut -f1 | sort -u | wc -l | tr -d ' ')" 20001

# Names with newlines, tabs and spaces.
printf 'one\n' >'new
line'
printf 'two\n' >'tab	and space'
printf 'new\nline\0tab\tand space\0' >odd0
run_gh -b -f json --files0-from=odd0
is "a name with a newline, one with a tab: both counted" \
	"$rc:$(grep -c '"name": "new\\u000aline"' "$TMP/out"):$(grep -c '"name": "tab\\u0009and space"' "$TMP/out")" \
	"0:1:1"

# The last name need not end in a NUL.
printf 'shards/00001\0shards/00002' >nonul0
run_gh -b -f tsv --files0-from=nonul0 --total=never
is "the last name without a NUL: counted" \
	"$rc:$(sed 1d "$TMP/out" | cut -f1 | sort -u | tr '\n' ' ')" \
	"0:shards/00001 shards/00002 "

# An empty name: an input that fails, named by its place; the others
# counted.
printf 'shards/00001\0\0shards/00002\0' >empty0
run_gh -b -f tsv --files0-from=empty0
is "an empty name: exit 1, its place named" "$rc:$err" \
	"1:gpuhist: empty0:2: invalid zero-length file name"
is "an empty name: the other two counted, and a total" \
	"$(sed 1d "$TMP/out" | cut -f1 | sort -u | tr '\n' ' ')" \
	"shards/00001 shards/00002 total "
run_gh -b -f json --files0-from=empty0
is "an empty name in json: an entry with its error, so --merge refuses it" \
	"$(grep -c '"error": "empty0:2: invalid zero-length file name"' "$TMP/out")" 1

printf 'shards/00001\0-\0' | "$GPUHIST" -b --files0-from=- >out3 2>err3
is "- among names read from standard input: refused, as wc refuses it" \
	"$?:$(cat err3)" \
	"1:gpuhist: -:2: when reading file names from standard input, no file name of '-' allowed"

run_gh --files0-from=no-such-list
is "a list that cannot be opened: exit 1, said" "$rc:$err" \
	"1:gpuhist: cannot open 'no-such-list' for reading: No such file or directory"
run_gh --files0-from=list0 all
is "names and operands together: a usage error" "$rc:$err" \
	"2:gpuhist: extra operand 'all'
file operands cannot be combined with --files0-from
Try 'gpuhist --help' for more information."

# --merge reads its results from a list too.
"$GPUHIST" -f json shards/00001 >r1.json
"$GPUHIST" -f json shards/00002 >r2.json
printf 'r1.json\0r2.json\0' >results0
run_gh --merge -b -f tsv --files0-from=results0 --total=only
"$GPUHIST" -b -f tsv --total=only shards/00001 shards/00002 >want
is "--merge --files0-from: the results added up" \
	"$rc:$(cmp -s "$TMP/out" want && echo same)" "0:same"

# --total, as wc: auto (several), always, only, never; in every format.
printf 'abc\n' >a
printf 'abd\n' >b

run_gh -b -f tsv a
is "--total=auto, one input: no total" "$(grep -c '^total' "$TMP/out")" 0
run_gh -b -f tsv a b
is "--total=auto, two inputs: a total" "$(grep -c '^total' "$TMP/out")" 256
run_gh -b -f tsv --total=always a
is "--total=always, one input: a total" \
	"$(grep -c '^total' "$TMP/out"):$(grep -c '^a	' "$TMP/out")" "256:256"
run_gh -c --total=only a b
is "--total=only, table: the total's block alone" \
	"$(grep -c '==>' "$TMP/out"):$(grep '==>' "$TMP/out")" "1:==> total <=="
run_gh -b -f csv --total=never a b
is "--total=never, csv: no total" \
	"$(grep -c '^total' "$TMP/out"):$(grep -c '^a,' "$TMP/out")" "0:256"
run_gh -b -f json --total=only a b
is "--total=only, json: every entry still, and the total" \
	"$(grep -c '"name": "a"' "$TMP/out"):$(grep -c '"name": "total"' "$TMP/out")" \
	"1:1"
"$GPUHIST" --merge -b -f tsv --total=only "$TMP/out" >merged 2>merged.err
mrc=$?
"$GPUHIST" -b -f tsv --total=only a b >want
is "--total=only, json: the result merges, and gives the same total" \
	"$mrc:$(cat merged.err):$(cmp -s merged want && echo same)" "0::same"
run_gh -b -f json --total=never a b
is "--total=never, json: still the total (--merge reads it)" \
	"$(grep -c '"name": "total"' "$TMP/out")" 1
