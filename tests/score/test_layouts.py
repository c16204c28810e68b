"""The scorers on the folders NIST's dockers read and write (issue 42 §4: each accepts every layout,
or says in one line which folder to give), and ``score ta1`` on a run that lacks a core document,
through the installed command."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import ROOT, SHARED_DATA, TYPE_TABLES
from ta1_example import EXAMPLE

GOLD = SHARED_DATA / "ta1-gold-tsv"
AUX = SHARED_DATA / "ta1-scoring" / "AUX-data"
MISSING = Path(__file__).parent / "fixtures" / "ta1" / "missing_document"
OURS = ROOT / "example-evaluation"
need_example = pytest.mark.skipif(not EXAMPLE.is_dir(), reason="NIST's example TA1 run (../shared/data/m54) is absent")


def aifcheck(*args: object) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "aifcheck", *map(str, args)], capture_output=True, text=True, timeout=600
    )


def score(run: Path, gold: Path, out: Path, *options: str) -> subprocess.CompletedProcess:
    return aifcheck("score", "ta1", run, "--gold", gold, "--aux", AUX, "-o", out, *TYPE_TABLES, *options)


@need_example
def test_nist_s_docker_output_and_gold_folders_are_read(tmp_path: Path) -> None:
    """RUN: NIST's docker output for its example run (SPARQL-output/ and the later stages' folders,
    results.json); --gold: a folder holding SPARQL-VALID-output/, as the docker's /data/gold. The
    scores are NIST's, byte for byte, and two notes say which folders were read."""
    gold = tmp_path / "gold"
    gold.mkdir()
    (gold / "SPARQL-VALID-output").symlink_to(GOLD)
    done = score(EXAMPLE, gold, tmp_path / "out", "--run-id", "example-task1-run")
    assert done.returncode == 0, done.stderr
    assert json.loads((tmp_path / "out" / "results.json").read_text()) == json.loads(
        (EXAMPLE / "results.json").read_text()
    )
    notes = [line for line in done.stderr.splitlines() if "is NIST's" in line]
    assert notes == [
        f"aifcheck: note: {EXAMPLE} is NIST's docker output: its SPARQL-output/ is scored",
        f"aifcheck: note: --gold {gold} is NIST's gold folder: its SPARQL-VALID-output/ is read",
    ]


@need_example
def test_a_later_stage_s_folder_is_scored_as_nist_s_stages_take_it(tmp_path: Path) -> None:
    """NIST's example run's SPARQL-FILTERED-output as RUN: a folder in the SPARQL-output layout, whose
    tables NIST's stages clean, validate, filter and score again. NIST's code gives the example run's
    results.json for it (its stages run offline: ``/work/oracle/.venv/bin/python
    /work/oracle/run_nist_stages.py ta1 .../example-task1-run/SPARQL-FILTERED-output OUT --run-id
    example-task1-run``), and so does aifcheck, with a note naming the folder that gives the docker's
    scores."""
    later = EXAMPLE / "SPARQL-FILTERED-output"
    done = score(later, GOLD, tmp_path / "out", "--run-id", "example-task1-run")
    assert done.returncode == 0, done.stderr
    assert json.loads((tmp_path / "out" / "results.json").read_text()) == json.loads(
        (EXAMPLE / "results.json").read_text()
    )
    assert (
        f"aifcheck: note: {later} is NIST's SPARQL-FILTERED-output: its tables go through NIST's stages again"
        in done.stderr
    )


@need_example
def test_a_missing_core_document_is_one_warning_and_nist_s_numbers(tmp_path: Path) -> None:
    """NIST's example run without L0C0499MZ: results.json is NIST's (fixtures/ta1/missing_document,
    made by NIST's stages run offline: its README has the command). FrameMetric is then the one
    document's value, CoreferenceMetric half of what both documents give: one warning says which
    metric does what."""
    run = tmp_path / "run"
    shutil.copytree(EXAMPLE / "SPARQL-output", run)
    shutil.rmtree(run / "L0C0499MZ.ttl")
    done = score(run, GOLD, tmp_path / "out", "--run-id", "example")
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "out" / "results.json").read_bytes() == (MISSING / "results.json").read_bytes()
    whole = json.loads((EXAMPLE / "results.json").read_text())["scores"][0]
    lacking = json.loads((MISSING / "results.json").read_text())["scores"][0]
    assert (whole["FrameMetric_S"], lacking["FrameMetric_S"]) == ("0.3488", "0.2495")
    assert (whole["CoreferenceMetric_F1"], lacking["CoreferenceMetric_F1"]) == ("0.0453", "0.0227")
    warnings = [line for line in done.stderr.splitlines() if "core document" in line]
    assert warnings == [
        "aifcheck: warning: the run lacks 42 of 43 core document(s) (L0C0492VC, L0C049382, L0C0496GC, ...): "
        "CoreferenceMetric, NegationMetricV2 and the ArgumentMetricV3 variants count each as 0 where its gold has "
        "rows; FrameMetric, TemporalMetric, NegationMetricV1, TypeMetricV4 average over the 1 document(s) scored "
        "only, as NIST's scorer does"
    ]


def test_ta2_and_ta3_name_the_run_for_a_stage_s_folder(tmp_path: Path) -> None:
    """score ta2 and ta3 read a run as submitted or as NIST's docker output; given one of the
    docker's stage folders, they name the run to give (the example evaluation's first runs)."""
    ta2, ta3 = OURS / "ta2", OURS / "ta3"
    stages2, stages3 = tmp_path / "ta2" / "run1", tmp_path / "ta3" / "run1"
    made = aifcheck(
        "pipeline", "ta2", ta2 / "run1", "--queries", ta2 / "queries.tsv", "--aux", ta2 / "AUX-data", "-o", stages2
    )
    assert made.returncode == 0, made.stderr
    made = aifcheck(
        "pipeline",
        "ta3",
        ta3 / "run1",
        "--user-queries",
        ta3 / "user-queries",
        "--aux",
        ta3 / "AUX-data",
        "-o",
        stages3,
    )
    assert made.returncode == 0, made.stderr
    for stage in ("SPARQL-CLEAN-output", "SPARQL-VALID-output"):
        done = aifcheck(
            "score",
            "ta2",
            stages2 / stage,
            "--queries-to-score",
            ta2 / "queries.tsv",
            "--assessments",
            ta2 / "LDC",
            "--aux",
            ta2 / "AUX-data",
            "-o",
            tmp_path / "out2",
        )
        assert done.returncode == 2 and done.stderr.splitlines() == [
            f"aifcheck: error: {stages2 / stage}: a stage's folder of NIST's docker output: give the run, {stages2}"
        ]
    (tmp_path / "none.tab").write_text("", encoding="utf-8")  # a file: the inputs are there, the run is not
    for stage in ("ARF-output", "SPARQL-AUGMENTED-output"):
        done = aifcheck(
            "score",
            "ta3",
            stages3 / stage,
            "--queries-to-score",
            ta3 / "queries.tab",
            "--claim-mappings",
            tmp_path / "none.tab",
            "--assessments",
            ta3 / "LDC",
            "-o",
            tmp_path / "out3",
        )
        assert done.returncode == 2 and done.stderr.splitlines() == [
            f"aifcheck: error: {stages3 / stage}: a stage's folder of NIST's docker output: give the run, {stages3}"
        ]
    assert not (tmp_path / "out2").exists() and not (tmp_path / "out3").exists()
