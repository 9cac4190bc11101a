#!/bin/sh
# t9001-over-4gib.t - streams over 4 GiB: exact 64-bit counts, flat memory
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_cmd python3

# 4,400,000,000 bytes of "abcdefgh\n": a..h once per line plus once more in
# the last, partial line (8 bytes: "abcdefgh"), \n once per full line.
bytes=4400000000
lines=$((bytes / 9))
rest=$((bytes - lines * 9))
expect_rows() {
	for v in $(seq 0 255); do
		if [ "$v" -eq 10 ]; then
			c=$lines
		elif [ "$v" -ge 97 ] && [ "$v" -lt $((97 + rest)) ]; then
			c=$((lines + 1))
		elif [ "$v" -ge 97 ] && [ "$v" -le 104 ]; then
			c=$lines
		else
			c=0
		fi
		printf '%s\t%s\t%s\n' "$1" "$v" "$c"
	done
}

plan 6

printf 'input\tbin\tcount\n' >"$TMP/want"
expect_rows - >>"$TMP/want"
start=$(date +%s)
yes abcdefgh | head -c $bytes | "$GPUHIST" -b -f tsv >"$TMP/got"
diag "$bytes bytes through stdin: $(($(date +%s) - start)) s"
same_file "4.4 GB through stdin: every byte value counted exactly" \
	"$TMP/got" "$TMP/want"

# The same bytes as one gzip member (its 32-bit length field wraps).
start=$(date +%s)
python3 -c '
import sys, zlib
n, unit = int(sys.argv[1]), b"abcdefgh\n"
block = unit * ((64 << 20) // len(unit))
z = zlib.compressobj(1, zlib.DEFLATED, 31)
out = sys.stdout.buffer
while n:
    k = min(n, len(block))
    out.write(z.compress(block[:k]))
    n -= k
out.write(z.flush())' $bytes >"$TMP/big.gz"
diag "making a $(wc -c <"$TMP/big.gz" | tr -d ' ') byte gzip of it: $(($(date +%s) - start)) s"
start=$(date +%s)
run_gh -b -f tsv "$TMP/big.gz"
diag "counting it: $(($(date +%s) - start)) s"
printf 'input\tbin\tcount\n' >"$TMP/want"
expect_rows "$TMP/big.gz" >>"$TMP/want"
is "4.4 GB in one gzip member: exit 0" "$rc:$err" "0:"
same_file "4.4 GB in one gzip member: counted exactly" "$TMP/out" "$TMP/want"

# A regular file over 4 GiB, read at 64-bit offsets (by several readers
# where there are several cores): sparse, so it takes no disk space.
if truncate -s $bytes "$TMP/sparse" 2>/dev/null; then
	printf 'abc' >>"$TMP/sparse"
	start=$(date +%s)
	"$GPUHIST" -c -f tsv "$TMP/sparse" | sed 1d | cut -f2,3 |
		tr '\t\n' ': ' >"$TMP/got"
	diag "a $((bytes + 3)) byte sparse file: $(($(date +%s) - start)) s"
	is "4.4 GB regular (sparse) file: every byte counted exactly" \
		"$(cat "$TMP/got")" \
		"lower:3 upper:0 digit:0 space:0 punct:0 control:$bytes high:0 "
	rm -f "$TMP/sparse"
else
	skip "4.4 GB regular (sparse) file" "cannot make a sparse file"
fi

# Memory does not grow with the input: 4.4 GB runs in what 1 MB takes.
# Fixed threads and chunks, so the ring of chunks is the same everywhere.
small_ring="--backend=cpu --threads=2 --chunk-size=1M"
if [ -x /usr/bin/time ]; then
	yes abcdefgh | head -c 1000000 |
		/usr/bin/time -f %M -o "$TMP/rss-small" \
		"$GPUHIST" $small_ring -b >/dev/null
	yes abcdefgh | head -c $bytes |
		/usr/bin/time -f %M -o "$TMP/rss-big" \
		"$GPUHIST" $small_ring -b >/dev/null
	small=$(tail -1 "$TMP/rss-small") big=$(tail -1 "$TMP/rss-big")
	diag "peak memory: $small KiB for 1 MB, $big KiB for 4.4 GB"
	[ "$big" -le $((small + 16384)) ]
	ok $? "4.4 GB stream in the memory of a 1 MB one (within 16 MiB)"
	/usr/bin/time -f %M -o "$TMP/rss-gz" "$GPUHIST" $small_ring -b \
		"$TMP/big.gz" >/dev/null
	gz=$(tail -1 "$TMP/rss-gz")
	diag "peak memory: $gz KiB for the gzip"
	[ "$gz" -le $((small + 16384)) ]
	ok $? "4.4 GB gzip in the memory of a 1 MB stream (within 16 MiB)"
else
	skip "4.4 GB stream in flat memory" "no /usr/bin/time"
	skip "4.4 GB gzip in flat memory" "no /usr/bin/time"
fi
