#!/bin/sh
# t3200-gpu-faults - what happens when the GPU cannot be used: no device
# visible (auto falls back, gpu refuses), device memory exhausted.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
plan 7

printf 'programming massively parallel processors\n' >"$TMP/text"
"$GPUHIST" --backend=cpu -f tsv "$TMP/text" >"$TMP/want"

# A file large enough for auto to start a GPU at once (512 MiB a thread):
# the text, then zeros (sparse).
cp "$TMP/text" "$TMP/large"
truncate -s 513M "$TMP/large"
"$GPUHIST" --backend=cpu -f tsv "$TMP/large" >"$TMP/want.large"
CUDA_VISIBLE_DEVICES= "$GPUHIST" -v --threads=1 -f tsv "$TMP/large" \
	>"$TMP/got" 2>"$TMP/err"
is "no visible device: auto still counts (exit 0)" $? 0
grep -q 'GPU backend unusable (.*); counting on the CPU' "$TMP/err"
ok $? "no visible device: -v says auto fell back to the CPU"
same_file "no visible device: auto counts on the CPU, same totals" \
	"$TMP/got" "$TMP/want.large"
rm -f "$TMP/large"

CUDA_VISIBLE_DEVICES= "$GPUHIST" --backend=gpu "$TMP/text" >"$TMP/out" 2>"$TMP/err"
is "no visible device: --backend=gpu exits 1" $? 1
grep -q '^gpuhist: GPU backend unusable: ' "$TMP/err" && [ ! -s "$TMP/out" ]
ok $? "no visible device: --backend=gpu says why and prints no totals"

# Device memory exhausted: another process holds all but 64 MiB of it
# (through PyTorch, where it is installed), so gpuhist's ring cannot fit.
if ! have_gpu; then
	skip "device memory exhausted: exit 1" "no CUDA device"
	skip "device memory exhausted: a clear message" "no CUDA device"
elif ! python3 -c 'import torch' 2>/dev/null; then
	skip "device memory exhausted: exit 1" "no PyTorch to fill the device"
	skip "device memory exhausted: a clear message" "no PyTorch to fill the device"
else
	python3 - "$TMP/ready" <<'PY' &
import sys, time, torch
free, _ = torch.cuda.mem_get_info()
hog = torch.empty(free - (64 << 20), dtype=torch.uint8, device="cuda")
open(sys.argv[1], "w").write("ready")
time.sleep(120)
PY
	hog=$!
	for i in $(seq 120); do [ -s "$TMP/ready" ] && break; sleep 0.5; done
	"$GPUHIST" --backend=gpu "$TMP/text" >"$TMP/out" 2>"$TMP/err"
	status=$?
	kill $hog 2>/dev/null; wait $hog 2>/dev/null
	is "device memory exhausted: exit 1" $status 1
	grep -q 'out of memory' "$TMP/err" && [ ! -s "$TMP/out" ]
	ok $? "device memory exhausted: a clear message, no totals"
	sed 's/^/# /' "$TMP/err"
fi
