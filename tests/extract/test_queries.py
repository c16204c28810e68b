"""The query engine: NIST's tables reproduced exactly, value printing, parameters, SERVICE, layout."""

from __future__ import annotations

import gzip
from collections import Counter
from functools import cache
from pathlib import Path

import pyoxigraph
import pytest
from helpers import SHARED_DATA

from aifcheck.errors import InputError, UsageError
from aifcheck.extract.query import EntryPoints, parameters, table_names
from aifcheck.loading.kb import KB, load_kb
from aifcheck.pipeline.shared.sparql import format_term, run_sparql, run_table
from aifcheck.render.tables import stage_text, write_nist_layout

XSD = "http://www.w3.org/2001/XMLSchema#"
AIDA = (
    "https://raw.githubusercontent.com/NextCenturyCorporation/AIDA-Interchange-Format/master/"
    "java/src/main/resources/com/ncc/aif/ontologies/InterchangeOntology#"
)
PREFIXES = f"@prefix aida: <{AIDA}> .\n@prefix ex: <http://example.org/> .\n"


def _expected_cases() -> list:
    """(input KB, expected TSV, parameters) for every NIST output kept in ../shared/data. NIST's TA3
    outputs were made in March 2022, with the GR tables of the query set march-2022."""
    if not SHARED_DATA.is_dir():
        return [pytest.param(None, None, {}, marks=pytest.mark.skip(reason=f"NIST data not found at {SHARED_DATA}"))]
    cases = []
    for expected in sorted((SHARED_DATA / "task1-expected").glob("*/*.rq.tsv")):
        kb = SHARED_DATA / "task1-run" / expected.parent.name
        cases.append(pytest.param(kb, expected, {}, id=f"ta1/{kb.name}/{expected.name}"))
    # The TA2 entry points are the ones NIST's output shows in its ?query_link_target column.
    kb = SHARED_DATA / "task2-run" / "task2_kb.ttl"
    for expected in sorted((SHARED_DATA / "task2-expected").glob("*.rq.tsv")):
        entry_point = expected.read_text(encoding="utf-8").splitlines()[1].split("\t")[1]
        cases.append(pytest.param(kb, expected, {"query_link_target": entry_point}, id=f"ta2/{expected.name}"))
    for expected in sorted((SHARED_DATA / "task3-expected").glob("*/*/*.ttl/*.rq.tsv")):
        frame = expected.parent
        kb = SHARED_DATA / "task3-run" / frame.parent.parent.name / frame.parent.name / frame.name
        params = {"query_set": "march-2022"}
        cases.append(pytest.param(kb, expected, params, id=f"ta3/{frame.parent.name}/{frame.name}/{expected.name}"))
    return cases


@cache
def _store(path: Path) -> KB:
    return load_kb(path)


@pytest.mark.parametrize(("kb", "expected", "params"), _expected_cases())
def test_table_equals_nist_output(kb: Path, expected: Path, params: dict) -> None:
    name = expected.name.removesuffix(".rq.tsv")
    want = expected.read_text(encoding="utf-8").splitlines()
    got = stage_text(run_table(_store(kb), name, **params)).splitlines()
    assert got[0] == want[0], f"header differs:\n  NIST:     {want[0]}\n  aifcheck: {got[0]}"
    missing = Counter(want[1:]) - Counter(got[1:])
    extra = Counter(got[1:]) - Counter(want[1:])
    report = [f"missing: {row}" for row in missing.elements()] + [f"extra:   {row}" for row in extra.elements()]
    assert not report, f"{len(missing)} rows missing, {len(extra)} extra:\n" + "\n".join(report[:20])
    assert got == want, "same rows, in another order than NIST's"


def _march_gr_cases() -> list:
    if not SHARED_DATA.is_dir():
        return [pytest.param(None, marks=pytest.mark.skip(reason=f"NIST data not found at {SHARED_DATA}"))]
    return [
        pytest.param(p, id=p.parent.name) for p in sorted((SHARED_DATA / "task3-expected").glob("*/*/*.ttl/*_GR_*.tsv"))
    ]


