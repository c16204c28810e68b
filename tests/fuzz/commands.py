"""Hostile input for every command (issues 36 and 43): a seeded campaign over the inputs, outputs and
surroundings of ``score ta1``, ``score ta2`` (a docker run and a KB), ``score ta3`` (with --ci,
--run-id), ``score ci``, ``score compare``, ``score report``, ``score crux-*``, ``pipeline ta2``,
``pipeline ta3``, ``pool ta2``, ``pool ta3``, ``claims``, ``summary``, ``graph``, ``query``
(``--table``, ``--sparql``, ``--nist-layout``), ``lint-submission`` and ``validate``.

    python tests/fuzz/commands.py --cases 80                       # the CI sample (seed 36)
    python tests/fuzz/commands.py --cases 10000 --seed 36 --jobs 2  # the long mode: prints the table
    python tests/fuzz/commands.py --seed 36 --case 1234 --keep      # one case: its recipe, its folder

A case is one command on NIST-shaped fixtures with one thing made hostile: a file it reads
(bytes or cells edited, a cell of 200 KB, a byte that is not UTF-8, a BOM, NUL bytes, a key
repeated, 1e200 in a cell, emptied; or the file made a FIFO, a folder, a link to nothing, a link
loop, a link to /dev/zero, unreadable, missing, its folder or a folder above unreadable), its
output (-o onto a file, FILE/sub, a read-only folder, a link loop, a 300-character name, one of its
input files, a folder of its inputs with and without --force, a link to a file or folder, a FIFO,
a character device of its own (never the system's), /proc/version, -o and --tab one file, a full
disk, a folder in use by a twin run), an option's value (IDs with /, .., tab, newline; numbers
out of range), its runs (one given twice, two of one folder name, two of different tasks), a
name (a run folder's, or the current folder's, with a tab, a newline or a byte that is not UTF-8),
its standard output (/dev/full, closed) or its life (SIGINT to its process group as a terminal's
Ctrl-C, or SIGTERM to it, at a random moment, on long runs and under --jobs 2 too). ``case(seed,
index)`` is a pure function. The files a command reads are the ones it opens on the pristine
fixtures (an audit hook lists them), so that every hostile file is one the command reads.

Each case runs in a fork of this process (aifcheck imported once: a case costs its command, not
Python's start), through ``aifcheck.cli.main`` as the installed command runs it, in a session of
its own, its address space capped at 2 GB, without root's power over permissions when this process
is root (see drop_file_powers), in a folder three levels below the case's own (the "jail"), so
that a path that climbs out of -o stays inside the case. What must hold (oracle): no traceback or
internal error, no hang (--timeout), no death by signal, an exit status of README's table, and the
one oracle.MISTAKES gives the case's class of mistake (the same answer from every command); every
stderr line one clean line of at most 2,000 characters, of the form ``aifcheck: error|warning|note:``;
an error about a hostile file names it (and its line for an edit of its cells, with validate's
words); a hostile file that is no readable file never passes in silence; inputs unchanged (bytes
and type); nothing written in the jail outside -o; -o's type kept (a link stays a link, a device a
device); an output complete after a success and left as it was after a failure, with no temporary
file or lock left beside it; tab-separated outputs of the pristine run's shape; an interrupted run
gone within 2 s of the signal; a summary's lines at most 2,000 characters; a stage's exit status 1
exactly when its logs hold an error.
"""

from __future__ import annotations

import sys
from pathlib import Path

if __name__ == "__main__":  # run as a script: import the package from tests/, not this file's folder
    sys.path[0] = str(Path(__file__).resolve().parents[1])

import argparse
import contextlib
import json
import os
import random
import re
import resource
import shutil
import signal
import stat
import subprocess
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from helpers import AUX_DATA as AUX
from helpers import (
    ROOT,
    SCORE_TA2W,
    SCORE_TA3,
    SHARED_DATA,
    TA1_EXAMPLE,
    TA3_RUN,
    TAGGABLE_TYPES,
    TEST_DATA,
    TYPE_SIMILARITY,
    USER_QUERIES,
    write_pool_runs,
)

from fuzz.oracle import FORM, MISTAKES, Expect, entry, expected, tree, tsv_shape, tsv_shapes

SEED = 36  # the number
GiB = 1024**3
TIMEOUT = 60.0  # seconds a case may take (score ta1 on the trimmed fixture takes about one)
SCORE_FIXTURES = ROOT / "tests" / "score" / "fixtures"
LATENCY = 2.0  # seconds an interrupted command may take to end
JAIL = ("j1", "j2")  # the folders between a case's own and its working folder (see prepare)


# --- the fixtures: pristine inputs of every command, made once per campaign ----------------------


def _copy(source: Path, target: Path) -> None:
    if source.is_dir():
        shutil.copytree(source, target)
    else:
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)


TA1_DOCUMENTS = ("L0C04960U", "L0C0499MZ")  # NIST's example run: both core documents


def make_base(base: Path) -> None:
    """Every command's inputs under ``base`` (readable by all, as the cases may run as nobody)."""
    example = TA1_EXAMPLE / "SPARQL-output"
    if example.is_dir():
        for document in TA1_DOCUMENTS:
            _copy(example / f"{document}.ttl", base / "ta1" / "run" / f"{document}.ttl")
            _copy(SHARED_DATA / "ta1-gold-tsv" / f"{document}.ttl", base / "ta1" / "gold" / f"{document}.ttl")
            _copy(SHARED_DATA / "task1-run" / f"{document}.ttl", base / "ta1kb" / "run" / f"{document}.ttl")
        for name in sorted(p.name for p in AUX.iterdir() if not p.name.endswith((".xlsx", "coredocs.txt"))):
            _copy(AUX / name, base / "ta1" / "aux" / name)
        # the core documents: the run's two and none else (a core document the run lacks costs a
        # scoring from its gold, of which the fixture keeps only these two)
        (base / "ta1" / "aux" / "LDC2021E11.coredocs-xx.txt").write_text(
            "root_id\n" + "".join(f"{d}\n" for d in TA1_DOCUMENTS)
        )
        _copy(TYPE_SIMILARITY, base / "ta1" / "similarity.tsv")
        _copy(TAGGABLE_TYPES, base / "ta1" / "taggable.txt")
    _copy(SCORE_FIXTURES / "ta3" / "T1", base / "ta3")
    shutil.rmtree(base / "ta3" / "nist", ignore_errors=True)
    for name in ("system.tab", "gold.tab", "system-relations.tab", "gold-relations.tab"):
        _copy(SCORE_FIXTURES / "crux" / name, base / "crux" / name)
    _copy(TEST_DATA / "submission", base / "sub")
    _copy(ROOT / "examples" / "valid" / "document-kb.ttl", base / "kb" / "kb.ttl")
    _copy(TEST_DATA / "submission" / "run" / "CLQRYA0001.000001" / "CLDOCA0001.000001.ttl", base / "kb" / "frame.ttl")
    (base / "q.rq").write_text(
        "PREFIX aida: <https://raw.githubusercontent.com/NextCenturyCorporation/AIDA-Interchange-Format/"
        "master/java/src/main/resources/com/ncc/aif/ontologies/InterchangeOntology#>\n"
        "SELECT ?s ?type WHERE { ?s a ?type . OPTIONAL { ?s aida:system ?x } } ORDER BY ?s\n"
    )
    _statistics_base(base)
    if AUX.is_dir():
        _ta2_base(base)
        _ta3_base(base)
    for path in [base, *base.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)
        if os.getuid() == 0:  # owned by another user: a case (root without its powers) can read it, not change it
            os.chown(path, 65534, 65534)


def _statistics_base(base: Path) -> None:
    """score ci's table; two TA3 runs' scores (B: A with its F1 lowered) and a TA1 run's, for compare and report."""
    _copy(SCORE_FIXTURES / "ci" / "continuous.tab", base / "ci" / "scores.tab")
    for run in ("A", "B"):
        _copy(SCORE_FIXTURES / "ta3" / "T1" / "nist", base / "runs" / run / "scores")
    lowered = base / "runs" / "B" / "scores" / "F1ScorerV1A-scores.tab"
    lowered.write_text(re.sub(r"\t1\.0000\b", "\t0.5000", lowered.read_text(encoding="utf-8")), encoding="utf-8")
    rows = ["DocID\tRunID\tLanguage\tMetatype\tGoldClusterID\tSystemClusterID\tAvgEdgeScore"]
    rows += [f"D{d}\tT\tENG\tEvent\tg{i}\ts{i}\t{(d * 3 + i) % 7 / 7:.4f}" for d in range(4) for i in range(3)]
    rows += [
        f"{kind}\tT\t{language}\t{metatype}\t\t\t0.4286"
        for kind in ("ALL-Micro", "ALL-Macro")
        for language, metatype in (("ENG", "Event"), ("ENG", "ALL"), ("ALL", "Event"), ("ALL", "ALL"))
    ]
    (base / "runs" / "T" / "scores").mkdir(parents=True)
    (base / "runs" / "T" / "scores" / "FrameMetric-scores.tab").write_text("\n".join(rows) + "\n", encoding="utf-8")


TA2_QUERIES = (
    "query_id\tentity_id\tentrypoint_type\tentrypoint\tclusters\tdocuments\n"
    "AIDA_P3_TA2_P0001\tE1\tkbid\tQ84263196\t2\t10\nAIDA_P3_TA2_P0002\tE2\tname\tCOVID-19\t1\t3\n"
)


