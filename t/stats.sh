# stats.sh - the --stats cases, run on one backend: t1011 (CPU), t3600 (GPU)
#
# Sourced after lib.sh with BACKEND (cpu or gpu) and EXTRA (options every
# run gets: several devices, say) set; it prints the plan.  Every report is compared with
# ent(1)'s, whole, on the same bytes: random, text, one-byte and empty
# inputs, sizes 1..20 around the 6-byte groups, chunks of 5, 7 and 13
# bytes read in order and out of order, pipes, gzip (serial, parallel,
# members split inside a group), zstd frames, -m; ent -t for csv; the
# stream sums against Python's own loop; the total and --merge.
plan 47

cd "$TMP" || exit 1

# gh_block OPTIONS... FILE: gpuhist's ent block for FILE (the last word).
gh_block() {
	"$GPUHIST" --backend="$BACKEND" $EXTRA -s "$@" 2>>gh.err |
		sed -n '/^Entropy = /,$p'
}

# same_as_ent DESCRIPTION FILE [OPTIONS...]: the block equals ent's.
same_as_ent() {
	local desc=$1 file=$2
	shift 2
	ent "$file" >want
	gh_block "$@" "$file" >got
	same_file "$desc" got want
}

# every_chunking FILE: the block is ent's whatever the chunks: default,
# 5-byte chunks in order, 7-byte chunks read by 3 threads out of order,
# 13-byte chunks through a pipe; 0 when all four are.
every_chunking() {
	ent "$1" >want
	gh_block "$1" >got1 && cmp -s got1 want &&
	gh_block --chunk-size=5 --threads=1 "$1" >got2 && cmp -s got2 want &&
	gh_block --chunk-size=7 --threads=3 "$1" >got3 && cmp -s got3 want &&
	cat "$1" | gh_block --chunk-size=13 >got4 && cmp -s got4 want
}

# Sizes 1..20 of random bytes and of text: every phase a chunk can have.
python3 -c 'import random, sys; random.seed(7); sys.stdout.buffer.write(bytes(random.randrange(256) for _ in range(20)))' >rand20
printf 'The quick brown fox jumps.' >text20
for shape in rand20 text20; do
	bad=
	for n in $(seq 1 20); do
		head -c "$n" $shape >part
		every_chunking part || { bad="$bad $n"; diff want got1 | head -4 | sed 's/^/# /'; }
	done
	is "$shape: sizes 1..20, four chunkings, each equals ent's report" "$bad" ""
done

# Empty and one-byte inputs: ent's "-nan" and "undefined" as ent has them.
: >empty
same_as_ent "empty input: ent's report, -nan and all" empty
for b in 000 101 377; do
	printf "\\$b" >byte
	same_as_ent "one byte \\$b: ent's report" byte --chunk-size=1
done
printf 'aaaaaaaaaaaaa' >same13
same_as_ent "13 equal bytes: serial correlation undefined, as ent says" same13

# Bigger inputs, in chunks so small that groups and pairs cross thousands
# of edges, read in order and by several threads.
gen random 3000001 >random
gendata 5 2000000 >text
head -c 1000000 /dev/zero >zeros
python3 -c 'import sys; sys.stdout.buffer.write(bytes(range(256)) * 4096)' >uniform
python3 -c 'import sys; sys.stdout.buffer.write(bytes(range(16)) * 65536)' >sixteen
for f in random text zeros uniform sixteen; do
	same_as_ent "$f: ent's report" $f
	same_as_ent "$f: 13-byte chunks, 4 threads" $f --chunk-size=13 --threads=4
	ent $f >want
	cat $f | gh_block --chunk-size=4097 >got
	same_file "$f: through a pipe in 4097-byte chunks" got want
done
same_as_ent "text, -m beside --stats: ent's report" text -m --chunk-size=11 --threads=3
same_as_ent "random, -b -c -w views do not change it" random -c

