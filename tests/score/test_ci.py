"""`aifcheck score ci` and aifcheck.score.ci: NIST's bootstrap confidence intervals
(research/confidence-intervals.md), byte for byte with NIST's tool where a seed is given.

The NIST cases (tests/score/fixtures/ci/build.py) are NIST's generate_confidence_intervals.py run
with arch 4.19 and ``-s N``: aifcheck with ``--seed N`` must write the same two files, and stop
(exit 3, one located line, no file) where NIST's tool stops.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from helpers import ROOT, SHARED_DATA

from aifcheck.errors import UsageError
from aifcheck.render.ci import ci_table, write_folder_intervals
from aifcheck.score.ci import (
    DEFAULT_SEED,
    REPLICATIONS,
    REPLICATIONS_AT_99,
    CIOptions,
    Stream,
    folder_intervals,
    headline_intervals,
    mean_intervals,
    nist_intervals,
    nist_statistics,
    replications_for,
    unit_intervals,
)
from aifcheck.score.scorefiles import Unit, read_score_file, read_table

FIXTURES = ROOT / "tests" / "score" / "fixtures" / "ci"
sys.path.insert(0, str(FIXTURES))
from build import CASES, input_path  # noqa: E402  (the fixtures' own list of cases)

EXAMPLE_SCORES = SHARED_DATA / "ta1-scoring" / "example-task1-run" / "scores"
TA1_KEY = "RunID,Language,Metatype"


def aifcheck(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(["aifcheck", *args], capture_output=True, text=True, cwd=cwd)


def nist_to_aifcheck(case: str) -> tuple[Path, list[str]]:
    """The input and `aifcheck score ci` options of a NIST case."""
    words = CASES[case].split()
    options, (key, score, summary, document, run, source) = words[:-6], words[-6:]
    mapped = {"-m": ["--macro"]}
    translated, i = [], 0
    while i < len(options):
        if options[i] == "-s":
            translated += ["--seed", options[i + 1]]
            i += 2
        elif options[i] == "-S":
            translated += ["--sizes", options[i + 1]]
            i += 2
        else:
            translated += mapped[options[i]]
            i += 1
    return input_path(source), [
        "--score",
        score,
        "--key",
        key,
        "--summary",
        summary,
        "--document",
        document,
        "--run",
        run,
        *translated,
    ]


def _source_or_skip(source: Path) -> None:
    if not source.exists():
        pytest.skip(f"NIST's example TA1 scores not found at {source.parent}")


# NIST's cases aifcheck answers otherwise, and the start of its error: a --summary column the table
# lacks gives NIST's tool a file of the header alone (a typo taken for "no summary row")
REFUSED = {"toy_no_summary": "--summary Nope: "}


@pytest.mark.parametrize("case", sorted(CASES))
def test_nist_case(case, tmp_path):
    source, options = nist_to_aifcheck(case)
    _source_or_skip(source)
    pretty, tab = tmp_path / "ci.txt", tmp_path / "ci.tab"
    done = aifcheck("score", "ci", str(source), *options, "-o", str(pretty), "--tab", str(tab))
    if case in REFUSED:  # NIST's tool takes it, and aifcheck refuses it (docs/differences.md)
        assert done.returncode == 2 and done.stderr.startswith(f"aifcheck: error: {REFUSED[case]}"), done.stderr
        assert not pretty.exists() and not tab.exists()
        return
    failed = FIXTURES / "nist" / f"{case}.failed"
    if failed.exists():
        assert done.returncode in (2, 3), done.stderr
        assert len(done.stderr.strip().splitlines()) == 1, done.stderr
        assert done.stderr.startswith("aifcheck: error: ")
        assert not pretty.exists() and not tab.exists()
        return
    assert done.returncode == 0, done.stderr
    assert pretty.read_bytes() == (FIXTURES / "nist" / f"{case}.txt").read_bytes()
    assert tab.read_bytes() == (FIXTURES / "nist" / f"{case}.tab").read_bytes()


def test_nist_statistics_read_numpy_s_legacy_randint():
    """NIST's stream read in bulk (masked MT19937 outputs, shared by every size) gives randint's
    indices: at the edges of the masks, across chunks (n = 1625: some 120 replications a chunk)
    and with rows longer than a chunk (n = 260,001)."""
    small = [1, 2, 3, 5, 1024, 1025, 1625, 10_000]
    for seed, replications, sizes in ((1, 1, [*small, 65537]), (7, 300, small), (123, 3, [*small, 260001])):
        drawn = nist_statistics([(n, [np.copy]) for n in sizes], replications, seed)
        assert len(drawn) == len(sizes)
        for n, (indices,) in zip(sizes, drawn, strict=True):
            assert np.array_equal(indices, np.random.RandomState(seed).randint(n, size=(replications, n))), (n, seed)


def test_nist_stream_on_one_core_or_in_rounds_is_the_same(monkeypatch):
    """The table's six sizes read NIST's stream together on the cores, or on one core, or in
    rounds of two sizes (each round drawing the stream again): the same intervals."""
    from aifcheck.score import ci, resample

    table = read_table(FIXTURES / "continuous.tab")
    options = CIOptions("Score", tuple(TA1_KEY.split(",")), (("DocID", "ALL-Macro"),), seed=4, replications=3000)
    together = nist_intervals(table, options)
    monkeypatch.setattr(resample, "THREADS", 1)
    assert nist_intervals(table, options) == together
    monkeypatch.setattr(ci, "_READERS", 2)
    assert nist_intervals(table, options) == together


# research §7, the worked example


def test_toy_example_as_in_the_research_note(tmp_path):
    pretty, tab = tmp_path / "ci.txt", tmp_path / "ci.tab"
    done = aifcheck(
        "score",
        "ci",
        str(FIXTURES / "toy.tab"),
        "--score",
        "Score",
        "--key",
        TA1_KEY,
        "--summary",
        "DocID:ALL-Micro,DocID:ALL-Macro",
        "--document",
        "DocID",
        "--sizes",
        "0.9",
        "--seed",
        "1",
        "-o",
        str(pretty),
        "--tab",
        str(tab),
    )
    assert done.returncode == 0, done.stderr
    assert pretty.read_text() == (
        "RunID Language Metatype   90%(  score   )90%\n"
        "   r1      ENG      ALL 0.2000 0.5667 0.8000\n"
        "   r1      ENG      ALL 0.2000 0.6500 0.8000\n"
        "   r1      ALL    Event 0.3000 0.5000 0.7250\n"
        "   r1      ALL    Event 0.3000 0.6000 0.7250"
    )
    assert tab.read_text().split("\n")[:2] == [
        "RunID\tLanguage\tMetatype\t90%(\tscore\t)90%",
        "r1\tENG\tALL\t0.2000\t0.5667\t0.8000",
    ]
    assert not tab.read_text().endswith("\n")  # NIST writes no newline after the last line
    assert "seed 1, NIST's stream" in done.stderr


def test_toy_macro_two_documents_give_smaller_value_and_mean():
    table = read_table(FIXTURES / "toy.tab")
    result = nist_intervals(
        table,
        CIOptions(
            "Score",
            tuple(TA1_KEY.split(",")),
            (("DocID", "ALL-Micro"), ("DocID", "ALL-Macro")),
            "DocID",
            macro=True,
            sizes=(0.7, 0.8, 0.9, 0.95),
            seed=1,
        ),
    )
    english = result.lines[0]
    assert english.key == ("r1", "ENG", "ALL") and english.sample_size == 2
    # research §5: (D1: 0.4, D2: 0.9) gives (smaller value, mean) at every default size
    assert all(english.intervals[s] == pytest.approx((0.4, 0.65)) for s in (0.7, 0.8, 0.9, 0.95))
    assert [line.key[1] for line in result.lines] == ["ENG", "ALL"]  # the ALL-Micro lines are not printed


def test_no_summary_rows_give_the_header_alone(tmp_path):
    pretty, tab = tmp_path / "ci.txt", tmp_path / "ci.tab"
    done = aifcheck(
        "score",
        "ci",
        str(FIXTURES / "toy.tab"),
        "--score",
        "Score",
        "--summary",
        "DocID:Nope",
        "--sizes",
        "0.9",
        "-o",
        str(pretty),
        "--tab",
        str(tab),
    )
    assert done.returncode == 0
    assert pretty.read_text() == "RunID Language Metatype 90%( score )90%"
    assert tab.read_text() == "RunID\tLanguage\tMetatype\t90%(\tscore\t)90%"
    assert "no row matches --summary DocID:Nope" in done.stderr
    typo = aifcheck(
        "score", "ci", str(FIXTURES / "toy.tab"), "--summary", "Nope:ALL-Macro", "-o", str(pretty), "--tab", str(tab)
    )
    assert typo.returncode == 2 and typo.stderr.startswith("aifcheck: error: --summary Nope: "), typo.stderr


def test_the_api_checks_every_column_the_command_checks():
    # the checks live with the computation: a library caller gets the command's words
    table = read_table(FIXTURES / "wildcard.tab")
    for options, says in (
        (CIOptions("Score", ("Language",), (("Nope", "ALL-Macro"),)), "--summary Nope: "),
        (CIOptions("Score", ("Language",), (("DocID", "ALL-Macro"),), document="Nope"), "--document Nope: "),
    ):
        with pytest.raises(UsageError, match=says):
            nist_intervals(table, options)


# research §8, the quirks (their numbers are NIST's, in the parametrised cases above)


def test_quirk1_wildcard_walk_skips_a_column_and_warns(tmp_path):
    result = nist_intervals(
        read_table(FIXTURES / "wildcard.tab"),
        CIOptions("Score", ("Language", "Metatype"), (("DocID", "ALL-Macro"),), sizes=(0.9,), seed=1),
    )
    line = result.lines[0]
    assert line.sample_size == 2 and line.intervals[0.9] == pytest.approx((0.2, 0.5))
    assert any("Metatype" in w and "2 rows instead of 1" in w for w in result.warnings)


def test_quirk2_keys_joined_with_dots_share_an_interval():
    result = nist_intervals(
        read_table(FIXTURES / "dotted.tab"),
        CIOptions("Score", ("A", "B"), (("DocID", "ALL-Macro"),), sizes=(0.9,), seed=1),
    )
    assert result.lines[0].intervals == result.lines[1].intervals
    assert result.lines[1].sample_size == 2 and result.lines[1].key == ("x", "y.z")
    assert any("'x.y.z'" in w for w in result.warnings)


def test_quirk3_labels_truncate_and_a_repeated_label_is_refused(tmp_path):
    result = nist_intervals(
        read_table(FIXTURES / "toy.tab"),
        CIOptions("Score", tuple(TA1_KEY.split(",")), (("DocID", "ALL-Macro"),), sizes=(0.9, 0.57), seed=1),
    )
    assert ci_table(result, "tab").split("\n")[0].split("\t")[3:] == ["90%(", "56%(", "score", ")56%", ")90%"]
    assert any("0.57 is labelled 56%" in w for w in result.warnings)
    pretty, tab = tmp_path / "ci.txt", tmp_path / "ci.tab"
    done = aifcheck(
        "score", "ci", str(FIXTURES / "toy.tab"), "--sizes", "0.97,0.975", "-o", str(pretty), "--tab", str(tab)
    )
    assert done.returncode == 2 and "share the label 97%" in done.stderr
    assert not pretty.exists() and not tab.exists()


def test_quirk4_without_macro_both_summary_lines_share_the_row_interval():
    result = nist_intervals(
        read_table(FIXTURES / "toy.tab"),
        CIOptions(
            "Score", tuple(TA1_KEY.split(",")), (("DocID", "ALL-Micro"), ("DocID", "ALL-Macro")), sizes=(0.9,), seed=1
        ),
    )
    micro, macro = result.lines[0], result.lines[1]
    assert micro.intervals == macro.intervals and (micro.score, macro.score) == (0.5667, 0.65)
    assert macro.score > macro.intervals[0.9][0]  # the ALL-Macro score may lie outside: here it is inside the 90% one


def test_quirk5_macro_hides_only_all_micro_lines(tmp_path):
    result = nist_intervals(
        read_table(FIXTURES / "toy.tab"),
        CIOptions(
            "Score", tuple(TA1_KEY.split(",")), (("DocID", "ALL-Micro"),), "DocID", macro=True, sizes=(0.9,), seed=1
        ),
    )
    assert result.lines == () and any("header alone" in w for w in result.warnings)


def test_quirk6_size_99_takes_ten_million_replications_unless_overridden(tmp_path):
    assert replications_for(0.99, None) == REPLICATIONS_AT_99 == 10_000_000
    assert replications_for(0.990, None) == REPLICATIONS_AT_99
    assert replications_for(0.95, None) == REPLICATIONS == 100_000
    assert replications_for(0.99, 5000) == 5000
    done = aifcheck(
        "score",
        "ci",
        str(FIXTURES / "toy.tab"),
        "--sizes",
        "0.99",
        "--replications",
        "5000",
        "-o",
        str(tmp_path / "a.txt"),
        "--tab",
        str(tmp_path / "a.tab"),
    )
    assert done.returncode == 0 and "5000 replications per interval (NIST's tool: 100,000" in done.stderr


def test_quirk8_the_run_column_is_never_read(tmp_path):
    done = aifcheck(
        "score",
        "ci",
        str(FIXTURES / "toy.tab"),
        "--run",
        "NoSuchColumn",
        "--sizes",
        "0.9",
        "-o",
        str(tmp_path / "a.txt"),
        "--tab",
        str(tmp_path / "a.tab"),
    )
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize(
    "table, line, words",
    [
        ("no_rows.tab", 5, "no data rows for the key RunID=r1 Language=FRA Metatype=ALL"),  # quirk 9
        ("blank_score.tab", 4, "Score: '' is not a number"),  # quirk 10
        ("bad_score.tab", 3, "Score: 'abc' is not a number"),  # quirk 11
        ("short_row.tab", 3, "1 cell, the header has 5 columns"),  # quirk 12
    ],
)
def test_quirks_9_to_12_bad_input_is_one_located_line(table, line, words, tmp_path):
    pretty, tab = tmp_path / "ci.txt", tmp_path / "ci.tab"
    done = aifcheck(
        "score", "ci", str(FIXTURES / table), "--summary", "DocID:ALL-Macro", "-o", str(pretty), "--tab", str(tab)
    )
    assert done.returncode == 3
    assert (
        done.stderr.strip() == f"aifcheck: error: {FIXTURES / table}:{line}: {words}"
        or done.stderr.strip().startswith(f"aifcheck: error: {FIXTURES / table}:{line}: {words}")
    )
    assert not pretty.exists() and not tab.exists()


def test_missing_column_names_the_file_and_its_header(tmp_path):
    done = aifcheck(
        "score",
        "ci",
        str(FIXTURES / "toy.tab"),
        "--score",
        "F1",
        "-o",
        str(tmp_path / "a"),
        "--tab",
        str(tmp_path / "b"),
    )
    assert done.returncode == 2  # a usage error: the option names what the table lacks
    assert done.stderr.strip() == (
        f"aifcheck: error: --score F1: {FIXTURES / 'toy.tab'} has no such column "
        "(its columns: DocID, RunID, Language, Metatype, Score)"
    )


def test_a_table_of_no_known_task_needs_its_options(tmp_path):
    done = aifcheck(
        "score", "ci", str(FIXTURES / "dotted.tab"), "-o", str(tmp_path / "a"), "--tab", str(tmp_path / "b")
    )
    assert done.returncode == 2 and "give --score" in done.stderr


def test_quirk13_strict_below_differs_from_scipy_on_tied_scores():
    """Sample B of research §9: 19 x 1.0 and one 0.5. NIST (arch) counts only replications
    strictly below the mean; scipy's BCa counts ties as half, and its lower bounds are higher."""
    from scipy.stats import bootstrap

    sample = np.array([1.0] * 19 + [0.5])
    ours = mean_intervals(sample, (0.9, 0.95), Stream.of(None))
    theirs = {
        size: bootstrap(
            (sample,),
            np.mean,
            method="BCa",
            n_resamples=REPLICATIONS,
            confidence_level=size,
            rng=np.random.default_rng(1),
        ).confidence_interval
        for size in (0.9, 0.95)
    }
    assert 0.80 <= ours[0.95][0] <= 0.8261  # arch's range over 40 runs (research §9)
    assert theirs[0.95].low - ours[0.95][0] > 0.04
    assert theirs[0.9].low - ours[0.9][0] > 0.05
    assert ours[0.9][1] == pytest.approx(0.975) and theirs[0.9].high == pytest.approx(1.0)


