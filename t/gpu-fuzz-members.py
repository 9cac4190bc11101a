#!/usr/bin/env python3
"""gpu-fuzz-members.py - hostile BGZF files against the GPU's member decoder

For SECONDS, makes rounds of mutated BGZF files (bytes flipped, inserted
or deleted, cut, members repeated, dropped or swapped, size fields,
CRC-32s and ISIZEs changed) from a few small real ones, and counts each
round, all files in one process, with the GPU decoding the members
(--backend=gpu, GPUHIST_GPU_ONLY=1) and with the CPU backend: output,
messages and exit status must be the same, and the GPU run must not
crash, hang (60 s a round) or leave compute-sanitizer errors (with
--sanitize, its memcheck over every GPU run).  Writes the first failing
round under DIR/failed-N and exits 1; else prints what it ran.
Usage: gpu-fuzz-members.py GPUHIST SECONDS DIR [--sanitize] [--seed N]
"""
import os
import random
import shutil
import struct
import subprocess
import sys
import time

# Inputs a round: 16 at once, each on 4 threads (one device named four
# times lets 64 threads read), so that each takes the parallel path.
PER_ROUND = 16


def members(data):
    """The (offset, length) of each BGZF member, by their size fields."""
    at, out = 0, []
    while at + 18 <= len(data):
        size = data[at + 16] | data[at + 17] << 8
        out.append((at, size + 1))
        at += size + 1
    return out


def resized(member):
    """member with its BSIZE field made its length again."""
    b = bytearray(member)
    if len(b) >= 18:
        struct.pack_into("<H", b, 16, (len(b) - 1) & 0xffff)
    return bytes(b)


def mutate(rng, data):
    if len(data) < 2:
        return data + b"\x1f"
    ms = [(o, n) for o, n in members(data) if o + n <= len(data)]
    kind = rng.randrange(10)
    b = bytearray(data)
    if kind == 0:                       # bytes flipped anywhere
        for _ in range(rng.randint(1, 8)):
            b[rng.randrange(len(b))] ^= rng.randint(1, 255)
    elif kind == 1:                     # cut
        del b[rng.randrange(len(b)):]
    elif kind == 2:                     # bytes inserted
        at = rng.randrange(len(b))
        b[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 9)))
    elif kind == 3:                     # bytes deleted
        at = rng.randrange(len(b))
        del b[at:at + rng.randint(1, 9)]
    elif kind == 4 and ms:              # a member repeated, dropped, swapped
        parts = [bytes(data[o:o + n]) for o, n in ms]
        i, j = rng.randrange(len(parts)), rng.randrange(len(parts))
        op = rng.randrange(3)
        if op == 0:
            parts.insert(i, parts[j])
        elif op == 1:
            del parts[i]
        else:
            parts[i], parts[j] = parts[j], parts[i]
        b = bytearray(b"".join(parts))
    elif kind == 5 and ms:              # a size field lies
        o, _ = ms[rng.randrange(len(ms))]
        if o + 18 <= len(b):
            struct.pack_into("<H", b, o + 16, rng.randrange(65536))
    elif kind == 6 and ms:              # a trailer lies: CRC-32 or ISIZE
        o, n = ms[rng.randrange(len(ms))]
        if o + n <= len(b):
            at = o + n - (8 if rng.randrange(2) else 4)
            struct.pack_into("<I", b, at, rng.choice(
                [0, 1, 0xffffffff, 65536, 65537,
                 struct.unpack_from("<I", b, at)[0] ^ (1 << rng.randrange(32))]))
    elif kind == 7 and ms:              # a member's deflate data flipped
        o, n = ms[rng.randrange(len(ms))]
        if n > 30:
            b[o + 18 + rng.randrange(n - 26)] ^= 1 << rng.randrange(8)
    elif kind == 8 and ms:              # bytes inside a member, size kept true
        o, n = ms[rng.randrange(len(ms))]
        if n > 30:
            mem = bytearray(data[o:o + n])
            at = rng.randrange(18, n)
            mem[at:at] = bytes(rng.randrange(256)
                               for _ in range(rng.randint(1, 5)))
            b = bytearray(data[:o] + resized(mem) + data[o + n:])
    else:                               # header flags changed
        if ms:
            o, _ = ms[rng.randrange(len(ms))]
            b[o + 3] ^= 1 << rng.randrange(8)
    return bytes(b)


