"""Tests on the catalogue itself: IDs, coverage of RULES.md, fixtures, metadata."""

from __future__ import annotations

import json
import os
import re
import shutil

import pytest
from helpers import SHARED

from aifcheck.validation.build import build_catalog
from aifcheck.validation.catalog import RULE_ID, Severity, Target, fingerprint, shapes_folder
from aifcheck.validation.engine.analysis import anti_join_problem, binds_this, implies_targets
from aifcheck.validation.engine.compile import compile_queries, load_queries
from aifcheck.validation.engine.sparql_text import anti_joins
from aifcheck.validation.fixtures import fixture_rule_ids, fixtures_for
from aifcheck.validation.shapes import load_catalog, shape_texts

CATALOG = load_catalog()
QUERIES = load_queries(CATALOG)
RULES_MD = SHARED / "RULES.md"
RULE_GROUPS = ("A", "N", "T", "S")  # every group of RULES.md
# the groups RULES.md does not define: O, what NIST's submission check (the official AIF shapes)
# rejects beyond the plan's rules; D, the DWD vocabulary (warnings)
EXTRA_GROUPS = {"O": "official AIF validator, ", "D": "plan §2.1"}


TOKEN = r"([ANTS])(\d+)([a-z]?)(?:-[ANTS]?(\d*)([a-z]?))?"
LEAD = re.compile(rf"^- {TOKEN}")  # the ID a bullet opens with
INLINE = re.compile(rf"\b{TOKEN} (?:\([^)]*\) )?(?:error|warning|info)\b")  # "N12a warning"


def _expand(group: str, number: str, letter: str, last_number: str, last_letter: str) -> set[str]:
    if last_letter:  # N13a-d, T2a-T2i
        return {f"{group}{number}{chr(c)}" for c in range(ord(letter or "a"), ord(last_letter) + 1)}
    if last_number:  # N8-N11, T7-T10
        return {f"{group}{n}" for n in range(int(number), int(last_number) + 1)}
    return {f"{group}{number}{letter}"}


def rules_md_ids() -> set[str]:
    """Every rule ID RULES.md defines, with ranges such as N13a-d, T2a-T2i, N8-N11 expanded."""
    if not RULES_MD.is_file():
        pytest.skip(f"RULES.md not found at {RULES_MD}")
    ids: set[str] = set()
    # a bullet continues on indented lines: join them so inline IDs on any line are seen
    bullets = re.split(r"\n(?=\S)", RULES_MD.read_text(encoding="utf-8"))
    for line in (" ".join(b.split()) for b in bullets):
        lead = LEAD.match(line)
        if not lead:
            continue
        ids |= _expand(*lead.groups())
        for inline in INLINE.finditer(line):
            ids |= _expand(*inline.groups())
    return ids


def test_rules_md_ids_are_read() -> None:
    ids = rules_md_ids()
    assert {"A1", "N9", "N13d", "N16b", "N21c", "T2i", "T8", "T14b", "S8"} <= ids
    assert "N21" not in ids and "N16" not in ids


def test_ids_are_well_formed_and_unique() -> None:
    assert all(RULE_ID.match(rule_id) for rule_id in CATALOG.rules)
    assert {rule_id[0] for rule_id in CATALOG.rules} == set(RULE_GROUPS) | set(EXTRA_GROUPS)


def test_rules_outside_rules_md_name_their_source() -> None:
    # an O rule names the official shape file it comes from, a D rule the plan's DWD section
    for rule in CATALOG.rules.values():
        if rule.id[0] in EXTRA_GROUPS:
            assert rule.plan_ref.startswith(EXTRA_GROUPS[rule.id[0]]), (rule.id, rule.plan_ref)
    assert all(".shacl" in r.plan_ref for r in CATALOG.rules.values() if r.id.startswith("O"))


def test_rules_md_groups_are_implemented_or_listed_as_unchecked() -> None:
    expected = {i for i in rules_md_ids() if i[0] in RULE_GROUPS}
    missing = sorted(expected - set(CATALOG.rules))
    assert not missing, f"RULES.md IDs neither implemented nor listed as unchecked: {missing}"
    unknown = sorted(i for i in CATALOG.rules if i[0] in RULE_GROUPS and i not in rules_md_ids())
    assert not unknown, f"catalogue IDs that RULES.md does not define: {unknown}"


