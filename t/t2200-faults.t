#!/bin/bash
# t2200-faults.t - injected read and close errors, signals, special files,
# and files that vanish, shrink or grow while they are read
#
# Faults are injected with strace (-e inject=SYSCALL:error=...), on the one
# file named with -P, so the other inputs read normally; the tests that need
# it are skipped where strace is missing or ptrace is not permitted.
#
# The rule for a regular file that changes while it is read: read in order
# (one reader), it is counted up to where its end was seen, a prefix of it,
# exit 0 (as cat and wc do); read by several readers, the same, unless one
# reader found the end and another then read bytes past it, when the input
# fails with "file changed size while being read" (exit 1).  Unlinking a
# file that is open changes nothing: it is counted in full.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_cmd python3
need_cmd gzip

plan 29

cd "$TMP" || exit 1
gendata 91 300000 >good1
gendata 92 200000 >good2
gendata 93 600000 >victim
gzip -c victim victim victim >victim.gz          # several 256 KiB refills
printf 'hello\n' >small
oracle -c good1 good2 >want 2>/dev/null

if command -v strace >/dev/null 2>&1 &&
   strace -f -qq -o /dev/null true 2>/dev/null; then
	have_strace=1
else
	have_strace=
	why_no_strace="strace is missing or ptrace is not permitted"
fi
# LeakSanitizer (in --enable-sanitizers builds) cannot run under ptrace.
strace_env="ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"

# faulty DESCRIPTION INJECT OPTIONS... -- FILES...: runs gpuhist under
# strace with -e inject=INJECT on $TMP/victim or $TMP/victim.gz (whichever
# FILES name); output in out, stderr in err, exit status in $rc.
faulty() {
	local target
	case " $* " in
	*" victim.gz "*) target=$TMP/victim.gz ;;
	*) target=$TMP/victim ;;
	esac
	env "$strace_env" strace -f -qq -o strace.log -P "$target" \
		-e trace=read,pread64,close -e inject="$1" \
		"$GPUHIST" "${@:2}" >out 2>err
	rc=$?
	err=$(cat err)
}

# read_error DESCRIPTION INJECT OPTIONS...: the victim between two good
# files fails with a read error; the good ones are counted exactly.
read_error() {
	local desc=$1 inject=$2 victim=$3
	shift 3
	if [ -z "$have_strace" ]; then
		skip "$desc: exit 1, a read error naming it" "$why_no_strace"
		skip "$desc: the other inputs counted exactly" "$why_no_strace"
		return
	fi
	faulty "$inject" "$@" -c -f tsv good1 "$victim" good2
	is "$desc: exit 1, a read error naming it" "$rc:$err" \
		"1:gpuhist: $victim: read error: Input/output error"
	same_file "$desc: the other inputs counted exactly" out want
}

read_error "EIO in the middle, one reader" read:error=EIO:when=4 victim \
	--threads=1 --chunk-size=64k
# Three operands counted at once share --threads readers: 6 gives the
# victim 2 readers of its own, which read with pread.
read_error "EIO in the middle, several readers" pread64:error=EIO:when=3 \
	victim --threads=6 --chunk-size=64k
read_error "EIO in the middle of gzip" read:error=EIO:when=3 victim.gz
read_error "EIO on the first read (gzip detection)" read:error=EIO:when=1 \
	victim

# EINTR is retried, never taken for an error or an end.
oracle -c good1 victim good2 >want-victim
oracle -c good1 victim.gz good2 >want-victim.gz
# eintr SYSCALL FILE OPTIONS...: EINTR on every other SYSCALL reading FILE.
eintr() {
	local syscall=$1 file=$2 desc
	shift 2
	desc="EINTR on every other $syscall of $file${1:+ ($*)}"
	if [ -z "$have_strace" ]; then
		skip "$desc: exit 0" "$why_no_strace"
		skip "$desc: counted exactly" "$why_no_strace"
		return
	fi
	faulty "$syscall:error=EINTR:when=2+2" "$@" -c -f tsv good1 "$file" good2
	is "$desc: exit 0" "$rc:$err" "0:"
	same_file "$desc: counted exactly" out "want-$file"
}
eintr read victim --threads=1 --chunk-size=64k
eintr pread64 victim --threads=6 --chunk-size=64k     # 2 readers each
eintr read victim.gz

if [ -n "$have_strace" ]; then
	faulty close:error=EIO -c -f tsv good1 victim good2
	is "close fails: exit 1, a message naming the input" "$rc:$err" \
		"1:gpuhist: victim: close: Input/output error"
	same_file "close fails: the other inputs counted exactly" out want
else
	skip "close fails: exit 1, a message" "$why_no_strace"
	skip "close fails: the other inputs counted exactly" "$why_no_strace"
