#!/bin/sh
# t0018-python.t - the gpuhist Python module (python/gpuhist.py, ctypes over
# the shared libgpuhist) against gpuhist -f json, Python's own counts and
# decodes, a Stream fed in odd pieces, and errors (t/python-check.py)
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_cmd python3
need_cmd gzip
[ -n "${ABS_BUILDDIR:-}" ] || skip_all "run by make check (ABS_BUILDDIR)"
[ -f "$ABS_BUILDDIR/python/gpuhist.py" ] ||
	skip_all "the Python module is not built (no Python 3 found)"
[ -f "$ABS_BUILDDIR/.libs/libgpuhist.so.1" ] ||
	skip_all "no shared libgpuhist in the build (--disable-shared)"

gen log 2000001 >"$TMP/text"
gzip -c "$TMP/text" >"$TMP/text.gz"
python3 "$T_SRCDIR/gentext.py" mixed 23 200000 >"$TMP/utf8"
head -c 30000 "$TMP/text.gz" >"$TMP/bad.gz"
printf 'x' | dd of="$TMP/bad.gz" bs=1 seek=15000 conv=notrunc 2>/dev/null
# Real gzip files nobody here wrote, where there are some.
real=$(ls /usr/share/man/man1/gzip.1.gz /usr/share/doc/gzip/changelog.gz \
	/usr/share/man/man1/ls.1.gz 2>/dev/null | head -3)

PYTHONPATH=$ABS_BUILDDIR/python GPUHIST_LIBRARY=$ABS_BUILDDIR/.libs/libgpuhist.so.1 \
	python3 "$T_SRCDIR/python-check.py" "$GPUHIST" "$TMP/text" \
	"$TMP/text.gz" "$TMP/utf8" "$TMP/bad.gz" $real
