#!/usr/bin/env python3
"""charoracle.py - the independent oracle of the -m view

Decodes each file (gzip, by its magic, decoded with Python's gzip) with
Python's own UTF-8 decoder, bytes.decode('utf-8', 'surrogateescape'), and
counts the characters with collections.Counter: an escape U+DC80..U+DCFF is
the invalid byte 0x80..0xff.  Prints what `gpuhist -m -f tsv --sort=bin`
prints (input, bin, count; the total rows last when there are several).
-i folds by CaseFolding.txt's C and S lines, -c counts by the general
category of UnicodeData.txt (both from Debian's unicode-data package, read
here directly, never through libutf8proc; UCD_DIR names another folder
of them).

    charoracle.py [-i | -c] FILE...
"""
import collections
import gzip
import os
import sys

UCD = os.environ.get("UCD_DIR", "/usr/share/unicode") + "/"
CATEGORIES = ["letter", "mark", "number", "punctuation", "symbol",
              "separator", "other", "invalid"]
MAJOR = {"L": "letter", "M": "mark", "N": "number", "P": "punctuation",
         "S": "symbol", "Z": "separator", "C": "other"}


def simple_folding():
    fold = {}
    for line in open(UCD + "CaseFolding.txt", encoding="utf-8"):
        line = line.split("#")[0].strip()
        if not line:
            continue
        code, status, mapping = [f.strip() for f in line.split(";")[:3]]
        if status in ("C", "S"):
            fold[int(code, 16)] = int(mapping, 16)
    return fold


def categories():
    cat = {}
    first = None
    for line in open(UCD + "UnicodeData.txt", encoding="utf-8"):
        f = line.split(";")
        cp, name, gc = int(f[0], 16), f[1], f[2]
        if name.endswith(", First>"):
            first = cp
            continue
        if name.endswith(", Last>"):
            for c in range(first, cp + 1):
                cat[c] = gc
            continue
        cat[cp] = gc
    return cat


def bins(data):
    """The chars bins of data: code point, or 0x110000 + byte - 0x80."""
    out = collections.Counter()
    for ch, n in collections.Counter(
            data.decode("utf-8", "surrogateescape")).items():
        cp = ord(ch)
        out[0x110000 + cp - 0xdc80 if 0xdc80 <= cp <= 0xdcff else cp] += n
    return out


def name(b):
    return "0x%02x" % (b - 0x110000 + 0x80) if b >= 0x110000 else "U+%04X" % b


def main():
    args = sys.argv[1:]
    mode = args.pop(0) if args and args[0] in ("-i", "-c") else None
    fold = simple_folding() if mode == "-i" else None
    cat = categories() if mode == "-c" else None
    total = collections.Counter()
    print("input\tbin\tcount")
    for path in args:
        data = open(path, "rb").read()
        if data[:2] == b"\x1f\x8b":
            data = gzip.decompress(data)
        counts = bins(data)
        total.update(counts)
        report(path, counts, fold, cat)
    if len(args) > 1:
        report("total", total, fold, cat)


def report(label, counts, fold, cat):
    if cat is not None:
        rows = collections.Counter()
        for b, n in counts.items():
            rows["invalid" if b >= 0x110000
                 else MAJOR[cat.get(b, "Cn")[0]]] += n
        for c in CATEGORIES:
            print("%s\t%s\t%d" % (label, c, rows[c]))
        return
    if fold is not None:
        folded = collections.Counter()
        for b, n in counts.items():
            folded[fold.get(b, b) if b < 0x110000 else b] += n
        counts = folded
    for b in sorted(counts):
        print("%s\t%s\t%d" % (label, name(b), counts[b]))


if __name__ == "__main__":
    main()
