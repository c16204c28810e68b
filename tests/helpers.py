"""Paths, and command lines, shared by the tests."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "aifcheck" / "rule_fixtures"  # the rules' bad and good files, shipped with the package
TEST_DATA = ROOT / "tests" / "data"  # the tests' own inputs
SHARED = ROOT.parent / "shared"
SHARED_DATA = SHARED / "data" / "m54"
# NIST's TA1 type tables (its cache of the KGTK similarity service, reconstructed, and a stand-in for
# the tagset's types): inputs of NIST's evaluation, which the package does not ship
TYPE_SIMILARITY = SHARED_DATA / "ta1-scoring" / "similarity.tsv"
TAGGABLE_TYPES = SHARED_DATA / "ta1-scoring" / "taggable_types.txt"
TYPE_TABLES = ("--type-similarity", str(TYPE_SIMILARITY), "--taggable-types", str(TAGGABLE_TYPES))
TYPE_TABLE_FILES = {"type_similarity": TYPE_SIMILARITY, "taggable_types": TAGGABLE_TYPES}  # score_ta1's
# the example evaluation's invented stand-ins for them
EXAMPLE_TA1 = ROOT / "example-evaluation" / "ta1"
EXAMPLE_TYPE_TABLE_FILES = {
    "type_similarity": EXAMPLE_TA1 / "type-similarity.tsv",
    "taggable_types": EXAMPLE_TA1 / "taggable-types.txt",
}
EXAMPLE_TYPE_TABLES = tuple(
    str(item) for name, path in EXAMPLE_TYPE_TABLE_FILES.items() for item in (f"--{name.replace('_', '-')}", path)
)
AUX_DATA = SHARED_DATA / "ta1-scoring" / "AUX-data"  # NIST's AUX-data folder
TA1_EXAMPLE = SHARED_DATA / "ta1-scoring" / "example-task1-run"  # NIST's example TA1 run
TA3_RUN = SHARED_DATA / "task3-run"  # NIST's example task3 run
USER_QUERIES = SHARED_DATA / "user-queries"  # and its user queries
NEEDS_TA3_RUN = pytest.mark.skipif(
    not TA3_RUN.is_dir(), reason="NIST's example task3 run (../shared/data/m54) is absent"
)
# score ta3 on the TA3 fixture's T1 (tests/score/fixtures/ta3/T1) copied to ta3/ in the current
# folder: every argument but its output
SCORE_TA3 = (
    "score",
    "ta3",
    "ta3/RUN1",
    "--queries-to-score",
    "ta3/queries_to_score.tab",
    "--claim-mappings",
    "ta3/claim-mappings.tab",
    "--assessments",
    "ta3/LDC",
)
# score ta1 on NIST's example run (its SPARQL output) with NIST's gold, AUX data and type tables: every argument
# but its output and options
SCORE_TA1_EXAMPLE = (
    "score",
    "ta1",
    TA1_EXAMPLE / "SPARQL-output",
    "--gold",
    SHARED_DATA / "ta1-gold-tsv",
    "--aux",
    AUX_DATA,
    *TYPE_TABLES,
)
# score ta2 on the TA2 fixture's W1 (tests/score/fixtures/ta2/W1) copied to ta2w/, NIST's AUX data
# to aux/, in the current folder: every argument but its output
SCORE_TA2W = (
    "score",
    "ta2",
    "ta2w/runW",
    "--queries-to-score",
    "ta2w/queries_to_score.tab",
    "--assessments",
    "ta2w/LDC",
    "--aux",
    "aux",
)
QUERY_CLAIM_FRAMES = ("CLL0C04979A.000004", "CLL0C04C08B.000004")  # two of the user queries' Condition 5 frames


def installed(*args: object, cwd: Path | None = None, timeout: float = 300, **kwargs) -> subprocess.CompletedProcess:
    """aifcheck run as the installed command runs (``python -m aifcheck``), its output captured as text."""
    return subprocess.run(
        [sys.executable, "-m", "aifcheck", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=cwd,
        **kwargs,
    )


def write_pool_runs(runs: Path) -> None:
    """``runs/system`` (NIST's example task3 run) and ``runs/query_claim_frames`` (the frames of
    QUERY_CLAIM_FRAMES, each ranked first and related) through NIST's TA3 stages, as pool ta3 reads them."""
    from aifcheck.pipeline.ta3.run import pipeline_ta3
    from aifcheck.render.ta3.pipeline import write_pipeline

    frames = runs.parent / "qcf"
    for query in QUERY_CLAIM_FRAMES:
        folder = frames / "Condition5" / query
        folder.mkdir(parents=True)
        shutil.copy(USER_QUERIES / "Condition5" / "Query_Claim_Frames" / f"{query}.ttl", folder)
        (folder / f"{query}.ranking.tsv").write_text(f"{query}\t{query}\t1\trelated\n", encoding="utf-8")
    for source, run_id in ((TA3_RUN, "system"), (frames, "query_claim_frames")):
        write_pipeline(pipeline_ta3(source, USER_QUERIES, AUX_DATA), runs / run_id)
    shutil.rmtree(frames)
