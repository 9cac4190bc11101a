#!/usr/bin/env python3
"""python-check.py - TAP test of the gpuhist Python module (python/).

Usage: python-check.py GPUHIST TEXT TEXT.gz UTF8 BAD.gz [REAL.gz ...]

Every answer is checked against an independent one: the totals against
`gpuhist -f json` on the same files and against Python counting the bytes
itself, the Counter against Python's own UTF-8 decode (surrogateescape),
ent's figures against `gpuhist -s -f json`, a Stream fed in odd pieces
against the whole file, and errors against the messages gpuhist prints.
"""
import collections
import gzip
import json
import math
import re
import statistics
import subprocess
import sys

import gpuhist

n = 0
failed = 0


def ok(cond, what):
    global n, failed
    n += 1
    if not cond:
        failed += 1
    print("%sok %d - %s" % ("" if cond else "not ", n, what))


def cli_json(*args):
    out = subprocess.run([GPUHIST, "-f", "json"] + list(args),
                         capture_output=True, check=False).stdout
    return json.loads(out)


def cli_totals(path):
    bins = cli_json("-b", path)["inputs"][0]["bins"]
    return [b["count"] for b in bins]


def as_list(totals):
    return [int(x) for x in totals]


GPUHIST, TEXT, TEXT_GZ, UTF8, BAD_GZ = sys.argv[1:6]
REAL = sys.argv[6:]
text = open(TEXT, "rb").read()
utf8 = open(UTF8, "rb").read()
want = [0] * 256
for b in text:
    want[b] += 1

print("1..%d" % (34 + len(REAL)))
ok(gpuhist.version() == subprocess.run(
    [GPUHIST, "--version"], capture_output=True, text=True
).stdout.split()[1], "gpuhist.version() is the command's: %s"
   % gpuhist.version())
got = gpuhist.count(TEXT, backend="cpu")
ok(as_list(got) == want, "count(path): Python's own count of the bytes")
try:
    import numpy
    ok(isinstance(got, numpy.ndarray) and got.dtype == numpy.uint64,
       "numpy is installed: a numpy array of uint64")
except ImportError:
    ok(isinstance(got, list), "numpy is not installed: a list")
ok(as_list(gpuhist.count(TEXT_GZ)) == want,
   "count(path.gz): decoded, the text's counts")
ok(as_list(gpuhist.count(open(TEXT_GZ, "rb").read())) == want,
   "count(bytes of gzip): decoded, the text's counts")
with open(TEXT_GZ, "rb") as f:
    ok(as_list(gpuhist.count(f)) == want,
       "count(open file of gzip): decoded, the text's counts")
raw = [0] * 256
for b in open(TEXT_GZ, "rb").read():
    raw[b] += 1
ok(as_list(gpuhist.count(TEXT_GZ, raw=True)) == raw,
   "count(path.gz, raw=True): the file's own bytes")
for path in REAL:
    ok(as_list(gpuhist.count(path)) == cli_totals(path)
       and as_list(gpuhist.count(path)) == as_list(
           gpuhist.count(gzip.open(path).read())),
       "%s: gpuhist -f json's counts, and Python's gzip's" % path)

chars = gpuhist.count(UTF8, view="chars")
ok(chars == collections.Counter(utf8.decode("utf-8", "surrogateescape")),
   "view='chars': Counter(data.decode('utf-8', 'surrogateescape')), "
   "%d distinct" % len(chars))
odd = b"a\xc3\xa9\xff\xe2\x82" + "😀".encode() + b"\xed\xa0\x80z"
ok(gpuhist.count(odd, chars=True) ==
   collections.Counter(odd.decode("utf-8", "surrogateescape")),
   "chars=True on ill-formed UTF-8 (a lone 0xff, a cut sequence, an "
   "encoded surrogate): Python's surrogateescape decode")

stats = gpuhist.count(TEXT, view="stats")
cli = cli_json("-s", TEXT)["inputs"][0]["stats"]
same = all(abs(stats[k] - cli[k]) < 1e-6 * max(1.0, abs(cli[k]))
           for k in ("entropy", "chi_square", "chi_square_p", "mean", "pi",
                     "pi_error", "serial_correlation"))
