#!/usr/bin/env python3
# oracle.py - what gpuhist should print, computed independently in Python
#
# Reads the same operands as gpuhist (files, "-" for stdin), decodes gzip
# with Python's gzip module when the first two bytes are 1f 8b (not with
# --raw), counts the bytes with collections.Counter, and folds them into the
# view that SPEC.md describes.  It shares no code with gpuhist.
#
#   oracle.py [VIEW] [--raw] [-f tsv|csv] FILE...     expected tsv/csv output
#   oracle.py [VIEW] [--raw] --check-json GOT FILE... GOT (a -f json result)
#   oracle.py [VIEW] [--raw] --check-table GOT FILE.. GOT (a -f table result)
#
# VIEW is -w N, -i, -b or -c as for gpuhist.  An input that cannot be read
# or decoded is reported on stderr ("oracle: NAME: reason"), left out of the
# results and the total, and makes the exit status 1, as the SPEC asks of
# gpuhist.  The --check modes expect GOT to hold the inputs that could be
# read (--check-json also an entry of name and error for each that could
# not), print what differs, and exit 0 when nothing does, else 1.

import argparse
import collections
import gzip
import json
import math
import re
import sys
import zlib

LOWER = "abcdefghijklmnopqrstuvwxyz"
SPACE = b" \t\n\v\f\r"
CLASSES = ["lower", "upper", "digit", "space", "punct", "control", "high"]


def read_counts(name, raw):
    """The 256 byte totals of one operand, as a Counter; raises on failure."""
    f = sys.stdin.buffer if name == "-" else open(name, "rb")
    counts = collections.Counter()
    try:
        head = f.read(2)
        if not raw and head == b"\x1f\x8b":
            # Hand the two bytes already read back to the decoder.
            class Prefixed:
                def __init__(self, first, rest):
                    self.first, self.rest = first, rest

                def read(self, n=-1):
                    if self.first:
                        out, self.first = self.first, b""
                        if n is None or n < 0:
                            return out + self.rest.read()
                        return out + self.rest.read(max(0, n - len(out)))
                    return self.rest.read(n)

            src = gzip.GzipFile(fileobj=Prefixed(head, f), mode="rb")
        else:
            counts.update(head)
            src = f
        while True:
            block = src.read(1 << 20)
            if not block:
                break
            counts.update(block)
    finally:
        if f is not sys.stdin.buffer:
            f.close()
    return counts


class View:
    """Bins as (name, table label, set of byte values) per SPEC.md."""

    def __init__(self, width, ignore_case, bytes_view, classes):
        self.is_bytes = bytes_view
        fold = {}
        if ignore_case:
            for ch in LOWER:
                fold[ord(ch.upper())] = ord(ch)
        self.bins = []
        if bytes_view:
            for v in range(256):
                members = {v} if v not in fold else set()
                members |= {u for u, l in fold.items() if l == v}
                self.bins.append((str(v), byte_label(v), members))
        elif classes:
            groups = {c: set() for c in CLASSES}
            for v in range(256):
                groups[class_of(fold.get(v, v))].add(v)
            for c in CLASSES:
                self.bins.append((c, c, groups[c]))
        else:
            for start in range(0, 26, width):
                letters = LOWER[start:start + width]
                name = letters if len(letters) == 1 else \
                    letters[0] + "-" + letters[-1]
                members = {ord(ch) for ch in letters}
                members |= {u for u, l in fold.items() if chr(l) in letters}
                self.bins.append((name, name, members))

    def fold(self, counts):
        """[(name, label, count)] and the bytes counted."""
        out = [(n, lab, sum(counts[v] for v in m)) for n, lab, m in self.bins]
        return out, sum(c for _, _, c in out)


def class_of(v):
    if ord("a") <= v <= ord("z"):
        return "lower"
    if ord("A") <= v <= ord("Z"):
        return "upper"
    if ord("0") <= v <= ord("9"):
        return "digit"
    if v in SPACE:
        return "space"
    if 33 <= v <= 126:
        return "punct"
    if v < 32 or v == 127:
        return "control"
    return "high"


