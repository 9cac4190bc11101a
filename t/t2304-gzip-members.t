#!/bin/bash
# t2304-gzip-members.t - a gzip file of many members (cat a.gz b.gz, gzip
# -c >>) cut at member headers and decoded a segment a thread: gzip -dc's
# bytes and the serial path's verdict however it is cut, every view across
# segments (the tokens views too, in parallel), headers with names and
# comments, and bytes that only look like
# a member header (a .gz file gzipped again: its header inside the data)
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_cmd python3
need_cmd gzip

cd "$TMP" || exit 1
export GPUHIST_GZIP_REGION=65536
gendata 41 2400000 >text
python3 "$T_SRCDIR/gentext.py" mixed 13 1600000 >utf8
# Members of about 150 KB, each with its name in its header (gzip -c of
# a named file keeps it).
split -b 150000 -d text tpart
for f in tpart*; do gzip -6 -c "$f"; done >t.gz
split -b 100000 -d utf8 upart
for f in upart*; do gzip -c "$f"; done >u.gz

# counts ARGS...: byte counts, the name column dropped.
counts() { "$GPUHIST" -b -f tsv "$@" 2>/dev/null | sed 1d | cut -f2-; }

# same_verdict DESCRIPTION FILE [WANT]: 4 threads, 2 and one (the serial
# path) say the same of FILE: exit status, messages, counts; and the exit
# status is gzip -dc's, or WANT where gzip only warns (exit 2) of what
# follows a member, which gpuhist refuses unless it is zero padding at the
# end (the man page, "How a gzip file is decoded").
same_verdict() {
	local desc=$1 file=$2 zrc
	gzip -dc "$file" >/dev/null 2>&1
	zrc=$?
	[ $zrc = 2 ] && zrc=${3:?gzip warns: say what gpuhist should do}
	for t in 4 2 1; do
		"$GPUHIST" -b -f tsv --threads=$t "$file" >out$t 2>err$t
		echo $? >>err$t
	done
	is "$desc: 4, 2 and 1 threads say the same; gzip -dc $([ $zrc = 0 ] && echo decodes || echo refuses) it" \
		"$(cmp -s out4 out1 && cmp -s err4 err1 && cmp -s out2 out1 && cmp -s err2 err1 && echo same):$(tail -n 1 err1)" \
		"same:$([ $zrc = 0 ] && echo 0 || echo 1)"
}

plan 20

gzip -dc t.gz >plain
counts --raw plain >want
for t in 2 4; do
	counts --threads=$t t.gz >got
	"$GPUHIST" -v -b --threads=$t t.gz 2>&1 >/dev/null | grep 'decoded' >how
	is "$(ls tpart* | wc -l | tr -d ' ') members on $t threads: gzip -dc's counts, cut into segments of whole members" \
		"$(cmp -s got want && echo same):$(grep -c "t.gz: gzip decoded by $t threads: [0-9]* segments of whole members ($(ls tpart* | wc -l | tr -d ' ') members)\$" how)" \
		"same:1"
done
cat t.gz | counts >got
same_file "... through a pipe (in order): the same counts" got want

for view in -m "-m -i" -s "-m -s"; do
	"$GPUHIST" $view -f json --threads=4 u.gz | sed 's/"u.gz"/"x"/' >got
	"$GPUHIST" $view -f json --threads=1 utf8 | sed 's/"utf8"/"x"/' >want
	same_file "$view across segments cut inside characters: as the text itself" got want
done

# The tokens views across segments, decoded in parallel (joined piece by
# piece: a member says its length only at its end): as the text itself.
# (A file big enough to be cut: 81 members of 150 KB.)
python3 "$T_SRCDIR/gentext.py" mixed 13 12000000 >big
split -b 150000 -d -a 3 big bpart
for f in bpart*; do gzip -c "$f"; done >big.gz
rm -f bpart*
bad=""
for view in -t --lines "--field=2" "--per=minute -m"; do
	for t in 4 2; do
		"$GPUHIST" $view -v -f tsv --threads=$t --chunk-size=64K big.gz \
			2>err | sed 1d | cut -f2- >got
		"$GPUHIST" $view -f tsv --threads=1 big | sed 1d | cut -f2- >want
		cmp -s got want && grep -q "segments of whole members" err ||
			bad="$bad [$view, $t threads]"
	done
