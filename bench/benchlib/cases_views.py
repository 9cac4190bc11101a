"""cases_views.py - bench/run's cases of the views: chars (-m),
stats (-s), tokens (-t, --lines, --field)"""
from .common import *  # noqa: F401,F403


def chars_bench_path():
    for path in (ROOT / "bench" / "chars-bench",
                 ROOT / ".devlib" / "chars-bench"):
        if path.exists():
            return path
    return None


def chars_kernel_rows(b):
    tools = ("cub", "global", "gpuhist")
    if b.gpu_why_not:
        return skipped_rows("chars kernel", tools, "no GPU")
    bench = chars_bench_path()
    if not bench:
        return skipped_rows("chars kernel", tools, "no bench/chars-bench")
    mib = 256 if b.opts.quick else 1024
    argv = [str(bench), str(mib)]
    log(f"running {shlex.join(argv)}")
    out = run_captured(argv)
    found = parse_kernel_bench(out)
    b.notes += [f"chars-bench: {line.lstrip('# ')}"
                for line in out.splitlines() if line.startswith("#")]
    rows = []
    targets = {"english": CHARS_ENGLISH_GBS, "cjk": CHARS_CJK_GBS}
    for shape in ("english", "mixed", "cjk"):
        case = f"chars kernel {shape} {mib} MiB"
        try:
            cub, glob, ours = (found[(shape, t)] for t in tools)
        except KeyError:
            raise BenchError(f"chars-bench printed no full {shape} rows")
        rows.append(Row(case, "decode + cub", cub[0] / 1e3, cub[1]))
        rows.append(Row(case, "global atomics", glob[0] / 1e3, glob[1]))
        if shape in targets:
            rows.append(Row(case, "gpuhist", ours[0] / 1e3, ours[1]).against(
                ours[1] / targets[shape], ">=", 1.0,
                f"{targets[shape]:g} GB/s"))
        rows.append(Row(case, "gpuhist", ours[0] / 1e3, ours[1]).against(
            ours[1] / cub[1], ">=", CHARS_VS_CUB, "decode + cub"))
        for variant in ("s512-3", "s512-g"):
            if (shape, variant) in found:
                ms, gbs = found[(shape, variant)]
                rows.append(Row(case, f"variant {variant}", ms / 1e3,
                                gbs).beside(gbs / ours[1], "gpuhist"))
    return rows


def cjk_text(b, nbytes):
    """nbytes of Japanese-like text (t/gentext.py cjk, 64 MiB repeated)."""
    path = b.data.workdir / f"cjk-{DATA_VERSION}-{nbytes}.txt"
    if path.exists() and path.stat().st_size == nbytes:
        return path
    log(f"writing {size_label(nbytes)} of Japanese-like text to {path}")
    piece = subprocess.run([sys.executable, str(ROOT / "t" / "gentext.py"),
                            "cjk", "13", str(64 * MiB)], check=True,
                           capture_output=True).stdout[:64 * MiB]
    whole, rest = divmod(nbytes, len(piece))
    write_atomically(path, [piece] * whole + [piece[:rest]])
    return path


def case_chars(b):
    rows = chars_kernel_rows(b)
    path = b.text("medium")
    nbytes = b.sizes["medium"]
    case = f"chars page cache {size_label(nbytes)}"
    if b.gpu_why_not:
        rows += skipped_rows(case, ("gpuhist --backend=gpu -m",), "no GPU")
    else:
        as_bytes = b.backend_run("gpu", path)
        chars = b.timer.measure(gpuhist("--backend=gpu", "-v", "-m", "-f",
                                        "tsv", str(path)))
        rows.append(Row.of(case, "gpuhist --backend=gpu -b", as_bytes,
                           nbytes))
        rows.append(Row.of(case, "gpuhist --backend=gpu -m", chars, nbytes)
                    .against(as_bytes.seconds / chars.seconds, ">=",
                             CHARS_VS_BYTES, "-b"))
    wc_env = ["env", "LC_ALL=C.UTF-8", "wc", "-m"]
    for label, text, size in (("log text", path, nbytes),
                              ("Japanese-like", cjk_text(b, 256 * MiB),
                               256 * MiB)):
        case = f"chars cpu 1 thread {label} {size_label(size)}"
        b.data.warm(text)
        wc = b.timer.measure(wc_env + [str(text)])
        one = b.timer.measure(gpuhist("--backend=cpu", "--threads=1", "-m",
                                      "-f", "tsv", str(text)))
        rows.append(Row.of(case, "LC_ALL=C.UTF-8 wc -m", wc, size))
        row = Row.of(case, "gpuhist --backend=cpu --threads=1 -m", one, size)
        rows.append(row.against(row.gbs / CHARS_CPU_GBS, ">=", 1.0,
                                f"{CHARS_CPU_GBS:g} GB/s"))
        rows.append(Row.of(case, "gpuhist --backend=cpu --threads=1 -m", one,
                           size).against(wc.seconds / one.seconds, ">=",
                                         CHARS_CPU_VS_WC, "wc -m"))
    return rows


