"""A rule whose check crashes is reported under its rule ID, as an internal error, while every
other rule still reports its findings: on both executors."""

from __future__ import annotations

import pyshacl
import pytest
from helpers import ROOT

from aifcheck.validation.engine import fast, reference
from aifcheck.validation.run import Options, validate_file
from aifcheck.validation.shapes import load_catalog

KB = ROOT / "examples" / "invalid" / "cluster-mistakes.ttl"
CRASHING = "N4"


def _rules_found(report) -> set[str]:
    return {v.rule_id for v in report.violations}


@pytest.fixture(scope="module")
def normal():
    report = validate_file(str(KB), Options(min_severity="info"))
    assert CRASHING in _rules_found(report) and len(_rules_found(report) - {CRASHING}) >= 2
    return report


def test_a_crashing_rule_of_the_fast_executor_is_its_own_internal_error(normal, monkeypatch) -> None:
    real = fast.load_queries

    def broken(catalog):
        queries = dict(real(catalog))
        for key in [k for k in queries if k[0] == CRASHING]:
            queries[key] = "SELECT ?this WHERE { this is not SPARQL"
        return queries

    monkeypatch.setattr(fast, "load_queries", broken)
    report = validate_file(str(KB), Options(min_severity="info", engine="fast"))
    assert [e.rule_id for e in report.rule_errors] == [CRASHING]
    assert "check failed" in report.rule_errors[0].message
    assert _rules_found(report) == _rules_found(normal) - {CRASHING}


def test_a_crashing_rule_of_the_reference_executor_is_its_own_internal_error(normal, monkeypatch) -> None:
    real = pyshacl.validate
    crashing_shape = load_catalog().get(CRASHING).shape

    def crashing(data_graph, shacl_graph, **kwargs):
        deactivated = {str(s) for s in shacl_graph.subjects(reference.SH.deactivated, None)}
        if crashing_shape not in deactivated:
            raise RuntimeError("a check that crashes")
        return real(data_graph, shacl_graph=shacl_graph, **kwargs)

    monkeypatch.setattr(reference.pyshacl, "validate", crashing)
    report = validate_file(str(KB), Options(min_severity="info", engine="reference"))
    assert [e.rule_id for e in report.rule_errors] == [CRASHING]
    assert "RuntimeError: a check that crashes" in report.rule_errors[0].message
    assert _rules_found(report) == _rules_found(normal) - {CRASHING}
