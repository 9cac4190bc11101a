#!/bin/sh
# t0013-lib-layers.t - the library's files form layers: no two files of
# src/lib include or call each other in a loop (t/layers.py, over the
# #include lines and the symbols of the built objects), no folder uses one
# its layer may not, and every format is one row of decode/formats.c
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_cmd python3
need_cmd nm

top=$(cd "$T_SRCDIR/.." && pwd)
out=$(python3 "$T_SRCDIR/layers.py" "$top" "${ABS_BUILDDIR:-$top}" 2>&1)
[ $? = 2 ] && skip_all "$out"
plan 3
like "no loop among src/lib's files ($(echo "$out" | tail -n 1))" "$out" \
	" 0 loops,"
like "no folder of src/lib uses one its layer may not (t/layers.py's FOLDERS_MAY_USE)" \
	"$out" " 0 folder links not allowed$"
# No file outside decode/ names a format's decoder.
named=$(grep -l 'gh_\(gzip\|zstd\|xz\|bzip2\|lz4\)_decoder\b' \
	"$top"/src/lib/*.c "$top"/src/lib/join/*.c "$top"/src/lib/backend/*.c \
	"$top"/src/lib/backend/cpu/*.c "$top"/src/lib/tokens/*.c "$top"/src/lib/values/*.c \
	2>/dev/null | sed "s|$top/||")
is "no file outside src/lib/decode names a format's decoder" "$named" ""
