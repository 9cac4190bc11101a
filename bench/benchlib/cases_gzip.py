"""cases_gzip.py - bench/run's gzip case: many files, one file on
every core, BGZF, pzstd and xz, rapidgzip and igzip beside"""
from .common import *  # noqa: F401,F403


def case_gzip(b):
    text_bytes = b.sizes["gzip_text"]
    big, smaller, smaller_text = b.data.gzip_set(text_bytes)
    for path in [big] + smaller:
        b.data.warm(path)
    case = f"gzip {size_label(text_bytes)} text"
    zcat = b.timer.measure(pipeline(f"zcat {quoted(big)} >/dev/null"))
    piped = b.timer.measure(
        pipeline(f"zcat {quoted(big)} | {quoted(GPUHIST)} >/dev/null"))
    direct = b.timer.measure(gpuhist(str(big)))
    zcat_dd = b.timer.measure(pipeline(
        f"zcat {quoted(big)} | dd bs=4M iflag=fullblock of=/dev/null "
        "status=none"))
    rows = [Row.of(case, "zcat >/dev/null", zcat, text_bytes),
            Row.of(case, "zcat | dd bs=4M (read only)", zcat_dd, text_bytes)
            .beside(zcat.seconds / zcat_dd.seconds, "zcat"),
            Row.of(case, "zcat | gpuhist", piped, text_bytes).against(
                zcat.seconds / piped.seconds, ">=", ZCAT_PIPE_VS_ZCAT,
                "zcat"),
            Row.of(case, "gpuhist F.gz", direct, text_bytes).against(
                piped.seconds / direct.seconds, ">=", GZIP_DIRECT_VS_PIPE,
                "zcat|gpuhist")]
    many_bytes = smaller_text * len(smaller)
    many = b.timer.measure(gpuhist(*map(str, smaller)))
    many_row = Row.of(f"gzip {len(smaller)} x {size_label(smaller_text)} text",
                      f"gpuhist {len(smaller)} files", many, many_bytes)
    one_gbs = text_bytes / direct.seconds / 1e9
    want = GZIP_MANY_PER_CORE * b.cores
    rows.append(many_row.against(many_row.gbs / one_gbs, ">=", round(want, 2),
                                 f"one file ({GZIP_MANY_PER_CORE:g} x "
                                 f"{b.cores} cores)"))
    # The machine's ceiling for this: one process a file, all at once.
    procs = b.timer.measure(at_once([gpuhist(str(f)) for f in smaller]))
    rows.append(Row.of(many_row.case, f"{len(smaller)} gpuhist processes "
                       "at once (ceiling)", procs, many_bytes)
                .beside(many_bytes / procs.seconds / 1e9 / one_gbs,
                        "one file"))
    rows += decoder_ceiling_rows(b, many_row.case, smaller, many, many_bytes)
    rows += backend_rows(b, many_row.case, [str(f) for f in smaller],
                         many_bytes, many)
    rows += backend_rows(b, case, [str(big)], text_bytes, direct)
    return (rows + gzip_parallel_rows(b) + small_gzip_rows(b)
            + packed_rows(b))


def decoder_ceiling_rows(b, case, smaller, many, many_bytes):
    """The files decoded by one process each, all at once, with igzip
    (the ceiling: gpuhist's one run `many` >= GZIP_MANY_VS_IGZIP x it) and
    with libdeflate-gzip, where installed."""
    rows = []
    for tool in ("igzip", "libdeflate-gzip"):
        label = f"{len(smaller)} {tool} -dc processes at once"
        if not shutil.which(tool):
            rows += skipped_rows(case, [label], f"no {tool}")
            continue
        m = b.timer.measure(at_once([[tool, "-dc", str(f)]
                                     for f in smaller]))
        row = Row.of(case, label + (" (ceiling)" if tool == "igzip"
                                    else ""), m, many_bytes)
        rows.append(row.beside(many.seconds / m.seconds, "gpuhist"))
        if tool == "igzip":
            rows.append(Row.of(case, f"gpuhist {len(smaller)} files",
                               many, many_bytes)
                        .against(m.seconds / many.seconds, ">=",
                                 GZIP_MANY_VS_IGZIP, label))
    return rows


