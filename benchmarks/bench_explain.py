"""Benchmark: what ``--explain`` costs. Each scorer is run through the installed command with and
without ``--explain``, on NIST's example TA1 run (../shared/data/m54), the TA2 benchmark's size
(200 queries x 3 clusters x 100 documents, generated as benchmarks/bench_score_ta2.py does) and
the largest TA3 fixture; the table gives the best wall-clock and CPU times of --repeat rounds (a
round runs every command of a case, the first rotating) and their ratios (the issue's bound: 1.5),
with the machine's load before and after. ``--before`` names another install's command (the code
before a change, say main's): each case is then timed with it too, in the same rounds, one line
below the case.

    python benchmarks/bench_explain.py [--repeat 3] [--ta2-size 200x3x100] [--before /path/to/aifcheck]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_score_ta2 import generate

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "m54"
AUX = DATA / "ta1-scoring" / "AUX-data"
TA3 = ROOT / "tests" / "score" / "fixtures" / "ta3" / "multi"


def _once(command: list[str], out: Path) -> tuple[float, float]:
    """The wall-clock and CPU (user + system, of the command) seconds of one run."""
    shutil.rmtree(out, ignore_errors=True)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([*command, "-o", str(out)], capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        sys.exit(f"{' '.join(command)}: exit {done.returncode}: {done.stderr.strip()}")
    return wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def _best(runs: dict[str, list[str]], folder: Path, repeat: int) -> dict[str, tuple[float, float]]:
    """The best wall-clock and CPU seconds of each command of ``runs`` over ``repeat`` rounds; each
    round runs every command, the first of them rotating, so that the load weighs on all alike."""
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in runs}
    names = list(runs)
    for round_number in range(repeat):
        turn = round_number % len(names)
        for name in names[turn:] + names[:turn]:
            times[name].append(_once(runs[name], folder / name))
    return {name: (min(w for w, _ in found), min(c for _, c in found)) for name, found in times.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--ta2-size", default="200x3x100")
    parser.add_argument("--before", help="another install's aifcheck command, timed beside this one")
    options = parser.parse_args()
    aifcheck = shutil.which("aifcheck") or sys.exit("the aifcheck command is not installed")
    commands = {"": aifcheck}
    if options.before:
        commands["  before"] = shutil.which(options.before) or sys.exit(f"{options.before}: no such command")
    queries, clusters, documents = (int(n) for n in options.ta2_size.split("x"))
    with tempfile.TemporaryDirectory(prefix="aifcheck-bench-explain-") as scratch:
        folder = Path(scratch)
        ta2 = generate(folder / "ta2", queries, clusters, documents, seed=7)
        cases = {
            "TA1: NIST's example run (5 KBs)": [
                aifcheck, "score", "ta1", str(DATA / "task1-run"), "--gold", str(DATA / "ta1-gold-tsv"),
                "--aux", str(AUX), "--run-id", "example-task1-run",
                "--type-similarity", str(DATA / "ta1-scoring" / "similarity.tsv"),
                "--taggable-types", str(DATA / "ta1-scoring" / "taggable_types.txt"),
            ],
            f"TA2: {queries}x{clusters}x{documents} ({queries * clusters * documents:,} rows)": [
                aifcheck, "score", "ta2", str(ta2["run"]), "--queries-to-score", str(ta2["queries"]),
                "--assessments", str(ta2["assessments"]), "--aux", str(AUX),
            ],
            f"TA3: fixture {TA3.name}": [
                aifcheck, "score", "ta3", str(TA3 / "RUN1"), "--queries-to-score", str(TA3 / "queries_to_score.tab"),
                "--claim-mappings", str(TA3 / "claim-mappings.tab"), "--assessments", str(TA3 / "LDC"),
            ],
        }  # fmt: skip
        load = os.getloadavg()
        rows = []
        for name, command in cases.items():
            runs = {}
            for number, program in enumerate(commands.values()):
                runs[f"plain{number}"] = [program, *command[1:]]
                runs[f"explained{number}"] = [program, *command[1:], "--explain"]
            best = _best(runs, folder, options.repeat)
            for number, suffix in enumerate(commands):
                size = sum(p.stat().st_size for p in (folder / f"explained{number}" / "explain").glob("*.jsonl"))
                rows.append((f"{name}{suffix}", best[f"plain{number}"], best[f"explained{number}"], size))
        after = os.getloadavg()
    print(f"machine: {os.cpu_count()} cores, load {load[0]:.2f} before, {after[0]:.2f} after; best of {options.repeat}")
    print(f"{'case':<42} {'plain s':>8} {'--explain s':>11} {'ratio':>6} {'CPU ratio':>9} {'jsonl MB':>9}")
    for name, (plain, plain_cpu), (explained, explained_cpu), size in rows:
        print(
            f"{name:<42} {plain:>8.2f} {explained:>11.2f} {explained / plain:>6.2f} "
            f"{explained_cpu / plain_cpu:>9.2f} {size / 1e6:>9.1f}"
        )


if __name__ == "__main__":
    main()
