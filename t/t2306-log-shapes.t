#!/bin/bash
# t2306-log-shapes.t - logs as servers write them (bench/corpus/loggen's
# shapes: an access log of repeated clients, syslog, JSON lines, an
# application log with stack traces, CSV) through the parallel gzip
# decoder, whose regions are cut by the ratio the data shows: bytes equal
# gzip -dc's, words, lines and fields equal Python's, -m equals the plain
# file's, with regions cut for few and for many decoded bytes and chunks
# that cut tokens; the access log's first field through every other
# format; and the generator itself: seeded, the same bytes every time,
# heavy-tailed.
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_cmd python3
need_cmd gzip
LOGGEN=${LOGGEN:-$ABS_BUILDDIR/bench/corpus/loggen}
[ -x "$LOGGEN" ] || skip_all "no $LOGGEN (make check builds it)"

cd "$TMP" || exit 1

shapes="access syslog json app csv"
plan 50

# counts ARGS...: byte counts, the name column dropped.
counts() { "$GPUHIST" -b -f tsv "$@" 2>/dev/null | sed 1d | cut -f2-; }

for s in $shapes; do
	"$LOGGEN" $s 6000000 >$s.log
	gzip -6 -n -c $s.log >$s.gz
done

# The generator: the same bytes for the same seed, others for another;
# the access log's clients heavy-tailed (the commonest makes 1 % or more
# of the lines, and there are thousands), every line whole.
a=$("$LOGGEN" access 200000 7 | md5sum)
b=$("$LOGGEN" access 200000 7 | md5sum)
c=$("$LOGGEN" access 200000 8 | md5sum)
is "loggen: seeded, the same bytes twice" "$([ "$a" = "$b" ] && [ "$a" != "$c" ] && echo yes)" yes
is "loggen: clients heavy-tailed, lines whole" "$(python3 - <<'PY'
from collections import Counter
d = open("access.log", "rb").read()
lines = d.split(b"\n")
ok = d.endswith(b"\n") and lines[-1] == b""
c = Counter(l.split(b" ")[0] for l in lines[:-1])
top = c.most_common(1)[0][1]
print("yes" if ok and top * 100 >= len(lines) and len(c) >= 2000 else
      "no: top %d of %d lines, %d clients" % (top, len(lines), len(c)))
PY
)" yes

for s in $shapes; do
	counts --raw $s.log >want
	counts --threads=4 $s.gz >got
	same_file "$s.gz: bytes as gzip -dc's, regions cut by the ratio" got want
	GPUHIST_GZIP_REGION_OUT=4096 counts --threads=4 $s.gz >got
	same_file "$s.gz: the same, regions cut for 4 KiB (the least region)" got want
	GPUHIST_GZIP_REGION_OUT=1000000000 counts --threads=3 $s.gz >got
	same_file "$s.gz: the same, regions cut for 1 GB (the most)" got want
	"$GPUHIST" -b -v --threads=4 $s.gz 2>err >/dev/null
	like "$s.gz: decoded in parallel, not by the serial decoder" \
		"$(cat err)" 'decoded by 4 threads'
	for v in words lines field:1; do
		# shellcheck disable=SC2046
		check_tokens "$s.gz, $v, 4 threads, 4 KiB chunks" "$v" $s.log \
			$(token_args "$v") --threads=4 --chunk-size=4k $s.gz
	done
	"$GPUHIST" -m -f tsv $s.log >want 2>&1
	"$GPUHIST" -m -f tsv --threads=4 --chunk-size=5 $s.gz >got 2>&1
	sed -i "1d; s/^[^\t]*\t//" want got
	same_file "$s.gz: -m as the plain file's" got want
done

# The access log's first field through every format a log arrives in.
pack() {
	case $1 in
	gzip9) gzip -9 -n -c access.log ;;
	pigz) pigz -6 -n -p 2 -c access.log ;;
	bgzip) bgzip -l 6 -c access.log ;;
	zstd) zstd -q -3 -c access.log ;;
	pzstd) pzstd -q -p 2 -c access.log ;;
	xz) xz -T2 --block-size=500000 -c access.log ;;
	bzip2) bzip2 -c access.log ;;
	lz4) lz4 -q -c access.log ;;
	esac
}
"$GPUHIST" --version -v >version 2>&1
# built FORMAT: whether this gpuhist decodes FORMAT (a build may leave
# zstd, xz, bzip2 or lz4 out; gzip is always in).
built() { grep '^decodes:' version | grep -q "$1\\($\\|,\\)"; }
for f in gzip9 pigz bgzip zstd pzstd xz bzip2 lz4; do
	tool=${f%9}
	format=$(case $f in gzip9|pigz|bgzip) echo gzip ;; pzstd) echo zstd ;;
		 *) echo $f ;; esac)
	if ! command -v $tool >/dev/null; then
		skip "access log as $f, field 1" "no $tool"
		continue
	fi
	if [ $format != gzip ] && ! built $format; then
		skip "access log as $f, field 1" "$format not built in"
		continue
	fi
	pack $f >access.$f
	check_tokens "access log as $f, field 1, 4 threads" field:1 access.log \
		--field=1 --threads=4 access.$f
done
