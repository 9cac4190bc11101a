#!/usr/bin/env python3
"""mkmembers.py - gzip members of random (incompressible: stored) data, each
with an extra field of XLEN bytes, as t2304 needs them: headers that a scan
finds cut by its reads, and gzip headers inside the members' stored data.

Usage: mkmembers.py SEED MEMBERS SIZE XLEN OUT (each member SIZE to 1.5 x
SIZE bytes of data)
"""
import random, struct, sys, zlib
seed, n, msize, xlen, path = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
rng = random.Random(seed)
with open(path, "wb") as out:
    for i in range(n):
        data = rng.randbytes(msize + rng.randrange(msize // 2))
        hdr = (b"\x1f\x8b\x08\x04\0\0\0\0\0\xff" + struct.pack("<H", xlen)
               + b"AB" + struct.pack("<H", xlen - 4) + bytes(xlen - 4))
        c = zlib.compressobj(6, zlib.DEFLATED, -15)
        out.write(hdr + c.compress(data) + c.flush()
                  + struct.pack("<II", zlib.crc32(data), len(data)))
