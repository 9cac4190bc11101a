#!/bin/sh
# t0009-progress-terminal.t - the progress meter on a terminal: its line
# fits the terminal's width (the window size, else COLUMNS, else 80), so a
# redraw never leaves wrapped lines behind; with several inputs it shows
# the current input's own bytes; it erases itself at the end.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_cmd python3
python3 -c 'import pty, termios, fcntl' 2>/dev/null ||
	skip_all "python3 has no pty support"
plan 15

cd "$TMP" || exit 1
# on_pty OUT COLS [VAR=VALUE] -- ARGS...: runs gpuhist with stderr on a
# pseudo-terminal COLS columns wide (0: no size set) and stdout on
# /dev/null; OUT gets what the terminal received and OUT.rc the status.
cat >on-pty.py <<'PY'
import fcntl, os, pty, select, struct, sys, termios, time
out, cols = sys.argv[1], int(sys.argv[2])
args = sys.argv[3:]
env = dict(os.environ)
env.pop("COLUMNS", None)
while args and args[0] != "--":
    k, v = args.pop(0).split("=", 1)
    env[k] = v
args = args[1:]
pid, fd = pty.fork()
if pid == 0:
    if cols:
        fcntl.ioctl(2, termios.TIOCSWINSZ, struct.pack("HHHH", 24, cols, 0, 0))
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    os.execve(args[0], args, env)
data = b""
deadline = time.time() + 60
status = None
while time.time() < deadline:
    r, _, _ = select.select([fd], [], [], 0.05)
    if r:
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            chunk = b""
        data += chunk
        if chunk:
            continue
    done, st = os.waitpid(pid, os.WNOHANG)
    if done:
        status = os.waitstatus_to_exitcode(st)
        break
if status is None:
    os.kill(pid, 9)
    os.waitpid(pid, 0)
open(out, "wb").write(data)
open(out + ".rc", "w").write("%s\n" % status)
PY
on_pty() {
	out=$1 cols=$2
	shift 2
	python3 on-pty.py "$out" "$cols" "$@"
}

# widest OUT: the widest line the terminal was given (lines end at \r or
# \n; the erase-to-end-of-line sequence takes no room).
widest() {
	python3 - "$1" <<'PY'
import re, sys
text = open(sys.argv[1], "rb").read().replace(b"\033[K", b"")
print(max((len(l) for l in re.split(rb"[\r\n]", text)), default=0))
PY
}

# meter_lines OUT: the meter's lines, one a line, without the controls.
meter_lines() {
	sed 's/\x1b\[K//g' "$1" | tr '\r' '\n' | grep '^gpuhist: '
}

long=an-input-whose-name-is-much-too-long-for-one-line-of-a-narrow-terminal-window-and-then-some-more-of-it.txt
gendata 9 2000000 >"$long"

on_pty w50 50 -- "$GPUHIST" --progress --threads=2 "$long"
is "50 columns: exit 0" "$(cat w50.rc)" 0
w=$(widest w50)
ok $([ "$w" -gt 0 ] && [ "$w" -lt 50 ]; echo $?) \
	"50 columns: no line of the meter wraps (widest $w)"
like "50 columns: the name is shortened, keeping its end" \
	"$(meter_lines w50)" '^gpuhist: \.\.\.[-a-z]*of-it\.txt: [0-9]+\.[0-9] MB'

on_pty w24 24 -- "$GPUHIST" --progress --threads=2 "$long"
w=$(widest w24)
ok $([ "$w" -gt 0 ] && [ "$w" -lt 24 ]; echo $?) \
	"24 columns: no line wraps (widest $w)"

# A terminal that reports no size: COLUMNS, else 80 columns.
on_pty c30 0 COLUMNS=30 -- "$GPUHIST" --progress --threads=2 "$long"
w=$(widest c30)
ok $([ "$w" -gt 0 ] && [ "$w" -lt 30 ]; echo $?) \
	"no window size, COLUMNS=30: no line is 30 wide (widest $w)"
on_pty c80 0 -- "$GPUHIST" --progress --threads=2 "$long"
w=$(widest c80)
ok $([ "$w" -gt 0 ] && [ "$w" -lt 80 ]; echo $?) \
	"no window size, no COLUMNS: no line is 80 wide (widest $w)"

# Wide enough: the name whole, and the usual figures.
on_pty w200 200 -- "$GPUHIST" --progress --threads=2 "$long"
like "200 columns: the whole name, bytes, rate and percent" \
	"$(meter_lines w200)" \
	"^gpuhist: $long: 2\\.0 MB, [0-9.]+ [GM]B/s, 100%, [0-9]+:[0-9][0-9] left"
like "the meter erases its line at the end" \
	"$(od -An -c w200 | tr -d ' \n')" '\\r033\[K$'

# Two inputs: each is shown with its own bytes, the run's as a total.
gendata 10 3000000 >first
gendata 11 5000000 >second
on_pty two 200 -- "$GPUHIST" --progress --threads=1 first second
meter_lines two >two.lines
like "two inputs: the first is shown with its 3.0 MB" \
	"$(cat two.lines)" '^gpuhist: first: 3\.0 MB'
like "two inputs: the second with its own 5.0 MB, the total with 8.0 MB" \
	"$(cat two.lines)" '^gpuhist: second: 5\.0 MB, .*total 8\.0 MB, [0-9.]+ [GM]B/s'
bad=$(grep '^gpuhist: second: ' two.lines |
	awk '{ if ($3 + 0 > 5.0) print }')
is "two inputs: the second never shows more than its own bytes" "$bad" ""

# Narrow terminals: figures are dropped whole, never cut inside a number
# (a line ending in "2." or "2.0" without its unit was half a figure).
for cols in 20 40; do
	on_pty n$cols $cols -- "$GPUHIST" --progress --threads=2 "$long"
	cut=$(meter_lines n$cols | grep -E ': [0-9]' |
	      grep -vE '(MB|B/s|%|left)$')
	is "$cols columns: no figure cut in half" "$cut" ""
done
like "40 columns: the bytes kept whole beside the name's end" \
	"$(meter_lines n40)" '^gpuhist: \.\.\.[-a-z.]*: [0-9]+\.[0-9] MB$'

# A slow input shows its rate in MB/s (0.00 GB/s said nothing).
head -c 1000000 "$long" >part
on_pty slow 200 -- /bin/sh -c "{ cat part; sleep 2; } | \"$GPUHIST\" --progress -b -"
like "a slow pipe: its rate in MB/s" "$(meter_lines slow)" \
	'^gpuhist: -: 1\.0 MB, [0-9]+\.[0-9] MB/s$'