def test_constant_sample_is_min_and_max_without_bootstrap():
    assert mean_intervals([0.5, 0.5, 0.5], (0.9,), Stream.of(None)) == {0.9: (0.5, 0.5)}
    assert mean_intervals([0.25], (0.9, 0.95), Stream.of(1)) == {0.9: (0.25, 0.25), 0.95: (0.25, 0.25)}


def test_default_seed_is_fixed_printed_and_runs_agree(tmp_path):
    outputs = []
    for run in ("1", "2"):
        pretty, tab = tmp_path / f"{run}.txt", tmp_path / f"{run}.tab"
        done = aifcheck("score", "ci", str(FIXTURES / "continuous.tab"), "-o", str(pretty), "--tab", str(tab))
        assert done.returncode == 0, done.stderr
        assert f"seed {DEFAULT_SEED}, aifcheck's PCG64 stream" in done.stderr
        outputs.append((pretty.read_bytes(), tab.read_bytes()))
    assert outputs[0] == outputs[1]
    assert outputs[0][0] != (FIXTURES / "nist" / "continuous.txt").read_bytes()  # another stream than -s 7


def test_default_stream_agrees_with_nist_within_monte_carlo_noise():
    """Same BCa, another random stream: the bounds of a continuous sample differ by noise only."""
    table = read_table(FIXTURES / "continuous.tab")
    options = {"score": "Score", "key": tuple(TA1_KEY.split(",")), "summary": (("DocID", "ALL-Macro"),)}
    nist = nist_intervals(table, CIOptions(**options, seed=7))
    ours = nist_intervals(table, CIOptions(**options))
    for a, b in zip(nist.lines, ours.lines, strict=True):
        for size in (0.7, 0.8, 0.9, 0.95):
            assert a.intervals[size] == pytest.approx(b.intervals[size], abs=0.01)