ok(same and all(stats[k] == cli[k] for k in ("pairs", "groups", "hits"))
   and stats["bytes"] == len(text),
   "view='stats': gpuhist -s -f json's figures (entropy %.6f, pi %.9f)"
   % (stats["entropy"], stats["pi"]))

gz = open(TEXT_GZ, "rb").read()
s = gpuhist.Stream()
for i in range(0, 20000):
    s.write(gz[i:i + 1])
for i in range(20000, len(gz), 7):
    s.write(gz[i:i + 7])
ok(as_list(s.close()) == want and as_list(s.result) == want,
   "Stream: gzip written 1 byte, then 7 bytes at a time: the text's counts")
with gpuhist.Stream(view="chars") as s:
    for i in range(0, len(utf8), 4096):
        s.write(utf8[i:i + 4096])
ok(s.result == collections.Counter(utf8.decode("utf-8", "surrogateescape")),
   "Stream as a context manager, chars in 4096-byte writes: Python's "
   "decode")

try:
    gpuhist.count("no/such/file")
    ok(False, "a missing file raises gpuhist.Error")
except gpuhist.Error as e:
    ok(str(e) == "no/such/file: No such file or directory" and
       e.status == gpuhist.STATUS_INPUT,
       "a missing file raises gpuhist.Error: %s" % e)
err = subprocess.run([GPUHIST, BAD_GZ], capture_output=True,
                     text=True).stderr.strip()
try:
    gpuhist.count(BAD_GZ)
    ok(False, "corrupt gzip raises gpuhist.Error")
except gpuhist.Error as e:
    ok("gpuhist: " + str(e) == err,
       "corrupt gzip raises gpuhist.Error with gpuhist's message: %s" % e)
try:
    with gpuhist.Stream(name="feed") as s:
        bad = open(BAD_GZ, "rb").read()
        for i in range(0, len(bad), 1000):
            s.write(bad[i:i + 1000])
    ok(False, "a Stream of corrupt gzip raises gpuhist.Error")
except gpuhist.Error as e:
    ok(str(e) == "feed: " + err.split(": ", 2)[2] and
       e.status == gpuhist.STATUS_INPUT,
       "a Stream of corrupt gzip raises gpuhist.Error naming it, with "
       "gpuhist's reason: %s" % e)
try:
    gpuhist.count(TEXT, view="letters")
    ok(False, "an unknown view raises ValueError")
except ValueError:
    ok(True, "an unknown view raises ValueError")

# The tokens views, against Python splitting the same bytes.
lines = text.split(b"\n")
if lines and lines[-1] == b"":
    lines.pop()
words = gpuhist.count(TEXT_GZ, view="words")
ok(words == collections.Counter(re.findall(rb"[^ \t\r\n]+", text)),
   "view='words' of the .gz: a Counter of bytes, re.findall's (%d distinct)"
   % len(words))
ok(gpuhist.count(TEXT, view="lines") == collections.Counter(lines),
   "view='lines': Counter(data.split(b'\\n')), a last empty piece dropped")
second = collections.Counter(
    (f[1] if len(f) > 1 else b"") for f in (l.split(b" ") for l in lines))
ok(gpuhist.count(TEXT, view="field", field=2, separator=b" ") == second,
   "view='field', field=2, separator=b' ': line.split(b' ')[1], or b''")
gz = open(TEXT_GZ, "rb").read()
with gpuhist.Stream(view="field", field=2, separator=b" ") as s:
    for at in range(0, len(gz), 1000):
        s.write(gz[at:at + 1000])
ok(s.result == second,
   "a Stream of the .gz in 1000-byte writes, view='field': count()'s")

# A separator given as str; counts held to memory= and spilled; top=.
ok(gpuhist.count(TEXT, view="field", field=2, separator=" ") == second,
   "separator=' ' (a str) counts as separator=b' '")
try:
    gpuhist.count(TEXT, view="field", field=2, separator="ab")
    ok(False, "separator='ab' raises ValueError")
except ValueError:
    ok(True, "separator='ab' raises ValueError")
spilled = gpuhist.count(TEXT_GZ, view="words", memory=64 << 10)
ok(spilled == words,
   "view='words', memory=64 KiB (spilled, read back in parts): the same "
   "Counter (%d distinct)" % len(spilled))
