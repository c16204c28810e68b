"""Benchmark: this aifcheck against an earlier one (another interpreter's install), before and after
in one run, on the inputs a refactoring must not slow down: validate the real 11k-triple document
KB and a generated 1M-triple corpus, score ta1 on NIST's example run (its SPARQL-output, and its
Turtle KBs end to end), score ta2 on bench_score_ta2's generated run (200 queries x 3 clusters x
100 documents: 60,000 rows).

Each round runs every case with both versions, in turns (which goes first alternates), so that the
machine's load weighs on both alike; each cell is the median of --repeat rounds (wall seconds, and
CPU seconds of the command and its children, the steadier figure on a shared machine). The ratio is
after / before: below 1 is faster.

    python benchmarks/bench_versions.py --baseline-python /tmp/before-venv/bin/python [--repeat 3]

Run it with the Python of a plain (not editable) install of this aifcheck, as the baseline is: an
editable install's import hook adds some 30 ms to every command.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from bench_score_ta2 import AUX as TA2_AUX  # benchmarks/, this script's folder, is on sys.path
from bench_score_ta2 import RUN_ID, timed
from bench_score_ta2 import generate as generate_ta2
from generate_aif import main as generate_aif

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "m54"
KB_11K = DATA / "task1-run" / "L0C0499MZ.ttl"
TA1_EXAMPLE = DATA / "ta1-scoring" / "example-task1-run"
TA1_OPTIONS = ["--gold", str(DATA / "ta1-gold-tsv"), "--aux", str(DATA / "ta1-scoring" / "AUX-data")]
TA1_OPTIONS += ["--type-similarity", str(DATA / "ta1-scoring" / "similarity.tsv")]  # NIST's tables, which
TA1_OPTIONS += ["--taggable-types", str(DATA / "ta1-scoring" / "taggable_types.txt")]  # 0.2.0 bundled


def cases(work: Path) -> dict[str, list[str]]:
    """Each case's aifcheck arguments (``{out}``: a new output folder), its inputs made in ``work``."""
    corpus = work / "corpus-1M.ttl"
    if not corpus.exists():
        generate_aif(["--triples", "1000000", str(corpus)])
    ta2 = work / "ta2-200x3x100"
    if not ta2.exists():
        generate_ta2(ta2, 200, 3, 100, seed=7)
    return {
        "validate 11k-triple KB": ["validate", str(KB_11K), "-q"],
        "validate 1M-triple corpus": ["validate", str(corpus), "-q"],
        "score ta1, NIST's example (SPARQL-output)": [
            *("score", "ta1", str(TA1_EXAMPLE / "SPARQL-output"), *TA1_OPTIONS),
            *("--run-id", "example-task1-run", "-o", "{out}"),
        ],
        "score ta1, NIST's example (5 KBs)": [
            *("score", "ta1", str(DATA / "task1-run"), *TA1_OPTIONS, "--run-id", "example-task1-run", "-o", "{out}"),
        ],
        "score ta2, 60,000 rows": [
            *("score", "ta2", str(ta2 / RUN_ID), "--queries-to-score", str(ta2 / "queries_to_score.tab")),
            *("--assessments", str(ta2 / "LDC"), "--aux", str(TA2_AUX), "-o", "{out}"),
        ],
    }


def run(python: str, arguments: list[str]) -> tuple[float, float]:
    with tempfile.TemporaryDirectory() as folder:
        command = [python, "-m", "aifcheck", *(a.replace("{out}", str(Path(folder) / "out")) for a in arguments)]
        # run in the scratch folder: `python -m` puts the current folder first on the path, and a
        # checkout's aifcheck/ there would stand in for the install being timed
        done, wall, cpu = timed(lambda: subprocess.run(command, capture_output=True, text=True, cwd=folder))
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(command)}: exit {done.returncode}: {done.stderr[-2000:]}")
    return wall, cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline-python", required=True, help="the interpreter of the earlier aifcheck")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--work", type=Path, default=Path("/tmp/aifcheck-bench-versions"))
    args = parser.parse_args()
    if not DATA.is_dir():
        raise SystemExit(f"NIST's example files not found at {DATA}")
    args.work.mkdir(parents=True, exist_ok=True)
    table = cases(args.work)
    versions = {"after": sys.executable, "before": args.baseline_python}
    times: dict[tuple[str, str], list[tuple[float, float]]] = {}
    loads = []
    for round_number in range(args.repeat):
        for index, (name, arguments) in enumerate(table.items()):
            order = list(versions) if (round_number + index) % 2 == 0 else list(reversed(versions))
            for version in order:
                times.setdefault((name, version), []).append(run(versions[version], arguments))
            loads.append(os.getloadavg()[0])
    label = {
        v: subprocess.run(
            [p, "-m", "aifcheck", "--version"], capture_output=True, text=True, cwd=args.work
        ).stdout.strip()
        for v, p in versions.items()
    }
    print(
        f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}; "
        f"load (1-minute) {min(loads):.1f}-{max(loads):.1f}; median of {args.repeat} rounds"
    )
    print(f"before: {label['before']} ({args.baseline_python}); after: {label['after']} ({sys.executable})")
    print("| case | before s (CPU s) | after s (CPU s) | after / before (CPU) |")
    print("| --- | ---: | ---: | ---: |")
    for name in table:
        before, after = (
            tuple(statistics.median(t[i] for t in times[(name, v)]) for i in (0, 1)) for v in ("before", "after")
        )
        print(
            f"| {name} | {before[0]:.2f} ({before[1]:.2f}) | {after[0]:.2f} ({after[1]:.2f}) "
            f"| {after[0] / before[0]:.2f} ({after[1] / before[1]:.2f}) |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
