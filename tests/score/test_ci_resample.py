"""aifcheck's own bootstrap stream (aifcheck.score.resample, ``score ci`` without ``--seed``): the
fast path resamples every sample of a table together, samples sharing rows sharing their draws,
and adds decimal scores as integers. These tests hold it to a plain bootstrap (n indices drawn
per replication, int64 indices, float64 means, arch's strict comparison): the exact distribution
where it can be enumerated, the intervals within Monte-Carlo noise where it cannot, and the
printed bounds of the integer sums against float64 sums of the same draws."""

from __future__ import annotations

import math

import numpy as np
import pytest
from helpers import ROOT
from scipy.stats import chi2

from aifcheck.score import resample
from aifcheck.score.ci import CIOptions, Stream, acceleration, bca, mean_intervals, nist_intervals, sample_intervals
from aifcheck.score.scorefiles import read_table

FIXTURES = ROOT / "tests" / "score" / "fixtures" / "ci"

TA1_KEY = ("RunID", "Language", "Metatype")
SUMMARY = (("DocID", "ALL-Macro"), ("DocID", "ALL-Micro"))


def reference_intervals(sample: np.ndarray, sizes, replications: int, seed: int) -> dict[float, tuple[float, float]]:
    """The plain bootstrap, as arch computes it: n int64 indices per replication, float64 means,
    the bias from the replications strictly below the mean."""
    generator = np.random.default_rng(seed)
    n = len(sample)
    means = np.concatenate(
        [
            sample[generator.integers(0, n, size=(min(2000, replications - start), n))].mean(axis=1)
            for start in range(0, replications, 2000)
        ]
    )
    accel = acceleration((sample.sum() - sample) / (n - 1))
    return {size: bca(means, float(sample.mean()), accel, size) for size in sizes}


def exact_sum_distribution(values: np.ndarray) -> dict[int, float]:
    """The exact distribution of the sum of n draws with replacement from n integer values."""
    distribution = {0: 1.0}
    for _ in values:
        step: dict[int, float] = {}
        for total, chance in distribution.items():
            for value in values:
                step[int(total + value)] = step.get(int(total + value), 0.0) + chance / len(values)
        distribution = step
    return distribution


def test_overlapping_samples_each_have_the_exact_bootstrap_distribution():
    """Five rows, four samples: {0,1,2}, {3,4}, their union, and {2,3} across both. The rows fall
    into four atoms, shared by up to three samples, some of one row; each sample's replicated
    sums must follow the enumerated distribution of n draws from its own rows (a chi-square test
    on 200,000 replications: drawing a fixed number from each atom, or reusing one sample's draws
    for another's, fails it by far)."""
    values = np.array([0.125, 0.25, 0.625, 0.875, 0.375])  # eighths: float64 adds them exactly
    members = [np.array([0, 1, 2]), np.array([3, 4]), np.arange(5), np.array([2, 3])]
    replications = 200_000
    drawn = resample.replicate_means(values, members, replications, seed=11)
    for rows, found in zip(members, drawn, strict=True):
        n = len(rows)
        sums = np.rint(found.means * n * 1000).astype(np.int64)  # thousandths: the sums are exact
        expected = exact_sum_distribution(np.rint(values[rows] * 1000).astype(np.int64))
        support = sorted(expected)
        observed = np.array([np.count_nonzero(sums == s) for s in support])
        assert observed.sum() == replications  # nothing outside the support
        chances = np.array([expected[s] for s in support])
        statistic = float(np.sum((observed - replications * chances) ** 2 / (replications * chances)))
        assert chi2.sf(statistic, len(support) - 1) > 1e-4, (rows, statistic, len(support))
        # the share strictly below the mean, counted exactly
        total = int(np.rint(values[rows].sum() * 1000))
        assert found.below == np.count_nonzero(sums < total)
        assert found.below / replications == pytest.approx(sum(p for s, p in expected.items() if s < total), abs=0.005)


