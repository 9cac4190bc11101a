#!/bin/sh
# t2003-real-gzip.t - a few hundred real .gz files from /usr/share, all views
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_cmd python3
need_cmd gzip

# Every Nth of the sorted .gz files, about 300 of them: the same choice on
# every run of one machine, spread over man pages and documentation.
find /usr/share/man /usr/share/doc -type f -name '*.gz' 2>/dev/null |
	grep -v '[[:space:]]' | LC_ALL=C sort >"$TMP/all"
n_all=$(wc -l <"$TMP/all")
[ "$n_all" -ge 30 ] || skip_all "only $n_all .gz files under /usr/share"
step=$(( (n_all + 299) / 300 ))
awk -v step="$step" 'NR % step == 0' "$TMP/all" >"$TMP/list"
# shellcheck disable=SC2046
set -- $(cat "$TMP/list")

views='-w4 -w1 -w5 -w26 -i:-w3 -b -c -c:-i'
plan 13
diag "$# of $n_all .gz files (one in $step)"

# Python's gzip module decodes each file; gpuhist's json gives every one.
for v in $views; do
	opts=$(echo "$v" | tr ':' ' ')
	# shellcheck disable=SC2086
	run_gh $opts -f json "$@"
	cp "$TMP/out" "$TMP/got"
	oracle_ok "$# real .gz files, $opts: every input and the total" \
		$opts --check-json "$TMP/got" "$@"
done
is "no input failed" "$rc:$err" "0:"

# The total equals the oracle's count of what `gzip -dc` gives.
gzip -dc "$@" | oracle --raw -b - | sed 1d | cut -f2- >"$TMP/want"
"$GPUHIST" -b -f tsv "$@" | sed -n 's/^total	//p' >"$TMP/got"
same_file "the total equals the bytes of gzip -dc, counted by Python" \
	"$TMP/got" "$TMP/want"

"$GPUHIST" -w 1 "$@" >"$TMP/got"
oracle_ok "table of $# real files: every block and the total" \
	-w 1 --check-table "$TMP/got" "$@"

"$GPUHIST" --raw -b -f json "$@" >"$TMP/got"
oracle_ok "--raw: the compressed bytes of every file" \
	--raw -b --check-json "$TMP/got" "$@"

"$GPUHIST" --threads=1 --chunk-size=4093 -c -f json "$@" >"$TMP/got"
oracle_ok "--threads=1 --chunk-size=4093: the same" \
	-c --check-json "$TMP/got" "$@"
