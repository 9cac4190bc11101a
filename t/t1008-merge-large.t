#!/bin/sh
# t1008-merge-large.t - --merge reads a result of 10,000 inputs (34 MB)
# whole, from a file or a pipe, in the memory of a small one
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_cmd python3

plan 5

cd "$TMP" || exit 1
python3 "$T_SRCDIR/mkresult.py" --many 10000 >big.json
python3 "$T_SRCDIR/mkresult.py" '97=1' >small.json
size=$(wc -c <big.json)
ok $((size <= 32 << 20)) "the result of 10,000 inputs is over 32 MiB ($size bytes)"

# The expected rows, from Python's json module.
python3 -c 'import json, sys
for c, n in enumerate(json.load(open(sys.argv[1]))["total"]["histogram"]):
    print("big.json\t%d\t%d" % (c, n))' big.json >want

run_gh --merge -b -f tsv big.json
is "--merge of 10,000 inputs: exit 0, no message" "$rc:$err" "0:"
sed 1d "$TMP/out" >got
same_file "... every byte value's total exact" got want
cat big.json | "$GPUHIST" --merge -b -f tsv - 2>&1 | sed '1d; s/^-	/big.json	/' >got
same_file "... read from a pipe too" got want

# Memory: the same as for a small result (not under a sanitizer, whose
# own memory is no measure of the program's).
if ldd "$GPUHIST" 2>/dev/null | grep -q 'lib[at]san'; then
	skip "peak memory does not grow with the result's size" \
		"built with a sanitizer"
else
	grown=$(python3 -c 'import resource, subprocess, sys
def peak(doc):
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    subprocess.run([sys.argv[1], "--merge", doc], stdout=subprocess.DEVNULL,
                   check=True)
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
small = peak("small.json")
big = peak("big.json")
print(big - small)' "$GPUHIST")
	ok $((${grown:-99999} > 4096)) "peak memory does not grow with the result's size (grew ${grown:-?} KiB)"
fi
