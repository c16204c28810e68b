"""Benchmark: ``aifcheck score ta2`` against NIST's own TA2 scorer, timed side by side on a run
generated here.

The run has Q queries x C clusters x K documents (default 200 x 3 x 100: 60,000 rows), text
mentions of real LDC2021E11 documents (the AUX data of ../shared/data), with LDC's assessments
(each query's entity classes, NIL and wrong mentions, some mentions unjudged) and the queries
table. aifcheck scores it through its Python API and through the installed command; NIST's scorer
(score_submission.py task2 at a0b379b, run offline from a scratch folder outside the project:
benchmarks/nist_ta2.py) scores the same files in its own Python (--nist-python, default
$NIST_PYTHON or /work/nist-venv/bin/python: munkres 1.1.4 and tqdm). Where both run, the table
says whether the score files are the same (rows within a query sorted). NIST's time grows with the
square of the run (each query reads every assessment line again, several times): it scores the
sizes of --nist-sizes only. A last row scores every fixture of tests/score/fixtures/ta2 where NIST's
code finishes, one command per case, as a user or a grader runs small cases.

Both run with Python's bytecode caches (PYTHONDONTWRITEBYTECODE unset), after one run to warm them.

    python benchmarks/bench_score_ta2.py [--sizes 20x3x100,200x3x100] [--nist-sizes 20x3x100] [--repeat 3]
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import random
import resource
import subprocess
import sys
import tempfile
import time
import timeit
from pathlib import Path

from nist_ta2 import METRIC, NIST_PYTHON, nist_scores

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "score" / "fixtures" / "ta2"
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
AUX = ROOT.parent / "shared" / "data" / "m54" / "ta1-scoring" / "AUX-data"
RUN_ID = "BENCH2"
HEADER = "?docid\t?query_link_target\t?link_target\t?cluster\t?mention_span\t?j_cv\t?link_cv"


def text_elements(aux: Path) -> list[tuple[str, str]]:
    """(document, text element) of every core document with a text element."""
    core = {line.strip() for line in next(aux.glob("*.coredocs.txt")).read_text(encoding="utf-8").splitlines()[1:]}
    found = {}
    for line in next(aux.glob("*.parent_children.tsv")).read_text(encoding="utf-8").splitlines()[1:]:
        element, kind, document, _ = line.split("\t")
        if kind == "ltf" and document in core:
            found.setdefault(document, element)
    return sorted(found.items())


def generate(root: Path, queries: int, clusters: int, documents: int, seed: int) -> dict[str, Path]:
    """Write the run, the assessments and the queries table under ``root``; returns their paths."""
    rng = random.Random(seed)
    mentions = text_elements(AUX)
    valid = root / RUN_ID / "SPARQL-VALID-output"
    valid.mkdir(parents=True)
    kits = root / "LDC" / "data" / "TA2"
    kits.mkdir(parents=True)
    table = ["query_id\tentity_id\tentrypoint_type\tentrypoint\tclusters\tdocuments"]
    for q in range(queries):
        query_id, entity = f"BQ{q:04d}", f"E{q // 2:04d}"  # two queries (kbid, name) per entity
        kbid = q % 2 == 0
        entrypoint = f"Q{100000 + q // 2}" if kbid else f"Name {q // 2}"
        table.append(f"{query_id}\t{entity}\t{'kbid' if kbid else 'name'}\t{entrypoint}\t{clusters}\t{documents}")
        classes = [f"Q{100000 + q // 2}", f"Q{200000 + q}", "NIL"]
        rows, lines, judged = [HEADER], [], set()
        for c in range(clusters):
            cluster = f"{query_id}-cluster-{c}"
            link = round(rng.uniform(0.1, 1.0), 3)
            for document, element in rng.sample(mentions, documents):
                start = rng.randrange(1, 400)
                span = f"{document}:{element}:({start},0)-({start + rng.randrange(3, 20)},0)"
                rows.append(
                    f"{document}\t{entrypoint}\t{entrypoint}\t{cluster}\t{span}"
                    f'\t"{round(rng.uniform(0.05, 1.0), 3)}"\t"{link}"'
                )
                if span not in judged and rng.random() < 0.9:  # the others are not judged
                    judged.add(span)
                    label = rng.choices(("CORRECT", "INEXACT", "INCORRECT"), (6, 1, 3))[0]
                    fqec = "NIL" if label == "INCORRECT" else rng.choices(classes, (5, 2, 1))[0]
                    mention = span.split(":", 1)[1]
                    lines.append(
                        f"{query_id}\t{entrypoint}\t{len(lines) + 1}\tTEXT\t{document}\t{mention}\t{label}\tNAM\t{fqec}"
                    )
        (valid / f"{query_id}.rq.tsv").write_text("\n".join(rows) + "\n", encoding="utf-8")
        (kits / f"BATCH1_{query_id}_1.tab").write_text("\n".join(lines) + "\n", encoding="utf-8")
    paths = {"run": root / RUN_ID, "queries": root / "queries_to_score.tab", "assessments": root / "LDC"}
    paths["queries"].write_text("\n".join(table) + "\n", encoding="utf-8")
    return paths


def timed(call) -> tuple[object, float, float]:
    """What ``call()`` returns, with the wall-clock and CPU (user + system) seconds of the commands
    it runs: on a busy machine the CPU time is what a command itself costs."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    result = call()
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return result, wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def command_times(command: list[str], statuses: tuple[int, ...] = (0, 1)) -> tuple[float, float]:
    """Wall-clock and CPU seconds of an aifcheck command that ends with one of ``statuses``."""
    done, wall, cpu = timed(lambda: subprocess.run(command, capture_output=True, text=True, env=ENV))
    if done.returncode not in statuses:
        raise SystemExit(f"aifcheck failed: {done.stderr}")
    return wall, cpu


