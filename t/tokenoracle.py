#!/usr/bin/env python3
"""tokenoracle.py - the tokens view's counts by Python, against gpuhist's json

Usage: tokenoracle.py VIEW PLAIN GPUHIST_JSON [total] [per=SECONDS
                      [time-field=N] [separator=BYTE] [year=Y]
                      [time-key=PATH] [time-format=FMT]]
  VIEW: words, lines, field:N (runs of blanks) or field:N:BYTE (a separator,
  given as its decimal value), fields:N,M[,...] or fields:N,M:BYTE (a key
  of several fields: a tuple of them, json's members fieldN, fieldM), or
  key:PATH (the value at PATH of each line read as JSON, as jq -r prints
  it: see json_value).  PLAIN is the input's bytes (decoded),
  GPUHIST_JSON gpuhist -f json's output for that one input, or with
  "total" for several inputs whose bytes, one after another, PLAIN is:
  their total is checked.
Prints "same", or what differs (exit status 1).

The rules, written independently of gpuhist's code: words are
re.findall(rb"[^ \\t\\r\\n]+"); lines are data.split(b"\\n") with a last
empty piece dropped (a last line without a newline counts); a field is
the Nth of re.findall(rb"[^ \\t]+", line) (awk's default), or the Nth of
line.split(sep), or b"" where the line has fewer.  gpuhist's json tokens
are decoded back to bytes with surrogateescape.

With per=SECONDS (gpuhist --per beside the view) each unit is paired with
its line's interval, read by t/timeoracle.py (Python's re and datetime):
json's rows carry an "interval", and come interval by interval in time
order ("(no time)" first), each interval's most frequent first.
"""
import json
import re
import sys
from collections import Counter


class Literal(str):
    """A number as the line wrote it (a decimal's text is kept)."""


def reject(name):
    raise ValueError(name)      # NaN, Infinity: not JSON


def dump_str(s):
    out = ['"']
    for ch in s:
        named = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f",
                 "\n": "\\n", "\r": "\\r", "\t": "\\t"}
        if ch in named:
            out.append(named[ch])
        elif ord(ch) < 0x20:
            out.append("\\u%04x" % ord(ch))
        else:
            out.append(ch)
    return "".join(out) + '"'


def dump(v):
    """Compact JSON, as json-c writes it (JSON_C_TO_STRING_PLAIN, '/' as
    it is)."""
    if isinstance(v, dict):
        return "{" + ",".join(dump_str(k) + ":" + dump(x)
                              for k, x in v.items()) + "}"
    if isinstance(v, list):
        return "[" + ",".join(dump(x) for x in v) + "]"
    if isinstance(v, Literal):
        return str.__str__(v)
    if isinstance(v, str):
        return dump_str(v)
    return {True: "true", False: "false", None: "null"}[v] \
        if v is None or isinstance(v, bool) else str(v)


def json_value(line, names):
    """The value at names of line read as JSON: a string's bytes, a
    number (an integer in decimal, a decimal as written), true, false,
    null, an object or array as compact JSON; null where a name is not
    there or what holds it is not an object; b"\\xff" for a line that is
    not JSON (not UTF-8, not one JSON text)."""
    try:
        v = json.loads(line.decode("utf-8"), parse_float=Literal,
                       parse_int=int, parse_constant=reject)
    except ValueError:
        return b"\xff"
    for name in names:
        v = v.get(name) if isinstance(v, dict) else None
    if isinstance(v, str) and not isinstance(v, Literal):
        return v.encode("utf-8")
    return dump(v).encode("utf-8")


def interval_of(line, per):
    """The label of a line's interval (timeoracle's rules), as bytes."""
    import timeoracle
    t = timeoracle.time_of(line, per)
    if t is None:
        return b"(no time)"
    s = int(t.timestamp())
    return timeoracle.label(s - s % per.per).encode()


def units(view, data, per=None):
    if per:
        lines = data.split(b"\n")
        if lines and lines[-1] == b"":
            lines.pop()
        out = []
        for line in lines:
            label = interval_of(line, per)
            out.extend((label, u) for u in units(view, line + b"\n"))
        return out
    if view == "words":
        return re.findall(rb"[^ \t\r\n]+", data)
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    if view == "lines":
        return lines
    if view.startswith("key:"):
        path = view[4:]
        names = [] if path == "." else path[1:].split(".")
        return [json_value(line, names) for line in lines]
    parts = view.split(":")
    ns = [int(n) for n in parts[1].split(",")]
    out = []
    for line in lines:
        if len(parts) == 2:
            fields = re.findall(rb"[^ \t]+", line)
        else:
            fields = line.split(bytes([int(parts[2])]))
        key = tuple(fields[n - 1] if len(fields) >= n else b"" for n in ns)
        out.append(key if parts[0] == "fields" else key[0])
    return out


def per_args(args):
    """per=, time-field=, separator=, year= as timeoracle's arguments."""
    import types
    opts = dict(a.split("=", 1) for a in args)
    if "per" not in opts:
        return None
    sep = opts.get("separator")
    return types.SimpleNamespace(
        per=int(opts["per"]), time_field=int(opts.get("time-field", 0)),
        time_key=opts.get("time-key"), time_format=opts.get("time-format"),
        separator=int(sep) if sep is not None else None,
        year=int(opts["year"]) if "year" in opts
        else __import__("datetime").datetime.now().year)


def main():
    view, plain, result = sys.argv[1:4]
    rest = sys.argv[4:]
    which = rest.pop(0) if rest and "=" not in rest[0] else "first"
    per = per_args(rest)
    data = open(plain, "rb").read()
    want = Counter(units(view, data, per))
    doc = json.load(open(result, encoding="utf-8", errors="surrogateescape"))
    entry = doc["total"] if which == "total" else doc["inputs"][0]
    got = Counter()
    bad = []
    if view.startswith("fields:"):
        ns = [int(n) for n in view.split(":")[1].split(",")]
        if entry.get("view") != "fields" or entry.get("fields") != ns:
            bad.append(f"view {entry.get('view')} {entry.get('fields')}")
        for row in entry["counts"]:
            key = tuple(row["field%d" % n].encode("utf-8", "surrogateescape")
                        for n in ns)
            if per:
                key = (row["interval"].encode(), key)
            got[key] += row["count"]
    else:
        for row in entry["counts"]:
            key = row["token"].encode("utf-8", "surrogateescape")
            if per:
                key = (row["interval"].encode(), key)
            got[key] += row["count"]
    if per and entry.get("per") != per.per:
        bad.append(f"per {entry.get('per')} != {per.per}")
    if got != want:
        missing = want - got
        extra = got - want
        bad.append(f"counts differ: missing {list(missing.items())[:5]}, "
                   f"extra {list(extra.items())[:5]}")
    if entry["tokens"] != sum(want.values()):
        bad.append(f"tokens {entry['tokens']} != {sum(want.values())}")
    if entry["distinct"] != len(want):
        bad.append(f"distinct {entry['distinct']} != {len(want)}")
    if entry["bytes_read"] != len(data):
        bad.append(f"bytes_read {entry['bytes_read']} != {len(data)}")
    counts = [row["count"] for row in entry["counts"]]
    if per:
        # Interval by interval, in time order, each most frequent first.
        order = [(row["interval"], -row["count"]) for row in entry["counts"]]
        if order != sorted(order):
            bad.append("not interval by interval, most frequent first")
    elif counts != sorted(counts, reverse=True):
        bad.append("not most frequent first")
    print("; ".join(bad) if bad else "same")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
