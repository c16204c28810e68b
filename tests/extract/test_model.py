"""Model objects: spans and IoU, negation, edges and short roles, temporal 4-tuples, TSV agreement."""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest

from aifcheck.extract.kg import CLUSTERS, EDGES, TIMES, build_kg, load_kg
from aifcheck.extract.model import KnowledgeGraph, LDCDate, Metatype, Span, short_role
from aifcheck.loading.kb import load_kb
from aifcheck.pipeline.shared.sparql import run_table

AIDA = (
    "https://raw.githubusercontent.com/NextCenturyCorporation/AIDA-Interchange-Format/master/"
    "java/src/main/resources/com/ncc/aif/ontologies/InterchangeOntology#"
)
EX = "http://example.org/"

# A robbery (an event with a negated and a plain mention) with a robber and a victim; the
# robber's edge is justified by two text spans, the victim's (negated) by one image box.
KB = f"""
@prefix aida: <{AIDA}> .
@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
@prefix ex: <{EX}> .

ex:high a aida:Confidence ; aida:confidenceValue "0.9"^^xsd:double .
ex:low a aida:Confidence ; aida:confidenceValue "0.25"^^xsd:double .

ex:robbery a aida:SameAsCluster ; aida:prototype ex:robbery-p .
ex:robbery-p a aida:Event ; aida:ldcTime ex:when .
ex:rob1 a aida:Event ; aida:attributes aida:Negated .
ex:rob2 a aida:Event .
ex:robber a aida:SameAsCluster ; aida:prototype ex:robber-p .
ex:robber-p a aida:Entity ; aida:handle "the thief" ;
    aida:link [ a aida:LinkAssertion ; aida:linkTarget "Q1" ; aida:confidence ex:high ] .
ex:robber1 a aida:Entity ; aida:hasName "Bonnie" .
ex:victim a aida:SameAsCluster ; aida:prototype ex:victim-p .
ex:victim-p a aida:Entity .
ex:victim1 a aida:Entity .

[] a aida:ClusterMembership ; aida:cluster ex:robbery ; aida:clusterMember ex:rob1 ; aida:confidence ex:high .
[] a aida:ClusterMembership ; aida:cluster ex:robbery ; aida:clusterMember ex:rob2 .
[] a aida:ClusterMembership ; aida:cluster ex:robber ; aida:clusterMember ex:robber1 .
[] a aida:ClusterMembership ; aida:cluster ex:victim ; aida:clusterMember ex:victim1 .

[] a rdf:Statement ; rdf:subject ex:rob1 ; rdf:predicate rdf:type ; rdf:object "Q53706" ;
   aida:confidence ex:low ; aida:justifiedBy ex:t10 .
[] a rdf:Statement ; rdf:subject ex:rob2 ; rdf:predicate rdf:type ; rdf:object "Q53706" ;
   aida:confidence ex:high ; aida:justifiedBy ex:t40 .
[] a rdf:Statement ; rdf:subject ex:robber1 ; rdf:predicate rdf:type ; rdf:object "Q215627" ;
   aida:justifiedBy ex:t0 .
[] a rdf:Statement ; rdf:subject ex:victim1 ; rdf:predicate rdf:type ; rdf:object "Q215627" ;
   aida:justifiedBy ex:box .

[] a aida:ArgumentStatement ; rdf:subject ex:robbery-p ; rdf:predicate "A0_pag_agent_robber" ;
   rdf:object ex:robber-p ; aida:confidence ex:high ;
   aida:justifiedBy [ a aida:CompoundJustification ; aida:containedJustification ex:t0, ex:t10 ] .
[] a aida:ArgumentStatement ; rdf:subject ex:robbery-p ; rdf:predicate "A1_ppt_theme_victim" ;
   rdf:object ex:victim-p ; aida:attributes aida:Negated ;
   aida:justifiedBy [ a aida:CompoundJustification ; aida:containedJustification ex:box ] .
# not between prototypes: NIST ignores it (plan §2.4.1 item 12a)
[] a aida:ArgumentStatement ; rdf:subject ex:rob1 ; rdf:predicate "A0_pag_agent_robber" ;
   rdf:object ex:robber1 ; aida:justifiedBy [ a aida:CompoundJustification ; aida:containedJustification ex:t0 ] .

ex:t0 a aida:TextJustification ; aida:source "E1" ; aida:sourceDocument "D1" ;
    aida:startOffset 0 ; aida:endOffsetInclusive 5 .
ex:t10 a aida:TextJustification ; aida:source "E1" ; aida:sourceDocument "D1" ;
    aida:startOffset 10 ; aida:endOffsetInclusive 19 .
ex:t40 a aida:TextJustification ; aida:source "E1" ; aida:sourceDocument "D1" ;
    aida:startOffset 40 ; aida:endOffsetInclusive 44 ; aida:confidence ex:low .
ex:box a aida:ImageJustification ; aida:source "IMG" ; aida:sourceDocument "D1" ;
    aida:boundingBox [ a aida:BoundingBox ; aida:boundingBoxUpperLeftX 2 ; aida:boundingBoxUpperLeftY 3 ;
                       aida:boundingBoxLowerRightX 12 ; aida:boundingBoxLowerRightY 13 ] .

# started in February 2020 (no day given), ended after 2020-03-01, end not bounded above
ex:when a aida:LDCTime ;
    aida:start [ a aida:LDCTimeComponent ; aida:timeType "BEFORE" ;
                 aida:year "2020"^^xsd:gYear ; aida:month "--02"^^xsd:gMonth ] ;
    aida:end [ a aida:LDCTimeComponent ; aida:timeType "AFTER" ; aida:year "2020"^^xsd:gYear ;
               aida:month "--03"^^xsd:gMonth ; aida:day "---01"^^xsd:gDay ] .
"""