def case_stats(b):
    rows = []
    mib = 256 if b.opts.quick else 1024
    if b.gpu_why_not or not KERNEL_BENCH.exists():
        rows += skipped_rows("stats kernel", ("--stats",),
                             b.gpu_why_not or "no bench/kernel-bench")
    else:
        argv = [str(KERNEL_BENCH), str(mib)]
        log(f"running {shlex.join(argv)}")
        found = parse_kernel_bench(run_captured(argv))
        for shape in ("random", "repeated", "log"):
            case = f"stats kernel {shape} {mib} MiB"
            try:
                plain, stats = (found[(shape, t)] for t in ("gpuhist", "--stats"))
            except KeyError:
                raise BenchError(f"kernel-bench printed no {shape} --stats row")
            rows.append(Row(case, "gpuhist", plain[0] / 1e3, plain[1]))
            rows.append(Row(case, "gpuhist --stats", stats[0] / 1e3, stats[1])
                        .against(stats[1] / plain[1], ">=",
                                 STATS_KERNEL_VS_BYTES, "without"))
    path = b.text("medium")
    nbytes = b.sizes["medium"]
    for backend, extra in (("gpu", ()), ("cpu", ("--threads=1",))):
        case = f"stats {backend} page cache {size_label(nbytes)}"
        if backend == "gpu" and b.gpu_why_not:
            rows += skipped_rows(case, ("gpuhist -b -s",), "no GPU")
            continue
        b.data.warm(path)
        plain = b.timer.measure(gpuhist(f"--backend={backend}", *extra, "-b",
                                        str(path)))
        stats = b.timer.measure(gpuhist(f"--backend={backend}", *extra, "-b",
                                        "-s", str(path)))
        rows.append(Row.of(case, f"gpuhist --backend={backend} -b", plain,
                           nbytes))
        rows.append(Row.of(case, f"gpuhist --backend={backend} -b -s", stats,
                           nbytes).beside(plain.seconds / stats.seconds, "-b"))
    # ent takes a byte at a time (0.06 GB/s): 256 MiB is enough.
    size = min(256 * MiB, nbytes)
    target = b.data.text(size)
    case = f"stats ent {size_label(size)}"
    if not b.ent:
        rows += skipped_rows(case, ("ent",), "no ent")
    else:
        b.data.warm(target)
        ent = b.timer.measure([b.ent, str(target)], runs=1)
        one = b.timer.measure(gpuhist("--backend=cpu", "--threads=1", "-s",
                                      str(target)))
        rows.append(Row.of(case, "ent", ent, size))
        rows.append(Row.of(case, "gpuhist --backend=cpu --threads=1 -s", one,
                           size).beside(ent.seconds / one.seconds, "ent"))
    return rows