def _ta2_base(base: Path) -> None:
    """NIST's AUX data; score ta2's W1 fixture (a docker run); NIST's TA2 KB with its queries and
    judgements of its mentions; pool ta2's fixture runs and previous pool."""
    for path in AUX.iterdir():
        if not path.name.endswith(".xlsx"):
            _copy(path, base / "aux" / path.name)
    for name in ("runW", "queries_to_score.tab", "LDC"):
        _copy(SCORE_FIXTURES / "ta2" / "W1" / name, base / "ta2w" / name)
    _copy(SHARED_DATA / "task2-run" / "task2_kb.ttl", base / "ta2kb" / "run" / "task2_kb.ttl")
    (base / "ta2kb" / "queries.tsv").write_text(TA2_QUERIES, encoding="utf-8")
    kit, number = [], 0
    for query, entry_point in (("AIDA_P3_TA2_P0001", "Q84263196"), ("AIDA_P3_TA2_P0002", "COVID-19")):
        rows = (SHARED_DATA / "task2-expected" / f"{query}.rq.tsv").read_text(encoding="utf-8").splitlines()[1:]
        for label, row in zip(("CORRECT", "INCORRECT", "CORRECT"), rows, strict=False):
            number += 1
            document, span = row.split("\t")[4].split(":", 1)
            link = entry_point if label == "CORRECT" else "NIL"
            kit.append(f"{query}\t{entry_point}\t{number}\tTEXT\t{document}\t{span}\t{label}\tNAM\t{link}")
    (base / "ta2kb" / "LDC" / "data" / "TA2").mkdir(parents=True)
    (base / "ta2kb" / "LDC" / "data" / "TA2" / "kit1.tab").write_text("\n".join(kit) + "\n", encoding="utf-8")
    for name in ("runs", "previous", "queries.tab"):
        _copy(SCORE_FIXTURES / "ta2" / "pool" / name, base / "pool2" / name)


POOL3_QUERIES = (
    "query_id\tcondition\ttopic_id\tdepth\n"
    "CLL0C04979A.000004\tCondition5\tT302\tontopic:2,supporting:2,refuting:2,related:2,nonrefuting:2,nonsupporting:2\n"
    "T301\tCondition6\tT301\tontopic:5\nC303\tCondition7\tC303\tontopic:5\n"
)


def _ta3_base(base: Path) -> None:
    """NIST's example task3 run and user queries (pipeline ta3); the run and the Condition 5 query
    claim frames through NIST's stages (made by aifcheck's API), a pool of them, and a queries
    table (pool ta3)."""
    from aifcheck.pipeline.ta3.pool import pool_ta3
    from aifcheck.render.ta3.pool import write_pool

    _copy(TA3_RUN, base / "p3" / "run")
    _copy(USER_QUERIES, base / "p3" / "user-queries")
    write_pool_runs(base / "pool3" / "runs")
    (base / "pool3" / "queries.tab").write_text(POOL3_QUERIES, encoding="utf-8")
    here = Path.cwd()
    os.chdir(base / "pool3")  # (a pool names its runs as given)
    try:
        previous = "".join(POOL3_QUERIES.splitlines(keepends=True)[:2])
        (base / "pool3" / "previous.tab").write_text(previous, encoding="utf-8")
        write_pool(pool_ta3(["runs/system"], "previous.tab"), base / "pool3" / "previous")
        (base / "pool3" / "previous.tab").unlink()
    finally:
        os.chdir(here)


# --- the commands ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Command:
    """One command line on the fixtures: its arguments (``{out}`` stands for its output, ``{tab}``
    for its second output file), the fixture folders it reads (linked into each case's folder, or
    copied when made hostile), and its output: a new folder (``folder``), a file, or stdout only (None)."""

    name: str
    args: tuple[str, ...]
    reads: tuple[str, ...]
    output: str | None = None  # "folder" | "file" | "scores" (score ta3's OUT/scores) | "layout" (query --nist-layout)
    out_name: str = "out"
    stdout_ok: tuple[int, ...] = (0,)  # the exit statuses of the pristine run
    marker: str = "results.json"  # what a complete output folder holds
    runs: tuple[int, ...] = ()  # the indices in args of the run folders it reads
    options: tuple[str, ...] = ()  # the options given hostile values (VALUES)
    long: tuple[tuple[str, ...], ...] = ()  # arguments that make it run long (for the signals), one of them
    summary: bool = False  # stdout is a summary table (its lines bounded)
    logs: bool = False  # writes NIST's logs (exit 1 exactly when they hold an error)
    timeout: float = TIMEOUT

    def argv(self, out: str, tab: str = "ci.tab") -> list[str]:
        return [a.replace("{out}", out).replace("{tab}", tab) for a in self.args]


TA1_ARGS = (
    "score",
    "ta1",
    "ta1/run",
    "--gold",
    "ta1/gold",
    "--aux",
    "ta1/aux",
    "--type-similarity",
    "ta1/similarity.tsv",
    "--taggable-types",
    "ta1/taggable.txt",
    "--run-id",
    "fuzz",
    "-o",
    "{out}",
)
TA3_ARGS = (*SCORE_TA3, "-o", "{out}")
FAST = 15.0  # seconds a case of a command that takes under one may take
LONG = (("--replications", "30000000"), ("--replications", "1000000000"))  # bootstraps of a minute, and of hours


def _resampling(
    args: tuple[str, ...], reads: tuple[str, ...], out_name: str, options: tuple[str, ...], runs: tuple[int, ...] = ()
) -> Command:
    """score ci, compare or report: a bootstrap writing one file, quick on the 500 replications of
    ``args``, long on LONG's; its ``options`` given hostile values besides --replications and --seed."""
    name = " ".join(args[:2])
    return Command(
        name,
        args,
        reads,
        "file",
        out_name,
        runs=runs,
        options=("--replications", "--seed", *options),
        long=LONG,
        timeout=FAST,
    )


COMMANDS = (
    Command(
        "score ta1", TA1_ARGS, ("ta1",), "folder", stdout_ok=(0, 1), runs=(2,), options=("--run-id",), summary=True
    ),
    Command(
        "score ta1 (KBs)",
        ("score", "ta1", "ta1kb/run", *TA1_ARGS[3:]),
        ("ta1", "ta1kb"),
        "folder",
        stdout_ok=(0, 1),
        runs=(2,),
    ),
    Command("score ta3", TA3_ARGS, ("ta3",), "scores", runs=(2,), summary=True, timeout=FAST),
    Command(
        "score ta3 (--ci)",
        (*TA3_ARGS, "--ci", "--ci-seed", "5", "--run-id", "RUN1"),
        ("ta3",),
        "scores",
        runs=(2,),
        options=("--ci-seed", "--run-id"),
        summary=True,
        timeout=FAST,
    ),
    _resampling(
        ("score", "ci", "ci/scores.tab", "-o", "{out}", "--tab", "{tab}", "--replications", "500"),
        ("ci",),
        "ci.txt",
        ("--key", "--summary", "--score", "--sizes", "--document"),
    ),
    _resampling(
        ("score", "compare", "runs/A", "runs/B", "--replications", "500", "--tab", "{out}"),
        ("runs",),
        "compare.tab",
        ("--size",),
        runs=(2, 3),
    ),
    _resampling(
        ("score", "report", "runs/A", "runs/B", "--replications", "500", "-o", "{out}"),
        ("runs",),
        "report.html",
        (),
        runs=(2, 3),
    ),
    Command(
        "score ta2",
        (*SCORE_TA2W, "-o", "{out}"),
        ("ta2w", "aux"),
        "scores",
        runs=(2,),
        options=("--run-id",),
        summary=True,
        timeout=FAST,
    ),
    Command(
        "score ta2 (KB)",
        (
            "score",
            "ta2",
            "ta2kb/run",
            "--queries-to-score",
            "ta2kb/queries.tsv",
            "--assessments",
            "ta2kb/LDC",
            "--aux",
            "aux",
            "-o",
            "{out}",
            "--ci",
            "--ci-seed",
            "3",
        ),
        ("ta2kb", "aux"),
        "scores",
        stdout_ok=(0, 1),
        runs=(2,),
        options=("--run-id", "--ci-seed"),
        summary=True,
        timeout=FAST,
    ),
    Command(
        "pipeline ta2",
        ("pipeline", "ta2", "ta2kb/run", "--queries", "ta2kb/queries.tsv", "--aux", "aux", "-o", "{out}"),
        ("ta2kb", "aux"),
        "folder",
        stdout_ok=(0, 1),
        marker="SPARQL-VALID-output",
        runs=(2,),
        summary=True,
        logs=True,
        timeout=FAST,
    ),
    Command(
        "pipeline ta3",
        (
            "pipeline",
            "ta3",
            "p3/run",
            "--user-queries",
            "p3/user-queries",
            "--aux",
            "aux",
            "-o",
            "{out}",
            "--depth",
            "Condition5:2,Condition6:2,Condition7:2",
        ),
        ("p3", "aux"),
        "folder",
        stdout_ok=(0, 1),
        marker="ARF-output",
        runs=(2,),
        options=("--depth",),
        summary=True,
        logs=True,
        timeout=FAST,
    ),
    Command(
        "pool ta2",
        (
            "pool",
            "ta2",
            "pool2/runs/runA",
            "pool2/runs/runB",
            "--queries-to-score",
            "pool2/queries.tab",
            "--aux",
            "aux",
            "-o",
            "{out}",
            "-p",
            "pool2/previous",
        ),
        ("pool2", "aux"),
        "folder",
        marker="pool.txt",
        runs=(2, 3),
        options=("-b", "--kit-size"),
        summary=True,
        timeout=FAST,
    ),
    Command(
        "pool ta3",
        (
            "pool",
            "ta3",
            "pool3/runs/system",
            "pool3/runs/query_claim_frames",
            "--queries-to-score",
            "pool3/queries.tab",
            "-o",
            "{out}",
            "--previous-pool",
            "pool3/previous",
        ),
        ("pool3",),
        "folder",
        marker="claim-mappings.tab",
        runs=(2, 3),
        summary=True,
        timeout=FAST,
    ),
    Command(
        "score crux-claims",
        ("score", "crux-claims", "crux/system.tab", "--gold", "crux/gold.tab", "--format", "json"),
        ("crux",),
        timeout=FAST,
    ),
    Command(
        "score crux-relations",
        ("score", "crux-relations", "crux/system-relations.tab", "--gold", "crux/gold-relations.tab"),
        ("crux",),
        timeout=FAST,
    ),
    Command("claims", ("claims", "kb/frame.ttl", "kb/kb.ttl", "-o", "{out}"), ("kb",), "file", "claims.tsv"),
    Command("summary", ("summary", "kb"), ("kb",)),
    Command("graph", ("graph", "kb/frame.ttl", "-o", "{out}"), ("kb",), "file", "frame.dot"),
    Command(
        "query --table", ("query", "--table", "AIDA_P3_TA1_CM_A0001", "kb", "-o", "{out}"), ("kb",), "file", "table.tsv"
    ),
    Command("query --sparql", ("query", "--sparql", "q.rq", "kb/kb.ttl"), ("kb", "q.rq")),
    Command(
        "query --nist-layout",
        ("query", "--task", "ta1", "--nist-layout", "-o", "{out}", "kb/kb.ttl"),
        ("kb",),
        "layout",
    ),
    Command(
        "lint-submission",
        ("lint-submission", "sub/run", "--condition", "5", "--queries", "sub/queries", "--format", "json"),
        ("sub",),
        stdout_ok=(0, 1),
        runs=(1,),
    ),
    Command("validate", ("validate", "kb", "-o", "{out}"), ("kb",), "layout", stdout_ok=(0, 1)),
)
PARALLEL = ("score ta1", "score ta1 (KBs)", "validate", "query --nist-layout")  # commands with --jobs
WEIGHTS = {
    "score ta1": 3,
    "score ta1 (KBs)": 1,
    "score ta3": 2,
    "score ta3 (--ci)": 2,
    "score ci": 3,
    "score compare": 3,
    "score report": 3,
    "score ta2": 3,
    "score ta2 (KB)": 2,
    "pipeline ta2": 3,
    "pipeline ta3": 3,
    "pool ta2": 3,
    "pool ta3": 3,
    "score crux-claims": 1,
    "score crux-relations": 1,
    "claims": 1,
    "summary": 1,
    "graph": 1,
    "query --table": 1,
    "query --sparql": 1,
    "query --nist-layout": 1,
    "lint-submission": 1,
    "validate": 1,
}