done
is "-t, --lines, --field, -m per interval across segments, in parallel: as the text itself" \
	"$bad" ""

# A .gz file gzipped again: its own header lies in the data of the outer
# members, where a cut may be tried and must be refused.
gzip -1 -c t.gz >inner.gz
(for i in 1 2 3 4 5 6; do cat inner.gz; done) >nested.gz
(for i in 1 2 3 4 5 6; do cat t.gz; done) | counts --raw >want
counts --threads=4 nested.gz >got
"$GPUHIST" -b --threads=4 nested.gz >/dev/null 2>err
"$GPUHIST" -v -b --threads=4 nested.gz 2>&1 >/dev/null | grep -c 'decoded by 4 threads: [0-9]* regions' >how
counts --threads=2 nested.gz >got2
is "members whose data holds gzip headers: a cut there refused, then decoded by regions (4 threads) or serially (2), gzip -dc's counts, exit 0, silent" \
	"$(cat how):$(cmp -s got want && cmp -s got2 want && echo same):$(cat err)" "1:same:"

# Real gzip files nobody here wrote, joined.
real=$(ls /usr/share/doc/*/changelog*.gz /usr/share/man/man1/*.gz 2>/dev/null | head -400)
if [ -n "$real" ]; then
	cat $real >real.gz
	cat $real | gzip -dc | counts --raw >want
	counts --threads=4 real.gz >got
	same_file "$(echo "$real" | wc -l | tr -d ' ') real .gz files joined: gzip -dc's counts on 4 threads" got want
else
	skip "real .gz files joined" "none under /usr/share"
fi

# Long headers (65,000-byte extra fields) over incompressible data: scans
# from two points once judged a header cut by one's read and not by the
# other's, the cuts crossed, and bytes between them were counted twice.
python3 "$T_SRCDIR/mkmembers.py" 3 40 300000 65000 long.gz
gzip -dc long.gz | counts --raw >want
bad=""
for t in 4 8 16; do
	counts --threads=$t long.gz >got
	cmp -s got want || bad="$bad $t"
done
is "40 members with 65,000-byte headers over stored data: gzip -dc's counts on 4, 8 and 16 threads" \
	"$bad" ""

size=$(stat -c %s t.gz)
flip t.gz $((size / 2)) >f1.gz
same_verdict "a byte flipped in a member in the middle" f1.gz
# The header of a member in the middle: where a segment may begin.
off=$(python3 -c 'import sys
d = open(sys.argv[1], "rb").read(); print(d.find(b"\x1f\x8b\x08", len(d) // 2))' t.gz)
flip t.gz $((off + 3)) >f2.gz
same_verdict "a reserved flag set in a member header in the middle" f2.gz
flip t.gz $((off + 10)) >f3.gz
same_verdict "a byte flipped in a member's name in the middle" f3.gz
head -c $((size * 3 / 4)) t.gz >cut.gz
same_verdict "the file cut inside a member" cut.gz
(head -c "$off" t.gz; printf '\0\0\0\0'; tail -c +$((off + 1)) t.gz) >zeros.gz
same_verdict "zero bytes between two members" zeros.gz 1
(cat t.gz; printf '\0\0\0\0\0\0\0\0') >padded.gz
same_verdict "zero padding after the last member" padded.gz 0
(cat t.gz; printf 'garbage') >garbage.gz
same_verdict "garbage after the last member" garbage.gz 1

# Few members, the last before the 7/8 point: the search for a header
# past that point ran into the end of the file and never left it (a hang,
# found by t1018).  5 members, 4 and 8 threads, each within 20 s.
split -n 5 text fpart
for f in fpart*; do gzip -1 -n -c "$f"; done >few.gz
gzip -dc few.gz >plain
counts --raw plain >want
for t in 4 8; do
	timeout 20 "$GPUHIST" -b -f tsv --threads=$t few.gz 2>/dev/null |
		sed 1d | cut -f2- >got
	is "5 members, the last before the 7/8 point, $t threads: ends, with gzip -dc's counts" \
		"$(cmp -s got want && echo same)" same
done
