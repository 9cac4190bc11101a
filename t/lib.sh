# lib.sh - the shared test helper: the only place that prints ok / not ok
#
# Sourced by every t/tNNNN-*.t script.  GPUHIST is the binary under test
# (make check sets it; otherwise ./gpuhist), T_SRCDIR this directory, and
# TMP a scratch directory removed at exit.

GPUHIST=${GPUHIST:-$(pwd)/gpuhist}
T_SRCDIR=${T_SRCDIR:-$(cd "$(dirname "$0")" && pwd)}
ORACLE="python3 $T_SRCDIR/oracle.py"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/gpuhist-test.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT
test_no=0

plan() { echo "1..$1"; }

# skip_all REASON: the whole script is skipped (before any plan).
skip_all() { echo "1..0 # SKIP $1"; exit 0; }

# ok STATUS DESCRIPTION: passes when STATUS is 0.
ok() {
	test_no=$((test_no + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $test_no - $2${TODO:+ # TODO $TODO}"
	else
		echo "not ok $test_no - $2${TODO:+ # TODO $TODO}"
	fi
}

# (With TODO set, a test says what is known not to work yet, TAP's way:
# its failure is expected.)

# check DESCRIPTION COMMAND...: passes when the command succeeds.
check() {
	desc=$1; shift
	"$@"
	ok $? "$desc"
}

# is DESCRIPTION GOT EXPECTED: passes when the strings are equal.
is() {
	if [ "$2" = "$3" ]; then
		ok 0 "$1"
	else
		ok 1 "$1"
		printf '# got:      %s\n# expected: %s\n' "$2" "$3" | head -20
	fi
}

# same_file DESCRIPTION GOT_FILE EXPECTED_FILE: passes when files are equal.
same_file() {
	if cmp -s "$2" "$3"; then
		ok 0 "$1"
	else
		ok 1 "$1"
		diff "$3" "$2" | head -20 | sed 's/^/# /'
	fi
}

# skip DESCRIPTION REASON: one test skipped.
skip() {
	test_no=$((test_no + 1))
	echo "ok $test_no # SKIP $2 ($1)"
}

# have_gpu: whether gpuhist can count on a CUDA device here.
have_gpu() {
	"$GPUHIST" --backend=gpu --raw /dev/null >/dev/null 2>&1
}

# need_gpu: skips the whole script when there is no usable CUDA device.
need_gpu() {
	have_gpu || skip_all "no CUDA device"
}

# like DESCRIPTION TEXT ERE: passes when a line of TEXT matches the
# extended regular expression.
like() {
	if printf '%s\n' "$2" | grep -Eq -- "$3"; then
		ok 0 "$1"
	else
		ok 1 "$1"
		printf '%s\n' "$2" | head -10 | sed 's/^/# got: /'
		printf '# expected a line matching: %s\n' "$3"
	fi
}

# diag MESSAGE: a TAP comment, shown by the harness in the log.
diag() { printf '# %s\n' "$*"; }

# need_cmd NAME: skips the whole script when the command is missing.
need_cmd() {
	command -v "$1" >/dev/null 2>&1 || skip_all "$1 not found"
}

# oracle ARGS...: the independent Python oracle (t/oracle.py).
oracle() { python3 "$T_SRCDIR/oracle.py" "$@"; }

# yes_totals BYTES: the non-zero rows of `-b -f tsv` for stdin fed by
# `yes abcdefgh | head -c BYTES`: "abcdefgh\n" is 9 bytes, so every
# value's count is known; the partial last line holds the first letters.
yes_totals() {
	local lines=$(($1 / 9)) rest=$(($1 % 9)) c n
	for c in 10 97 98 99 100 101 102 103 104; do
		n=$lines
		[ $c -ne 10 ] && [ $((c - 97)) -lt $rest ] && n=$((n + 1))
		printf '%s\t%d\t%d\n' - $c $n
	done
}

# gen SHAPE BYTES [VALUE]: deterministic test data (random, repeat, log)
# on stdout (t/gen.py).
gen() { python3 "$T_SRCDIR/gen.py" "$@"; }

# gendata SEED BYTES: deterministic mixed test data on stdout (t/gendata.py).
gendata() { python3 "$T_SRCDIR/gendata.py" "$@"; }

# flip FILE OFFSET: FILE with the byte at OFFSET (modulo its size)
# inverted, to stdout.
flip() {
	python3 -c 'import sys
d = bytearray(open(sys.argv[1], "rb").read()); i = int(sys.argv[2]) % len(d)
d[i] ^= 0xff; sys.stdout.buffer.write(d)' "$1" "$2"
}

# check_tokens DESC VIEW PLAIN ARGS...: gpuhist -f json ARGS (run in the
# current directory), its tokens against Python's counting of the file
# PLAIN in VIEW (t/tokenoracle.py's words, lines, field:N, field:N:BYTE).
check_tokens() {
	local desc=$1 view=$2 plain=$3 status verdict
	shift 3
	"$GPUHIST" -f json "$@" >got.json 2>err
	status=$?
	verdict=$(python3 "$T_SRCDIR/tokenoracle.py" "$view" "$plain" got.json 2>&1)
	[ $status = 0 ] || verdict="exit $status: $(head -c 300 err) $verdict"
	is "$desc" "$verdict" same
}

# token_args VIEW: gpuhist's options for a view of tokenoracle.py's.
token_args() {
	local rest
	case $1 in
	words) echo -t ;;
	lines) echo --lines ;;
	field:*:*) rest=${1#field:}
		   printf -- '--field=%s -F %b' "${rest%%:*}" \
			   "\\0$(printf %03o "${rest#*:}")" ;;
	field:*) echo "--field=${1#field:}" ;;
	esac
}

# run_gh ARGS...: runs gpuhist with stdout in $TMP/out and stderr in
# $TMP/err; the exit status is left in $rc, stderr's text in $err.
run_gh() {
	"$GPUHIST" "$@" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	err=$(cat "$TMP/err")
}

# oracle_ok DESCRIPTION ORACLE_ARGS...: passes when the oracle, in one of
# its --check modes, finds gpuhist's output right; shows why when not.
oracle_ok() {
	desc=$1
	shift
	if oracle "$@" 2>"$TMP/oracle.err"; then
		ok 0 "$desc"
	else
		ok 1 "$desc"
		sed 's/^/# /' "$TMP/oracle.err"
	fi
}
