#!/usr/bin/env python3
"""gen.py - deterministic test data on stdout: gen.py SHAPE BYTES [VALUE]

SHAPE: random (seeded), repeat (VALUE repeated), log (web-access-like lines).
"""
import random
import sys


def log_lines(rng):
    paths = ["/", "/index.html", "/api/v1/items", "/static/app.js", "/login"]
    agents = ["Mozilla/5.0 (X11; Linux x86_64)", "curl/8.5.0", "Googlebot/2.1"]
    while True:
        yield ('%d.%d.%d.%d - - [22/Nov/2026:03:%02d:%02d +0000] "GET %s HTTP/1.1" '
               '%d %d "-" "%s"\n' % (
                   rng.randrange(256), rng.randrange(256), rng.randrange(256),
                   rng.randrange(256), rng.randrange(60), rng.randrange(60),
                   rng.choice(paths), rng.choice([200, 200, 200, 304, 404]),
                   rng.randrange(100000), rng.choice(agents))).encode()


def main():
    shape, size = sys.argv[1], int(sys.argv[2])
    out = sys.stdout.buffer
    rng = random.Random(20261122)
    if shape == "random":
        while size > 0:
            n = min(size, 1 << 20)
            out.write(rng.randbytes(n))
            size -= n
    elif shape == "repeat":
        value = bytes([int(sys.argv[3])])
        while size > 0:
            n = min(size, 1 << 20)
            out.write(value * n)
            size -= n
    elif shape == "log":
        lines = log_lines(rng)
        buf = bytearray()
        while size > 0:
            while len(buf) < (1 << 20):
                buf += next(lines)
            n = min(size, len(buf))
            out.write(buf[:n])
            del buf[:n]
            size -= n
    else:
        sys.exit("gen.py: unknown shape " + shape)


if __name__ == "__main__":
    main()
