#!/bin/sh
# t1016-merge-differential.t - --merge's JSON reader against Python's json
# module (t/mergediff.py): gpuhist's own results changed at random (white
# space, numbers rewritten, escapes, repeated keys, flipped, inserted and
# cut bytes); wherever gpuhist takes one, Python takes it too and its
# total.histogram is what gpuhist merged, exactly; wherever gpuhist
# refuses one, it says so once, naming the file, exit 1 (issue "libgpuhist
# 0.2", item 6; fuzz/fuzz-merge.c is the libFuzzer side)
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_cmd python3

cd "$TMP" || exit 1
gen log 20000 >text
gen random 3000 >random
python3 "$T_SRCDIR/gentext.py" mixed 5 5000 >utf8
"$GPUHIST" -f json text >bytes.json
"$GPUHIST" -f json text random >two.json
"$GPUHIST" -m -f json utf8 >chars.json
"$GPUHIST" -s -f json random >stats.json
"$GPUHIST" -c -f json - </dev/null >empty.json

plan 1
python3 "$T_SRCDIR/mergediff.py" "$GPUHIST" 1500 bytes.json two.json \
	chars.json stats.json empty.json >result 2>&1
rc=$?
is "1500 results changed at random: gpuhist --merge takes none Python's json refuses, and merges what it takes exactly ($(cat result))" \
	"$rc" 0
