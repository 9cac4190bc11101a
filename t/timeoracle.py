#!/usr/bin/env python3
"""timeoracle.py - lines per interval of time as gpuhist --per counts them,
made independently with Python's re and datetime, for the tests

    timeoracle.py [--gaps] [--time-field N] [--separator C] [--year Y]
                  [--time-key PATH] [--time-format FMT] PER_SECONDS FILE...

Prints "LABEL<TAB>COUNT" lines in time order: each line's interval start
as 2026-11-27T10:00:00Z (UTC), lines without a time as "(no time)" first
(its bytes sort first); with --gaps, the intervals between the first and
the last with no line in them too, with 0 (but for a gap of more than
100000 intervals).  A line's time is its first
timestamp: Common Log Format's [27/Nov/2026:10:00:00 +0000] or ISO 8601's
2026-11-27T10:00:00[.fff][Z|+hh:mm|+hhmm] anywhere, or syslog's
Nov 27 10:00:00 at the line's start (in --year); with --time-field, that
field alone (awk's split, or --separator), which may also be epoch seconds
(milliseconds from 13 digits); with --time-key, the value at that path of
the line read as JSON (t/tokenoracle.py's json_value), read as a field is;
with --time-format, Python's strptime on the field, the key's value or the
line's first words.
"""
import argparse
import collections
import datetime
import re

UTC = datetime.timezone.utc
CLF = re.compile(rb"\[(\d\d/[A-Z][a-z][a-z]/\d{4}:\d\d:\d\d:\d\d [+-]\d{4})\]")
ISO = re.compile(rb"(?<![0-9])(\d{4}-\d\d-\d\d[Tt ]\d\d:\d\d:\d\d)"
                 rb"(?:[.,]\d+)?([Zz]|[+-]\d\d(?::?\d\d)?)?")
SYSLOG = re.compile(rb"([A-Z][a-z][a-z]) ([ \d]\d) (\d\d:\d\d:\d\d)")
EPOCH = re.compile(rb"(\d{1,16})(?:\.\d*)?")


def offset(text):
    if not text or text in (b"Z", b"z"):
        return datetime.timedelta(0)
    sign = -1 if text[:1] == b"-" else 1
    digits = text[1:].replace(b":", b"")
    hours, minutes = int(digits[:2]), int(digits[2:4] or b"0")
    if hours > 23 or minutes > 59:
        return None
    return sign * datetime.timedelta(hours=hours, minutes=minutes)


def clf(m):
    try:
        return datetime.datetime.strptime(m.group(1).decode(),
                                          "%d/%b/%Y:%H:%M:%S %z")
    except ValueError:
        return None


def iso(m):
    off = offset(m.group(2))
    try:
        t = datetime.datetime.strptime(
            m.group(1).decode().replace("t", "T").replace(" ", "T"),
            "%Y-%m-%dT%H:%M:%S")
    except ValueError:
        return None
    return t.replace(tzinfo=UTC) - (off or datetime.timedelta(0))


def syslog(line, year):
    m = SYSLOG.match(line)
    if not m:
        return None
    try:
        return datetime.datetime.strptime(
            f"{year} {m.group(1).decode()} {int(m.group(2))} "
            f"{m.group(3).decode()}", "%Y %b %d %H:%M:%S").replace(tzinfo=UTC)
    except ValueError:
        return None


def search(line, year):
    t = syslog(line, year)
    if t:
        return t
    found = []
    for m in CLF.finditer(line):
        t = clf(m)
        if t:
            found.append((m.start(), t))
            break
    for m in ISO.finditer(line):
        t = iso(m)
        if t:
            found.append((m.start(), t))
            break
    return min(found, key=lambda f: f[0])[1] if found else None


def field_of(line, n, sep):
    fields = line.split(bytes([sep])) if sep is not None else line.split()
    return fields[n - 1] if n <= len(fields) else None


def formatted(text, args):
    """--time-format: Python's strptime on the text's first words, as many
    as the format has (what follows them is left), UTC unless %z; a
    format without a year gets --year's."""
    fmt = args.time_format
    words = text.split(b" ")[:len(fmt.split(" "))]
    try:
        t = datetime.datetime.strptime(b" ".join(words).decode(), fmt)
    except (ValueError, UnicodeDecodeError):
        return None
    if "%Y" not in fmt and "%y" not in fmt:
        try:
            t = t.replace(year=args.year)
        except ValueError:
            return None
    return t if t.tzinfo else t.replace(tzinfo=UTC)


def text_time(f, args):
    """The time of a field's (or a JSON key's value's) text."""
    if getattr(args, "time_format", None):
        if len(f) >= 2 and f[:1] == b'"' and f[-1:] == b'"':
            f = f[1:-1]
        return formatted(f, args)
    m = EPOCH.fullmatch(f)
    if m:
        v = int(m.group(1))
        return datetime.datetime.fromtimestamp(
            v // 1000 if len(m.group(1)) >= 13 else v, UTC)
    if len(f) >= 2 and f[:1] == b'"' and f[-1:] == b'"':
        f = f[1:-1]
    if f[:1] == b"[":
        m = CLF.match(f)
        return clf(m) if m else None
    m = ISO.match(f)
    t = iso(m) if m else None
    return t or syslog(f, args.year)


def time_of(line, args):
    if line.endswith(b"\r"):
        line = line[:-1]
    if getattr(args, "time_key", None):
        import tokenoracle
        path = args.time_key
        names = [] if path == "." else path[1:].split(".")
        return text_time(tokenoracle.json_value(line, names), args)
    if not args.time_field:
        if getattr(args, "time_format", None):
            return formatted(line, args)
        return search(line, args.year)
    f = field_of(line, args.time_field, args.separator)
    if f is None:
        return None
    return text_time(f, args)


def label(seconds):
    return datetime.datetime.fromtimestamp(seconds, UTC).strftime(
        "%Y-%m-%dT%H:%M:%SZ")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--gaps", action="store_true")
    p.add_argument("--time-field", type=int, default=0)
    p.add_argument("--separator")
    p.add_argument("--year", type=int, default=datetime.datetime.now(UTC).year)
    p.add_argument("--time-key")
    p.add_argument("--time-format")
    p.add_argument("per", type=int)
    p.add_argument("files", nargs="+")
    args = p.parse_args()
    if args.separator is not None:
        args.separator = args.separator.encode()[0]
    counts = collections.Counter()
    none = 0
    for name in args.files:
        data = open(name, "rb").read()
        lines = data.split(b"\n")
        if lines and lines[-1] == b"":
            lines.pop()
        for line in lines:
            t = time_of(line, args)
            if t is None:
                none += 1
                continue
            s = int(t.timestamp())
            counts[s - s % args.per] += 1
    if none:
        print(f"(no time)\t{none}")
    if not counts:
        return
    previous = None
    for s in sorted(counts):
        # A gap of more than 100000 intervals is not filled.
        if args.gaps and previous is not None and \
                (s - previous - args.per) // args.per <= 100000:
            for g in range(previous + args.per, s, args.per):
                print(f"{label(g)}\t0")
        print(f"{label(s)}\t{counts[s]}")
        previous = s


if __name__ == "__main__":
    main()
