#!/bin/sh
# t4000-mpi - `mpirun -np 3 gpuhist` (the CPU backend, oversubscribed) prints
# what one process prints on the same inputs: a large plain file shared out
# in byte ranges, gzip and small files spread over the ranks, standard input
# on rank 0, bad inputs named once each, the tokens views and --values,
# more operands than one batch,
# names from --files0-from (a file, or standard input, read by rank 0; bad
# entries among them), and the same exit status on every rank.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
"$GPUHIST" --version -v 2>/dev/null | grep -q '^mpirun mode: yes' ||
	skip_all "gpuhist built without MPI (./configure --with-mpi)"
need_cmd mpirun
plan 45

# Open MPI will not run as root without being told it may (CI runs as root).
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# Quiet on machines with no network but loopback.
export OMPI_MCA_btl_base_warn_component_unused=0

# mpi NP ARGS...: gpuhist under mpirun; stdout in $TMP/mpi.out, stderr in
# $TMP/mpi.err (mpirun's own banners left out), status in $mpi_rc.
mpi() {
	np=$1; shift
	mpirun --oversubscribe -np "$np" "$GPUHIST" "$@" \
		>"$TMP/mpi.out" 2>"$TMP/mpi.raw" </dev/null
	mpi_rc=$?
	grep '^gpuhist:' "$TMP/mpi.raw" >"$TMP/mpi.err"
}

# one ARGS...: the same in one process, into $TMP/one.out, .err, $one_rc.
one() {
	"$GPUHIST" "$@" >"$TMP/one.out" 2>"$TMP/one.err" </dev/null
	one_rc=$?
}

# 96 MiB of log text, over the 64 MiB at which ranks share a file by range;
# its three parts differ, so a range counted twice or missed shows.
python3 "$T_SRCDIR/gen.py" log 33554432 >"$TMP/part"
{
	cat "$TMP/part"
	tr a-m n-za-m <"$TMP/part"
	tr 'a-z' 'A-Z' <"$TMP/part"
	printf 'tail'
} >"$TMP/big.log"
python3 "$T_SRCDIR/gen.py" random 3000000 >"$TMP/random"
gzip -c "$TMP/part" >"$TMP/part.gz"
head -c 20000 "$TMP/part.gz" >"$TMP/truncated.gz"
man_gz=$(find /usr/share/man /usr/share/doc -name '*.gz' -size +2k 2>/dev/null |
	 sort | head -12)

set -- "$TMP/big.log" "$TMP/part.gz" "$TMP/random" $man_gz
one -b -f tsv --backend=cpu "$@"
mpi 3 -b -f tsv --backend=cpu "$@"
is "good inputs: exit status 0 on one process and on 3 ranks" \
	"$one_rc $mpi_rc" "0 0"
same_file "good inputs: 3 ranks print what one process prints" \
	"$TMP/mpi.out" "$TMP/one.out"
oracle -b -f tsv "$@" >"$TMP/want.tsv"
is "the oracle reads the good inputs" $? 0
same_file "good inputs: the 3 ranks' totals are Counter's" "$TMP/mpi.out" \
	"$TMP/want.tsv"

# -v: every rank counted a part of the big file, and the parts add up.
mpi 3 -v --backend=cpu -f tsv "$TMP/big.log"
size=$(wc -c <"$TMP/big.log")
sum=0 ranks=0
for r in 0 1 2; do
	n=$(sed -n "s/^gpuhist: rank $r of 3: \([0-9]*\) bytes in .*/\1/p" \
		"$TMP/mpi.err")
	[ -n "$n" ] && [ "$n" -gt 0 ] && ranks=$((ranks + 1))
	sum=$((sum + ${n:-0}))
done
is "the big file is shared: 3 ranks read a part each" "$ranks" 3
is "the parts add up to the file, each byte read once" "$sum" "$size"

# Bad inputs among good ones: same report, each named once, exit 1 on all.
set -- "$TMP/big.log" "$TMP/missing" "$TMP/part.gz" "$TMP/truncated.gz" \
	"$TMP/gone/x" "$TMP/random"
one -f json --backend=cpu "$@"
mpi 3 -f json --backend=cpu "$@"
is "bad inputs: exit status 1 on one process and under mpirun" \
	"$one_rc $mpi_rc" "1 1"
