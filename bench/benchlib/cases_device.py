"""cases_device.py - bench/run's cases of the device and the page
cache: kernel, page-cache, pipe, devices, members"""
from .common import *  # noqa: F401,F403 (the constants and helpers)


def case_kernel(b):
    tools = ("d2d-copy", "cub", "textbook", "gpuhist")
    if b.gpu_why_not:
        return skipped_rows("kernel", tools, "no GPU")
    if not KERNEL_BENCH.exists():
        return skipped_rows("kernel", tools, "no bench/kernel-bench")
    mib = 256 if b.opts.quick else 1024
    argv = [str(KERNEL_BENCH), str(mib)]
    log(f"running {shlex.join(argv)}")
    out = run_captured(argv)
    found = parse_kernel_bench(out)
    b.notes += [f"kernel-bench: {line.lstrip('# ')}"
                for line in out.splitlines() if line.startswith("#")]
    rows = []
    if ("-", "d2d-copy") in found:
        ms, gbs = found[("-", "d2d-copy")]
        rows.append(Row(f"kernel {mib} MiB", "d2d-copy (r+w, ceiling)",
                        ms / 1e3, gbs))
    for tool, label in (("atomics", "shared atomics, 1 a byte, no loads (ceiling)"),
                        ("atomics-c", "the same, conflict-free"),
                        ("h2d-pin", "host to device, pinned (ceiling)"),
                        ("h2d-page", "host to device, pageable")):
        if ("-", tool) in found:
            ms, gbs = found[("-", tool)]
            rows.append(Row(f"kernel {mib} MiB", label, ms / 1e3, gbs))
    for shape in ("random", "repeated", "log"):
        case = f"kernel {shape} {mib} MiB"
        try:
            cub, textbook, ours = (found[(shape, t)]
                                   for t in ("cub", "textbook", "gpuhist"))
        except KeyError:
            raise BenchError(f"kernel-bench printed no full {shape} rows")
        rows.append(Row(case, "cub", cub[0] / 1e3, cub[1]))
        rows.append(Row(case, "textbook", textbook[0] / 1e3, textbook[1]))
        # GB/s is printed to more figures than ms, so ratios come from it.
        rows.append(Row(case, "gpuhist", ours[0] / 1e3, ours[1])
                    .against(ours[1] / cub[1], ">=", KERNEL_VS_CUB, "CUB"))
        rows.append(Row(case, "gpuhist", ours[0] / 1e3, ours[1])
                    .against(ours[1] / textbook[1], ">=", KERNEL_VS_TEXTBOOK,
                             "textbook"))
    return rows


def case_page_cache(b):
    big = b.text("big")
    nbytes = b.sizes["big"]
    case = f"page cache {size_label(nbytes)}"
    cat = b.timer.measure(["cat", str(big)])
    cat_gbs = nbytes / cat.seconds / 1e9
    rows = [Row.of(case, "cat >/dev/null", cat, nbytes)]

    def vs_cat(row):
        return row.beside(row.gbs / cat_gbs, "cat")

    if b.gpu_why_not:
        rows += skipped_rows(case, ("gpuhist --backend=gpu -b",
                                    "gpu after start-up (-v)",
                                    "gpuhist -b (auto)"), "no GPU")
    else:
        gpu = b.backend_run("gpu", big)
        whole = Row.of(case, "gpuhist --backend=gpu -b", gpu, nbytes)
        if nbytes >= GPU_WHOLE_AT_BYTES:
            whole.against(whole.gbs / GPU_WHOLE_GBS, ">=", 1.0,
                          f"{GPU_WHOLE_GBS:g} GB/s")
        else:
            vs_cat(whole)
        rate = streaming_gbs(gpu)
        # The default: the CPU counts while the GPU starts.
        auto = b.timer.measure(gpuhist("-b", str(big)))
        rows += [whole,
                 Row(case, "gpu after start-up (-v)", gbs=rate).against(
                     rate / GPU_STREAMING_GBS, ">=", 1.0,
                     f"{GPU_STREAMING_GBS:g} GB/s"),
                 Row.of(case, "gpuhist -b (auto)", auto, nbytes).beside(
                     gpu.seconds / auto.seconds, "--backend=gpu")]
    cpu = b.backend_run("cpu", big)
    rows.append(vs_cat(Row.of(case, "gpuhist --backend=cpu -b", cpu, nbytes)))
    rate = streaming_gbs(cpu)
    rows.append(Row(case, "cpu after start-up (-v)", gbs=rate)
                .beside(rate / cat_gbs, "cat"))
    wc = b.timer.measure(["wc", "-l", str(big)])
    rows.append(vs_cat(Row.of(case, "wc -l", wc, nbytes)))
    rows.append(ent_row(b, vs_cat))
    return rows