def byte_label(v):
    """How a table labels a byte value: readable, never raw control bytes."""
    names = {9: "\\t", 10: "\\n", 11: "\\v", 12: "\\f", 13: "\\r",
             32: "' '", 92: "\\\\"}
    if v in names:
        return names[v]
    if 33 <= v <= 126:
        return chr(v)
    return "0x%02x" % v


def entropy(counts):
    n = sum(counts.values())
    h = 0.0
    for c in counts.values():
        if c:
            p = c / n
            h -= p * math.log2(p)
    return h


def tsv_field(s):
    return (s.replace("\\", "\\\\").replace("\t", "\\t")
            .replace("\n", "\\n").replace("\r", "\\r"))


def csv_field(s):
    if any(ch in s for ch in ',"\r\n'):
        return '"' + s.replace('"', '""') + '"'
    return s


def results(files, raw):
    """[(name, counts)] of the inputs that could be read, the total,
    whether some failed, and [(name, counts or None)] of every input."""
    good, failed, every = [], False, []
    total = collections.Counter()
    for name in files:
        try:
            counts = read_counts(name, raw)
        except (OSError, EOFError, zlib.error, gzip.BadGzipFile) as e:
            print("oracle: %s: %s" % (name, e), file=sys.stderr)
            failed = True
            every.append((name, None))
            continue
        good.append((name, counts))
        every.append((name, counts))
        total.update(counts)
    return good, total, failed, every


def print_rows(view, good, total, several, fmt):
    sep, field = ("\t", tsv_field) if fmt == "tsv" else (",", csv_field)
    print(sep.join(["input", "bin", "count"]))
    blocks = list(good) + ([("total", total)] if several else [])
    for name, counts in blocks:
        for bin_name, _, c in view.fold(counts)[0]:
            print(sep.join([field(name), bin_name, str(c)]))


class Mismatch(Exception):
    pass


def expect(what, got, want):
    if got != want:
        raise Mismatch("%s: got %r, expected %r" % (what, got, want))


def expect_entropy(what, got, counts):
    want = entropy(counts)
    # gpuhist prints 6 decimals: allow the rounding and a hair more.
    if not isinstance(got, (int, float)) or abs(got - want) > 5.1e-7:
        raise Mismatch("%s: entropy %r, expected %.9f" % (what, got, want))


def check_json_entry(view, entry, name, counts):
    what = "entry %r" % name
    expect(what + " name", entry.get("name"), name)
    bins, counted = view.fold(counts)
    expect(what + " bytes_read", entry.get("bytes_read"),
           sum(counts.values()))
    expect(what + " counted", entry.get("counted"), counted)
    expect(what + " histogram", entry.get("histogram"),
           [counts[v] for v in range(256)])
    got_bins = entry.get("bins")
    if not isinstance(got_bins, list):
        raise Mismatch(what + ": no bins list")
    expect(what + " bin names", [str(b.get("bin")) for b in got_bins],
           [n for n, _, _ in bins])
    if view.is_bytes:
        expect(what + " byte bins are numbers",
               all(type(b.get("bin")) is int for b in got_bins), True)
    expect(what + " bin counts", [b.get("count") for b in got_bins],
           [c for _, _, c in bins])
    if "entropy" in entry:
        expect_entropy(what, entry["entropy"], counts)


def check_json(view, text, every, total):
    """every: [(name, counts or None)]; a failed input's entry holds only
    its name and a non-empty error."""
    doc = json.loads(text)
    expect("top-level keys", sorted(doc), ["inputs", "total"])
    expect("number of inputs", len(doc["inputs"]), len(every))
    for entry, (name, counts) in zip(doc["inputs"], every):
        if counts is not None:
            check_json_entry(view, entry, name, counts)
            continue
        what = "failed entry %r" % name
        expect(what + " keys", sorted(entry), ["error", "name"])
        expect(what + " name", entry["name"], name)
        expect(what + " has a reason",
               isinstance(entry["error"], str) and entry["error"] != "",
               True)
    check_json_entry(view, doc["total"], "total", total)


ROW = re.compile(r"^(.+?) +(\d+) +(\d+\.\d\d)%(?:  (#+))?$")


