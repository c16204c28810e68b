"""The ``aifcheck query`` command, driven through typer's CliRunner on aifcheck's app."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import ROOT
from typer.testing import CliRunner, Result

from aifcheck.cli import application

app = application()

AIDA = (
    "https://raw.githubusercontent.com/NextCenturyCorporation/AIDA-Interchange-Format/master/"
    "java/src/main/resources/com/ncc/aif/ontologies/InterchangeOntology#"
)
# NIST's TA2 queries take a link, a membership and a justification with a confidence only
KB = f"""@prefix aida: <{AIDA}> .
@prefix ex: <http://example.org/> .
ex:c1 a aida:SameAsCluster ; aida:prototype ex:p1 .
ex:p1 a aida:Entity ; aida:informativeJustification ex:j1 ;
      aida:link [ a aida:LinkAssertion ; aida:linkTarget "Q42" ; aida:confidence ex:cv ] .
ex:m1 a aida:Entity ; aida:hasName "Ada" .
[] a aida:ClusterMembership ; aida:cluster ex:c1 ; aida:clusterMember ex:m1 ; aida:confidence ex:cv .
ex:j1 a aida:TextJustification ; aida:source "E1" ; aida:sourceDocument "D1" ;
      aida:startOffset 3 ; aida:endOffsetInclusive 9 ; aida:confidence ex:cv .
ex:cv a aida:Confidence ; aida:confidenceValue 1.0e0 .
"""
P0001_ROW = 'D1\tQ42\tQ42\t<http://example.org/c1>\tD1:E1:(3,0)-(9,0)\t"1.0"\t"1.0"'


def _run(*args: str | Path) -> Result:
    return CliRunner().invoke(app, ["query", *map(str, args)])


@pytest.fixture
def kb(tmp_path: Path) -> Path:
    path = tmp_path / "kb.ttl"
    path.write_text(KB, encoding="utf-8")
    return path


def _assert_one_line_error(result: Result, code: int, needle: str) -> None:
    assert result.exit_code == code, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and needle in lines[0], result.stderr
    assert "Traceback" not in result.output


def test_table_to_stdout_with_a_kb_id(kb: Path) -> None:
    result = _run(kb, "--table", "AIDA_P3_TA2_P0001", "--kb-id", "Q42")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[1:] == [P0001_ROW]


def test_table_to_a_file_with_entry_points_from_a_file(kb: Path, tmp_path: Path) -> None:
    points = tmp_path / "entry_points.tsv"
    points.write_text("# TA2 queries\nname\tAda\nkb_id\tQ42\n", encoding="utf-8")
    out = tmp_path / "p2.tsv"
    result = _run(kb, "--table", "AIDA_P3_TA2_P0002", "--entry-points", points, "-o", out)
    assert result.exit_code == 0, result.output
    assert out.read_text(encoding="utf-8").splitlines()[1].startswith("D1\tAda\tAda\t")


def test_task_writes_the_nist_layout(kb: Path, tmp_path: Path) -> None:
    result = _run(kb, "--task", "ta1", "--nist-layout", "-o", tmp_path / "out")
    assert result.exit_code == 0, result.output
    written = sorted(p.name for p in (tmp_path / "out" / "kb.ttl").iterdir())
    assert written == ["AIDA_P3_TA1_AM_A0001.rq.tsv", "AIDA_P3_TA1_CM_A0001.rq.tsv", "AIDA_P3_TA1_TM_A0001.rq.tsv"]


def test_jobs_write_the_same_layout(kb: Path, tmp_path: Path) -> None:
    inputs = [ROOT / "examples" / "valid" / "document-kb.ttl", kb]
    outputs = {}
    for jobs in ("1", "2"):
        result = _run(*inputs, "--task", "ta1", "--nist-layout", "-o", tmp_path / jobs, "--jobs", jobs)
        assert result.exit_code == 0, result.stderr
        outputs[jobs] = {p.relative_to(tmp_path / jobs): p.read_text() for p in (tmp_path / jobs).rglob("*.tsv")}
    assert len(outputs["1"]) == 6 and outputs["1"] == outputs["2"]
    broken = tmp_path / "broken.ttl"
    broken.write_text("@prefix", encoding="utf-8")
    for jobs in ("1", "2"):  # a stage's output is written whole or not at all: nothing, when an input is unreadable
        result = _run(*inputs, broken, "--task", "ta1", "--nist-layout", "-o", tmp_path / f"b{jobs}", "--jobs", jobs)
        assert result.exit_code == 3 and "broken.ttl:1:" in result.stderr and not (tmp_path / f"b{jobs}").exists()


def test_sparql_file(kb: Path, tmp_path: Path) -> None:
    query = tmp_path / "names.rq"
    query.write_text(f"PREFIX aida: <{AIDA}>\nSELECT ?name WHERE {{ ?m aida:hasName ?name }}\n", encoding="utf-8")
    result = _run(kb, "--sparql", query)
    assert result.exit_code == 0, result.output
    assert result.stdout == "?name\nAda\n"


def test_service_is_a_usage_error(kb: Path, tmp_path: Path) -> None:
    query = tmp_path / "remote.rq"
    query.write_text("SELECT * WHERE { SERVICE <http://example.org/sparql> { ?s ?p ?o } }\n", encoding="utf-8")
    _assert_one_line_error(_run(kb, "--sparql", query), 2, "SERVICE")


def test_unknown_table_is_a_usage_error(kb: Path) -> None:
    _assert_one_line_error(_run(kb, "--table", "AIDA_P3_TA1_XX"), 2, "unknown table")


@pytest.mark.parametrize(
    "options",
    [
        ["--task", "ta1"],
        ["--table", "AIDA_P3_TA1_CM_A0001", "--task", "ta1", "--nist-layout", "-o", "out"],
        ["--table", "AIDA_P3_TA2_P0001"],
    ],
    ids=["task-without-layout", "table-and-task", "ta2-without-entry-point"],
)
def test_bad_option_combinations_are_usage_errors(kb: Path, options: list[str]) -> None:
    _assert_one_line_error(_run(kb, *options), 2, "error:")


def test_missing_file_exits_3_and_the_other_files_are_still_processed(kb: Path, tmp_path: Path) -> None:
    result = _run(tmp_path / "missing.ttl", kb, "--table", "AIDA_P3_TA2_P0001", "--kb-id", "Q42")
    _assert_one_line_error(result, 3, "missing.ttl: no such file")
    assert result.stdout.splitlines()[1:] == [P0001_ROW]


def test_bad_turtle_exits_3_with_its_position(kb: Path, tmp_path: Path) -> None:
    bad = tmp_path / "bad.ttl"
    bad.write_text("@prefix ex: <http://example.org/> .\nex:a ex:b .\n", encoding="utf-8")
    result = _run(bad, kb, "--table", "AIDA_P3_TA2_P0001", "--kb-id", "Q42")
    _assert_one_line_error(result, 3, f"{bad}:2:")
    assert P0001_ROW in result.stdout


def test_rows_of_several_files_share_one_header(kb: Path, tmp_path: Path) -> None:
    other = tmp_path / "other.ttl"
    other.write_text(KB.replace('"D1"', '"D2"'), encoding="utf-8")
    result = _run(kb, other, "--table", "AIDA_P3_TA2_P0001", "--kb-id", "Q42")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("?docid") and [line[:2] for line in lines[1:]] == ["D1", "D2"]