def case_devices(b):
    big = b.text("big")
    nbytes = b.sizes["big"]
    case = f"devices {size_label(nbytes)}"
    specs = ("0", "all", "0,0")
    if b.gpu_why_not:
        return skipped_rows(case, [f"gpuhist --devices={s}" for s in specs],
                            "no GPU")
    n = gpu_count()
    rows, one = [], None
    ceiling = h2d_ceilings(n)
    for k, gbs in sorted(ceiling.items()):
        rows.append(Row(case, f"pinned host to device, {k} GPU"
                        f"{'s' if k > 1 else ''} at once (h2d-bench)",
                        gbs=gbs))
    # What the readers can reach at all: the page cache read in parallel.
    read_gbs, read_threads = page_cache_ceiling(big, b.cores)
    rows.append(Row(case, f"page cache, {read_threads} threads pread into "
                    "4 MiB buffers (ceiling)", gbs=read_gbs))
    for spec in specs:
        tool = f"gpuhist --devices={spec}"
        if spec == "all":
            if n < 2:
                rows += skipped_rows(case, [tool], "one GPU here")
                continue
            tool += f" ({n} GPUs)"
        # The GPUs alone (no CPU counting while they start), so that
        # "after start-up" is theirs.
        m = b.timer.measure(["env", "GPUHIST_GPU_ONLY=1"] + gpuhist(
            "--backend=gpu", f"--devices={spec}", "-v", "-b", str(big)))
        whole = Row.of(case, tool, m, nbytes)
        after = Row(case, f"{tool} after start-up", gbs=streaming_gbs(m))
        k = n if spec == "all" else 1
        if one is None:
            one = (whole.gbs, after.gbs)
        else:
            whole.beside(whole.gbs / one[0], "--devices=0")
        rows.append(whole)
        if spec != "0,0" and k in ceiling:
            rows.append(after.against(after.gbs / ceiling[k], ">=",
                                      DEVICES_VS_H2D, f"{k} GPU H2D"))
            rows.append(Row(case, f"{tool} after start-up",
                            gbs=after.gbs).beside(after.gbs / read_gbs,
                                                  "page cache ceiling"))
        elif spec != "0":
            rows.append(after.beside(after.gbs / one[1], "--devices=0"))
        else:
            rows.append(after)
        if spec == "all" and n >= 2:
            # Every view on every GPU here (issue "Every view on every
            # scale"): -m and -s beside the bytes.
            for view in ("-m", "-s"):
                mv = b.timer.measure(["env", "GPUHIST_GPU_ONLY=1"] + gpuhist(
                    "--backend=gpu", "--devices=all", "-v", view, "-f",
                    "json", str(big)))
                rows.append(Row.of(case, f"{tool} {view}", mv, nbytes))
                rows.append(Row(case, f"{tool} {view} after start-up",
                                gbs=streaming_gbs(mv))
                            .against(streaming_gbs(mv) / ceiling[k], ">=",
                                     DEVICES_VS_H2D, f"{k} GPU H2D"))
    if n >= 2:
        rows += devices_tokens_rows(b, case, big, nbytes, n)
    return rows