def test_counts_and_indices_draw_the_same_distribution():
    """aifcheck's stream draws counts of the distinct values for tied samples and indices
    otherwise: both resample n rows, so their intervals agree within noise."""
    from aifcheck.score.ci import acceleration, bca

    tied = np.array([1.0] * 120 + [0.0] * 6 + [0.5] * 2)  # research §9 sample C
    by_counts = mean_intervals(tied, (0.9, 0.95), Stream.of(None))
    replicates = Stream(3, False).replicate(len(tied), REPLICATIONS, lambda block: np.take(tied, block).mean(axis=1))
    accel = acceleration((tied.sum() - tied) / (len(tied) - 1))
    for size in (0.9, 0.95):
        by_indices = bca(replicates, float(tied.mean()), accel, size)
        assert by_counts[size] == pytest.approx(by_indices, abs=1 / 128 + 1e-9)  # a step of the attainable means
    assert by_counts[0.95] == pytest.approx((0.8906, 0.9727), abs=0.004)  # research §9: arch's, in 40 runs


def test_unit_intervals_of_means_are_nist_macro_intervals():
    table = read_table(FIXTURES / "continuous.tab")
    options = CIOptions(
        "Score",
        tuple(TA1_KEY.split(",")),
        (("DocID", "ALL-Macro"), ("DocID", "ALL-Micro")),
        "DocID",
        macro=True,
        seed=3,
    )
    line = nist_intervals(table, options).lines[-1]
    assert line.key == ("r1", "ALL", "ALL") and line.sample_size == 30
    documents: dict[str, list[float]] = {}
    for row in table.rows:
        if not row.cells[0].startswith("ALL-"):
            documents.setdefault(row.cells[0], []).append(float(row.cells[4]))
    units = [Unit(d, sum(v) / len(v), 1.0) for d, v in documents.items()]
    assert unit_intervals(units, options.sizes, Stream.of(3)) == line.intervals


