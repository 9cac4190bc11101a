#!/bin/sh
# t0006-long-names.t - a long name never hides the reason of its message
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_cmd python3
need_cmd gzip

plan 11

# long_path LENGTH [CHAR]: $TMP/ then directories of 200 CHARs down to about
# LENGTH characters in all.
long_path() {
	python3 -c 'import sys
n, c = int(sys.argv[2]), sys.argv[3]
p = sys.argv[1]
while len(p) + 201 <= n:
    p += "/" + c * 200
print(p)' "$TMP" "$1" "${2:-x}"
}

# one_line DESCRIPTION REASON: stderr is one whole line, at most 4096 bytes
# with its newline, valid UTF-8, that begins "gpuhist: " and ends in REASON.
one_line() {
	if python3 -c 'import sys
err, reason = open(sys.argv[1], "rb").read(), sys.argv[2].encode()
err.decode("utf-8")
assert err.count(b"\n") == 1 and err.endswith(b"\n"), "not one line"
assert len(err) <= 4096, "%d bytes" % len(err)
assert err.startswith(b"gpuhist: "), "no gpuhist:"
assert err.endswith(b": " + reason + b"\n"), "reason lost"' "$TMP/err" "$2" \
		2>"$TMP/why"; then
		ok 0 "$1"
	else
		ok 1 "$1"
		diag "$(tail -1 "$TMP/why")"
		diag "$(tail -c 120 "$TMP/err")"
	fi
}

printf 'abc\n' >"$TMP/good"

name=$(long_path 2000)/missing
run_gh "$name"
one_line "2,000 characters: the reason comes through" \
	"No such file or directory"
is "2,000 characters: exit 1, the name whole" \
	"$rc:$(grep -cF "gpuhist: $name: " "$TMP/err")" "1:1"

name=$(long_path 5000)/missing
run_gh "$name"
one_line "5,000 characters: the reason comes through" "File name too long"
like "5,000 characters: the middle of the name gives way to ..." "$err" \
	"^gpuhist: $TMP/[x/]+\\.\\.\\.[x/]+/missing: File name too long\$"

# Three-byte characters shifted by 0, 1 and 2 bytes at both ends: wherever
# the cuts fall, they fall between characters.
for pad in "" a ab; do
	name=$(long_path 5000 €)
	run_gh "/$pad${name#/}$pad/missing"
	one_line "5,000 characters, UTF-8 (+${#pad}): still valid UTF-8, the reason whole" \
		"File name too long"
done

# A reason inside the text (gzip's), on a name that exists.
dir=$(long_path 4000)
mkdir -p "$dir" || exit 1
printf '\037\213\010\000' >"$dir/cut.gz"
run_gh "$dir/cut.gz"
one_line "4,000 characters, bad gzip: gzip's reason comes through" \
	"unexpected end of file (truncated gzip data)"

# Several inputs at once: each message is kept with its input, whole.
long=$(long_path 3000)
run_gh --threads=4 -f tsv "$long/a" "$TMP/good" "$long/b" "$dir/cut.gz" \
	"$TMP/good"
is "several long names at once: exit 1, three messages" \
	"$rc:$(wc -l <"$TMP/err" | tr -d ' ')" "1:3"
is "several long names at once: in operand order, each reason whole" \
	"$(sed 's/.*\///' "$TMP/err" | tr '\n' '|')" \
	"a: No such file or directory|b: No such file or directory|cut.gz: unexpected end of file (truncated gzip data)|"
is "several long names at once: the good ones counted" \
	"$(grep -c '^total	' "$TMP/out")" 7