def devices_tokens_rows(b, case, big, nbytes, n):
    """Words and lines on one GPU and on every GPU here, the GPUs alone:
    the rate after start-up, every GPU's against one's (the target at
    DEVICES_TOKENS_AT GPUs and more), and the start-up's."""
    rows = []
    for view in ("-t", "--lines"):
        got = {}
        for spec in ("0", "all"):
            m = b.timer.measure(["env", "GPUHIST_GPU_ONLY=1"] + gpuhist(
                "--backend=gpu", f"--devices={spec}", "-v", view, "-f",
                "tsv", str(big)))
            got[spec] = (Row.of(case, f"gpuhist --devices={spec} {view}", m,
                                nbytes), streaming_gbs(m), startup_seconds(m))
        one, every = got["0"], got["all"]
        tool = f"gpuhist --devices=all ({n} GPUs) {view}"
        rows.append(one[0])
        rows.append(Row(case, f"gpuhist --devices=0 {view} after start-up",
                        gbs=one[1]))
        rows.append(every[0].beside(every[0].gbs / one[0].gbs,
                                    "--devices=0"))
        after = Row(case, f"{tool} after start-up", gbs=every[1])
        if n >= DEVICES_TOKENS_AT:
            after.against(every[1] / one[1], ">=", DEVICES_TOKENS_VS_ONE,
                          "--devices=0")
        else:
            after.beside(every[1] / one[1], "--devices=0")
        rows.append(after)
        start = Row(case, f"{tool} start-up", seconds=every[2])
        rows.append(start.against(every[2] / one[2], "<=",
                                  DEVICES_START_VS_ONE, "--devices=0"))
    return rows


def page_cache_ceiling(path, cores):
    """The best rate (GB/s, threads) at which 8, 16, ... cores threads
    pread a page-cached file into 4 MiB buffers of their own (Python's
    preadv releases the GIL: the copies run in parallel)."""
    size = path.stat().st_size
    best = (0.0, 0)
    n = 8
    while n <= max(cores, 8):
        fd = os.open(path, os.O_RDONLY)
        per = size // n

        def read(i):
            buf = memoryview(bytearray(4 * MiB))
            at, end = i * per, (i + 1) * per
            while at < end:
                got = os.preadv(fd, [buf[:min(4 * MiB, end - at)]], at)
                if got <= 0:
                    break
                at += got
        threads = [threading.Thread(target=read, args=(i,)) for i in range(n)]
        start = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        gbs = per * n / (time.perf_counter() - start) / 1e9
        os.close(fd)
        best = max(best, (gbs, n))
        n *= 2
    return best


def h2d_ceilings(n):
    """{GPUs: GB/s} of pinned host-to-device copies, all GPUs at once
    (bench/h2d-bench or .devlib/h2d-bench); {} where it is not built."""
    for path in (ROOT / "bench" / "h2d-bench", ROOT / ".devlib" / "h2d-bench"):
        if path.exists():
            out = run_captured([str(path), str(n), "1024"])
            return {int(m[1]): float(m[2]) for m in
                    re.finditer(r"^(\d+) GPUs: ([\d.]+) GB/s", out, re.M)}
    return {}


def nvcomp_bench_path():
    for path in (ROOT / "bench" / "nvcomp-bench",
                 ROOT / ".devlib" / "nvcomp-bench"):
        if path.exists():
            return path
    return None