def messages(err):
    """What a run said of its inputs, without -v's lines on how."""
    return [l for l in err.split(b"\n")
            if l.startswith(b"gpuhist: ") and b" decoded " not in l
            and b" backend" not in l and b" bytes in " not in l]


def run(argv, env, timeout=60):
    p = subprocess.run(argv, env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def main():
    args = sys.argv[1:]
    sanitize = "--sanitize" in args
    seed = 1
    if "--seed" in args:
        seed = int(args[args.index("--seed") + 1])
    gpuhist, seconds, out = args[0], float(args[1]), args[2]
    rng = random.Random(seed)
    os.makedirs(out, exist_ok=True)
    work = os.path.join(out, "round")
    # The seeds: small BGZF files of real text (this script), made by
    # bgzip at three levels: 24 members, 20-80 KB.
    text = open(__file__, "rb").read() * 200
    seeds = []
    for level in ("1", "6", "9"):
        p = subprocess.run(["bgzip", "-l", level, "-c"], input=text,
                           stdout=subprocess.PIPE, check=True)
        seeds.append(p.stdout)
    env = dict(os.environ, GPUHIST_GPU_ONLY="1", GPUHIST_GZIP_REGION="1024")
    start = time.time()
    rounds = files = gpu_batches = 0
    while time.time() - start < seconds:
        shutil.rmtree(work, ignore_errors=True)
        os.makedirs(work)
        names = []
        for i in range(PER_ROUND):
            data = rng.choice(seeds)
            for _ in range(rng.randint(1, 3)):
                data = mutate(rng, data)
            name = os.path.join(work, "f%03d.gz" % i)
            open(name, "wb").write(data)
            names.append(name)
        base = ["-b", "-f", "tsv", "--threads=64", "--devices=0,0,0,0"] + names
        gpu_argv = [gpuhist, "--backend=" + os.environ.get("FUZZ_GPU_BACKEND", "gpu"), "-v"] + base
        if sanitize:
            gpu_argv = ["compute-sanitizer", "--error-exitcode", "99",
                        "--print-limit", "5"] + gpu_argv
        try:
            g = run(gpu_argv, env, timeout=300 if sanitize else 60)
        except subprocess.TimeoutExpired:
            g = ("timeout", b"", b"")
        c = run([gpuhist, "--backend=cpu", "-v"] + base, env)
        g_rc = g[0] if g[0] != 99 else "sanitizer"
        if (g_rc, g[1], messages(g[2])) != (c[0], c[1], messages(c[2])):
            bad = os.path.join(out, "failed-%d" % rounds)
            shutil.copytree(work, bad)
            open(os.path.join(bad, "gpu.err"), "wb").write(g[2])
            open(os.path.join(bad, "cpu.err"), "wb").write(c[2])
            print("FAIL round %d: GPU exit %s, CPU exit %s; files in %s"
                  % (rounds, g_rc, c[0], bad))
            return 1
        gpu_batches += sum(int(w.split()[0]) for w in
                           [l.split(b", ")[-1].decode() for l in
                            g[2].split(b"\n") if b"batches decoded on the GPU" in l])
        rounds += 1
        files += len(names)
    if not gpu_batches:
        print("FAIL: %d rounds, but no batch was decoded on the GPU" % rounds)
        return 1
    print("gpu-fuzz-members: %d rounds, %d hostile files, %d batches decoded "
          "on the GPU, all as the CPU backend said%s"
          % (rounds, files, gpu_batches,
             ", 0 sanitizer errors" if sanitize else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
