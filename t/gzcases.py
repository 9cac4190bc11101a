#!/usr/bin/env python3
"""gzcases.py - gzip files of every shape the parallel decoder must handle

Usage: gzcases.py DIR   writes DIR/NAME.gz files (and prints their names):
deflate streams with stored, fixed and dynamic blocks of a few bytes up to
megabytes, data that holds block headers of its own, every header field,
many members, and, for the corruption cases, bad variants of one file.
Real tools (gzip, pigz, igzip, libdeflate-gzip, bgzip) are added by the
test itself where installed.
"""
import gzip
import os
import random
import struct
import sys
import zlib

out = sys.argv[1]
rng = random.Random(2300)


def text(n, seed):
    r = random.Random(seed)
    words = ["".join(r.choice("abcdefghijklmnopqrstuvwxyz")
                     for _ in range(r.randint(2, 9))) for _ in range(3000)]
    parts, size = [], 0
    while size < n:
        line = "%d.%d.%d.%d - - [%02d/Nov/2026] \"GET /%s/%s HTTP/1.1\" %d %d\n" % (
            r.randint(1, 255), r.randint(0, 255), r.randint(0, 255),
            r.randint(0, 255), r.randint(1, 28), r.choice(words),
            r.choice(words), r.choice([200, 304, 404]), r.randint(10, 99999))
        line += " ".join(r.choice(words) for _ in range(r.randint(0, 12))) + "\n"
        parts.append(line)
        size += len(line)
    return "".join(parts).encode()[:n]


def member(data, level=6, strategy=zlib.Z_DEFAULT_STRATEGY, flush_every=0,
           flush=zlib.Z_SYNC_FLUSH, header=None):
    """One gzip member; header: raw header bytes to use instead of the
    plain one."""
    c = zlib.compressobj(level, zlib.DEFLATED, -15, 9, strategy)
    body = b""
    if flush_every:
        for i in range(0, len(data), flush_every):
            body += c.compress(data[i:i + flush_every]) + c.flush(flush)
    else:
        body += c.compress(data)
    body += c.flush()
    head = header if header is not None else b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03"
    return head + body + struct.pack("<II", zlib.crc32(data), len(data) & 0xffffffff)


def write(name, blob):
    with open(os.path.join(out, name + ".gz"), "wb") as f:
        f.write(blob)
    print(name)


t = text(600000, 1)
for level in range(1, 10):
    write("level%d" % level, member(t, level))
write("stored", member(t, 0))                           # stored blocks only
write("fixed", member(t, 6, zlib.Z_FIXED))              # fixed Huffman only
write("huffman-only", member(t, 6, zlib.Z_HUFFMAN_ONLY))
write("rle", member(t, 6, zlib.Z_RLE))
write("tiny-blocks", member(t[:200000], 6, flush_every=37))     # few bytes a block
write("full-flush", member(t[:200000], 6, flush_every=1000, flush=zlib.Z_FULL_FLUSH))
write("zeros", member(bytes(30 << 20), 9))              # blocks of megabytes
write("runs", member(b"".join(bytes([rng.randrange(256)]) * rng.randint(1, 3000)
                              for _ in range(3000)), 9))
write("random", member(rng.randbytes(400000), 6))       # stored by zlib
write("mixed", member(t[:100000] + rng.randbytes(50000) + t[100000:300000] +
                      bytes(100000) + t[300000:], 6))
# Data holding block and member headers of its own, stored and compressed.
inner = member(t, 6) + member(t[:100000], 1)
write("holds-gzip-stored", member(inner * 2, 0))
write("holds-gzip", member(inner * 3, 6))
# Every header field, a header CRC, and members of every size.
flags = 0x02 | 0x04 | 0x08 | 0x10
head = b"\x1f\x8b\x08" + bytes([flags]) + b"\x00\x00\x00\x00\x02\xff"
head += struct.pack("<H", 6) + b"AB\x02\x00xy" + b"name.txt\x00" + b"a comment\x00"
head += struct.pack("<H", zlib.crc32(head) & 0xffff)
write("header-fields", member(t, 6, header=head) + member(t[:1000], 6, header=head))
members = b"".join(member(t[i:i + n], rng.choice([1, 6, 9]))
                   for i, n in ((rng.randrange(len(t)), rng.choice([0, 1, 100, 5000, 70000]))
                                for _ in range(60)))
write("many-members", members)
write("empty-members", member(b"") + member(t[:5000]) + member(b"") + member(b""))
write("zero-padding", member(t, 6) + bytes(5000))

# Corrupt variants of one file: the verdict must be the serial decoder's.
good = member(t, 6) + member(t[:300000], 1)
bad = {}
for k, at in enumerate((10, 200, 20000, 150000, len(good) // 2, len(good) - 20,
                        len(good) - 6, len(good) - 1)):
    bad["trunc%d" % k] = good[:at]
for k in range(12):
    b = bytearray(good)
    at = rng.randrange(10, len(good) - 8)
    b[at] ^= 1 << rng.randrange(8)
    bad["flip%d" % k] = bytes(b)
b = bytearray(good)
b[-8] ^= 0xff
bad["bad-crc"] = bytes(b)
b = bytearray(good)
b[-4] ^= 1
bad["bad-length"] = bytes(b)
bad["garbage"] = good + b"junk"
bad["garbage-after-zeros"] = good + bytes(100) + b"\x1f\x8b"
bad["garbage-1f"] = good + b"\x1f"
bad["bad-method"] = good[:len(good) // 2] + b"\x1f\x8b\x07" + good[len(good) // 2 + 3:]
for name, blob in bad.items():
    write("bad-" + name, blob)
