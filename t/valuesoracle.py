#!/usr/bin/env python3
"""valuesoracle.py - the values view's figures by Python, against gpuhist's json

Usage: valuesoracle.py FIELD PLAIN GPUHIST_JSON [total|inputs] [PRECISION]
  FIELD: N (runs of blanks, as awk's $N) or N:BYTE (a separator, given as
  its decimal value), or key:PATH (a key of JSON lines, as
  tokenoracle.py reads it).  PLAIN is the input's bytes (decoded); GPUHIST_JSON
  gpuhist -f json --values's output for that one input ("first", the
  default), its "total" for several inputs whose bytes, one after another,
  PLAIN is, or "inputs": each input's entries, which must add up to the
  total.  PRECISION: the percent given to --precision (default 1).
Prints "same", or what differs (exit status 1).

The rules, written independently of gpuhist's code: a field is cut as
tokenoracle.py cuts it; it is a number when, blanks (space, tab, CR) around
it stripped, it matches [+-]?(digits[.digits?]|.digits)([eE][+-]?digits)?
and float() of it is finite; an integer when it has no point or exponent
and at most 18 digits after its leading zeros.  Checked exactly: the counts
of numbers, of fields that are not numbers and of empty ones, min and max,
the sum when every number is such an integer (else within 1e-12), every
bucket's count and bounds (math.frexp's exponent e, 2^ceil(log2(100/P))
sub-buckets, or 2^(e+1073) where that is fewer: no bound finer than the
least subnormal); each quantile within P percent of the exact sort's
nearest-rank value (the ceil(q n)th smallest, q read as a decimal).
"""
import json
import math
import re
import sys
from collections import Counter
from decimal import Decimal
from fractions import Fraction

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from tokenoracle import units  # noqa: E402

