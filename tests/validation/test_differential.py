"""The two executors find the same things, through the path users run.

On every rule fixture and every RDF file of ../shared/data, with the profile, task and condition
the file is meant for: aifcheck.validate with the fast executor at each severity reports exactly
the findings (file, line, rule, severity, focus) that the reference executor (pySHACL) reports at
that severity. The reference runs once per file, at info: a lower bound of severity only drops
the rules below it, so its findings at warning and error are those at info of the rules shown.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import FIXTURES, SHARED_DATA

import aifcheck
from aifcheck.validation.catalog import Severity
from aifcheck.validation.fixtures import fixtures_for
from aifcheck.validation.shapes import load_catalog

CATALOG = load_catalog()


def _fixture_cases() -> list:
    cases = []
    for rule in CATALOG.rules.values():
        if rule.kind != "shape":
            continue
        for fixture in fixtures_for(rule.id):
            options = {"profile": rule.profile, "task": fixture.task, "condition": fixture.condition}
            cases.append(pytest.param(FIXTURES / rule.id / fixture.name, options, id=f"{rule.id}/{fixture.name}"))
    return cases


def _data_cases() -> list:
    kbs = sorted(SHARED_DATA.glob("task1-run/*.ttl")) + sorted(SHARED_DATA.glob("task2-run/*.ttl"))
    cases = [(kb, {"profile": "nist"}) for kb in kbs]
    for condition in (5, 6, 7):
        for frame in sorted(SHARED_DATA.glob(f"task3-run/Condition{condition}/*/*.ttl")):
            cases.append((frame, {"profile": "ta3", "condition": condition}))
    for frame in sorted(SHARED_DATA.glob("user-queries/Condition5/Query_Claim_Frames/*.ttl")):
        cases.append((frame, {"profile": "ta3", "condition": 5}))
    return [pytest.param(path, options, id=str(path.relative_to(SHARED_DATA))) for path, options in cases]


def findings(report) -> set[tuple[str, int, str, str, str]]:
    for file_report in report.files:
        assert file_report.readable and not file_report.rule_errors, (file_report.error, file_report.rule_errors)
    return {(v.file, v.line, v.rule_id, v.severity.label, v.focus) for v in report.violations}


def assert_same_findings(path: Path, options: dict) -> None:
    reference = findings(aifcheck.validate(path, engine="reference", min_severity="info", **options))
    for severity in Severity:
        fast = findings(aifcheck.validate(path, min_severity=severity, **options))
        expected = {f for f in reference if Severity.parse(f[3]) >= severity}
        assert fast == expected, (
            f"at {severity.label}: fast only {sorted(fast - expected)[:10]},"
            f" reference only {sorted(expected - fast)[:10]}"
        )


@pytest.mark.parametrize(("path", "options"), _fixture_cases())
def test_fixture_same_findings(path: Path, options: dict) -> None:
    assert_same_findings(path, options)


DATA = _data_cases()


@pytest.mark.skipif(not DATA, reason=f"NIST evaluation data not found at {SHARED_DATA}")
@pytest.mark.parametrize(("path", "options"), DATA)
def test_real_file_same_findings(path: Path, options: dict) -> None:
    assert_same_findings(path, options)
