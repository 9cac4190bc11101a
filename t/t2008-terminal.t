#!/bin/sh
# t2008-terminal.t - standard input from a terminal: one ^D ends each "-"
# (a terminal says end of file once per ^D), and several "-" are read in
# operand order, as wc reads them.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_cmd python3
plan 3

cd "$TMP" || exit 1
# Types LINES into gpuhist on a pty, one ^D after each; prints what it
# wrote to stdout as the last line and its exit status before that.
python3 - "$GPUHIST" >result <<'PY'
import os, pty, select, sys, time
gpuhist = sys.argv[1]
pid, fd = pty.fork()
if pid == 0:
    # No echo, so what is typed does not mix with the json; the line
    # discipline stays canonical, so ^D still means end of file.
    import termios
    attrs = termios.tcgetattr(0)
    attrs[3] &= ~termios.ECHO
    termios.tcsetattr(0, termios.TCSANOW, attrs)
    os.execv(gpuhist, [gpuhist, "--threads=8", "--no-progress", "-f", "json", "-", "-", "-", "-"])
out = b""
def drain(wait):
    global out
    end = time.time() + wait
    while time.time() < end:
        r, _, _ = select.select([fd], [], [], 0.05)
        if r:
            try:
                data = os.read(fd, 65536)
            except OSError:
                return
            if not data:
                return
            out += data
for text in (b"a", b"bb", b"ccc", b"dddd"):
    os.write(fd, text + b"\n")
    drain(0.2)
    os.write(fd, b"\x04")           # one ^D per operand
    drain(0.2)
deadline = time.time() + 60   # only a hang waits this long
status = None
while time.time() < deadline:
    done, st = os.waitpid(pid, os.WNOHANG)
    if done:
        status = os.waitstatus_to_exitcode(st)
        break
    drain(0.1)
if status is None:
    os.kill(pid, 9)
    os.waitpid(pid, 0)
drain(0.2)
print(status)
text = out.decode(errors="replace")
start = text.find("{")
print(text[start:].replace("\r\n", "\n").replace("\n", " ") if start >= 0 else "")
PY
status=$(sed -n 1p result)
is "one ^D after each of four '-': gpuhist ends, exit 0" "$status" 0
sed -n '2,$p' result >doc.json
python3 -c '
import json, sys
d = json.load(open("doc.json"))
print(" ".join(str(e["bytes_read"]) for e in d["inputs"]))' >got 2>/dev/null
is "four '-' read in operand order (a, bb, ccc, dddd and their newlines)" \
	"$(cat got)" "2 3 4 5"
python3 -c '
import json
d = json.load(open("doc.json"))
print(d["total"]["bytes_read"])' >got 2>/dev/null
is "the total is all that was typed" "$(cat got)" 14
