#!/usr/bin/env python3
# mkdeflate.py - gzip members with hand-made Huffman codes, CRC valid
#
#   mkdeflate.py DIR
#
# Writes into DIR one gzip member per case, each a single dynamic block
# (RFC 1951) whose code lengths are chosen here rather than by a
# compressor, with the right CRC-32 and length:
#
#   incomplete-litlen.gz   the literal/length code is incomplete
#   incomplete-dist.gz     the distance code is incomplete (two codes of 2 bits)
#   incomplete-precode.gz  the code lengths' code is incomplete
#   single-dist.gz         the distance code is one code of one bit
#   single-litlen.gz       a block whose literal/length code is one code of
#                          one bit (end-of-block alone), then a block of text
#
# zlib (and gzip -dc) refuse the first three and accept the last two:
# an incomplete code is allowed only where it is a single one-bit code,
# never for the code lengths' code.  Every stream only uses codes that
# exist, so a decoder that does not check completeness decodes them.

import os
import struct
import sys
import zlib

PRECODE_ORDER = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14,
                 1, 15]
LEN_BASE = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43,
            51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
LEN_EXTRA = [0] * 8 + [1] * 4 + [2] * 4 + [3] * 4 + [4] * 4 + [5] * 4 + [0]
DIST_BASE = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257,
             385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289,
             16385, 24577]