def score_command(run: Path, queries: Path, assessments: Path, out: Path) -> list[str]:
    return [
        sys.executable,
        "-m",
        "aifcheck",
        "score",
        "ta2",
        str(run),
        "--queries-to-score",
        str(queries),
        "--assessments",
        str(assessments),
        "--aux",
        str(AUX),
        "-o",
        str(out),
        "--force",
    ]


def _sorted_rows(text: str) -> list[str]:
    lines = text.split("\n")
    return [lines[0], *sorted(lines[1:-2]), *lines[-2:]]


def measure(root: Path, size: tuple[int, int, int], seed: int, repeat: int, nist: Path | None) -> dict[str, object]:
    from aifcheck.render.ta2.scores import score_files
    from aifcheck.score.ta2 import score_ta2

    paths = generate(root, *size, seed)
    inputs = (paths["run"], paths["queries"], paths["assessments"], AUX)
    score_ta2(*inputs)  # the AUX tables, read once per process, are read here
    api = min(timeit.repeat(lambda: score_ta2(*inputs), number=1, repeat=repeat))
    command = score_command(paths["run"], paths["queries"], paths["assessments"], root / "ours")
    command_times(command)  # bytecode caches and the AUX tables' cache
    cli, cpu = min(command_times(command) for _ in range(repeat))
    row: dict[str, object] = {
        "run": "x".join(map(str, size)),
        "rows": size[0] * size[1] * size[2],
        "api": api,
        "cli": cli,
        "cpu": cpu,
    }
    if nist is not None:
        done, _, nist_cpu = timed(
            lambda: nist_scores(
                paths["run"], paths["queries"], paths["assessments"], AUX, RUN_ID, root / "nist", python=nist, env=ENV
            )
        )
        row["nist"] = (done.seconds, nist_cpu) if done.returncode == 0 else f"failed: {done.message}"
        if done.returncode == 0:
            ours = score_files(score_ta2(*inputs, run_id=RUN_ID))
            same = all(
                _sorted_rows(ours[f"scores/{METRIC}-scores.{s}"])
                == _sorted_rows((root / "nist" / f"{METRIC}-scores.{s}").read_text(encoding="utf-8"))
                for s in ("tab", "txt")
            )
            row["same"] = "yes" if same else "NO"
    return row