@pytest.mark.parametrize("expected", _march_gr_cases())
def test_the_tag_s_graph_tables_hold_nist_s_march_rows_with_four_more_columns(expected: Path) -> None:
    """NIST's example claim frames have none of the edges the two sets read apart (an event
    argument with a justification, an edge without one, two spans): the tag's rows are March's
    with the four claim-association flags."""
    frame = expected.parent
    kb = SHARED_DATA / "task3-run" / frame.parent.parent.name / frame.parent.name / frame.name
    want = [line.split("\t") for line in expected.read_text(encoding="utf-8").splitlines()]
    got = run_table(_store(kb), expected.name.removesuffix(".rq.tsv"))
    assert len(got.columns) == len(want[0]) + 4 and all(c in want[0] for c in got.columns if "claim" not in c)
    shared = [got.columns.index(c) for c in want[0]]
    assert Counter(tuple(row.cells[i] for i in shared) for row in got.rows) == Counter(map(tuple, want[1:]))


def test_every_nist_table_has_an_expected_output_in_the_data(shared_data: Path) -> None:
    names = {p.name.removesuffix(".rq.tsv") for p in shared_data.glob("task*-expected/**/*.rq.tsv")}
    assert names == set(table_names())


def test_tables_by_task() -> None:
    assert table_names("ta1") == ["AIDA_P3_TA1_AM_A0001", "AIDA_P3_TA1_CM_A0001", "AIDA_P3_TA1_TM_A0001"]
    assert table_names("ta2") == ["AIDA_P3_TA2_P0001", "AIDA_P3_TA2_P0002"]
    assert len(table_names("ta3")) == 6
    with pytest.raises(UsageError):
        table_names("ta4")


@pytest.mark.parametrize(
    ("term", "printed"),
    [
        (None, ""),
        (pyoxigraph.NamedNode("http://example.org/a"), "<http://example.org/a>"),
        (pyoxigraph.Literal("1.0", datatype=pyoxigraph.NamedNode(XSD + "double")), "1.0E0"),
        (pyoxigraph.Literal("0.850", datatype=pyoxigraph.NamedNode(XSD + "double")), "8.5E-1"),
        (pyoxigraph.Literal("250", datatype=pyoxigraph.NamedNode(XSD + "double")), "2.5E2"),
        (pyoxigraph.Literal("1.50", datatype=pyoxigraph.NamedNode(XSD + "decimal")), "1.5"),
        (pyoxigraph.Literal("007", datatype=pyoxigraph.NamedNode(XSD + "integer")), "7"),
        (pyoxigraph.Literal("1.0"), '"1.0"'),
        (pyoxigraph.Literal("01"), '"01"'),
        (pyoxigraph.Literal("Q215627"), "Q215627"),
        (pyoxigraph.Literal("NotNegated"), "NotNegated"),
        # a string TSV must escape is quoted, as NIST printed a description with quotes
        (pyoxigraph.Literal('was "Chinese-specific" and'), '"was \\"Chinese-specific\\" and"'),
        (pyoxigraph.Literal("a\tb\nc\rd"), '"a\\tb\\nc\\rd"'),
        (pyoxigraph.Literal("C:\\path"), '"C:\\\\path"'),
        (pyoxigraph.Literal("Москва", language="ru"), '"Москва"@ru'),
        (pyoxigraph.Literal("2020", datatype=pyoxigraph.NamedNode(XSD + "gYear")), f'"2020"^^<{XSD}gYear>'),
        (pyoxigraph.Literal("abc", datatype=pyoxigraph.NamedNode(XSD + "integer")), f'"abc"^^<{XSD}integer>'),
        (pyoxigraph.BlankNode("b0"), "_:b0"),
    ],
)
def test_values_print_as_nist_prints_them(term: object, printed: str) -> None:
    assert format_term(term) == printed


# NIST's TA2 queries take a membership and a justification with a confidence only
KB_TEXT = (
    PREFIXES
    + """
ex:c1 a aida:SameAsCluster ; aida:prototype ex:p1 .
ex:p1 a aida:Entity ; aida:informativeJustification ex:j1 .
ex:m1 a aida:Entity ; aida:hasName "Acme \\"Corp\\" }" .
[] a aida:ClusterMembership ; aida:cluster ex:c1 ; aida:clusterMember ex:m1 ; aida:confidence ex:cv .
ex:j1 a aida:TextJustification ; aida:source "E1" ; aida:sourceDocument "D1" ;
      aida:startOffset 3 ; aida:endOffsetInclusive 9 ; aida:confidence ex:cv .
ex:cv a aida:Confidence ; aida:confidenceValue 1.0e0 .
"""
)


