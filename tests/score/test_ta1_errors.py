"""Bad input: one clear line naming the file (and row), validate's exit codes, no traceback."""
from __future__ import annotations

import json
import shutil

from ta1_example import EXAMPLE
from typer.testing import CliRunner

from aifcheck.cli import application

app = application()

runner = CliRunner()


def invoke(run, gold, aux, out, *extra):
    return runner.invoke(app, ["score", "ta1", str(run), "--gold", str(gold), "--aux", str(aux), "-o", str(out), *extra])


def test_scores_the_example_run(ta1_data, tmp_path):
    result = invoke(EXAMPLE / "SPARQL-output", ta1_data / "ta1-gold-tsv", ta1_data / "ta1-scoring/AUX-data", tmp_path / "out", "--run-id", "example-task1-run")
    assert result.exit_code == 0
    frame = next(line for line in result.stdout.splitlines() if line.startswith("FrameMetric"))
    expected = json.loads((EXAMPLE / "results.json").read_text())["scores"][0]
    assert frame.split()[1:] == [str(expected[k]) for k in ("FrameMetric_S", "FrameMetric_ENG_S", "FrameMetric_RUS_S", "FrameMetric_SPA_S")]


def test_missing_gold_folder_is_a_usage_error(ta1_data, tmp_path):
    result = invoke(EXAMPLE / "SPARQL-output", tmp_path / "nowhere", ta1_data / "ta1-scoring/AUX-data", tmp_path / "out")
    assert result.exit_code == 2 and "--gold" in result.output and "Traceback" not in result.output


def test_gold_without_a_scored_document(sparql_copy, ta1_data, tmp_path):
    gold = tmp_path / "gold"
    shutil.copytree(ta1_data / "ta1-gold-tsv", gold)
    (gold / "L0C04960U.ttl" / "AIDA_P3_TA1_TM_A0001.rq.tsv").unlink()
    result = invoke(sparql_copy, gold, ta1_data / "ta1-scoring/AUX-data", tmp_path / "out")
    assert result.exit_code == 2 and "L0C04960U.ttl" in result.output


def test_aux_without_core_documents(sparql_copy, ta1_data, tmp_path):
    aux = tmp_path / "aux"
    shutil.copytree(ta1_data / "ta1-scoring/AUX-data", aux)
    (aux / "LDC2021E11.coredocs-xx.txt").unlink()
    result = invoke(sparql_copy, ta1_data / "ta1-gold-tsv", aux, tmp_path / "out")
    assert result.exit_code == 3 and "coredocs-xx.txt" in result.output and "Traceback" not in result.output


def test_table_with_wrong_columns(sparql_copy, ta1_data, tmp_path):
    path = sparql_copy / "L0C04960U.ttl" / "AIDA_P3_TA1_AM_A0001.rq.tsv"
    path.write_text(path.read_text().replace("?predicate\t", "?role\t", 1))
    result = invoke(sparql_copy, ta1_data / "ta1-gold-tsv", ta1_data / "ta1-scoring/AUX-data", tmp_path / "out")
    assert result.exit_code == 3 and "AIDA_P3_TA1_AM_A0001.rq.tsv:1:" in result.output


def test_row_with_too_few_cells(sparql_copy, ta1_data, tmp_path):
    path = sparql_copy / "L0C0499MZ.ttl" / "AIDA_P3_TA1_TM_A0001.rq.tsv"
    lines = path.read_text().splitlines()
    lines[3] = "\t".join(lines[3].split("\t")[:5])
    path.write_text("\n".join(lines) + "\n")
    result = invoke(sparql_copy, ta1_data / "ta1-gold-tsv", ta1_data / "ta1-scoring/AUX-data", tmp_path / "out")
    assert result.exit_code == 3 and "AIDA_P3_TA1_TM_A0001.rq.tsv:4:" in result.output


def set_cell(path, line, column, value):
    """Give a cell of a table file (line 2 is the first row) another value."""
    lines = path.read_text().splitlines()
    cells = lines[line - 1].split("\t")
    cells[column] = value
    lines[line - 1] = "\t".join(cells)
    path.write_text("\n".join(lines) + "\n")


def test_qnode_absent_from_the_similarity_table_is_named(sparql_copy, ta1_data, tmp_path):
    set_cell(sparql_copy / "L0C04960U.ttl" / "AIDA_P3_TA1_CM_A0001.rq.tsv", 2, 2, "Q999999999")
    result = invoke(sparql_copy, ta1_data / "ta1-gold-tsv", ta1_data / "ta1-scoring/AUX-data", tmp_path / "out")
    assert result.exit_code == 0
    assert "AIDA_P3_TA1_CM_A0001.rq.tsv:2: type Q999999999 is not in the type similarity table" in result.output


def test_nothing_to_score(ta1_data, tmp_path):
    run = tmp_path / "run"
    run.mkdir()
    shutil.copy(ta1_data / "task1-run" / "L0C04936H.ttl", run)  # not a core document
    out = tmp_path / "out"
    result = invoke(run, ta1_data / "ta1-gold-tsv", ta1_data / "ta1-scoring/AUX-data", out)
    assert result.exit_code == 1
    assert "L0C04936H.ttl: not a core document" in result.output
    results = json.loads((out / "results.json").read_text())["scores"][0]
    assert results["Errors"] == 1 and results["Total"] == 0 and results["ErrorStats"] == {"NOTHING_TO_SCORE": 1}


def test_bad_type_similarity_value(sparql_copy, ta1_data, tmp_path):
    table = tmp_path / "similarity.tsv"
    table.write_text("q1\tq2\tsimilarity\nQ1\tQ2\thigh\n")
    result = invoke(sparql_copy, ta1_data / "ta1-gold-tsv", ta1_data / "ta1-scoring/AUX-data", tmp_path / "out", "--type-similarity", str(table))
    assert result.exit_code == 3 and f"{table}:2:" in result.output


def test_the_error_reported_is_the_one_nist_s_stage_order_meets_first(sparql_copy, ta1_data, tmp_path):
    # Each document goes through all stages in one task; NIST runs each stage over every document
    # first. A span NIST cannot read (validation) in the first document, and a table with wrong
    # columns (reading) in a later one: NIST stops on the later document, while reading.
    set_cell(sparql_copy / "L0C04960U.ttl" / "AIDA_P3_TA1_CM_A0001.rq.tsv", 2, 3, "not-a-span")
    am = sparql_copy / "L0C0499MZ.ttl" / "AIDA_P3_TA1_AM_A0001.rq.tsv"
    am.write_text(am.read_text().replace("?predicate\t", "?role\t", 1))
    for jobs in ("1", "2"):
        result = invoke(sparql_copy, ta1_data / "ta1-gold-tsv", ta1_data / "ta1-scoring/AUX-data", tmp_path / f"out{jobs}", "--jobs", jobs)
        assert result.exit_code == 3 and "L0C0499MZ.ttl/AIDA_P3_TA1_AM_A0001.rq.tsv:1:" in result.output, result.output
    am.write_text(am.read_text().replace("?role\t", "?predicate\t", 1))  # the span alone is then the error
    result = invoke(sparql_copy, ta1_data / "ta1-gold-tsv", ta1_data / "ta1-scoring/AUX-data", tmp_path / "out3", "--jobs", "2")
    assert result.exit_code == 3 and "L0C04960U.ttl/AIDA_P3_TA1_CM_A0001.rq.tsv:2: mention span 'not-a-span'" in result.output, result.output
