"""Every rule fires with its ID on its bad fixtures and stays silent on its good ones.

Parametrised from the catalogue (not from a glob), on both executors; a rule without
fixtures fails in test_catalog.py.
"""
from __future__ import annotations

import pytest
import rdflib

from aifcheck.catalog import Severity, load_catalog
from aifcheck.fixture import Fixture, fixtures_for
from aifcheck.parsing import parse_text
from aifcheck.validate import Options, check_loaded

CATALOG = load_catalog()
CASES = [
    pytest.param(fixture, engine, id=f"{fixture.rule_id}/{fixture.name}/{engine}")
    for rule in CATALOG.rules.values()
    if rule.kind == "shape"
    for fixture in fixtures_for(rule.id)
    for engine in ("fast", "reference")
]


def findings(fixture: Fixture, engine: str, threads: int | None = None):
    rule = CATALOG.rules[fixture.rule_id]
    options = Options(
        profile=rule.profile,
        min_severity=Severity.INFO,
        task=fixture.task,
        condition=fixture.condition,
        engine=engine,
    )
    loaded = parse_text(f"{fixture.rule_id}/{fixture.name}", fixture.text)
    return check_loaded(loaded, options, threads=threads)


@pytest.mark.parametrize(("fixture", "engine"), CASES)
def test_fixture(fixture: Fixture, engine: str) -> None:
    report = findings(fixture, engine)
    assert not report.rule_errors, report.rule_errors
    fired = {v.rule_id for v in report.violations}
    if fixture.is_bad:
        assert fired == {fixture.rule_id} | fixture.also, [(v.rule_id, v.focus, v.message) for v in report.violations]
        focus = {v.focus for v in report.violations if v.rule_id == fixture.rule_id}
        assert fixture.expect, "a bad fixture must name at least one expected focus node"
        assert set(fixture.expect) <= focus, f"expected focus {fixture.expect}, got {sorted(focus)}"
    else:
        assert fired == set(), [(v.rule_id, v.focus, v.message) for v in report.violations]


def test_every_checked_rule_has_cases() -> None:
    covered = {case.values[0].rule_id for case in CASES}
    checked = {rule.id for rule in CATALOG.rules.values() if rule.kind == "shape"}
    assert covered == checked, sorted(checked - covered)


def test_expected_focus_nodes_are_iris_in_the_fixture() -> None:
    for case in CASES:
        fixture = case.values[0]
        graph = rdflib.Graph().parse(data=fixture.text, format="turtle")
        nodes = {n.n3() for triple in graph for n in triple}
        for focus in fixture.expect:
            assert focus in nodes, f"{fixture.rule_id}/{fixture.name}: {focus} does not occur in the file"


def test_fast_executor_lists_items_sorted_even_when_an_item_holds_the_separator() -> None:
    # The items of a message list are sorted so that a message is the same from run to run;
    # an item that holds ", " must stay whole.
    text = """@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .
@prefix ex: <http://example.org/> .
ex:statement a rdf:Statement ; rdf:subject ex:s ; rdf:predicate ex:p ; rdf:object "c" , "b, a" .
"""
    report = check_loaded(parse_text("list.ttl", text), Options(profile="aif", select=["A1"]))
    messages = [v.message for v in report.violations if v.rule_id == "A1" and " values of " in v.message]
    assert len(messages) == 1 and messages[0].endswith('values of <http://www.w3.org/1999/02/22-rdf-syntax-ns#object>: "b, a", "c"'), messages


@pytest.mark.parametrize(
    "fixture",
    [pytest.param(f, id=f"{f.rule_id}/{f.name}") for r in CATALOG.rules.values() if r.kind == "shape" for f in fixtures_for(r.id) if f.is_bad],
)
def test_queries_run_here_or_on_threads_give_the_same_findings(fixture: Fixture) -> None:
    reports = [findings(fixture, "fast", threads) for threads in (1, 3)]
    assert reports[0].violations and reports[0].violations == reports[1].violations