# hostile option values: (option, value); IDs that climb at most len(JAIL) + 1 levels (see prepare)
IDS = ("a/b", "../../../escaped", "x/../../../escaped/B", "a\tb", "a\nb", "", "..")
SEEDS = ("-1", "4294967296", "9" * 40)
VALUES: dict[str, tuple[str, ...]] = {
    "--run-id": IDS,
    "-b": IDS,
    "--seed": SEEDS,
    "--ci-seed": SEEDS,
    "--replications": ("10000000000000000000", "1000000000", "0", "-5"),
    "--depth": (
        "Condition5:" + "9" * 4300,
        "Condition5:" + "9" * 4301,
        "Condition5:-1",
        "Condition9:1",
        "Condition5:1,Condition5:2",
        "ontopic",
    ),
    "--key": ("", ",", "Nope"),
    "--summary": ("Nope:ALL-Macro", "", "DocID"),
    "--score": ("", "Nope"),
    "--document": ("Nope",),
    "--sizes": ("0", "1", "1.5", "nan", "-0.5", "0.9,0.9"),
    "--size": ("0", "1", "nan", "2", "-1"),
    "--kit-size": ("0", "-1", "9" * 4300, "9" * 4301),
}
HUGE = ("9" * 4300, "9" * 4301)  # a depth or kit size beyond any: "all" (exit 0) or refused (2), never more
IDENTIFIERS = ("--run-id", "-b")  # options whose value names files or fills a table's cells


# --- the cases --------------------------------------------------------------------------------

CONTENT = (
    "flip bytes",
    "insert special",
    "delete range",
    "line edit",
    "truncate",
    "duplicate line",
    "drop line",
    "add tab",
    "drop tab",
    "empty cell",
    "long cell",
    "not UTF-8",
    "CRLF",
    "BOM",
    "empty file",
    "huge number",
    "control characters",
    "NUL bytes",
    "odd number",
)
KEYED = ("queries_to_score.tab", "queries.tsv", "queries.tab")  # tables of one row per query ID
KINDS = (
    "FIFO",
    "folder",
    "dangling link",
    "link loop",
    "/dev/zero",
    "unreadable",
    "missing",
    "folder unreadable",
    "ancestor unreadable",
)
OUTPUTS = (
    "onto a file",
    "FILE/sub",
    "read-only folder",
    "link loop",
    "long name",
    "onto its input",
    "full disk",
    "link to a file",
    "FIFO",
    "device",
    "link to a device",
    "/proc/version",
)
FOLDER_OUTPUTS = ("not empty", "twin run", "inside an input", "link to a folder")  # of commands that write a folder
STDOUTS = ("/dev/full", "closed")
SIGNALS = ("SIGINT", "SIGTERM")
SPARQL = ("deep parentheses", "deep groups", "cross product", "update", "service", "junk")
NAMES = ("\udcff", "\t1", "\n1")  # put in a folder's name (\udcff: the byte 0xff, not UTF-8)
RUNS = ("same run twice", "one folder name", "other task")


@dataclass(frozen=True)
class Case:
    index: int
    command: Command
    kind: str  # content | kind | output | stdout | signal | sparql | value | name | runs
    how: str
    target: str | None = None  # the input made hostile (relative to the case folder)
    seed: int = SEED
    value: str | None = None  # a value case's value; a name case's run folder (None: the current folder)

    def describe(self) -> str:
        value = "" if self.value is None else f" {self.value[:60]!r}" + ("..." if len(self.value) > 60 else "")
        how = repr(self.how) if self.kind == "name" else self.how
        return f"case {self.index}: {self.command.name}: {self.kind} {how}{value}" + (
            f" on {self.target}" if self.target else ""
        )


def _outputs(command: Command) -> list[str]:
    hows = list(OUTPUTS)
    if command.output in ("folder", "scores"):
        hows += FOLDER_OUTPUTS
    elif command.name == "query --nist-layout":  # (NIST's layout, written whole: issue 43)
        hows.append("not empty")
    if "{tab}" in command.args:
        hows.append("= --tab")
    return hows


def case(seed: int, index: int, reads: dict[str, list[str]]) -> Case:
    """Case ``index`` of ``seed``; ``reads``: the files each command reads (see audit)."""
    rng = random.Random(f"{seed}/{index}")
    commands = [c for c in COMMANDS if c.name in reads]
    command = rng.choices(commands, weights=[WEIGHTS[c.name] for c in commands])[0]
    files = reads[command.name]
    roll = rng.random()
    if command.output is not None and roll < 0.16:
        return Case(index, command, "output", rng.choice(_outputs(command)), seed=seed)
    if roll < 0.19:
        return Case(index, command, "stdout", rng.choice(STDOUTS), seed=seed)
    if roll < 0.24:
        return Case(index, command, "signal", rng.choice(SIGNALS), seed=seed)
    if command.options and roll < 0.31:
        option = rng.choice(command.options)
        return Case(index, command, "value", option, seed=seed, value=rng.choice(VALUES[option]))
    if roll < 0.36:
        if len(command.runs) > 1 and rng.random() < 0.5:
            hows = [h for h in RUNS if h != "other task" or command.name in ("score compare", "score report")]
            return Case(index, command, "runs", rng.choice(hows), seed=seed)
        run = command.args[rng.choice(command.runs)] if command.runs and rng.random() < 0.7 else None
        return Case(index, command, "name", rng.choice(NAMES), seed=seed, value=run)
    target = rng.choice(files)
    if roll < 0.52:
        return Case(index, command, "kind", rng.choice(KINDS), target, seed)
    if target.endswith(".rq") and rng.random() < 0.5:
        return Case(index, command, "sparql", rng.choice(SPARQL), target, seed)
    if target.endswith(KEYED) and rng.random() < 0.3:
        return Case(index, command, "content", "duplicate key", target, seed)
    return Case(index, command, "content", rng.choice(CONTENT), target, seed)


# --- making a case's folder --------------------------------------------------------------------

_CELL = re.compile(rb"[^\t\n]+")


# edits of the whole file, whatever its lines
_WHOLE_FILE_EDITS: dict[str, Callable[[bytes], bytes]] = {
    "CRLF": lambda data: data.replace(b"\n", b"\r\n"),
    "BOM": lambda data: b"\xef\xbb\xbf" + data,
    "empty file": lambda data: b"",
    "NUL bytes": lambda data: b"\x00" * max(len(data), 1),
}
# what a cell edit puts in place of a cell
_CELL_EDITS = {
    "empty cell": b"",
    "long cell": b"x" * 200_000,
    "huge number": b"9" * 400,
    "control characters": b"\x1b[2J\x00\x07\x0c\xe2\x80\xa8",
}


def _edit(how: str, data: bytes, rng: random.Random) -> bytes:
    """``data`` with one edit of its bytes, lines or cells."""
    from fuzz.mutate import delete_range, flip_bytes, insert_special, line_edit, truncate

    lines = data.split(b"\n")
    at = rng.randrange(len(lines))
    byte_edits = {
        "flip bytes": flip_bytes,
        "insert special": insert_special,
        "delete range": delete_range,
        "line edit": line_edit,
        "truncate": truncate,
    }
    if how in byte_edits:
        return byte_edits[how](rng, data, ())[0]
    if how in _WHOLE_FILE_EDITS:
        return _WHOLE_FILE_EDITS[how](data)
    if how == "duplicate key":
        return _duplicate_key(lines, rng)
    if how == "odd number":  # a number no score takes (a score of 1e200 once ended in an internal error)
        numbers = [(i, m) for i, line in enumerate(lines[1:], 1) for m in _NUMBER.finditer(line)]
        if numbers:
            i, number = rng.choice(numbers)
            lines[i] = (
                lines[i][: number.start()]
                + rng.choice((b"1e200", b"-1e200", b"nan", b"inf", b"1e-400"))
                + lines[i][number.end() :]
            )
    else:
        _edit_line(how, lines, at, rng)
    return b"\n".join(lines)