def fixtures(repeat: int, nist: Path | None) -> dict[str, object]:
    """Every fixture NIST's code scores, one command each, summed (aifcheck refuses two of them,
    exit 3: an unknown label, a malformed mention)."""
    cases = [c for c in sorted(FIXTURES.iterdir()) if (c / "nist" / f"{METRIC}-scores.tab").is_file()]
    with tempfile.TemporaryDirectory() as tmp:
        commands = [score_command(c / "runW", c / "queries_to_score.tab", c / "LDC", Path(tmp) / c.name) for c in cases]
        for command in commands:
            command_times(command, (0, 1, 3))  # bytecode caches and the AUX tables' cache
        times = [min(command_times(command, (0, 1, 3)) for _ in range(repeat)) for command in commands]
        row: dict[str, object] = {
            "run": f"{len(cases)} fixtures, one command each",
            "rows": "",
            "api": None,
            "cli": sum(t[0] for t in times),
            "cpu": sum(t[1] for t in times),
        }
        if nist is not None:
            seconds = cpu = 0.0
            for c in cases:
                done, _, used = timed(
                    lambda c=c: nist_scores(
                        c / "runW",
                        c / "queries_to_score.tab",
                        c / "LDC",
                        AUX,
                        "runW",
                        Path(tmp) / f"nist-{c.name}",
                        python=nist,
                        env=ENV,
                    )
                )
                seconds, cpu = seconds + done.seconds, cpu + used
            row["nist"] = (seconds, cpu)
    return row


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--sizes", default="20x3x100,200x3x100", help="runs to generate, queries x clusters x documents"
    )
    parser.add_argument(
        "--nist-sizes", default="20x3x100", help="the sizes NIST's code scores too (its time grows with the square)"
    )
    parser.add_argument(
        "--nist-python", type=Path, default=NIST_PYTHON, help="a Python with munkres 1.1.4 and tqdm for NIST's code"
    )
    parser.add_argument("--no-nist", action="store_true", help="time aifcheck only")
    parser.add_argument("--repeat", type=int, default=3, help="aifcheck runs per size; the best is reported")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    if not AUX.is_dir():
        raise SystemExit(f"the LDC2021E11 AUX data is not at {AUX}")
    nist = None if args.no_nist or not args.nist_python.exists() else args.nist_python
    nist_sizes = set(args.nist_sizes.split(","))
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for k, size in enumerate(args.sizes.split(",")):
            rows.append(
                measure(
                    Path(tmp) / str(k),
                    tuple(map(int, size.split("x"))),
                    args.seed,
                    args.repeat,
                    nist if size in nist_sizes else None,
                )
            )
    rows.append(fixtures(args.repeat, nist))
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"{datetime.date.today()}  {platform.machine()} {platform.processor() or ''}  {os.cpu_count()} cores  "
        f"Python {platform.python_version()}  load {load:.1f}"
    )
    print(
        "| run (queries x clusters x documents) | rows | aifcheck API s | aifcheck command s (CPU s) | NIST s (CPU s) "
        "| NIST / aifcheck, wall (CPU) | same files |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: | --- |")
    for row in rows:
        found = row.get("nist", "not run")
        if isinstance(found, tuple):
            nist_cell = f"{found[0]:.2f} ({found[1]:.2f})"
            ratio = f"{found[0] / row['cli']:.0f}x ({found[1] / row['cpu']:.0f}x)"
        else:
            nist_cell, ratio = found, ""
        api = "" if row["api"] is None else f"{row['api']:.2f}"
        print(
            f"| {row['run']} | {row['rows']} | {api} | {row['cli']:.2f} ({row['cpu']:.2f}) | {nist_cell} | {ratio}"
            f" | {row.get('same', '')} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