def test_unchecked_rules_give_a_reason() -> None:
    for rule in CATALOG.rules.values():
        if not rule.checked:
            assert len(rule.unchecked_reason) > 20, rule.id


@pytest.mark.parametrize("rule", [r for r in CATALOG.rules.values() if r.kind == "shape"], ids=lambda r: r.id)
def test_rule_metadata_and_fixtures(rule) -> None:
    assert rule.title and rule.text and rule.plan_ref.startswith(("plan §", EXTRA_GROUPS["O"])), rule.id
    assert rule.targets, f"{rule.id} has no SHACL target"
    assert rule.constraints and all(c.message for c in rule.constraints), f"{rule.id} lacks a constraint or message"
    names = [f.name for f in fixtures_for(rule.id)]
    assert any(n.startswith("bad") for n in names), f"{rule.id} has no bad fixture"
    assert any(n.startswith("good") for n in names), f"{rule.id} has no good fixture"


def test_fixture_folders_name_catalogue_rules() -> None:
    assert set(fixture_rule_ids()) <= set(CATALOG.rules)


def test_severities_match_rules_md() -> None:
    if not RULES_MD.is_file():
        pytest.skip("RULES.md not found")
    text = RULES_MD.read_text(encoding="utf-8")
    for rule in CATALOG.rules.values():
        if not rule.checked:
            continue
        stated = re.search(rf"\b{rule.id} (error|warning|info)\b", text)
        if stated:
            assert Severity.parse(stated[1]) == rule.severity, rule.id


def test_every_group_concat_list_is_known_so_its_items_can_be_sorted() -> None:
    # An unrecognised GROUP_CONCAT would print its items in the store's order, which varies between runs.
    for rule in CATALOG.rules.values():
        for constraint in rule.constraints:
            written = len(re.findall(r"GROUP_CONCAT\s*\(", constraint.select, re.IGNORECASE))
            assert len(constraint.lists) == written, (rule.id, constraint.lists)


def test_targets_last_only_where_the_body_binds_this() -> None:
    # With aifc:targetsLast the fast executor filters the body's solutions by the targets: a body
    # that leaves $this unbound would find nothing instead of the violations. Building the
    # catalogue refuses such a hint; every hint shipped passed that check.
    assert any(c.targets_last for r in CATALOG.rules.values() for c in r.constraints), "no hint to check"
    texts = shape_texts()
    # A1's check that rdf:subject, rdf:predicate and rdf:object are present binds $this in no solution
    assert not binds_this(CATALOG.get("A1").constraints[1].select, CATALOG.prefixes)
    aif = texts["aif.ttl"]
    start = aif.index('aifc:ruleId "A1"')
    end = aif.index("aifc:ruleId", start + 1)
    hinted = aif[start:end].replace("a sh:SPARQLConstraint ;", "a sh:SPARQLConstraint ; aifc:targetsLast true ;")
    texts["aif.ttl"] = aif[:start] + hinted + aif[end:]
    with pytest.raises(ValueError, match="A1: aifc:targetsLast"):
        build_catalog(texts)


def test_a_body_implies_its_targets_only_through_every_branch() -> None:
    entity = (Target("class", "urn:x:Entity"), Target("subjectsOf", "urn:x:p"), Target("objectsOf", "urn:x:q"))
    assert implies_targets("SELECT $this WHERE { $this a <urn:x:Entity> ; <urn:x:r> ?o }", entity, {})
    assert implies_targets("SELECT $this WHERE { { $this <urn:x:p> ?o } UNION { ?s <urn:x:q> $this } }", entity, {})
    assert implies_targets("SELECT $this (COUNT(*) AS ?n) WHERE { $this a <urn:x:Entity> } GROUP BY $this", entity, {})
    # a subclass, another property, one branch without it, or $this's type only in an OPTIONAL or
    # an EXISTS: the targets must still be joined
    assert not implies_targets("SELECT $this WHERE { $this a <urn:x:Person> }", entity, {})
    assert not implies_targets("SELECT $this WHERE { ?s <urn:x:p> $this }", entity, {})
    assert not implies_targets("SELECT $this WHERE { { $this a <urn:x:Entity> } UNION { $this ?p ?o } }", entity, {})
    assert not implies_targets("SELECT $this WHERE { $this ?p ?o OPTIONAL { $this a <urn:x:Entity> } }", entity, {})
    assert not implies_targets(
        "SELECT $this WHERE { $this ?p ?o FILTER EXISTS { $this a <urn:x:Entity> } }", entity, {}
    )


