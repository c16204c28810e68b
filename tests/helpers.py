"""Paths shared by the tests."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "aifcheck" / "rule_fixtures"  # the rules' bad and good files, shipped with the package
TEST_DATA = ROOT / "tests" / "data"  # the tests' own inputs
SHARED = ROOT.parent / "shared"
SHARED_DATA = SHARED / "data" / "m54"