# The tokens views against the tools that count the same: (label,
# gpuhist's options, awk's key, the cut field for sort | uniq -c or None,
# DuckDB's key expression over a line, Python's key generator).
TOKEN_VIEWS = (
    ("field 1", ["--field=1"], "$1", "1",
     "string_split(line, ' ')[1]", "(l.split(None, 1) or [b''])[0] for l in d.split(b'\\n')"),
    ("field 9", ["--field=9"], "$9", None,
     "string_split(line, ' ')[9]", "(l.split() + [b''] * 9)[8] for l in d.split(b'\\n')"),
    ("lines", ["--lines"], "$0", "", "line", "d.split(b'\\n')"),
    ("words", ["-t"], None, None,
     "unnest(regexp_split_to_array(trim(line, ' \t\r'), '[ \t\r]+'))",
     "d.split()"),
)


def duckdb_query(path, key, cores):
    """A python3 command that counts key over path's lines with DuckDB, on
    every core, and prints the 20 commonest; None without the module."""
    if subprocess.run(["python3", "-c", "import duckdb"],
                      capture_output=True).returncode:
        return None
    sql = (f"SELECT {key} AS k, count(*) AS c FROM read_csv('{path}', "
           "columns={'line': 'VARCHAR'}, delim='\\x01', quote='', "
           "escape='', header=false) GROUP BY 1 ORDER BY c DESC LIMIT 20")
    return ["python3", "-c",
            f"import duckdb; duckdb.sql('SET threads={cores}'); "
            f"print(duckdb.sql({sql!r}).fetchall())"]


