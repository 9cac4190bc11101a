#!/bin/sh
# t0017-push.t - libgpuhist's push API and gpuhist_cancel() (t/push-check.c):
# bytes pushed in writes of any size count as the file does (plain, gzip,
# zstd, code points, ent's sums); corrupt data fails with its reason; a
# cancel stops files, a pipe and a push, and the counter counts again
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_cmd gzip
PUSH_CHECK=${PUSH_CHECK:-$(pwd)/t/push-check}
[ -x "$PUSH_CHECK" ] || skip_all "t/push-check not built"

gen log 3000001 >"$TMP/text"
gzip -c "$TMP/text" >"$TMP/text.gz"
python3 "$T_SRCDIR/gentext.py" mixed 17 300000 >"$TMP/utf8"
zst=
if command -v zstd >/dev/null 2>&1 &&
   "$GPUHIST" --version -v 2>&1 | grep '^decodes:' | grep -q 'zstd\($\|,\)'; then
	zstd -q -c "$TMP/text" >"$TMP/text.zst" && zst=$TMP/text.zst
fi

# push-check prints its own plan and results: it is the test.
"$PUSH_CHECK" "$TMP/text" "$TMP/text.gz" "$TMP/utf8" $zst
