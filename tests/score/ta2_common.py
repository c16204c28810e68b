"""What the TA2 tests share: the fixtures' folder, the AUX data they need, the installed command."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from helpers import SHARED_DATA

from aifcheck.render.ta2.scores import METRIC

FIXTURES = Path(__file__).parent / "fixtures" / "ta2"
AUX = SHARED_DATA / "ta1-scoring" / "AUX-data"
FILES = (f"{METRIC}-scores.tab", f"{METRIC}-scores.txt")


@pytest.fixture(autouse=True)
def need_aux() -> None:
    """The fixtures name LDC2021E11 documents: their AUX data comes from ../shared/data."""
    if not AUX.is_dir():
        pytest.skip(f"the LDC2021E11 AUX data (../shared/data) is not at {AUX}")


def aifcheck(*args: object) -> subprocess.CompletedProcess:
    """The installed command."""
    return subprocess.run(
        [sys.executable, "-m", "aifcheck", *map(str, args)], capture_output=True, text=True, timeout=300
    )


def by_query_sorted(text: str) -> list[str]:
    """A score file's lines with the rows of each query sorted (header first, Summary last): NIST's
    order within a query follows Python's hash seed."""
    lines = text.split("\n")
    header, rows, summary = lines[0], lines[1:-2], lines[-2:]
    groups: dict[tuple[str, ...], list[str]] = {}
    for line in rows:
        groups.setdefault(tuple(line.split()[:3]), []).append(line)
    return [header, *(line for group in groups.values() for line in sorted(group)), *summary]
