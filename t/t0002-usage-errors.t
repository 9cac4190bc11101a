#!/bin/sh
# t0002-usage-errors.t - misuse: exit 2, a message naming the option, a hint
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

# usage DESCRIPTION ERE ARGS...: gpuhist ARGS must exit 2 with nothing on
# stdout, a first stderr line "gpuhist: ..." matching ERE, and the hint.
usage() {
	desc=$1 pattern=$2
	shift 2
	run_gh "$@" </dev/null
	hint=$(sed -n 2p "$TMP/err")
	if [ "$rc" -eq 2 ] && [ ! -s "$TMP/out" ] &&
	   head -1 "$TMP/err" | grep -Eq -- "^gpuhist: .*$pattern" &&
	   [ "$hint" = "Try 'gpuhist --help' for more information." ] &&
	   [ "$(wc -l <"$TMP/err")" -eq 2 ]; then
		ok 0 "$desc"
	else
		ok 1 "$desc"
		diag "exit $rc, stdout $(wc -c <"$TMP/out") bytes, stderr:"
		sed 's/^/#   /' "$TMP/err"
	fi
}

plan 33

usage "unknown long option" "unrecognized option '--bogus'" --bogus
usage "unknown short option" "invalid option -- 'q'" -q
usage "unknown option after valid ones" "unrecognized option '--colour'" \
	-b --colour
usage "long option given an argument it does not take" "'--raw'" --raw=yes
usage "-w without its argument" "requires an argument -- 'w'" -w
usage "--width without its argument" "'--width' requires an argument" --width
usage "-w 0" "invalid width '0' for -w" -w 0
usage "-w 27" "invalid width '27' for -w" -w 27
usage "-w not a number" "invalid width 'four' for -w" -w four
usage "--width=5x" "invalid width '5x' for -w" --width=5x
usage "-f xml" "invalid format 'xml' for -f" -f xml
usage "--format= (empty)" "invalid format '' for -f" --format=
usage "--backend=fast" "invalid backend 'fast' for --backend" --backend=fast
usage "--chunk-size=0" "invalid size '0' for --chunk-size" --chunk-size=0
usage "--chunk-size=4X" "invalid size '4X' for --chunk-size" --chunk-size=4X
usage "--chunk-size over 2G" "invalid size '3G' for --chunk-size" \
	--chunk-size=3G
usage "--chunk-size that would wrap around" \
	"invalid size '17179869185G' for --chunk-size" --chunk-size=17179869185G
usage "--chunk-size=1iB (iB with no k, M or G)" \
	"invalid size '1iB' for --chunk-size" --chunk-size=1iB
usage "--chunk-size=1B (B with no k, M or G)" \
	"invalid size '1B' for --chunk-size" --chunk-size=1B
usage "--chunk-size=4kb" "invalid size '4kb' for --chunk-size" --chunk-size=4kb
usage "--chunk-size=3GB, over 2G in powers of 1000 too" \
	"invalid size '3GB' for --chunk-size" --chunk-size=3GB
usage "--threads=-1" "invalid count '-1' for --threads" --threads=-1
usage "--threads=1025" "invalid count '1025' for --threads \\(expected 0\\.\\.1024\\)" \
	--threads=1025
usage "--streams=0" "invalid count '0' for --streams" --streams=0
usage "--device=-1" "invalid device '-1' for --device" --device=-1
usage "--devices= (empty)" "invalid list '' for --devices" --devices=
usage "--devices=0,,1" "invalid list '0,,1' for --devices" --devices=0,,1
usage "--devices=0,-1" "invalid list '0,-1' for --devices" --devices=0,-1
usage "--devices=all,0" "invalid list 'all,0' for --devices" --devices=all,0
usage "--devices with 17 entries" "invalid list '0(,0)+' for --devices" \
	--devices=0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0
usage "two views (-b and -c)" "options -b and -c select different views" -b -c
usage "two views (-c and -w)" "options -c and -w select different views" \
	-c -w 3
usage "--field twice, different (one key at a time)" \
	"--field given twice \\(1 and 2\\): one key is counted at a time" \
	--field=1 --field=2