def backend_rows(b, case, paths, nbytes, auto):
    """Compressed input on each backend: --backend=gpu >= GPU_VS_CPU_PACKED
    x --backend=cpu (the CPU counts while the GPU starts), and auto (the
    default, measured as `auto`) >= AUTO_VS_FASTER x the faster."""
    if b.gpu_why_not:
        return skipped_rows(case, ["gpuhist -b --backend=gpu",
                                   "gpuhist -b (auto)"], b.gpu_why_not)
    cpu = b.timer.measure(gpuhist("-b", "--backend=cpu", *paths))
    gpu = b.timer.measure(gpuhist("-v", "-b", "--backend=gpu", *paths))
    b.notes.append(f"{case}: --backend=gpu: " + "; ".join(
        line.split(": ", 1)[-1][:160] for line in
        (gpu.stderrs[0] if gpu.stderrs else "").splitlines()
        if "backend" in line))
    faster = min(cpu.seconds, gpu.seconds)
    return [Row.of(case, "gpuhist -b --backend=cpu", cpu, nbytes),
            Row.of(case, "gpuhist -b --backend=gpu", gpu, nbytes)
            .against(cpu.seconds / gpu.seconds, ">=", GPU_VS_CPU_PACKED,
                     "--backend=cpu"),
            Row.of(case, "gpuhist -b (auto)", auto, nbytes)
            .against(faster / auto.seconds, ">=", AUTO_VS_FASTER,
                     "the faster backend")]


def packed_rows(b):
    """zstd and xz of the same text: gpuhist F against the tool's own
    decoding alone (-dc >/dev/null) and piped into gpuhist; one zstd frame
    >= ZSTD_ONE_VS_TOOL x zstd -dc, pzstd's frames >= ZSTD_FRAMES_PER_CORE x
    cores x gpuhist's one-frame rate."""
    text_bytes = b.sizes["gzip_text"]
    files = b.data.packed(text_bytes)
    rows = []
    decoders = {"zstd": "zstd -dc", "pzstd": "zstd -dc", "xz": "xz -T0 -dc"}
    # Each format's own tool on every core, the target's peer.
    own = {"pzstd": (f"pzstd -p {b.cores} -dc", PZSTD_VS_PZSTD),
           "xz": (f"xz -T {b.cores} -dc", XZ_VS_XZ)}
    labels = {"zstd": "one zstd frame (zstd -3)",
              "pzstd": f"zstd frames (pzstd -p {b.cores})",
              "xz": "xz blocks (xz -1 -T0)"}
    one_frame = None
    for name in ("zstd", "pzstd", "xz"):
        case = f"{size_label(text_bytes)} text, {labels[name]}"
        if name not in files:
            rows += skipped_rows(case, ["gpuhist -b F"], f"no {name}")
            continue
        path = str(files[name])
        b.data.warm(files[name])
        tool = b.timer.measure(pipeline(
            f"{decoders[name]} {quoted(path)} >/dev/null"))
        piped = b.timer.measure(pipeline(
            f"{decoders[name]} {quoted(path)} | {quoted(GPUHIST)} -b "
            ">/dev/null"))
        ours = b.timer.measure(gpuhist("-v", "-b", path))
        b.notes.append(f"{case}: " + "; ".join(
            line.split(": ", 1)[-1] for line in
            (ours.stderrs[0] if ours.stderrs else "").splitlines()
            if "decoded" in line))
        tool_row = Row.of(case, f"{decoders[name]} >/dev/null", tool,
                          text_bytes)
        piped_row = Row.of(case, f"{decoders[name]} | gpuhist -b", piped,
                           text_bytes).beside(tool.seconds / piped.seconds,
                                              decoders[name])
        ours_row = Row.of(case, "gpuhist -b F", ours, text_bytes)
        if name == "zstd":
            one_frame = ours_row.gbs
            ours_row.against(tool.seconds / ours.seconds, ">=",
                             ZSTD_ONE_VS_TOOL, decoders[name])
        elif name == "pzstd" and one_frame:
            ours_row.against(ours_row.gbs / one_frame, ">=",
                             round(ZSTD_FRAMES_PER_CORE * b.cores, 2),
                             f"one frame ({ZSTD_FRAMES_PER_CORE:g} x "
                             f"{b.cores} cores)")
        else:
            ours_row.beside(tool.seconds / ours.seconds, decoders[name])
        rows += [tool_row, piped_row, ours_row]
        if name in own and shutil.which(own[name][0].split()[0]):
            command, factor = own[name]
            theirs = b.timer.measure(pipeline(
                f"{command} {quoted(path)} >/dev/null"))
            rows += [Row.of(case, f"{command} >/dev/null", theirs,
                            text_bytes),
                     Row.of(case, "gpuhist -b F", ours, text_bytes)
                     .against(theirs.seconds / ours.seconds, ">=", factor,
                              command)]
        if name in own:
            rows += backend_rows(b, case, [path], text_bytes, ours)
    return rows


