"""Perturbations of NIST's example run, each pinned with what NIST's code does and why.

Each test edits one cell (or rows) of the run's SPARQL-output and scores it; expectations are
NIST's rules (validate_responses.py, filter_responses.py, the scorers) applied by hand."""

from __future__ import annotations

import json
from pathlib import Path

from ta1_example import run_example

IRI = "<https://raw.githubusercontent.com/NextCenturyCorporation/AIDA-Interchange-Format/master/java/src/main/resources/com/ncc/aif/ontologies/LdcAnnotations#{}>"
DOC = "L0C04960U"


def table(run: Path, kind: str, document: str = DOC) -> Path:
    return run / f"{document}.ttl" / f"AIDA_P3_TA1_{kind}_A0001.rq.tsv"


def rows(path: Path) -> list[list[str]]:
    return [line.split("\t") for line in path.read_text().splitlines()]


def write(path: Path, lines: list[list[str]]) -> None:
    path.write_text("".join("\t".join(r) + "\n" for r in lines))


def edit(run: Path, kind: str, line: int, column: int, value: str, document: str = DOC) -> list[str]:
    lines = rows(table(run, kind, document))
    lines[line - 1][column] = value
    write(table(run, kind, document), lines)
    return lines[line - 1]


def score(run: Path, tmp_path: Path):
    out = tmp_path / "out"
    return out, run_example(run, out), json.loads((out / "results.json").read_text())["scores"][0]


def valid_rows(out: Path, kind: str, document: str = DOC) -> list[list[str]]:
    return rows(out / "SPARQL-VALID-output" / f"{document}.ttl" / f"AIDA_P3_TA1_{kind}_A0001.rq.tsv")[1:]


def test_unknown_negation_value_drops_the_row_and_counts_an_error(sparql_copy, tmp_path):
    # validate_negation_status: not Negated/NotNegated -> UNKNOWN_VALUE (ERROR), row invalid
    edit(sparql_copy, "CM", 2, 4, "Maybe")
    out, _scores, results = score(sparql_copy, tmp_path)
    assert len(valid_rows(out, "CM")) == 104
    assert results["Errors"] == 1 and results["ErrorStats"] == {"Validator": 1}
    assert "ERROR - Validator - UNKNOWN_VALUE" in (out / "logs" / "validate-responses.log").read_text()


def test_span_past_the_element_end_is_clipped(sparql_copy, tmp_path, ta1_data):
    # DocumentBoundary.validate fails, get_corrected_span clips the end to the element's last
    # character (the largest end_char of its sentences): a WARNING, the row stays
    original = edit(sparql_copy, "CM", 2, 3, f"{DOC}:L0C049DTH:(1,0)-(999999,0)")
    ends = [
        int(line.split("\t")[3])
        for line in (ta1_data / "ta1-scoring/AUX-data/LDC2021E11.sentence_boundaries.txt").read_text().splitlines()[1:]
        if line.startswith("L0C049DTH\t")
    ]
    out, _scores, results = score(sparql_copy, tmp_path)
    spans = [r[3] for r in valid_rows(out, "CM") if r[0] == original[0].split("#")[1].rstrip(">")]
    assert f"{DOC}:L0C049DTH:(1,0)-({max(ends)},0)" in spans
    assert results["Errors"] == 0


def test_span_wholly_outside_the_element_is_dropped(sparql_copy, tmp_path):
    # get_corrected_span returns None when the span starts past the end: SPAN_OFF_BOUNDARY_ERROR
    edit(sparql_copy, "CM", 2, 3, f"{DOC}:L0C049DTH:(999998,0)-(999999,0)")
    out, _, results = score(sparql_copy, tmp_path)
    assert len(valid_rows(out, "CM")) == 104
    assert results["ErrorStats"] == {"Validator": 1}


def test_negative_coordinate_is_an_error(sparql_copy, tmp_path):
    # validate_coordinates: NEGATIVE_NUMBER (ERROR), row invalid
    edit(sparql_copy, "AM", 2, 8, f"{DOC}:L0C049DTH:(-3,0)-(41,0)")
    out, _, results = score(sparql_copy, tmp_path)
    assert len(valid_rows(out, "AM")) == 52
    assert results["ErrorStats"] == {"Validator": 1}


def test_end_before_earlier_than_start_after_drops_the_tm_row(sparql_copy, tmp_path):
    # validate_date_start_and_end: end_before (year 0001) < start_after (year 2000)
    lines = rows(table(sparql_copy, "TM"))
    lines[1][3] = '"2000"'
    lines[1][12] = '"0001"'
    write(table(sparql_copy, "TM"), lines)
    out, _, results = score(sparql_copy, tmp_path)
    assert len(valid_rows(out, "TM")) == 16
    # start_before (9999) and end_after (0001) still bound their partners: one INVALID_DATE_RANGE
    assert results["ErrorStats"] == {"Validator": 1}


def test_missing_month_is_completed_as_nist_does(sparql_copy, tmp_path):
    # Generator.get_date: a start-after date with a year but no month becomes YYYY-01-01 (INFO)
    lines = rows(table(sparql_copy, "TM"))
    lines[1][1], lines[1][3] = "", '"2015"'
    write(table(sparql_copy, "TM"), lines)
    out, _, results = score(sparql_copy, tmp_path)
    cluster = lines[1][0].split("#")[1].rstrip(">")
    found = [r for r in valid_rows(out, "TM") if r[0] == cluster]
    assert found[0][1:4] == ['"01"', '"01"', '"2015"']
    assert results["Errors"] == 0
    assert (
        "MISSING_DATE_FIELD - Missing start_after month; using '2015-01-01'"
        in (out / "logs" / "validate-responses.log").read_text()
    )