def parse_table(text):
    """[(name or None, [(label, count, share, bar)], footer dict)]."""
    blocks = []
    for chunk in text.rstrip("\n").split("\n\n"):
        lines = chunk.split("\n")
        name = None
        m = re.match(r"^==> (.*) <==$", lines[0])
        if m:
            name = m.group(1)
            lines = lines[1:]
        if not re.match(r"^bin +count +share$", lines[0]):
            raise Mismatch("no header line in block %r" % name)
        if len(lines) < 4:
            raise Mismatch("block %r is too short" % name)
        rows = []
        for line in lines[1:-3]:
            m = ROW.match(line)
            if not m:
                raise Mismatch("bad row %r in block %r" % (line, name))
            rows.append((m.group(1), int(m.group(2)), m.group(3),
                         len(m.group(4) or "")))
        footer = {}
        for line, key, pat in zip(lines[-3:], ["read", "counted", "entropy"],
                                  [r"^bytes read +(\d+)$",
                                   r"^bytes counted +(\d+)$",
                                   r"^entropy +(\d+\.\d{6}) bits per byte$"]):
            m = re.match(pat, line)
            if not m:
                raise Mismatch("bad footer line %r in block %r" % (line, name))
            footer[key] = m.group(1)
        blocks.append((name, rows, footer))
    return blocks


def check_table(view, text, files, good, total):
    blocks = parse_table(text)
    several = len(files) > 1
    want = [(n if several or n != "-" else None, c) for n, c in good]
    if several:
        want.append(("total", total))
    expect("block names", [b[0] for b in blocks], [n for n, _ in want])
    for (name, rows, footer), (_, counts) in zip(blocks, want):
        what = "block %r" % name
        bins, counted = view.fold(counts)
        if view.is_bytes:
            # 256 rows of mostly zeros would hide the shape.
            bins = [b for b in bins if b[2]]
        expect(what + " labels", [r[0] for r in rows], [b[1] for b in bins])
        expect(what + " counts", [r[1] for r in rows], [b[2] for b in bins])
        expect(what + " shares", [r[2] for r in rows],
               ["%.2f" % (100.0 * c / counted if counted else 0.0)
                for _, _, c in bins])
        expect(what + " bars drawn for non-zero counts",
               [r[3] > 0 for r in rows], [r[1] > 0 for r in rows])
        by_count = sorted(rows, key=lambda r: r[1])
        expect(what + " longer bars for larger counts",
               sorted(r[3] for r in by_count), [r[3] for r in by_count])
        expect(what + " bytes read", int(footer["read"]),
               sum(counts.values()))
        expect(what + " bytes counted", int(footer["counted"]), counted)
        expect_entropy(what, float(footer["entropy"]), counts)


def main():
    ap = argparse.ArgumentParser(description="gpuhist's test oracle")
    ap.add_argument("-w", "--width", type=int, default=4)
    ap.add_argument("-i", "--ignore-case", action="store_true")
    ap.add_argument("-b", "--bytes", action="store_true")
    ap.add_argument("-c", "--classes", action="store_true")
    ap.add_argument("-f", "--format", choices=["tsv", "csv"], default="tsv")
    ap.add_argument("--raw", action="store_true")
    ap.add_argument("--check-json", metavar="GOT")
    ap.add_argument("--check-table", metavar="GOT")
    ap.add_argument("files", nargs="*")
    args = ap.parse_args()
    if not 1 <= args.width <= 26:
        ap.error("-w must be 1..26")
    files = args.files or ["-"]
    view = View(args.width, args.ignore_case, args.bytes, args.classes)
    good, total, failed, every = results(files, args.raw)

    if args.check_json or args.check_table:
        with open(args.check_json or args.check_table, encoding="utf-8",
                  errors="surrogateescape") as f:
            text = f.read()
        try:
            if args.check_json:
                check_json(view, text, every, total)
            else:
                check_table(view, text, files, good, total)
        except (Mismatch, ValueError, KeyError, TypeError,
                AttributeError) as e:
            print("oracle: %s" % e, file=sys.stderr)
            return 1
        return 0

    sys.stdout.reconfigure(newline="\n", errors="surrogateescape")
    print_rows(view, good, total, len(files) > 1, args.format)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
