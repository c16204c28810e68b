"""Time `aifcheck validate` and `aifcheck query --nist-layout` on a local 2-worker Dask cluster
against `--jobs 2` on the same documents, in one run.

Usage: python benchmarks/bench_cluster.py [--documents N] [--workers W] [--repeat R]

N synthetic task1-run-sized documents (benchmarks/generate_aif.py, default 400) go to a temporary
folder. The cluster is a distributed.LocalCluster of W single-threaded worker processes (default
2, as `--jobs 2` has two processes), started once and warmed with one small run, as a cluster that
serves a campaign is: its workers have imported aifcheck already. Each row is the whole command
(interpreter start, imports, every file, the report), the median of R runs, the runs of all rows
taking turns so that a busy machine slows them alike. Every cluster run's output is checked equal
to the baseline's. Ratios are against `--jobs 2` of the same command.

The last lines give what 1,000 documents cost on the cluster, in seconds and in worker-seconds
(seconds times workers), to size a cluster: a campaign of D documents on K such workers takes about
D / 1000 * worker-seconds / K seconds, when the scheduler and the shared disk keep up.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def timed(command: list[str]) -> tuple[float, subprocess.CompletedProcess]:
    started = time.perf_counter()
    proc = subprocess.run(command, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    if proc.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(command)} failed ({proc.returncode}): {proc.stderr.strip()[-2000:]}")
    return seconds, proc


def comparable(proc: subprocess.CompletedProcess, outdir: Path | None) -> object:
    """What must not change between the baseline and the cluster: the findings (not the summary's
    time), or the tables written."""
    if outdir is None:
        return proc.returncode, proc.stdout.rsplit(" (", 1)[0]
    return proc.returncode, sorted((p.relative_to(outdir).as_posix(), p.read_bytes()) for p in outdir.rglob("*.tsv"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--documents", type=int, default=400)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    try:
        from distributed import LocalCluster
    except ImportError:
        raise SystemExit("this benchmark needs Dask: pip install 'aifcheck[cluster]'") from None
    py = sys.executable
    work = Path(tempfile.mkdtemp(prefix="aifcheck-bench-cluster-"))
    try:
        docs = work / "docs"
        subprocess.run(
            [py, ROOT / "benchmarks" / "generate_aif.py", "--documents", str(args.documents), docs],
            check=True,
            capture_output=True,
        )
        with LocalCluster(
            n_workers=args.workers, threads_per_worker=1, processes=True, dashboard_address=":0"
        ) as local:
            address = local.scheduler_address
            validate = [py, "-m", "aifcheck", "validate", str(docs)]
            query = [py, "-m", "aifcheck", "query", str(docs), "--task", "ta1", "--nist-layout", "-o"]
            rows = {  # name: (command, output folder or None, baseline row)
                "validate --jobs 2": ([*validate, "--jobs", "2"], None, None),
                "validate --scheduler (shared paths)": ([*validate, "--scheduler", address], None, "validate --jobs 2"),
                "validate --scheduler --ship-files": (
                    [*validate, "--scheduler", address, "--ship-files"],
                    None,
                    "validate --jobs 2",
                ),
                "query --nist-layout --jobs 2": ([*query, str(work / "q-jobs"), "--jobs", "2"], work / "q-jobs", None),
                "query --nist-layout --scheduler": (
                    [*query, str(work / "q-cluster"), "--scheduler", address],
                    work / "q-cluster",
                    "query --nist-layout --jobs 2",
                ),
            }
            subprocess.run(
                [*validate[:-1], str(next(docs.iterdir())), "--scheduler", address], capture_output=True
            )  # warm the workers
            times: dict[str, list[float]] = {name: [] for name in rows}
            outputs: dict[str, object] = {}
            for _ in range(args.repeat):
                for name, (command, outdir, baseline) in rows.items():
                    if outdir is not None:
                        shutil.rmtree(outdir, ignore_errors=True)
                    seconds, proc = timed(command)
                    times[name].append(seconds)
                    outputs[name] = comparable(proc, outdir)
                    if baseline is not None and outputs[name] != outputs[baseline]:
                        raise SystemExit(f"{name}: the output differs from {baseline}'s")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    n = args.documents
    print(f"{n} documents (benchmarks/generate_aif.py), {args.workers} workers, median of {args.repeat} run(s)\n")
    print(f"| {'command':<38} | {'seconds':>8} | {'files/s':>8} | {'ratio':>6} |")
    print(f"|{'-' * 40}|{'-' * 10}|{'-' * 10}|{'-' * 8}|")
    median = {name: statistics.median(values) for name, values in times.items()}
    for name, (_, _, baseline) in rows.items():
        ratio = median[name] / median[baseline or name]
        print(f"| {name:<38} | {median[name]:>8.1f} | {n / median[name]:>8.1f} | {ratio:>5.2f}x |")
    print()
    for name in ("validate --scheduler (shared paths)", "query --nist-layout --scheduler"):
        per_1000 = median[name] * 1000 / n
        print(
            f"{name}: {per_1000:.0f} s per 1,000 documents on {args.workers} workers"
            f" = {per_1000 * args.workers:.0f} worker-seconds"
        )


if __name__ == "__main__":
    main()