def test_out_of_range_confidence_becomes_one(sparql_copy, tmp_path):
    # validate_confidence: 0 < c <= 1 fails -> INVALID_CONFIDENCE (WARNING), value set to "1.0"
    edit(sparql_copy, "CM", 2, 6, '"1.5"')
    out, _, results = score(sparql_copy, tmp_path)
    assert valid_rows(out, "CM")[0][6] == '"1.0"'
    assert results["Errors"] == 0


def _aligned(out: Path, document: str = DOC) -> dict[str, str]:
    return {r[1]: r[2] for r in rows(out / "alignment" / "cluster" / f"{document}.tab")[1:] if "None" not in r[1:3]}


def test_dropping_a_cluster_drops_its_arguments_silently(sparql_copy, tmp_path, from_sparql):
    # validate_entries_in_cluster: an AM row whose object has no valid CM row is invalid, and
    # NIST logs nothing for it; the cluster is no longer aligned
    baseline = _aligned(from_sparql[0])
    cluster = IRI.format("cluster-NILE30027")
    lines = [r for r in rows(table(sparql_copy, "CM")) if r[0] != cluster]
    write(table(sparql_copy, "CM"), lines)
    uses = sum(1 for r in rows(table(sparql_copy, "AM"))[1:] if cluster in (r[2], r[6]))
    out, _, results = score(sparql_copy, tmp_path)
    assert uses > 0 and len(valid_rows(out, "AM")) == 53 - uses
    assert results["Errors"] == 0
    assert set(_aligned(out)) == set(baseline) - {"cluster-NILE30027"}


def test_merging_two_clusters_leaves_one(sparql_copy, tmp_path):
    # the CM rows of B renamed to A: one cluster, its mentions the union (alignment is by ID)
    first, second = IRI.format("cluster-NILE30025"), IRI.format("cluster-NILE30027")
    lines = rows(table(sparql_copy, "CM"))
    metatypes = {r[1] for r in lines[1:] if r[0] in (first, second)}
    assert len(metatypes) == 1
    write(table(sparql_copy, "CM"), [[first if c == second else c for c in r] for r in lines])
    am = rows(table(sparql_copy, "AM"))
    write(table(sparql_copy, "AM"), [[first if c == second else c for c in r] for r in am])
    out, _, _ = score(sparql_copy, tmp_path)
    listed = {r[1] for r in rows(out / "alignment" / "cluster" / f"{DOC}.tab")[1:]}
    assert "cluster-NILE30025" in listed and "cluster-NILE30027" not in listed


def test_splitting_a_mention_off_makes_a_new_cluster(sparql_copy, tmp_path):
    # a mention moved to a new cluster ID is a cluster of its own for the FMBM
    lines = rows(table(sparql_copy, "CM"))
    lines[2][0] = IRI.format("cluster-SPLIT")
    write(table(sparql_copy, "CM"), lines)
    out, _, _ = score(sparql_copy, tmp_path)
    listed = {r[1] for r in rows(out / "alignment" / "cluster" / f"{DOC}.tab")[1:]}
    assert "cluster-SPLIT" in listed


def test_system_date_a_year_off_scores_one_thirteenth_on_that_constraint(sparql_copy, tmp_path, from_sparql):
    # TemporalMetric: c/(c+d) with c = 1/12, d = 365 days / 365 = 1 -> (1/12)/(13/12) = 1/13; the
    # other three constraints equal the gold sentinels -> 1 each; S = (3 + 1/13) / 4
    out0 = from_sparql[0]
    aligned = _aligned(out0)
    temporal = [
        r
        for r in rows(out0 / "scores" / "TemporalMetric-scores.tab")[1:]
        if r[0] == DOC and r[5] != "None" and r[6] == "1.0000"
    ]
    system_cluster = temporal[0][5]
    assert aligned[system_cluster] == temporal[0][4]
    lines = rows(table(sparql_copy, "TM"))
    line = next(i for i, r in enumerate(lines) if r[0] == IRI.format(system_cluster))
    assert lines[line][1:4] == ['"01"', '"01"', '"0001"']
    lines[line][3] = '"0002"'
    write(table(sparql_copy, "TM"), lines)
    out, _, _ = score(sparql_copy, tmp_path)
    found = [
        r for r in rows(out / "scores" / "TemporalMetric-scores.tab")[1:] if r[0] == DOC and r[5] == system_cluster
    ]
    assert found[0][6] == f"{(3 + 1 / 13) / 4:6.4f}"


def test_flipping_a_mention_to_negated_is_a_false_positive(sparql_copy, tmp_path, from_sparql):
    # NegationMetricV2: an aligned system event mention negated where its gold mention is not -> FP
    out0 = from_sparql[0]
    mentions = rows(out0 / "alignment" / "mention" / f"{DOC}.tab")[1:]
    event = next(m for m in mentions if m[0] == "Event")
    lines = rows(table(sparql_copy, "CM"))
    line = next(i for i, r in enumerate(lines) if r[0] == IRI.format(event[1]) and r[3] == event[3])
    assert lines[line][4] == "NotNegated"
    lines[line][4] = "Negated"
    write(table(sparql_copy, "CM"), lines)
    _, scores, _ = score(sparql_copy, tmp_path)
    row = next(r for r in scores.metrics["NegationMetricV2"].rows if r.document == DOC and r.metatype == "Event")
    assert (row.get("tp"), row.get("fp")) == (0, 1)
