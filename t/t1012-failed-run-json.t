#!/bin/sh
# t1012-failed-run-json.t - a run that fails as a whole (its --files0-from
# list unreadable, no thread to count with) exits 1 and its json result
# says why in a top-level "error", which --merge refuses: a lost shard
# never passes as a smaller total (issue "What users see", item 9)
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_cmd python3

plan 7

cd "$TMP" || exit 1
mkdir adir
printf 'hello\n' >f

# top_error FILE: the document's top-level "error", or "none" (or "bad json").
top_error() {
	python3 -c 'import json, sys
try:
    d = json.load(open(sys.argv[1]))
except ValueError:
    print("bad json"); sys.exit()
print(d.get("error", "none"))' "$1"
}

"$GPUHIST" -f json --files0-from=adir >part.json 2>err
is "--files0-from a directory, -f json: exit 1, the document's error says why" \
	"$?:$(top_error part.json)" "1:adir: read error: Is a directory"

"$GPUHIST" --merge part.json f.json >out 2>err
is "--merge refuses that document, naming why its run failed" \
	"$?:$(cat err)" \
	"1:gpuhist: part.json: the run that wrote it failed: adir: read error: Is a directory
gpuhist: f.json: No such file or directory"

"$GPUHIST" -m -f json --files0-from=adir >part.json 2>/dev/null
is "-m's json of that run carries the error too" \
	"$?:$(top_error part.json)" "1:adir: read error: Is a directory"

"$GPUHIST" --merge -f json --files0-from=adir >merged.json 2>/dev/null
is "--merge whose list cannot be read: its json says so too" \
	"$?:$(top_error merged.json)" "1:adir: read error: Is a directory"

"$GPUHIST" -f json f >good.json 2>err
is "a run that counted everything has no top-level error" \
	"$?:$(top_error good.json):$(cat err)" "0:none:"
"$GPUHIST" --merge good.json >/dev/null 2>err
is "--merge takes it" "$?:$(cat err)" "0:"

# No thread to count with: find an address-space limit at which the
# counting threads cannot start but the program can (it varies by libc
# and machine); skipped where none does.
found=
for kib in 30000 40000 50000 60000 70000 80000 90000; do
	(ulimit -v $kib && exec "$GPUHIST" -f json --threads=4 f) \
		>thr.json 2>err
	if [ $? = 1 ] && [ "$(cat err)" = \
	     "gpuhist: cannot start a thread: Resource temporarily unavailable" ]; then
		found=$kib
		break
	fi
done
if [ -n "$found" ]; then
	diag "ulimit -v $found: the counting threads could not start"
	"$GPUHIST" --merge thr.json >/dev/null 2>err
	rc=$?
	is "no thread to count with: the json's error, which --merge refuses" \
		"$(top_error thr.json):$rc:$(cat err)" \
		"cannot start a thread: Resource temporarily unavailable:1:gpuhist: thr.json: the run that wrote it failed: cannot start a thread: Resource temporarily unavailable"
else
	skip "no thread to count with: the json's error" \
		"no ulimit -v here stops the threads but not the program"
fi
