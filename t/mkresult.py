#!/usr/bin/env python3
# mkresult.py - crafted -f json results for the --merge tests
#
#   mkresult.py [--wrap] HIST... > FILE
#   mkresult.py --many N > FILE
#
# Each HIST is one input's histogram, BYTE=COUNT,... (COUNT a Python
# expression such as 2**60; "" for all zero), and the total is their sum.
# The figures (bytes_read, counted, the bins of the default view -w 4) are
# written as gpuhist writes them, exact, in its layout; --wrap writes them
# modulo 2^64, as a gpuhist that wrapped would have.  --many N writes N
# inputs of large counts, about 3 KB each, all different, their total exact.

import sys

BINS = [("a-d", 97, 101), ("e-h", 101, 105), ("i-l", 105, 109),
        ("m-p", 109, 113), ("q-t", 113, 117), ("u-x", 117, 121),
        ("y-z", 121, 123)]


def entry(name, hist, wrap):
    fig = (lambda v: v % 2**64) if wrap else (lambda v: v)
    bins = [(label, sum(hist[lo:hi])) for label, lo, hi in BINS]
    counted = sum(c for _, c in bins)
    return ('{"name": "%s", "bytes_read": %d, "counted": %d, '
            '"entropy": 0.000000,\n   "bins": [%s],\n   "histogram": [%s]}'
            % (name, fig(sum(hist)), fig(counted),
               ", ".join('{"bin": "%s", "count": %d}' % (label, fig(c))
                         for label, c in bins),
               ", ".join(map(str, hist))))


def document(inputs, total, wrap):
    out = ['{"inputs": [']
    for i, (name, hist) in enumerate(inputs):
        out.append(("\n  " if i == 0 else ",\n  ") + entry(name, hist, wrap))
    out.append('],\n "total": ' + entry("total", total, wrap) + '}\n')
    return "".join(out)


def parse_hist(spec):
    hist = [0] * 256
    for item in filter(None, spec.split(",")):
        byte, count = item.split("=")
        hist[int(byte)] += int(eval(count, {}))
    return hist


def many(n):
    base = [1000000000 + c * 7919 for c in range(256)]
    total = [v * n for v in base]
    inputs = []
    for i in range(n):
        hist = list(base)
        hist[i % 256] += i
        total[i % 256] += i
        inputs.append(("shard%05d.gz" % i, hist))
    return inputs, total


def main():
    args = sys.argv[1:]
    wrap = args[:1] == ["--wrap"]
    if wrap:
        args = args[1:]
    if args[:1] == ["--many"]:
        inputs, total = many(int(args[1]))
    else:
        inputs = [("in%d" % i, parse_hist(a)) for i, a in enumerate(args)]
        total = [sum(h[c] for _, h in inputs) for c in range(256)]
    sys.stdout.write(document(inputs, total, wrap))


if __name__ == "__main__":
    main()
