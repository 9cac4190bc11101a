#!/usr/bin/env python3
"""mergediff.py - gpuhist --merge's JSON reader against Python's json module.

Usage: mergediff.py GPUHIST CASES SEED_FILE...

Each case is a seed (a result gpuhist wrote) changed at random: white
space moved, numbers rewritten (exponents, leading zeros, signs, values
near 2^64), strings escaped, keys repeated or dropped, bytes flipped,
inserted or cut.  Each goes through `gpuhist --merge -f json`.  Where
gpuhist takes a document, Python's json must take it too (NaN and
Infinity refused, as JSON does), and gpuhist's histogram must be the
document's total.histogram exactly (every value an integer, none past
2^64 - 1).  Where gpuhist refuses, it must say so in one message naming
the file, with exit status 1.  Prints one line of what it found and
exits 1 on the first disagreement (the case is kept as FAILED.json).
"""
import json
import os
import random
import re
import subprocess
import sys
import tempfile


def strict_loads(text):
    def refuse(name):
        raise ValueError("not JSON: " + name)
    return json.loads(text, parse_constant=refuse)


def exact_histogram(doc):
    """total.histogram as exact integers, or None where not all are."""
    try:
        h = doc["total"]["histogram"]
    except (KeyError, TypeError):
        return None
    if not isinstance(h, list) or len(h) != 256:
        return None
    out = []
    for v in h:
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            return None
        if isinstance(v, float):
            if not v.is_integer():
                return None
            v = int(v)
        if v < 0 or v >= 1 << 64:
            return None
        out.append(v)
    return out


NUMBER = re.compile(rb"(?<![\w.])\d+(?![\w.])")


def mutate(doc, rng):
    d = bytearray(doc)
    kind = rng.randrange(12)
    if kind == 0:                       # white space added
        for _ in range(rng.randrange(1, 8)):
            i = rng.randrange(len(d) + 1)
            d[i:i] = rng.choice([b" ", b"\n", b"\t", b"\r\n", b"  "])
    elif kind == 1:                     # white space taken out
        s = bytes(d)
        s = re.sub(rb"(?<=[,:\[{]) ", b"", s, count=rng.randrange(1, 50))
        d = bytearray(s)
    elif kind in (2, 3, 4):             # a number rewritten
        spans = [m.span() for m in NUMBER.finditer(bytes(d))]
        if spans:
            a, b = rng.choice(spans)
            n = int(bytes(d[a:b]))
            new = rng.choice([
                b"%de0" % n, b"%d.0" % n, b"%dE+0" % n, b"0%d" % n,
                b"-%d" % n, b"+%d" % n, b"%d" % (n + 1),
                b"18446744073709551615", b"18446744073709551616",
                b"1e19", b"%d.5" % n, b"%.1e" % n if n else b"0e5",
                b"-0", b"99999999999999999999999"])
            d[a:b] = new
    elif kind == 5:                     # a byte flipped
        i = rng.randrange(len(d))
        d[i] ^= 1 << rng.randrange(8)
    elif kind == 6:                     # a byte inserted
        i = rng.randrange(len(d) + 1)
        d[i:i] = bytes([rng.randrange(256)])
    elif kind == 7:                     # cut short
        d = d[:rng.randrange(len(d))]
    elif kind == 8:                     # a span taken out
        a = rng.randrange(len(d))
        del d[a:a + rng.randrange(1, 40)]
    elif kind == 9:                     # a name escaped
        s = bytes(d)
        s = s.replace(b'"name": "', rng.choice([
            b'"name": "\\u00e9', b'"name": "\\"', b'"name": "\\ud800',
            b'"n\\u0061me": "', b'"name": "\x01']), 1)
        d = bytearray(s)
    elif kind == 10:                    # a key said twice
        s = bytes(d)
        s = s.replace(b'"total": {', b'"total": {"name": "x", ', 1)
        d = bytearray(s)
    else:                               # a value replaced
        s = bytes(d)
        s = s.replace(rng.choice([b"0, ", b"1, ", b"[", b"]", b"{", b"}"]),
                      rng.choice([b"null, ", b"true, ", b'"0", ', b"[]",
                                  b"{}", b""]), 1)
        d = bytearray(s)
    return bytes(d)


def main():
    gpuhist, cases = sys.argv[1], int(sys.argv[2])
    seeds = [open(p, "rb").read() for p in sys.argv[3:]]
    rng = random.Random(20261126)
    taken = refused = 0
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "case.json")
        for k in range(cases):
            seed = rng.choice(seeds)
            doc = seed if k < len(seeds) else mutate(seed, rng)
            for _ in range(rng.randrange(2) if k >= len(seeds) else 0):
                doc = mutate(doc, rng)
            with open(path, "wb") as f:
                f.write(doc)
            r = subprocess.run([gpuhist, "--merge", "-b", "-f", "json", path],
                               capture_output=True)
            try:
                py = strict_loads(doc.decode("utf-8"))
            except (ValueError, UnicodeDecodeError, RecursionError):
                py = None
            wrong = None
            if r.returncode == 0:
                taken += 1
                got = json.loads(r.stdout)["inputs"][0]["histogram"]
                if py is None:
                    wrong = "gpuhist took what Python's json refuses"
                elif exact_histogram(py) != got:
                    wrong = "gpuhist's histogram is not the document's"
            else:
                refused += 1
                err = r.stderr.decode(errors="replace").splitlines()
                if r.returncode != 1 or len(err) != 1 or \
                   not err[0].startswith("gpuhist: " + path + ": "):
                    wrong = "a refusal without one message naming the file"
            if k < len(seeds) and r.returncode != 0:
                wrong = "gpuhist refused a result it wrote itself"
            if wrong:
                open("FAILED.json", "wb").write(doc)
                print("case %d: %s (kept as FAILED.json): %s" % (
                    k, wrong, r.stderr.decode(errors="replace").strip()))
                return 1
    print("%d cases: %d taken by both with the same totals, %d refused "
          "by gpuhist" % (cases, taken, refused))
    return 0


if __name__ == "__main__":
    sys.exit(main())
