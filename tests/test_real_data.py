"""NIST's own evaluation KBs (../shared/data) pass the nist profile with no error."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import SHARED_DATA

from aifcheck import Severity, validate

KBS = sorted(SHARED_DATA.glob("task1-run/*.ttl")) + sorted(SHARED_DATA.glob("task2-run/*.ttl"))


@pytest.mark.skipif(not KBS, reason=f"NIST evaluation data not found at {SHARED_DATA}")
@pytest.mark.parametrize("kb", KBS, ids=lambda p: p.name)
def test_nist_accepted_kb_has_no_error(kb: Path) -> None:
    report = validate(kb, profile="nist", min_severity=Severity.INFO)
    file_report = report.files[0]
    assert file_report.readable and not file_report.rule_errors
    errors = [(v.line, v.rule_id, v.message) for v in report.violations if v.severity == Severity.ERROR]
    assert not errors, errors[:20]
    assert file_report.triples > 0