same_file "bad inputs: the same json report" "$TMP/mpi.out" "$TMP/one.out"
sort "$TMP/one.err" >"$TMP/one.err.sorted"
sort "$TMP/mpi.err" >"$TMP/mpi.err.sorted"
same_file "bad inputs: the same messages, once each" \
	"$TMP/mpi.err.sorted" "$TMP/one.err.sorted"
like "the missing file is named" "$(cat "$TMP/mpi.err")" \
	"^gpuhist: $TMP/missing: No such file"
like "the truncated gzip is named" "$(cat "$TMP/mpi.err")" \
	"^gpuhist: $TMP/truncated.gz: .*(truncated|end of file)"

# Standard input goes to rank 0, wherever it stands among the operands.
"$GPUHIST" -b -f csv --backend=cpu "$TMP/random" - "$TMP/part.gz" \
	<"$TMP/part" >"$TMP/one.out"
mpirun --oversubscribe -np 3 "$GPUHIST" -b -f csv --backend=cpu \
	"$TMP/random" - "$TMP/part.gz" <"$TMP/part" >"$TMP/mpi.out" 2>/dev/null
is "standard input: exit status 0" $? 0
same_file "standard input: counted once, by rank 0" "$TMP/mpi.out" \
	"$TMP/one.out"

# More operands than one batch (256): 300 small files, in operand order.
mkdir "$TMP/many"
i=0
while [ $i -lt 300 ]; do
	printf 'file %d %s\n' $i "$(printf '%*s' $((i % 50)) '' | tr ' ' x)" \
		>"$TMP/many/f$i"
	i=$((i + 1))
done
set --
i=0
while [ $i -lt 300 ]; do set -- "$@" "$TMP/many/f$i"; i=$((i + 1)); done
one -c -f tsv --backend=cpu "$@"
mpi 3 -c -f tsv --backend=cpu "$@"
is "300 operands: exit status 0" "$one_rc $mpi_rc" "0 0"
same_file "300 operands: the same rows, in operand order" "$TMP/mpi.out" \
	"$TMP/one.out"

# --files0-from: rank 0 reads the list and hands the names out, in list
# order, more than one batch of them, bad entries (an empty name, a
# missing file) said and reported where they stand.
{
	printf '%s\0' "$@"
	printf '\0'
	printf '%s\0' "$TMP/missing" "$TMP/big.log" "$TMP/part.gz"
} >"$TMP/list0"
one -c -f json --backend=cpu --files0-from="$TMP/list0"
mpi 3 -c -f json --backend=cpu --files0-from="$TMP/list0"
is "--files0-from, 303 names and an empty one: exit status 1 on one process and under mpirun" \
	"$one_rc $mpi_rc" "1 1"
same_file "--files0-from: the same json report" "$TMP/mpi.out" "$TMP/one.out"
sort "$TMP/one.err" >"$TMP/one.err.sorted"
sort "$TMP/mpi.err" >"$TMP/mpi.err.sorted"
same_file "--files0-from: the same messages, once each" \
	"$TMP/mpi.err.sorted" "$TMP/one.err.sorted"
# An entry that names no input last in a batch (the 256th): the names
# after it are still read.
i=0
while [ $i -lt 255 ]; do printf '%s\0' "$TMP/many/f$i"; i=$((i + 1)); done >"$TMP/list2"
printf '\0%s\0%s\0' "$TMP/many/f1" "$TMP/part.gz" >>"$TMP/list2"
one -c -f tsv --backend=cpu --files0-from="$TMP/list2"
mpi 3 -c -f tsv --backend=cpu --files0-from="$TMP/list2"
is "--files0-from, an empty 256th entry: the names after it counted too, as one process" \
	"$one_rc $mpi_rc $(cmp -s "$TMP/mpi.out" "$TMP/one.out" && echo same) $(grep -c "part.gz" "$TMP/mpi.out")" \
	"1 1 same 7"
printf '%s\0' "$TMP/random" "$TMP/big.log" "$TMP/part.gz" >"$TMP/list1"
"$GPUHIST" -b -f tsv --backend=cpu --files0-from=- <"$TMP/list1" \
	>"$TMP/one.out"
mpirun --oversubscribe -np 3 "$GPUHIST" -b -f tsv --backend=cpu \
	--files0-from=- <"$TMP/list1" >"$TMP/mpi.out" 2>/dev/null
is "--files0-from=-: the list on standard input, read by rank 0: exit status 0" $? 0
same_file "--files0-from=-: what one process prints" "$TMP/mpi.out" \
	"$TMP/one.out"