@pytest.fixture
def kb_store(tmp_path: Path) -> KB:
    path = tmp_path / "kb.ttl"
    path.write_text(KB_TEXT, encoding="utf-8")
    return load_kb(path)


def test_entry_point_is_bound_as_a_literal_not_pasted(kb_store: KB) -> None:
    table = run_table(kb_store, "AIDA_P3_TA2_P0002", query_link_target='Acme "Corp" }')
    assert [r["?mention_span"] for _, r in table.records()] == ["D1:E1:(3,0)-(9,0)"]
    hostile = 'x" ) } SELECT * WHERE { ?s ?p ?o } #'
    assert run_table(kb_store, "AIDA_P3_TA2_P0002", query_link_target=hostile).rows == ()


def test_entry_points_give_one_run_each(kb_store: KB) -> None:
    table = run_table(kb_store, "AIDA_P3_TA2_P0002", query_link_target=["nobody", 'Acme "Corp" }'])
    assert len(table.rows) == 1


def test_table_parameters_are_checked(kb_store: KB) -> None:
    assert parameters("AIDA_P3_TA2_P0001") == {"query_link_target": "kb_id"}
    assert parameters("AIDA_P3_TA2_P0002") == {"query_link_target": "name"}
    with pytest.raises(UsageError, match="needs a value"):
        run_table(kb_store, "AIDA_P3_TA2_P0001")
    with pytest.raises(UsageError, match="takes no parameter"):
        run_table(kb_store, "AIDA_P3_TA1_CM_A0001", query_link_target="Q1")
    with pytest.raises(UsageError, match="unknown table"):
        run_table(kb_store, "AIDA_P3_TA9_XX")


def test_user_query_runs_and_service_is_refused(kb_store: KB) -> None:
    table = run_sparql(kb_store, f"PREFIX aida: <{AIDA}> SELECT ?n WHERE {{ ?m aida:hasName ?n }}")
    assert table.columns == ("?n",) and table.rows == ((2, ('"Acme \\"Corp\\" }"',)),)
    with pytest.raises(UsageError, match="SERVICE"):
        run_sparql(kb_store, "SELECT * WHERE { service <http://example.org/sparql> { ?s ?p ?o } }")
    # the word inside a string, an IRI or a comment is no federated query
    quiet = 'SELECT * WHERE { ?s ?p "SERVICE" . ?s ?p <http://x/SERVICE> } # SERVICE'
    assert run_sparql(kb_store, quiet).rows == ()
    with pytest.raises(UsageError, match="only SELECT"):
        run_sparql(kb_store, "ASK { ?s ?p ?o }")
    with pytest.raises(UsageError, match="syntax error"):
        run_sparql(kb_store, "SELECT WHERE")


def test_store_reads_gz_and_n_triples(tmp_path: Path) -> None:
    triple = '<http://example.org/s> <http://example.org/p> "o" .\n'
    (tmp_path / "a.nt").write_text(triple, encoding="utf-8")
    (tmp_path / "b.ttl.gz").write_bytes(gzip.compress(triple.encode()))
    assert len(load_kb(tmp_path / "a.nt")) == len(load_kb(tmp_path / "b.ttl.gz")) == 1


def test_store_syntax_error_has_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "bad.ttl"
    path.write_text(PREFIXES + 'ex:a ex:b ex:c .\nex:d ex:e "unclosed .\n', encoding="utf-8")
    with pytest.raises(InputError) as caught:
        load_kb(path)
    assert (caught.value.path, caught.value.line) == (str(path), 4)
    assert caught.value.column is not None and "\n" not in str(caught.value)


def test_store_refuses_a_file_without_triples(tmp_path: Path) -> None:
    path = tmp_path / "prefixes.ttl"
    path.write_text(PREFIXES, encoding="utf-8")
    with pytest.raises(InputError, match="no RDF triples"):
        load_kb(path)


