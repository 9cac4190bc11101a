#!/bin/bash
# t1009-sort-top.t - --sort=count|bin and --top=N in every view and
# format: the order (most frequent first, ties in bin order), the N
# commonest bins whatever the order they are shown in, and one "(other)"
# row for the rest, the totals unchanged; bars scale to the bins shown;
# json keeps its histogram, so results still merge exactly
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_cmd python3

plan 20

cd "$TMP" || exit 1
gendata 17 200000 >text
printf 'bbbaaaccd\n' >ties

# rows FILE: "bin count" lines of a tsv result's first input, in order.
rows() { sed 1d "$1" | awk -F'\t' -v first="$(sed -n 2p "$1" | cut -f1)" \
	'$1 == first { print $2 " " $3 }'; }

# check_order DESCRIPTION BASE_TSV GOT_TSV TOP: GOT's rows are BASE's in
# count order (ties by BASE's order), the first TOP of them, then "(other)"
# with the sum of the rest (TOP 0: all rows, no other).
check_order() {
	rows "$2" >base.rows
	rows "$3" >got.rows
	if python3 -c 'import sys
base = [l.split() for l in open(sys.argv[1])]
got = [l.split() for l in open(sys.argv[2])]
top = int(sys.argv[3])
order = sorted(range(len(base)), key=lambda i: (-int(base[i][1]), i))
want = [base[i] for i in order]
if top and top < len(want):
    rest = sum(int(c) for _, c in want[top:])
    want = want[:top] + [["(other)", str(rest)]]
sys.exit(0 if got == want else 1)' base.rows got.rows "$4"; then
		ok 0 "$1"
	else
		ok 1 "$1"
		paste base.rows got.rows | head -12 | sed 's/^/# /'
	fi
}

for view in "" -c -b "-w 1" "-w 3 -i"; do
	"$GPUHIST" $view -f tsv text >base.tsv
	"$GPUHIST" $view -f tsv --sort=count text >count.tsv
	check_order "${view:-letters}: --sort=count, most frequent first" \
		base.tsv count.tsv 0
	"$GPUHIST" $view -f tsv --sort=count --top=3 text >top.tsv
	check_order "${view:-letters}: --sort=count --top=3: three, then other" \
		base.tsv top.tsv 3
done

"$GPUHIST" -w 1 -f tsv --sort=count ties >ties.tsv
is "ties go in bin order" "$(rows ties.tsv | head -5 | tr '\n' ' ')" \
	"a 3 b 3 c 2 d 1 e 0 "

"$GPUHIST" -c -f tsv --sort=bin text >bin.tsv
"$GPUHIST" -c -f tsv text >base.tsv
same_file "--sort=bin is the default order" bin.tsv base.tsv

"$GPUHIST" -c -f csv --top=2 text text >two.csv
"$GPUHIST" -c -f tsv --sort=count text | sed 1d | cut -f2 | head -2 >common
python3 -c 'import sys
order = ["upper", "lower", "digit", "space", "punct", "control", "high"]
print(" ".join(sorted(sys.argv[1:], key=order.index)))' $(cat common) >kept
is "--top in csv, two inputs and the total: the two commonest in bin order, then (other)" \
	"$(cut -d, -f1,2 two.csv | sed 1d | tr '\n' ' ')" \
	"$(for who in text text total; do for b in $(cat kept) '(other)'; do printf '%s,%s ' $who "$b"; done; done)"

"$GPUHIST" -b -f json --sort=count --top=2 text >top.json
"$GPUHIST" -b -f json text >all.json
like "json: --top's bins, byte values as numbers, other as a string" \
	"$(grep -o '"bins": \[[^]]*\]' top.json | head -1)" \
	'^"bins": \[\{"bin": [0-9]+, "count": [0-9]+\}, \{"bin": [0-9]+, "count": [0-9]+\}, \{"bin": "\(other\)", "count": [0-9]+\}\]$'
"$GPUHIST" --merge -b -f tsv top.json >merged.tsv
"$GPUHIST" --merge -b -f tsv all.json >want.tsv
is "json with --top still merges exactly (its histogram is whole)" \
	"$(cut -f2- merged.tsv | cmp -s - <(cut -f2- want.tsv) && echo same)" same

run_gh -c --sort=count --top=2 text
like "table: two rows and (other)" "$(cat "$TMP/out")" \
	'^\(other\) +[0-9]+ +[0-9.]+%  #+$'

# --top keeps the commonest bins whatever --sort says (issue 26): a file of
# one byte value 'w' under -b, which shows bins in byte order, keeps 'w'.
head -c 50000 /dev/zero | tr '\0' w >w50
run_gh -b --top=5 w50
like "-b --top=5 on a file of w: w is kept, not bytes 0-4" "$(cat "$TMP/out")" \
	'^w +50000 +100\.00%  #{40}$'
# Bars scale to the largest bin shown, not to the remainder.
"$GPUHIST" -b --top=2 --sort=count text >top2
like "--top: the commonest bin shown has the whole bar, (other) no more" \
	"$(sed -n 2p top2)$(grep '^(other)' top2 | grep -c '#\{41\}')" '#{40}0$'
# The remainder is not the code-point category "other".
printf 'ab1\xe2\x80\x8b' >cats
"$GPUHIST" -m -c -f csv --top=3 --sort=count cats >cats.csv
is "-m -c --top=3: the category other and the remainder (other) apart" \
	"$(cut -d, -f2 cats.csv | sed 1d | LC_ALL=C sort | tr '\n' ' ')" \
	"(other) letter number other "

run_gh --sort=often text
is "--sort=often: a usage error" "$rc:$(head -1 "$TMP/err")" \
	"2:gpuhist: invalid order 'often' for --sort (expected bin or count)"