mpi 3 -b --backend=cpu --files0-from="$TMP/no-such-list"
is "--files0-from naming no file: exit status 1 on every rank, one message" \
	"$mpi_rc:$(grep -c "no-such-list" "$TMP/mpi.err")" "1:1"

# Table format and the default view, on two ranks.
one --backend=cpu "$TMP/big.log" "$TMP/part.gz"
mpi 2 --backend=cpu "$TMP/big.log" "$TMP/part.gz"
same_file "2 ranks, table format: what one process prints" "$TMP/mpi.out" \
	"$TMP/one.out"

# --merge: rank 0 adds earlier results up, once.
"$GPUHIST" -f json --backend=cpu "$TMP/random" >"$TMP/r1.json"
"$GPUHIST" -f json --backend=cpu "$TMP/part.gz" >"$TMP/r2.json"
one --merge -b -f tsv "$TMP/r1.json" "$TMP/r2.json"
mpi 3 --merge -b -f tsv "$TMP/r1.json" "$TMP/r2.json"
same_file "--merge under mpirun: reported once" "$TMP/mpi.out" "$TMP/one.out"

# Help, version and usage errors are said once, not once a rank.
mpi 3 --help
is "--help: printed once" "$(grep -c '^Usage:' "$TMP/mpi.out")" 1
mpi 3 --width=0 "$TMP/random"
is "a usage error: exit status 2" "$mpi_rc" 2
is "a usage error: one message" "$(grep -c 'invalid width' "$TMP/mpi.raw")" 1

# -m and --stats: ranks split a file's bytes, each counting its range; the
# code points and ent's sums are one process's, byte for byte, for any
# number of ranks.  Ranges begin at multiples of 12288: after one ASCII
# byte, text of 2-, 3- and 4-byte characters has every boundary inside a
# character.  Small inputs (0 to 20 bytes, each counted whole by a rank).
{
	printf 'x'
	python3 "$T_SRCDIR/gentext.py" cjk 5 70000000
} >"$TMP/cut.txt"
for n in 0 1 2 5 6 7 13 20; do
	head -c $n "$TMP/cut.txt" >"$TMP/small$n"
done
set -- "$TMP/big.log" "$TMP/cut.txt" "$TMP/part.gz" "$TMP"/small*
for view in -m -s "-m -s"; do
	one $view -f json --backend=cpu "$@"
	agree=
	for np in 1 2 3 4 5 6 7 8; do
		mpi $np $view -f json --backend=cpu "$@"
		cmp -s "$TMP/mpi.out" "$TMP/one.out" && [ "$mpi_rc" = 0 ] &&
			agree="$agree $np"
	done
	is "$view under mpirun: 1 to 8 ranks print one process's json" \
		"$agree" " 1 2 3 4 5 6 7 8"
done
one -m -s -f tsv --backend=cpu "$TMP/cut.txt"
mpi 7 -m -s -f tsv --backend=cpu "$TMP/cut.txt"
same_file "-m -s, 7 ranks, tsv: one process's table" "$TMP/mpi.out" "$TMP/one.out"

# The tokens views: each file counted whole by one rank (big.log too,
# which other views split), its tokens sent to rank 0; one process's
# json, byte for byte, for 1 to 5 ranks, a failed input among them; the
# total of --lines spilled at --memory=1M on every rank; --merge of token
# results.
set -- "$TMP/big.log" "$TMP/part.gz" "$TMP/cut.txt" "$TMP"/small* \
	"$TMP/truncated.gz" $man_gz
for view in -t --lines --field=1 --values=10; do
	one $view -f json --backend=cpu "$@"
	agree=
	for np in 1 2 3 5; do
		mpi $np $view -f json --backend=cpu "$@"
		cmp -s "$TMP/mpi.out" "$TMP/one.out" && [ "$mpi_rc" = 1 ] &&
			agree="$agree $np"
	done
	is "$view under mpirun: 1 to 5 ranks print one process's json" \
		"$agree" " 1 2 3 5"
done
one --lines -f tsv --memory=1M --backend=cpu "$TMP/part.gz" "$TMP/random"
mpi 3 --lines -f tsv --memory=1M --backend=cpu "$TMP/part.gz" "$TMP/random"
same_file "--lines in 1M (spilled) under mpirun: one process's rows" \
	"$TMP/mpi.out" "$TMP/one.out"
