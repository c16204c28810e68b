"""Fixtures of the TA1 scorer tests: NIST's example run, scored once per session."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from helpers import SHARED_DATA
from ta1_example import EXAMPLE, run_example


def _need_data() -> None:
    if not EXAMPLE.is_dir():
        pytest.skip(f"NIST's example TA1 run not found at {EXAMPLE}")


@pytest.fixture(scope="session")
def ta1_data() -> Path:
    _need_data()
    return SHARED_DATA


@pytest.fixture(scope="session")
def from_sparql(tmp_path_factory):
    _need_data()
    out = tmp_path_factory.mktemp("ta1-sparql") / "out"
    return out, run_example(EXAMPLE / "SPARQL-output", out)


@pytest.fixture(scope="session")
def from_turtle(tmp_path_factory):
    _need_data()
    out = tmp_path_factory.mktemp("ta1-turtle") / "out"
    return out, run_example(SHARED_DATA / "task1-run", out)


@pytest.fixture
def sparql_copy(tmp_path, ta1_data) -> Path:
    """A writable copy of the example run's SPARQL-output, to perturb."""
    target = tmp_path / "run"
    shutil.copytree(EXAMPLE / "SPARQL-output", target)
    for path in target.rglob("*"):
        path.chmod(0o755 if path.is_dir() else 0o644)
    return target
