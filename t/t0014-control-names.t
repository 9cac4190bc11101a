#!/bin/sh
# t0014-control-names.t - a name with control characters (a newline, a tab,
# an escape) cannot forge message lines or move the terminal: messages
# show them escaped, as ls -b does, one line a message; a --files0-from
# list of lines gets a hint that names end with NUL
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

plan 5

cd "$TMP" || exit 1
"$GPUHIST" "$(printf 'no\nsuch')" >out 2>err
is "a missing name with a newline: exit 1, one line, the newline escaped" \
	"$?:$(wc -l <err):$(cat err)" \
	'1:1:gpuhist: no\nsuch: No such file or directory'
"$GPUHIST" "$(printf 'tab\there\033[31m')" >out 2>err
is "a tab and an escape: shown escaped, no control byte written" \
	"$(tr -d '\n' <err | tr -d '[:print:]' | wc -c):$(cat err)" \
	'0:gpuhist: tab\there\033[31m: No such file or directory'
printf 'a\nb\n' | "$GPUHIST" --files0-from=- >out 2>err
is "--files0-from with a list of lines: a hint, then the one name's failure" \
	"$?:$(cat err)" \
	"1:gpuhist: -: names there end with a NUL byte, not a newline (find -print0, printf '%s\\0')
gpuhist: a\\nb\\n: No such file or directory"
printf 'x\n' >"$(printf 'two\nlines')"
printf 'two\nlines\0' | "$GPUHIST" -b -f tsv --files0-from=- >out 2>err
is "--files0-from naming a file with a newline: counted, no hint" \
	"$?:$(wc -c <err):$(sed -n 2p out | cut -f1)" '0:0:two\nlines'
printf 'yy' >"$(printf 'bad\001')"
"$GPUHIST" -b "$(printf 'bad\001')" "$(printf 'gone\002')" >out 2>err
is "a good and a missing control-named file: the message escaped" \
	"$?:$(cat err)" '1:gpuhist: gone\002: No such file or directory'
