"""The TA3 scorer (aifcheck.score.ta3.scorer) on the fixtures of tests/score/fixtures/ta3 (README there).

Expected values come from two independent sources: NIST's own score files for each fixture
(``<case>/nist/``, made by running NIST's code, see build.py), compared byte for byte; and the
hand-computed values of research/ta3-crux-scoring.md §4 (T1-T13, which that document also
verified on NIST's code), with the arithmetic written out where the test adds to them.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from aifcheck.errors import UsageError
from aifcheck.render.ta3.scores import write_score_files
from aifcheck.score.ta3.scorer import METRICS, TA3Scores, score_ta3

FIXTURES = Path(__file__).parents[1] / "fixtures" / "ta3"
CASES = sorted(p.name for p in FIXTURES.iterdir() if (p / "RUN1").is_dir())
# NIST's code gives a claim without a relation row the relation of the file's last row: aifcheck
# too, by default, so that every file NIST finishes is NIST's (--plan gives it none)
ROW_ORDER: set[tuple[str, str]] = set()


def _score(case: str, **options) -> TA3Scores:
    root = FIXTURES / case
    return score_ta3(root / "RUN1", root / "queries_to_score.tab", root / "claim-mappings.tab", root / "LDC", **options)


def _rows(scores: TA3Scores, metric: str, query: str | None = None) -> dict[str, object]:
    return {r.relation: r for r in scores[metric].rows if query is None or r.query_id == query}


def _macros(scores: TA3Scores, metric: str) -> dict[tuple[str, str], float | None]:
    return {(m.condition, m.relation): m.value for m in scores[metric].macros}


def _log(rank: int) -> float:
    return math.log2(rank + 1)


# --- NIST's own output, byte for byte -------------------------------------------------------


@pytest.mark.parametrize("case", [c for c in CASES if c != "T12_nil"])
def test_score_files_are_nist_s_wherever_nist_finishes(case: str, tmp_path: Path) -> None:
    write_score_files(_score(case), tmp_path)
    compared = 0
    for expected in sorted((FIXTURES / case / "nist").glob("*-scores.*")):
        metric = expected.name.split("-")[0]
        ours = (tmp_path / "scores" / expected.name).read_text(encoding="utf-8")
        if (case, metric) in ROW_ORDER:
            assert ours != expected.read_text(encoding="utf-8")
        else:
            assert ours == expected.read_text(encoding="utf-8"), expected.name
            compared += 1
    finished = {p.name.split("-")[0] for p in (FIXTURES / case / "nist").glob("*-scores.tab")}
    failed = {p.stem for p in (FIXTURES / case / "nist").glob("*.failed")}
    assert finished | failed == set(METRICS)  # NIST's record is complete
    assert compared == 2 * len(finished - {m for c, m in ROW_ORDER if c == case})


def test_every_metric_is_written_twice(tmp_path: Path) -> None:
    written = write_score_files(_score("T1"), tmp_path)
    assert sorted(p.name for p in written) == sorted(f"{m}-scores.{s}" for m in METRICS for s in ("tab", "txt"))


# --- research document §4 -------------------------------------------------------------------


def test_t1_gains_dcg_and_ndcg() -> None:
    scores = _score("T1")
    v1 = _rows(scores, "NDCGScorerV1")["ontopic"]
    assert v1.gains == (112, 16, 0, 112)
    assert v1.dcg == pytest.approx(170.3307, abs=1e-4)
    assert v1.ideal == (("uidA", 112), ("uidB", 112), ("uidC", 16), ("uidD", 0))
    assert v1.idcg == pytest.approx(190.6641, abs=1e-4)
    assert round(v1.ndcg, 4) == 0.8934
    v2 = _rows(scores, "NDCGScorerV2")["ontopic"]  # depth 2: A, C against A, B
    assert (v2.assessed, v2.ground_truth, round(v2.ndcg, 4)) == (2, 2, 0.6684)


def test_t2_f1_best_cutoff() -> None:
    scores = _score("T1")
    a = _rows(scores, "F1ScorerV1A")["ontopic"]
    assert (round(a.f1, 4), a.cutoff, a.unique, a.ground_truth) == (0.8571, 4, 3, 3)  # P 3/4, R 3/3
    c = _rows(scores, "F1ScorerV1C")["ontopic"]
    assert (round(c.f1, 4), c.cutoff) == (0.6667, 1)  # ties with @4: the earliest wins
    a2 = _rows(scores, "F1ScorerV2A")["ontopic"]
    assert (a2.f1, a2.cutoff) == (1.0, 2)  # recall counts C although it is not in the truncated truth


def test_t3_ndcg_per_list() -> None:
    rows = _rows(_score("T3"), "NDCGScorerV1")
    assert {r: round(row.ndcg, 4) for r, row in rows.items()} == {
        "ontopic": 1.0,
        "supporting": 1.0,
        "refuting": 1.0,
        "related": 0.0,
        "nonrefuting": 1.0,
        "nonsupporting": 0.9173,
    }
    assert rows["ontopic"].gains == (112, 112, 16, 0) and rows["ontopic"].ground_truth == 3
    assert rows["supporting"].gains == (112, 0)  # G is related, not supporting
    assert rows["related"].idcg == 16
    assert rows["nonrefuting"].gains == (56, 8, 0)  # half credit for every compatible claim
    assert rows["nonsupporting"].gains == (56, 0) and [g for _, g in rows["nonsupporting"].ideal] == [56, 8]


def test_t4_f1_per_list() -> None:
    rows = _rows(_score("T3"), "F1ScorerV1A")
    found = {r: (round(row.f1, 4), row.cutoff, row.unique) for r, row in rows.items()}
    assert found["ontopic"] == (1.0, 3, 3)
    assert found["supporting"] == (1.0, 1, 1)
    assert found["related"] == (0.0, 1, 0)
    assert found["nonrefuting"] == (1.0, 2, 2)
    assert found["nonsupporting"] == (0.6667, 1, 1)


def test_t5_a_macro_over_no_query_with_truth_is_blank() -> None:
    scores = _score("T3")
    for metric in ("F1ScorerV1B", "F1ScorerV1C"):  # related: G's combination is the query frame's
        assert _rows(scores, metric)["related"].ground_truth == 0
        assert _macros(scores, metric)["Condition5", "related"] is None


def test_t6_plan_nonrefuting() -> None:
    row = _rows(_score("T3", plan=True), "NDCGScorerV1")["nonrefuting"]
    assert row.gains == (112, 0, 0)  # F tagged right; G tagged supporting but related
    assert row.idcg == pytest.approx(112 + 16 / _log(2))
    assert round(row.ndcg, 4) == 0.9173


def test_t7_desirable_fields_and_unassessed_claims() -> None:
    scores = _score("T7")
    row = _rows(scores, "NDCGScorerV1", "T200")["ontopic"]
    assert row.gains == (123.5, 5, 0, 112)  # the unassessed claim is dropped
    assert [u for u, _ in row.ideal] == ["uidK", "uidQ", "uidL"]
    assert row.idcg == pytest.approx(196.6641, abs=1e-4)
    assert round(row.ndcg, 4) == 0.8893
    f1 = _rows(scores, "F1ScorerV1A", "T200")["ontopic"]
    assert (round(f1.f1, 4), f1.cutoff) == (0.6667, 1)


def test_t7_plan() -> None:
    # Plan mode (every item of §2.6, not only item 3 as §4 T7 writes it): the unassessed claim
    # takes rank 2 with gain 0, and the two affiliations of K earn 4 once: K = 112 + 4 + 1 + 1
    # + 1 + 0.5 = 119.5; L against K: affiliation A3 and medium M2 are new (4 + 1); M is
    # incorrect; Q has a new X (112). Ideal: K, then Q (112 > 5), then L (min(5, 119)).
    row = _rows(_score("T7", plan=True), "NDCGScorerV1", "T200")["ontopic"]
    assert row.gains == (119.5, 0, 5, 0, 112)
    assert row.dcg == pytest.approx(119.5 + 5 / _log(3) + 112 / _log(5))
    assert row.idcg == pytest.approx(119.5 + 112 / _log(2) + 5 / _log(3))


def test_t8_empty_submission_counts_in_the_macro() -> None:
    scores = _score("T7")
    ndcg = _rows(scores, "NDCGScorerV1", "T300")["ontopic"]
    assert (ndcg.assessed, ndcg.ground_truth, ndcg.ndcg) == (0, 1, 0)
    f1 = _rows(scores, "F1ScorerV1A", "T300")["ontopic"]
    assert (f1.f1, f1.cutoff, f1.unique) == (0, None, 0)
    assert round(_macros(scores, "NDCGScorerV1")["Condition6", "ontopic"], 4) == 0.4446  # (0.8893 + 0) / 2


def test_t9_no_relation_row_means_no_relation_in_either_order_under_the_plan() -> None:
    for case in ("T9_identical_last", "T9_related_last"):
        scores = _score(case, plan=True)
        assert _rows(scores, "NDCGScorerV1")["related"].gains == (0, 0)  # H identical, S without a row
        assert round(_rows(scores, "NDCGScorerV1")["related"].ndcg, 4) == 0
    first, second = _score("T9_identical_last", plan=True), _score("T9_related_last", plan=True)
    assert first.metrics == second.metrics
    assert not first.warnings  # the file's last row is "identical": no relation either way
    assert (
        len(second.warnings) == 1
        and "1 correct claim(s) have no relation row (uidS for Q1): they have no relation (--plan)"
        in second.warnings[0]
    )


def test_t9_by_default_a_claim_without_a_row_takes_the_last_row_s_relation_as_in_nist_s_code() -> None:
    first, second = _score("T9_identical_last"), _score("T9_related_last")
    assert _rows(first, "NDCGScorerV1")["related"].gains == (0, 0)  # the last row, identical, is no relation
    assert _rows(second, "NDCGScorerV1")["related"].gains[1] > 0  # uidS takes "related" from the last row
    # NIST stops there (nDCG > 1): the documented result is the value, with its warning
    assert any("> 1" in w for w in second.warnings)
    (touched,) = [w for w in second.warnings if "no relation row" in w]
    assert (
        "1 correct claim(s) have no relation row (uidS for Q1): they take the relation of the file's last row (related)"
        in touched
    )


def test_t10_truth_without_gain_counts_in_the_macro() -> None:
    scores = _score("T10")
    row = _rows(scores, "NDCGScorerV1")["related"]
    assert (row.ground_truth, row.idcg, row.ndcg) == (1, 0, 0)
    assert _macros(scores, "NDCGScorerV1")["Condition5", "related"] == 0


def test_t11_identical_content_is_one_pool_claim() -> None:
    scores = _score("T11")
    assert _rows(scores, "NDCGScorerV1")["ontopic"].gains == (112, 0, 112)
    f1 = _rows(scores, "F1ScorerV1A")["ontopic"]
    assert (f1.cutoff, f1.unique) == (3, 2)  # at 2 the repeated claim adds nothing: 1/2 < 2/3


def test_t13_no_relations_leaves_every_condition5_list_without_truth() -> None:
    scores = _score("T13_no_relations")
    for metric in METRICS:
        assert all(r.ground_truth == 0 for r in scores[metric].rows)
        assert all(m.value is None for m in scores[metric].macros)


# --- our own cases --------------------------------------------------------------------------


def test_date_bounds_30_days_apart_are_near_31_are_not() -> None:
    # P's range is 2020-01-01..31 both ends; D31 moves T1 31 days, D30 every bound 30 days;
    # Dash has T1 "--"; Dash2 also "--" and T4 15 days from Dash's; None has no date.
    row = _rows(_score("dates"), "NDCGScorerV1")["ontopic"]
    assert row.gains == (113, 1, 0, 1, 0, 0)
    # greedy ties go to the smallest uid (uidD30 first), which leaves the ideal list below the run
    assert [u for u, _ in row.ideal][:2] == ["uidD30", "uidDash"]
    assert row.ndcg > 1


def test_dates_within_a_calendar_month_in_plan_mode() -> None:
    # Plan: near when within one calendar month. D31's T1 (Feb 1) is a month after Jan 1: near;
    # D30's T2 (Mar 1) is more than a month after Jan 31 (Feb 29): apart.
    row = _rows(_score("dates", plan=True), "NDCGScorerV1")["ontopic"]
    assert row.gains == (113, 0, 1, 1, 0, 0)


def test_an_ndcg_above_one_is_reported_with_a_warning() -> None:
    scores = _score("ndcg_above_one")
    row = _rows(scores, "NDCGScorerV1")["supporting"]
    assert row.ndcg == pytest.approx((112 + 16 / _log(2)) / 112)
    assert any("NDCG 1.0901 > 1" in w and "supporting" in w for w in scores.warnings)


def test_affiliations_count_per_value_and_are_capped_at_three() -> None:
    # uid1's affiliations A4, A1, A2, A1 keep A1, A1, A2 (sorted, three places): {A1, A2}; it
    # also has location, medium and sentiment: 112 + 2*4 + 1 + 1 + 0.5. uid2 (A1, A2, A3 Wrong;
    # L2) against uid1: only its location is new. uid3 (A3; medium Incorrect, sentiment N/A):
    # A3 is new against uid1 and uid2's correct A1, A2.
    row = _rows(_score("fields"), "NDCGScorerV1")["ontopic"]
    assert row.gains[:3] == (122.5, 1, 4)
    assert row.gains[3] == 0  # uid4: template Incorrect
    plan = _rows(_score("fields", plan=True), "NDCGScorerV1")["ontopic"]
    assert plan.gains[:3] == (118.5, 1, 4)  # the plan: affiliation earns 4 once


def test_ldc_claims_count_as_correct() -> None:
    row = _rows(_score("fields"), "NDCGScorerV1")["ontopic"]
    assert ("uid6", 112 + 4 + 0.5) in row.ideal  # its NIL judgements count as Correct


def test_query_claim_frames_count_as_correct_and_topics_share_truth() -> None:
    scores = _score("multi")
    q1 = _rows(scores, "NDCGScorerV1", "Q1")
    # ontopic truth of Q1: its own rows (A, B, C) and Q2's (J and Q1's frame), all of topic T1
    assert sorted(u for u, _ in q1["ontopic"].ideal) == ["uidA", "uidB", "uidC", "uidJ", "uidQ1"]
    assert sorted(u for u, _ in q1["related"].ideal) == ["uidC"]  # J is related to Q2 only
    t1 = _rows(scores, "NDCGScorerV1", "T1")["ontopic"]  # Condition 6: every claim of the topic
    assert sorted(u for u, _ in t1.ideal) == ["uidA", "uidB", "uidC", "uidD", "uidJ", "uidQ1", "uidQ2"]


def test_unknown_spellings_are_warned_about() -> None:
    warnings = _score("multi").warnings
    assert any("cross_claim_relations.tab:5" in w and "'supporting'" in w for w in warnings)
    assert any("Q1.ranking.tsv:4" in w and "'Supporting'" in w for w in warnings)


def test_plan_recall_counts_only_combinations_of_the_truth() -> None:
    # T1, F1 V2A: the truth at depth 2 is {A, B}; the run's first two are A, C. NIST: R = 2/2 at
    # 2 (F1 1.0); plan: R = |{A, C} & {A, B}| / 2 = 1/2 at 1 and 2, P 1 then 1: F1 2/3 at 1.
    row = _rows(_score("T1", plan=True), "F1ScorerV2A")["ontopic"]
    assert (round(row.f1, 4), row.cutoff) == (0.6667, 1)


def test_plan_keeps_the_query_frame_s_combination() -> None:
    # T3, F1 V1B related: NIST drops G's combination (the query frame's) and has no truth; the
    # plan keeps it: GT 1, and H (identical, no relation) is not counted: F1 0.
    row = _rows(_score("T3", plan=True), "F1ScorerV1B")["related"]
    assert (row.ground_truth, row.f1) == (1, 0)


def test_a_ranked_query_claim_frame_is_scored_in_each_role_with_a_warning() -> None:
    scores = _score("qcf_ranked")
    t100 = _rows(scores, "NDCGScorerV1", "T100")["ontopic"]
    assert ("uidQ", 112 + 4) in t100.ideal  # a query claim frame: its Incorrect affiliation counts
    assert len(scores.warnings) == 1 and "pool claim uidQ is a query claim frame" in scores.warnings[0]


def test_nist_docker_layout_scores_the_same(tmp_path: Path) -> None:
    """The run as NIST's docker leaves it: rankings in SPARQL-AUGMENTED-output, frames in ARF-output."""
    root = FIXTURES / "multi"
    for ranking in (root / "RUN1").glob("Condition*/*/*.ranking.tsv"):
        condition, query = ranking.parent.parent.name, ranking.parent.name
        rankings = tmp_path / "SPARQL-AUGMENTED-output" / condition / query
        rankings.mkdir(parents=True)
        (rankings / ranking.name).write_bytes(ranking.read_bytes())
        frames = tmp_path / "ARF-output" / condition / query
        frames.mkdir(parents=True)
        for line in ranking.read_text(encoding="utf-8").splitlines():
            (frames / f"{line.split()[1]}-outer-claim.tab").write_text("", encoding="utf-8")
    docker = score_ta3(
        tmp_path, root / "queries_to_score.tab", root / "claim-mappings.tab", root / "LDC", run_id="RUN1"
    )
    assert docker.metrics == _score("multi").metrics


