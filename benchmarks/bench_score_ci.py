"""Benchmark: `aifcheck score ci` beside NIST's generate_confidence_intervals.py on the same
10,000-row score table, 100,000 replications per interval, the four default sizes.

The tables are generated here (seeded), laid out as TA1's TypeMetricV4-scores.tab: 40 documents
of 250 rows, 3 languages, 2 metatypes, with ALL-Micro and ALL-Macro rows for every language and
metatype (16 keys; each row belongs to 4 samples). ``tied`` holds TA1-like scores (mostly 1 and
0, a few fractions: the example run's TA1 tables have 1 to 15 distinct values); ``continuous``
holds 4-decimal values spread over [0, 1] (some 6,300 distinct), the hardest case for aifcheck's
stream (every replication draws rows, 10,000 of them, each shared by the 4 samples the row is in).
Modes (the tied table in all three, the continuous one in the first two):

- *rows*: NIST's arguments as they stand (samples of rows: 40,000 row draws per replication);
- *macro*: ``-m``, as NIST ran its tool on TA1 tables (samples of per-document means);
- *rows, --seed 1*: NIST's random stream (arch 4.19's RandomState), byte for byte NIST's files.

NIST's tool (commit a0b379b) runs from a scratch folder with --nist-python, a Python with arch
4.19 (e.g. a Python 3.9 virtualenv with arch==4.19 numpy==1.26.4 scipy==1.13.1), seeded (-s 1)
so that the files can be compared; its per-row runs take many minutes, so --nist-modes picks them.

    python benchmarks/bench_score_ci.py [--nist-python PYTHON] [--nist-modes macro,rows] [--repeat 1]

Each row says the machine's load (1-minute average) when it was measured: on a shared machine the
CPU seconds are the steadier figure.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy
from bench_score_ta3 import command_times  # benchmarks/, this script's folder, is on sys.path

ROOT = Path(__file__).resolve().parents[1]
NIST_PYTHON_DIR = ROOT.parent / "shared" / "reference" / "nist-aida" / "python"
KEY, SUMMARY = "RunID,Language,Metatype", "DocID:ALL-Macro,DocID:ALL-Micro"
TIED = ["1.0000"] * 7 + ["0.0000"] * 2 + ["0.5000", "0.3333", "0.6667"]


def generate(path: Path, continuous: bool, seed: int, documents: int = 40, rows: int = 250) -> None:
    rng = random.Random(seed)
    lines = ["DocID\tRunID\tLanguage\tMetatype\tGoldClusterID\tSystemClusterID\tTypeSimilarity"]
    for d in range(documents):
        language = ("ENG", "RUS", "SPA")[d % 3]
        for k in range(rows):
            value = f"{rng.random():.4f}" if continuous else rng.choice(TIED)
            lines.append(f"DOC{d:03d}\tbench-run\t{language}\t{('Entity', 'Event')[k % 2]}\tg{k}\ts{k}\t{value}")
    for kind in ("ALL-Micro", "ALL-Macro"):
        for language in ("ENG", "RUS", "SPA", "ALL"):
            for metatype in ("Entity", "Event", "ALL"):
                lines.append(f"{kind}\tbench-run\t{language}\t{metatype}\t\t\t0.5000")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


MODES = {"rows": [], "macro": ["-m"], "rows, --seed 1": ["-s", "1"]}


def ours(table: Path, mode: str, out: Path) -> list[str]:
    options = {"-m": "--macro", "-s": "--seed"}
    return [
        "aifcheck",
        "score",
        "ci",
        str(table),
        "--score",
        "TypeSimilarity",
        "--key",
        KEY,
        "--summary",
        SUMMARY,
        "--document",
        "DocID",
        *(options.get(word, word) for word in MODES[mode]),
        "-o",
        str(out / "ci.txt"),
        "--tab",
        str(out / "ci.tab"),
    ]


def nist(python: Path, table: Path, mode: str, work: Path) -> list[str]:
    options = MODES[mode] if "-s" in MODES[mode] else [*MODES[mode], "-s", "1"]
    return [
        str(python),
        str(NIST_PYTHON_DIR / "generate_confidence_intervals.py"),
        "-l",
        str(work / "log.txt"),
        *options,
        str(NIST_PYTHON_DIR / "input" / "aux_data" / "log_specifications.txt"),
        KEY,
        "TypeSimilarity",
        SUMMARY,
        "DocID",
        "RunID",
        str(table),
        str(work / "nist.txt"),
        str(work / "nist.tab"),
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--nist-python", type=Path, help="a Python with arch 4.19 to run NIST's tool (default: not run)"
    )
    parser.add_argument(
        "--nist-modes", default="macro", help="modes NIST's tool runs on the tied table (default macro)"
    )
    parser.add_argument("--repeat", type=int, default=1, help="aifcheck runs per case; the best is reported")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    nist_modes = set(args.nist_modes.split(",")) if args.nist_python else set()
    os.environ["PYTHONPATH"] = str(NIST_PYTHON_DIR)  # for NIST's tool; aifcheck ignores it
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for kind in ("tied", "continuous"):
            table = work / f"{kind}.tab"
            generate(table, kind == "continuous", args.seed)
            for mode in MODES:
                if kind == "continuous" and "--seed" in mode:  # the same draws as the tied table's
                    continue
                wall, cpu = min(command_times(ours(table, mode, work)) for _ in range(args.repeat))
                row = {"table": kind, "mode": mode, "wall": wall, "cpu": cpu, "load": os.getloadavg()[0]}
                if kind == "tied" and mode.split(",")[0] in nist_modes:
                    nist_wall, _ = command_times(nist(args.nist_python, table, mode, work))
                    row["nist"] = nist_wall
                    if "--seed" in mode:
                        row["same"] = all(
                            (work / f"nist.{e}").read_bytes() == (work / f"ci.{e}").read_bytes() for e in ("txt", "tab")
                        )
                    else:
                        subprocess.run(
                            [
                                *ours(table, mode, work)[:-4],
                                "--seed",
                                "1",
                                "-o",
                                str(work / "ci.txt"),
                                "--tab",
                                str(work / "ci.tab"),
                            ],
                            check=True,
                            capture_output=True,
                        )
                        row["same"] = (work / "nist.tab").read_bytes() == (work / "ci.tab").read_bytes()
                    for name in ("nist.txt", "nist.tab", "log.txt"):
                        (work / name).unlink(missing_ok=True)
                results.append(row)
        shutil.rmtree(work, ignore_errors=True)
    print(
        f"{datetime.date.today()}  {platform.machine()} {platform.processor() or ''}  {os.cpu_count()} cores  "
        f"Python {platform.python_version()}  numpy {numpy.__version__}"
    )
    print(
        "| table (10,000 rows) | mode | aifcheck s (CPU s) | load | NIST s (-s 1) | NIST / aifcheck"
        " | same files with -s 1 / --seed 1 |"
    )
    print("| --- | --- | ---: | ---: | ---: | ---: | --- |")
    for row in results:
        nist_time = row.get("nist")
        nist_cell = "not run" if nist_time is None else f"{nist_time:.0f}"
        ratio = "" if nist_time is None else f"{nist_time / row['wall']:.0f}x"
        print(
            f"| {row['table']} | {row['mode']} | {row['wall']:.1f} ({row['cpu']:.1f}) | {row['load']:.1f}"
            f" | {nist_cell} | {ratio} "
            f"| {row.get('same', '')} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