def inflate_bench_rows(b, path, text_bytes):
    """bench/inflate-bench on path: each decoder alone on one core, data in
    memory; returns (rows, GB/s of a task's decoding or None)."""
    mib = min(256, text_bytes >> 20)
    case = f"gzip decoder, 1 core, {size_label(mib << 20)} in memory"
    if not INFLATE_BENCH.exists():
        return skipped_rows(case, ["bench/inflate-bench"],
                            "no bench/inflate-bench (make bench/inflate-bench)"), None
    argv = [str(INFLATE_BENCH), str(path), str(mib)]
    log(f"running {shlex.join(argv)}")
    rows, task = [], None
    for line in run_captured(argv).splitlines():
        tool, _, rest = line.partition("\t")
        if line.startswith("#") or not rest:
            continue
        seconds, gbs = (float(x) for x in rest.split("\t"))
        rows.append(Row(case, tool, seconds, gbs))
        if tool.startswith("marked decoder +"):
            task = gbs
    return rows, task


def gzip_parallel_rows(b):
    """One big gzip file decoded on every core: one member (gzip -6), pigz,
    BGZF, each against --threads=1; rapidgzip beside the one member; and
    the ceiling, cores x one core's rate of the parallel path's decoder."""
    text_bytes = b.sizes["gzip_text"]
    n = b.cores
    commands = {"gzip": "gzip", "pigz": "pigz", "bgzf": "bgzip"}
    labels = {"gzip": "one member (gzip -6)", "pigz": f"pigz -p {n}",
              "bgzf": f"BGZF (bgzip -@ {n})"}
    have = [t for t in commands if shutil.which(commands[t])]
    if "gzip" not in have:
        raise BenchError("no gzip command")
    files = b.data.compressed(text_bytes, have)
    for path in files.values():
        b.data.warm(path)
    rows, per_core = inflate_bench_rows(b, files["gzip"], text_bytes)
    for tool in commands:
        case = f"gzip {size_label(text_bytes)} text, {labels[tool]}"
        ours_label = f"gpuhist -b ({n} threads)"
        if tool not in files:
            rows += skipped_rows(case, ["gpuhist -b --threads=1", ours_label],
                                 f"no {commands[tool]}")
            continue
        path = str(files[tool])
        one = b.timer.measure(gpuhist("-v", "-b", "--threads=1", path))
        ours = b.timer.measure(gpuhist("-v", "-b", path))
        b.notes.append(f"{case}: --threads=1: {decoding_note(one)}; "
                       f"default: {decoding_note(ours)}")
        one_row = Row.of(case, "gpuhist -b --threads=1 (serial)", one,
                         text_bytes)
        ours_row = Row.of(case, ours_label, ours, text_bytes)
        rows.append(one_row)
        speedup = one.seconds / ours.seconds
        if n >= GZIP_MANY_CORES:
            want = GZIP_ONE_MEMBER_GBS if tool == "gzip" else GZIP_MULTI_GBS
            rows.append(ours_row.against(ours_row.gbs / want, ">=", 1.0,
                                         f"{want:g} GB/s"))
            rows.append(Row.of(case, ours_label, ours, text_bytes)
                        .beside(speedup, "--threads=1"))
        else:
            want = (GZIP_ONE_MEMBER_VS_ONE_THREAD if tool == "gzip"
                    else GZIP_MULTI_VS_ONE_THREAD)
            rows.append(ours_row.against(speedup, ">=", want, "--threads=1"))
        if n < GZIP_PARALLEL_FROM:
            # The default stays serial here; the parallel path all the same.
            forced = b.timer.measure(gpuhist(
                "-v", "-b", f"--threads={GZIP_PARALLEL_FROM}", path))
            b.notes.append(f"{case}: --threads={GZIP_PARALLEL_FROM}: "
                           f"{decoding_note(forced)}")
            rows.append(Row.of(case, f"gpuhist -b --threads="
                               f"{GZIP_PARALLEL_FROM} (on {n} cores)",
                               forced, text_bytes)
                        .beside(one.seconds / forced.seconds, "--threads=1"))
        if tool == "gzip":
            rows += rapidgzip_rows(b, case, path, text_bytes, ours)
        if tool == "bgzf":
            own = b.timer.measure(pipeline(
                f"bgzip -@ {n} -dc {quoted(path)} >/dev/null"))
            rows.append(Row.of(case, f"bgzip -@ {n} -dc >/dev/null", own,
                               text_bytes))
            rows.append(Row.of(case, ours_label, ours, text_bytes)
                        .against(own.seconds / ours.seconds, ">=",
                                 BGZF_VS_BGZIP, f"bgzip -@ {n} -dc"))
        if per_core:
            ceiling = n * per_core
            rows.append(Row(case, f"{n} cores x marked + narrow + CRC "
                            "(ceiling)", gbs=ceiling)
                        .beside(ceiling / ours_row.gbs, "gpuhist -b"))
    return rows


