"""The names the README promises at the top of the package."""

from __future__ import annotations

import logging
import subprocess
import sys
import warnings

import pyoxigraph
import pytest
import rdflib
from helpers import FIXTURES, ROOT, TEST_DATA

import aifcheck


def test_load_reads_a_kb_into_objects() -> None:
    kg = aifcheck.load(ROOT / "examples" / "valid" / "document-kb.ttl")
    assert isinstance(kg, aifcheck.KnowledgeGraph)
    closing = kg.cluster("http://example.org/doc1#cluster-closing")
    assert closing.metatype is aifcheck.Metatype.EVENT
    assert [m.span.document for m in closing.mentions] == ["DOC1"]


def test_claims_reads_every_frame_of_a_directory() -> None:
    found = aifcheck.claims(TEST_DATA / "submission")
    assert found and all(isinstance(c, aifcheck.Claim) for c in found)
    assert all(c.source.endswith(f"{c.claim_id}.ttl") for c in found)
    assert any(isinstance(c.date_time, aifcheck.LDCTime) and c.date_time.cluster is None for c in found)


def test_every_name_of_the_api_is_what_it_says_whatever_was_imported_before() -> None:
    # The API is imported on first use; a submodule of the same name must not take its place.
    code = (
        "import importlib, inspect, aifcheck\n"
        "for module in ('cli', 'loading', 'loading.kb', 'validation', 'validation.run', 'validation.report',\n"
        "               'validation.catalog', 'extract', 'extract.claims', 'extract.kg', 'extract.model', 'score',\n"
        "               'render', 'spread', 'errors'):\n"
        "    importlib.import_module('aifcheck.' + module)\n"
        "bad = [n for n in aifcheck.__all__ if inspect.ismodule(getattr(aifcheck, n))]\n"
        "assert not bad, bad\n"
        "assert sorted(aifcheck.__all__) == sorted(set(aifcheck.__all__))\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_validate_reports_an_ill_typed_literal_without_rdflib_noise(engine: str, tmp_path, caplog) -> None:
    path = tmp_path / "kb.ttl"
    path.write_text(
        "@prefix aida: <https://raw.githubusercontent.com/NextCenturyCorporation/AIDA-Interchange-Format/master/"
        "java/src/main/resources/com/ncc/aif/ontologies/InterchangeOntology#> .\n"
        "@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .\n"
        '<http://example.org/c> a aida:Confidence ; aida:confidenceValue "high"^^xsd:double .\n',
        encoding="utf-8",
    )
    level = logging.getLogger("rdflib").level
    with warnings.catch_warnings(record=True) as warned:
        warnings.simplefilter("always")
        report = aifcheck.validate(path, engine=engine)
    assert [v.rule_id for v in report.violations] == ["A2"]
    # rdflib would log a traceback, and warn, for "high"^^xsd:double
    assert [r.name for r in caplog.records if r.name.startswith("rdflib")] == []
    assert [str(w.message) for w in warned if "rdflib" in w.filename] == []
    assert logging.getLogger("rdflib").level == level  # the API leaves the caller's logging as it was


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_an_rdflib_graph_is_validated_like_its_file(engine: str) -> None:
    path = FIXTURES / "N4" / "bad.ttl"
    from_file = aifcheck.validate(path, engine=engine, min_severity="info")
    from_graph = aifcheck.validate(rdflib.Graph().parse(path), engine=engine, min_severity="info")
    assert from_file.violations and all(v.line > 0 for v in from_file.violations)
    assert {(v.rule_id, v.focus) for v in from_graph.violations} == {(v.rule_id, v.focus) for v in from_file.violations}
    assert {v.line for v in from_graph.violations} == {0}  # a graph has no text, so no lines


def test_load_kb_answers_where_a_node_is() -> None:
    with aifcheck.load_kb(ROOT / "examples" / "valid" / "document-kb.ttl") as kb:
        text = (ROOT / "examples" / "valid" / "document-kb.ttl").read_text().splitlines()
        line = kb.line_of(pyoxigraph.NamedNode("http://example.org/doc1#cluster-closing"))
        assert text[line - 1].startswith("ex:cluster-closing ")