def test_ratio_units_resample_whole_units():
    units = [Unit(f"q{i}", float(i % 3), 2.0) for i in range(12)]  # each unit: a sum over 2 rows
    intervals = unit_intervals(units, (0.9,), Stream.of(None))
    low, high = intervals[0.9]
    assert low < 0.5 < high and low >= 0 and high <= 1


# the API the scorers' --ci uses


def test_headline_intervals_of_nist_example_as_nist_called_its_tool():
    source = EXAMPLE_SCORES / "FrameMetric-scores.tab"
    _source_or_skip(source)
    result = headline_intervals(source, seed=5)
    assert ci_table(result, "pretty") == (FIXTURES / "nist" / "frame_macro.txt").read_text()


def test_folder_intervals_write_beside_the_scores(tmp_path):
    _source_or_skip(EXAMPLE_SCORES)
    out = tmp_path / "out"
    (out / "scores").mkdir(parents=True)
    for file in EXAMPLE_SCORES.glob("*-scores.tab"):
        (out / "scores" / file.name).write_bytes(file.read_bytes())
    results = folder_intervals(out, sizes=(0.9,))
    assert len(results) == 12
    written = write_folder_intervals(out, results)
    assert (out / "scores" / "FrameMetric-ci.txt") in written and (out / "scores" / "TypeMetricV4-ci.tab") in written
    header = (out / "scores" / "NegationMetricV2-ci.tab").read_text().split("\n")[0]
    assert header == "RunID\tLanguage\tMetatype\t90%(\tscore\t)90%"
    # a TA1 --macro run: no ALL-Micro line; one line per ALL-Macro row
    assert len((out / "scores" / "FrameMetric-ci.tab").read_text().split("\n")) == 1 + 9


