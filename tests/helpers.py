"""Paths, and command lines, shared by the tests."""

from __future__ import annotations

from pathlib import Path

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
