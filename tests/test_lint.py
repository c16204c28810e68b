"""The project passes its own ruff configuration (pyproject.toml's [tool.ruff]) and is formatted by
ruff format: the ruff that the test extra pins, run on the whole repository as a developer runs it."""

from __future__ import annotations

import subprocess
import sys
import tomllib

import pytest
from helpers import ROOT


def _ruff(*args: str) -> subprocess.CompletedProcess[str]:
    # the ruff installed beside this interpreter (the test extra's), not whichever is first on PATH
    return subprocess.run([sys.executable, "-m", "ruff", *args], cwd=ROOT, capture_output=True, text=True, check=False)


def test_the_installed_ruff_is_the_pinned_one() -> None:
    # the findings and the formatting change between ruff releases: the suite checks with the pinned one
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    (pin,) = [r for r in project["optional-dependencies"]["test"] if r.startswith("ruff")]
    version = _ruff("--version")
    assert version.returncode == 0, f"ruff is not installed: pip install -e '.[test]'\n{version.stderr}"
    assert pin == "ruff==" + version.stdout.split()[1], f"the test extra pins {pin}, installed: {version.stdout}"


def test_ruff_check_finds_nothing() -> None:
    result = _ruff("check", "--output-format", "concise", "--no-cache", ".")
    if result.returncode != 0:
        pytest.fail(f"ruff check . at the repository root:\n{result.stdout}{result.stderr}", pytrace=False)


def test_ruff_format_changes_nothing() -> None:
    result = _ruff("format", "--check", "--output-format", "concise", "--no-cache", ".")
    if result.returncode != 0:
        pytest.fail(f"ruff format --check . at the repository root:\n{result.stdout}{result.stderr}", pytrace=False)
