#!/bin/sh
# t0008-gpu-reason.t - why no GPU counts is said once, in one wording, and
# -v times the backend's start-up apart from what it says of the GPU
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

plan 7

printf 'hello world\n' >"$TMP/small"

# same_reason DESCRIPTION: --version -v and --backend=gpu (under the
# environment given) say the same reason for having no usable GPU.
same_reason() {
	"$GPUHIST" --version -v >"$TMP/version" 2>&1
	vrc=$?
	run_gh --backend=gpu "$TMP/small"
	why=$(sed -n 's/^gpuhist: GPU backend unusable: //p' "$TMP/err")
	if [ "$vrc" -eq 0 ] && [ "$rc" -eq 1 ] && [ -n "$why" ] &&
	   [ "$(grep -c 'unusable\|no usable' "$TMP/version")" -eq 1 ] &&
	   grep -qxF "GPU backend unusable: $why" "$TMP/version"; then
		ok 0 "$1"
	else
		ok 1 "$1"
		diag "--backend=gpu: exit $rc: $err"
		sed 's/^/# --version -v: /' "$TMP/version"
	fi
}

if have_gpu; then
	skip "no GPU: --version -v gives --backend=gpu's reason" \
		"a CUDA device is usable here"
else
	same_reason "no GPU: --version -v gives --backend=gpu's reason"
fi
# CUDA_VISIBLE_DEVICES set but empty hides every GPU, wherever this runs.
CUDA_VISIBLE_DEVICES= same_reason \
	"CUDA_VISIBLE_DEVICES empty: --version -v gives --backend=gpu's reason"
CUDA_VISIBLE_DEVICES= "$GPUHIST" --version -v >"$TMP/version" 2>&1
like "--version -v with no GPU lists no device" \
	"$(grep -c '^device [0-9]' "$TMP/version")" '^0$'

# -v: "started in" belonged to the backend, not to a GPU never started.
printf 'hello world\n' | "$GPUHIST" -v -f tsv >"$TMP/out" 2>"$TMP/err"
err=$(cat "$TMP/err")
like "-v on a pipe under auto: the CPU kept up, nothing more on that line" \
	"$err" '^gpuhist: cpu backend, .*; the CPU kept up, so no GPU was started$'
is "-v: no \"started in\" anywhere" "$(grep -c 'started in' "$TMP/err")" 0
like "-v: the backend's start-up goes with the figures" "$err" \
	'^gpuhist: 12 bytes in [0-9.]+ s, [0-9.]+ GB/s; backend start-up [0-9.]+ s; after start-up [0-9.]+ s, [0-9.]+ GB/s$'
run_gh -v --backend=cpu -f tsv "$TMP/small"
like "-v --backend=cpu: the backend's line ends with its chunks" "$err" \
	'^gpuhist: cpu backend, [0-9]+ threads?, chunk [0-9]+ bytes, [0-9]+ chunks$'
