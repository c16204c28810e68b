"""The shapes themselves: the convention the fast executor's compiler relies on, and every SPARQL
constraint (not only every rule) shown to fire by some bad fixture."""

from __future__ import annotations

import pytest
from helpers import FIXTURES
from rdflib import Variable
from rdflib.plugins.sparql import prepareQuery
from rdflib.plugins.sparql.parserutils import CompValue

from aifcheck.loading.kb import load_kb
from aifcheck.validation.engine import RawResult, get_executor
from aifcheck.validation.fixtures import fixtures_for
from aifcheck.validation.run import Options
from aifcheck.validation.shapes import load_catalog

CATALOG = load_catalog()
SHAPE_RULES = [rule for rule in CATALOG.rules.values() if rule.kind == "shape"]
THIS = Variable("this")


def _mentions_this(node: object) -> bool:
    if node == THIS:
        return True
    if isinstance(node, (CompValue, dict)):
        return any(_mentions_this(value) for value in node.values())
    if isinstance(node, (list, tuple, set, frozenset)):
        return any(_mentions_this(value) for value in node)
    return False


def this_where_forbidden(select: str) -> list[str]:
    """Where $this appears inside a sub-select or on the right of a MINUS: the fast executor joins
    the rule's targets into the top-level group, so $this there would not be the focus node."""
    found: list[str] = []

    def walk(node: object) -> None:
        if isinstance(node, CompValue):
            if node.name == "ToMultiSet" and _mentions_this(node["p"]):
                found.append("sub-select")
            if node.name == "Minus" and _mentions_this(node["p2"]):
                found.append("MINUS")
            for value in node.values():
                walk(value)
        elif isinstance(node, (list, tuple)):
            for value in node:
                walk(value)

    walk(prepareQuery(select, initNs=CATALOG.prefixes).algebra)
    return found


def test_the_convention_check_can_fail() -> None:
    inner = "SELECT $this WHERE { { SELECT $this WHERE { $this ?p ?o } } }"
    minus = "SELECT $this WHERE { $this ?p ?o MINUS { $this ?q ?r } }"
    fine = "SELECT $this WHERE { $this ?p ?o MINUS { ?o ?q ?r } { SELECT ?o WHERE { ?o ?p ?x } } }"
    assert this_where_forbidden(inner) == ["sub-select"]
    assert this_where_forbidden(minus) == ["MINUS"]
    assert this_where_forbidden(fine) == []


@pytest.mark.parametrize(
    ("rule_id", "index"),
    [(rule.id, i) for rule in SHAPE_RULES for i in range(len(rule.constraints))],
)
def test_this_is_never_inside_a_sub_select_or_minus(rule_id: str, index: int) -> None:
    assert this_where_forbidden(CATALOG.rules[rule_id].constraints[index].select) == []


@pytest.mark.parametrize("rule", SHAPE_RULES, ids=lambda rule: rule.id)
def test_every_constraint_fires_on_some_bad_fixture(rule) -> None:
    fired: set[int] = set()
    for fixture in (f for f in fixtures_for(rule.id) if f.is_bad):
        options = Options(profile=rule.profile, min_severity="info", task=fixture.task, condition=fixture.condition)
        with load_kb(FIXTURES / rule.id / fixture.name) as kb:
            results = get_executor("fast").run(kb, [rule], CATALOG)
            fired |= {r.constraint for r in results if isinstance(r, RawResult)}
        assert rule in options.rules(CATALOG)  # the fixture's options run the rule
    silent = [rule.constraints[i].message for i in range(len(rule.constraints)) if i not in fired]
    assert not silent, f"constraints of {rule.id} that no bad fixture makes fire: {silent}"


def test_the_reference_executor_may_run_in_place_and_share_its_shapes() -> None:
    # pySHACL runs on the view's own graph in place and on one shapes graph per set of rules: safe
    # while no shape is a SHACL rule (which would add to the data) and a run leaves the shapes as they were
    import rdflib

    import aifcheck
    from aifcheck.validation.engine.reference import SH, _active_shapes, shapes_graph

    assert not list(shapes_graph(CATALOG.files).subjects(SH.rule, None))
    rules = Options(profile="nist", min_severity="info").rules(CATALOG)
    shapes = _active_shapes(CATALOG.files, frozenset(rdflib.URIRef(r.shape) for r in rules if r.shape))
    aifcheck.validate(FIXTURES / "N4" / "bad.ttl", engine="reference", min_severity="info")
    before = set(shapes)  # with the two RDFS axioms pySHACL adds to any shapes graph it is given
    report = aifcheck.validate(FIXTURES / "N4" / "bad.ttl", engine="reference", min_severity="info")
    assert {v.rule_id for v in report.violations} >= {"N4"} and set(shapes) == before