def case_tokens(b):
    """Top fields 1 and 9, whole lines and words of 1 GiB of log text,
    against awk, sort | uniq -c, Python's Counter and DuckDB; and memory
    between 1 GiB and the big file (the same distinct tokens)."""
    nbytes = b.sizes["medium"]
    path = b.text("medium")
    case = f"tokens {size_label(nbytes)}"
    rows = []
    awks = [a for a in ("mawk", "gawk") if shutil.which(a)]
    for label, opts, awk_key, cut_field, duck_key, py_keys in TOKEN_VIEWS:
        c = f"{case}, {label}"
        ours = b.timer.measure(gpuhist(*opts, str(path)))
        ours_row = Row.of(c, f"gpuhist {' '.join(opts)}", ours, nbytes)
        rows.append(ours_row)
        # The GPU's kernels (auto counts 1 GiB on 16 cores alone).
        if not b.gpu_why_not:
            gpu = b.timer.measure(gpuhist("--backend=gpu", *opts, str(path)))
            rows.append(Row.of(c, f"gpuhist --backend=gpu {' '.join(opts)}",
                               gpu, nbytes).beside(ours.seconds / gpu.seconds,
                                                   "auto"))
            if label in ("field 1", "words"):
                for backend in ("cpu", "gpu"):
                    m = b.timer.measure(gpuhist(f"--backend={backend}",
                                                "--threads=2", *opts,
                                                str(path)))
                    rows.append(Row.of(c, f"gpuhist --backend={backend} "
                                       f"--threads=2 {' '.join(opts)}", m,
                                       nbytes))
        for awk in awks:
            prog = (f"{{c[{awk_key}]++}}" if awk_key else
                    "{for (i = 1; i <= NF; i++) c[$i]++}")
            m = b.timer.measure(["env", "LC_ALL=C", awk,
                                 prog + " END {for (k in c) print c[k], k}",
                                 str(path)], runs=1, warm_up=False)
            rows.append(Row.of(c, f"LC_ALL=C {awk}", m, nbytes))
            if awk == awks[0]:
                rows.append(Row(c, f"gpuhist against {awk}").against(
                    m.seconds / ours.seconds, ">=", 10, awk))
        if cut_field is not None:
            src = (f"cut -d' ' -f{cut_field} {quoted(path)}" if cut_field
                   else f"cat {quoted(path)}")
            m = b.timer.measure(pipeline(
                f"{src} | LC_ALL=C sort -S 25% --parallel={b.cores} | "
                "LC_ALL=C uniq -c | LC_ALL=C sort -rn | sed -n 1,20p"),
                runs=1, warm_up=False)
            rows.append(Row.of(c, "LC_ALL=C sort | uniq -c", m, nbytes))
        if label == "words":
            rows += skipped_rows(c, ["python3 Counter"],
                                 "a bytes object a word: minutes, GiBs")
            py_keys = None
        m = py_keys and b.timer.measure(["python3", "-c",
                             "import collections, sys; "
                             f"d = open({str(path)!r}, 'rb').read(); "
                             f"print(collections.Counter({py_keys})"
                             ".most_common(20))"], runs=1, warm_up=False)
        if m:
            rows.append(Row.of(c, "python3 Counter", m, nbytes))
        query = duckdb_query(path, duck_key, b.cores) if duck_key else None
        if query:
            m = b.timer.measure(query, runs=1)
            rows.append(Row.of(c, "DuckDB (python3, every core)", m, nbytes))
            rows.append(Row(c, "gpuhist against DuckDB").against(
                m.seconds / ours.seconds, ">=", 2, "DuckDB"))
        elif duck_key:
            rows += skipped_rows(c, ["DuckDB"], "no duckdb module")
    # From the .gz, field 1, against the same through gzip -dc.
    gz = b.data.compressed(b.sizes["gzip_text"], ["gzip"])["gzip"]
    c = f"{case}, field 1, gzip -6"
    ours = b.timer.measure(gpuhist("--field=1", str(gz)))
    rows.append(Row.of(c, "gpuhist --field=1 FILE.gz", ours, nbytes))
    if awks:
        m = b.timer.measure(pipeline(
            f"gzip -dc {quoted(gz)} | LC_ALL=C {awks[0]} "
            "'{c[$1]++} END {for (k in c) print c[k], k}'"),
            runs=1, warm_up=False)
        rows.append(Row.of(c, f"gzip -dc | {awks[0]}", m, nbytes).beside(
            m.seconds / ours.seconds, "gpuhist"))
    # DuckDB reads the .gz itself (one thread inflates it, as gzip does).
    query = duckdb_query(gz, TOKEN_VIEWS[0][4], b.cores)
    if query:
        m = b.timer.measure(query, runs=1)
        rows.append(Row.of(c, "DuckDB (python3, every core)", m, nbytes))
        rows.append(Row(c, "gpuhist against DuckDB").against(
            m.seconds / ours.seconds, ">=", 2, "DuckDB"))
    # Past --memory: the file's lines (most of them distinct) counted in
    # 64 MiB, spilled to disk and every row shown, against the same in
    # memory and sort | uniq -c, which spills too.
    c = f"{case}, every line, past --memory=64M"
    view = ["--backend=cpu", "--lines", "-f", "tsv"]
    mem = b.timer.measure(gpuhist(*view, str(path)), runs=1)
    disk = b.timer.measure(gpuhist(*view, "--memory=64M", str(path)), runs=1)
    rows.append(Row.of(c, "gpuhist --lines -f tsv, in memory", mem, nbytes))
    rows.append(Row.of(c, "gpuhist --lines -f tsv --memory=64M", disk,
                       nbytes).beside(mem.rss_mib / disk.rss_mib,
                                      "in memory's peak"))
    m = b.timer.measure(pipeline(
        f"LC_ALL=C sort -S 64M --parallel={b.cores} {quoted(path)} | "
        "LC_ALL=C uniq -c | LC_ALL=C sort -S 64M -rn"), runs=1,
        warm_up=False)
    rows.append(Row.of(c, "LC_ALL=C sort -S 64M | uniq -c | sort -rn", m,
                       nbytes).beside(m.seconds / disk.seconds, "gpuhist"))
    # Memory: the same distinct tokens in a file 16 times as big, on the
    # CPU (tokens are counted there; a GPU started for the big file would
    # add its ring, the same whatever the size).
    big_bytes = b.sizes["big"]
    if big_bytes > nbytes:
        small = b.timer.measure(gpuhist("--backend=cpu", "--field=1",
                                        str(path)))
        big = b.timer.measure(gpuhist("--backend=cpu", "--field=1",
                                      str(b.text("big"))))
        rows.append(Row.of(f"tokens {size_label(big_bytes)}, field 1",
                           "gpuhist --backend=cpu --field=1", big,
                           big_bytes).against(
            big.rss_mib / small.rss_mib, "<=", MEMORY_GROWTH,
            f"{size_label(nbytes)} run's memory"))
    return rows
