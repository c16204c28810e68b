"""The text format shows a rule's first five findings in a file, then one line counting the rest
(issue 43 §6: NIST's example TA1 KBs give 392 warnings); --all-findings, the
``all-findings`` setting, JSON, SARIF and GitHub annotations give them all."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import FIXTURES

N15_FINDINGS = 8  # N15 findings in the file below


def _aifcheck(*args: object, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "aifcheck", *map(str, args)], capture_output=True, text=True, timeout=300, cwd=cwd
    )


@pytest.fixture
def kb(tmp_path: Path) -> Path:
    """N15's bad fixture with seven more confidences of value 0: eight N15 findings."""
    extra = "".join(f'ex:conf-{i} a aida:Confidence ; aida:confidenceValue "0.0"^^xsd:double .\n' for i in range(3, 10))
    path = tmp_path / "kb.ttl"
    path.write_text((FIXTURES / "N15" / "bad.ttl").read_text() + extra)
    return path


def test_text_shows_five_findings_of_a_rule_then_counts_the_rest(kb: Path) -> None:
    done = _aifcheck("validate", kb)
    lines = done.stdout.splitlines()
    assert done.returncode == 1 and [line.split()[1] for line in lines[:5]] == ["N15"] * 5
    assert lines[5] == f"... and 3 more N15 findings in {kb} (--all-findings or --format json to see them)"
    assert len(lines) == 7 and f"; {N15_FINDINGS} errors, 0 warnings (" in lines[6]  # the summary counts all


@pytest.mark.parametrize("how", ["option", "setting"])
def test_all_findings_on_request(kb: Path, how: str) -> None:
    if how == "option":
        done = _aifcheck("validate", kb, "--all-findings")
    else:
        (kb.parent / "pyproject.toml").write_text("[tool.aifcheck]\nall-findings = true\n")
        done = _aifcheck("validate", kb.name, cwd=kb.parent)
    lines = done.stdout.splitlines()
    assert [line.split()[1] for line in lines[:-1]] == ["N15"] * N15_FINDINGS and "more" not in done.stdout


def test_json_sarif_and_github_keep_every_finding(kb: Path, tmp_path: Path) -> None:
    found = json.loads(_aifcheck("validate", kb, "--format", "json").stdout)
    assert len([f for f in found["files"][0]["violations"] if f["rule_id"] == "N15"]) == N15_FINDINGS
    sarif = json.loads(_aifcheck("validate", kb, "--format", "sarif").stdout)
    assert len(sarif["runs"][0]["results"]) == N15_FINDINGS
    github = _aifcheck("validate", kb, "--format", "github").stdout.splitlines()
    assert len([line for line in github if line.startswith("::error")]) == N15_FINDINGS


def test_a_text_report_under_o_is_grouped_too(kb: Path, tmp_path: Path) -> None:
    assert _aifcheck("validate", kb, "-o", tmp_path / "reports").returncode == 1
    (report,) = (tmp_path / "reports").rglob("*.txt")
    assert "... and 3 more N15 findings in" in report.read_text()
