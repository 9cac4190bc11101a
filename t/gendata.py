#!/usr/bin/env python3
# gendata.py - deterministic test data: text with every kind of byte in it
#
#   gendata.py SEED BYTES > FILE
#
# Mostly words (lower and upper case), digits, punctuation and all six
# space characters, with control bytes, NUL, 0xff and UTF-8 sprinkled in,
# so that every bin of every view gets counts.  The same SEED and BYTES
# always give the same file.

import random
import sys

WORDS = ("the quick brown fox jumps over the lazy dog programming massively "
         "parallel processors histogram Kernel GPU CUDA atomicAdd shared "
         "memory privatization aggregation coalescing Zebra QUIZ").split()
PUNCT = ".,;:!?-()[]{}'\"/\\@#$%^&*_+=<>|~`"


def piece(rng):
    r = rng.random()
    if r < 0.70:
        w = rng.choice(WORDS)
        return w.upper() if rng.random() < 0.1 else w
    if r < 0.80:
        return str(rng.randrange(100000))
    if r < 0.88:
        return rng.choice(PUNCT)
    if r < 0.95:
        return rng.choice([" ", " ", "\n", "\t", "\r\n", "\v", "\f"])
    if r < 0.98:
        return "caf\u00e9 na\u00efve \u00fcber \u2014 \u65e5\u672c"
    return "".join(chr(rng.randrange(32)) for _ in range(3)) + "\x7f"


def main():
    seed, size = int(sys.argv[1]), int(sys.argv[2])
    rng = random.Random(seed)
    out = bytearray()
    while len(out) < size:
        p = piece(rng).encode("utf-8")
        if rng.random() < 0.01:
            p += bytes([0, 0xff, rng.randrange(128, 256)])
        out += p + (b" " if rng.random() < 0.8 else b"")
    sys.stdout.buffer.write(bytes(out[:size]))


if __name__ == "__main__":
    main()