def _edit_line(how: str, lines: list[bytes], at: int, rng: random.Random) -> None:
    """One edit of ``lines[at]`` (or of the lines around it), in place."""
    if how == "duplicate line":
        lines.insert(rng.randrange(len(lines) + 1), lines[at])
    elif how == "drop line":
        del lines[at]
    elif how == "add tab":
        cut = rng.randrange(len(lines[at]) + 1)
        lines[at] = lines[at][:cut] + b"\t" + lines[at][cut:]
    elif how == "drop tab":
        lines[at] = lines[at].replace(b"\t", b" ", 1)
    elif how in _CELL_EDITS:
        cells = list(_CELL.finditer(lines[at]))
        if cells:
            cell = rng.choice(cells)
            lines[at] = lines[at][: cell.start()] + _CELL_EDITS[how] + lines[at][cell.end() :]
    elif how == "not UTF-8":
        cut = rng.randrange(len(lines[at]) + 1)
        lines[at] = lines[at][:cut] + rng.choice((b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xc0\xaf")) + lines[at][cut:]


_NUMBER = re.compile(rb"(?<![^\t])-?\d+(\.\d+)?(?![^\t\n])")  # a cell that is a number


def _duplicate_key(lines: list[bytes], rng: random.Random) -> bytes:
    """A row of a table keyed by its first cell repeated below, its last cell changed (the later
    row silently won once)."""
    rows = [i for i, line in enumerate(lines[1:], 1) if line.strip()]
    if not rows:
        return b"\n".join(lines)
    at = rng.choice(rows)
    cells = lines[at].split(b"\t")
    others = [lines[i].split(b"\t")[-1] for i in rows if lines[i].split(b"\t")[-1] != cells[-1]]
    last = cells[-1]
    number = re.search(rb"\d+$", last)
    cells[-1] = (
        rng.choice(others)
        if others
        else last[: number.start()] + b"%d" % (int(number[0]) + 1)
        if number
        else last + b"x"
    )
    lines.insert(rng.randrange(at + 1, max(at + 2, len(lines))), b"\t".join(cells))
    return b"\n".join(lines)


def _sparql(how: str) -> bytes:
    text = {
        "deep parentheses": "SELECT * WHERE { ?s ?p ?o FILTER(" + "(" * 5000 + "1" + ")" * 5000 + ") }",
        "deep groups": "SELECT * WHERE " + "{ " * 3000 + "?s ?p ?o " + "} " * 3000,
        "cross product": "SELECT * WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . ?j ?k ?l . ?m ?n ?o }",
        "update": "INSERT DATA { <urn:a> <urn:b> <urn:c> }",
        "service": "SELECT * WHERE { SERVICE <http://127.0.0.1:9/sparql> { ?s ?p ?o } }",
        "junk": "SELECT ?s WHERE { ?s ?p ",
    }[how]
    return text.encode()


def _top(path: str) -> str:
    return path.split("/", 1)[0]


def _input_folders(command: Command, files: list[str]) -> list[str]:
    """The folders that hold what the command reads (relative to the case folder; "." too)."""
    found = {"."}
    for name in [*files, *(a for a in command.args if _top(a) in command.reads)]:
        parts = Path(name).parts
        found |= {"/".join(parts[:n]) for n in range(1, len(parts))}
    return sorted(found)


def _make_device(path: Path) -> bool:
    """A character device of the case's own at ``path`` (a null device: root only, and where the
    file system allows devices); False when none can be made."""
    try:
        os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
        with open(path, "wb") as device:  # (a file system mounted nodev refuses to open it)
            device.write(b"")
    except OSError:
        path.unlink(missing_ok=True)
        return False
    return True


def prepare(case: Case, base: Path, folder: Path, reads: list[str] | None = None) -> tuple[list[str], dict]:
    """The case's folder (fixtures linked, or copied where made hostile or written into) and its
    argv; ``extra`` says how to run it (stdout, file size limit, signal, twin, FIFO reader) and what
    to check (the output's path, the inputs' folders, ...)."""
    rng = random.Random(f"{case.seed}/{case.index}/prepare")
    folder.mkdir(parents=True)
    command = case.command
    extra: dict = {"tops": list(command.reads)}
    argv = list(command.args)
    out, copied = _output_and_copies(case, reads or [], rng, argv, extra)
    for name in command.reads:
        if name in copied:
            _copy(base / name, folder / name)
        else:
            os.symlink(base / name, folder / name)
    out, tab, argv = _make_hostile(case, folder, rng, argv, out, extra)
    for path in [folder, *(p for p in folder.rglob("*") if not p.is_symlink() and p.is_dir())]:
        if path.stat().st_mode & 0o777 == 0o755:
            path.chmod(0o777)  # the case's own folders, writable by nobody (not those made read-only)
    extra["out"] = out
    extra["tab"] = tab
    extra["folder"] = str(folder)
    if case.kind == "output" and case.how in _OUTPUT_NODES:
        extra["kept"] = {name: entry(folder / name) for name in (out, *KEPT) if os.path.lexists(folder / name)}
    argv = [a.replace("{out}", out).replace("{tab}", tab) for a in argv]
    if command.name in PARALLEL and case.kind != "signal" and rng.random() < 0.25:
        argv += ["--jobs", "2"]  # the documents or files in worker processes
    return argv, extra


# the -o cases whose output path is a link or a node: what it was must still be there after the run
_OUTPUT_NODES = ("link to a file", "link to a folder", "FIFO", "device", "link to a device")


def _output_and_copies(
    case: Case, reads: list[str], rng: random.Random, argv: list[str], extra: dict
) -> tuple[str, set[str]]:
    """The case's -o (an input's path, for an output onto or inside an input) and the fixtures'
    top folders copied into the case folder rather than linked (those the case changes)."""
    command = case.command
    out = command.out_name
    copied: set[str] = set()
    if case.target is not None:
        copied.add(_top(case.target))
    if case.kind == "output" and case.how in ("onto its input", "inside an input"):
        inputs = [f for f in reads if "/" in f] if case.how == "onto its input" else _input_folders(command, reads)
        out = rng.choice(inputs) if inputs else next(a for a in command.args if _top(a) in command.reads)
        copied |= set(command.reads) if out == "." else {_top(out)}
        if case.how == "inside an input" and rng.random() < 0.5:
            argv.append("--force")
            extra["force"] = True
    if case.kind in ("name", "runs"):
        copied |= set(command.reads)  # (renamed or copied: never the base's)
    return out, copied


def _make_hostile(
    case: Case, folder: Path, rng: random.Random, argv: list[str], out: str, extra: dict
) -> tuple[str, str, list[str]]:
    """The case's hostile input, output or surroundings made in its folder: (-o, --tab, argv)."""
    tab = "ci.tab"
    if case.kind in ("content", "sparql"):
        path = folder / case.target
        path.write_bytes(_sparql(case.how) if case.kind == "sparql" else _edit(case.how, path.read_bytes(), rng))
    elif case.kind == "kind":
        _make_kind(case, folder, rng, extra)
    elif case.kind == "output":
        out, tab = _make_output(case, folder, rng, out, tab, extra)
    elif case.kind == "stdout":
        extra["stdout"] = case.how
    elif case.kind == "signal":
        argv = _with_signal(case, rng, argv, extra)
    elif case.kind == "value":
        at = [i for i, a in enumerate(argv) if a == case.how]
        if at:
            argv[at[0] + 1] = case.value
        else:
            argv += [case.how, case.value]
    elif case.kind == "runs":
        _make_runs(case, folder, argv, extra)
    elif case.kind == "name" and case.value is not None:
        renamed = case.value + case.how
        (folder / case.value).rename(folder / renamed)
        argv = [renamed if a == case.value else a for a in argv]
    return out, tab, argv


def _make_kind(case: Case, folder: Path, rng: random.Random, extra: dict) -> None:
    """The case's input made a thing of another kind, or unreadable (itself, its folder or an ancestor)."""
    path = folder / case.target
    if case.how in ("folder unreadable", "ancestor unreadable"):
        extra["mode"] = 0o300 if rng.random() < 0.5 else 0o600  # no listing, or no entry (execute)
        parents = [p for p in Path(case.target).parents if p != Path(".")] or [Path(".")]
        closed = path.parent if case.how == "folder unreadable" else folder / rng.choice(parents)
        extra["named"] = closed.name
        extra["closed"] = os.path.relpath(closed, folder) if closed != folder else case.target
        closed.chmod(extra["mode"])
        return
    if case.how == "unreadable":
        path.chmod(0)
        return
    path.unlink()
    if case.how == "FIFO":
        os.mkfifo(path)
    elif case.how == "folder":
        path.mkdir()
    elif case.how in ("dangling link", "link loop", "/dev/zero"):
        os.symlink({"dangling link": "nothing-here", "link loop": path.name, "/dev/zero": "/dev/zero"}[case.how], path)


def _make_output(case: Case, folder: Path, rng: random.Random, out: str, tab: str, extra: dict) -> tuple[str, str]:
    """What the case puts at, or makes of, its -o path: (-o, --tab)."""
    if case.how == "FILE/sub":
        (folder / "afile").write_bytes(b"keep me\n")
        return "afile/sub", tab
    if case.how == "read-only folder":
        (folder / "ro").mkdir()
        (folder / "ro").chmod(0o555)
        return "ro/out", tab
    if case.how == "long name":
        return "o" * 300, tab
    if case.how == "/proc/version":
        return "/proc/version", tab  # (the system's: a file that cannot be written, which no run can replace)
    if case.how == "= --tab":
        return out, out
    if case.how in ("FIFO", "device", "link to a device"):
        _make_output_node(case.how, folder, out, extra)
    else:
        _make_at_output(case, folder, rng, out, extra)
    return out, tab


def _make_at_output(case: Case, folder: Path, rng: random.Random, out: str, extra: dict) -> None:
    """A file, link or folder put at the -o path before the run, or how the run is made (file size
    limit, twin run)."""
    if case.how == "onto a file":
        (folder / out).write_bytes(b"keep me\n")
    elif case.how == "link loop":
        os.symlink(out, folder / out)
    elif case.how == "full disk":
        extra["fsize"] = rng.choice((0, 512, 4096, 65536, 1 << 20))
    elif case.how == "not empty":  # (score ta3 and ta2 write OUT/scores: that folder holds something)
        extra["keep"] = Path(out, "scores" if case.command.output == "scores" else "", "keep.txt")
        (folder / extra["keep"]).parent.mkdir(parents=True)
        (folder / extra["keep"]).write_bytes(b"keep me\n")
    elif case.how == "twin run":
        extra["twin"] = True
    elif case.how == "link to a file":
        (folder / "kept.txt").write_bytes(b"keep me\n")
        os.symlink("kept.txt", folder / out)
    elif case.how == "link to a folder":
        (folder / "kept").mkdir()
        os.symlink("kept", folder / out)


def _make_output_node(how: str, folder: Path, out: str, extra: dict) -> None:
    """A FIFO or a device at the -o path, or a link to a device (a FIFO where no device can be made)."""
    node = folder / ("device" if how == "link to a device" else out)
    if how == "FIFO" or not _make_device(node):
        os.mkfifo(node)
        extra["reader"] = node  # a reader, as a pipe to another program has
    if how == "link to a device":
        os.symlink("device", folder / out)


def _with_signal(case: Case, rng: random.Random, argv: list[str], extra: dict) -> list[str]:
    """The signal and the moment it is sent (``extra``), and the argv: a long option set half the time."""
    command = case.command
    long = bool(command.long) and rng.random() < 0.5
    # at a moment the command still runs (the pristine run's time is known after the audit)
    extra["signal"] = (
        getattr(signal, case.how),
        rng.uniform(0.05, 2.0 if long else max(0.2, 0.9 * SECONDS.get(command.name, 2.0))),
    )
    if long:
        argv += rng.choice(command.long)
    if command.name in PARALLEL:
        argv += ["--jobs", "2"]
    return argv


def _make_runs(case: Case, folder: Path, argv: list[str], extra: dict) -> None:
    """The second run of a command that compares two: the first again, its copy, or another task's."""
    first, second = (case.command.runs[0], case.command.runs[1])
    if case.how == "same run twice":
        argv[second] = argv[first]
    elif case.how == "one folder name":  # a copy of the first run, under another folder
        argv[second] = "other/" + Path(argv[first]).name
        _copy(folder / argv[first], folder / argv[second])
        extra["tops"].append("other")
    else:  # a run of another task (TA1) beside a TA3 run
        argv[second] = "runs/T"


# --- running one command in a fork ---------------------------------------------------------------


@dataclass
class Run:
    status: int | None  # None: killed after the timeout; negative: killed by that signal
    stdout: str
    stderr: str
    seconds: float
    latency: float | None = None  # seconds from the signal to the end (None: no signal, or it had ended)


def _child(
    argv: list[str], folder: Path, log: Path, stdout: str | None, fsize: int | None, audit: list | None = None
) -> None:
    """In the fork: the command's surroundings (its stdout and stderr into ``log``), then aifcheck's entry point."""
    code = 1
    try:
        os.setsid()
        os.chdir(folder)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        _redirect(log, stdout)
        # streams on the descriptors as Python makes them at start (a test runner's capture replaced them)
        sys.stdout = open(1, "w", encoding="utf-8", closefd=False) if stdout != "closed" else None  # noqa: SIM115
        sys.stderr = open(2, "w", buffering=1, encoding="utf-8", errors="backslashreplace", closefd=False)  # noqa: SIM115
        sys.stdin = open(0, encoding="utf-8", closefd=False)  # noqa: SIM115
        resource.setrlimit(resource.RLIMIT_AS, (2 * GiB, 2 * GiB))
        if fsize is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
        if os.getuid() == 0 and audit is None:
            drop_file_powers()
        for number in (signal.SIGINT, signal.SIGTERM, signal.SIGCHLD):
            signal.signal(number, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        if audit is not None:
            sys.addaudithook(
                lambda event, args: audit.append(args[0]) if event == "open" and isinstance(args[0], str) else None
            )
        sys.argv = ["aifcheck", *argv]
        from aifcheck.cli import main

        main()
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except BaseException:  # noqa: BLE001 - what escaped the entry point: a traceback, as a user sees it
        import traceback

        traceback.print_exc()
        code = 1
    finally:
        # a signal that comes now must not take this fork back into the campaign's loop
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
        if audit is not None:
            with open(folder / ".fuzz-audit", "w", encoding="utf-8") as file:
                file.write("\n".join(sorted(set(audit))))
        with contextlib.suppress(BaseException):  # (stdout may be closed, or full)
            sys.stdout.flush()
        os._exit(code)


def _redirect(log: Path, stdout: str | None) -> None:
    """The fork's stdout and stderr into files in ``log``; stdout instead /dev/full or closed, as the case asks."""
    out = os.open(log / ".fuzz-stdout", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o666)
    err = os.open(log / ".fuzz-stderr", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o666)
    if stdout == "/dev/full":
        os.dup2(os.open("/dev/full", os.O_WRONLY), 1)
    elif stdout == "closed":
        os.close(1)
    else:
        os.dup2(out, 1)
    os.dup2(err, 2)


def drop_file_powers() -> None:
    """This process, root, made to obey files' permission bits as their owner (root) does without
    CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH and CAP_FOWNER: a chmod 000 file or folder cannot be
    read, a read-only folder cannot be written. (Becoming nobody would do as much, but a fork of
    this process keeps its interpreter's paths, which nobody may not read.)"""
    import ctypes

    class Header(ctypes.Structure):
        _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]

    class Data(ctypes.Structure):
        _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32), ("inheritable", ctypes.c_uint32)]

    libc = ctypes.CDLL(None, use_errno=True)
    header, data = Header(0x20080522, 0), (Data * 2)()  # _LINUX_CAPABILITY_VERSION_3: two 32-bit words
    if libc.capget(ctypes.byref(header), data) != 0:
        raise OSError(ctypes.get_errno(), "capget")
    keep = ~((1 << 1) | (1 << 2) | (1 << 3)) & 0xFFFFFFFF  # CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER
    data[0].effective &= keep
    data[0].permitted &= keep
    data[0].inheritable &= keep
    if libc.capset(ctypes.byref(header), data) != 0:
        raise OSError(ctypes.get_errno(), "capset")


