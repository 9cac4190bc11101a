"""main.py - bench/run's table and options, and the run of the cases"""
from .common import *  # noqa: F401,F403
from .cases_device import (case_kernel, case_page_cache, case_pipe,
                           case_devices, case_members)
from .cases_gzip import case_gzip
from .cases_host import case_cpu, case_small, case_memory
from .cases_views import case_chars, case_stats, case_tokens
from .cases_values import case_values


CASE_FUNCTIONS = {
    "kernel": case_kernel,
    "page-cache": case_page_cache,
    "pipe": case_pipe,
    "gzip": case_gzip,
    "cpu": case_cpu,
    "small": case_small,
    "memory": case_memory,
    "devices": case_devices,
    "chars": case_chars,
    "stats": case_stats,
    "members": case_members,
    "tokens": case_tokens,
    "values": case_values,
}


# ---------------------------------------------------------------- report

COLUMNS = ("case", "tool", "seconds", "GB/s", "peak MiB", "ratio", "target",
           "met")


def fmt(value, spec):
    return "-" if value is None else format(value, spec)


def seconds_spec(seconds):
    """Three significant figures at least, and no fewer than 3 decimals."""
    if not seconds:
        return ".3f"
    return f".{min(6, max(3, 2 - math.floor(math.log10(seconds))))}f"


def table_cells(row):
    if row.unmeasured:
        return [row.case, row.tool, row.unmeasured, "-", "-", "-", row.why,
                "no" if row.unmeasured == "FAILED" else "-"]
    return [row.case, row.tool, fmt(row.seconds, seconds_spec(row.seconds)),
            fmt(row.gbs, ".2f"), fmt(row.rss_mib, ".0f"),
            fmt(row.ratio, ".2f"), row.target, row.met]


def tsv_cells(row):
    """Full precision for scripts; unmeasured rows say so in seconds."""
    if row.unmeasured:
        return table_cells(row)
    return [row.case, row.tool, fmt(row.seconds, ".6f"), fmt(row.gbs, ".4f"),
            fmt(row.rss_mib, ".1f"), fmt(row.ratio, ".4f"), row.target,
            row.met]


def print_table(rows, out):
    cells = [list(COLUMNS)] + [table_cells(r) for r in rows]
    widths = [max(len(c[i]) for c in cells) for i in range(len(COLUMNS))]
    numeric = {2, 3, 4, 5}
    for line in cells:
        out.write("  ".join(c.rjust(w) if i in numeric else c.ljust(w)
                            for i, (c, w) in enumerate(zip(line, widths)))
                  .rstrip() + "\n")


def write_tsv(rows, path):
    with open(path, "w") as f:
        f.write("\t".join(COLUMNS) + "\n")
        for row in rows:
            f.write("\t".join(tsv_cells(row)) + "\n")


# ---------------------------------------------------------------- setup

def gpu_unusable_reason():
    """None when gpuhist can use a GPU here, else gpuhist's own reason."""
    try:
        run_once(gpuhist("--backend=gpu", "--raw", "/dev/null"))
    except BenchError as e:
        return str(e).rsplit(": ", 1)[-1].strip() or "no usable GPU"
    return None


def find_ent(opts):
    for candidate in (opts.ent, os.environ.get("GH_BENCH_ENT"),
                      shutil.which("ent")):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


def parse_options(argv):
    p = argparse.ArgumentParser(
        prog="bench/run", description="Run gpuhist's benchmark; the table of "
        "results against the targets comes last.")
    p.add_argument("--quick", action="store_true",
                   help="small sizes (256 MiB big file, 64 MiB gzip text) "
                   "and 3 runs, to try the script out")
    p.add_argument("--only", metavar="CASE[,CASE]",
                   help="run only these cases: " + ", ".join(CASES))
    p.add_argument("--runs", type=int, help="timed runs per command after "
                   "one warm-up (default 5; 3 with --quick)")
    p.add_argument("--big-gib", type=float, help="size of the big page-cache "
                   "file in GiB (default 16 with a GPU, else 1)")
    p.add_argument("--workdir", default="/tmp/gpuhist-bench",
                   help="where the data is made and kept (default %(default)s)")
    p.add_argument("--ent", help="the ent binary (default $GH_BENCH_ENT, "
                   "then ent on PATH)")
    p.add_argument("--out", help="also write the table here as TSV")
    opts = p.parse_args(argv)
    opts.cases = opts.only.split(",") if opts.only else list(CASES)
    unknown = [c for c in opts.cases if c not in CASES]
    if unknown:
        p.error(f"unknown case {', '.join(unknown)}; cases are "
                + ", ".join(CASES))
    if opts.runs is None:
        opts.runs = 3 if opts.quick else 5
    if opts.runs < 1:
        p.error("--runs must be at least 1")
    if opts.big_gib is not None and opts.big_gib <= 0:
        p.error("--big-gib must be positive")
    return opts


def print_header(b, out):
    gpu = "usable" if b.gpu_why_not is None else f"not usable ({b.gpu_why_not})"
    out.write(f"# gpuhist benchmark, {time.strftime('%Y-%m-%d %H:%M')}, "
              f"{os.uname().nodename}, {b.cores} cores "
              f"({threads_per_core()} threads a physical core), GPU {gpu}\n")
    out.write(f"# median of {b.opts.runs} runs after a warm-up; big file "
              f"{size_label(b.sizes['big'])}; data in {b.data.workdir}; "
              f"ent {b.ent or 'not found'}\n")
    out.write(f"# peak RSS: smaller peaks than about {b.rss_floor_mib:.0f} MiB "
              f"read as that (the timing wrapper's own); GB/s: 1e9 bytes of "
              f"text a second, decompressed for gzip\n")
    for note in b.notes:
        out.write(f"# {note}\n")


def main(argv):
    opts = parse_options(argv)
    if not os.access(GPUHIST, os.X_OK):
        sys.exit(f"bench/run: {GPUHIST} is missing: build it first (make)")
    cores = usable_cores()
    b = Bench(opts, cores, gpu_unusable_reason(), find_ent(opts))
    rows, failures = [], []
    for name in opts.cases:
        try:
            rows += CASE_FUNCTIONS[name](b)
        except BenchError as e:
            log(f"{name}: {e}")
            rows.append(Row(name, "-", unmeasured="FAILED",
                            why="see the message above the table"))
            failures.append(f"{name}: {e}")
    b.notes += [f"FAILED {failure}" for failure in failures]
    print_header(b, sys.stdout)
    print_table(rows, sys.stdout)
    if opts.out:
        write_tsv(rows, opts.out)
    return 1 if failures else 0
