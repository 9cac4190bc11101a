#!/usr/bin/env python3
"""layers.py - no two files of src/lib include or call each other in a loop,
no folder of src/lib depends on one its layer may not use, and no file
includes another folder's header by name alone (by its path under src/lib)

    layers.py SRCDIR BUILDDIR

A file's module is its name without .c or .h (foo.c and foo.h are one).
Module A depends on module B where a file of A includes B's header, or
where A's object (nm) uses a symbol that B's object defines.  A folder
depends on another where one of its modules depends on one of the
other's; FOLDERS_MAY_USE says which folder may depend on which.  Prints
each loop of modules found (a strongly connected set), each folder link
that FOLDERS_MAY_USE does not allow, and the folder loops it allows for
now; exits 1 if there is a loop of modules or a link not allowed; prints
the number of modules and links and exits 0 otherwise; exits 2 where the
build has no objects to read (a build carried elsewhere).
"""
import os
import re
import subprocess
import sys


def modules(srcdir):
    """Every .c and .h under src/lib, by module name."""
    found = {}
    for top, _, files in os.walk(os.path.join(srcdir, "src", "lib")):
        for f in files:
            if f.endswith((".c", ".h")):
                found.setdefault(f.rsplit(".", 1)[0], []).append(
                    os.path.join(top, f))
    return found


def include_links(mods):
    links = set()
    for mod, paths in mods.items():
        for path in paths:
            with open(path, encoding="utf-8") as f:
                for line in f:
                    # By name from its own folder, or by its path
                    # under src/lib ("tokens/counts.h").
                    m = re.match(r'\s*#\s*include\s+"([^"]+)\.h"', line)
                    name = m and m.group(1).rsplit("/", 1)[-1]
                    if m and name in mods and name != mod:
                        links.add((mod, name))
    return links


def call_links(builddir, mods):
    """From the library's objects: who uses whose symbols."""
    objects = []
    for top, _, files in os.walk(os.path.join(builddir, "src", "lib")):
        if os.path.basename(top) == ".libs":
            continue
        for f in files:
            m = re.match(r"libgpuhist_la-(.+)\.o$", f)
            if m and m.group(1) in mods:
                objects.append((m.group(1), os.path.join(top, f)))
    defined, used = {}, {}
    for mod, path in objects:
        out = subprocess.run(["nm", path], capture_output=True, text=True,
                             check=True).stdout
        used[mod] = set()
        for line in out.splitlines():
            parts = line.split()
            if len(parts) == 2 and parts[0] == "U":
                used[mod].add(parts[1])
            elif len(parts) == 3 and parts[1].isupper():
                defined[parts[2]] = mod
    links = set()
    for mod, syms in used.items():
        for s in syms:
            if s in defined and defined[s] != mod:
                links.add((mod, defined[s]))
    return links, len(objects)


# What each folder of src/lib may depend on ("lib": the files at its top,
# which run the pipeline and call every layer; its clock.c, notes.c and
# run_each.h serve any).  A new dependency between folders is a design change: make
# it here, on purpose.  The two marked ones are a folder loop that issue
# "Views through one seam" removes (count/ is two jobs: the CPU's loops,
# which backend_cpu.c runs, and the chunks' joining, which needs
# backend.h's chunk; the parallel decoders reach the backend and submit.c
# directly instead of through one chunk sink).
FOLDERS_MAY_USE = {
    "lib": {"decode", "join", "backend", "tokens", "values", "merge"},
    "decode": {"join", "backend"},      # backend: chunk.h alone (the
                                        # chunks it lends; join/sink.h
                                        # is the way to it)
    "join": {"backend", "tokens"},
    "backend": {"tokens"},
    "tokens": set(),
    "values": {"tokens"},
    "merge": {"tokens", "values"},      # their public sums alone
}
# lib's files any folder may use: the clock, notes, the thread helper and
# code-point totals (the public gpuhist_chars_*)
LIB_SHARED = {"clock", "notes", "run_each", "chars"}


def folder_of(srcdir, mods, mod):
    rel = os.path.relpath(os.path.dirname(mods[mod][0]),
                          os.path.join(srcdir, "src", "lib"))
    return "lib" if rel == "." else rel.split(os.sep)[0]


def folder_links(srcdir, mods, links):
    """Links between folders that FOLDERS_MAY_USE does not allow, and the
    allowed folder pairs that depend on each other both ways."""
    between = {}
    for a, b in links:
        fa, fb = folder_of(srcdir, mods, a), folder_of(srcdir, mods, b)
        if fa != fb and not (fb == "lib" and b in LIB_SHARED):
            between.setdefault((fa, fb), set()).add((a, b))
    bad = []
    for (fa, fb), pairs in sorted(between.items()):
        if fb not in FOLDERS_MAY_USE.get(fa, set()):
            bad.append("%s -> %s (%s)" % (fa, fb, "; ".join(
                "%s -> %s" % p for p in sorted(pairs))))
    mutual = sorted("%s <-> %s" % (fa, fb) for fa, fb in between
                    if fa < fb and (fb, fa) in between)
    return bad, mutual


def loops(nodes, links):
    """Tarjan's strongly connected components of more than one node."""
    succ = {n: [] for n in nodes}
    for a, b in links:
        succ[a].append(b)
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in succ[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for n in sorted(nodes):
        if n not in index:
            visit(n)
    return out


def by_name_elsewhere(srcdir, mods):
    """Includes of another folder's header by its name alone: the
    library's headers are included by their path under src/lib (which is
    the name alone for src/lib's own), or by name from their own folder."""
    top = os.path.join(srcdir, "src", "lib")
    found = []
    for paths in mods.values():
        for path in paths:
            here = os.path.dirname(path)
            with open(path, encoding="utf-8") as f:
                for line in f:
                    m = re.match(r'\s*#\s*include\s+"([^"/]+)\.h"', line)
                    if (m and m.group(1) in mods and not any(
                            os.path.exists(os.path.join(d, m.group(1) + ".h"))
                            for d in (here, top))):
                        found.append("%s includes %s.h by name" %
                                     (os.path.basename(path), m.group(1)))
    return found


def main():
    srcdir, builddir = sys.argv[1], sys.argv[2]
    mods = modules(srcdir)
    calls, n_objects = call_links(builddir, mods)
    if n_objects == 0:
        print("no objects of the library under %s/src/lib" % builddir)
        return 2
    links = include_links(mods) | calls
    found = loops(mods, links)
    for comp in found:
        inner = sorted("%s -> %s" % l for l in links
                       if l[0] in comp and l[1] in comp)
        print("loop: %s (%s)" % (" ".join(comp), "; ".join(inner)))
    bad, mutual = folder_links(srcdir, mods, links)
    for b in bad:
        print("folder link not allowed: %s" % b)
    for m in mutual:
        print("folder loop allowed for now: %s" % m)
    by_name = by_name_elsewhere(srcdir, mods)
    for b in by_name:
        print("include not by path: %s" % b)
    print("%d modules, %d links, %d objects, %d loops, %d folder links not allowed" %
          (len(mods), len(links), n_objects, len(found), len(bad)) +
          (", %d includes not by path" % len(by_name) if by_name else ""))
    return 1 if found or bad or by_name else 0


if __name__ == "__main__":
    sys.exit(main())