def strata_table(tmp_path):
    """A TA1-like table of 2 languages x 2 metatypes whose cells have very different means, so
    that resampling the pooled samples with a fixed number of rows per cell would narrow their
    intervals well beyond the noise."""
    rng = np.random.default_rng(5)
    lines = ["DocID\tRunID\tLanguage\tMetatype\tScore"]
    centres = {("ENG", "Entity"): 0.2, ("ENG", "Event"): 0.5, ("SPA", "Entity"): 0.6, ("SPA", "Event"): 0.9}
    for d in range(40):
        language = ("ENG", "SPA")[d % 2]
        for k in range(12):
            metatype = ("Entity", "Event")[k % 2]
            value = min(1.0, max(0.0, centres[language, metatype] + rng.uniform(-0.1, 0.1)))
            lines.append(f"D{d}\tr1\t{language}\t{metatype}\t{value:.4f}")
    for kind in ("ALL-Micro", "ALL-Macro"):
        for language in ("ENG", "SPA", "ALL"):
            for metatype in ("Entity", "Event", "ALL"):
                lines.append(f"{kind}\tr1\t{language}\t{metatype}\t0.5000")
    path = tmp_path / "strata.tab"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_pooled_samples_give_the_plain_bootstrap_intervals_within_noise(tmp_path):
    table = read_table(strata_table(tmp_path))
    sizes = (0.7, 0.8, 0.9, 0.95)
    fast = nist_intervals(table, CIOptions("Score", TA1_KEY, SUMMARY, "DocID", sizes=sizes))
    assert len({line.key for line in fast.lines}) == 9
    for line in fast.lines:
        language, metatype = line.key[1:]
        sample = np.array(
            [
                float(row.cells[4])
                for row in table.rows
                if not row.cells[0].startswith("ALL-")
                and language in (row.cells[2], "ALL")
                and metatype in (row.cells[3], "ALL")
            ]
        )
        assert len(sample) == line.sample_size
        reference = reference_intervals(sample, sizes, 100_000, seed=1)
        for size in sizes:
            # a bound's Monte-Carlo spread here is some 0.0002; pooling by cells would move the
            # pooled bounds by 0.01 or more
            assert line.intervals[size] == pytest.approx(reference[size], abs=0.0012), (line.key, size)


@pytest.mark.parametrize(
    "sample, expected",
    [
        # research §9: the means of arch's bounds over 40 runs (A: continuous; C: tied, never moved)
        ([0.0] * 8 + [round(0.05 + 0.0217 * i, 4) for i in range(32)], None),
        ([1.0] * 120 + [0.0] * 6 + [0.5] * 2, {0.95: (0.8906, 0.9727), 0.9: (0.8984, 0.9688)}),
    ],
)
def test_single_samples_agree_with_the_plain_bootstrap(sample, expected):
    data = np.array(sample)
    fast = mean_intervals(data, (0.9, 0.95), Stream.of(None))
    reference = reference_intervals(data, (0.9, 0.95), 100_000, seed=2)
    for size in (0.9, 0.95):
        assert fast[size] == pytest.approx(reference[size], abs=0.0025)
        if expected:
            assert fast[size] == pytest.approx(expected[size], abs=1e-4)


def ta1_samples(table) -> tuple[np.ndarray, list[np.ndarray]]:
    """Every row's score and, per key (language or ALL, metatype or ALL), its rows' positions."""
    data = [row for row in table.rows if not row.cells[0].startswith("ALL-")]
    values = np.array([float(row.cells[4]) for row in data])
    members = []
    for language in [*sorted({row.cells[2] for row in data}), "ALL"]:
        for metatype in [*sorted({row.cells[3] for row in data}), "ALL"]:
            members.append(
                np.array(
                    [
                        i
                        for i, row in enumerate(data)
                        if language in (row.cells[2], "ALL") and metatype in (row.cells[3], "ALL")
                    ]
                )
            )
    return values, [rows for rows in members if len(rows) > 1]


def printed_alike(a: float, b: float) -> bool:
    """The same 4-decimal figure, or a half-way value that rounding may print either way."""
    return f"{a:.4f}" == f"{b:.4f}" or abs(a * 1e4 - np.floor(a * 1e4) - 0.5) < 1e-7


@pytest.mark.parametrize("name", ["continuous.tab", "tied.tab"])
def test_integer_sums_are_the_float64_sums_of_the_same_draws(name):
    """Scores with 4 decimals are added as integers. The same draws added in float64 (as NIST's
    library adds them) give the same means to 1e-12, the same replications below the mean but
    for exact ties (where float64's rounding decides), and the same printed bounds."""
    values, members = ta1_samples(read_table(FIXTURES / name))
    numbers, scale = resample._integers(values)
    assert scale == 1e4
    exact = resample._atom_sums(numbers, members, 20_000, seed=5)
    floating = resample._atom_sums(values, members, 20_000, seed=5)
    for rows, by_integers, by_floats in zip(members, exact, floating, strict=True):
        n = len(rows)
        means = by_integers / (n * scale)
        assert np.allclose(means, by_floats / n, rtol=0, atol=1e-12)
        total = numbers[rows].sum()
        ties = by_integers == total
        assert np.array_equal((by_integers < total)[~ties], (by_floats < values[rows].sum())[~ties])
        below = int(np.count_nonzero(by_integers < total))
        sample = values[rows]
        accel = acceleration((sample.sum() - sample) / (n - 1))
        for size in (0.7, 0.8, 0.9, 0.95):
            a = bca(means, math.nan, accel, size, below=below)
            b = bca(by_floats / n, math.nan, accel, size, below=below)
            assert all(printed_alike(x, y) for x, y in zip(a, b, strict=True)), (name, n, size, a, b)