DIST_EXTRA = [0, 0] + [i // 2 for i in range(2, 28)] + [13, 13]


class Bits:
    """Deflate's bit order: fields LSB first, Huffman codes MSB first."""

    def __init__(self):
        self.out = bytearray()
        self.acc = 0
        self.n = 0

    def put(self, value, nbits):
        self.acc |= value << self.n
        self.n += nbits
        while self.n >= 8:
            self.out.append(self.acc & 255)
            self.acc >>= 8
            self.n -= 8

    def code(self, codeword, nbits):
        rev = 0
        for _ in range(nbits):
            rev = rev << 1 | (codeword & 1)
            codeword >>= 1
        self.put(rev, nbits)

    def bytes(self):
        return bytes(self.out) + (bytes([self.acc]) if self.n else b"")


def canonical(lengths):
    """Codewords of a canonical code (RFC 1951 3.2.2), complete or not."""
    count = [0] * 16
    for n in lengths:
        count[n] += 1
    count[0] = 0
    nxt, code = [0] * 16, 0
    for bits in range(1, 16):
        code = (code + count[bits - 1]) << 1
        nxt[bits] = code
    codes = []
    for n in lengths:
        codes.append(nxt[n] if n else None)
        if n:
            nxt[n] += 1
    return codes


def flat(k):
    """Lengths of a complete code of k >= 2 symbols, as even as can be."""
    bits = max(1, (k - 1).bit_length())
    short = (1 << bits) - k
    return [bits - 1] * short + [bits] * (k - short)


def run_lengths(lens):
    """The code lengths as precode symbols (symbol, extra value, extra bits)."""
    out, i = [], 0
    while i < len(lens):
        j = i
        while j < len(lens) and lens[j] == lens[i]:
            j += 1
        run = j - i
        if lens[i] == 0 and run >= 11:
            take = min(run, 138)
            out.append((18, take - 11, 7))
        elif lens[i] == 0 and run >= 3:
            take = min(run, 10)
            out.append((17, take - 3, 3))
        else:
            take = 1
            out.append((lens[i], 0, 0))
        i += take
    return out


def block(bits, last, lit_lens, dist_lens, symbols, precode_lens=None):
    """One dynamic block: its header, then symbols, each a literal byte
    (int), ('match', length, distance) or 'eob'."""
    rl = run_lengths(lit_lens + dist_lens)
    used = sorted({s for s, _, _ in rl})
    if precode_lens is None:
        if len(used) == 1:
            used.append(0 if used[0] else 1)
        lens = flat(len(used))
        precode_lens = dict(zip(used, lens))
    pre = [precode_lens.get(s, 0) for s in range(19)]
    hclen = 19
    while hclen > 4 and pre[PRECODE_ORDER[hclen - 1]] == 0:
        hclen -= 1
    bits.put(last, 1)
    bits.put(2, 2)
    bits.put(len(lit_lens) - 257, 5)
    bits.put(len(dist_lens) - 1, 5)
    bits.put(hclen - 4, 4)
    for i in range(hclen):
        bits.put(pre[PRECODE_ORDER[i]], 3)
    pcodes = canonical(pre)
    for sym, extra, nextra in rl:
        bits.code(pcodes[sym], pre[sym])
        bits.put(extra, nextra)
    lcodes, dcodes = canonical(lit_lens), canonical(dist_lens)
    for s in symbols:
        if s == "eob":
            bits.code(lcodes[256], lit_lens[256])
        elif isinstance(s, int):
            bits.code(lcodes[s], lit_lens[s])
        else:
            _, length, dist = s
            li = max(i for i in range(29) if LEN_BASE[i] <= length)
            bits.code(lcodes[257 + li], lit_lens[257 + li])
            bits.put(length - LEN_BASE[li], LEN_EXTRA[li])
            di = max(i for i in range(30) if DIST_BASE[i] <= dist)
            bits.code(dcodes[di], dist_lens[di])
            bits.put(dist - DIST_BASE[di], DIST_EXTRA[di])


def member(deflate, data):
    return (b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03" + deflate +
            struct.pack("<II", zlib.crc32(data), len(data) & 0xffffffff))


def lens_for(n, given):
    lens = [0] * n
    for sym, length in given.items():
        lens[sym] = length
    return lens


def main():
    out = sys.argv[1]
    a, b = ord("a"), ord("b")
    cases = {}

    # a, b and end-of-block of two bits each: 3/4 of the code space.
    bits = Bits()
    block(bits, 1, lens_for(257, {a: 2, b: 2, 256: 2}), [1],
          [a, b, b, a, "eob"])
    cases["incomplete-litlen"] = (bits.bytes(), b"abba")

    # a, b, end-of-block and length 3 complete; distances 1 and 2 of two
    # bits each: half of the code space.
    bits = Bits()
    block(bits, 1, lens_for(258, {a: 2, b: 2, 256: 2, 257: 2}), [2, 2],
          [a, b, ("match", 3, 2), ("match", 3, 1), "eob"])
    cases["incomplete-dist"] = (bits.bytes(), b"ababaaaa")

    # The same complete codes, the code lengths sent with a code of three
    # two-bit codes (0, 1 and 2 would need a fourth, or one of one bit).
    bits = Bits()
    lit = lens_for(258, {a: 2, b: 2, 256: 2, 257: 2})
    used = {s for s, _, _ in run_lengths(lit + [1])}
    block(bits, 1, lit, [1], [b, a, ("match", 3, 1), "eob"],
          precode_lens={s: 2 for s in used})
    assert len(used) == 3, used
    cases["incomplete-precode"] = (bits.bytes(), b"baaaa")

    # A single distance code of one bit: allowed.
    bits = Bits()
    block(bits, 1, lit, [1], [a, b, ("match", 3, 1), b, "eob"])
    cases["single-dist"] = (bits.bytes(), b"abbbbb")

    # End-of-block alone, one bit: an empty block, allowed; then text.
    bits = Bits()
    block(bits, 0, lens_for(257, {256: 1}), [1], ["eob"])
    block(bits, 1, lit, [1, 1], [a, ("match", 3, 1), b, ("match", 3, 2),
                                 "eob"])
    cases["single-litlen"] = (bits.bytes(), b"aaaababa")

    for name, (deflate, data) in cases.items():
        with open(os.path.join(out, name + ".gz"), "wb") as f:
            f.write(member(deflate, data))


if __name__ == "__main__":
    main()
