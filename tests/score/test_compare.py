"""`aifcheck score compare` and aifcheck.score.compare: two runs, metric by metric, with a paired
bootstrap interval of the difference and an approximate-randomization p-value."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import numpy as np
import pytest
from helpers import SHARED_DATA

from aifcheck.render.compare import comparison_text
from aifcheck.score.ci import Stream
from aifcheck.score.compare import approximate_randomization, compare_runs, paired_bootstrap
from aifcheck.score.scorefiles import read_scores

EXAMPLE = SHARED_DATA / "ta1-scoring" / "example-task1-run"
HEADER = "DocID\tRunID\tLanguage\tMetatype\tGoldClusterID\tSystemClusterID\tAvgEdgeScore"


def write_ta1(folder: Path, documents: dict[str, list[float]], metric: str = "FrameMetric", run: str = "run") -> Path:
    """A TA1 per-cluster score table as NIST writes it (one language, one metatype), with its
    ALL-Micro and ALL-Macro rows."""
    rows = [HEADER]
    for document, values in documents.items():
        rows += [f"{document}\t{run}\tENG\tEvent\tg{i}\ts{i}\t{v:.4f}" for i, v in enumerate(values)]
    every = [v for values in documents.values() for v in values]
    micro = sum(every) / len(every)
    macro = sum(sum(v) / len(v) for v in documents.values()) / len(documents)
    for kind, value in (("ALL-Micro", micro), ("ALL-Macro", macro)):
        for language, metatype in (("ENG", "Event"), ("ENG", "ALL"), ("ALL", "Event"), ("ALL", "ALL")):
            rows.append(f"{kind}\t{run}\t{language}\t{metatype}\t\t\t{value:.4f}")
    (folder / "scores").mkdir(parents=True, exist_ok=True)
    path = folder / "scores" / f"{metric}-scores.tab"
    path.write_text("\n".join(rows) + "\n")
    return folder


def aifcheck(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["aifcheck", *args], capture_output=True, text=True)


def documents(rng: np.random.Generator, count: int, shift: float = 0.0) -> dict[str, list[float]]:
    return {f"D{d}": [float(min(1.0, max(0.0, v + shift))) for v in rng.uniform(0.2, 0.7, 3)] for d in range(count)}


def test_identical_runs_differ_by_zero_with_p_one(tmp_path):
    values = documents(np.random.default_rng(1), 12)
    a, b = write_ta1(tmp_path / "a", values), write_ta1(tmp_path / "b", values)
    done = aifcheck("score", "compare", str(a), str(b), "--format", "json")
    assert done.returncode == 0, done.stderr
    metric = json.loads(done.stdout)["metrics"]["FrameMetric"]
    assert set(metric) >= {"a", "b", "difference", "ci", "p_value"}
    assert metric["difference"] == 0 and metric["ci"] == [0, 0] and metric["p_value"] == 1
    assert metric["a"] == metric["b"] == pytest.approx(sum(sum(v) / 3 for v in values.values()) / 12, abs=1e-4)


def test_identical_nist_example_runs(tmp_path):
    if not EXAMPLE.is_dir():
        pytest.skip(f"NIST's example TA1 run not found at {EXAMPLE}")
    done = aifcheck("score", "compare", str(EXAMPLE), str(EXAMPLE / "scores"), "--format", "json")
    metrics = json.loads(done.stdout)["metrics"]
    assert len(metrics) == 12
    assert all(m["difference"] == 0 and m["p_value"] == 1 and m["ci"] == [0, 0] for m in metrics.values())
    assert metrics["FrameMetric"]["a"] == pytest.approx(0.3488, abs=1e-4)  # results.json's FrameMetric_S


@pytest.mark.parametrize("count", [10, 25])
def test_better_on_every_document_is_significant(count, tmp_path):
    rng = np.random.default_rng(count)
    base = documents(rng, count)
    better = {d: [min(1.0, v + 0.05 + 0.01 * i) for v in values] for i, (d, values) in enumerate(base.items())}
    a, b = write_ta1(tmp_path / "a", base), write_ta1(tmp_path / "b", better)
    comparison = compare_runs(a, b)
    metric = comparison.metrics[0]
    assert metric.p_value < 0.01
    assert 0 < metric.ci[0] <= metric.difference <= metric.ci[1]
    # with 10 documents all of one sign the exact randomization p is 2 / 2**10
    if count == 10:
        assert metric.p_value == pytest.approx(2 / 1024, abs=0.002)


def test_worse_run_gives_a_negative_interval_and_the_text_marks_it(tmp_path):
    rng = np.random.default_rng(5)
    base = documents(rng, 15)
    worse = {d: [max(0.0, v - 0.1) for v in values] for d, values in base.items()}
    comparison = compare_runs(write_ta1(tmp_path / "a", base), write_ta1(tmp_path / "b", worse))
    metric = comparison.metrics[0]
    assert metric.ci[1] < 0 and metric.difference == pytest.approx(-0.1, abs=1e-4)
    line = next(line for line in comparison_text(comparison).splitlines() if line.startswith("FrameMetric"))
    assert line.split()[1:5] == ["15", format(metric.a, ".4f"), format(metric.b, ".4f"), f"{metric.difference:+.4f}"]
    assert line.endswith("***")


def test_unpaired_documents_are_listed_and_left_out(tmp_path):
    rng = np.random.default_rng(2)
    base = documents(rng, 10)
    other = {**{d: v for d, v in base.items() if d != "D3"}, "D99": [0.9]}
    done = aifcheck(
        "score",
        "compare",
        str(write_ta1(tmp_path / "a", base)),
        str(write_ta1(tmp_path / "b", other)),
        "--format",
        "json",
    )
    assert done.returncode == 0
    metric = json.loads(done.stdout)["metrics"]["FrameMetric"]
    assert metric["units"] == 9 and metric["only_a"] == ["D3"] and metric["only_b"] == ["D99"]
    assert metric["difference"] == 0 and metric["p_value"] == 1  # the paired documents are the same
    assert (
        "warning: FrameMetric: 2 document(s) in one run only are left out (only in A: D3; only in B: D99)"
        in done.stderr
    )


def test_few_paired_units_give_one_warning_per_count_not_one_per_metric(tmp_path):
    rng = np.random.default_rng(4)
    a, b = tmp_path / "a", tmp_path / "b"
    names = ("FrameMetric", "TemporalMetric", "TypeMetricV4", "NegationMetricV1", "CoreferenceMetric")
    for name in names:
        write_ta1(a, documents(rng, 3), metric=name)
        write_ta1(b, documents(rng, 3), metric=name)
    write_ta1(a, documents(rng, 2), metric="ArgumentMetricV3A1")
    write_ta1(b, documents(rng, 2, shift=0.1), metric="ArgumentMetricV3A1")
    warnings = compare_runs(a, b).warnings
    assert warnings == (
        "ArgumentMetricV3A1: 2 paired document(s) only: the interval is rough and no p-value can fall below 0.5",
        "CoreferenceMetric, FrameMetric, NegationMetricV1 and 2 more metric rows: 3 paired document(s) only: "
        "the interval is rough and no p-value can fall below 0.25",
    )


def test_a_metric_in_one_run_only_is_not_compared(tmp_path):
    values = documents(np.random.default_rng(3), 5)
    a = write_ta1(tmp_path / "a", values)
    write_ta1(a, values, metric="TemporalMetric")
    comparison = compare_runs(a, write_ta1(tmp_path / "b", values))
    assert [m.label for m in comparison.metrics] == ["FrameMetric"]
    assert comparison.unmatched == ("TemporalMetric (A only)",)


def test_tab_file_and_text(tmp_path):
    values = documents(np.random.default_rng(4), 6)
    a, b = (
        write_ta1(tmp_path / "a", values),
        write_ta1(tmp_path / "b", {d: [v * 0.9 for v in vs] for d, vs in values.items()}),
    )
    tab = tmp_path / "compare.tab"
    done = aifcheck("score", "compare", str(a), str(b), "--tab", str(tab))
    assert done.returncode == 0
    lines = tab.read_text().splitlines()
    assert lines[0].split("\t") == ["Metric", "Units", "A", "B", "Difference", "Lower", "Upper", "PValue"]
    assert lines[1].split("\t")[:2] == ["FrameMetric", "6"]
    assert done.stdout.splitlines()[0].split()[:5] == ["metric", "units", "A", "B", "B-A"]


def test_ta3_units_are_queries_with_ground_truth(tmp_path):
    def ta3(folder: Path, ndcg: list[float]) -> Path:
        rows = ["Condition\tQueryID\tClaimRelation\tRunID\tNumAssessedClaims\tGT\tNDCG"]
        rows += [f"Condition5\tQ{i}\tontopic\trun\t3\t{0 if i == 0 else 2}\t{v:.4f}" for i, v in enumerate(ndcg)]
        kept = ndcg[1:]
        rows.append(f"Condition5\tALL-Macro\tontopic\trun\t\t\t{sum(kept) / len(kept):.4f}")
        (folder / "scores").mkdir(parents=True)
        (folder / "scores" / "NDCGScorerV1-scores.tab").write_text("\n".join(rows) + "\n")
        return folder

    comparison = compare_runs(ta3(tmp_path / "a", [0.0, 0.5, 0.6, 0.7]), ta3(tmp_path / "b", [0.0, 0.6, 0.7, 0.8]))
    metric = comparison.metrics[0]
    assert metric.label == "NDCGScorerV1 Condition5 ontopic" and metric.unit_name == "query"
    assert metric.paired == 3 and metric.difference == pytest.approx(0.1)
    assert metric.ci == pytest.approx((0.1, 0.1))  # the same gain on every query
    assert metric.reported_a == 0.6


def test_approximate_randomization_and_bootstrap_on_arrays():
    ones = np.ones(8)
    a = (np.array([0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8]), ones)
    same_but_one = (a[0].copy(), ones)
    same_but_one[0][3] += 0.3
    # one unit differs: swapping it only flips the sign, every trial reaches |d|
    assert approximate_randomization(a, same_but_one, 2000, 1) == 1.0
    low, high = paired_bootstrap(a, same_but_one, 0.95, 20_000, Stream(1, False))
    assert low == pytest.approx(0.0) and 0.0375 < high <= 0.3  # 0.3 / 8 a draw of the unit, at most all 8


def test_a_missing_folder_is_one_line(tmp_path):
    done = aifcheck("score", "compare", str(tmp_path / "nope"), str(tmp_path))
    assert (
        done.returncode == 3
        and done.stderr.strip() == f"aifcheck: error: {tmp_path / 'nope'}: no such file or directory"
    )
    empty = tmp_path / "empty"
    empty.mkdir()
    done = aifcheck("score", "compare", str(empty), str(empty))
    assert done.returncode == 3 and "no score files" in done.stderr


def test_scores_folder_reads_each_task_table(tmp_path):
    folder = write_ta1(tmp_path / "a", {"D1": [0.5]})
    scores = read_scores(folder)
    assert scores.name == "a" and [t.name for t in scores.tables] == ["FrameMetric"]
    assert [h.label for h in scores.headlines()] == ["FrameMetric"]
