"""Benchmark: `aifcheck pipeline ta3` on runs of many claim frames, with and without --jobs.

A run of N claim frames is made from NIST's example TA3 run (../shared/data/m54/task3-run, 13
frames in 6 queries of Conditions 5, 6 and 7): each frame copied under new names into its query's
folder, each copy ranked after the last (so that --depth, not given, keeps them all). Each row of
the table is one run of the installed command: frames, --jobs, wall and CPU seconds (the command
and its workers), its exit status, and the machine's load (1-minute average) when it ran, since on
a shared machine the wall time follows the load and the CPU seconds are the steadier figure.

    python benchmarks/bench_pipeline_ta3.py [--frames 200,2000] [--jobs 1,2]
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "m54"
RUN, QUERIES, AUX = DATA / "task3-run", DATA / "user-queries", DATA / "ta1-scoring" / "AUX-data"


def make_run(target: Path, frames: int) -> int:
    """A run of about ``frames`` claim frames (the example's copied round-robin); returns how many."""
    queries = sorted(p for p in RUN.glob("Condition*/*") if p.is_dir())
    originals = {q: sorted(q.glob("*.ttl")) for q in queries}
    per_copy = sum(len(f) for f in originals.values())
    copies = max(1, round(frames / per_copy))
    made = 0
    for query in queries:
        folder = target / query.relative_to(RUN)
        folder.mkdir(parents=True)
        ranking = (query / f"{query.name}.ranking.tsv").read_text(encoding="utf-8").splitlines()
        relation = {line.split("\t")[1]: line.split("\t")[3:] for line in ranking}
        lines = []
        for k in range(copies):
            for frame in originals[query]:
                name = f"{frame.stem}{k:05d}"
                # the claim ID inside too: NIST's validator stops on two claims of one ID
                text = frame.read_text(encoding="utf-8").replace(frame.stem, name)
                (folder / f"{name}.ttl").write_text(text, encoding="utf-8")
                lines.append("\t".join([query.name, name, str(len(lines) + 1), *relation[frame.stem]]))
                made += 1
        (folder / f"{query.name}.ranking.tsv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return made


def measure(run: Path, jobs: int, scratch: Path) -> tuple[float, float, int]:
    out = scratch / f"out-{jobs}"
    shutil.rmtree(out, ignore_errors=True)
    command = [sys.executable, "-m", "aifcheck", "pipeline", "ta3", str(run), "--user-queries", str(QUERIES)]
    command += ["--aux", str(AUX), "-o", str(out), "--jobs", str(jobs)]
    before = os.times()
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True)
    wall = time.perf_counter() - started
    after = os.times()
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    if done.returncode not in (0, 1):
        sys.exit(f"pipeline ta3 failed ({done.returncode}): {done.stderr[-500:]}")
    return wall, cpu, done.returncode


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--frames", default="200,2000", help="run sizes, comma-separated")
    parser.add_argument("--jobs", default="1,2", help="--jobs values, comma-separated")
    options = parser.parse_args()
    if not RUN.is_dir():
        sys.exit(f"NIST's example TA3 run not found at {RUN}")
    print(f"# {platform.node()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    print("| frames | --jobs | wall s | CPU s | exit | load |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: |")
    with tempfile.TemporaryDirectory(prefix="bench-ta3-") as folder:
        scratch = Path(folder)
        for size in (int(n) for n in options.frames.split(",")):
            run = scratch / f"run-{size}"
            frames = make_run(run, size)
            for jobs in (int(n) for n in options.jobs.split(",")):
                load = os.getloadavg()[0]
                wall, cpu, status = measure(run, jobs, scratch)
                print(f"| {frames:,} | {jobs} | {wall:.1f} | {cpu:.1f} | {status} | {load:.1f} |", flush=True)


if __name__ == "__main__":
    main()
