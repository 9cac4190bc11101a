#!/bin/bash
# t2301-gzip-parallel-defects.t - two defects of the parallel gzip decoder,
# found by hostile testing: a member header candidate that fails, followed
# by another in the same 44-bit window of the search (a shift past 64 bits,
# caught by UBSan in the sanitizer build); and a stream with no block a
# region can start at (fixed-Huffman blocks only, zlib's Z_FIXED), whose
# memory grew with the file (its first task kept every byte it read)
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_cmd python3

cd "$TMP" || exit 1

# counts ARGS...: byte counts, the name column dropped.
counts() { "$GPUHIST" -b -f tsv "$@" 2>/dev/null | sed 1d | cut -f2-; }
# peak_kib ARGS...: gpuhist's peak resident memory, KiB.
peak_kib() {
	python3 -c 'import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' "$GPUHIST" "$@"
}

plan 7

# Peak memory means nothing under a sanitizer (shadow memory, quarantine).
sanitized=0
grep -q '__asan_init\|__tsan_init' "$GPUHIST" && sanitized=1

# Stored blocks whose bytes look like member headers over and over.
python3 -c 'import sys, zlib
c = zlib.compressobj(0, zlib.DEFLATED, 31)
data = bytes.fromhex("1f8b081f8b08000000000000") * 2000
sys.stdout.buffer.write(c.compress(data) + c.flush())' >headers.gz
gzip -dc headers.gz >plain
counts --raw plain >want
for t in 2 3 4; do
	GPUHIST_GZIP_REGION=64 counts --threads=$t headers.gz >got
	is "member-header lookalikes, 64-byte regions, $t threads: gzip -dc's counts" \
		"$(cmp -s got want && echo same)" same
done

# Fixed-Huffman blocks only, 32 and 96 MB of text; and the same after a
# member of ordinary (dynamic) blocks, which the regions do split.
python3 - <<'PY'
import random, zlib
random.seed(7)
words = [bytes(random.choice(b"abcdefghijklmnopqrstuvwxyz ")
               for _ in range(random.randint(2, 9))) for _ in range(3000)]
text = b" ".join(random.choice(words) for _ in range(1500000))[:8 << 20]
for name, t in (("fixed32", text * 4), ("fixed96", text * 12)):
    c = zlib.compressobj(1, zlib.DEFLATED, 31, 9, zlib.Z_FIXED)
    fixed = c.compress(t) + c.flush()
    open(name + ".gz", "wb").write(fixed)
    d = zlib.compressobj(6, zlib.DEFLATED, 31)
    open("mixed" + name[5:] + ".gz", "wb").write(
        d.compress(t[:3 << 20]) + d.flush() + fixed)
PY
gzip -dc fixed32.gz >plain
counts --raw plain >want
GPUHIST_GZIP_REGION=131072 counts --threads=4 fixed32.gz >got
is "fixed blocks only, 4 threads: gzip -dc's counts" \
	"$(cmp -s got want && echo same)" "same"
if [ $sanitized = 1 ]; then
	skip "fixed blocks only: memory flat" "a sanitizer build"
else
	# Bounded: 4 threads' symbols (16 MiB each), their input (4 MiB
	# each, then dropped) and regions, and the ring of chunks; it was 144
	# MB here, the whole file's compressed bytes held on top.
	big=$(GPUHIST_GZIP_REGION=131072 peak_kib --threads=4 fixed96.gz)
	ok $((big > 120 * 1024)) "fixed blocks only, 96 MB of text: memory bounded ($big KiB <= 120 MiB)"
fi

gzip -dc mixed32.gz >plain
counts --raw plain >want
GPUHIST_GZIP_REGION=131072 counts --threads=4 mixed32.gz >got
is "dynamic blocks, then a member of fixed ones, 4 threads: gzip -dc's counts" \
	"$(cmp -s got want && echo same)" same
# The same bound, a member of dynamic blocks first (it was 145 MB).
if [ $sanitized = 1 ]; then
	skip "... in parallel, memory bounded" "a sanitizer build"
else
	big=$(GPUHIST_GZIP_REGION=131072 peak_kib --threads=4 mixed96.gz)
	ok $((big > 120 * 1024)) "... in parallel, 96 MB of text: memory bounded ($big KiB <= 120 MiB)"
fi