def test_ties_count_as_nist_s_float64_sums_count_them():
    """A small sample of thirds (tied.tab's ENG Event rows): replications whose exact sum equals
    the sample's are frequent, and NIST's float64 sums put some of them below the mean, which
    decides between two attainable upper bounds. Over 40 seeds NIST's stream gives 0.6979 in 30
    runs and 0.6927 in 10; counting no tie below would give 0.6927 nearly always."""
    table = read_table(FIXTURES / "tied.tab")
    sample = np.array(
        [
            float(r.cells[4])
            for r in table.rows
            if not r.cells[0].startswith("ALL-") and r.cells[2:4] == ("ENG", "Event")
        ]
    )
    assert len(sample) == 32 and not resample._float_sums_exact(sample)
    nist = [round(mean_intervals(sample, (0.9,), Stream(seed, True))[0.9][1], 4) for seed in range(1, 41)]
    ours = [round(mean_intervals(sample, (0.9,), Stream(seed, False))[0.9][1], 4) for seed in range(1, 41)]
    assert set(nist) == set(ours) == {0.6927, 0.6979}
    assert nist.count(0.6979) == 30
    assert ours.count(0.6979) >= 20


def test_the_numbers_do_not_depend_on_the_cores(monkeypatch):
    values = np.random.default_rng(3).integers(0, 10_000, 3000) / 10_000
    members = [np.arange(1000), np.arange(1000, 3000), np.arange(3000)]
    together = sample_intervals(values, members, (0.9,), Stream.of(None), replications=20_000)
    monkeypatch.setattr(resample, "THREADS", 1)
    assert sample_intervals(values, members, (0.9,), Stream.of(None), replications=20_000) == together


def test_values_that_are_not_short_decimals_are_added_as_floats():
    values = np.random.default_rng(8).random(40)  # full float64 values
    assert resample._integers(values) is None and resample._integers(np.array([1 / 3, 0.5])) is None
    assert resample._integers(np.array([0.25, 1.5, 0.0001]))[1] == 1e4
    fast = mean_intervals(values, (0.9,), Stream.of(None))
    reference = reference_intervals(values, (0.9,), 100_000, seed=4)
    assert fast[0.9] == pytest.approx(reference[0.9], abs=0.003)


def test_tied_replications_drawn_as_counts_are_below_as_often_as_in_nist_s_sums():
    """A tied sample (thirds, zeros and ones: drawn as counts of its values) has many
    replications whose exact sum is the sample's; NIST's float64 means put a share of them below
    the mean, and aifcheck's must put the same share (each in a random order, added as numpy
    adds it), not none."""
    sample = np.array([0.3333] * 30 + [0.0] * 3 + [1.0] * 80)
    n, replications = len(sample), 100_000
    numbers, _ = resample._integers(sample)
    total = numbers.sum()
    nist_ties = nist_below = 0
    for seed in (1, 2, 3):
        state = np.random.RandomState(seed)
        for _ in range(10):
            block = state.randint(n, size=(replications // 10, n))
            tied = numbers[block].sum(axis=1) == total
            nist_ties += np.count_nonzero(tied)
            nist_below += np.count_nonzero(sample[block[tied]].mean(axis=1) < sample.mean())
    sums, _, counts = resample._count_sums(numbers, replications, seed=9)
    assert (
        len(np.unique(sample)) * resample._COUNTS_FACTOR < n and len(counts) == np.count_nonzero(sums == total) > 1000
    )
    ours = resample.replicate_means(sample, [np.arange(n)], replications, seed=9)[0]
    share = (ours.below - np.count_nonzero(sums < total)) / len(counts)
    assert nist_below / nist_ties > 0.05  # NIST's rounding puts a good share below
    assert share == pytest.approx(nist_below / nist_ties, abs=0.03)
