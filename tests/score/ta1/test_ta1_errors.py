"""Bad input: one clear line naming the file (and row), validate's exit codes, no traceback."""

from __future__ import annotations

import json
import re
import shutil

from helpers import TYPE_TABLES
from ta1_example import EXAMPLE
from typer.testing import CliRunner

from aifcheck.cli import application

app = application()

runner = CliRunner()


def invoke(run, gold, aux, out, *extra):
    return runner.invoke(
        app, ["score", "ta1", str(run), "--gold", str(gold), "--aux", str(aux), "-o", str(out), *TYPE_TABLES, *extra]
    )


def test_scores_the_example_run(ta1_data, tmp_path):
    result = invoke(
        EXAMPLE / "SPARQL-output",
        ta1_data / "ta1-gold-tsv",
        ta1_data / "ta1-scoring/AUX-data",
        tmp_path / "out",
        "--run-id",
        "example-task1-run",
    )
    assert result.exit_code == 0
    frame = next(line for line in result.stdout.splitlines() if line.startswith("FrameMetric"))
    expected = json.loads((EXAMPLE / "results.json").read_text())["scores"][0]
    assert frame.split()[1:] == [
        str(expected[k]) for k in ("FrameMetric_S", "FrameMetric_ENG_S", "FrameMetric_RUS_S", "FrameMetric_SPA_S")
    ]


def test_missing_gold_folder_is_an_input_that_cannot_be_read(ta1_data, tmp_path):
    result = invoke(
        EXAMPLE / "SPARQL-output", tmp_path / "nowhere", ta1_data / "ta1-scoring/AUX-data", tmp_path / "out"
    )
    assert result.exit_code == 3 and "nowhere: no such file or directory" in result.output
    assert "Traceback" not in result.output


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


def _results(out):
    return json.loads((out / "results.json").read_text())["scores"][0]


def _nothing_scored(out, errors, stats):
    """NIST's driver stopped early: results.json from run.log alone, every metric the integer 0."""
    results = _results(out)
    assert (results["Errors"], results["ErrorStats"], results["FatalError"]) == (errors, stats, "Yes")
    assert results["Total"] == 0 and results["FrameMetric_ENG_S"] == 0 and results["CoreferenceMetric_F1"] == 0
    assert sorted(p.name for p in (out / "logs").iterdir()) == ["run.log"] and not (out / "scores").exists()
    return (out / "logs" / "run.log").read_text()


def test_a_run_of_kbs_none_core(ta1_data, tmp_path):
    # NIST's driver copies no KB to its SPARQL stage; its later stages stop before they log
    run = tmp_path / "run"
    run.mkdir()
    shutil.copy(ta1_data / "task1-run" / "L0C04936H.ttl", run)  # not a core document
    out = tmp_path / "out"
    result = invoke(run, ta1_data / "ta1-gold-tsv", ta1_data / "ta1-scoring/AUX-data", out)
    assert result.exit_code == 3 and "L0C04936H.ttl: not a core document" in result.output
    assert (
        "no valid KB of a core document (LDC2021E11.coredocs-xx.txt): NIST's stages after its SPARQL stage stop: "
        "nothing scored" in result.output
    )
    log = _nothing_scored(out, 0, {})
    assert (
        "KB_STATS - Input directory contains 1 KBs in total. (valid 1, invalid 0)" in log
        and "NOTHING_TO_SCORE" not in log
    )


def test_an_empty_run_has_nothing_to_score(ta1_data, tmp_path):
    run = tmp_path / "run"
    run.mkdir()
    out = tmp_path / "out"
    result = invoke(run, ta1_data / "ta1-gold-tsv", ta1_data / "ta1-scoring/AUX-data", out)
    assert result.exit_code == 3 and "no valid KB: nothing to score (NIST's NOTHING_TO_SCORE)" in result.output
    log = _nothing_scored(out, 1, {"NO_CLASS_NAME": 1})  # NIST keys a line by the class that logged it
    assert "ERROR - NO_CLASS_NAME - NOTHING_TO_SCORE - Nothing to score." in log and "KB_STATS" not in log


def test_a_run_of_invalid_kbs_has_nothing_to_score(ta1_data, tmp_path):
    run = tmp_path / "run"
    run.mkdir()
    shutil.copy(ta1_data / "task1-run" / "L0C04936H.ttl", run)
    (run / "L0C04936H-report.txt").write_text("invalid\n")
    out = tmp_path / "out"
    assert invoke(run, ta1_data / "ta1-gold-tsv", ta1_data / "ta1-scoring/AUX-data", out).exit_code == 3
    log = _nothing_scored(out, 1, {"NO_CLASS_NAME": 1})
    assert "(valid 0, invalid 1)" in log and "NOTHING_TO_SCORE" in log


def test_a_table_folder_lacking_a_table_stops_as_nist_s_driver_does(sparql_copy, ta1_data, tmp_path):
    (sparql_copy / "L0C0499MZ.ttl" / "AIDA_P3_TA1_CM_A0001.rq.tsv").unlink()
    out = tmp_path / "out"
    result = invoke(sparql_copy, ta1_data / "ta1-gold-tsv", ta1_data / "ta1-scoring/AUX-data", out)
    assert (
        result.exit_code == 3
        and "L0C0499MZ.ttl: no AIDA_P3_TA1_CM_A0001.rq.tsv: NIST's driver stops on it: nothing scored" in result.output
    )
    log = _nothing_scored(out, 1, {"NO_CLASS_NAME": 1})
    assert f"MISSING_OPEN_PERFORMER_FILE - {sparql_copy}/L0C0499MZ.ttl/AIDA_P3_TA1_CM_A0001.rq.tsv is expected" in log