def test_ta3_headline_leaves_out_queries_without_ground_truth(tmp_path):
    rows = [
        "Condition\tQueryID\tClaimRelation\tRunID\tNumAssessedClaims\tGT\tNDCG",
        "Condition5\tQ1\tontopic\trun\t3\t2\t0.5000",
        "Condition5\tQ2\tontopic\trun\t3\t4\t0.9000",
        "Condition5\tQ3\tontopic\trun\t0\t0\t0.0000",
        "Condition5\tALL-Macro\tontopic\trun\t\t\t0.7000",
    ]
    path = tmp_path / "NDCGScorerV1-scores.tab"
    path.write_text("\n".join(rows) + "\n")
    result = headline_intervals(path, sizes=(0.9,), seed=1)
    assert [line.sample_size for line in result.lines] == [2]  # Q3 (GT 0) is not in NIST's ALL-Macro
    assert result.lines[0].intervals[0.9] == pytest.approx((0.5, 0.7))
    assert ci_table(result, "pretty").split("\n")[0].split() == [
        "Condition",
        "ClaimRelation",
        "RunID",
        "90%(",
        "score",
        ")90%",
    ]


def test_crux_claims_json_reads_as_a_table(tmp_path):
    path = tmp_path / "crux.json"
    path.write_text(
        '{"precision": 0.75, "recall": 0.75, "f1": 0.75, "accuracy": 0.9, "true_positives": 3, '
        '"false_positives": 1, "false_negatives": 1, "documents": {'
        '"D1": {"precision": 0.5, "recall": 1.0, "f1": 0.6667, "accuracy": 0.91, "true_positives": 2, '
        '"false_positives": 2, "false_negatives": 0}, '
        '"D2": {"precision": 1.0, "recall": 0.5, "f1": 0.6667, "accuracy": 0.98, "true_positives": 1, '
        '"false_positives": 0, "false_negatives": 1}}}'
    )
    table = read_score_file(path)
    assert table.columns[:4] == ("document", "TP", "FP", "FN") and [r.cells[0] for r in table.rows] == [
        "D1",
        "D2",
        "ALL",
    ]
    result = headline_intervals(path, sizes=(0.9,), seed=1)
    assert result.lines[0].key == ("ALL",) and result.lines[0].score == 0.75


