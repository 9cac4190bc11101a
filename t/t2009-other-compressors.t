#!/bin/sh
# t2009-other-compressors.t - zstd, xz and bzip2 input, recognised by its
# magic bytes: counted as it is, with one warning naming the format
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_cmd python3

plan 21

cd "$TMP" || exit 1
gendata 91 200000 >text
# Each format's magic bytes, then text (what matters is the start).
printf '\050\265\057\375' >fake.zst && cat text >>fake.zst
printf '\375\067\172\130\132\000' >fake.xz && cat text >>fake.xz
printf 'BZh9' >fake.bz2 && cat text >>fake.bz2

# warns FILE FORMAT [ARGS...]: one warning naming FILE and FORMAT, exit 0,
# and FILE's bytes counted as they are (as --raw counts them).
warns() {
	file=$1 format=$2
	shift 2
	run_gh -b -f tsv "$@" "$file"
	is "$file: exit 0, one warning: $format, counted as it is" "$rc:$err" \
		"0:gpuhist: $file: looks like $format data, counted as it is; decode it first with $format -dc"
	oracle -b --raw "$file" >want 2>/dev/null
	same_file "$file: every byte counted, as --raw counts it" \
		"$TMP/out" want
}

warns fake.zst zstd
warns fake.xz xz
warns fake.bz2 bzip2
# Several readers of one file: still one warning.
warns fake.zst zstd --threads=4 --chunk-size=4k

for tool in zstd xz bzip2; do
	if command -v $tool >/dev/null 2>&1; then
		$tool -c text >real.$tool
		run_gh -c real.$tool
		is "a real $tool file: exit 0, one warning" "$rc:$err" \
			"0:gpuhist: real.$tool: looks like $tool data, counted as it is; decode it first with $tool -dc"
	else
		skip "a real $tool file: exit 0, one warning" "$tool not found"
	fi
done

run_gh -b -f tsv --raw fake.zst fake.xz fake.bz2
is "--raw: no warning, exit 0" "$rc:$err" "0:"

cat fake.xz | "$GPUHIST" -b -f tsv >"$TMP/out" 2>"$TMP/err"
is "xz on a pipe: exit 0, one warning naming -" "$?:$(cat "$TMP/err")" \
	"0:gpuhist: -: looks like xz data, counted as it is; decode it first with xz -dc"
oracle -b --raw fake.xz | sed 's/^[^	]*fake\.xz	/-	/' >want
same_file "xz on a pipe: every byte counted" "$TMP/out" want

run_gh -c fake.bz2 text fake.zst
is "several inputs: one warning each, in operand order" \
	"$rc:$(cut -d, -f1 "$TMP/err" | tr '\n' '|')" \
	"0:gpuhist: fake.bz2: looks like bzip2 data|gpuhist: fake.zst: looks like zstd data|"

# Not quite the magic, or too short for it: no warning, counted.
printf 'BZh0' >bz-level0 && cat text >>bz-level0
printf '\375\067\172\130\132\001' >almost.xz
printf '\050\265\057' >short.zst
printf '\050\265' >two
printf 'BZh' >bzh
for f in bz-level0 almost.xz short.zst two bzh; do
	run_gh -b -f tsv "$f"
	oracle -b "$f" >want 2>/dev/null
	is "$f: no warning, counted" \
		"$rc:$err:$(cmp -s "$TMP/out" want && echo same)" "0::same"
done

# Short input on a pipe: what there is, counted, no waiting for more.
printf '\050\265\057' | "$GPUHIST" -b -f tsv >"$TMP/out" 2>"$TMP/err"
is "three bytes on a pipe: exit 0, no warning, three bytes" \
	"$?:$(cat "$TMP/err"):$(sed 1d "$TMP/out" | awk -F'\t' '{ s += $3 } END { print s }')" \
	"0::3"