NUMBER = re.compile(rb"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


def number(field):
    """(float, exact int or None), or None when not a number."""
    text = field.strip(b" \t\r")
    if not NUMBER.fullmatch(text):
        return None
    value = float(text)
    if math.isinf(value):
        return None
    if re.fullmatch(rb"[+-]?[0-9]+", text):
        digits = text.lstrip(b"+-").lstrip(b"0") or b"0"
        if len(digits) <= 18:
            return float(int(text)), int(text)
    return value, None


def sub_bits(precision):
    bits = 1
    while bits < 16 and 100.0 / (1 << bits) > precision:
        bits += 1
    return bits


def bucket(x, bits):
    """(sign, exponent, sub) of x; zero is (0, 0, 0)."""
    if x == 0:
        return (0, 0, 0)
    m, e = math.frexp(abs(x))
    bits = min(bits, e + 1073)      # bounds no finer than a subnormal
    return (-1 if x < 0 else 1, e, int((m - 0.5) * 2 * (1 << bits)))


def bounds(key, bits):
    sign, e, sub = key
    if sign == 0:
        return 0.0, 0.0
    bits = min(bits, e + 1073)
    s = 1 << bits
    lo = math.ldexp(s + sub, e - 1 - bits)
    try:
        hi = math.ldexp(s + sub + 1, e - 1 - bits)
    except OverflowError:
        hi = sys.float_info.max
    return (lo, hi) if sign > 0 else (-hi, -lo)


def expected(fields, bits):
    nums, ints, not_numbers, empty = [], [], 0, 0
    for f in fields:
        n = number(f)
        if n is None:
            not_numbers += 1
            empty += f == b""
        else:
            nums.append(n[0])
            ints.append(n[1])
    buckets = Counter(bucket(x, bits) for x in nums)
    return nums, ints, not_numbers, empty, buckets


def check_entry(entry, fields, precision, where):
    bits = sub_bits(precision)
    nums, ints, not_numbers, empty, buckets = expected(fields, bits)
    bad = []

    def same(what, got, want):
        if got != want:
            bad.append(f"{where}: {what} {got!r}, not {want!r}")

    same("numbers", entry["numbers"], len(nums))
    same("not_numbers", entry["not_numbers"], not_numbers)
    same("empty", entry["empty"], empty)
    same("sub_buckets", entry["sub_buckets"], 1 << bits)
    got_buckets = {}
    for b in entry["buckets"]:
        key = bucket(b["low"] if b["low"] >= 0 else b["high"], bits)
        if b["low"] == 0 and b["high"] == 0:
            key = (0, 0, 0)
        if bounds(key, bits) != (b["low"], b["high"]):
            bad.append(f"{where}: a bucket {b['low']}..{b['high']} is none "
                       f"of {1 << bits} a power of two")
        got_buckets[key] = got_buckets.get(key, 0) + b["count"]
    if got_buckets != dict(buckets):
        diff = set(got_buckets.items()) ^ set(buckets.items())
        bad.append(f"{where}: buckets differ: {sorted(diff)[:4]}")
    lows = [b["low"] for b in entry["buckets"]]
    if lows != sorted(lows):
        bad.append(f"{where}: buckets out of order")
    if not nums:
        if "min" in entry:
            bad.append(f"{where}: a min without numbers")
        return bad
    exact_ints = all(i is not None for i in ints)
    # min and max: the value, and for integers their exact digits.
    lo = min(range(len(nums)), key=lambda k: (nums[k], ints[k] or 0))
    hi = max(range(len(nums)), key=lambda k: (nums[k], ints[k] or 0))
    for what, k in (("min", lo), ("max", hi)):
        got = entry[what]
        if ints[k] is not None and isinstance(got, int):
            same(what, got, ints[k])
        else:
            same(what, float(got), nums[k])
    if exact_ints:
        same("sum_exact", entry["sum_exact"], True)
        same("sum", entry["sum"], sum(ints))
    else:
        same("sum_exact", entry["sum_exact"], False)
        # A sum past a double's range is written as a long double's.
        want = sum(Fraction(x) for x in nums)
        got = Fraction(entry["sum"])
        if abs(got - want) > abs(want) * Fraction(1, 10**12):
            bad.append(f"{where}: sum {entry['sum']}, not about "
                       f"{float(want) if abs(want) < 1e308 else want}")
    mean = float(sum(Fraction(x) for x in nums) / len(nums))
    if not math.isclose(entry["mean"], mean, rel_tol=1e-12, abs_tol=1e-300):
        bad.append(f"{where}: mean {entry['mean']}, not about {mean}")
    ordered = sorted(nums)
    for name, got in entry["quantiles"].items():
        q = Fraction(name[1:]) / 100
        rank = max(1, math.ceil(q * len(ordered)))
        want = ordered[rank - 1]
        if abs(got - want) > abs(want) * precision / 100:
            bad.append(f"{where}: {name} {got}, not within {precision}% of "
                       f"{want}")
    return bad


def wide_float(text):
    """A json number: a float, or where a float cannot hold it a Decimal."""
    value = float(text)
    return Decimal(text) if math.isinf(value) else value


def main():
    field, plain, result = sys.argv[1:4]
    which = sys.argv[4] if len(sys.argv) > 4 else "first"
    precision = float(sys.argv[5]) if len(sys.argv) > 5 else 1.0
    view = field if field.startswith("key:") else "field:" + field
    doc = json.load(open(result, encoding="utf-8"), parse_float=wide_float)
    if which == "inputs":
        # Each input's entry against its own file, PLAIN a list of them.
        bad = []
        for entry, path in zip(doc["inputs"], plain.split(",")):
            fields = units(view, open(path, "rb").read())
            bad += check_entry(entry, fields, precision, entry["name"])
    else:
        entry = doc["total"] if which == "total" else doc["inputs"][0]
        fields = units(view, open(plain, "rb").read())
        bad = check_entry(entry, fields, precision, which)
    if bad:
        print("\n".join(bad[:6]))
        sys.exit(1)
    print("same")


if __name__ == "__main__":
    main()
