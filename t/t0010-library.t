#!/bin/sh
# t0010-library.t - libgpuhist through gpuhist.h alone (t/api-check.c):
# files, descriptors, memory, several inputs, two counters in two
# threads, every error path
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_cmd gzip
API_CHECK=${API_CHECK:-$(pwd)/t/api-check}
[ -x "$API_CHECK" ] || skip_all "t/api-check not built"

gen log 3000001 >"$TMP/text"
gzip -c "$TMP/text" >"$TMP/text.gz"
# A gzip file cut short, with a byte of its deflate data changed.
head -c 40000 "$TMP/text.gz" >"$TMP/bad.gz"
printf 'x' | dd of="$TMP/bad.gz" bs=1 seek=20000 conv=notrunc 2>/dev/null
mkdir "$TMP/dir"

# api-check prints its own plan and results: it is the test.
"$API_CHECK" "$TMP/text" "$TMP/text.gz" "$TMP/bad.gz" "$TMP/dir"