def start(
    argv: list[str],
    folder: Path,
    stdout: str | None = None,
    fsize: int | None = None,
    audit: bool = False,
    log: Path | None = None,
) -> int:
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        try:
            _child(argv, folder, log or folder, stdout, fsize, [] if audit else None)
        finally:
            os._exit(1)  # (never reached but by a signal in _child's last lines)
    return pid


def finish(pid: int, log: Path, started: float, timeout: float, kill: tuple[int, float] | None = None) -> Run:
    """Wait for the command (sending it ``kill``'s signal after its delay: SIGINT to its process
    group, as a terminal's Ctrl-C; SIGTERM to it alone, as kill), its group killed after ``timeout``."""
    status = None
    sent = None
    while status is None:
        done, raw = os.waitpid(pid, os.WNOHANG)
        if done:
            status = os.waitstatus_to_exitcode(raw)
            break
        elapsed = time.monotonic() - started
        if kill is not None and sent is None and elapsed > kill[1]:
            if kill[0] == signal.SIGINT:
                _signal_group(pid, kill[0])
            else:
                os.kill(pid, kill[0])
            sent = time.monotonic()
        if elapsed > timeout:
            break
        time.sleep(0.01)
    ended = time.monotonic()
    _kill_group(pid)
    if status is None:
        os.waitpid(pid, 0)
    out = (
        (log / ".fuzz-stdout").read_text(encoding="utf-8", errors="replace") if (log / ".fuzz-stdout").exists() else ""
    )
    err = (
        (log / ".fuzz-stderr").read_text(encoding="utf-8", errors="replace") if (log / ".fuzz-stderr").exists() else ""
    )
    return Run(status, out, err, ended - started, None if sent is None or status is None else ended - sent)


def _signal_group(pid: int, number: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):  # (it ended, or a setuid child)
        os.killpg(pid, number)


def _kill_group(pid: int) -> None:
    _signal_group(pid, signal.SIGKILL)


def audit(base: Path, work: Path) -> dict[str, list[str]]:
    """The files each command opens on the pristine fixtures (relative to a case folder): the
    inputs a case may make hostile. Commands whose fixtures are absent are left out."""
    reads: dict[str, list[str]] = {}
    for number, command in enumerate(COMMANDS):
        if any(not (base / top).exists() for top in command.reads):  # (NIST's data absent)
            continue
        folder = work / f"audit{number}"
        prepare(Case(-1, command, "pristine", ""), base, folder)
        pid = start(command.argv(command.out_name), folder, audit=True)
        run = finish(pid, folder, time.monotonic(), 300)
        if run.status not in command.stdout_ok:
            raise RuntimeError(
                f"{command.name} fails on the pristine fixtures (exit {run.status}): {run.stderr[-2000:]}"
            )
        opened = (folder / ".fuzz-audit").read_text(encoding="utf-8").split("\n")
        found = set()
        for name in opened:
            path = Path(name) if os.path.isabs(name) else folder / name
            for top in command.reads:
                root = base / top
                try:
                    relative = path.resolve().relative_to(root.resolve())
                except ValueError:
                    continue
                if path.resolve().is_file():
                    found.add(f"{top}/{relative.as_posix()}" if relative.parts else top)
        reads[command.name] = sorted(found)
        PRISTINE[command.name] = _result(run, folder, command.out_name if command.output == "file" else None)
        SHAPES[command.name] = _shapes(folder / command.out_name)
        SECONDS[command.name] = run.seconds
        shutil.rmtree(folder, ignore_errors=True)
    return reads


PRISTINE: dict[str, tuple[str, bytes | None]] = {}  # command -> what its pristine run gives (see _result)
SECONDS: dict[str, float] = {}  # command -> its pristine run's time
SHAPES: dict[str, dict[str, frozenset[int]]] = {}  # command -> its pristine output's tab-separated files (see _shapes)


