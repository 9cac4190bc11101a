#!/bin/bash
# t2015-directories.t - an operand that is a directory is read as grep -r
# reads it: its files depth first, names in byte order, links met inside,
# FIFOs and other non-files skipped; --include and --exclude-dir; checked
# against a walk in Python (os.scandir, fnmatch) and Counter of the files'
# decoded bytes
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_cmd python3
plan 13

cd "$TMP" || exit 1
mkdir -p logs/sub/deep logs/.hidden logs/skipme logs/empty 'logs/with space'
printf 'GET /a 200\nGET /b 404\n' >logs/a.log
printf 'GET /c 200\n' | gzip -c >logs/b.log.gz
printf 'sub line\n' >logs/sub/c.log
printf 'deep text\n' >logs/sub/deep/d.txt
printf 'hidden\n' >logs/.hidden/e.log
printf 'skipped?\n' >logs/skipme/f.log
printf 'spaced\n' >'logs/with space/g.log'
printf 'Z upper first\n' >logs/Z.log
: >logs/zero.log
printf 'outside\n' >outside.log
ln -s ../outside.log logs/link.log
ln -s sub logs/linkdir
mkfifo logs/fifo 2>/dev/null

# walk ROOT [INCLUDE] [EXCLUDE_DIR]: the files grep -r reads, one a line.
walk() {
	python3 - "$@" <<'PY'
import fnmatch, os, stat, sys
root = sys.argv[1]
inc = sys.argv[2] if len(sys.argv) > 2 and sys.argv[2] else None
exd = sys.argv[3] if len(sys.argv) > 3 and sys.argv[3] else None
def walk(d):
    for name in sorted(os.listdir(d), key=os.fsencode):
        p = d.rstrip("/") + "/" + name
        st = os.lstat(p)
        if stat.S_ISDIR(st.st_mode):
            if not (exd and fnmatch.fnmatchcase(name, exd)):
                walk(p)
        elif stat.S_ISREG(st.st_mode):
            if not inc or fnmatch.fnmatchcase(name, inc):
                print(p)
walk(root)
PY
}
# names ARGS...: the inputs gpuhist reports, one a line, in order.
names() { "$GPUHIST" -b -f tsv --total=never "$@" | sed 1d | cut -f1 | uniq; }

walk logs >want
names logs >got
same_file "a directory: its files, depth first in byte order, links and the FIFO skipped" got want
walk logs/ >want
names logs/ >got
same_file "a directory named with its slash: no doubled slash" got want

# The total of a directory is Counter's of its files, decoded.
"$GPUHIST" -b -f tsv --total=only logs | sed 1d | cut -f2- >got
python3 - logs <<'PY' >want
import collections, gzip, os, stat, sys
c = collections.Counter()
def walk(d):
    for name in sorted(os.listdir(d), key=os.fsencode):
        p = d + "/" + name
        st = os.lstat(p)
        if stat.S_ISDIR(st.st_mode):
            walk(p)
        elif stat.S_ISREG(st.st_mode):
            data = open(p, "rb").read()
            if data[:2] == b"\x1f\x8b":
                data = gzip.decompress(data)
            c.update(data)
walk(sys.argv[1])
for b in range(256):
    print("%d\t%d" % (b, c[b]))
PY
same_file "its total: Counter of every file's decoded bytes" got want

"$GPUHIST" -t -f tsv --total=only logs >got
walk logs | tr '\n' '\0' | "$GPUHIST" -t -f tsv --total=only --files0-from=- >want
same_file "tokens of a directory: those of its files named one by one" got want

walk logs '*.log' >want
names --include='*.log' logs >got
same_file "--include='*.log': only files whose base name matches" got want
names --include='*.log' --include='*.txt' logs >got
walk logs >all
grep -E '\.(log|txt)$' all >want
same_file "--include twice: a file matching either" got want

walk logs '' 'skip*' >want
names --exclude-dir='skip*' logs >got
same_file "--exclude-dir='skip*': that directory not read" got want

# A link named on the command line is followed, as grep -r follows it.
walk logs/sub | sed 's|^logs/sub|logs/linkdir|' >want
names logs/linkdir >got
same_file "a link to a directory, named: read" got want

# Files and directories mixed, in operand order; --files0-from too.
{ echo outside.log; walk logs/sub; echo outside.log; } >want
names outside.log logs/sub outside.log >got
same_file "operands mixed: each in its place" got want
printf 'outside.log\0logs/sub\0' | "$GPUHIST" -b -f tsv --total=never --files0-from=- |
	sed 1d | cut -f1 | uniq >got
{ echo outside.log; walk logs/sub; } >want
same_file "--files0-from: a directory in the list is read too" got want

run_gh -f json logs/empty
is "an empty directory: no input, exit 0" \
	"$rc:$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["inputs"])' "$TMP/out")" \
	"0:[]"

if [ "$(id -u)" -eq 0 ]; then
	skip "an unreadable directory inside: said, exit 1, the rest read" \
		"running as root, who can read a mode 000 directory"
else
	mkdir -p locked/in && printf 'x\n' >locked/in/x.log &&
		printf 'ok\n' >locked/ok.log && chmod 000 locked/in
	run_gh -b -f tsv --total=never locked
	chmod 755 locked/in
	is "an unreadable directory inside: said, exit 1, the rest read" \
		"$rc:$err:$(sed 1d "$TMP/out" | cut -f1 | uniq)" \
		"1:gpuhist: locked/in: Permission denied:locked/ok.log"
fi

globs=$(for i in $(seq 33); do printf -- '--include=*.%d ' "$i"; done)
run_gh $globs logs
is "33 globs for --include: a usage error" "$rc" 2
