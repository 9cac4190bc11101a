#!/bin/bash
# t1017-columns.t - --columns: tsv and csv rows with the bin's label, its
# share and the input's bytes read, counted and entropy, read back by
# Python's csv module and checked against Python's own counts; without it
# the rows are as before; misuse is a usage error (issue "What users see",
# item 7)
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_cmd python3
need_cmd gzip

cd "$TMP" || exit 1
gen log 30000 >text
printf 'a,b;"quoted"\ttab\\back\n\001\377 end' >>text
gzip -c text >text.gz
python3 "$T_SRCDIR/gentext.py" mixed 3 20000 >utf8

# check FORMAT VIEW FILE DATA: gpuhist's rows read back by Python's csv
# module agree with Python's count of DATA (the decoded bytes).
check() {
	python3 - "$@" <<'PY'
import collections, csv, math, subprocess, sys
fmt, view, path, data_path, gpuhist = sys.argv[1:6]
data = open(data_path, "rb").read()
out = subprocess.run([gpuhist, view, "-f", fmt, "--columns",
                      "label,share,bytes_read,counted,entropy", path],
                     capture_output=True, text=True, check=True).stdout
# tsv quotes nothing (it escapes): read it so, as pandas' quoting=3.
rows = list(csv.reader(out.splitlines(), delimiter="\t",
                       quoting=csv.QUOTE_NONE) if fmt == "tsv"
            else csv.reader(out.splitlines()))
head, body = rows[0], rows[1:]
assert head == ["input", "bin", "count", "label", "share", "bytes_read",
                "counted", "entropy"], head
bytes_counts = collections.Counter(data)
n = len(data)
if view == "-m":
    text = data.decode("utf-8", "surrogateescape")
    n = len(text)
    want = collections.Counter(text)
else:
    want = bytes_counts
p = [c / len(data) for c in bytes_counts.values()]
ent = sum(x * math.log2(1 / x) for x in p)
total = 0
for name, bin_, count, label, share, read, counted, entropy in body:
    count = int(count)
    total += count
    assert name == path, name
    assert int(read) == len(data), (read, len(data))
    assert int(counted) == n, (counted, n)
    assert abs(float(share) - count / n) < 1e-6, (share, count, n)
    if view == "-b":
        assert count == want[int(bin_)], (bin_, count)
        b = int(bin_)
        if 0x21 <= b <= 0x7e and b != 0x5c:    # the table's label
            assert label == chr(b), (b, label)
        elif b < 0x20:
            assert label.startswith(("0x", "\\")), (b, label)
    if view != "-m":
        assert abs(float(entropy) - ent) < 1e-5, (entropy, ent)
assert total == n, (total, n)
assert len(body) == (256 if view == "-b" else len(body))
print("ok")
PY
}

plan 8

is "-b as csv (a name, and bytes, with commas, quotes, a tab, a backslash): Python's csv reads back Python's counts, shares, bytes, entropy" \
	"$(check csv -b text text "$GPUHIST" 2>&1)" ok
is "-b as tsv: the same, read back with the tab as delimiter" \
	"$(check tsv -b text text "$GPUHIST" 2>&1)" ok
is "-b of the gzip file: bytes_read and counted are the decoded bytes, as the table's" \
	"$(check csv -b text.gz text "$GPUHIST" 2>&1)" ok
is "-m as tsv: counted is the code points, shares of them" \
	"$(check tsv -m utf8 utf8 "$GPUHIST" 2>&1)" ok
is "without --columns the rows are as before: input, bin, count" \
	"$("$GPUHIST" -b -f tsv text | head -1):$("$GPUHIST" -c -f csv text | head -1)" \
	"input	bin	count:input,bin,count"
"$GPUHIST" -f json --columns=share text >/dev/null 2>err
is "--columns with -f json: a usage error, exit 2" \
	"$?:$(head -1 err)" \
	"2:gpuhist: option --columns applies to -f tsv and -f csv only (json has these fields already)"
"$GPUHIST" -f csv --columns=share,label,share text >/dev/null 2>err
is "--columns naming one twice: a usage error, exit 2" \
	"$?:$(head -1 err)" \
	"2:gpuhist: invalid column 'share' for --columns (expected label, share, bytes_read, counted or entropy, each once)"
"$GPUHIST" -s -f csv --columns=share text >/dev/null 2>err
is "--columns with -s: a usage error, exit 2" \
	"$?:$(head -1 err)" \
	"2:gpuhist: option --columns cannot be combined with -s: its rows are ent's figures"