def _shapes(out: Path) -> dict[str, frozenset[int]]:
    """An output's tab-separated files and the numbers of tabs on their lines (a file: by its name)."""
    if out.is_file() and not out.is_symlink():
        return {out.name: shape} if (shape := tsv_shape(out)) is not None else {}
    return tsv_shapes(out)


def _result(run: Run, folder: Path, out: str | None) -> tuple[str, bytes | None]:
    """What a run gives its user: its stdout, and its output file."""
    try:
        data = (folder / out).read_bytes() if out is not None else None
    except OSError:
        data = None
    return _SECONDS.sub('"seconds": _', _BLANK.sub("_:b", run.stdout)), data


_BLANK = re.compile(r"_:\w+")  # a blank node's label differs from run to run
_SECONDS = re.compile(r'"seconds": [0-9.e+-]+')  # and so does the time a JSON report gives (case 4542)


# --- the oracle ----------------------------------------------------------------------------------

PROBLEMS = (  # (kind, label) in the table's order
    ("traceback", "tracebacks"),
    ("internal", "internal errors (exit 70)"),
    ("hang", "hangs"),
    ("crash", "deaths by signal"),
    ("exit code", "exit statuses outside README's table"),
    ("mistake", "answers that differ from oracle.MISTAKES (status or words)"),
    ("silent", "hostile files passed in silence (exit 0, not named)"),
    ("wrong file", "errors naming another file, or none"),
    ("no line", "errors on an edited table without its line"),
    ("message", "stderr lines unclean or over 2,000 characters"),
    ("form", "stderr lines not 'aifcheck: error|warning|note: '"),
    ("input changed", "inputs changed (bytes or type)"),
    ("outside", "written, changed or removed outside -o"),
    ("replaced", "-o's link, FIFO or device replaced"),
    ("broken output", "outputs half-written, changed by a failed run, or missing after a success"),
    ("leftover", "temporary files or locks left behind"),
    ("twin", "two runs both writing one output folder"),
    ("shape", "outputs whose tables or paths an ID or name reshaped"),
    ("slow interrupt", f"interrupted runs ending over {LATENCY:.0f} s after the signal"),
    ("wide", "summary lines over 2,000 characters"),
    ("log status", "stages whose exit status is not 1 exactly when their logs hold an error"),
)
STATUSES = {0, 1, 2, 3}
TRACEBACK = re.compile(r"Traceback \(most recent call last\)|^\w+(Error|Exception): ", re.M)
WHOLE_FILE = (
    "empty",
    "has no component",
    "no taggable type",
    "not UTF-8",
    "not a regular file",
    "cannot read",
    "holds no",
    "no such file",
    "expected a header",
    "the header",
    "not a folder",
    "no column",
    "missing",
    "a symbolic link",
    "not NIST's",
    "binary",
)
KEPT = ("kept.txt", "kept", "device")
UNREADABLE = (
    "FIFO",
    "/dev/zero",
    "dangling link",
    "link loop",
    "unreadable",
    "folder unreadable",
    "ancestor unreadable",
)  # what an -o link points to (see prepare)
ALIASES = {"-b": "--batch"}


@dataclass(frozen=True)
class Problem:
    kind: str
    case: int
    detail: str


def check(
    case: Case,
    run: Run,
    folder: Path,
    extra: dict,
    before: dict,
    twin: Run | None = None,
    jail: tuple[Path, dict] | None = None,
) -> list[Problem]:
    """What ``run`` did wrong (see the module docstring); ``before``: the inputs as prepared,
    ``jail``: the case's outer folder and what it held (-o aside) before the run."""
    if run.status is None:
        return [_problem(case, "hang", f"no end after {run.seconds:.0f} s")]
    found = _status_problems(case, run)
    lines = [line for line in run.stderr.split("\n") if line]
    for line in lines:
        if len(line) > 2000 or not line.isprintable():
            found.append(_problem(case, "message", f"{len(line)} characters: {line[:200]!r}"))
        if not FORM.match(line) and not line.startswith("aifcheck: internal error"):
            found.append(_problem(case, "form", line[:200]))
    errors = [line for line in lines if not line.startswith(("note:", "aifcheck: warning:", "aifcheck: note:"))]
    if case.target is not None and case.kind in ("content", "kind"):
        found += _input_problems(case, run, folder, extra, lines, errors)
    elif case.kind in ("output", "value", "runs", "name"):
        found += _surroundings_mistake(case, run, errors, extra)
    found += _changes(case, folder, extra, before, jail)
    found += _check_output(case, run, folder, extra)
    if run.latency is not None and run.latency > LATENCY:
        found.append(
            _problem(case, "slow interrupt", f"{case.how}: ended {run.latency:.1f} s after it (exit {run.status})")
        )
    if case.command.summary and (wide := max((len(line) for line in run.stdout.split("\n")), default=0)) > 2000:
        found.append(_problem(case, "wide", f"a stdout line of {wide:,} characters ({len(run.stdout):,} in all)"))
    if twin is not None:
        found += _twin_problems(case, run, twin)
    return found


def _problem(case: Case, kind: str, detail: str) -> Problem:
    return Problem(kind, case.index, detail[:300])


def _status_problems(case: Case, run: Run) -> list[Problem]:
    """A run killed by a signal, ended with a status no command answers with, or with a traceback."""
    found = []
    if run.status < 0:
        found.append(_problem(case, "crash", f"killed by signal {-run.status}"))
    allowed = set(STATUSES)
    if case.kind == "signal":
        allowed |= {130, 143}
    if case.kind == "stdout" and case.how == "closed":
        allowed |= {141}
    if run.status >= 0 and run.status not in allowed:
        kind = "internal" if run.status == 70 else "exit code"
        found.append(_problem(case, kind, f"exit {run.status}: {_last(run.stderr)}"))
    if TRACEBACK.search(run.stderr) or "Traceback" in run.stdout:
        found.append(_problem(case, "traceback", _last(run.stderr)))
    return found


def _input_problems(
    case: Case, run: Run, folder: Path, extra: dict, lines: list[str], errors: list[str]
) -> list[Problem]:
    """A hostile input (its content or its kind) lost in silence, blamed on another file, refused
    without its line, or answered otherwise than validate answers it."""
    found = []
    names = {Path(case.target).name, Path(case.target).parent.name, extra.get("named", "")} - {""}
    named = [line for line in lines if any(name in line for name in names)]
    # a loss shows in what the user gets: the pristine run's stdout and output, or others
    same = PRISTINE.get(case.command.name) == _result(
        run, folder, extra["out"] if case.command.output == "file" else None
    )
    # what a walk does not meet (a file gone) or meets empty (a folder of the file's name) is no loss
    unmet = case.how in ("missing", "folder") and case.target not in case.command.args
    if case.kind == "kind" and run.status == 0 and not named and not same and not unmet:
        found.append(
            _problem(
                case,
                "silent",
                f"{case.how} {case.target}: exit 0, no line names it, and the result differs from the pristine run's",
            )
        )
    if run.status == 3 and errors and not any(any(n in line for n in names) for line in errors):
        found.append(_problem(case, "wrong file", f"{case.target}: {errors[0][:200]}"))
    if case.kind == "content" and run.status == 3 and case.target.endswith((".tsv", ".tab", ".txt")):
        found += [_problem(case, "no line", line[:200]) for line in errors if _unlocated(case.target, line)]
    # (by its path: its name alone may be another file's, or its folder's a document's)
    said = [line for line in run.stdout.split("\n") + lines if extra.get("closed", case.target) in line]
    return found + _input_mistake(case, run, said, same)


def _unlocated(target: str, line: str) -> bool:
    """Whether an error on the table ``target`` names it without a line, where the error is not of the whole file."""
    mentioned = re.match(r"(?:aifcheck: error: )?\S*" + re.escape(Path(target).name) + r"(:\d+)?: ", line)
    return bool(mentioned) and not mentioned[1] and not any(w in line for w in WHOLE_FILE)


def _changes(case: Case, folder: Path, extra: dict, before: dict, jail: tuple[Path, dict] | None) -> list[Problem]:
    """An input changed, a path outside the case's output changed, or what was at -o replaced."""
    found = []
    after = _snapshot(folder, extra["tops"])
    changed = [name for name, data in before.items() if after.get(name) != data]
    if changed:
        found.append(
            _problem(
                case,
                "input changed",
                f"{len(changed)} inputs, {changed[0]}: {before[changed[0]][0]} -> {after.get(changed[0], ('gone',))[0]}"
                + (" (the output replaced an input)" if case.kind == "output" else ""),
            )
        )
    if jail is not None:
        root, held = jail
        now = tree(root, _not_watched(root, folder, extra))
        moved = sorted(
            n
            for n in set(held) | set(now)
            if held.get(n) != now.get(n) and not (n in held and os.path.relpath(root / n, folder) in before)
        )
        if moved:
            was, is_now = held.get(moved[0], ("new",))[0], now.get(moved[0], ("gone",))[0]
            found.append(_problem(case, "outside", f"{len(moved)} paths, {moved[0]!r}: {was} -> {is_now}"))
    for name, kind in extra.get("kept", {}).items():
        if entry(folder / name)[0] != kind[0]:
            found.append(_problem(case, "replaced", f"{name}: {kind[0]} -> {entry(folder / name)[0]}"))
    return found


def _twin_problems(case: Case, run: Run, twin: Run) -> list[Problem]:
    """Two runs at once on one output folder that both succeeded, or a twin that hung or crashed."""
    found = []
    # (score ta3 replaces OUT/scores whole: both may)
    if twin.status == 0 and run.status == 0 and case.command.output == "folder":
        found.append(_problem(case, "twin", "both runs exited 0 on one output folder"))
    if twin.status is None or (twin.status is not None and twin.status < 0) or TRACEBACK.search(twin.stderr):
        kind = "traceback" if twin.status else "hang"
        found.append(_problem(case, kind, f"the twin run: exit {twin.status}: {_last(twin.stderr)}"))
    return found


