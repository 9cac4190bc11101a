#!/bin/sh
# t2300-gzip-parallel.t - one gzip file decoded on several threads at once:
# the totals of gzip -dc, and the serial decoder's verdict on bad data
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_cmd python3
need_cmd gzip

C=$TMP/c
mkdir "$C" || exit 1
python3 "$T_SRCDIR/gzcases.py" "$C" >/dev/null || exit 1

# Real compressors, where installed, on log-like text.
python3 "$T_SRCDIR/gendata.py" 2300 3000000 >"$TMP/text"
tools=""
command -v pigz >/dev/null && tools="$tools pigz pigz-i pigz-rsyncable"
command -v igzip >/dev/null && tools="$tools igzip1 igzip3"
command -v libdeflate-gzip >/dev/null && tools="$tools libdeflate1 libdeflate12"
command -v bgzip >/dev/null && tools="$tools bgzip"
for t in $tools; do
	case $t in
	pigz) pigz -c -p 2 "$TMP/text" ;;
	pigz-i) pigz -c -i -b 64 -p 2 "$TMP/text" ;;
	pigz-rsyncable) pigz -c --rsyncable -p 2 "$TMP/text" ;;
	igzip1) igzip -1 -c "$TMP/text" ;;
	igzip3) igzip -3 -c "$TMP/text" ;;
	libdeflate1) libdeflate-gzip -1 -c "$TMP/text" ;;
	libdeflate12) libdeflate-gzip -12 -c "$TMP/text" ;;
	bgzip) bgzip -c "$TMP/text" ;;
	esac >"$C/tool-$t.gz"
done
for l in 1 6 9; do gzip -$l -c "$TMP/text" >"$C/gzip$l.gz"; done
# Real files nobody here wrote, one member each, as one file.
find /usr/share/man /usr/share/doc -type f -name '*.gz' 2>/dev/null |
	LC_ALL=C sort | head -400 | tr '\n' '\0' | xargs -0 cat >"$C/real-many.gz"
# The largest real one alone.
big=$(find /usr/share/man /usr/share/doc -type f -name '*.gz' -size +40k \
	2>/dev/null | LC_ALL=C sort | head -1)
[ -n "$big" ] && cp "$big" "$C/real-big.gz"

good=$(cd "$C" && ls | grep -v '^bad-' | LC_ALL=C sort)
bad=$(cd "$C" && ls | grep '^bad-' | LC_ALL=C sort)
n_good=$(echo "$good" | wc -l)
n_bad=$(echo "$bad" | wc -l)
plan $((2 * n_good + n_bad + 4))
diag "$n_good good files (tools:$tools), $n_bad bad ones"

# counts FILE: the non-zero byte totals of gzip -dc's output, as rows.
counts() {
	gzip -dc "$1" | "$GPUHIST" --raw -b -f tsv | cut -f2-
}

# par REGION FILE [OPTIONS]: gpuhist on FILE with tasks of REGION bytes,
# four threads, zlib for any serial decoding; stdout in $TMP/par.
par() {
	region=$1 file=$2
	shift 2
	GPUHIST_GZIP_REGION=$region GPUHIST_INFLATE=zlib \
		"$GPUHIST" -b -f tsv --threads=4 "$@" "$file" >"$TMP/par" 2>"$TMP/par.err"
	par_rc=$?
}

for f in $good; do
	counts "$C/$f" >"$TMP/want"
	size=$(wc -c <"$C/$f")
	# Regions of a quarter of the file down to 4 KiB (at least four
	# tasks); several sizes put the boundaries elsewhere in the blocks.
	q=$((size / 4))
	bad_regions=""
	for r in $q $((q / 3 + 77)) 65536 4096; do
		[ "$r" -ge 64 ] && [ "$r" -le "$q" ] || continue
		par $r "$C/$f"
		cut -f2- "$TMP/par" >"$TMP/got"
		cmp -s "$TMP/got" "$TMP/want" && [ $par_rc = 0 ] ||
			bad_regions="$bad_regions $r"
	done
	is "$f: totals equal gzip -dc's, whatever the regions" "$bad_regions" ""
	if [ "$q" -lt 64 ]; then
		skip "$f: decoded in parallel" "smaller than four tasks"
		continue
	fi
	par $q "$C/$f" -v
	like "$f: decoded in parallel, not handed back to the serial decoder" \
		"$(cat "$TMP/par.err")" "gzip decoded by 4 threads: [0-9]+ (regions|segments of whole members)"
done

# Corrupt and truncated files: the exit status, message and output of the
# serial decoder (zlib's verdict), whichever path ran.
for f in $bad; do
	GPUHIST_INFLATE=zlib "$GPUHIST" -b -f tsv --threads=1 "$C/$f" \
		>"$TMP/ser" 2>"$TMP/ser.err"
	ser_rc=$?
	par 4096 "$C/$f"
	is "$f: the serial decoder's verdict, message and output" \
		"$par_rc $(cat "$TMP/par.err") $(cat "$TMP/par")" \
		"$ser_rc $(cat "$TMP/ser.err") $(cat "$TMP/ser")"
done

# Region boundaries at every byte of blocks of a few bytes, and of a file
# whose data holds deflate and gzip headers of its own.
for f in tiny-blocks holds-gzip-stored; do
	counts "$C/$f.gz" >"$TMP/want"
	base=$(( $(wc -c <"$C/$f.gz") / 8 ))
	wrong=""
	r=$base
	while [ $r -lt $((base + 40)) ]; do
		par $r "$C/$f.gz"
		cut -f2- "$TMP/par" | cmp -s - "$TMP/want" || wrong="$wrong $r"
		r=$((r + 1))
	done
	is "$f: 40 region sizes a byte apart, all exact" "$wrong" ""
done

# A bad file beside good ones: the good ones counted, exit 1.
par 4096 "$C/gzip6.gz" "$C/bad-flip3.gz" "$C/level9.gz"
is "a corrupt file among good ones: exit 1" "$par_rc" 1
sed 1d "$TMP/par" | grep -v '^total' | cut -f1 | sort -u | tr '\n' ' ' >"$TMP/names"
is "the good ones are reported, the bad one not" "$(cat "$TMP/names")" \
	"$C/gzip6.gz $C/level9.gz "