def test_a_body_that_implies_its_targets_runs_as_written() -> None:
    a12 = CATALOG.get("A12")
    implied = [i for i, c in enumerate(a12.constraints) if implies_targets(c.select, a12.targets, CATALOG.prefixes)]
    assert implied and all("SELECT DISTINCT ?this" not in QUERIES["A12", i] for i in implied)
    o10 = CATALOG.get("O10")  # a branch that types $this by rdf:predicate rdf:type, not by rdf:type
    assert (
        not implies_targets(o10.constraints[0].select, o10.targets, CATALOG.prefixes)
        and "SELECT DISTINCT ?this" in QUERIES["O10", 0]
    )


def test_targets_last_is_refused_where_the_body_implies_the_targets() -> None:
    texts = shape_texts()
    aif = texts["aif.ttl"]
    start = aif.index('aifc:ruleId "A12"')  # the file's last rule
    end = len(aif)
    hinted = aif[start:end].replace("a sh:SPARQLConstraint ;", "a sh:SPARQLConstraint ; aifc:targetsLast true ;")
    texts["aif.ttl"] = aif[:start] + hinted + aif[end:]
    with pytest.raises(ValueError, match="A12: aifc:targetsLast on a constraint whose body implies its targets"):
        build_catalog(texts)


def _hinted(rule_id: str, text_in_constraint: str, hint: str) -> dict[str, str]:
    """The shape texts with ``hint`` on the constraint of ``rule_id`` whose text holds ``text_in_constraint``."""
    texts = shape_texts()
    name = next(n for n, t in texts.items() if f'aifc:ruleId "{rule_id}"' in t)
    text = texts[name]
    at = text.index(text_in_constraint, text.index(f'aifc:ruleId "{rule_id}"'))
    opening = text.rindex("a sh:SPARQLConstraint ;", 0, at) + len("a sh:SPARQLConstraint ;")
    texts[name] = f"{text[:opening]} {hint} ;{text[opening:]}"
    return texts


def test_an_anti_join_moves_each_not_exists_to_the_end_of_its_group_as_minus() -> None:
    query = """SELECT $this WHERE {
        { ?h ?p $this . FILTER NOT EXISTS { $this a ?c . VALUES ?c { <urn:a> } } FILTER (?p != <urn:b>) }
        BIND ("}" AS ?brace)  # a } in a comment
        FILTER NOT EXISTS { ?z <urn:q> $this }
        FILTER (EXISTS { $this <urn:s> ?w } || NOT EXISTS { ?w <urn:t> $this })
        FILTER EXISTS { $this <urn:u> ?v . FILTER NOT EXISTS { ?v <urn:k> ?k } }
    }"""
    rewritten, moved = anti_joins(query)
    assert moved == ["{ $this a ?c . VALUES ?c { <urn:a> } }", "{ ?z <urn:q> $this }"]
    assert "FILTER (?p != <urn:b>) \nMINUS { $this a ?c . VALUES ?c { <urn:a> } }\n}" in rewritten
    assert rewritten.endswith("?k } }\n    \nMINUS { ?z <urn:q> $this }\n}")
    # what an expression or another EXISTS holds stays as written
    assert rewritten.count("NOT EXISTS") == 2 and "FILTER NOT EXISTS { ?v <urn:k> ?k }" in rewritten