def _not_watched(root: Path, folder: Path, extra: dict) -> list[Path]:
    """What the jail's snapshot leaves out: the logs, the twin's, -o (and what an -o link points to)."""
    return [
        root / ".fuzz-stdout",
        root / ".fuzz-stderr",
        root / ".twin",
        folder / extra["out"],
        folder / extra["tab"],
        *(folder / k for k in KEPT),
    ]


def expectation(case: Case) -> str | None:
    """The class of mistake (a key of MISTAKES) whose answer the case is held to, if any."""
    if case.kind in ("kind", "content"):
        return case.how if case.how in MISTAKES else None
    if case.kind == "value":
        return "option value"
    if case.kind == "runs":  # (a run beside itself, or beside its copy, is a comparison)
        return None if case.command.name == "score compare" and case.how != "other task" else case.how
    if case.kind == "output" and not (
        (case.command.output == "file" and case.how in ("onto a file", "/proc/version"))
        or (case.command.output == "scores" and case.how == "inside an input")
    ):
        # (-o FILE of a file: written over, as asked; OUT of score ta2 and ta3: OUT/scores written, beside the inputs)
        return "-o " + case.how if "-o " + case.how in MISTAKES else None
    return None


def _input_mistake(case: Case, run: Run, said: list[str], same: bool) -> list[Problem]:
    """A hostile input answered otherwise than MISTAKES says (validate's answer): a refusal with
    another status or words; a file of NULs, a repeated key, a byte that is not UTF-8 taken in
    silence; a BOM refused."""
    mistake = expectation(case)
    if mistake is None or run.status not in STATUSES:
        return []
    expect = expected(case.command.name, mistake)
    refused = run.status >= 2
    where = f"{case.how} {case.target}"
    if case.how == "BOM":
        return (
            []
            if run.status in case.command.stdout_ok
            else [
                Problem(
                    "mistake",
                    case.index,
                    f"{where}: exit {run.status} (validate reads a BOM as nothing): {_last(run.stderr)}",
                )
            ]
        )
    if not refused:
        return _taken_mistake(case, run, said, same, expect)
    if not said:
        return []  # (wrong file)
    found = []
    if run.status != expect.status:
        found.append(
            Problem(
                "mistake", case.index, f"{where}: exit {run.status}, validate's is {expect.status}: {said[0][:200]}"
            )
        )
    if expect.words and not any(re.search(expect.words, line) for line in said):
        found.append(
            Problem("mistake", case.index, f"{where}: not validate's words ({expect.words!r}): {said[0][:200]}")
        )
    name = re.escape(Path(case.target).name)
    if expect.line and not any(re.search(name + r":\d+", line) for line in said):
        found.append(Problem("mistake", case.index, f"{where}: no line number: {said[0][:200]}"))
    return found


def _taken_mistake(case: Case, run: Run, said: list[str], same: bool, expect: Expect) -> list[Problem]:
    """A hostile input that the run took (exit 0 or 1) where validate refuses it."""
    where = f"{case.how} {case.target}"
    if case.how in ("folder unreadable", "ancestor unreadable"):
        # (its files may be opened by name: only a line on reading it counts)
        said = [line for line in said if re.search("denied|cannot read|not readable|unreadable", line)]
    if case.how in UNREADABLE and said:  # (validate counts such a file unreadable: exit 3)
        detail = f"{where}: named, and exit {run.status}, validate's is {expect.status}: {said[0][:200]}"
        return [Problem("mistake", case.index, detail)]
    if case.how == "duplicate key":  # (a warning is no answer: which row counts is the user's to say)
        detail = f"{where}: exit {run.status}, validate's is {expect.status}" + (
            f": {said[0][:200]}" if said else ", nothing said of it"
        )
        return [Problem("mistake", case.index, detail)]
    taken = case.how in ("NUL bytes", "not UTF-8") and not said and not same
    return [Problem("mistake", case.index, f"{where}: exit {run.status}, nothing said of it")] if taken else []


def _surroundings_mistake(case: Case, run: Run, errors: list[str], extra: dict) -> list[Problem]:
    """An output, option value, pair of runs or folder name answered otherwise than MISTAKES says."""
    where = f"{case.how}" + (f" {case.value!r}"[:80] if case.value is not None else "")
    if case.kind == "name":
        return _name_mistake(case, run, extra)
    if case.kind == "output" and case.how == "/proc/version" and any("No such file" in line for line in errors):
        return [Problem("mistake", case.index, f"-o /proc/version: says there is no such file: {errors[0][:200]}")]
    mistake = expectation(case)
    if mistake is None or run.status not in STATUSES:
        return _shape(case, run, extra) if case.how in IDENTIFIERS else []
    expect = expected(case.command.name, mistake)
    found = []
    if case.how == "inside an input" and not extra.get("force"):
        expect = Expect(
            expect.status, "input|not empty"
        )  # (refused as an input's, or as any folder that holds something)
    if case.kind == "value" and case.value.endswith(HUGE) and run.status == 0:
        pass  # (taken as "all")
    elif run.status != expect.status:
        found.append(
            Problem("mistake", case.index, f"{where}: exit {run.status}, expected {expect.status}: {_last(run.stderr)}")
        )
    elif case.kind == "value":
        option = case.how
        if not any(option in line or ALIASES.get(option, option) in line for line in errors):
            found.append(
                Problem("mistake", case.index, f"{where}: the error does not name {option}: {_last(run.stderr)}")
            )
    elif expect.words and not any(re.search(expect.words, line) for line in errors):
        found.append(Problem("mistake", case.index, f"{where}: not the words {expect.words!r}: {_last(run.stderr)}"))
    return found + (_shape(case, run, extra) if case.how in IDENTIFIERS else [])


def _name_mistake(case: Case, run: Run, extra: dict) -> list[Problem]:
    """A current folder with a hostile name refused, or a run folder's hostile name in the output's paths."""
    if case.value is None and run.status not in case.command.stdout_ok:
        detail = f"current folder named with {case.how!r}: exit {run.status}: {_last(run.stderr)}"
        return [Problem("mistake", case.index, detail)]
    return _shape(case, run, extra)


_HOSTILE_NAME = re.compile(r"[\t\n\udcff]|(^|/)\.\.(/|$)")


def _shape(case: Case, run: Run, extra: dict) -> list[Problem]:
    """After a success on a hostile ID or name: the output's tables of the pristine run's shape,
    and no path in it that the ID or name made (a folder of its own, a tab, a newline)."""
    if run.status not in (0, 1) or case.command.output is None:
        return []
    out = Path(extra["folder"]) / extra["out"]
    pristine = SHAPES.get(case.command.name, {})
    folders = {str(Path(name).parent) for name in pristine}
    found = []
    for name, shape in _shapes(out).items():
        if _HOSTILE_NAME.search(name) or (name not in pristine and str(Path(name).parent) not in folders):
            found.append(Problem("shape", case.index, f"{case.how!r} {case.value!r}: wrote {name!r}"))
        elif name in pristine and not shape <= pristine[name] | {0}:
            found.append(
                Problem(
                    "shape",
                    case.index,
                    f"{case.how!r} {case.value!r}: {name} has lines of {sorted(shape)} tabs, "
                    f"the pristine run's {sorted(pristine[name])}",
                )
            )
    return found[:1]


# the -o cases whose output is not the command's usual one, checked by _kept_problems alone
_SPECIAL_OUTPUTS = (
    "onto a file",
    "FILE/sub",
    "onto its input",
    "not empty",
    "link loop",
    "inside an input",
    "link to a file",
    "FIFO",
    "device",
    "link to a device",
    "/proc/version",
    "link to a folder",
)


def _kept_problems(case: Case, folder: Path, extra: dict) -> list[Problem]:
    """The file a case put where the output goes (or in its way) changed, where it was not to be written over."""
    kind = case.command.output
    if (
        case.kind == "output"
        and case.how in ("onto a file", "FILE/sub", "not empty", "link to a file")
        and not (kind == "file" and case.how in ("onto a file", "link to a file"))
    ):
        keep = {
            "onto a file": folder / extra["out"],
            "FILE/sub": folder / "afile",
            "link to a file": folder / "kept.txt",
        }.get(case.how) or folder / extra["keep"]
        if not keep.is_file() or keep.read_bytes() != b"keep me\n":
            return [Problem("broken output", case.index, f"{keep.name} changed")]
    return []


def _check_output(case: Case, run: Run, folder: Path, extra: dict) -> list[Problem]:
    found = []
    out = folder / extra["out"]
    kind = case.command.output
    left = [p.name for p in folder.rglob("*") if ".partial" in p.name or p.name.endswith(".lock")]
    if left:
        found.append(Problem("leftover", case.index, ", ".join(left[:3])))
    if kind is None or (case.kind == "output" and case.how in _SPECIAL_OUTPUTS):
        return found + _kept_problems(case, folder, extra)
    ok = run.status in (0, 1) and run.status is not None
    target = out / "scores" if kind == "scores" else out
    try:
        exists = target.exists()
    except OSError:
        exists = False
    if ok and not exists and not (kind == "layout" and "no RDF file" in run.stderr):
        found.append(Problem("broken output", case.index, f"exit {run.status} and no {target.name}"))
    if ok and kind == "folder" and exists and not (target / case.command.marker).exists():
        found.append(Problem("broken output", case.index, f"exit 0 or 1 and no {case.command.marker}"))
    # (written whole, then stdout failed; or NIST's driver stops early, and aifcheck writes what it writes then)
    stopped = run.status == 3 and "FatalError Yes" in run.stderr and (target / "results.json").is_file()
    whole = kind in ("folder", "scores") or case.command.name == "query --nist-layout"
    if not ok and exists and whole and run.status != 2 and case.kind != "stdout" and not stopped:
        found.append(Problem("broken output", case.index, f"exit {run.status} and {target.name} written"))
    if ok and exists and case.command.logs:
        logged = any(
            " - ERROR - " in log.read_text(encoding="utf-8", errors="replace")
            for log in (target / "logs").glob("*.log")
        )
        if logged != (run.status == 1):
            found.append(
                Problem(
                    "log status", case.index, f"exit {run.status}, and the logs {'hold' if logged else 'hold no'} error"
                )
            )
    return found