"$GPUHIST" --lines -f json --backend=cpu "$TMP/random" >"$TMP/t1.json"
"$GPUHIST" --lines -f json --backend=cpu "$TMP/part.gz" >"$TMP/t2.json"
one --merge --lines -f tsv "$TMP/t1.json" "$TMP/t2.json"
mpi 3 --merge --lines -f tsv "$TMP/t1.json" "$TMP/t2.json"
same_file "--merge --lines under mpirun: reported once" "$TMP/mpi.out" \
	"$TMP/one.out"

# --match: a file over the split size counted whole by one rank (its lines
# are filtered in order), the same as one process, and a directory read.
if "$GPUHIST" --match=x /dev/null >/dev/null 2>&1; then
	one --match='GET /(api|login)' -s -b -f tsv --backend=cpu "$TMP/big.log" "$TMP/part.gz"
	mpi 3 --match='GET /(api|login)' -s -b -f tsv --backend=cpu "$TMP/big.log" "$TMP/part.gz"
	same_file "--match -s under mpirun: one process's rows" "$TMP/mpi.out" \
		"$TMP/one.out"
else
	skip "--match -s under mpirun: one process's rows" "built without PCRE2"
fi
mkdir -p "$TMP/dir/sub" && cp "$TMP/random" "$TMP/dir/sub/r" &&
	cp "$TMP/part.gz" "$TMP/dir/p.gz"
one -t -f tsv --backend=cpu "$TMP/dir"
mpi 2 -t -f tsv --backend=cpu "$TMP/dir"
same_file "a directory under mpirun: one process's rows" "$TMP/mpi.out" \
	"$TMP/one.out"

# Keys: of several fields, and of JSON lines (the big file split among
# the ranks, lines and their keys whole in one range each).
one --field=1,9 -f tsv --backend=cpu "$TMP/big.log" "$TMP/part.gz"
mpi 3 --field=1,9 -f tsv --backend=cpu "$TMP/big.log" "$TMP/part.gz"
same_file "--field=1,9 under mpirun: one process's rows" "$TMP/mpi.out" \
	"$TMP/one.out"
if "$GPUHIST" --key=.a /dev/null >/dev/null 2>&1; then
	python3 -c '
import json
for i in range(20000):
    print(json.dumps({"level": ["INFO", "WARN", "ERROR"][i % 7 % 3],
                      "req": {"status": 200 + i % 5}, "ms": i % 97 / 4}))
print("not json")' >"$TMP/app.jsonl"
	one --key=.req.status -f tsv --backend=cpu "$TMP/app.jsonl" "$TMP/big.log"
	mpi 3 --key=.req.status -f tsv --backend=cpu "$TMP/app.jsonl" "$TMP/big.log"
	same_file "--key=.req.status under mpirun: one process's rows" \
		"$TMP/mpi.out" "$TMP/one.out"
else
	skip "--key=.req.status under mpirun: one process's rows" "built without json-c"
fi

# Lines per interval of time: an access log's CLF times and the big
# file's, each file whole in one rank or in ranges.
"${LOGGEN:-$ABS_BUILDDIR/bench/corpus/loggen}" access 2000000 5 >"$TMP/access.log" 2>/dev/null ||
	printf '1.2.3.4 - - [27/Nov/2026:10:00:00 +0000] "GET /"\n' >"$TMP/access.log"
one --per=minute -f tsv --backend=cpu "$TMP/access.log" "$TMP/big.log"
mpi 3 --per=minute -f tsv --backend=cpu "$TMP/access.log" "$TMP/big.log"
same_file "--per=minute under mpirun: one process's rows" \
	"$TMP/mpi.out" "$TMP/one.out"
one --per=minute --field=1,9 --top=3 -f tsv --backend=cpu "$TMP/access.log" "$TMP/big.log"
mpi 3 --per=minute --field=1,9 --top=3 -f tsv --backend=cpu "$TMP/access.log" "$TMP/big.log"
same_file "--per=minute --field=1,9 --top=3 under mpirun: one process's rows" \
	"$TMP/mpi.out" "$TMP/one.out"

# A backend no rank can use: exit 1 on every rank, no report.
if have_gpu; then
	skip "--backend=gpu with no GPU" "this machine has a GPU"
	skip "--backend=gpu with no GPU: no report" "this machine has a GPU"
else
	mpi 2 --backend=gpu -f json "$TMP/random"
	is "--backend=gpu with no GPU: exit status 1" "$mpi_rc" 1
	is "--backend=gpu with no GPU: no report" "$(wc -c <"$TMP/mpi.out")" 0
fi
