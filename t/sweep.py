#!/usr/bin/env python3
# sweep.py - damaged gzip files: gpuhist and gzip -dc must agree on each
#
#   sweep.py GPUHIST WORKDIR truncate FILE           every prefix of FILE
#   sweep.py GPUHIST WORKDIR flip FILE COUNT SEED    COUNT one-bit flips
#
# Writes the damaged copies of FILE into WORKDIR (every truncation point,
# 0 .. size bytes; or COUNT copies with one bit flipped at positions drawn
# from Python's random with SEED), then decides each case by this rule:
#
#  - gzip -dc exits 0, or 2 saying only "trailing zero bytes ignored": the
#    case is good; gpuhist must count it, with exactly the byte totals of
#    gzip -dc's output (decoded by gzip, counted by collections.Counter);
#  - gzip -dc fails otherwise (exit 1; or 2 for "trailing garbage ignored",
#    which gpuhist refuses, since skipping data would give a partial
#    count): the case is bad; gpuhist must leave it out of its results and
#    the total and name it once on stderr ("gpuhist: NAME: reason");
#  - a case that does not start with gzip's magic bytes 1f 8b (fewer than
#    2 bytes, or a flip in the magic) is plain data to gpuhist, counted as
#    it is (SPEC: gzip is recognised by its magic bytes), where gzip -dc
#    refuses it: such a case is good, with the totals of its own bytes.
#
# Cases go to gpuhist hundreds at a time (-b -f json), under a few
# --chunk-size and --threads settings in turn; a run with a bad case must
# exit 1, one without 0.  Prints "# ..." lines (how many cases, good and
# bad) and a line per disagreement; exits 0 when there is none, else 1.
import collections
import concurrent.futures
import json
import os
import random
import subprocess
import sys

BATCH = 400
SETTINGS = [[], ["--threads=1", "--chunk-size=4093"], ["--chunk-size=61"]]


def make_cases(workdir, mode, path, args):
    """Writes the damaged copies; returns their names (relative)."""
    data = open(path, "rb").read()
    stem = os.path.basename(path).replace(".", "_")
    cases = []
    if mode == "truncate":
        for n in range(len(data) + 1):
            cases.append(("%s-cut%05d" % (stem, n), data[:n]))
    else:
        count, seed = int(args[0]), int(args[1])
        rng = random.Random(seed)
        for i in range(count):
            bit = rng.randrange(len(data) * 8)
            damaged = bytearray(data)
            damaged[bit // 8] ^= 1 << (bit % 8)
            cases.append(("%s-flip%04d-bit%d" % (stem, i, bit),
                          bytes(damaged)))
    for name, content in cases:
        with open(os.path.join(workdir, name), "wb") as f:
            f.write(content)
    return [name for name, _ in cases]


def expected(workdir, name):
    """What gzip -dc makes of the case: (good, [256 totals] or None)."""
    path = os.path.join(workdir, name)
    content = open(path, "rb").read()
    if content[:2] != b"\x1f\x8b":
        counts = collections.Counter(content)
        return True, [counts[v] for v in range(256)]
    run = subprocess.run(["gzip", "-dc", path], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    warning = run.stderr.decode(errors="replace")
    good = run.returncode == 0 or (
        run.returncode == 2 and "trailing zero bytes ignored" in warning
        and "garbage" not in warning)
    if not good:
        return False, None
    counts = collections.Counter(run.stdout)
    return True, [counts[v] for v in range(256)]


def check_batch(gpuhist, workdir, names, settings, want, problems):
    """One gpuhist run over names; appends what disagrees to problems."""
    run = subprocess.run([gpuhist, "-b", "-f", "json"] + settings + ["--"] +
                         names, cwd=workdir, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    how = " ".join(settings) or "default settings"
    bad = [n for n in names if not want[n][0]]
    if run.returncode != (1 if bad else 0):
        problems.append("exit %d with %d bad cases (%s)" %
                        (run.returncode, len(bad), how))
    try:
        doc = json.loads(run.stdout)
    except ValueError as e:
        problems.append("output is not json (%s): %s" % (how, e))
        return
    got = {entry["name"]: entry for entry in doc["inputs"]}
    named = collections.Counter()
    for line in run.stderr.decode(errors="replace").splitlines():
        parts = line.split(": ", 2)
        if len(parts) == 3 and parts[0] == "gpuhist" and parts[1] in want:
            named[parts[1]] += 1
        else:
            problems.append("unexpected stderr line (%s): %r" % (how, line))
    total = [0] * 256
    for name in names:
        good, totals = want[name]
        if good:
            entry = got.get(name)
            if entry is None or "histogram" not in entry:
                problems.append("%s: gzip -dc decodes it, gpuhist failed "
                                "(%s)" % (name, how))
            elif entry["histogram"] != totals:
                problems.append("%s: totals differ from gzip -dc's (%s)" %
                                (name, how))
            elif entry["bytes_read"] != sum(totals):
                problems.append("%s: bytes_read is not the decoded size" %
                                name)
            if named[name]:
                problems.append("%s: a message for a good case" % name)
            total = [a + b for a, b in zip(total, totals)]
        else:
            # A failed input's entry holds its name and error alone.
            if sorted(got.get(name, {})) != ["error", "name"]:
                problems.append("%s: gzip -dc fails, gpuhist counted it "
                                "(%s)" % (name, how))
            if named[name] != 1:
                problems.append("%s: named %d times on stderr, not once "
                                "(%s)" % (name, named[name], how))
    if doc["total"]["histogram"] != total:
        problems.append("the total is not the sum of the good cases (%s)" %
                        how)


def main():
    gpuhist, workdir, mode, path = sys.argv[1:5]
    os.makedirs(workdir, exist_ok=True)
    names = make_cases(workdir, mode, path, sys.argv[5:])
    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        want = dict(zip(names, pool.map(lambda n: expected(workdir, n),
                                        names)))
    problems = []
    for i in range(0, len(names), BATCH):
        check_batch(gpuhist, workdir, names[i:i + BATCH],
                    SETTINGS[(i // BATCH) % len(SETTINGS)], want, problems)
    n_good = sum(1 for good, _ in want.values() if good)
    print("# %s %s: %d cases, %d good and %d bad by the rule, "
          "%d disagreements" % (mode, os.path.basename(path), len(names),
                                n_good, len(names) - n_good, len(problems)))
    for line in problems[:20]:
        print("# " + line)
    for name in names:
        os.unlink(os.path.join(workdir, name))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
