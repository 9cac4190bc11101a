#!/bin/sh
# t2100-corruption-sweep.t - every truncation and hundreds of bit flips of
# real gzip files: gpuhist and gzip -dc agree on each (the rule: t/sweep.py)
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_cmd python3
need_cmd gzip

# Small man pages that every Debian system with coreutils has; where man
# pages are left out, the first two of 700..3000 bytes, else made here.
man=/usr/share/man/man1
cd "$TMP" || exit 1
if [ -f $man/cat.1.gz ] && [ -f $man/echo.1.gz ] && [ -f $man/tac.1.gz ] &&
   [ -f $man/yes.1.gz ]; then
	set -- $man/cat.1.gz $man/echo.1.gz $man/tac.1.gz $man/yes.1.gz
else
	find /usr/share/man -type f -name '*.gz' -size +700c -size -3000c \
		2>/dev/null | LC_ALL=C sort | head -4 >list
	# shellcheck disable=SC2046
	set -- $(cat list)
	if [ $# -lt 4 ]; then
		for i in 1 2 3 4; do
			gendata $((100 + i)) $((2000 * i)) | gzip -9 >made$i.gz
		done
		set -- made1.gz made2.gz made3.gz made4.gz
	fi
fi
cp "$1" one.gz
cp "$2" other.gz
# Two members and zero padding: truncations end inside the second member,
# at the boundary, and inside the padding.
{ cat "$3" "$4"; head -c 16 /dev/zero; } >two-padded.gz
diag "sweeping $1, $2, and $3 + $4 + 16 zero bytes"

# sweep DESCRIPTION SWEEP_ARGS...: one t/sweep.py run is one test.
sweep() {
	desc=$1
	shift
	python3 "$T_SRCDIR/sweep.py" "$GPUHIST" cases "$@" >report
	status=$?
	cat report
	ok $status "$desc"
	cat report >>all-reports
}

plan 6
for f in one.gz other.gz two-padded.gz; do
	sweep "every truncation of $f: gpuhist agrees with gzip -dc" truncate $f
	# The flips' seed: the file's checksum, the same on every run.
	sweep "300 one-bit flips of $f: gpuhist agrees with gzip -dc" \
		flip $f 300 "$(cksum <$f | cut -d' ' -f1)"
done
cases=$(awk '/ cases, / { n += $4 } END { print n }' all-reports)
diag "$cases cases swept in all"