fi

# A write error in the middle of a long output (t0003 has short ones).
if [ -w /dev/full ]; then
	set -- $(for i in $(seq 200); do echo small; done)
	"$GPUHIST" -b -f tsv "$@" >/dev/full 2>err
	is "200 x 256 rows to /dev/full: exit 1, one message" "$?:$(cat err)" \
		"1:gpuhist: write error: No space left on device"
else
	skip "a long output to /dev/full" "no writable /dev/full"
fi

# Signals in the middle of a long run: gpuhist dies of the signal at once
# (status 128 + N as the shell sees it); the inputs finished before are
# written, no total is.  Background
# jobs of a script ignore SIGINT unless env --default-signal restores it.
# interrupted SIGNAL STATUS ROWS DESCRIPTION PID: once gpuhist (PID, started
# in the background on small and an endless input) has written small's ROWS
# and read 1 MB, sends it SIGNAL and checks that it ends within 5 s with
# STATUS, small's rows still there and no total.  (Reading 1 MB alone is no
# sign that small was reported: inputs counted at once may read the endless
# one before the main thread writes small's rows, and on a loaded 2-core CI
# machine, once did.)  (No watchdog subshell to kill afterwards: a
# subshell killed before it has reset its traps would run lib.sh's EXIT
# trap, removing $TMP.)
interrupted() {
	local sig=$1 want=$2 rows=$3 desc=$4 pid=$5 status t0 t1 rchar state
	for _ in $(seq 600); do
		rchar=$(sed -n 's/^rchar: //p' /proc/$pid/io 2>/dev/null)
		[ "${rchar:-0}" -gt 1000000 ] &&
			[ "$(grep -c '^small' out)" = "$rows" ] && break
		sleep 0.05
	done
	[ "$(grep -c '^small' out)" = "$rows" ] ||
		diag "$desc: small not yet written after 30 s; signalled anyway"
	t0=$(date +%s%N)
	kill -s "$sig" $pid
	for _ in $(seq 250); do
		state=$(sed 's/.*) \(.\).*/\1/' /proc/$pid/stat 2>/dev/null)
		[ "${state:-Z}" = Z ] && break   # ended (not reaped until wait)
		sleep 0.02
	done
	t1=$(date +%s%N)
	[ "${state:-Z}" = Z ] || kill -s KILL $pid
	wait $pid
	status=$?
	diag "$desc: status $status after $(( (t1 - t0) / 1000000 )) ms"
	[ $(( (t1 - t0) / 1000000 )) -le 5000 ] || status="$status, too late"
	is "$desc: ends at once, status $want, the input before written, no total" \
		"$status:$(grep -c '^small' out):$(grep -c '^total' out)" \
		"$want:$rows:0"
}
if env --default-signal=INT true 2>/dev/null; then
	yes | env --default-signal=INT "$GPUHIST" --threads=1 -b -f tsv \
		small - >out 2>err &
	interrupted INT 130 256 "SIGINT, yes | gpuhist (one reader)" $!
	gzip -1 </dev/urandom |
		env --default-signal=INT "$GPUHIST" -b -f tsv small - >out 2>err &
	interrupted INT 130 256 "SIGINT, an endless gzip stream" $!
else
	skip "SIGINT, yes | gpuhist" "no env --default-signal (coreutils 8.31)"
	skip "SIGINT, an endless gzip stream" "no env --default-signal"
fi
"$GPUHIST" --threads=1 -c -f tsv small /dev/zero >out 2>err &
interrupted TERM 143 7 "SIGTERM, /dev/zero as an operand" $!
if truncate -s 100G sparse 2>/dev/null; then
	# Two operands at once, --threads=4: 2 readers for the sparse file.
	"$GPUHIST" --threads=4 -c -f tsv small sparse >out 2>err &
	interrupted TERM 143 7 "SIGTERM, a 100 GB sparse file, several readers" $!
	rm -f sparse
else
	skip "SIGTERM, a sparse file, several readers" "cannot make one"
fi

# Special files: /dev/null is empty; /proc/version is a regular file whose
# size is 0 on stat() but which has bytes to read.
run_gh -b -f json /dev/null
is "/dev/null as an input: exit 0, 0 bytes" "$rc:$err:$(python3 -c '
import json, sys
print(json.load(open(sys.argv[1]))["total"]["bytes_read"])' out)" "0::0"
if [ -r /proc/version ]; then
	cat /proc/version | oracle -b | sed 's|^-	|/proc/version	|' >want-proc
	for threads in 1 2; do
		"$GPUHIST" --threads=$threads -b -f tsv /proc/version >got
		same_file "/proc/version (size 0 on stat), --threads=$threads" \
			got want-proc
	done