@pytest.fixture(scope="module")
def kb_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("kb") / "robbery.ttl"
    path.write_text(KB, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def kg(kb_path: Path) -> KnowledgeGraph:
    return load_kg(kb_path)


def test_span_parses_prints_and_hashes() -> None:
    text = Span.parse("D1:E1:(10,0)-(19,0)")
    image = Span.parse("D1:IMG:(2,3)-(12,13)")
    assert (text.document, text.element, text.start, text.end) == ("D1", "E1", 10, 19)
    assert (image.start, image.top, image.end, image.bottom) == (2, 3, 12, 13)
    assert str(image) == "D1:IMG:(2,3)-(12,13)"
    assert len({text, Span("D1", "E1", 10, 19), image}) == 2
    with pytest.raises(ValueError):
        Span.parse("D1:E1:10-19")


@pytest.mark.parametrize(
    ("a", "b", "iou"),
    [
        ("D:E:(0,0)-(9,0)", "D:E:(0,0)-(9,0)", 1.0),
        ("D:E:(0,0)-(9,0)", "D:E:(5,0)-(14,0)", 5 / 15),
        ("D:E:(0,0)-(9,0)", "D:E:(10,0)-(19,0)", 0.0),
        ("D:E:(0,0)-(9,0)", "D:F:(0,0)-(9,0)", 0.0),
        ("D:E:(0,0)-(9,0)", "X:E:(0,0)-(9,0)", 0.0),
        ("D:I:(0,0)-(9,9)", "D:I:(5,0)-(14,9)", 50 / 150),
    ],
)
def test_iou(a: str, b: str, iou: float) -> None:
    assert Span.parse(a).iou(Span.parse(b)) == pytest.approx(iou)
    assert Span.parse(b).iou(Span.parse(a)) == pytest.approx(iou)


@pytest.mark.parametrize(
    ("role", "short"),
    [
        ("A0_pag_agent_robber", "A0_pag"),
        ("A1", "A1"),
        ("AM_loc__location", "AM_loc"),
        ("A1_ppt___complied_with", "A1_ppt"),
    ],
)
def test_short_role_is_the_first_two_parts(role: str, short: str) -> None:
    assert short_role(role) == short


def test_clusters(kg: KnowledgeGraph) -> None:
    robbery, robber = kg.cluster(EX + "robbery"), kg.cluster(EX + "robber")
    assert robbery.metatype is Metatype.EVENT and robber.metatype is Metatype.ENTITY
    assert robbery.prototype == EX + "robbery-p"
    assert robbery.members == (EX + "rob1", EX + "rob2")
    assert robbery.types == (("Q53706", 0.9),)
    assert (robber.handle, robber.names, robber.links) == ("the thief", ("Bonnie",), (("Q1", 0.9),))
    assert [c.iri for c in kg.events] == [EX + "robbery"] and len(kg.entities) == 2 and not kg.relations


def test_negation_is_read_from_the_members(kg: KnowledgeGraph) -> None:
    robbery = kg.cluster(EX + "robbery")
    assert [str(m.span) for m in robbery.negated_mentions] == ["D1:E1:(10,0)-(19,0)"]
    plain = next(m for m in robbery.mentions if not m.negated)
    assert (plain.type_confidence, plain.membership_confidence, plain.justification_confidence) == (0.9, 1.0, 0.25)
    assert kg.cluster(EX + "victim").mentions[0].span == Span("D1", "IMG", 2, 12, 3, 13)


def test_edges_join_prototypes_only(kg: KnowledgeGraph) -> None:
    robbery = EX + "robbery"
    assert kg.edge_pairs() == {(robbery, EX + "robber"), (robbery, EX + "victim")}
    (robber_edge,) = kg.edges_between(robbery, EX + "robber")
    assert (robber_edge.role, robber_edge.short_role, robber_edge.negated) == ("A0_pag_agent_robber", "A0_pag", False)
    assert robber_edge.confidence == 0.9
    assert [str(s) for s in robber_edge.justifications] == ["D1:E1:(0,0)-(5,0)", "D1:E1:(10,0)-(19,0)"]
    (victim_edge,) = kg.edges_between(robbery, EX + "victim")
    assert victim_edge.negated and victim_edge.confidence == 1.0
    assert kg.roles(robbery, EX + "victim") == {"A1_ppt"}
    assert len(kg.edges_of(robbery)) == 2


def test_temporal_4_tuple_fills_unconstrained_parts(kg: KnowledgeGraph) -> None:
    (time,) = kg.times_of(EX + "robbery")
    assert time.as_tuple() == (
        LDCDate(1, 1, 1),
        LDCDate(2020, 2, 31),
        LDCDate(2020, 3, 1),
        LDCDate(9999, 12, 31),
    )
    assert time.start_after.unconstrained and not time.start_before.unconstrained
    assert time.start_before.to_date() == datetime.date(2020, 2, 29)  # last day of the month
    ((_, row),) = run_table(load_kb(kg.source), TIMES).records()
    assert [row["?sb_month"], row["?sb_day"], row["?sb_year"]] == ['"02"', '"31"', '"2020"']


def test_objects_agree_with_the_tsv_rows(kb_path: Path) -> None:
    store = load_kb(kb_path)
    kg = build_kg(store)
    mention_rows = {
        (r["?cluster"], r["?type"], r["?mention_span"], r["?is_negated"])
        for _, r in run_table(store, CLUSTERS).records()
    }
    mention_objects = {
        (f"<{c.iri}>", m.type, str(m.span), "Negated" if m.negated else "NotNegated")
        for c in kg.clusters
        for m in c.mentions
    }
    assert mention_objects == mention_rows and len(mention_rows) == 4
    edge_rows = {
        (r["?subject"], r["?predicate"], r["?object"], r["?predicate_justification"])
        for _, r in run_table(store, EDGES).records()
    }
    edge_objects = {(f"<{e.subject}>", e.role, f"<{e.object}>", str(s)) for e in kg.edges for s in e.justifications}
    assert edge_objects == edge_rows and len(edge_rows) == 3