def case_members(b):
    """BGZF decoded on the GPU by nvCOMP and counted there."""
    text_bytes = b.sizes["gzip_text"]
    copies = 2 if b.opts.quick else MEMBERS_COPIES
    nbytes = copies * text_bytes
    n = b.cores
    case = f"BGZF {size_label(nbytes)} of text on the GPU"
    small_case = f"BGZF {size_label(text_bytes)} of text, auto"
    tools = ["gpuhist -b --backend=gpu", f"bgzip -@ {n} -dc >/dev/null",
             "nvCOMP batched gzip + copy (bench/nvcomp-bench)"]
    version = subprocess.run([GPUHIST, "--version", "-v"],
                             capture_output=True, text=True).stdout
    why = (b.gpu_why_not and "no GPU") or (
        "nvCOMP" not in version and "gpuhist built without nvCOMP") or (
        not shutil.which("bgzip") and "no bgzip")
    if why:
        return (skipped_rows(case, tools, why) +
                skipped_rows(small_case, ["gpuhist -b"], why))
    one = b.data.compressed(text_bytes, ["bgzf"])["bgzf"]
    big = one.with_name(f"bgzf-{DATA_VERSION}-{text_bytes}-x{copies}.gz")
    if not (big.exists() and big.stat().st_size == copies * one.stat().st_size):
        log(f"writing {big}: {copies} copies of {one.name}")
        write_atomically(big, [one.read_bytes()] * copies)
    b.data.warm(big)
    rows = []
    m = b.timer.measure(gpuhist("--backend=gpu", "-v", "-b", str(big)))
    b.notes.append(f"{case}: {decoding_note(m)}")
    own = b.timer.measure(pipeline(
        f"bgzip -@ {n} -dc {quoted(str(big))} >/dev/null"))
    rows.append(Row.of(case, tools[1], own, nbytes))
    whole = Row.of(case, tools[0], m, nbytes)
    rows.append(whole.against(whole.gbs / BGZF_GPU_GBS, ">=", 1.0,
                              f"{BGZF_GPU_GBS:g} GB/s"))
    rows.append(Row.of(case, tools[0], m, nbytes).against(
        own.seconds / m.seconds, ">=", BGZF_GPU_VS_BGZIP, f"bgzip -@ {n} -dc"))
    after = Row(case, f"{tools[0]}, the GPU after its start",
                gbs=gpu_after_start_gbs(m))
    bench = nvcomp_bench_path()
    if bench:
        out = run_captured([str(bench), str(big)])
        found = NVCOMP_ROW.search(out)
        if not found:
            raise BenchError(f"{bench}: no 'gzip + copy' rate")
        nv = Row(case, tools[2], gbs=float(found[2]))
        rows.append(nv)
        rows.append(after.against(after.gbs / nv.gbs, ">=",
                                  BGZF_GPU_VS_NVCOMP, "nvCOMP's own rate"))
    else:
        rows.append(after)
        rows += skipped_rows(case, tools[2:], "no bench/nvcomp-bench")
    b.data.warm(one)
    auto = b.timer.measure(gpuhist("-v", "-b", str(one)))
    cpu = b.timer.measure(gpuhist("--backend=cpu", "-b", str(one)))
    rows.append(Row.of(small_case, "gpuhist -b --backend=cpu", cpu, text_bytes))
    rows.append(Row.of(small_case, "gpuhist -b (auto)", auto, text_bytes)
                .against(cpu.seconds / auto.seconds, ">=", BGZF_AUTO_VS_CPU,
                         "--backend=cpu"))
    return rows


def ent_row(b, vs_cat):
    medium = b.sizes["medium"]
    case = f"page cache {size_label(medium)}"
    if not b.ent:
        return skipped_rows(case, ["ent -c"], "no ent (--ent PATH)")[0]
    path = b.text("medium")
    m = b.timer.measure([b.ent, "-c", str(path)])
    return vs_cat(Row.of(case, "ent -c", m, medium))


def case_pipe(b):
    big = b.text("big")
    nbytes = b.sizes["big"]
    case = f"pipe {size_label(nbytes)}"
    wc = b.timer.measure(pipeline(f"cat {quoted(big)} | wc -c >/dev/null"))
    ours = b.timer.measure(
        pipeline(f"cat {quoted(big)} | {quoted(GPUHIST)} -b >/dev/null"))
    rows = [Row.of(case, "cat | wc -c", wc, nbytes),
            Row.of(case, "cat | gpuhist -b", ours, nbytes).against(
                wc.seconds / ours.seconds, ">=", PIPE_VS_WC, "cat|wc -c")]
    # What reading the pipe alone costs, and the CPU backend behind it.
    dd = b.timer.measure(pipeline(
        f"cat {quoted(big)} | dd bs=4M iflag=fullblock of=/dev/null "
        f"status=none"))
    cpu = b.timer.measure(pipeline(
        f"cat {quoted(big)} | {quoted(GPUHIST)} --backend=cpu -b >/dev/null"))
    rows += [Row.of(case, "cat | dd bs=4M (read only)", dd, nbytes)
             .beside(wc.seconds / dd.seconds, "cat|wc -c"),
             Row.of(case, "cat | gpuhist --backend=cpu -b", cpu, nbytes)
             .beside(wc.seconds / cpu.seconds, "cat|wc -c")]
    return rows
