#!/bin/sh
# t3200-gpu-faults - what happens when the GPU cannot be used: no device
# visible (auto falls back, gpu refuses), device memory exhausted.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
plan 7

printf 'programming massively parallel processors\n' >"$TMP/text"
"$GPUHIST" --backend=cpu -f tsv "$TMP/text" >"$TMP/want"

CUDA_VISIBLE_DEVICES= "$GPUHIST" -v -f tsv - <"$TMP/text" >"$TMP/got" 2>"$TMP/err"
is "no visible device: auto still counts (exit 0)" $? 0
grep -q 'counting on the CPU' "$TMP/err"
ok $? "no visible device: -v says auto fell back to the CPU"
sed 's|^-	|'"$TMP/text"'	|' "$TMP/got" >"$TMP/got.named"
same_file "no visible device: auto counts on the CPU, same totals" \
	"$TMP/got.named" "$TMP/want"

CUDA_VISIBLE_DEVICES= "$GPUHIST" --backend=gpu "$TMP/text" >"$TMP/out" 2>"$TMP/err"
is "no visible device: --backend=gpu exits 1" $? 1
grep -q '^gpuhist: GPU backend unusable: ' "$TMP/err" && [ ! -s "$TMP/out" ]
ok $? "no visible device: --backend=gpu says why and prints no totals"

if have_gpu; then
	# 64 streams x 2 chunks x 2 GiB is far more than any GPU holds.
	"$GPUHIST" --backend=gpu --chunk-size=2G --streams=64 "$TMP/text" \
		>"$TMP/out" 2>"$TMP/err"
	is "device memory exhausted: exit 1" $? 1
	grep -q 'out of memory' "$TMP/err" && [ ! -s "$TMP/out" ]
	ok $? "device memory exhausted: a clear message, no totals"
	sed 's/^/# /' "$TMP/err"
else
	skip "device memory exhausted: exit 1" "no CUDA device"
	skip "device memory exhausted: a clear message" "no CUDA device"
fi
