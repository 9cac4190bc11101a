"""common.py - bench/run's shared parts: its targets, the data it
makes, the timer, the rows and the Bench every case gets"""
import argparse
import gzip
import json
import math
import multiprocessing
import os
import re
import shlex
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

MiB = 1 << 20
GiB = 1 << 30
ROOT = Path(__file__).resolve().parent.parent.parent
GPUHIST = str(ROOT / "gpuhist")
KERNEL_BENCH = ROOT / "bench" / "kernel-bench"
COUNT_BENCH = ROOT / "bench" / "count-bench"
INFLATE_BENCH = ROOT / "bench" / "inflate-bench"
CASES = ("kernel", "page-cache", "pipe", "gzip", "cpu", "small", "memory",
         "devices", "chars", "stats", "members", "tokens", "values")
# Bump when the generator changes, so that old files are not reused.
DATA_VERSION = "v1"
BASE_BYTES = 64 * MiB
SMALL_BYTES = 1 * MiB
GZIP_PIECES = 16
PIECES_PER_GZIP_FILE = 4

# Targets from the issue.
KERNEL_VS_CUB = 1.0
KERNEL_VS_TEXTBOOK = 4.0
GPU_WHOLE_GBS = 18.0          # on a 16 GiB file
GPU_WHOLE_AT_BYTES = 16 * GiB
GPU_STREAMING_GBS = 25.0
PIPE_VS_WC = 0.95
ZCAT_PIPE_VS_ZCAT = 0.98
GZIP_DIRECT_VS_PIPE = 3.0
GZIP_MANY_PER_CORE = 0.7
# One big gzip file decoded on many cores (src/gzip_parallel.c): on a host
# with GZIP_MANY_CORES cores or more, rates; on fewer, speed-ups over
# --threads=1 (the serial ISA-L path).  A small .gz must not get slower.
GZIP_MANY_CORES = 16
GZIP_ONE_MEMBER_GBS = 4.0
GZIP_MULTI_GBS = 8.0              # pigz and BGZF
GZIP_ONE_MEMBER_VS_ONE_THREAD = 1.3
GZIP_MULTI_VS_ONE_THREAD = 1.7
SMALL_GZ_VS_ONE_THREAD = 0.95     # "no slower", within noise
# zstd and xz (issue 14): one zstd frame no slower than zstd -dc alone;
# several frames (pzstd) on every core at this much of cores x one frame.
ZSTD_ONE_VS_TOOL = 0.95
ZSTD_FRAMES_PER_CORE = 0.7
# Threads from which gpuhist decodes one file in parallel (with ISA-L).
GZIP_PARALLEL_FROM = 4
# Decode at the cores' speed (issue 23): several gzip files in one run
# against one igzip -dc process a file at once (the machine's ceiling);
# BGZF, pzstd's frames and xz's blocks against their own tools on every
# core; --backend=gpu no slower than --backend=cpu on compressed input,
# and auto at least this much of the faster of the two.
GZIP_MANY_VS_IGZIP = 0.85
BGZF_VS_BGZIP = 1.5
PZSTD_VS_PZSTD = 1.5
XZ_VS_XZ = 1.2
GPU_VS_CPU_PACKED = 1.0
AUTO_VS_FASTER = 0.95
# The GPU decodes independent members (issue "The GPU decodes independent
# members"): BGZF of MEMBERS_COPIES times the gzip case's text, on the GPU
# by nvCOMP; whole process, against bgzip on every core, and after the
# GPU's start against nvCOMP's own batched rate on the same file
# (bench/nvcomp-bench); a 1 GiB BGZF under auto no slower than the CPU.
MEMBERS_COPIES = 16
BGZF_GPU_GBS = 20.0
BGZF_GPU_VS_BGZIP = 3.0
BGZF_GPU_VS_NVCOMP = 0.6
BGZF_AUTO_VS_CPU = 0.95           # "no slower", within noise
# Several GPUs (issue "Every view on every scale"): the rate after start-up
# against the host's pinned host-to-device ceiling for that many GPUs.
DEVICES_VS_H2D = 0.8
# Tokens on several GPUs (issue "Real logs at full speed"): after start-up,
# four GPUs >= 2.5x one; and their start-up <= 1.3x one GPU's.
DEVICES_TOKENS_VS_ONE = 2.5
DEVICES_TOKENS_AT = 4
DEVICES_START_VS_ONE = 1.3
# rapidgzip when only its Python package is installed: its cli() reads
# sys.argv, whose first word it prints in messages.
RAPIDGZIP_PY = ('import sys, rapidgzip; sys.argv[0] = "rapidgzip"; '
                'sys.exit(rapidgzip.cli())')