def test_layout_is_flat_for_distinct_names_and_mirrors_folders_on_a_clash(tmp_path: Path) -> None:
    for folder in ("run/Condition5/Q1", "run/Condition6/T1"):
        (tmp_path / folder).mkdir(parents=True)
        (tmp_path / folder / "frame.ttl").write_text(KB_TEXT, encoding="utf-8")
    (tmp_path / "run" / "other.ttl").write_text(KB_TEXT, encoding="utf-8")
    clash = [tmp_path / "run/Condition5/Q1/frame.ttl", tmp_path / "run/Condition6/T1/frame.ttl"]
    result = write_nist_layout(clash, "ta3", tmp_path / "out")
    assert {p.parent.relative_to(tmp_path / "out") for p in result.written} == {
        Path("Condition5/Q1/frame.ttl"),
        Path("Condition6/T1/frame.ttl"),
    }
    flat = write_nist_layout([clash[0], tmp_path / "run/other.ttl"], "ta1", tmp_path / "flat")
    assert {p.relative_to(tmp_path / "flat").parts[0] for p in flat.written} == {"frame.ttl", "other.ttl"}
    assert len(flat.written) == 6 and not flat.errors


def test_layout_goes_on_past_an_unreadable_input_and_skips_ta2_tables_without_entry_points(
    tmp_path: Path,
) -> None:
    good = tmp_path / "kb.ttl"
    good.write_text(KB_TEXT, encoding="utf-8")
    result = write_nist_layout([tmp_path / "missing.ttl", good], "ta2", tmp_path / "out", EntryPoints(name=("x",)))
    assert [e.path for e in result.errors] == [str(tmp_path / "missing.ttl")]
    assert [p.name for p in result.written] == ["AIDA_P3_TA2_P0002.rq.tsv"]


# Literals that NIST's tool must quote, one in some column of every NIST table. Each expected
# cell is the literal's text with " \ tab newline written \" \\ \t \n, in double quotes (a string
# with none of those, and no number-like text, prints bare); a language tag or a datatype other
# than xsd:string follows the closing quote, as in SPARQL's TSV.
TA1_TA2_KB = (
    PREFIXES
    + """
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .
ex:c1 a aida:SameAsCluster ; aida:prototype ex:p1 .
ex:p1 a aida:Entity ; aida:informativeJustification ex:j1 ;
      aida:link [ a aida:LinkAssertion ; aida:linkTarget "REFKB:\\\\m.01" ; aida:confidence ex:cv ] .
ex:m1 a aida:Entity ; aida:hasName "Acme \\"Corp\\"" .
[] a aida:ClusterMembership ; aida:cluster ex:c1 ; aida:clusterMember ex:m1 ; aida:confidence ex:cv .
ex:cv a aida:Confidence ; aida:confidenceValue "1.0"^^xsd:double .
[] a rdf:Statement ; rdf:subject ex:m1 ; rdf:predicate rdf:type ; rdf:object "Q5 \\"company\\"" ;
   aida:justifiedBy ex:j1 .
[] a rdf:Statement ; rdf:subject ex:m1 ; rdf:predicate rdf:type ; rdf:object "Q6"@en ; aida:justifiedBy ex:j1 .
ex:j1 a aida:TextJustification ; aida:source "E1" ; aida:sourceDocument "D1" ;
      aida:startOffset 3 ; aida:endOffsetInclusive 9 ; aida:confidence ex:cv .
ex:c2 a aida:SameAsCluster ; aida:prototype ex:p2 .
ex:p2 a aida:Event ; aida:ldcTime [ a aida:LDCTime ;
      aida:start [ a aida:LDCTimeComponent ; aida:timeType "AFTER" ; aida:year "20\\t20"^^xsd:gYear ] ,
                 [ a aida:LDCTimeComponent ; aida:timeType "BEFORE" ] ;
      aida:end [ a aida:LDCTimeComponent ; aida:timeType "AFTER" ] ,
                [ a aida:LDCTimeComponent ; aida:timeType "BEFORE" ] ] .
[] a aida:ClusterMembership ; aida:cluster ex:c2 ; aida:clusterMember ex:p2 .
[] a rdf:Statement ; rdf:subject ex:p2 ; rdf:predicate rdf:type ; rdf:object "Q7"^^ex:qnode ; aida:justifiedBy ex:j1 .
[] a aida:ArgumentStatement ; rdf:subject ex:p2 ; rdf:predicate "A0_pag_\\"agent\\"" ; rdf:object ex:p1 ;
   aida:justifiedBy [ a aida:CompoundJustification ; aida:containedJustification ex:j1 ] .
"""
)