def test_bad_options_are_usage_errors():
    table = read_table(FIXTURES / "toy.tab")
    with pytest.raises(UsageError, match="between 0 and 1"):
        nist_intervals(table, CIOptions("Score", ("RunID",), (("DocID", "ALL-Macro"),), sizes=(1.5,)))
    with pytest.raises(UsageError, match="--macro needs --document"):
        nist_intervals(table, CIOptions("Score", ("RunID",), (("DocID", "ALL-Macro"),), macro=True))
    with pytest.raises(UsageError, match=r"--document Doc: .* has no such column"):
        nist_intervals(table, CIOptions("Score", ("RunID",), (("DocID", "ALL-Macro"),), document="Doc", macro=True))


def test_help_and_bad_summary(tmp_path):
    assert aifcheck("score", "ci", "-h").returncode == 0
    done = aifcheck(
        "score",
        "ci",
        str(FIXTURES / "toy.tab"),
        "--summary",
        "DocID",
        "-o",
        str(tmp_path / "a"),
        "--tab",
        str(tmp_path / "b"),
    )
    assert done.returncode == 2 and "'DocID' is not COLUMN:VALUE" in done.stderr


def test_headline_without_ground_truth_has_no_interval_and_the_others_do(tmp_path):
    rows = [
        "Condition\tQueryID\tClaimRelation\tRunID\tNumAssessedClaims\tGT\tNDCG",
        "Condition5\tQ1\tontopic\trun\t3\t2\t0.5000",
        "Condition5\tQ2\tontopic\trun\t3\t4\t0.9000",
        "Condition5\tQ1\trefuting\trun\t0\t0\t0.0000",
        "Condition5\tALL-Macro\tontopic\trun\t\t\t0.7000",
        "Condition5\tALL-Macro\trefuting\trun\t\t\t",
        "Condition6\tALL-Macro\tontopic\trun\t\t\t",
    ]
    path = tmp_path / "NDCGScorerV1-scores.tab"
    path.write_text("\n".join(rows) + "\n")
    result = headline_intervals(path, sizes=(0.9,), seed=1)
    assert [line.key[:2] for line in result.lines] == [("Condition5", "ontopic")]
    # one line for the file's blank rows, located at the first
    assert result.warnings[0] == f"{path}:6: no interval for the 2 summary rows whose NDCG is blank (lines 6, 7)"
    path.write_text("\n".join(rows[:-1]) + "\n")  # one blank row: its line alone
    one = headline_intervals(path, sizes=(0.9,), seed=1)
    assert one.warnings[0] == f"{path}:6: no interval: the NDCG of this summary row is blank"


def test_both_files_or_neither(tmp_path):
    pretty = tmp_path / "ci.txt"
    blocked = tmp_path / "file"
    blocked.write_text("")
    done = aifcheck("score", "ci", str(FIXTURES / "toy.tab"), "-o", str(pretty), "--tab", str(blocked / "ci.tab"))
    assert done.returncode == 3 and f"cannot write {blocked / 'ci.tab'}" in done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]  # no pretty file, no partial file