# gzip: serial, and the parallel decoder on small regions (each task's
# chunks placed by the output of the tasks before it).
cat text text text >text3
gzip -6c text3 >text3.gz
ent text3 >want
gh_block --threads=1 text3.gz >got
same_file "gzip, decoded serially: ent's report of the decoded bytes" got want
: >gh.err
GPUHIST_GZIP_REGION=8192 gh_block -v --threads=4 text3.gz >got
same_file "gzip, decoded in parallel (8 KiB regions): ent's report" got want
if grep -q 'regions' gh.err; then ok 0 "the parallel gzip decoder ran"; else ok 1 "the parallel gzip decoder ran"; fi
GPUHIST_GZIP_REGION=8192 gh_block -m --threads=4 --chunk-size=9 text3.gz >got
same_file "gzip in parallel, -m, 9-byte chunks: ent's report" got want
# Members that end inside a group and inside a pair.
head -c 7 random | gzip -c >members.gz
head -c 20 random | tail -c 13 | gzip -c >>members.gz
head -c 1000000 random | tail -c +21 | gzip -1c >>members.gz
head -c 1000000 random >members
ent members >want
gh_block members.gz >got
same_file "three gzip members of 7, 13 and the rest: ent's report" got want
gzip -dc members.gz | cmp -s - members
ok $? "(the members decode to the first 1000000 random bytes)"

# zstd: frames that declare their size decode in parallel; frames that do
# not (streamed) send the file to the serial decoder.
if command -v zstd >/dev/null 2>&1; then
	split -b 300000 text3 piece.
	rm -f frames.zst
	for p in piece.*; do zstd -q -c "$p" >>frames.zst; done
	ent text3 >want
: >gh.err
	gh_block -v --threads=4 frames.zst >got
	same_file "zstd, $(ls piece.* | wc -l) frames in parallel: ent's report" got want
	like "(the frames were decoded in parallel)" "$(cat gh.err)" 'zstd decoded by 4 threads'
	rm -f streamed.zst
	for p in piece.*; do cat "$p" | zstd -q -c >>streamed.zst; done
	gh_block -v --threads=4 streamed.zst >got
	same_file "zstd frames without their sizes: ent's report (serially)" got want
else
	skip "zstd frames in parallel" "zstd not found"
	skip "the frames decoded in parallel" "zstd not found"
	skip "zstd frames without their sizes" "zstd not found"
fi

