"""NIST's own claim frames (../shared/data/m54) pass the ta3 profile with no error.

The TA3 run's claim frames are validated for the condition of the folder they sit in
(task3-run/Condition5, 6, 7); the Condition 5 query claim frames (user-queries) for Condition 5.
Warnings and infos are allowed (and printed on failure); an error on NIST's own example would
mean a rule misreads the plan.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import SHARED_DATA

from aifcheck.validation.catalog import Severity
from aifcheck.validation.run import validate

M54 = SHARED_DATA


def _claim_frames() -> list[tuple[Path, int]]:
    frames = [
        (path, condition)
        for condition in (5, 6, 7)
        for path in sorted((M54 / "task3-run" / f"Condition{condition}").glob("*/*.ttl"))
    ]
    frames += [(path, 5) for path in sorted((M54 / "user-queries" / "Condition5" / "Query_Claim_Frames").glob("*.ttl"))]
    return frames


FRAMES = _claim_frames()


def _id(case: tuple[Path, int]) -> str:
    path, condition = case
    return f"C{condition}/{path.relative_to(M54).as_posix()}"


@pytest.mark.skipif(not FRAMES, reason=f"NIST evaluation data not found at {M54}")
@pytest.mark.parametrize("case", FRAMES, ids=_id)
def test_nist_claim_frame_has_no_error(case: tuple[Path, int]) -> None:
    path, condition = case
    report = validate(path, profile="ta3", condition=condition, min_severity=Severity.INFO)
    file_report = report.files[0]
    assert file_report.readable, file_report.error
    assert not file_report.rule_errors, file_report.rule_errors
    findings = [f"{v.line}: {v.rule_id} {v.severity.label}: {v.message}" for v in report.violations]
    errors = [v for v in report.violations if v.severity == Severity.ERROR]
    assert not errors, "\n".join(findings)
    assert file_report.triples > 0


@pytest.mark.skipif(not FRAMES, reason=f"NIST evaluation data not found at {M54}")
def test_real_claim_frames_include_every_condition_and_the_queries() -> None:
    conditions = {condition for path, condition in FRAMES if "task3-run" in path.parts}
    assert conditions == {5, 6, 7}
    assert any("Query_Claim_Frames" in path.parts for path, _ in FRAMES)