def test_a_table_run_of_no_core_document_scores_the_core_from_gold(sparql_copy, ta1_data, tmp_path):
    # NIST copies the core documents' folders (none) and scores every core document: all misses
    run = tmp_path / "noncore"
    run.mkdir()
    shutil.copytree(sparql_copy / "L0C04960U.ttl", run / "L0C04936H.ttl")  # tables under a non-core name
    out = tmp_path / "out"
    result = invoke(run, ta1_data / "ta1-gold-tsv", ta1_data / "ta1-scoring/AUX-data", out)
    assert result.exit_code == 0, result.output
    results = _results(out)
    assert (
        results["FatalError"] == "No"
        and results["Errors"] == 0
        and len(list((out / "scores").glob("*-scores.tab"))) == 12
    )
    assert "L0C04936H" not in (out / "logs" / "validate-responses.log").read_text()  # never validated
    assert "KB_STATS" not in (out / "logs" / "run.log").read_text()  # logged for a run of KBs only


def test_bad_type_similarity_value(sparql_copy, ta1_data, tmp_path):
    table = tmp_path / "similarity.tsv"
    table.write_text("q1\tq2\tsimilarity\nQ1\tQ2\thigh\n")
    result = invoke(
        sparql_copy,
        ta1_data / "ta1-gold-tsv",
        ta1_data / "ta1-scoring/AUX-data",
        tmp_path / "out",
        "--type-similarity",
        str(table),
    )
    assert result.exit_code == 3 and f"{table}:2:" in result.output


def test_the_error_reported_is_the_one_nist_s_stage_order_meets_first(sparql_copy, ta1_data, tmp_path):
    # Each document goes through all stages in one task; NIST runs each stage over every document
    # first. A span NIST cannot read (validation) in the first document, and a table with wrong
    # columns (reading) in a later one: NIST stops on the later document, while reading.
    set_cell(sparql_copy / "L0C04960U.ttl" / "AIDA_P3_TA1_CM_A0001.rq.tsv", 2, 3, "not-a-span")
    am = sparql_copy / "L0C0499MZ.ttl" / "AIDA_P3_TA1_AM_A0001.rq.tsv"
    am.write_text(am.read_text().replace("?predicate\t", "?role\t", 1))
    for jobs in ("1", "2"):
        result = invoke(
            sparql_copy,
            ta1_data / "ta1-gold-tsv",
            ta1_data / "ta1-scoring/AUX-data",
            tmp_path / f"out{jobs}",
            "--jobs",
            jobs,
        )
        assert result.exit_code == 3 and "L0C0499MZ.ttl/AIDA_P3_TA1_AM_A0001.rq.tsv:1:" in result.output, result.output
    am.write_text(am.read_text().replace("?role\t", "?predicate\t", 1))  # the span alone is then the error
    result = invoke(
        sparql_copy, ta1_data / "ta1-gold-tsv", ta1_data / "ta1-scoring/AUX-data", tmp_path / "out3", "--jobs", "2"
    )
    assert (
        result.exit_code == 3
        and "L0C04960U.ttl/AIDA_P3_TA1_CM_A0001.rq.tsv:2: mention span 'not-a-span'" in result.output
    ), result.output


def test_a_gold_cluster_with_two_temporal_tuples_names_the_second_row(ta1_data, tmp_path):
    gold = tmp_path / "gold"
    shutil.copytree(ta1_data / "ta1-gold-tsv", gold)
    table = gold / "L0C0499MZ.ttl" / "AIDA_P3_TA1_TM_A0001.rq.tsv"
    header, *rows = table.read_text().splitlines()
    table.write_text("\n".join([header, *(line for row in rows for line in (row, row))]) + "\n")  # each row twice
    result = invoke(EXAMPLE / "SPARQL-output", gold, ta1_data / "ta1-scoring/AUX-data", tmp_path / "out")
    found = re.search(
        rf"{re.escape(str(table))}:(\d+): gold cluster (\S+) of L0C0499MZ has 2 temporal tuples", result.output
    )
    assert result.exit_code == 3 and found, result.output
    line, cluster = int(found.group(1)), found.group(2)
    lines = table.read_text().splitlines()
    assert lines[line - 1] == lines[line - 2] and cluster in lines[line - 1]  # the copy: the cluster's second row


def test_a_form_feed_or_line_separator_stays_in_its_cell_as_nist_reads_it(sparql_copy, ta1_data, tmp_path):
    # NIST's clean stage (readlines) and reader (FileHandler) open the table in text mode: only
    # \r\n, \r and \n end a line, so the row keeps its 8 cells (cells-notes/nist_ff/run.py ran them)
    cell = "cluster\x0cwith\u2028breaks"
    set_cell(sparql_copy / "L0C04960U.ttl" / "AIDA_P3_TA1_CM_A0001.rq.tsv", 2, 0, cell)
    out = tmp_path / "out"
    result = invoke(sparql_copy, ta1_data / "ta1-gold-tsv", ta1_data / "ta1-scoring/AUX-data", out)
    assert result.exit_code == 0, result.output
    source = (sparql_copy / "L0C04960U.ttl" / "AIDA_P3_TA1_CM_A0001.rq.tsv").read_text(encoding="utf-8")
    cleaned = (out / "SPARQL-CLEAN-output" / "L0C04960U.ttl" / "AIDA_P3_TA1_CM_A0001.rq.tsv").read_bytes()
    lines = cleaned.decode("utf-8").split("\n")
    assert lines[1].split("\t")[0] == cell and len(lines) == source.count("\n") + 1