TA3_KB = (
    PREFIXES
    + """
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .
ex:claim a aida:Claim ; aida:sourceDocument "D1" ; aida:claimId "CLAIM1" ;
    aida:topic "Covid-19\\torigin" ; aida:subtopic "line 1\\nline 2" ; aida:claimTemplate "X said \\\\o/" ;
    aida:naturalLanguageDescription
    "Romanoff claims Covid-19 was \\"Chinese-specific\\" and did not infect peoples of other """
    + """origins and racial backgrounds" ;
    aida:epistemic aida:EpistemicTrueCertain ; aida:sentiment aida:SentimentNegative ;
    aida:claimer [ a aida:ClaimComponent ; aida:componentName "Romanoff, \\"the\\" expert" ;
                   aida:componentIdentity "Q1" ; aida:componentType "Q5" ;
                   aida:componentProvenance "said:\\t\\"yes\\"" ] ;
    aida:claimDateTime [ a aida:LDCTime ;
        aida:start [ a aida:LDCTimeComponent ; aida:timeType "AFTER" ; aida:year "2\\"020"^^xsd:gYear ] ,
                   [ a aida:LDCTimeComponent ; aida:timeType "BEFORE" ] ;
        aida:end [ a aida:LDCTimeComponent ; aida:timeType "AFTER" ] ,
                 [ a aida:LDCTimeComponent ; aida:timeType "BEFORE" ] ] ;
    aida:associatedKEs ex:c2 ; aida:claimSemantics ex:c2 .
ex:c1 a aida:SameAsCluster ; aida:prototype ex:p1 .
ex:p1 a aida:Entity ; aida:handle "the \\"lab\\"" ; aida:informativeJustification ex:j1 .
[] a rdf:Statement ; rdf:subject ex:p1 ; rdf:predicate rdf:type ; rdf:object "Q3\\\\1" .
ex:c2 a aida:SameAsCluster ; aida:prototype ex:p2 .
ex:p2 a aida:Event ; aida:informativeJustification ex:j1 ; aida:ldcTime [ a aida:LDCTime ;
      aida:start [ a aida:LDCTimeComponent ; aida:timeType "AFTER" ; aida:month "--0\\n3"^^xsd:gMonth ] ,
                 [ a aida:LDCTimeComponent ; aida:timeType "BEFORE" ] ;
      aida:end [ a aida:LDCTimeComponent ; aida:timeType "AFTER" ] ,
                [ a aida:LDCTimeComponent ; aida:timeType "BEFORE" ] ] .
[] a rdf:Statement ; rdf:subject ex:p2 ; rdf:predicate rdf:type ; rdf:object "Q4"@en .
ex:c3 a aida:SameAsCluster ; aida:prototype ex:p3 .
ex:p3 a aida:Event ; aida:handle "fever\\tand cough" ; aida:informativeJustification ex:j1 .
[] a rdf:Statement ; rdf:subject ex:p3 ; rdf:predicate rdf:type ; rdf:object "Q8" .
[] a aida:ArgumentStatement ; rdf:subject ex:p2 ; rdf:predicate "A1_ppt_\\"theme\\"" ; rdf:object ex:p1 ;
   aida:justifiedBy [ a aida:CompoundJustification ; aida:containedJustification ex:j1 ; aida:confidence ex:cv ] .
[] a aida:ArgumentStatement ; rdf:subject ex:p2 ; rdf:predicate "A2_ppt\\\\cause" ; rdf:object ex:p3 .
ex:j1 a aida:TextJustification ; aida:source "E1" ; aida:sourceDocument "D1" ;
      aida:startOffset 3 ; aida:endOffsetInclusive 9 ; aida:confidence ex:cv .
ex:cv a aida:Confidence ; aida:confidenceValue "1.0"^^xsd:double .
"""
)