with gpuhist.Stream(view="lines", memory=64 << 10) as s:
    s.write(text)
ok(s.result == collections.Counter(lines),
   "a Stream of lines with memory=64 KiB: Counter(lines)")
want = sorted(words.items(), key=lambda kv: (-kv[1], kv[0]))[:7]
top = gpuhist.count(TEXT_GZ, view="words", top=7, memory=64 << 10)
ok(sorted(top.items(), key=lambda kv: (-kv[1], kv[0])) == want,
   "top=7, spilled: the 7 commonest words, equal counts in byte order "
   "(gpuhist --top's rule)")
try:
    gpuhist.count(TEXT, view="bytes", memory=1 << 20)
    ok(False, "memory= with view='bytes' raises ValueError")
except ValueError:
    ok(True, "memory= with view='bytes' raises ValueError")

# view="values": the access log's size field, against Python's exact sort
# and sum, the command's json, a Stream, and precision=.
sizes = [int(line.split()[9]) for line in lines
         if len(line.split()) >= 10 and line.split()[9].isdigit()]
v = gpuhist.count(TEXT, view="values", field=10)
ordered = sorted(sizes)
near = all(abs(v.quantile(q) - ordered[max(1, math.ceil(q * len(ordered))) - 1])
           <= ordered[max(1, math.ceil(q * len(ordered))) - 1] / 100
           for q in (0, 0.25, 0.5, 0.9, 0.99, 0.999, 1))
ok(v.numbers == len(sizes) and v.sum == sum(sizes) and v.sum_exact and
   v.min == ordered[0] and v.max == ordered[-1] and near and
   abs(v.mean - statistics.fmean(sizes)) <= 1e-9 * v.mean,
   "view='values': count, sum, min, max, mean and quantiles as Python's")
total = cli_json("--values=10", TEXT)["total"]
ok([list(b) for b in v.buckets] ==
   [[b["low"], b["high"], b["count"]] for b in total["buckets"]] and
   v.not_numbers == total["not_numbers"],
   "view='values': the buckets of gpuhist --values -f json")
s = gpuhist.Stream(view="values", field=10, precision=0.1)
for k in range(0, len(text), 7777):
    s.write(text[k:k + 7777])
got = s.close()
ok(got.numbers == v.numbers and got.sum == v.sum and
   got.precision == 100 / 1024,
   "a Stream of view='values', precision=0.1, fed in odd pieces")
try:
    gpuhist.count(TEXT, view="field", field=10, precision=1)
    ok(False, "precision= with view='field' raises ValueError")
except ValueError:
    ok(True, "precision= with view='field' raises ValueError")
# match=, exclude=, caseless=, match_field=: the lines Python's re keeps
# (where the library was built with PCRE2).
try:
    gpuhist.count(b"", match="x")
    have_pcre2 = True
except gpuhist.Error:
    have_pcre2 = False
if not have_pcre2:
    for _ in range(4):
        n += 1
        print("ok %d # SKIP libgpuhist built without PCRE2" % n)
else:
    body_lines = text.split(b"\n")
    if body_lines and body_lines[-1] == b"":
        body_lines.pop()
    kept = [l for l in body_lines if re.search(rb" 404 ", l)]
    ok(gpuhist.count(TEXT, view="lines", match=" 404 ") ==
       collections.Counter(kept), "match=: the lines re keeps")
    kept = [l for l in body_lines if not re.search(rb"GET", l, re.I)]
    ok(gpuhist.count(TEXT, view="lines", exclude=b"get", caseless=True) ==
       collections.Counter(kept), "exclude=, caseless=True: the others")
    kept = [l for l in body_lines
            if len(l.split()) >= 9 and re.search(rb"^3", l.split()[8])]
    ok(gpuhist.count(TEXT, view="lines", match="^3", match_field=9) ==
       collections.Counter(kept), "match_field=9: the lines whose 9th field re keeps")
    try:
        gpuhist.count(TEXT, match="(")
        ok(False, "a bad pattern raises gpuhist.Error")
    except gpuhist.Error as e:
        ok(str(e).startswith("match: invalid pattern '('") and
           e.status == gpuhist.STATUS_ARGUMENT, "a bad pattern raises gpuhist.Error, PCRE2's reason")
sys.exit(1 if failed else 0)
