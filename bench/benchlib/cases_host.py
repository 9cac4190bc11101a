"""cases_host.py - bench/run's cases of the host alone: cpu, small,
memory"""
from .common import *  # noqa: F401,F403


def case_cpu(b):
    path = b.text("medium")
    nbytes = b.sizes["medium"]
    case = f"cpu backend {size_label(nbytes)}"
    one = b.timer.measure(gpuhist("--backend=cpu", "--threads=1", "-b",
                                  str(path)))
    all_cores = b.timer.measure(gpuhist("--backend=cpu",
                                        f"--threads={b.cores}", "-b",
                                        str(path)))
    one_row = Row.of(case, "gpuhist --threads=1", one, nbytes)
    all_row = Row.of(case, f"gpuhist --threads={b.cores}", all_cores, nbytes)
    want = CPU_SCALING_PER_THREAD * b.cores
    # The machine's ceiling for scaling: one 1-thread process a core.
    procs = b.timer.measure(at_once(
        [gpuhist("--backend=cpu", "--threads=1", "-b", str(path))] * b.cores))
    procs_row = Row.of(case, f"{b.cores} processes of --threads=1 (ceiling)",
                       procs, nbytes * b.cores)
    # The counting loop alone, on text already in memory: what one thread
    # can reach at best, and the copy a read out of the page cache adds.
    alone = []
    if COUNT_BENCH.exists():
        mib = min(256, nbytes >> 20)
        argv = [str(COUNT_BENCH), str(path), str(mib)]
        log(f"running {shlex.join(argv)}")
        for line in run_captured(argv).splitlines():
            tool, _, rest = line.partition("\t")
            if line.startswith("#") or not rest:
                continue
            seconds, gbs = (float(x) for x in rest.split("\t"))
            alone.append(Row(f"cpu count loop {size_label(mib << 20)}",
                             f"{tool}, 1 thread, in memory", seconds, gbs))
    return alone + [one_row.against(one_row.gbs / CPU_ONE_THREAD_GBS, ">=", 1.0,
                            f"{CPU_ONE_THREAD_GBS:g} GB/s"),
            all_row.against(all_row.gbs / one_row.gbs, ">=", round(want, 2),
                            f"1 thread ({CPU_SCALING_PER_THREAD:g} x "
                            f"{b.cores})"),
            procs_row.beside(procs_row.gbs / one_row.gbs, "1 thread")]


def case_small(b):
    nbytes = b.sizes["small"]
    path = b.text("small")
    case = f"small {size_label(nbytes)}"
    wc = b.timer.measure(["wc", str(path)])
    ours = b.timer.measure(gpuhist(str(path)))
    return [Row.of(case, "wc", wc, nbytes),
            Row.of(case, "gpuhist", ours, nbytes).against(
                ours.seconds / SMALL_SECONDS, "<=", 1.0,
                f"{SMALL_SECONDS * 1e3:g} ms")]


def case_memory(b):
    small_bytes, big_bytes = b.sizes["memory_small"], b.sizes["big"]
    rows = []
    for backend in ("gpu", "cpu"):
        tool = f"gpuhist --backend={backend} -b"
        if backend == "gpu" and b.gpu_why_not:
            rows += [skipped_rows(f"memory {size_label(n)}", [tool], "no GPU")[0]
                     for n in (small_bytes, big_bytes)]
            continue
        small = b.backend_run(backend, b.text("memory_small"))
        big = b.backend_run(backend, b.text("big"))
        growth = big.rss_mib / small.rss_mib
        big_row = Row.of(f"memory {size_label(big_bytes)}", tool, big,
                         big_bytes)
        big_row.against(growth, "<=", MEMORY_GROWTH,
                        f"{size_label(small_bytes)} run, < {MEMORY_LIMIT_MIB} MiB")
        if big.rss_mib >= MEMORY_LIMIT_MIB:
            big_row.met = "no"
        rows += [Row.of(f"memory {size_label(small_bytes)}", tool, small,
                        small_bytes), big_row]
    return rows