def test_a_run_no_mapping_knows_is_refused_naming_the_runs_the_mappings_hold() -> None:
    """Every score would be 0 (issue 42 §4): the run ID (the folder's name by default) is wrong."""
    with pytest.raises(UsageError) as caught:
        _score("T7", run_id="ANOTHER")
    assert str(caught.value) == (
        f"{FIXTURES / 'T7' / 'claim-mappings.tab'}: no ranked claim of run ANOTHER is mapped to a pool claim; "
        "the mappings hold run(s) RUN1, RUN2: give the run's ID with --run-id"
    )
    assert _rows(_score("T7", run_id="RUN1"), "NDCGScorerV1", "T200")["ontopic"].assessed == 4


def test_a_claim_without_a_required_field_is_not_correct_and_stops_nothing() -> None:
    """A Condition 7 claim frame has no X variable: with its empty template judged Correct, NIST's
    scorer stops on it (condition7_no_xvariable/nist: AttributeError); with the template judged N/A
    NIST reads no further and finishes (no_xvariable, compared byte for byte above). aifcheck scores
    both: the claim's required fields are not all correct, one warning says so."""
    scores = _score("condition7_no_xvariable")
    assert {p.read_text().strip() for p in (FIXTURES / "condition7_no_xvariable" / "nist").glob("*.failed")} == {
        "AttributeError: 'NoneType' object has no attribute 'get'"
    }
    condition6 = _rows(scores, "NDCGScorerV1", "T100")["ontopic"]
    assert condition6.gains == (112, 0) and condition6.ideal == (("uidA", 112),)
    assert _rows(scores, "NDCGScorerV1", "C1")["ontopic"].gains == (0,)
    assert [w for w in scores.warnings if "required field" in w] == [
        "1 pool claim(s) have no component 1 of a required field, as a Condition 7 claim frame has no template "
        "or X variable (uidC (xVariable)): their required fields are not all correct, so they gain nothing and "
        "are in no ideal list (NIST's scorer stops on them)"
    ]
    assert not any("required field" in w for w in _score("no_xvariable").warnings)
