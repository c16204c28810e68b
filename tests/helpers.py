"""Paths, and command lines, shared by the tests."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "aifcheck" / "rule_fixtures"  # the rules' bad and good files, shipped with the package
TEST_DATA = ROOT / "tests" / "data"  # the tests' own inputs
SHARED = ROOT.parent / "shared"
SHARED_DATA = SHARED / "data" / "m54"
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