def rapidgzip_rows(b, case, path, text_bytes, ours):
    """rapidgzip -P cores alone and into gpuhist -b, and gpuhist -b against
    rapidgzip alone."""
    n = b.cores
    tools = (f"rapidgzip -P {n} -d -c >/dev/null",
             f"rapidgzip -P {n} -d -c | gpuhist -b",
             f"gpuhist -b ({n} threads)")
    if b.rapidgzip is None:
        return skipped_rows(case, tools[:2], b.rapidgzip_why)
    rg = [*b.rapidgzip, "-P", str(n), "-d", "-c", path]
    alone = b.timer.measure(rg)
    piped = b.timer.measure(pipeline(f"{quoted(*rg)} | {quoted(GPUHIST)} -b "
                                     ">/dev/null"))
    return [Row.of(case, tools[0], alone, text_bytes),
            Row.of(case, tools[1], piped, text_bytes)
            .beside(alone.seconds / piped.seconds, "rapidgzip"),
            Row.of(case, tools[2], ours, text_bytes)
            .beside(alone.seconds / ours.seconds, "rapidgzip")]


def small_gzip_rows(b):
    """A small .gz (1 MiB of text): the default threads no slower than one.
    A run takes milliseconds, so it is timed more often."""
    case = f"gzip {size_label(SMALL_BYTES)} text, one member (gzip -6)"
    path = str(b.data.compressed(SMALL_BYTES, ["gzip"])["gzip"])
    b.data.warm(Path(path))
    runs = max(b.opts.runs, 21)
    one = b.timer.measure(gpuhist("-b", "--threads=1", path), runs)
    ours = b.timer.measure(gpuhist("-b", path), runs)
    return [Row.of(case, "gpuhist -b --threads=1", one, SMALL_BYTES),
            Row.of(case, f"gpuhist -b ({b.cores} threads)", ours, SMALL_BYTES)
            .against(one.seconds / ours.seconds, ">=",
                     SMALL_GZ_VS_ONE_THREAD, "--threads=1 (no slower)")]