else
	skip "/proc/version, one reader" "no /proc/version"
	skip "/proc/version, several readers" "no /proc/version"
fi

# Unlinked while open: counted in full.
oracle -b victim | sed 1d | cut -f2- >want-victim
cp victim gone
{ rm gone; "$GPUHIST" -b -f tsv | sed 1d | cut -f2- >got; } <gone
same_file "stdin whose file was unlinked before reading: counted in full" \
	got want-victim
cp victim gone
exec 3<gone
rm gone
"$GPUHIST" -b -f tsv /dev/fd/3 | sed 1d | cut -f2- >got
exec 3<&-
same_file "/dev/fd/N of an unlinked file: counted in full" got want-victim

# Files that change while gpuhist reads them slowly (every read of the file
# delayed 50 ms, 4 KiB at a time): 32 blocks of 4 KiB, each of a byte value
# of its own, so that any count that is not of a prefix shows.
python3 -c 'import sys
sys.stdout.buffer.write(b"".join(bytes([65 + i]) * 4096 for i in range(32)))' \
	>blocks
# slowly WHAT ACTION: reads a copy of blocks with one reader under strace,
# and runs ACTION on it (rm or truncate) after 5 reads have returned.
slowly() {
	local pid reads
	cp blocks changing
	rm -f strace.log
	env "$strace_env" strace -f -qq -o strace.log -P "$TMP/changing" \
		-e trace=read -e inject=read:delay_enter=50000 \
		"$GPUHIST" --threads=1 --chunk-size=4k -b -f json changing \
		>out 2>err &
	pid=$!
	for _ in $(seq 1000); do
		reads=$(grep -c '= 4096' strace.log 2>/dev/null)
		[ "${reads:-0}" -ge 5 ] && break
		sleep 0.02
	done
	[ "${reads:-0}" -ge 5 ] || diag "only ${reads:-0} reads after 20 s"
	eval "$1"
	wait $pid
	rc=$?
	err=$(cat err)
}
# prefix_of FILE JSON: whether JSON's only input counts a prefix of FILE;
# prints its length.
prefix_of() {
	python3 -c 'import collections, json, sys
data = open(sys.argv[1], "rb").read()
entry = json.load(open(sys.argv[2]))["inputs"][0]
k = entry["bytes_read"]
c = collections.Counter(data[:k])
print(k)
sys.exit(entry["histogram"] != [c[v] for v in range(256)])' "$@"
}
if [ -n "$have_strace" ]; then
	slowly 'rm changing'
	k=$(prefix_of blocks out)
	is "unlinked while read: exit 0, counted in full" \
		"$rc:$err:$?:$k" "0::0:131072"
	slowly 'truncate -s 10000 changing'
	k=$(prefix_of blocks out)
	prefix=$?
	is "truncated while read (one reader): exit 0, a prefix counted" \
		"$rc:$err:$prefix" "0::0"
	diag "truncated to 10000 bytes, $k counted"
else
	skip "unlinked while read" "$why_no_strace"
	skip "truncated while read (one reader)" "$why_no_strace"
fi

# Grown while read by two readers, in the order that would leave a gap:
# the reader thread (started while the main thread is held in clone3)
# takes the first chunk and finds the end at 2048; the main thread takes
# the second chunk and reads it, every pread being held 0.5 s, after 10240
# more bytes were appended.
if [ -n "$have_strace" ]; then
	head -c 2048 blocks >growing
	rm -f strace.log
	env "$strace_env" strace -f -qq -o strace.log -e trace=pread64,clone3 \
		-e inject=pread64:delay_enter=500000 \
		-e inject=clone3:delay_exit=750000 \
		"$GPUHIST" --backend=cpu --threads=2 --chunk-size=4k -b -f json \
		growing >out 2>err &
	pid=$!
	for _ in $(seq 500); do
		grep -q '2048, 2048) = 0' strace.log 2>/dev/null && break
		sleep 0.02
	done
	tail -c +2049 blocks | head -c 10240 >>growing
	wait $pid
	rc=$?
	err=$(cat err)
	if [ "$rc" = 0 ]; then
		prefix_of growing out >/dev/null
		prefix=$?
		is "grown between two readers' reads: a prefix, or an error" \
			"$rc:$prefix" "0:0"
		[ $prefix = 0 ] &&
			diag "the readers' order did not leave a gap this time"
	else
		is "grown between two readers' reads: a prefix, or an error" \
			"$rc:$err" \
			"1:gpuhist: growing: file changed size while being read"
	fi
else
	skip "grown between two readers' reads" "$why_no_strace"
fi