# Real gzip files nobody here wrote, against ent on gzip -dc's bytes.
set -- $(ls /usr/share/man/man1/*.gz 2>/dev/null | head -12)
bad=
for f in "$@"; do
	gzip -dc "$f" >real
	ent real >want
	gh_block "$f" >got
	cmp -s got want || bad="$bad $f"
done
is "$# man pages (gzip): each report equals ent's of gzip -dc" "$bad" ""

# csv and tsv: ent -t's fields, the input's name first.
bad=
for f in empty byte random text zeros uniform text3.gz; do
	want=$(if [ $f = text3.gz ]; then ent -t text3; else ent -t $f; fi |
	       sed -n '2s/^1,//p')
	got=$("$GPUHIST" --backend="$BACKEND" $EXTRA -s -f csv $f |
	      sed -n '2s/^[^,]*,//p')
	[ "$got" = "$want" ] || bad="$bad $f($got|$want)"
done
is "-f csv --stats: ent -t's fields for 7 inputs" "$bad" ""
"$GPUHIST" --backend="$BACKEND" $EXTRA -s -f tsv random text >got
printf 'input\tFile-bytes\tEntropy\tChi-square\tMean\tMonte-Carlo-Pi\tSerial-Correlation\n' >want
{ ent -t random | sed -n '2s/^1,/random,/p'; ent -t text | sed -n '2s/^1,/text,/p'; } | tr , '\t' >>want
head -3 got >got3
same_file "-f tsv --stats: a header, then ent -t's fields a row" got3 want
is "-f tsv --stats with two inputs: a total row last" "$(sed -n '4s/\t.*//p' got)" "total"

# json: the figures as ent prints them, and the exact sums, which Python
# counts on its own.
head -c 999997 random >odd
"$GPUHIST" --backend="$BACKEND" $EXTRA -s -f json odd >odd.json
ent -t odd >ent.csv
python3 - odd odd.json ent.csv <<'PY' >check 2>&1
import csv, json, sys
data = open(sys.argv[1], 'rb').read()
doc = json.load(open(sys.argv[2]))
ent = next(r for r in csv.reader(open(sys.argv[3])) if r[0] == '1')
st = doc['inputs'][0]['stats']
pairs = sum(a * b for a, b in zip(data, data[1:])) + data[-1] * data[0]
groups = len(data) // 6
hits = 0
for g in range(0, groups * 6, 6):
    x = int.from_bytes(data[g:g + 3], 'big')
    y = int.from_bytes(data[g + 3:g + 6], 'big')
    hits += x * x + y * y <= (2 ** 24 - 1) ** 2
bad = []
if (st['pairs'], st['groups'], st['hits']) != (pairs, groups, hits):
    bad.append('sums %s != %s' % ((st['pairs'], st['groups'], st['hits']), (pairs, groups, hits)))
for key, col in (('entropy', 2), ('chi_square', 3), ('mean', 4), ('pi', 5), ('serial_correlation', 6)):
    if '%f' % st[key] != ent[col]:
        bad.append('%s %f != %s' % (key, st[key], ent[col]))
print('\n'.join(bad) or 'ok')
PY
is "json: exact sums equal Python's loop, figures equal ent -t's" "$(cat check)" "ok"

# Several inputs: the total pools the inputs' sums (each input a stream of
# its own), and --merge gives the same total from their json.
"$GPUHIST" --backend="$BACKEND" $EXTRA -s -f json random text zeros >all.json
python3 - all.json <<'PY' >check 2>&1
import json, math, sys
doc = json.load(open(sys.argv[1]))
ins, tot = doc['inputs'], doc['total']
bad = []
for k in ('pairs', 'groups', 'hits'):
    if tot['stats'][k] != sum(e['stats'][k] for e in ins):
        bad.append(k)
h = tot['histogram']
n = sum(h); s = sum(i * c for i, c in enumerate(h)); q = sum(i * i * c for i, c in enumerate(h))
scc = (n * tot['stats']['pairs'] - s * s) / (n * q - s * s)
if '%.6f' % scc != '%.6f' % tot['stats']['serial_correlation']:
    bad.append('scc %.6f' % scc)
if '%.9f' % (4 * tot['stats']['hits'] / tot['stats']['groups']) != '%.9f' % tot['stats']['pi']:
    bad.append('pi')
print(' '.join(bad) or 'ok')
PY
is "the total's sums are the inputs' added up, its figures made from them" "$(cat check)" "ok"
"$GPUHIST" --backend="$BACKEND" $EXTRA -s -f json random >a.json
"$GPUHIST" --backend="$BACKEND" $EXTRA -s -f json text zeros >b.json
"$GPUHIST" --merge -s -f json a.json b.json >merged.json
python3 -c 'import json, sys; a, b = (json.load(open(f))["total"]["stats"] for f in sys.argv[1:]); print("ok" if a == b else "%s != %s" % (a, b))' merged.json all.json >check
is "--merge -s: the total's stats equal those of one run over all inputs" "$(cat check)" "ok"
"$GPUHIST" --merge -s a.json b.json | sed -n '/^==> total/,$p' | sed -n '/^Entropy = /,$p' >got
"$GPUHIST" --backend="$BACKEND" $EXTRA -s random text zeros | sed -n '/^==> total/,$p' | sed -n '/^Entropy = /,$p' >want
same_file "--merge -s: the total's table block equals one run's" got want
"$GPUHIST" --backend="$BACKEND" $EXTRA -f json random >nostats.json
run_gh --merge -s nostats.json
like "--merge -s of results without sums: pi is not known, and says why" "$(cat out)" '^Monte Carlo value for Pi is not known'
like "--merge -s of results without sums: chi-square still from the histogram" "$(cat out)" '^Chi square distribution for 3000001 samples'
sed 's/"hits": \([0-9]*\)/"hits": 9\1/' a.json >tampered.json
run_gh --merge -s tampered.json
like "--merge refuses more hits than groups" "$err" 'tampered.json: not a gpuhist json result: .*stats'
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
for e in d["inputs"] + [d["total"]]:
    h = e["histogram"]
    e["stats"]["pairs"] = sum(v * v * c for v, c in enumerate(h)) + 1
json.dump(d, open(sys.argv[2], "w"))' a.json pairs.json
run_gh --merge -s pairs.json
like "--merge refuses pairs past the sum of squares (a correlation past 1)" "$err" 'pairs.json: not a gpuhist json result: .*stats'
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
d["total"]["stats"]["groups"] -= 1
json.dump(d, open(sys.argv[2], "w"))' a.json total.json
run_gh --merge -s total.json
like "--merge refuses a total whose sums are not the inputs'" "$err" 'total.json: .*total: stats are not the sum'
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
del d["inputs"][0]["stats"]
json.dump(d, open(sys.argv[2], "w"))' all.json mixed.json
run_gh --merge -s mixed.json
like "--merge refuses sums in some entries and not others" "$err" 'mixed.json: .*some entries carry'
