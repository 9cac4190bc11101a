#!/usr/bin/env python3
# make-seeds.py - writes fuzz/corpus, the fuzz harness's seed test cases
#
# Each seed is one control byte (how fuzz-input.c reads it: chunk size,
# pipe or memfd, writer pieces or junk) followed by a stream: gzip of one
# member, of two, with zero padding, with trailing garbage, truncated, of
# nothing, with every optional header field, with an incomplete Huffman
# code; xz and bzip2 (Python's modules), one stream and two; zstd (the
# zstd command, where installed), one frame and two with a skippable one;
# lz4 (the lz4 command, where installed), a frame, frames with a legacy
# one between, and garbage after; a zip archive; and plain text.  Deterministic (mtime 0), so rerunning it rewrites the
# same files.
#   usage: fuzz/make-seeds.py [DIR]     (default: fuzz/corpus beside it)
import bz2
import lzma
import os
import shutil
import struct
import subprocess
import sys
import zlib

TEXT = (b"Programming massively parallel processors: a histogram counts "
        b"how often each value occurs.\n") * 6


def member(data, level=6, header=None):
    """One gzip member of data; header replaces the plain 10-byte header."""
    c = zlib.compressobj(level, zlib.DEFLATED, -15)
    body = c.compress(data) + c.flush()
    if header is None:
        header = b"\x1f\x8b\x08\x00" + bytes(4) + b"\x00\x03"
    return header + body + struct.pack("<II", zlib.crc32(data),
                                       len(data) & 0xffffffff)


def full_header():
    """FEXTRA, FNAME, FCOMMENT and FHCRC, as t2001 builds it."""
    hdr = b"\x1f\x8b\x08\x1e" + bytes(4) + b"\x00\x03"
    hdr += struct.pack("<H", 6) + b"AB\x02\x00xy"
    hdr += b"name.txt\x00" + b"a comment\x00"
    return hdr + struct.pack("<H", zlib.crc32(hdr) & 0xffff)


def zstd(data):
    """One zstd frame of data, or None without the zstd command."""
    if not shutil.which("zstd"):
        return None
    return subprocess.run(["zstd", "-q", "-c", "--no-check"], input=data,
                          capture_output=True, check=True).stdout


def lz4(data, *args):
    """lz4 of data (lz4 -l: a legacy frame), or None without lz4."""
    if not shutil.which("lz4"):
        return None
    return subprocess.run(["lz4", "-q", "-c", *args], input=data,
                          capture_output=True, check=True).stdout


def seeds():
    xz = lzma.compress(TEXT)
    yield "xz-one", 0x05, xz
    yield "xz-two-padded", 0x33, xz + bytes(4) + lzma.compress(TEXT[:100])
    bz = bz2.compress(TEXT)
    yield "bzip2-one", 0x07, bz
    yield "bzip2-two-garbage", 0x52, bz + bz2.compress(b"x") + b"junk"
    frame = zstd(TEXT)
    if frame:
        skip = struct.pack("<II", 0x184D2A50, 3) + b"abc"
        yield "zstd-one", 0x06, frame
        yield "zstd-two-skippable", 0x44, frame + skip + zstd(b"y" * 50)
    frame = lz4(TEXT)
    if frame:
        yield "lz4-one", 0x08, frame
        yield "lz4-legacy-between", 0x46, (frame + lz4(TEXT[:120], "-l") +
                                           lz4(b"z" * 70, "--content-size"))
        yield "lz4-garbage", 0x39, frame + b"junk"
    yield "zip-stored", 0x0b, (b"PK\x03\x04\x0a" + bytes(21) + b"a.txt" +
                               TEXT[:80])
    one = member(TEXT, 9)
    two = member(b"first member\n" * 20, 1) + member(TEXT[:200], 6)
    yield "one-member", 0x03, one
    yield "two-members", 0x17, two
    yield "zero-padding", 0x2c, one + bytes(40)
    yield "trailing-garbage", 0x41, one + b"garbage\n"
    yield "truncated", 0x5a, one[:len(one) * 2 // 3]
    yield "empty-gzip", 0x00, member(b"")
    yield "empty-then-member", 0x96, member(b"") + member(b"abc\n" * 50)
    yield "header-fields", 0x68, member(TEXT[:300], 6, full_header())
    yield "stored-block", 0xe7, member(bytes(range(256)), 0)
    yield "plain-text", 0x0d, TEXT
    yield "plain-1f", 0x31, b"\x1fplain after 0x1f\n"
    # Issue 12's example: an incomplete literal/length code, CRC valid,
    # which ISA-L alone takes and zlib refuses.
    yield "incomplete-code", 0x22, bytes.fromhex(
        "1f8b080000000000000305c0010900000083b0acda3f84c3006d48839e02000000")


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else \
        os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")
    os.makedirs(out, exist_ok=True)
    for name, control, stream in seeds():
        with open(os.path.join(out, name), "wb") as f:
            f.write(bytes([control]) + stream)


if __name__ == "__main__":
    main()
