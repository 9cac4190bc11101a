#!/bin/bash
# t1025-follow.t - --follow: a file appended to, rotated (renamed away and
# made anew, the old one's last line without a newline) and truncated
# under gpuhist, and a pipe that ends; SIGINT (or SIGTERM) ends it with
# the totals printed once more, which must equal counting the files
# whole (Python's Counter of the lines, and gpuhist's own byte totals of
# the same files); the refusals (exit 2) and a missing or compressed file
# (exit 1)
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_cmd python3
need_cmd gzip

cd "$TMP" || exit 1
plan 17

# follow_start OUT ARGS...: gpuhist --follow ARGS in the background,
# waited for until it has printed its first totals (the file as it was
# read whole: a sanitized build may take seconds to start).
follow_start() {
	local out=$1 i=0
	shift
	"$GPUHIST" --follow --interval=0.2 "$@" >"$out" 2>"$out.err" &
	pid=$!
	while [ ! -s "$out" ] && [ $i -lt 300 ]; do
		sleep 0.1
		i=$((i + 1))
	done
}

# follow_stop [SIGNAL]: ends it (SIGINT) and waits; its status in $rc.
follow_stop() {
	sleep 0.6
	kill -"${1:-INT}" "$pid"
	wait "$pid"
	rc=$?
}

# last_lines OUT: the last ndjson entry's lines as "count<TAB>line",
# sorted, against Python's Counter of FILES' lines (each file whole).
lines_check() {
	local out=$1
	shift
	python3 - "$out" "$@" <<'PY'
import collections, json, sys
last = json.loads(open(sys.argv[1], encoding="utf-8",
                       errors="surrogateescape").read().splitlines()[-1])
got = collections.Counter({r["token"].encode("utf-8", "surrogateescape"):
                           r["count"] for r in last["counts"]})
want = collections.Counter()
for path in sys.argv[2:]:
    data = open(path, "rb").read()
    lines = data.split(b"\n")
    if lines[-1] == b"":
        lines.pop()
    want.update(lines)
print("same" if got == want and last["tokens"] == sum(want.values())
      else "got %s want %s" % (sorted(got.items())[:6], sorted(want.items())[:6]))
PY
}

# Appended, a line in two writes, rotated with the old file's last line
# unterminated, the new file appended to.
printf 'GET /a 200\nGET /b 404\n' >f.log
follow_start lines.out --lines -f ndjson f.log
printf 'GET /a 200\nGET /c 5' >>f.log
sleep 0.5
printf '00\nGET /a 200\n' >>f.log
sleep 0.5
mv f.log f.log.1
printf 'POST /x 201' >>f.log.1
printf 'GET /new 200\n' >f.log
sleep 0.6
printf 'GET /new 200\nGET /last 200' >>f.log
follow_stop INT
is "SIGINT: exit 0" "$rc" 0
is "the last totals: the lines of the old file and the new one, each whole" \
	"$(lines_check lines.out f.log.1 f.log)" same
n=$(wc -l <lines.out)
ok "$([ "$n" -ge 3 ] && echo 0 || echo 1)" "totals printed as the file grew ($n lines of ndjson)"
python3 -c '
import json, sys
rows = [json.loads(l)["tokens"] for l in open("lines.out")]
print("rising" if rows == sorted(rows) else rows)' >got
is "each period's totals include the ones before" "$(cat got)" rising

# The byte totals through the same, -f tsv.
printf 'alpha beta\n' >g.log
follow_start bytes.out -b -f tsv g.log
printf 'gamma\ndelta' >>g.log
sleep 0.5
mv g.log g.log.1
printf 'epsilon\n' >g.log
follow_stop TERM
is "SIGTERM: exit 0" "$rc" 0
tail -n 256 bytes.out | cut -f2- >got
"$GPUHIST" -b -f tsv --total=only g.log.1 g.log | tail -n 256 | cut -f2- >want
same_file "-b: the last block's 256 bins are the two files' counted whole" got want

# Truncated in place (as copytruncate): read again from its start.
printf 'one\ntwo\nthree\nfour\n' >t.log
follow_start trunc.out --lines -f ndjson t.log
cp t.log t.before
: >t.log
sleep 0.5
printf 'five\n' >>t.log
cp t.log t.after
follow_stop INT
is "truncated: what it held before and after, each counted" \
	"$(lines_check trunc.out t.before t.after)" same

# A pipe: read until it ends.
gen log 200000 >p.log
(head -c 100000 p.log; sleep 0.5; tail -c +100001 p.log) |
	"$GPUHIST" --follow --interval=0.2 --lines -f ndjson >pipe.out 2>&1
rc=$?
is "a pipe: exit 0 at its end" "$rc" 0
is "a pipe: the last totals are its lines'" "$(lines_check pipe.out p.log)" same
(head -c 100000 p.log; sleep 0.5; tail -c +100001 p.log) |
	"$GPUHIST" --follow --interval=0.2 --values=10 -f json >v.out 2>&1
"$GPUHIST" --values=10 -f json p.log | python3 -c '
import json, sys
whole = json.load(sys.stdin)["inputs"][0]
last = json.loads(open("v.out").read().splitlines()[-1])
keys = ("numbers", "not_numbers", "min", "max", "sum", "buckets")
print(all(whole[k] == last[k] for k in keys))' >got
is "--values=10 through a pipe: the same numbers and buckets" "$(cat got)" True
(head -c 100000 p.log; sleep 0.5; tail -c +100001 p.log) |
	"$GPUHIST" --follow --interval=0.2 -m -f tsv --total=never |
	tail -n 1 | cut -f2- >got
"$GPUHIST" -m -f tsv --total=never p.log | tail -n 1 | cut -f2- >want
same_file "-m through a pipe: the same code points" got want

# Standard input that is a file, beside a file named "-": the name is
# not looked up (no rotation of standard input).
printf 'x\n' >./-
printf 'one\ntwo\n' >in.log
"$GPUHIST" --follow --interval=0.2 --lines -f ndjson - <in.log >stdin.out 2>&1 &
pid=$!
i=0
while [ ! -s stdin.out ] && [ $i -lt 300 ]; do
	sleep 0.1
	i=$((i + 1))
done
follow_stop INT
is "standard input from a file, a file named -: exit 0, its lines" \
	"$rc $(lines_check stdin.out in.log)" "0 same"
rm -f ./-

run_gh --follow -s f.log
like "-s: exit 2" "$rc $err" "^2 gpuhist: option --follow cannot be combined with -s"
run_gh --interval=3 f.log
like "--interval without --follow: exit 2" "$rc $err" "^2 gpuhist: option --interval applies to --follow only"
run_gh --follow f.log g.log
like "two files: exit 2" "$rc $err" "^2 gpuhist: --follow reads one file"
run_gh --follow no-such.log
like "a missing file: exit 1" "$rc $err" "^1 gpuhist: no-such.log: No such file"
gzip -c f.log >f.log.gz
run_gh --follow f.log.gz
like "a compressed file: exit 1, said" "$rc $err" "^1 gpuhist: f.log.gz: compressed: --follow reads text"
