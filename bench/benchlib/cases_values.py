"""cases_values.py - bench/run's values case (issue "Views through one
seam", item 4): gpuhist --values on an access log's size field against
awk summing it and DuckDB's quantile_cont over it (bench/values has the
compressed inputs and the GPU alone besides)"""
import subprocess

from .common import *  # noqa: F401,F403

LOGGEN = ROOT / "bench" / "corpus" / "loggen"
VALUES_GBS = 3.0              # on the host's cores
VALUES_VS_AWK = 20.0
VALUES_VS_DUCKDB = 5.0


def access_log(b, nbytes):
    """bench/corpus/loggen's access log (seed 1), made once in the
    workdir."""
    path = Path(b.opts.workdir) / f"access-{nbytes}.log"
    if not path.exists() or path.stat().st_size == 0:
        tmp = path.with_suffix(".tmp")
        with open(tmp, "wb") as out:
            subprocess.run([str(LOGGEN), "access", str(nbytes), "1"],
                           stdout=out, check=True)
        tmp.rename(path)
    b.data.warm(path)
    return path


def case_values(b):
    """--values=10 of 1 GiB of access log (the size field)."""
    nbytes = b.sizes["medium"]
    case = f"values {size_label(nbytes)}, field 10"
    if not LOGGEN.exists():
        return skipped_rows(case, ["gpuhist --values=10"],
                            "no bench/corpus/loggen (make it)")
    path = access_log(b, nbytes)
    rows = []
    ours = b.timer.measure(gpuhist("--values=10", str(path)))
    rows.append(Row.of(case, "gpuhist --values=10", ours, nbytes))
    rows.append(Row(case, "gpuhist --values=10, GB/s").against(
        nbytes / ours.seconds / 1e9, ">=", VALUES_GBS, "1 GB/s"))
    cpu = b.timer.measure(gpuhist("--backend=cpu", "--values=10", str(path)))
    rows.append(Row.of(case, "gpuhist --backend=cpu --values=10", cpu,
                       nbytes))
    awk = shutil.which("mawk") or shutil.which("awk")
    if awk:
        m = b.timer.measure([awk, "{ s += $10 } END { printf \"%.0f\\n\", s }",
                             str(path)], runs=1)
        rows.append(Row.of(case, f"{os.path.basename(awk)} sum of $10", m,
                           nbytes))
        rows.append(Row(case, f"gpuhist against {os.path.basename(awk)}")
                    .against(m.seconds / ours.seconds, ">=", VALUES_VS_AWK,
                             os.path.basename(awk)))
    if subprocess.run(["python3", "-c", "import duckdb"],
                      capture_output=True).returncode:
        return rows + skipped_rows(case, ["DuckDB quantile_cont"],
                                   "no duckdb module")
    sql = ("SELECT quantile_cont(TRY_CAST(split_part(line, ' ', 10) AS "
           "DOUBLE), [0.5, 0.9, 0.99, 0.999]) FROM read_csv("
           f"'{path}', columns={{'line': 'VARCHAR'}}, delim='\\x01', "
           "quote='', escape='', header=false)")
    m = b.timer.measure(["python3", "-c",
                         f"import duckdb; duckdb.sql('SET threads="
                         f"{b.cores}'); print(duckdb.sql({sql!r})"
                         ".fetchall())"], runs=3)
    rows.append(Row.of(case, "DuckDB quantile_cont (python3, every core)",
                       m, nbytes))
    rows.append(Row(case, "gpuhist against DuckDB").against(
        m.seconds / ours.seconds, ">=", VALUES_VS_DUCKDB, "DuckDB"))
    return rows