def _snapshot(folder: Path, tops: Iterable[str]) -> dict[str, tuple[str, str | None]]:
    """The inputs: each path's type and bytes (see oracle.entry), by its path in the case folder."""
    found = {}
    for top in tops:
        for name, what in tree(folder / top).items():
            found[os.path.normpath(f"{top}/{name}")] = what
    return found


def _last(text: str) -> str:
    return next((line.strip() for line in reversed(text.splitlines()) if line.strip()), "")[:300]


# --- the campaign ----------------------------------------------------------------------------


@dataclass
class Outcome:
    problems: list[Problem] = field(default_factory=list)
    runs: int = 0
    by_command: Counter = field(default_factory=Counter)
    by_status: Counter = field(default_factory=Counter)
    seconds: float = 0.0
    slowest: tuple[float, int] = (0.0, -1)
    recipes: dict[int, str] = field(default_factory=dict)  # the cases with a problem: how each was made
    answers: dict[tuple[str, str], Counter] = field(
        default_factory=lambda: defaultdict(Counter)
    )  # (mistake, command) -> statuses

    def count(self, kind: str) -> int:
        return sum(p.kind == kind for p in self.problems)

    def add(self, one: Case, run: Run, problems: list[Problem]) -> None:
        """One case's run and its problems counted."""
        self.problems += problems
        if problems:
            self.recipes[one.index] = one.describe()
        self.runs += 1
        self.by_command[one.command.name] += 1
        self.by_status[run.status] += 1
        if (mistake := expectation(one)) is not None:
            self.answers[(mistake, one.command.name)][run.status] += 1
        self.slowest = max(self.slowest, (run.seconds, one.index))


def _release(folder: Path) -> None:
    """Permissions back, so that the folder can be removed."""
    for path in [folder, *folder.rglob("*")] if folder.exists() else []:
        try:
            if not path.is_symlink():
                path.chmod(0o777 if path.is_dir() else 0o666)
        except OSError:
            pass
    shutil.rmtree(folder, ignore_errors=True)


def campaign(
    seed: int = SEED,
    cases: int = 200,
    first: int = 0,
    jobs: int = 2,
    timeout: float = TIMEOUT,
    keep: bool = False,
    report: Callable[[int, int], None] | None = None,
    only: str | None = None,
) -> Outcome:
    """Cases ``first`` to ``first + cases - 1`` of ``seed`` (``only``: those whose recipe says it)."""
    started = time.monotonic()
    _warm()
    work = Path(tempfile.mkdtemp(prefix="aifcheck-fuzz-commands-"))
    work.chmod(0o755)
    outcome = Outcome()
    try:
        base = work / "base"
        base.mkdir()
        make_base(base)
        base.chmod(0o755)
        reads = audit(base, work)
        pending = [i for i in range(first, first + cases) if only is None or only in case(seed, i, reads).describe()]
        cases = len(pending)
        running: dict[int, tuple] = {}  # pid -> (case, folder, extra, started, before, twin pid, jail)
        done = 0
        while pending or running:
            while pending and len(running) < jobs:
                one = case(seed, pending.pop(0), reads)
                pid, started_case = _start_case(one, base, work, reads[one.command.name])
                running[pid] = started_case
            for pid in _poll(running, timeout):
                one, folder, extra, began, before, twin, (jail, held) = running.pop(pid)
                limit = min(timeout, one.command.timeout)
                run = finish(pid, jail, began, limit, extra.get("signal"))
                twin_run = finish(twin, jail / ".twin", began, limit) if twin else None
                if "reader" in extra:
                    extra["reader"].kill()
                    extra["reader"].wait()
                problems = check(one, run, folder, extra, before, twin_run, (jail, held))
                outcome.add(one, run, problems)
                if not keep or not problems:
                    _release(jail)
                done += 1
                if report is not None:
                    report(done, cases)
    finally:
        if not keep:
            _release(work)
    outcome.seconds = time.monotonic() - started
    outcome.work = work  # type: ignore[attr-defined]
    return outcome


def _start_case(one: Case, base: Path, work: Path, reads: list[str]) -> tuple[int, tuple]:
    """The case's folder prepared and its command started (its twin too): the command's pid, and
    (case, folder, extra, started, inputs before, twin pid, (jail, what the jail held))."""
    jail = work / f"case{one.index:05d}"
    # the working folder, below the jail (named with the case's bytes when that is the case)
    folder = jail.joinpath(*JAIL, "cwd" + (one.how if one.kind == "name" and one.value is None else ""))
    argv, extra = prepare(one, base, folder, reads)
    before = _snapshot(folder, extra["tops"])
    held = tree(jail, _not_watched(jail, folder, extra))
    if "reader" in extra:  # a program reading the FIFO -o names
        extra["reader"] = subprocess.Popen(
            ["cat", extra["reader"]], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
    pid = start(argv, folder, extra.get("stdout"), extra.get("fsize"), log=jail)
    twin = None
    if extra.get("twin"):  # the same command at the same time in the same folder, its logs beside
        (jail / ".twin").mkdir()
        (jail / ".twin").chmod(0o777)
        twin = start(argv, folder, log=jail / ".twin")
    return pid, (one, folder, extra, time.monotonic(), before, twin, (jail, held))


def _poll(running: dict[int, tuple], timeout: float) -> list[int]:
    """The commands that ended, or ran past the timeout (or their signal's moment: finish sends it)."""
    while True:
        ready = []
        for pid, (one, _folder, extra, began, *_rest) in running.items():
            elapsed = time.monotonic() - began
            ended = (
                os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
            )  # (left to finish to reap)
            if (
                ended
                or elapsed > min(timeout, one.command.timeout)
                or ("signal" in extra and elapsed > extra["signal"][1])
            ):
                ready.append(pid)
        if ready:
            return ready
        time.sleep(0.01)


def _warm() -> None:
    """What every command imports, imported once here (each fork then starts with it)."""
    import aifcheck.cli  # noqa: F401
    from aifcheck.cli import application

    application()  # every command's module
    for module in (
        "aifcheck.score.ta1",
        "aifcheck.score.ta3.scorer",
        "aifcheck.score.crux.claims",
        "aifcheck.score.crux.relations",
        "aifcheck.render.ta1.scores",
        "aifcheck.render.ta3.scores",
        "aifcheck.render.crux.scores",
        "aifcheck.render.graph",
        "aifcheck.render.claims",
        "aifcheck.extract.claims",
        "aifcheck.extract.summary",
        "aifcheck.pipeline.shared.sparql",
        "aifcheck.render.tables",
        "aifcheck.validation.run",
        "aifcheck.validation.submission",
    ):
        __import__(module)
    from aifcheck.validation.shapes import load_catalog

    load_catalog()


def table(outcome: Outcome, seed: int, cases: int, jobs: int) -> str:
    lines = [
        f"aifcheck command fuzzing: seed {seed}, {cases} cases, {jobs} at a time, {outcome.seconds:.0f} s",
        "cases by command: " + ", ".join(f"{name} {n}" for name, n in sorted(outcome.by_command.items())),
        "exit statuses: "
        + ", ".join(
            f"{status} x{n}" for status, n in sorted(outcome.by_status.items(), key=lambda i: (i[0] is None, i[0] or 0))
        ),
        f"slowest case: {outcome.slowest[1]} ({outcome.slowest[0]:.1f} s)",
        "",
    ]
    width = max(len(label) for _, label in PROBLEMS)
    for kind, label in PROBLEMS:
        lines.append(f"  {label:<{width}}  {outcome.count(kind)}")
    lines += ["", "exit statuses by class of mistake (oracle.MISTAKES) and command:"]
    for mistake in sorted({m for m, _ in outcome.answers}):
        expect = MISTAKES[mistake].status
        seen = ", ".join(
            f"{name} {'/'.join(str(s) for s in sorted(statuses, key=lambda s: (s is None, s or 0)))}"
            for (m, name), statuses in sorted(outcome.answers.items())
            if m == mistake
        )
        lines.append(f"  {mistake} (expected {expect}): {seen}")
    if outcome.problems:
        lines.append("")
        for problem in outcome.problems[:60]:
            lines.append(f"  case {problem.case}: {problem.kind}: {problem.detail}")
        recipes = [f"  {outcome.recipes[i]}" for i in sorted(outcome.recipes)]
        lines += ["", "how those cases were made:", *recipes[:60]]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--cases", type=int, default=200)
    parser.add_argument("--start", type=int, default=0, help="the first case's index")
    parser.add_argument("--case", type=int, help="run this one case (its folder kept with --keep)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=TIMEOUT)
    parser.add_argument("--keep", action="store_true", help="keep the folders of cases with a problem (and say where)")
    parser.add_argument("--only", help="run only the cases whose recipe holds this text (e.g. 'twin run')")
    parser.add_argument("--problems", type=Path, help="write every problem found to this file, one JSON object a line")
    options = parser.parse_args()
    first, count = (options.case, 1) if options.case is not None else (options.start, options.cases)

    def progress(done: int, total: int) -> None:
        if done % 100 == 0 or done == total:
            print(f"  {done}/{total} cases", file=sys.stderr, flush=True)

    outcome = campaign(options.seed, count, first, options.jobs, options.timeout, options.keep, progress, options.only)
    print(table(outcome, options.seed, outcome.runs, options.jobs))
    if options.problems is not None:
        with open(options.problems, "w", encoding="utf-8") as out:
            out.writelines(
                json.dumps(
                    {"case": p.case, "kind": p.kind, "detail": p.detail, "recipe": outcome.recipes[p.case]},
                    ensure_ascii=False,
                )
                + "\n"
                for p in outcome.problems
            )
    if options.keep:
        print(f"folders of the cases with a problem: {outcome.work}")  # type: ignore[attr-defined]
    return 1 if outcome.problems else 0


if __name__ == "__main__":
    sys.exit(main())
