"""Benchmark: ``aifcheck score ta1`` against NIST's own TA1 pipeline, timed in the same run.

Rows: NIST's example run from its SPARQL-output, the same end to end from its 5 Turtle KBs, and
the 43 gold documents scored as a system run. aifcheck is timed as a whole process (the installed
command). NIST's column runs NIST's own code (clean_sparql_output.py, validate_responses.py,
score_submission.py task1) from ../shared/reference with the Python of a separate virtualenv that
has munkres 1.1.4, numpy, pandas, openpyxl, tqdm and rdflib (default /work/nist-venv, or
$NIST_PYTHON); its filter stage (filter_responses.py) cannot run here (it needs NIST's DWD overlay
and its KGTK cache or service, none public), so NIST's time is the other stages only: a lower
bound. Without that Python or ../shared, the NIST column says why it is empty.

    python benchmarks/bench_score_ta1.py [--repeat N]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "m54"
NIST = ROOT.parent / "shared" / "reference" / "nist-aida" / "python"
AUX = DATA / "ta1-scoring" / "AUX-data"
EXAMPLE = DATA / "ta1-scoring" / "example-task1-run"
NIST_PYTHON = Path(os.environ.get("NIST_PYTHON", "/work/nist-venv/bin/python"))


def timed(command: list[str], cwd: Path | None = None) -> float:
    start = time.perf_counter()
    subprocess.run(command, cwd=cwd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def aifcheck(run: Path, run_id: str) -> float:
    with tempfile.TemporaryDirectory() as folder:
        command = [
            sys.executable,
            "-m",
            "aifcheck",
            "score",
            "ta1",
            str(run),
            "--gold",
            str(DATA / "ta1-gold-tsv"),
            "--aux",
            str(AUX),
            "--type-similarity",
            str(DATA / "ta1-scoring" / "similarity.tsv"),
            "--taggable-types",
            str(DATA / "ta1-scoring" / "taggable_types.txt"),
            "--run-id",
            run_id,
            "-o",
            str(Path(folder) / "out"),
        ]
        start = time.perf_counter()
        status = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
        elapsed = time.perf_counter() - start
        if status not in (0, 1):
            raise SystemExit(f"aifcheck failed ({status}): {' '.join(command)}")
        return elapsed


def nist_example() -> float | str:
    """NIST's clean, validate and score stages on the example run (its filter stage's output is
    NIST's own, from the example run)."""
    if not NIST_PYTHON.exists():
        return f"skipped: no {NIST_PYTHON} (a Python with NIST's dependencies)"
    if not NIST.is_dir():
        return f"skipped: NIST's code not found at {NIST}"
    spec = NIST / "input" / "aux_data" / "log_specifications.txt"
    aux = [
        AUX / "encoding_modality.txt",
        AUX / "LDC2021E11.coredocs-xx.txt",
        AUX / "LDC2021E11.parent_children.tsv",
        AUX / "LDC2021E11.sentence_boundaries.txt",
        AUX / "LDC2021E11.image_boundaries.txt",
        AUX / "LDC2021E11.keyframe_boundaries.txt",
        AUX / "LDC2021E11.video_boundaries.txt",
    ]
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        for name in ("SPARQL-FILTERED-output", "alignment", "similarities"):
            shutil.copytree(EXAMPLE / name, work / name)
        python = str(NIST_PYTHON)
        total = timed(
            [
                python,
                "clean_sparql_output.py",
                "-l",
                str(work / "clean.log"),
                str(spec),
                str(EXAMPLE / "SPARQL-output"),
                str(work / "SPARQL-CLEAN-output"),
            ],
            NIST,
        )
        total += timed(
            [
                python,
                "validate_responses.py",
                "-l",
                str(work / "validate.log"),
                str(spec),
                *map(str, aux),
                "example-task1-run",
                str(work / "SPARQL-CLEAN-output"),
                str(work / "SPARQL-VALID-output"),
            ],
            NIST,
        )
        total += timed(
            [
                python,
                "score_submission.py",
                "task1",
                "-l",
                str(work / "score.log"),
                str(spec),
                *map(str, aux),
                str(DATA / "ta1-gold-tsv"),
                str(work / "SPARQL-FILTERED-output"),
                str(work / "alignment"),
                str(work / "similarities"),
                "example-task1-run",
                str(work / "scores"),
            ],
            NIST,
        )
        return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs of each aifcheck row (the median is shown)")
    args = parser.parse_args()
    if not EXAMPLE.is_dir():
        raise SystemExit(f"NIST's example run not found at {EXAMPLE}")
    nist = nist_example()
    rows = [
        ("example run, from SPARQL-output (2 docs)", EXAMPLE / "SPARQL-output", "example-task1-run", 2.0, nist),
        ("example run, from its 5 Turtle KBs", DATA / "task1-run", "example-task1-run", 3.0, nist),
        (
            "43 gold documents as a system run",
            DATA / "ta1-gold-tsv",
            "gold",
            10.0,
            "not run (NIST's filter stage cannot run here)",
        ),
    ]
    print(f"{'case':44} {'aifcheck s':>10} {'target s':>8}  NIST (clean+validate+score) s   ratio")
    for label, run, run_id, target, baseline in rows:
        seconds = statistics.median(aifcheck(run, run_id) for _ in range(args.repeat))
        if isinstance(baseline, float):
            print(f"{label:44} {seconds:10.2f} {target:8.1f}  {baseline:29.2f}  {baseline / seconds:5.1f}x")
        else:
            print(f"{label:44} {seconds:10.2f} {target:8.1f}  {baseline}")


if __name__ == "__main__":
    main()