CPU_ONE_THREAD_GBS = 2.5
# -m (issue 13): the kernel on text on the device, the whole process
# against -b, one CPU thread against 1 GB/s and wc -m.
CHARS_ENGLISH_GBS = 1000.0
CHARS_CJK_GBS = 400.0
CHARS_VS_CUB = 2.0
CHARS_VS_BYTES = 0.8
CHARS_CPU_GBS = 1.0
CHARS_CPU_VS_WC = 8.0
# --stats (issue 15): the kernel with the stream sums against without.
STATS_KERNEL_VS_BYTES = 0.8
CPU_SCALING_PER_THREAD = 0.8
SMALL_SECONDS = 0.020
MEMORY_GROWTH = 1.10
MEMORY_LIMIT_MIB = 1024


class BenchError(Exception):
    """A command that failed, or data that could not be made."""


def log(msg):
    """Progress on stderr, so that stdout ends with the table alone."""
    print(f"bench: {msg}", file=sys.stderr, flush=True)


def size_label(nbytes):
    if nbytes % GiB == 0:
        return f"{nbytes // GiB} GiB"
    return f"{nbytes / MiB:g} MiB"


# ---------------------------------------------------------------- data

def access_line(rng, pools, stamp):
    ip = rng.choice(pools["ips"])
    method = "GET" if rng.random() < 0.85 else "POST"
    path = rng.choice(pools["paths"])
    status = rng.choices((200, 301, 304, 404, 500), (80, 3, 8, 8, 1))[0]
    size = rng.randrange(0, 60000)
    referer = rng.choice(pools["referers"])
    agent = rng.choice(pools["agents"])
    return (f'{ip} - - [{stamp} +0000] "{method} {path} HTTP/1.1" '
            f'{status} {size} "{referer}" "{agent}"\n')


def syslog_line(rng, pools, stamp):
    host = rng.choice(pools["hosts"])
    program, template = rng.choice(pools["programs"])
    message = template.format(ip=rng.choice(pools["ips"]),
                              port=rng.randrange(1024, 65536),
                              user=rng.choice(pools["users"]),
                              n=rng.randrange(100000))
    return f"{stamp} {host} {program}[{rng.randrange(300, 40000)}]: {message}\n"


def line_pools(rng):
    """The vocabulary lines are drawn from: small, so text repeats as logs do."""
    ips = [".".join(str(rng.randrange(1, 255)) for _ in range(4))
           for _ in range(2000)]
    words = ("api", "v1", "v2", "items", "users", "static", "img", "css",
             "js", "login", "search", "cart", "orders", "health", "docs")
    paths = ["/" + "/".join(rng.choice(words) for _ in range(rng.randrange(1, 4)))
             + (f"?id={rng.randrange(100000)}" if rng.random() < 0.4 else "")
             for _ in range(500)]
    return {
        "ips": ips,
        "paths": paths,
        "referers": ["-", "https://example.com/", "https://www.google.com/",
                     "https://example.com/search?q=gpu+histogram"],
        "agents": ["Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0",
                   "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36",
                   "curl/8.5.0", "Go-http-client/1.1",
                   "Googlebot/2.1 (+http://www.google.com/bot.html)"],
        "hosts": [f"{role}-{i:02d}" for role in ("web", "db", "cache")
                  for i in range(1, 9)],
        "users": ["root", "deploy", "alice", "bob", "backup", "www-data"],
        "programs": [
            ("sshd", "Accepted publickey for {user} from {ip} port {port} ssh2"),
            ("sshd", "Failed password for invalid user {user} from {ip} port {port} ssh2"),
            ("CRON", "({user}) CMD (run-parts /etc/cron.hourly)"),
            ("systemd", "Started Session {n} of User {user}."),
            ("kernel", "TCP: request_sock_TCP: Possible SYN flooding on port {port}."),
            ("nginx", "upstream timed out (110: Connection timed out) while reading response header from upstream, client: {ip}"),
            ("postfix/smtpd", "connect from unknown[{ip}]"),
        ],
    }


