"""The TA2 scorer (aifcheck.score_ta2) on the fixtures of tests/score/fixtures/ta2 (README there).

Expected values come from two sources: NIST's own score files for each fixture (``<case>/nist*/``,
made by running NIST's code, see build.py), compared byte for byte once the rows within each query
are sorted (NIST's order there follows the hash seed); and research/ta2-scoring.md §8's worked cases
W1-W8, their NIST values and their plan values. The fixtures name LDC2021E11 documents: the AUX
data comes from ../shared/data.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from ta2_common import AUX, FILES, FIXTURES, by_query_sorted, need_aux  # noqa: F401 (a fixture)

import aifcheck
from aifcheck.errors import InputError, UsageError
from aifcheck.render.ta2.scores import METRIC, score_files
from aifcheck.score.ta2 import TA2Scores, score_ta2

CASES = sorted(p.name for p in FIXTURES.iterdir() if (p / "runW").is_dir())


def score(case: str, **options) -> TA2Scores:
    root = FIXTURES / case
    return score_ta2(root / "runW", root / "queries_to_score.tab", root / "LDC", AUX, **options)


def flags_of(folder: str) -> dict[str, bool]:
    letters = folder.removeprefix("nist").split("-")[1:]
    return {"cutoff": "C" in letters, "normalize": "N" in letters, "weighted": "W" in letters}


def ap(scores: TA2Scores, query: str, fqec: str) -> tuple[float, str | None]:
    row = next(r for r in scores.rows if r.query_id == query and r.fqec == fqec)
    return round(row.ap, 4), row.cluster


# --- NIST's own output ------------------------------------------------------------------------

NIST_FINISHES = [(c, f.name) for c in CASES for f in sorted((FIXTURES / c).glob("nist*")) if (f / FILES[0]).is_file()]


@pytest.mark.parametrize(("case", "folder"), NIST_FINISHES, ids=[f"{c}-{f}" for c, f in NIST_FINISHES])
def test_score_files_are_nist_s_wherever_nist_finishes(case: str, folder: str) -> None:
    options = flags_of(folder)
    if case in ("unknown_label", "malformed_span"):  # NIST reads these; aifcheck stops (tested below)
        return
    files = score_files(score(case, run_id="runW", **options))
    for name in FILES:
        expected = (FIXTURES / case / folder / name).read_text(encoding="utf-8")
        assert by_query_sorted(files[f"scores/{name}"]) == by_query_sorted(expected), name


def test_the_record_of_nist_s_output_is_complete() -> None:
    spec = importlib.util.spec_from_file_location("ta2_fixtures", FIXTURES / "build.py")
    build = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = build  # dataclasses look their module up
    spec.loader.exec_module(build)
    assert sorted(build.cases()) == CASES
    for case in CASES:
        for folder in (FIXTURES / case).glob("nist*"):
            assert (folder / "failed").is_file() or all((folder / name).is_file() for name in FILES), folder


def test_rows_within_a_query_come_by_class_and_files_end_as_nist_s() -> None:
    files = score_files(score("alignment_tie"))
    tab = files[f"scores/{METRIC}-scores.tab"].split("\n")
    assert [line.split("\t")[3] for line in tab[1:3]] == ["A", "B"]  # NIST (hash seed 0) has B first
    assert tab[-2] == "Summary\trunW\tALL-Macro" + "\t" * 17 + "0.3750\t" and tab[-1] == ""
    txt = files[f"scores/{METRIC}-scores.txt"].split("\n")
    assert len({len(line) for line in txt[:-1]}) == 1  # padded to the widths, ClusterID included


# --- research §8: NIST's values -----------------------------------------------------------------


def test_w1_two_clusters_two_classes() -> None:
    scores = score("W1")
    assert [ap(scores, "W1Q1", f) for f in ("Q1", "Q2")] == [(0.6667, "cluster-1"), (0.6667, "cluster-2")]
    assert round(scores.summary, 4) == 0.6667 and scores.run_id == "runW"
    q1 = next(r for r in scores.rows if r.fqec == "Q1")
    assert (q1.rel, q1.counts.submitted, q1.counts.correct, q1.counts.incorrect, q1.counts.right) == (3, 4, 3, 1, 3)


def test_w2_kbid_and_name_queries_of_one_entity() -> None:
    scores = score("W2")
    assert ap(scores, "W2Q1", "Q2001") == (0.6667, "cluster-A")
    assert ap(scores, "W2Q2", "Q2001") == (0.6667, "cluster-A")  # 51V judged by W2Q1's line
    w2q3 = next(r for r in scores.rows if r.query_id == "W2Q3")
    assert (w2q3.fqec, w2q3.rel, w2q3.rel_counted, w2q3.ap, w2q3.cluster) == ("Q2999", 0, 0, 0, None)
    assert round(scores.summary, 4) == 0.6667  # the Rel-0 row is out of the macro
    assert any(w.startswith("Q4:") for w in scores.warnings) and any(w.startswith("Q5:") for w in scores.warnings)


def test_w3_clusters_documents_and_ties() -> None:
    row = score("W3").rows[0]
    c = row.counts
    assert (
        row.rel,
        row.rel_counted,
        c.submitted,
        c.valid,
        c.invalid,
        c.not_pooled,
        c.pooled,
        c.assessed,
        c.not_assessed,
    ) == (3, 3, 4, 4, 0, 2, 2, 2, 0)
    assert (c.correct, c.inexact, c.incorrect, c.right, c.wrong, c.ignored) == (1, 0, 1, 1, 1, 2)
    assert (round(row.ap, 4), row.cluster) == (0.3333, "cluster-A")


def test_w4_labels_and_an_unjudged_row() -> None:
    scores = score("W4")
    row = scores.rows[0]
    c = row.counts
    assert (
        row.rel,
        c.submitted,
        c.pooled,
        c.assessed,
        c.not_assessed,
        c.correct,
        c.inexact,
        c.incorrect,
        c.right,
        c.wrong,
        c.ignored,
    ) == (3, 6, 6, 5, 1, 2, 1, 0, 3, 2, 1)
    assert round(row.ap, 4) == round((1 + 2 / 3 + 3 / 5) / 3, 4) == 0.7556
    assert {w[:3] for w in scores.warnings} == {"Q6:", "Q7:"}


def test_w5_every_correct_nil_line_is_one_class() -> None:
    scores = score("W5")
    assert [(r.fqec, r.rel, round(r.ap, 4)) for r in scores.rows] == [("NILG1001", 4, 0.5)] * 2
    assert round(scores.summary, 4) == 0.5 and any(w.startswith("Q2:") for w in scores.warnings)


@pytest.mark.parametrize(
    ("options", "x", "y", "summary"),
    [
        ({}, (3, 0.6667), 1.0, 0.8333),
        ({"cutoff": True}, (2, 1.0), 1.0, 1.0),
        ({"weighted": True}, (3, 0.4667), 0.4375, 0.4521),
        ({"cutoff": True, "normalize": True, "weighted": True}, (2, 1.4), 0.875, 1.1375),
    ],
)
def test_w6_flags(options: dict[str, bool], x: tuple[int, float], y: float, summary: float) -> None:
    scores = score("W6", **options)
    q6 = next(r for r in scores.rows if r.fqec == "Q6")
    nil = next(r for r in scores.rows if r.fqec == "NILG1001")
    assert (q6.rel_counted, round(q6.ap, 4), q6.cluster) == (*x, "cluster-X")
    assert (round(nil.ap, 4), nil.cluster, round(scores.summary, 4)) == (y, "cluster-Y", summary)
    c = q6.counts
    assert (c.submitted, c.valid, c.not_pooled, c.pooled, c.assessed, c.correct, c.right, c.ignored) == (
        3,
        3,
        1,
        2,
        2,
        2,
        2,
        1,
    )


def test_w6_normalize_alone_changes_nothing_and_says_so() -> None:
    plain, normalized = score("W6"), score("W6", normalize=True)
    assert plain.rows == normalized.rows
    assert any("--normalize without --weighted" in w for w in normalized.warnings)
    assert any(
        w.startswith("Q9:") and "last selected cluster" in w
        for w in score("W6", normalize=True, weighted=True).warnings
    )


def test_w7_the_shared_map() -> None:
    scores = score("W7")
    assert ap(scores, "W7Q1", "Q71") == (0.0, None)
    w7q2 = next(r for r in scores.rows if r.query_id == "W7Q2")
    assert (
        w7q2.rel,
        w7q2.counts.submitted,
        w7q2.counts.correct,
        w7q2.counts.incorrect,
        round(w7q2.ap, 4),
        w7q2.cluster,
    ) == (2, 2, 1, 1, 0.25, "cluster-S")
    assert round(scores.summary, 4) == 0.125
    assert sum(w.startswith("Q4:") for w in scores.warnings) == 2  # rows judged by another query, a conflict


# --- research §8 W8 and §6: where NIST's code stops, the documented result ----------------------


def nist_failure(case: str) -> str:
    return (FIXTURES / case / "nist" / "failed").read_text(encoding="utf-8")


def test_w8a_a_query_without_assessments() -> None:
    assert "TypeError" in nist_failure("W8a")
    scores = score("W8a")
    assert [r.query_id for r in scores.rows] == ["W1Q1", "W1Q1"] and round(scores.summary, 4) == 0.6667
    assert list(scores.queries) == ["W1Q1", "W8Q2"] and any(n.startswith("C1:") and "W8Q2" in n for n in scores.notes)


def test_w8b_no_right_line_anywhere() -> None:
    assert "ZeroDivisionError" in nist_failure("W8b")
    scores = score("W8b")
    assert scores.rows == () and scores.summary is None and any(n.startswith("C2:") for n in scores.notes)
    tab = score_files(scores)[f"scores/{METRIC}-scores.tab"]
    assert tab.split("\n")[1:] == ["Summary\trunW\tALL-Macro" + "\t" * 18, ""]
    txt = score_files(scores)[f"scores/{METRIC}-scores.txt"].split("\n")
    assert (
        txt[1].startswith("Summary     runW  ALL-Macro")
        and txt[1].strip() == "Summary     runW  ALL-Macro"
        and len(txt[1]) == len(txt[0])
    )


def test_w8c_a_line_of_a_query_not_scored() -> None:
    assert "AttributeError" in nist_failure("W8c")
    scores = score("W8c")
    assert round(scores.summary, 4) == 0.6667 and any(n.startswith("C3:") and "kit9.tab:1" in n for n in scores.notes)
    assert next(r for r in scores.rows if r.fqec == "Q1").rel == 3  # Q11: Rel counts the scored queries' lines only


def test_pool_txt_s_header_line_in_a_kit_is_skipped() -> None:
    assert "AttributeError" in nist_failure("pool_header")
    scores = score("pool_header")
    assert round(scores.summary, 4) == 0.6667 and any("pool.txt's header line" in n for n in scores.notes)


def test_c4_a_kit_delivered_twice_is_kept_once() -> None:
    assert "MULTIPLE_ASSESSMENTS" in nist_failure("duplicate_same")
    scores = score("duplicate_same")
    assert scores.rows == score("W1").rows and any(n.startswith("C4:") and "kit1.tab:1" in n for n in scores.notes)


def test_c7_a_coordinate_that_is_not_a_number_makes_the_row_invalid() -> None:
    assert "NOT_A_NUMBER" in nist_failure("not_a_number")
    scores = score("not_a_number")
    assert round(scores.summary, 4) == 0.6667 and scores.errors == 1
    assert next(r for r in scores.rows if r.fqec == "Q2").counts.invalid == 1
    assert any("(C7)" in n and "W1Q1.rq.tsv:8" in n for n in scores.notes)


@pytest.mark.parametrize(
    ("case", "where", "message"),
    [
        ("duplicate_conflict", "kit2.tab:1", "judged INCORRECT NIL here and CORRECT Q1 at"),
        ("unknown_label", "kit1.tab:8", "unknown assessment label 'maybe'"),
        ("malformed_span", "kit1.tab:8", "is not DOCUMENT and ELEMENT:(x1,y1)-(x2,y2)"),
        ("short_line", "kit1.tab:8", "4 tab-separated fields, 9 expected"),  # C5
        ("short_row", "W1Q1.rq.tsv:8", "3 tab-separated fields, 7 expected"),  # C6
        ("bad_clusters", "queries_to_score.tab:2", "clusters 'two' is not an integer"),  # C8
    ],
)
def test_input_that_cannot_be_scored_is_one_located_error(case: str, where: str, message: str) -> None:
    with pytest.raises(InputError) as error:
        score(case)
    assert where in str(error.value) and message in str(error.value) and "\n" not in str(error.value)


# --- our cases: quirks and options ---------------------------------------------------------------


def test_q3_inexact_nil_is_a_class_of_its_own() -> None:
    scores = score("inexact_nil")
    assert [(r.fqec, r.rel, round(r.ap, 4), r.cluster) for r in scores.rows] == [
        ("NIL", 2, 0.5, "c2"),
        ("NILG1001", 1, 0.5, "c1"),
    ]
    assert any(w.startswith("Q3:") for w in scores.warnings)


def test_q8_an_invalid_row_ranks_its_cluster_and_takes_its_place() -> None:
    scores = score("invalid_rows")
    assert [(r.fqec, r.ap, r.cluster) for r in scores.rows] == [("E8", 0, None)] and scores.summary == 0.0
    assert {w[:3] for w in scores.warnings} == {"Q8:"} and scores.errors == 1
    plan = score("invalid_rows", plan=True)  # the plan drops the row: c2 is selected
    assert [(r.fqec, r.ap, r.cluster) for r in plan.rows] == [("E8", 1.0, "c2")]


def test_validation_corrects_spans_and_confidences_and_drops_unknown_documents() -> None:
    scores = score("validation")
    e1 = next(r for r in scores.rows if r.fqec == "E1")
    assert (
        e1.rel,
        e1.counts.submitted,
        e1.counts.valid,
        e1.counts.invalid,
        e1.counts.assessed,
        e1.counts.inexact,
        e1.ap,
    ) == (3, 5, 3, 2, 3, 1, 1.0)
    notes = " ".join(scores.notes)
    assert (
        "4 span(s) moved inside their element" in notes
        and "moved inside its element: L0C04C4IA:L0C04CAAG:(1,0)-(12,0)" in notes
    )
    assert (
        "1 row(s) dropped" in notes
        and "3 confidence(s) not in (0, 1] replaced by 1.0" in notes
        and "2 invalid row(s)" in notes
    )
    assert scores.errors == 3  # two invalid rows, one dropped


def test_q12_munkres_decides_between_equal_totals() -> None:
    scores = score("alignment_tie")
    assert [(r.fqec, r.cluster, r.counts.submitted) for r in scores.rows] == [("A", "c1", 2), ("B", "c2", 4)]


def test_entities_order_rows_and_queries_without_files_or_classes() -> None:
    scores = score("many_queries")
    assert [(r.entity_id, r.query_id, r.fqec) for r in scores.rows] == [
        ("EA", "A1", "Q1"),
        ("EA", "A1", "Q1|Q2"),
        ("EA", "A2", "Q1"),
        ("EA", "A2", "Q1|Q2"),
        ("EM", "M1", "Q5"),
        ("EM", "M2", "Q5"),
        ("EN", "N1", "Q5"),
        ("EN", "N2", "Q5"),
        ("EZ", "Z1", "Q9"),
    ]
    assert round(scores.summary, 4) == 0.2857  # (0.5 + 0.5 + 1.0) / 7 rows with RelCntd > 0
    notes = " ".join(scores.notes)
    assert "M1.rq.tsv: skipped, its header is not NIST's 7 columns" in notes and "M2.rq.tsv: skipped, empty" in notes
    assert "no response file (M1" not in notes and scores.errors == 2


def test_plan_rejects_nist_s_options() -> None:
    with pytest.raises(UsageError):
        score("W6", plan=True, weighted=True)


# --- the plan (research §7, §8) -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("case", "expected"),
    [
        ("W1", 0.6667),
        ("W2", 0.5),
        ("W3", 0.5),
        ("W4", 0.7708),
        ("W5", 1.0),
        ("W6", 1.0),
        ("W7", 0.5833),
        ("W8a", 0.6667),
        ("W8b", 0.0),
        ("W8c", 0.5833),
    ],
)
def test_plan_map_of_the_worked_cases(case: str, expected: float) -> None:
    assert round(score(case, plan=True).summary, 4) == expected


def test_plan_pseudo_queries() -> None:
    w2 = score("W2", plan=True)
    assert [(r.query_id, r.fqec, round(r.ap, 4)) for r in w2.rows] == [
        ("W2Q1", "Q2001", 0.6667),
        ("W2Q2", "Q2001", 0.3333),
    ]
    assert w2.denominator == 2 and "W2Q3" in w2.queries  # G = 0: no row, nothing in the denominator
    w5 = score("W5", plan=True)
    assert [(r.query_id, r.fqec, r.rel, r.ap) for r in w5.rows] == [("W5Q1", "NIL", 2, 1.0), ("W5Q2", "NIL", 2, 1.0)]
    w7 = score("W7", plan=True)
    assert [(r.query_id, round(r.ap, 4), r.cluster) for r in w7.rows] == [
        ("W7Q1", 0.1667, "cluster-R"),
        ("W7Q2", 1.0, "cluster-S"),
    ]
    w8c = score("W8c", plan=True)  # the line of W9Q9 counts for GT
    assert next((r.fqec, r.rel, r.rel_counted, r.ap) for r in w8c.rows) == ("Q1", 4, 4, 0.5)
    many = score("many_queries", plan=True)  # C = 0 adds nothing; K = 0 ranks nothing
    assert many.denominator == 6 and round(many.summary, 4) == 0.3333


def test_plan_counts_are_read_with_the_query_s_own_lines() -> None:
    row = score("W4", plan=True).rows[0]
    c = row.counts
    assert (row.rel, row.rel_counted, c.pooled, c.assessed, c.not_assessed, c.correct, c.inexact, c.right) == (
        4,
        4,
        6,
        4,
        2,
        3,
        1,
        4,
    )


def test_plan_skips_short_lines_and_still_refuses_an_unknown_label() -> None:
    assert round(score("short_line", plan=True).summary, 4) == 0.6667
    with pytest.raises(InputError):
        score("unknown_label", plan=True)


def test_plan_rejects_negative_counts(tmp_path: Path) -> None:
    table = tmp_path / "queries.tab"
    table.write_text(
        "query_id\tentity_id\tentrypoint_type\tentrypoint\tclusters\tdocuments\nW1Q1\tEW1\tname\tNatasha\t-1\t10\n",
        encoding="utf-8",
    )
    root = FIXTURES / "W1"
    with pytest.raises(InputError, match="negative"):
        score_ta2(root / "runW", table, root / "LDC", AUX, plan=True)
    assert score_ta2(root / "runW", table, root / "LDC", AUX).rows == score("W1").rows  # NIST: every cluster


# --- the API -------------------------------------------------------------------------------------


def test_the_public_api_exports_the_scorer() -> None:
    assert aifcheck.score_ta2 is score_ta2 and aifcheck.TA2Scores is TA2Scores
    assert {"score_ta2", "TA2Scores"} <= set(aifcheck.__all__)


def test_a_run_given_as_its_kb_goes_through_the_ta2_stages_first(tmp_path: Path) -> None:
    (tmp_path / "task2_kb.ttl").write_text("", encoding="utf-8")
    root = FIXTURES / "W1"
    with pytest.raises(InputError, match=r"task2_kb\.ttl: empty file"):  # the KB is read, not refused
        score_ta2(tmp_path, root / "queries_to_score.tab", root / "LDC", AUX)
    with pytest.raises(UsageError, match="not a TA2 run"):
        score_ta2(root / "LDC", root / "queries_to_score.tab", root / "LDC", AUX)


# --- the AUX tables ------------------------------------------------------------------------------


def test_aux_tables_are_kept_in_a_cache_named_by_the_folder_s_state(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from aifcheck.pipeline.shared.auxdata import TA2_CORE, load_aux

    folder = tmp_path / "AUX"
    shutil.copytree(AUX, folder)
    monkeypatch.setenv("AIFCHECK_CACHE_DIR", str(tmp_path / "cache"))
    first = load_aux(folder, TA2_CORE)
    cached = list((tmp_path / "cache").glob("aux-*.marshal"))
    assert len(cached) == 1 and first.is_core("L0C04C4IA") and first.modalities["L0C0492F3"] == "image"
    assert first.extents("text")["L0C04CAAH"] == ("1", 0, "7712", 0) and first.language("L0C0492EZ") == "ENG"
    (folder / "LDC2021E11.coredocs.txt").write_text(
        "root_id\nL0C04C4IA\n", encoding="utf-8"
    )  # a new state: a new cache
    second = load_aux(folder, TA2_CORE)
    assert second.core == ("L0C04C4IA",) and len(list((tmp_path / "cache").glob("aux-*.marshal"))) == 2
    for path in (tmp_path / "cache").glob("aux-*.marshal"):
        path.write_bytes(b"not marshal")  # a broken cache: another process reads the folder again
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "from aifcheck.pipeline.shared.auxdata import TA2_CORE, load_aux; "
            f"print(sorted(load_aux({str(folder)!r}, TA2_CORE).core))",
        ],
        capture_output=True,
        text=True,
        env={**os.environ, "AIFCHECK_CACHE_DIR": str(tmp_path / "cache")},
    )
    assert done.stdout.strip() == "['L0C04C4IA']", done.stderr


def test_aux_errors(tmp_path: Path) -> None:
    from aifcheck.pipeline.shared.auxdata import TA2_CORE, load_aux

    with pytest.raises(InputError, match="none: no such file or directory"):
        load_aux(tmp_path / "none", TA2_CORE)
    (tmp_path / "encoding_modality.txt").write_text("encoding\tmodality\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"no file ending in '\.coredocs\.txt'"):
        load_aux(tmp_path, TA2_CORE)