# table -> (column, printed cell) pairs that must be among its rows, and the entry point it takes
QUOTED_CELLS = {
    "AIDA_P3_TA1_CM_A0001": ({"type": ['"Q5 \\"company\\""', '"Q6"@en', '"Q7"^^<http://example.org/qnode>']}, None),
    "AIDA_P3_TA1_AM_A0001": ({"predicate": ['"A0_pag_\\"agent\\""']}, None),
    "AIDA_P3_TA1_TM_A0001": ({"sa_year": ['"20\\t20"']}, None),
    "AIDA_P3_TA2_P0001": (
        {"query_link_target": ['"REFKB:\\\\m.01"'], "link_target": ['"REFKB:\\\\m.01"']},
        "REFKB:\\m.01",
    ),
    "AIDA_P3_TA2_P0002": (
        {"query_link_target": ['"Acme \\"Corp\\""'], "link_target": ['"Acme \\"Corp\\""']},
        'Acme "Corp"',
    ),
    "AIDA_P3_TA3_OC_0001": (
        {
            "topic": ['"Covid-19\\torigin"'],
            "subtopic": ['"line 1\\nline 2"'],
            "claim_template": ['"X said \\\\o/"'],
            "description": [
                '"Romanoff claims Covid-19 was \\"Chinese-specific\\" and did not infect peoples of other '
                'origins and racial backgrounds"'
            ],
        },
        None,
    ),
    "AIDA_P3_TA3_CC_0001": ({"name": ['"Romanoff, \\"the\\" expert"'], "provenance": ['"said:\\t\\"yes\\""']}, None),
    "AIDA_P3_TA3_CT_0001": ({"sa_year": ['"2\\"020"']}, None),
    "AIDA_P3_TA3_TM_0001": ({"sa_month": ['"0\\n3"']}, None),
    "AIDA_P3_TA3_GR_0001A": (
        {
            "edge_type": ['"A1_ppt_\\"theme\\""'],
            "objectc_handle": ['"the \\"lab\\""'],
            "object_type": ['"Q3\\\\1"'],
            "subject_type": ['"Q4"@en'],
        },
        None,
    ),
    "AIDA_P3_TA3_GR_0001B": ({"edge_type": ['"A2_ppt\\\\cause"'], "objectc_handle": ['"fever\\tand cough"']}, None),
}


@pytest.mark.parametrize("table", sorted(QUOTED_CELLS))
def test_literals_to_quote_print_quoted_in_every_nist_table(table: str, tmp_path: Path) -> None:
    path = tmp_path / "kb.ttl"
    path.write_text(TA3_KB if "_TA3_" in table else TA1_TA2_KB, encoding="utf-8")
    cells, entry_point = QUOTED_CELLS[table]
    params = {"query_link_target": entry_point} if entry_point is not None else {}
    records = [record for _, record in run_table(load_kb(path), table, **params).records()]
    for column, printed in cells.items():
        found = {r[f"?{column}"] for r in records}
        assert set(printed) <= found, (column, sorted(found))


def test_every_nist_table_prints_a_literal_to_quote() -> None:
    assert set(QUOTED_CELLS) == set(table_names("ta1") + table_names("ta2") + table_names("ta3"))


@pytest.mark.parametrize("task", ["ta1", "ta3"])
def test_the_nist_layout_is_nist_s_output_row_for_row(shared_data: Path, tmp_path: Path, task: str) -> None:
    """The layout's files, loaded without line marks for TA1 (its tables are sorted) and with them
    for TA3 (its graph tables of March 2022 follow the lines of the frame): NIST's files, rows in
    NIST's order (NIST's TA3 files were made with the query set march-2022)."""
    root = shared_data / f"task{task[-1]}-expected"
    expected_folders = sorted(root.glob("*.ttl" if task == "ta1" else "*/*/*.ttl"))
    inputs = [shared_data / f"task{task[-1]}-run" / f.relative_to(root) for f in expected_folders]
    result = write_nist_layout(inputs, task, tmp_path, query_set="march-2022" if task == "ta3" else "tag")
    assert not result.errors
    compared = 0
    for folder in expected_folders:
        for expected in sorted(folder.glob("*.rq.tsv")):
            written = tmp_path / folder.relative_to(root) / expected.name
            assert written.read_text(encoding="utf-8") == expected.read_text(encoding="utf-8"), written
            compared += 1
    assert compared == len(expected_folders) * (3 if task == "ta1" else 6)
