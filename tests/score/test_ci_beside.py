"""``score ta1|ta3 --ci``: the intervals of the headline metrics written beside the scores, as
``score ci`` computes them from those score files."""

from __future__ import annotations

import subprocess
from pathlib import Path

from helpers import SCORE_TA1_EXAMPLE
from helpers import TA1_EXAMPLE as EXAMPLE

T3 = Path(__file__).parent / "fixtures" / "ta3" / "T3"


def _run(*args: object) -> subprocess.CompletedProcess:
    return subprocess.run(["aifcheck", *map(str, args)], capture_output=True, text=True, check=False)


def test_score_ta3_ci_writes_each_metric_s_intervals_as_score_ci_does(tmp_path: Path) -> None:
    out = tmp_path / "out"
    proc = _run(
        "score",
        "ta3",
        T3 / "RUN1",
        "--queries-to-score",
        T3 / "queries_to_score.tab",
        "--claim-mappings",
        T3 / "claim-mappings.tab",
        "--assessments",
        T3 / "LDC",
        "-o",
        out,
        "--ci",
        "--ci-seed",
        "3",
    )
    assert proc.returncode == 0, proc.stderr
    written = sorted(p.name for p in (out / "scores").glob("*-ci.*"))
    assert written == sorted(
        f"{m}-ci.{s}"
        for m in (
            "NDCGScorerV1",
            "NDCGScorerV2",
            "F1ScorerV1A",
            "F1ScorerV1B",
            "F1ScorerV1C",
            "F1ScorerV2A",
            "F1ScorerV2B",
            "F1ScorerV2C",
        )
        for s in ("txt", "tab")
    )
    alone = _run(
        "score",
        "ci",
        out / "scores" / "NDCGScorerV1-scores.tab",
        "--seed",
        "3",
        "-o",
        tmp_path / "ci.txt",
        "--tab",
        tmp_path / "ci.tab",
    )
    assert alone.returncode == 0, alone.stderr
    assert (tmp_path / "ci.tab").read_bytes() == (out / "scores" / "NDCGScorerV1-ci.tab").read_bytes()


def test_score_ta1_ci_writes_the_twelve_metrics_intervals(tmp_path: Path) -> None:
    import pytest

    if not EXAMPLE.is_dir():
        pytest.skip(f"NIST's example TA1 run not found at {EXAMPLE}")
    out = tmp_path / "out"
    proc = _run(*SCORE_TA1_EXAMPLE, "-o", out, "--ci")
    assert proc.returncode == 0, proc.stderr
    assert len(list((out / "scores").glob("*-ci.tab"))) == 12
    assert "seed" in proc.stderr  # the seed drawn is said


def test_score_ci_takes_the_tables_in_memory_as_the_files_read_back(tmp_path: Path) -> None:
    """``--ci`` resamples the score tables the scorer's renderer hands it, not the files read back:
    they must be the same tables, cell for cell and line for line."""
    from ta2_common import AUX, FIXTURES

    from aifcheck.render.ta2.scores import score_tables as ta2_tables
    from aifcheck.render.ta2.scores import write_scores
    from aifcheck.render.ta3.scores import score_tables as ta3_tables
    from aifcheck.render.ta3.scores import write_score_files
    from aifcheck.score.scorefiles import read_table
    from aifcheck.score.ta2 import score_ta2
    from aifcheck.score.ta3.scorer import score_ta3

    scores = score_ta3(T3 / "RUN1", T3 / "queries_to_score.tab", T3 / "claim-mappings.tab", T3 / "LDC")
    write_score_files(scores, tmp_path / "ta3")
    tables = ta3_tables(scores, tmp_path / "ta3")
    assert len(tables) == 8
    assert all(table == read_table(table.path) for table in tables)
    if AUX.is_dir():
        case = FIXTURES / "many_queries"
        found = score_ta2(case / "runW", case / "queries_to_score.tab", case / "LDC", AUX)
        write_scores(found, tmp_path / "ta2")
        (table,) = ta2_tables(found, tmp_path / "ta2")
        assert table == read_table(table.path) and len(table.rows) > 1
