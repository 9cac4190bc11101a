#!/bin/bash
# t0003-output-and-exit.t - exit status, /dev/full, a closed pipe, backends
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_cmd python3

plan 15

gendata 3 200000 >"$TMP/text"
printf 'hello world\n' >"$TMP/small"

run_gh -f tsv "$TMP/text" "$TMP/small"
is "every input counted: exit 0, nothing on stderr" "$rc:$err" "0:"

# Writing to a full device: exit 1, one message, in every format.
if [ -w /dev/full ]; then
	for fmt in table tsv json; do
		"$GPUHIST" -f "$fmt" "$TMP/text" "$TMP/small" >/dev/full \
			2>"$TMP/err"
		rc=$?
		is "-f $fmt to /dev/full: exit 1 and a write error" \
			"$rc:$(cat "$TMP/err")" \
			"1:gpuhist: write error: No space left on device"
	done
	"$GPUHIST" --help >/dev/full 2>"$TMP/err"
	is "--help to /dev/full: exit 1 and a write error" \
		"$?:$(cat "$TMP/err")" \
		"1:gpuhist: write error: No space left on device"
else
	for what in table tsv json --help; do
		skip "$what to /dev/full" "no writable /dev/full"
	done
fi

"$GPUHIST" "$TMP/small" >&- 2>"$TMP/err"
is "stdout closed: exit 1 and a write error" "$?:$(cat "$TMP/err")" \
	"1:gpuhist: write error: Bad file descriptor"

# A closed pipe ends the run quietly.  Enough output (200 inputs x 256
# rows) that gpuhist is still writing when head has gone.
set +o pipefail
yes 'The quick brown fox' | head -c 100000000 >"$TMP/big"
"$GPUHIST" -b -f tsv "$TMP/big" | head -1 >"$TMP/head" 2>/dev/null
is "big input | head -1: the first line arrives" "$(cat "$TMP/head")" \
	"input	bin	count"
"$GPUHIST" -b -f tsv "$TMP/big" 2>"$TMP/err" | head -1 >/dev/null
is "big input | head -1: nothing on stderr" "$(cat "$TMP/err")" ""
set -- $(for i in $(seq 200); do echo "$TMP/small"; done)
"$GPUHIST" -b -f tsv "$@" 2>"$TMP/err" | head -1 >/dev/null
is "long output | head -1: nothing on stderr" "$(cat "$TMP/err")" ""
(trap '' PIPE; "$GPUHIST" -b -f tsv "$@" 2>"$TMP/err" | head -1 >/dev/null)
is "long output | head -1 with SIGPIPE ignored: nothing on stderr" \
	"$(cat "$TMP/err")" ""
set --

# Backends.  Without a usable GPU, --backend=gpu is an error that says why;
# auto falls back to the CPU.
if have_gpu; then
	skip "--backend=gpu without a GPU fails" "a CUDA device is usable here"
else
	run_gh --backend=gpu "$TMP/small"
	if [ "$rc" -eq 1 ] && [ ! -s "$TMP/out" ] &&
	   printf '%s\n' "$err" | grep -Eq '^gpuhist: GPU backend unusable: .{8,}'
	then
		ok 0 "--backend=gpu without a GPU: exit 1, a message that says why"
	else
		ok 1 "--backend=gpu without a GPU: exit 1, a message that says why"
		diag "exit $rc: $err"
	fi
fi
run_gh --backend=cpu -v -f tsv "$TMP/text"
like "--backend=cpu counts on the CPU" "$err" '^gpuhist: cpu backend'
oracle "$TMP/text" >"$TMP/want"
same_file "--backend=cpu gives the oracle's counts" "$TMP/out" "$TMP/want"
if have_gpu; then
	skip "--backend=auto falls back to the CPU" "a CUDA device is usable here"
else
	run_gh --backend=auto -f tsv "$TMP/text"
	is "--backend=auto without a GPU: exit 0, same counts" \
		"$rc:$(cmp -s "$TMP/out" "$TMP/want" && echo same)" "0:same"
fi

# Numbers are plain decimal whatever the locale.
LC_ALL=C "$GPUHIST" "$TMP/big" >"$TMP/c"
LC_ALL=C.UTF-8 LANG=C.UTF-8 LC_NUMERIC=C.UTF-8 "$GPUHIST" "$TMP/big" \
	>"$TMP/utf8" 2>/dev/null
same_file "the table is the same in another locale" "$TMP/utf8" "$TMP/c"