def log_text(seed, nbytes):
    """nbytes of log lines (70 % access log, 30 % syslog), made from seed.

    Cut at a line end and padded with one line of dashes, so that the text
    is exactly nbytes and repeats of it still end every line."""
    rng = random.Random(seed)
    pools = line_pools(rng)
    clock = 1795316400           # 2026-11-22 03:00 UTC; 50 lines a second
    lines, size, i = [], 0, 0
    while size < nbytes:
        if i % 50 == 0:
            t = time.gmtime(clock + i // 50)
            access_stamp = time.strftime("%d/%b/%Y:%H:%M:%S", t)
            syslog_stamp = time.strftime("%b %d %H:%M:%S", t)
        if rng.random() < 0.7:
            line = access_line(rng, pools, access_stamp)
        else:
            line = syslog_line(rng, pools, syslog_stamp)
        lines.append(line)
        size += len(line)
        i += 1
    text = "".join(lines).encode()[:nbytes]
    cut = text.rfind(b"\n") + 1
    pad = nbytes - cut
    return text[:cut] + (b"-" * (pad - 1) + b"\n" if pad else b"")


def gzip_piece(args):
    """One gzip member of fresh text; runs in a worker process."""
    seed, text_bytes = args
    return gzip.compress(log_text(seed, text_bytes), compresslevel=6, mtime=0)


def write_atomically(path, chunks):
    """Writes chunks to path through a temporary name, so that a run that
    was stopped half-way leaves no file that looks finished."""
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as f:
        for chunk in chunks:
            f.write(chunk)
    os.replace(tmp, path)


class Data:
    """The benchmark's files in the work directory, made on first use."""

    def __init__(self, workdir, cores):
        self.workdir = Path(workdir)
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.cores = cores
        self._base = None
        self._warm = set()

    def base(self):
        if self._base is None:
            path = self.text_path(BASE_BYTES)
            if path.exists() and path.stat().st_size == BASE_BYTES:
                self._base = path.read_bytes()
            else:
                log(f"generating {size_label(BASE_BYTES)} of base text")
                self._base = log_text(0, BASE_BYTES)
                write_atomically(path, [self._base])
        return self._base

    def text_path(self, nbytes):
        return self.workdir / f"log-{DATA_VERSION}-{nbytes}.txt"

    def text(self, nbytes):
        """A text file of nbytes: the base text repeated (and cut)."""
        path = self.text_path(nbytes)
        if path.exists() and path.stat().st_size == nbytes:
            return path
        base = self.base()
        if nbytes == BASE_BYTES:
            return path
        log(f"writing {size_label(nbytes)} of text to {path}")
        whole, rest = divmod(nbytes, len(base))
        write_atomically(path, [base] * whole + [base[:rest]])
        return path

    def gzip_set(self, text_bytes):
        """The one big gzip file and the 16 smaller ones, for text_bytes of
        text in all; returns (big, [smaller], text bytes of each smaller)."""
        piece_bytes = text_bytes // GZIP_PIECES
        stem = f"gz-{DATA_VERSION}-{text_bytes}"
        manifest = self.workdir / f"{stem}.json"
        big = self.workdir / f"{stem}.gz"
        smaller = [self.workdir / f"{stem}-{k:02d}.gz" for k in range(GZIP_PIECES)]
        if not self._files_match(manifest):
            self._make_gzip_set(piece_bytes, manifest, big, smaller)
        return big, smaller, piece_bytes * PIECES_PER_GZIP_FILE

    def _files_match(self, manifest):
        try:
            sizes = json.loads(manifest.read_text())
        except (OSError, ValueError):
            return False
        return all((self.workdir / name).exists()
                   and (self.workdir / name).stat().st_size == size
                   for name, size in sizes.items())

    def _make_gzip_set(self, piece_bytes, manifest, big, smaller):
        log(f"compressing {GZIP_PIECES} pieces of {size_label(piece_bytes)} "
            f"on {self.cores} processes")
        jobs = [(1000 + k, piece_bytes) for k in range(GZIP_PIECES)]
        with multiprocessing.Pool(min(self.cores, GZIP_PIECES)) as pool:
            pieces = pool.map(gzip_piece, jobs)
        write_atomically(big, pieces)
        for k, path in enumerate(smaller):
            # File k is pieces k..k+3, so no two files are the same.
            write_atomically(path, [pieces[(k + j) % GZIP_PIECES]
                                    for j in range(PIECES_PER_GZIP_FILE)])
        sizes = {p.name: p.stat().st_size for p in [big] + smaller}
        manifest.write_text(json.dumps(sizes))

    def compressed(self, text_bytes, tools):
        """text(text_bytes) compressed by each of tools ("gzip": one member,
        gzip -6; "pigz": pigz -6 on every core; "bgzf": bgzip -l 6 on every
        core); returns {tool: path}.  Missing files are made at once, the
        compressors side by side; each is written under a temporary name
        and renamed when its compressor succeeded, so a file that is there
        is whole."""
        paths = {tool: self.workdir / f"{tool}-{DATA_VERSION}-{text_bytes}.gz"
                 for tool in tools}
        todo = {tool: path for tool, path in paths.items()
                if not (path.exists() and path.stat().st_size > 0)}
        if not todo:
            return paths
        text = self.text(text_bytes)
        cores = str(self.cores)
        argvs = {"gzip": ["gzip", "-6", "-n", "-c", str(text)],
                 "pigz": ["pigz", "-6", "-n", "-p", cores, "-c", str(text)],
                 "bgzf": ["bgzip", "-l", "6", "-@", cores, "-c", str(text)]}
        log(f"compressing {size_label(text_bytes)} of text with "
            + ", ".join(shlex.join(argvs[t]) for t in todo))
        procs = []
        for tool, path in todo.items():
            tmp = path.with_name(path.name + ".tmp")
            with open(tmp, "wb") as out:
                procs.append((tool, path, tmp, subprocess.Popen(
                    argvs[tool], stdout=out, stderr=subprocess.PIPE)))
        failed = []
        for tool, path, tmp, proc in procs:
            _, err = proc.communicate()
            if proc.returncode == 0:
                os.replace(tmp, path)
            else:
                tmp.unlink(missing_ok=True)
                failed.append(f"{shlex.join(argvs[tool])}: exit status "
                              f"{proc.returncode}: "
                              f"{err.decode(errors='replace').strip()[-200:]}")
        if failed:
            raise BenchError("; ".join(failed))
        return paths

    def packed(self, text_bytes):
        """text(text_bytes) compressed as one zstd frame (zstd -3), as many
        frames (pzstd -3 on every core), and as xz of many blocks (xz -1
        -T0); {name: path}, for those whose tool is installed."""
        text = self.text(text_bytes)
        cores = str(self.cores)
        argvs = {"zstd": ["zstd", "-3", "-q", "-c", str(text)],
                 "pzstd": ["pzstd", "-3", "-q", "-p", cores, "-c", str(text)],
                 "xz": ["xz", "-1", "-T0", "-c", str(text)]}
        paths = {}
        for name, argv in argvs.items():
            if not shutil.which(argv[0]):
                continue
            path = self.workdir / f"{name}-{DATA_VERSION}-{text_bytes}.{name}"
            if not (path.exists() and path.stat().st_size > 0):
                log(f"compressing with {shlex.join(argv)}")
                tmp = path.with_name(path.name + ".tmp")
                with open(tmp, "wb") as out:
                    subprocess.run(argv, stdout=out, check=True)
                os.replace(tmp, path)
            paths[name] = path
        return paths

    def warm(self, path):
        """Reads a file once so that timed runs find it in the page cache."""
        if path in self._warm:
            return
        buf = bytearray(16 * MiB)
        with open(path, "rb", buffering=0) as f:
            while f.readinto(buf):
                pass
        self._warm.add(path)


# ---------------------------------------------------------------- timing

@dataclass
class Measurement:
    seconds: float          # median wall time of the timed runs
    rss_mib: float          # largest peak RSS over the timed runs
    stderrs: list           # each timed run's stderr, for -v figures


def pipeline(command):
    """argv that runs a shell pipeline, failing if any stage fails."""
    return ["bash", "-c", "set -o pipefail; " + command]


# The process every measured command runs under.  A child's ru_maxrss
# starts from the RSS of the process it was forked from (the kernel keeps
# the old memory's high-water mark at exec), so a command forked from this
# script would report this script's hundreds of MiB.  A bare interpreter
# (-I -S, nothing imported) forks it instead and times it itself, so that
# its own start-up is not timed; peaks below its RSS read as that floor.
WRAPPER = """
import os, sys, time
result, argv = sys.argv[1], sys.argv[2:]
start = time.perf_counter()
pid = os.fork()
if pid == 0:
    try:
        os.execvp(argv[0], argv)
    finally:
        os._exit(127)
_, status, usage = os.wait4(pid, 0)
seconds = time.perf_counter() - start
with open(result, "w") as f:
    f.write(f"{status} {seconds!r} {usage.ru_maxrss}")
"""


def run_once(argv):
    """Runs argv once under WRAPPER, stdin and stdout /dev/null; returns
    (seconds, peak RSS in KiB, stderr)."""
    with tempfile.TemporaryFile() as err, \
            tempfile.NamedTemporaryFile("r") as result:
        actions = [(os.POSIX_SPAWN_OPEN, 0, "/dev/null", os.O_RDONLY, 0),
                   (os.POSIX_SPAWN_OPEN, 1, "/dev/null", os.O_WRONLY, 0),
                   (os.POSIX_SPAWN_DUP2, err.fileno(), 2)]
        wrapped = [sys.executable, "-I", "-S", "-c", WRAPPER, result.name,
                   *argv]
        pid = os.posix_spawn(sys.executable, wrapped, os.environ,
                             file_actions=actions)
        _, wrapper_status, _ = os.wait4(pid, 0)
        err.seek(0)
        stderr = err.read().decode(errors="replace")
        fields = result.read().split()
    if wrapper_status != 0 or len(fields) != 3:
        raise BenchError(f"{shlex.join(argv)}: the timing wrapper failed: "
                         f"{stderr.strip()[-300:]}")
    status, seconds, rss_kib = int(fields[0]), float(fields[1]), int(fields[2])
    if not (os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0):
        raise BenchError(f"{shlex.join(argv)}: {describe_status(status)}: "
                         f"{stderr.strip()[-300:]}")
    return seconds, rss_kib, stderr


def describe_status(status):
    if os.WIFSIGNALED(status):
        return f"killed by signal {os.WTERMSIG(status)}"
    return f"exit status {os.WEXITSTATUS(status)}"


class Timer:
    """Times commands, remembering results so cases can share runs."""

    def __init__(self, runs):
        self.runs = runs
        self._done = {}

    def measure(self, argv, runs=None, warm_up=True):
        """The median of `runs` timed runs (default --runs) after one
        untimed (unless not warm_up: slow peers on a file already in the
        page cache); a command already measured is not run again."""
        key = tuple(argv)
        if key not in self._done:
            log(f"timing {shlex.join(argv)}")
            if warm_up:
                run_once(argv)                  # warm-up
            results = [run_once(argv) for _ in range(runs or self.runs)]
            self._done[key] = Measurement(
                seconds=statistics.median(r[0] for r in results),
                rss_mib=max(r[1] for r in results) / 1024,
                stderrs=[r[2] for r in results])
        return self._done[key]


# ---------------------------------------------------------------- rows

@dataclass
class Row:
    case: str
    tool: str
    seconds: float = None
    gbs: float = None
    rss_mib: float = None
    ratio: float = None
    target: str = "-"
    met: str = "-"
    unmeasured: str = ""    # "skipped" or "FAILED" when not measured
    why: str = ""           # and why

    @classmethod
    def of(cls, case, tool, m, nbytes):
        """A row from a measurement of a command that read nbytes."""
        return cls(case, tool, m.seconds, nbytes / m.seconds / 1e9, m.rss_mib)

    def against(self, ratio, op, factor, peer):
        """Sets the ratio and the target it must meet (op is >= or <=)."""
        self.ratio = ratio
        self.target = f"{op} {factor:g} x {peer}"
        ok = ratio >= factor if op == ">=" else ratio <= factor
        self.met = "yes" if ok else "no"
        return self

    def beside(self, ratio, peer):
        """A ratio shown for reference, with no target."""
        self.ratio = ratio
        self.target = f"(x {peer})"
        return self


def skipped_rows(case, tools, why):
    return [Row(case, tool, unmeasured="skipped", why=why) for tool in tools]


def gpuhist(*args):
    return [GPUHIST, *args]


def quoted(*words):
    return " ".join(shlex.quote(str(w)) for w in words)


# ---------------------------------------------------------------- cases

class Bench:
    """What every case needs: settings, data, timer, and what was found."""

    def __init__(self, opts, cores, gpu_why_not, ent):
        self.opts = opts
        self.cores = cores
        self.gpu_why_not = gpu_why_not      # None when the GPU is usable
        self.ent = ent
        self.data = Data(opts.workdir, cores)
        self.timer = Timer(opts.runs)
        self.rss_floor_mib = run_once(["true"])[1] / 1024
        self.sizes = sizes(opts, gpu_why_not is None)
        self.notes = []                     # lines for the table's header
        self.rapidgzip, self.rapidgzip_why = None, "not looked for"
        if "gzip" in opts.cases:
            self.rapidgzip, version = find_rapidgzip()
            if self.rapidgzip is None:
                self.rapidgzip_why = version
            else:
                self.notes.append(f"rapidgzip: {shlex.join(self.rapidgzip)}:"
                                  f" {version}")

    def text(self, name):
        path = self.data.text(self.sizes[name])
        self.data.warm(path)
        return path

    def backend_run(self, backend, path):
        """The -b run of one backend on a file; shared by page-cache and
        memory, so the big file is timed once."""
        return self.timer.measure(
            gpuhist(f"--backend={backend}", "-v", "-b", str(path)))


def sizes(opts, have_gpu):
    """Bytes of each file the cases use."""
    if opts.big_gib is not None:
        big = int(opts.big_gib * GiB)
    elif opts.quick:
        big = 256 * MiB
    else:
        big = (16 if have_gpu else 1) * GiB
    medium = BASE_BYTES if opts.quick else min(GiB, big)
    return {
        "big": big,
        "medium": medium,                   # the "1 GiB" of the issue
        # memory compares a smaller run with the big one
        "memory_small": medium if medium < big else min(BASE_BYTES, big),
        "gzip_text": BASE_BYTES if opts.quick else GiB,
        "small": SMALL_BYTES,
    }


KERNEL_ROW = re.compile(r"^(\S+)\s+(\S+)\s+([\d.]+) ms\s+([\d.]+) GB/s")
STREAMING = re.compile(r"after start-up ([\d.]+) s, ([\d.]+) GB/s")
# -v under auto or --backend=gpu: what the GPU counted and when it was up.
GPU_SHARE = re.compile(r"(\d+) on the GPU \(asked for after ([\d.]+) s, "
                       r"ready ([\d.]+) s later\)")
WHOLE = re.compile(r"(\d+) bytes in ([\d.]+) s")
STARTUP = re.compile(r"backend start-up ([\d.]+) s")
NVCOMP_ROW = re.compile(r"^gzip \+ copy\s+([\d.]+) ms\s+([\d.]+) GB/s", re.M)


def parse_kernel_bench(output):
    """{(shape, tool): (ms, GB/s)} from kernel-bench's rows; # lines are
    its header."""
    rows = {}
    for line in output.splitlines():
        m = KERNEL_ROW.match(line)
        if m:
            rows[(m[1], m[2])] = (float(m[3]), float(m[4]))
    return rows


def run_captured(argv):
    """Runs a command once for its stdout (kernel-bench times itself)."""
    done = subprocess.run(argv, capture_output=True, text=True)
    if done.returncode != 0:
        raise BenchError(f"{shlex.join(argv)}: exit status {done.returncode}: "
                         f"{(done.stderr + done.stdout).strip()[-300:]}")
    return done.stdout


def median_of_v(m, pattern, group, what):
    """Median over the runs of a figure gpuhist -v printed (pattern's
    group); BenchError naming `what` where a run printed none."""
    figures = []
    for stderr in m.stderrs:
        found = pattern.search(stderr)
        if not found:
            raise BenchError(f"gpuhist -v printed no {what}")
        figures.append(float(found[group]))
    return statistics.median(figures)


def streaming_gbs(m):
    """Median rate after start-up that gpuhist -v reported over the runs."""
    return median_of_v(m, STREAMING, 2, "'after start-up' rate")


def startup_seconds(m):
    """Median backend start-up that gpuhist -v reported over the runs."""
    return median_of_v(m, STARTUP, 1, "backend start-up")


def gpu_count():
    """CUDA devices that gpuhist --version -v lists."""
    out = subprocess.run([GPUHIST, "--version", "-v"], capture_output=True,
                         text=True).stdout
    return len(re.findall(r"^device \d+:", out, re.M))


def gpu_after_start_gbs(m):
    """Median rate of the GPU's part once it was up, from gpuhist -v: the
    bytes it counted over the run's time less the wait for it."""
    rates = []
    for stderr in m.stderrs:
        share, whole = GPU_SHARE.search(stderr), WHOLE.search(stderr)
        if not share or not whole:
            raise BenchError("gpuhist -v did not say what the GPU counted")
        left = float(whole[2]) - float(share[2]) - float(share[3])
        rates.append(int(share[1]) / left / 1e9 if left > 0 else 0.0)
    return statistics.median(rates)


def at_once(argvs):
    """argv that runs the commands all at once, failing if any fails."""
    return pipeline(" & ".join(shlex.join(a) + " >/dev/null" for a in argvs)
                    + " & fail=0; for p in $(jobs -p); do wait $p || fail=1;"
                    " done; exit $fail")


# How gpuhist -v says it decoded a gzip file: "... gzip decoded by 16
# threads: R regions, ..." (the parallel path) or "gzip decoded with isa-l".
DECODED = re.compile(r"gzip decoded (?:by|with) [^\n]*")


def decoding_note(m):
    """How the first timed run decoded, from its -v lines."""
    found = DECODED.findall(m.stderrs[0]) if m.stderrs else []
    return "; ".join(found) or "(gpuhist -v said nothing of decoding)"


def find_rapidgzip():
    """(argv that runs rapidgzip, its version) or (None, why not): the
    rapidgzip command on PATH, else its Python module's cli() under this
    interpreter (pip install rapidgzip; on the GPU machine a carried wheel
    in PYTHONPATH)."""
    path = shutil.which("rapidgzip")
    if path:
        argv = [path]
    elif subprocess.run([sys.executable, "-c", "import rapidgzip"],
                        capture_output=True).returncode == 0:
        argv = [sys.executable, "-c", RAPIDGZIP_PY]
    else:
        return None, "no rapidgzip (command or Python module)"
    done = subprocess.run(argv + ["--version"], capture_output=True,
                          text=True)
    lines = (done.stdout + done.stderr).strip().splitlines()
    return argv, (lines[-1] if lines else "version unknown")


def threads_per_core():
    """Hardware threads sharing cpu0's core (2 with SMT), or '?'."""
    try:
        siblings = Path("/sys/devices/system/cpu/cpu0/topology/"
                        "thread_siblings_list").read_text().strip()
    except OSError:
        return "?"
    count = 0
    for part in siblings.split(","):
        lo, _, hi = part.partition("-")
        count += int(hi or lo) - int(lo) + 1
    return count


def usable_cores():
    return len(os.sched_getaffinity(0))