def test_anti_join_hints_compile_to_minus_and_are_refused_where_minus_could_differ() -> None:
    hinted = [(r.id, i) for r in CATALOG.rules.values() for i, c in enumerate(r.constraints) if c.anti_join]
    assert ("A3", 6) in hinted and all("MINUS" in QUERIES[key] for key in hinted)
    assert not any("MINUS" in q for key, q in QUERIES.items() if key not in hinted)
    # N14's NOT EXISTS sits in UNION branches that bind none of its variables: MINUS would remove nothing
    with pytest.raises(
        ValueError, match="N14: aifc:antiJoin on a constraint whose FILTER NOT EXISTS shares no variable"
    ):
        build_catalog(_hinted("N14", "boundingBoxUpperLeftX", "aifc:antiJoin true"))
    # N22's tests the focus node in an EXISTS of its own, which a MINUS would not see
    with pytest.raises(ValueError, match="N22: aifc:antiJoin on a constraint whose FILTER NOT EXISTS holds an EXISTS"):
        build_catalog(_hinted("N22", "?ts aida:justifiedBy ?value", "aifc:antiJoin true"))
    outer = "SELECT ?s WHERE {{ ?s <urn:p> ?o . {} }}"
    assert anti_join_problem(outer.format("FILTER NOT EXISTS { ?s <urn:q> ?x }")) is None
    assert "tests a variable" in anti_join_problem(
        outer.format("FILTER NOT EXISTS { ?s <urn:q> ?x . FILTER (?x != ?o) }")
    )
    assert "not a FILTER of a group" in anti_join_problem(
        outer.format("OPTIONAL { ?o <urn:r> ?y . FILTER NOT EXISTS { ?y <urn:q> ?s } }")
    )


def test_binds_this_sees_through_unions_and_optionals() -> None:
    assert binds_this("SELECT $this WHERE { $this ?p ?o . FILTER (?o != 1) }", {})
    assert binds_this("SELECT $this WHERE { { $this ?p ?o } UNION { ?o ?p $this } }", {})
    assert not binds_this("SELECT $this WHERE { { $this ?p ?o } UNION { BIND (1 AS ?o) } }", {})
    assert not binds_this("SELECT $this WHERE { ?s ?p ?o . OPTIONAL { $this ?q ?s } }", {})
    assert not binds_this("SELECT $this WHERE { ?s ?p ?o . FILTER NOT EXISTS { $this ?q ?s } }", {})


def test_the_fingerprint_follows_the_shapes_contents_not_their_times(tmp_path, monkeypatch) -> None:
    # an install or a clone gives the files new times: the shipped catalogue must still fit them
    copy = tmp_path / "shapes"
    shutil.copytree(shapes_folder(), copy)
    monkeypatch.setattr("aifcheck.validation.catalog.shapes_folder", lambda: copy)
    fingerprint.cache_clear()
    try:
        first = fingerprint()
        for path in copy.iterdir():
            os.utime(path, ns=(10**18, 10**18))
        fingerprint.cache_clear()
        assert fingerprint() == first
        (copy / "nist.ttl").write_text((copy / "nist.ttl").read_text() + "\n# a comment\n")
        fingerprint.cache_clear()
        assert fingerprint() != first
    finally:
        fingerprint.cache_clear()


def test_the_shipped_catalogue_and_queries_are_those_built_from_the_shapes() -> None:
    # fails when shapes/ changed without `python -m aifcheck.validation.shapes` (which rewrites them)
    built = build_catalog(shape_texts(), fingerprint())
    shipped = {name: json.loads((shapes_folder() / name).read_text()) for name in ("catalog.json", "queries.json")}
    assert shipped["catalog.json"]["fingerprint"] == shipped["queries.json"]["fingerprint"] == fingerprint(), (
        "shapes/*.json are stale: run python -m aifcheck.validation.shapes"
    )
    assert built == CATALOG and len(CATALOG.rules) > 100
    assert compile_queries(built) == QUERIES


def test_shapes_that_differ_from_the_shipped_ones_are_built_once_into_the_cache(tmp_path, monkeypatch, capsys) -> None:
    copy = tmp_path / "shapes"
    shutil.copytree(shapes_folder(), copy)
    (copy / "catalog.json").unlink()
    (copy / "queries.json").unlink()
    monkeypatch.setattr("aifcheck.validation.catalog.shapes_folder", lambda: copy)
    monkeypatch.setenv("AIFCHECK_CACHE_DIR", str(tmp_path / "cache"))
    fingerprint.cache_clear()
    load_catalog.cache_clear()
    try:
        built = load_catalog()
        assert "building it (once, into the cache)" in capsys.readouterr().err
        assert sorted(p.name.split("-")[0] for p in (tmp_path / "cache").iterdir()) == ["catalog", "queries"]
        load_catalog.cache_clear()
        assert load_catalog() == built == CATALOG
        assert capsys.readouterr().err == ""  # read from the cache: no second build
        assert load_queries(built) == QUERIES
    finally:
        fingerprint.cache_clear()
        load_catalog.cache_clear()
