"""Every kind of justification, as NIST's cfn:getSpan prints it, in every table that prints a span
(TA1 CM and AM, TA3 GR_0001A) and in the model (aifcheck.load).

getSpan (NIST's rdf4j-function-getspan, read with javap) prints DOC:ELT:(start,0)-(end,0) for text
offsets and for audio and video timestamps, DOC:ELT:(ulx,uly)-(lrx,lry) for an image box,
DOC:KEYFRAME:(ulx,uly)-(lrx,lry) for a key frame (its ID in the element's place), and fails, so
that the cell stays empty, on a justification with none of these (a shot) or several.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

import aifcheck
from aifcheck.extract.model import ASSESSMENT_SPAN, HANDLE_SPAN, SCORER_SPAN, VALIDATOR_SPAN, Span, SpanKind

AIDA = (
    "https://raw.githubusercontent.com/NextCenturyCorporation/AIDA-Interchange-Format/master/"
    "java/src/main/resources/com/ncc/aif/ontologies/InterchangeOntology#"
)
EX = "http://example.org/"
BOX = (
    "aida:boundingBox [ a aida:BoundingBox ; aida:boundingBoxUpperLeftX 2 ; aida:boundingBoxUpperLeftY 3 ; "
    "aida:boundingBoxLowerRightX 12 ; aida:boundingBoxLowerRightY 13 ]"
)

# kind -> (the justification's own triples, the span NIST prints, the model's span)
KINDS = {
    "text": (
        'a aida:TextJustification ; aida:source "E1" ; aida:startOffset 10 ; aida:endOffsetInclusive 19',
        "D1:E1:(10,0)-(19,0)",
        Span("D1", "E1", 10, 19, kind=SpanKind.TEXT),
    ),
    "image": (
        f'a aida:ImageJustification ; aida:source "IMG1" ; {BOX}',
        "D1:IMG1:(2,3)-(12,13)",
        Span("D1", "IMG1", 2, 12, 3, 13, kind=SpanKind.IMAGE),
    ),
    "keyframe": (
        f'a aida:KeyFrameVideoJustification ; aida:source "V1" ; aida:keyFrame "V1_3" ; {BOX}',
        "D1:V1_3:(2,3)-(12,13)",
        Span("D1", "V1", 2, 12, 3, 13, keyframe="V1_3", kind=SpanKind.KEYFRAME),
    ),
    "shot": (
        'a aida:ShotVideoJustification ; aida:source "V1" ; aida:shot "V1_shot7"',
        "",
        Span("D1", "V1", shot="V1_shot7", kind=SpanKind.SHOT),
    ),
    "audio": (
        'a aida:AudioJustification ; aida:source "A1" ; '
        'aida:startTimestamp "1.5"^^xsd:double ; aida:endTimestamp "4.0"^^xsd:double',
        "D1:A1:(1.5,0)-(4.0,0)",
        Span("D1", "A1", 1.5, 4.0, kind=SpanKind.AUDIO),
    ),
    "video": (
        'a aida:VideoJustification ; aida:source "V1" ; '
        'aida:startTimestamp "12.0"^^xsd:double ; aida:endTimestamp "15.25"^^xsd:double ; '
        "aida:channel aida:VideoJustificationChannelPicture",
        "D1:V1:(12.0,0)-(15.25,0)",
        Span("D1", "V1", 12.0, 15.25, kind=SpanKind.VIDEO),
    ),
    # two kinds at once: getSpan counts two spans and fails
    "text and image": (
        'a aida:TextJustification, aida:ImageJustification ; aida:source "E1" ; '
        f"aida:startOffset 10 ; aida:endOffsetInclusive 19 ; {BOX}",
        "",
        None,
    ),
}


def kb_text(justification: str) -> str:
    """An event whose argument is an entity (with a handle: a TA3 GR row of the frame's claim); the
    entity's type, its informative justification and the argument are justified by ``justification``."""
    return f"""
@prefix aida: <{AIDA}> .
@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
@prefix ex: <{EX}> .

ex:sure a aida:Confidence ; aida:confidenceValue "1.0"^^xsd:double .
ex:claim a aida:Claim .
ex:thing a aida:SameAsCluster ; aida:prototype ex:thing-p .
ex:thing-p a aida:Entity ; aida:handle "the thing" ; aida:informativeJustification ex:j .
ex:event a aida:SameAsCluster ; aida:prototype ex:event-p .
ex:event-p a aida:Event .
[] a aida:ClusterMembership ; aida:cluster ex:thing ; aida:clusterMember ex:thing-p ; aida:confidence ex:sure .
[] a aida:ClusterMembership ; aida:cluster ex:event ; aida:clusterMember ex:event-p ; aida:confidence ex:sure .
[] a rdf:Statement ; rdf:subject ex:thing-p ; rdf:predicate rdf:type ; rdf:object "Q215627" ;
   aida:justifiedBy ex:j ; aida:confidence ex:sure .
[] a rdf:Statement ; rdf:subject ex:event-p ; rdf:predicate rdf:type ; rdf:object "Q1520311" ;
   aida:justifiedBy ex:t ; aida:confidence ex:sure .
[] a aida:ArgumentStatement ; rdf:subject ex:event-p ; rdf:predicate "A0_pag_agent" ; rdf:object ex:thing-p ;
   aida:confidence ex:sure ;
   aida:justifiedBy [ a aida:CompoundJustification ; aida:containedJustification ex:j ; aida:confidence ex:sure ] .
ex:t a aida:TextJustification ; aida:source "E1" ; aida:sourceDocument "D1" ;
   aida:startOffset 0 ; aida:endOffsetInclusive 4 ;
   aida:confidence ex:sure .
ex:j {justification} ; aida:sourceDocument "D1" ; aida:confidence ex:sure .
"""


@pytest.fixture(scope="module")
def kbs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("kinds")
    paths = {}
    for number, (kind, (justification, _, _)) in enumerate(KINDS.items()):
        paths[kind] = folder / f"kb{number}.ttl"
        paths[kind].write_text(kb_text(justification), encoding="utf-8")
    return paths


def query(path: Path, table: str) -> list[dict[str, str]]:
    """A table of the KB, as the installed command prints it."""
    done = subprocess.run(
        ["aifcheck", "query", str(path), "--table", table], capture_output=True, text=True, check=True
    )
    header, *rows = done.stdout.splitlines()
    columns = [c.removeprefix("?") for c in header.split("\t")]
    return [dict(zip(columns, row.split("\t"), strict=True)) for row in rows]


@pytest.mark.parametrize("kind", KINDS)
def test_every_table_prints_the_span_as_get_span_does(kind: str, kbs: dict[str, Path]) -> None:
    printed = KINDS[kind][1]
    cm = [r for r in query(kbs[kind], "AIDA_P3_TA1_CM_A0001") if r["type"] == "Q215627"]
    am = query(kbs[kind], "AIDA_P3_TA1_AM_A0001")
    gr = query(kbs[kind], "AIDA_P3_TA3_GR_0001A")
    # a row for every justification, its span empty where getSpan prints none (as NIST's OPTIONALs give it);
    assert [r["mention_span"] for r in cm] == [printed]
    assert [r["predicate_justification"] for r in am] == [printed]
    # the tag's GR table: an edge whose span getSpan cannot print is in neither A nor B (as NIST's
    # query, run offline with its functions, gives it)
    assert [(r["ej_span"], r["oinf_j_span"]) for r in gr] == ([(printed, printed)] if printed else [])
    assert "mention_kind" not in cm[0] and "docid" not in cm[0]  # the model's columns are not NIST's


@pytest.mark.parametrize("kind", KINDS)
def test_the_model_reads_every_kind(kind: str, kbs: dict[str, Path]) -> None:
    kg = aifcheck.load(kbs[kind])
    expected = KINDS[kind][2]
    thing = kg.cluster(EX + "thing")
    (edge,) = kg.edges
    if expected is None:  # a justification getSpan cannot print gives no mention and no justification
        assert thing.mentions == () and edge.justifications == () and edge.role == "A0_pag_agent"
        return
    (mention,) = thing.mentions
    assert mention.span == expected and mention.span.kind is expected.kind
    assert str(mention.span) == KINDS[kind][1] == mention.key
    assert edge.justifications == (expected,)


@pytest.mark.parametrize("kind", [k for k in KINDS if KINDS[k][1]])
def test_a_printed_span_parses_back(kind: str) -> None:
    printed, expected = KINDS[kind][1:]
    span = Span.parse(printed, expected.kind)
    assert span == expected and str(span) == printed
    # read as NIST's scorer reads it (no kind): a key frame is told by its ID's _N
    assert (Span.parse(printed).keyframe, Span.parse(printed).element) == (expected.keyframe, expected.element)


def test_iou_of_times_keyframes_and_shots() -> None:
    video = Span("D", "V", 2.0, 6.0, kind=SpanKind.VIDEO)
    assert video.iou(Span("D", "V", 4.0, 8.0, kind=SpanKind.VIDEO)) == pytest.approx(2 / 6)  # times: lengths, no +1
    frame = Span("D", "V", 0, 9, 0, 9, keyframe="V_1", kind=SpanKind.KEYFRAME)
    assert frame.iou(Span("D", "V", 5, 14, 0, 9, keyframe="V_1")) == pytest.approx(50 / 150)
    assert frame.iou(Span("D", "V", 0, 9, 0, 9, keyframe="V_2")) == 0.0  # another key frame
    shot = Span("D", "V", shot="s1", kind=SpanKind.SHOT)
    assert shot.iou(Span("D", "V", shot="s1")) == 1.0 and shot.iou(Span("D", "V", shot="s2")) == 0.0


# text -> what each grammar reads: (document, element, key frame) or None
GRAMMAR_CASES = {
    "D1:E1:(1,0)-(5,0)": {"scorer": ("D1", "E1", ""), "validator": ("D1", "E1", ""), "handle": ("D1", "E1", "")},
    "D1:V1_3:(1,2)-(5,6)": {
        "scorer": ("D1", "V1", "V1_3"),
        "validator": ("D1", "V1", "V1_3"),
        "handle": ("D1", "V1_3", ""),  # augment_output.py never splits a key frame
    },
    # a dot or a dash is no word character: only the scorers' expression reads these
    "D.1:E1:(1,0)-(5,0)": {"scorer": ("D.1", "E1", ""), "validator": None, "handle": None},
    "D1:V-1_3:(1,2)-(5,6)": {"scorer": ("D1", "V-1", "V-1_3"), "validator": None, "handle": None},
    # the scorers' lazy groups take the first colons: the rest goes to the element
    "D1:E:1:(1,0)-(5,0)": {"scorer": ("D1", "E:1", ""), "validator": None, "handle": None},
    "D1:E1:(x,0)-(5,0)": {"scorer": ("D1", "E1", ""), "validator": ("D1", "E1", ""), "handle": ("D1", "E1", "")},
    "D1:E1:(1,0)": {"scorer": None, "validator": None, "handle": None},
}


@pytest.mark.parametrize("text", GRAMMAR_CASES)
def test_each_nist_grammar_reads_a_span_as_its_script_does(text: str) -> None:
    for grammar in (SCORER_SPAN, VALIDATOR_SPAN, HANDLE_SPAN):
        parts = grammar.parts(text)
        read = None if parts is None else (parts[0], *grammar.element(parts[1]))
        assert read == GRAMMAR_CASES[text][grammar.name], (grammar.name, grammar.follows)


def test_the_plain_expression_reads_what_nists_reads() -> None:
    """The fast expression tried first gives NIST's groups wherever it matches."""
    for grammar, text in (
        (VALIDATOR_SPAN, "D1:E1:(1.5,0)-(5,2e3)"),
        (VALIDATOR_SPAN, "D_1:V1_3:(1,2)-(5,6)"),
        (ASSESSMENT_SPAN, "D1:E1:(1,0)-(5,0)"),
    ):
        assert grammar.plain is not None and grammar.plain.match(text)
        assert grammar.parts(text) == grammar.pattern.match(text).groups()


def test_span_parse_with_a_grammar() -> None:
    assert Span.parse("D.1:E1:(1,0)-(5,0)").document == "D.1"
    with pytest.raises(ValueError, match="not a span"):
        Span.parse("D.1:E1:(1,0)-(5,0)", grammar=VALIDATOR_SPAN)
    assert Span.parse("D1:V1_3:(1,2)-(5,6)", grammar=VALIDATOR_SPAN).keyframe == "V1_3"
    # the assessment grammar: no colon or space in document or element, numbers only
    assert ASSESSMENT_SPAN.parts("D1:E1:(1,0)-(5.5,0)") == ("D1", "E1", "1", "0", "5.5", "0")
    assert ASSESSMENT_SPAN.parts("D1:E1:(x,0)-(5,0)") is None
    assert ASSESSMENT_SPAN.parts("D 1:E1:(1,0)-(5,0)") is None
