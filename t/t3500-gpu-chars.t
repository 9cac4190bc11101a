#!/bin/bash
# t3500-gpu-chars - -m on the GPU: its code points equal the CPU's and
# Python's (t/charoracle.py) on multilingual, CJK, ill-formed and random
# text, real translated man pages, through pipes and gzip, with chunks so
# small that most characters cross a chunk's edge, on one device and on
# every device there is
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_gpu
need_cmd python3
plan 20

cd "$TMP" || exit 1
for shape in mixed cjk invalid random; do
	python3 "$T_SRCDIR/gentext.py" $shape 5 3000000 >$shape
done

# same_chars DESCRIPTION FILE [OPTIONS...]: the GPU's -m -f tsv of FILE
# equals the oracle's.
same_chars() {
	local desc=$1 file=$2
	shift 2
	python3 "$T_SRCDIR/charoracle.py" "$file" >want
	"$GPUHIST" --backend=gpu -m -f tsv "$@" "$file" >got 2>err
	if [ $? -eq 0 ] && cmp -s want got; then
		ok 0 "$desc"
	else
		ok 1 "$desc"
		sed 's/^/# /' err | head -3
		diff want got | head -6 | sed 's/^/# /'
	fi
}

for shape in mixed cjk invalid random; do
	same_chars "$shape text: the GPU's code points are Python's" $shape
	same_chars "$shape text, 13-byte chunks read by 4 threads" $shape \
		--chunk-size=13 --threads=4
done
for cs in 4096 65537 1M; do
	same_chars "invalid text in chunks of $cs" invalid --chunk-size=$cs
done

# Through a pipe, in small chunks: every read's edge is a seam.
python3 "$T_SRCDIR/charoracle.py" cjk | sed 's/^cjk\t/-\t/' >want
cat cjk | "$GPUHIST" --backend=gpu -m -f tsv --chunk-size=1000 >got
same_file "cjk text through a pipe in 1000-byte chunks" got want

# gzip members that end inside a character.
head -c 1000001 cjk | gzip -1 >split.gz
tail -c +1000002 cjk | gzip -1 >>split.gz
python3 "$T_SRCDIR/charoracle.py" split.gz >want
"$GPUHIST" --backend=gpu -m -f tsv split.gz >got
same_file "two gzip members split inside a character" got want

# GPU and CPU agree on real translated man pages and on the total.
set -- $(ls /usr/share/man/??/man1/*.gz 2>/dev/null | head -40)
if [ $# -gt 0 ]; then
	"$GPUHIST" --backend=gpu -m -f json "$@" >gpu.json
	"$GPUHIST" --backend=cpu -m -f json "$@" >cpu.json
	same_file "$# translated man pages: GPU's json equals the CPU's" \
		gpu.json cpu.json
	python3 "$T_SRCDIR/charoracle.py" "$@" >want
	"$GPUHIST" --backend=gpu -m -f tsv --sort=bin "$@" >got
	same_file "translated man pages: the GPU's equal Python's" got want
else
	skip "translated man pages" "none under /usr/share/man/??"
	skip "translated man pages against Python" "none under /usr/share/man/??"
fi

# A large file on every device at once, and under auto.
for i in 1 2 3 4 5 6 7 8; do cat mixed cjk invalid; done >big
python3 "$T_SRCDIR/charoracle.py" big >want
"$GPUHIST" --backend=gpu --devices=all -m -f tsv big >got
same_file "every device: a 70 MB file's code points" got want
"$GPUHIST" --backend=auto -m -f tsv --threads=2 big >got
same_file "auto, CPU and GPU together: the same" got want
"$GPUHIST" --backend=gpu -m -i -f tsv --sort=bin big >got
python3 "$T_SRCDIR/charoracle.py" -i big >want
same_file "-m -i on the GPU: Python's simple case folding" got want

# One three-byte character and nothing else: the most a block's 16-bit
# counters can take between emptyings, in every round (a 64 MiB chunk
# gives each block many rounds).
python3 -c 'import sys; sys.stdout.buffer.write("日".encode() * 20000000)' >same3
is "60 MB of one ideograph: every one counted" \
	"$("$GPUHIST" --backend=gpu --chunk-size=64M --threads=1 --streams=1 \
	   -m -f tsv same3 | sed 1d)" \
	"$(printf 'same3\tU+65E5\t20000000')"
python3 -c 'import sys
sys.stdout.buffer.write("\u65e4\u65e5".encode() * 10000000)' >same3b
is "... and two, alternating in the halves of one counter word" \
	"$("$GPUHIST" --backend=gpu --chunk-size=64M --threads=1 --streams=1 \
	   -m -f tsv same3b | sed 1d | tr '\n' ' ')" \
	"$(printf 'same3b\tU+65E4\t10000000 same3b\tU+65E5\t10000000 ')"
