#!/bin/bash
# t2308-shapes-formats.t - every shape of log (bench/corpus/loggen's) in
# every format the corpus holds (gzip -1 and -9, pigz, bgzip, zstd -3 and
# -19, pzstd, xz in blocks, bzip2 in blocks, lz4): its bytes, words,
# lines, first field and code points (-m) on 4 threads in 4 KiB chunks,
# which cut tokens, are the plain file's; the plain file's tokens are
# Python's (tokenoracle.py), so each compressed file's are too.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_cmd python3
LOGGEN=${LOGGEN:-$ABS_BUILDDIR/bench/corpus/loggen}
[ -x "$LOGGEN" ] || skip_all "no $LOGGEN (make check builds it)"

cd "$TMP" || exit 1

shapes="access syslog json app csv"
formats="gz1 gz9 pigz bgzf zst3 zst19 pzstd xz bz2 lz4"
plan $((5 * 3 + 5 * 10))

"$GPUHIST" --version -v >version 2>&1
# built FORMAT: whether this gpuhist decodes FORMAT (a build may leave
# zstd, xz, bzip2 or lz4 out; gzip is always in).
built() { grep '^decodes:' version | grep -q "$1\\($\\|,\\)"; }

# pack FORMAT FILE: FILE compressed as the corpus's FORMAT, on stdout;
# xz and bzip2 in several blocks, so that they decode in parallel.
pack() {
	case $1 in
	gz1) gzip -1 -n -c "$2" ;;
	gz9) gzip -9 -n -c "$2" ;;
	pigz) pigz -6 -n -p 2 -c "$2" ;;
	bgzf) bgzip -l 6 -c "$2" ;;
	zst3) zstd -q -3 -c "$2" ;;
	zst19) zstd -q -19 -c "$2" ;;
	pzstd) pzstd -q -p 2 -c "$2" ;;
	xz) xz -1 -T2 --block-size=300000 -c "$2" ;;
	bz2) bzip2 -1 -c "$2" ;;
	lz4) lz4 -q -c "$2" ;;
	esac
}
tool_of() {
	case $1 in gz*) echo gzip ;; zst*) echo zstd ;; bgzf) echo bgzip ;;
	bz2) echo bzip2 ;; *) echo "$1" ;; esac
}
format_of() {
	case $1 in gz*|pigz|bgzf) echo gzip ;; zst*|pzstd) echo zstd ;;
	bz2) echo bzip2 ;; *) echo "$1" ;; esac
}

# views FILE ARGS...: FILE's bytes, words, lines, first field and code
# points, one file each (view.b, view.t, ...), the input's name dropped.
views() {
	local f=$1 v
	shift
	for v in -b -t --lines --field=1 -m; do
		"$GPUHIST" $v -f tsv "$@" "$f" 2>&1 | sed "1d; s/^[^\t]*\t//" \
			>"view$v"
	done
}

for s in $shapes; do
	"$LOGGEN" $s 1500000 3 >$s.log
	for v in words lines field:1; do
		# shellcheck disable=SC2046
		check_tokens "$s.log, $v: Python's" "$v" $s.log \
			$(token_args "$v") --threads=4 --chunk-size=4k $s.log
	done
	views $s.log --threads=1
	mkdir -p want.$s
	mv view-* want.$s/
	for f in $formats; do
		tool=$(tool_of $f)
		if ! command -v $tool >/dev/null; then
			skip "$s as $f: the plain file's views" "no $tool"
			continue
		fi
		if [ "$(format_of $f)" != gzip ] && ! built "$(format_of $f)"; then
			skip "$s as $f: the plain file's views" \
			     "$(format_of $f) not built in"
			continue
		fi
		pack $f $s.log >$s.$f
		views $s.$f --threads=4 --chunk-size=4k
		differ=""
		for v in -b -t --lines --field=1 -m; do
			cmp -s "view$v" "want.$s/view$v" || differ="$differ $v"
		done
		is "$s as $f: bytes, words, lines, field 1 and -m the plain file's" \
			"${differ:-none differ}" "none differ"
	done
done
