#!/bin/bash
# t2302-bgzf.t - BGZF (bgzip: members of at most 64 KiB that carry their
# size) decoded on several threads: gzip -dc's bytes and verdict, every
# view across regions, and the serial verdict wherever a member is bad,
# cut, followed by garbage, not BGZF, or lies about its size
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_cmd python3
need_cmd bgzip

cd "$TMP" || exit 1
export GPUHIST_GZIP_REGION=65536
gendata 23 3000000 >text
python3 "$T_SRCDIR/gentext.py" mixed 9 2000000 >utf8
bgzip -c text >t.gz
bgzip -c utf8 >u.gz

# counts ARGS...: byte counts, the name column dropped.
counts() { "$GPUHIST" -b -f tsv "$@" 2>/dev/null | sed 1d | cut -f2-; }

# same_verdict DESCRIPTION FILE: 4 threads and the serial path (one
# thread) agree on FILE: exit status, messages, counts; and both agree
# with gzip -dc on whether it decodes.
same_verdict() {
	local desc=$1 file=$2 zrc
	gzip -dc "$file" >/dev/null 2>&1
	zrc=$?
	"$GPUHIST" -b -f tsv --threads=4 "$file" >par 2>par.err
	echo $? >>par.err
	"$GPUHIST" -b -f tsv --threads=1 "$file" >ser 2>ser.err
	echo $? >>ser.err
	is "$desc: 4 threads and one say the same; gzip -dc $([ $zrc = 0 ] && echo decodes || echo refuses) it" \
		"$(cmp -s par ser && cmp -s par.err ser.err && echo same):$(tail -n 1 par.err)" \
		"same:$([ $zrc = 0 ] && echo 0 || echo 1)"
}

plan 10

gzip -dc t.gz >plain
counts --raw plain >want
counts --threads=4 t.gz >got
"$GPUHIST" -v -b --threads=4 t.gz 2>&1 >/dev/null | grep 'decoded' >how
is "BGZF, 4 threads, many regions: gzip -dc's counts, decoded in parallel" \
	"$(cmp -s got want && echo same):$(grep -c 'decoded by 4 threads' how)" "same:1"
cat t.gz | counts >got
same_file "... through a pipe (in order): the same counts" got want

for view in -m -s "-m -s"; do
	"$GPUHIST" $view -f json --threads=4 u.gz | sed 's/"u.gz"/"x"/' >got
	"$GPUHIST" $view -f json --threads=1 utf8 | sed 's/"utf8"/"x"/' >want
	same_file "$view across regions split anywhere: as the text itself" got want
done

# Bad data: a member's deflate data flipped in the middle, the file cut,
# garbage after the last member, a member that is not BGZF after them, a
# member whose size field lies.
python3 - <<'PY'
d = open("t.gz", "rb").read()
def members(d):
    at, out = 0, []
    while at < len(d):
        size = d[at + 16] | d[at + 17] << 8
        out.append((at, size + 1)); at += size + 1
    return out
m = members(d)
mid = m[len(m) // 2]
b = bytearray(d); b[mid[0] + 40] ^= 0x55
open("flip.gz", "wb").write(b)
open("cut.gz", "wb").write(d[:mid[0] + 100])
open("garbage.gz", "wb").write(d + b"garbage")
import gzip
open("plainmember.gz", "wb").write(d[:m[-1][0]] + gzip.compress(b"plain gzip member\n" * 100, mtime=0) + d[m[-1][0]:])
b = bytearray(d); b[mid[0] + 16] ^= 0x01
open("liar.gz", "wb").write(b)
PY
same_verdict "a corrupt member in the middle" flip.gz
same_verdict "cut inside a member" cut.gz
same_verdict "garbage after the last member" garbage.gz
same_verdict "a plain gzip member among them" plainmember.gz
same_verdict "a member whose size field lies" liar.gz
