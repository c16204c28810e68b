"""Two runs scored on the same documents or queries, metric by metric: both scores, the
difference (B - A), its confidence interval from a paired bootstrap over the units (documents
or queries; percentile interval), and a two-sided p-value from paired approximate randomization.

Pairing: a headline's units are matched by ID; units present in one run only are listed and left
out of that metric (both scores are then recomputed over the paired units, with a warning). A
headline's value is the sum of its units' numerators over the sum of their denominators
(aifcheck.score.scorefiles.Unit), so that resampling or swapping units recomputes it exactly as
the scorer aggregates (TA1, TA3: mean of per-unit means; TA2: mean of rows; CRUX: pooled counts).

Approximate randomization: in each of R trials every paired unit's A and B values are swapped
with probability 1/2; p = (trials whose |difference| reaches the observed one + 1) / (R + 1).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from aifcheck.score.ci import REPLICATIONS, Stream, ratio
from aifcheck.score.scorefiles import Headline, ScoreSet, read_scores

_TOLERANCE = 1e-12  # differences this close count as equal (sums of the same values in another order)
_BLOCK = 4_000_000
_FEW = 8  # paired units below which a randomization p cannot reach 0.01


@dataclass(frozen=True)
class MetricComparison:
    label: str
    unit_name: str  # "document" or "query"
    a: float
    b: float
    difference: float  # b - a
    ci: tuple[float, float]
    p_value: float
    paired: int  # units in both runs
    only_a: tuple[str, ...]  # units in run A only (left out)
    only_b: tuple[str, ...]
    reported_a: float | None  # the values the score files print
    reported_b: float | None


@dataclass(frozen=True)
class Comparison:
    a: str
    b: str
    size: float
    replications: int
    stream: Stream
    metrics: tuple[MetricComparison, ...]
    unmatched: tuple[str, ...]  # headlines found in one run only
    warnings: tuple[str, ...] = field(default=())


def _arrays(units) -> tuple[np.ndarray, np.ndarray]:
    return (np.array([u.numerator for u in units], dtype=float), np.array([u.denominator for u in units], dtype=float))


def paired_bootstrap(
    a: tuple[np.ndarray, np.ndarray], b: tuple[np.ndarray, np.ndarray], size: float, replications: int, stream: Stream
) -> tuple[float, float]:
    """Percentile interval of the difference B - A, resampling paired units (Koehn's paired
    bootstrap). Not BCa: where few units differ, the replicated differences take a few values
    with a lump at 0, and BCa's corrections can carry a bound past 0 while the randomization
    test finds nothing (two differing documents of 43 in NIST's example: BCa [-0.0218, -0.0017],
    percentile [-0.0137, 0], p = 0.5)."""
    (na, da), (nb, db) = a, b
    estimate = float(ratio(nb.sum(), db.sum()) - ratio(na.sum(), da.sum()))
    n = len(na)
    if n < 2:
        return estimate, estimate
    replicates = stream.replicate(
        n,
        replications,
        lambda block: (
            ratio(np.take(nb, block).sum(axis=1), np.take(db, block).sum(axis=1))
            - ratio(np.take(na, block).sum(axis=1), np.take(da, block).sum(axis=1))
        ),
    )
    if replicates.max() - replicates.min() <= _TOLERANCE:
        return estimate, estimate
    alpha = (1 - size) / 2
    low, high = np.percentile(replicates, [100 * alpha, 100 * (1 - alpha)])
    return float(low), float(high)


def approximate_randomization(
    a: tuple[np.ndarray, np.ndarray], b: tuple[np.ndarray, np.ndarray], trials: int, seed: int
) -> float:
    """Two-sided p-value of the paired difference: units' A and B swapped at random."""
    (na, da), (nb, db) = a, b
    observed = abs(float(ratio(nb.sum(), db.sum()) - ratio(na.sum(), da.sum())))
    generator = np.random.Generator(np.random.PCG64(seed))
    n = len(na)
    reached = 0
    rows = max(1, _BLOCK // max(n, 1))
    for start in range(0, trials, rows):
        swap = generator.integers(0, 2, size=(min(rows, trials - start), n)).astype(float)
        # swapping unit i moves (B_i - A_i) from B's sums to A's
        moved_n, moved_d = swap @ (nb - na), swap @ (db - da)
        new_a = ratio(na.sum() + moved_n, da.sum() + moved_d)
        new_b = ratio(nb.sum() - moved_n, db.sum() - moved_d)
        reached += int(np.count_nonzero(np.abs(new_b - new_a) >= observed - _TOLERANCE))
    return (reached + 1) / (trials + 1)


def compare_headlines(
    a: Headline, b: Headline, size: float, replications: int, stream: Stream
) -> tuple[MetricComparison | None, list[str]]:
    """One headline of both runs over their paired units (None, with a warning, when no unit pairs)."""
    ids_a = {u.id: u for u in a.units}
    ids_b = {u.id: u for u in b.units}
    paired = [i for i in ids_a if i in ids_b]
    only_a = tuple(i for i in ids_a if i not in ids_b)
    only_b = tuple(i for i in ids_b if i not in ids_a)
    listed = "; ".join(f"only in {name}: {', '.join(ids)}" for name, ids in (("A", only_a), ("B", only_b)) if ids)
    if not paired:  # (with no unit in either run, the caller says so of all such metrics at once)
        return None, [f"{a.label}: no {a.unit_name} in both runs, not compared ({listed})"] if listed else []
    warnings = []
    if listed:
        warnings.append(
            f"{a.label}: {len(only_a) + len(only_b)} {a.unit_name}(s) in one run only are left out "
            f"({listed}); both scores are recomputed over the {len(paired)} paired"
        )
    units_a = _arrays([ids_a[i] for i in paired])
    units_b = _arrays([ids_b[i] for i in paired])
    value_a = float(ratio(units_a[0].sum(), units_a[1].sum()))
    value_b = float(ratio(units_b[0].sum(), units_b[1].sum()))
    ci = paired_bootstrap(units_a, units_b, size, replications, stream)
    p_value = approximate_randomization(units_a, units_b, replications, stream.seed)
    return MetricComparison(
        a.label,
        a.unit_name,
        value_a,
        value_b,
        value_b - value_a,
        ci,
        p_value,
        len(paired),
        only_a,
        only_b,
        a.reported,
        b.reported,
    ), warnings


def _rough(metrics: Sequence[MetricComparison]) -> list[str]:
    """One warning for the metrics compared over so few units that the interval is rough and the
    p-value has a floor, per number of units: a table of tens of metric rows gets a line, not tens."""
    few: dict[tuple[int, str], list[str]] = {}
    for m in metrics:
        if m.paired < _FEW and m.a != m.b:
            few.setdefault((m.paired, m.unit_name), []).append(m.label)
    return [
        f"{_named(labels)}: {n} paired {unit}(s) only: the interval is rough and no p-value can fall below "
        f"{2 ** (1 - n):.4g}"
        for (n, unit), labels in sorted(few.items())
    ]


def _named(labels: Sequence[str], shown: int = 3) -> str:
    if len(labels) <= shown + 1:
        return ", ".join(labels)
    return f"{', '.join(labels[:shown])} and {len(labels) - shown} more metric rows"


def _headlines(scores: ScoreSet) -> dict[str, Headline]:
    found: dict[str, Headline] = {}
    for headline in scores.headlines():
        found.setdefault(headline.label, headline)
    return found


def compare_runs(
    a: ScoreSet | str | os.PathLike,
    b: ScoreSet | str | os.PathLike,
    *,
    size: float = 0.95,
    replications: int = REPLICATIONS,
    seed: int | None = None,
) -> Comparison:
    """Compare two scored runs (folders ``score ta1|ta2|ta3`` wrote, NIST's scores folders, or score
    files) headline by headline. ``seed`` None: the fixed default seed; the random numbers are
    aifcheck's PCG64 stream either way (NIST has no comparison to reproduce)."""
    runs = [s if isinstance(s, ScoreSet) else read_scores(s) for s in (a, b)]
    stream = Stream(Stream.of(seed).seed, False)
    found_a, found_b = (_headlines(run) for run in runs)
    metrics: list[MetricComparison] = []
    warnings = [w for found in (found_a, found_b) for h in found.values() if (w := h.disagreement())]
    empty: dict[str, list[str]] = {}  # unit name -> the metrics no run has a unit of
    for label, headline in found_a.items():
        if label in found_b:
            metric, notes = compare_headlines(headline, found_b[label], size, replications, stream)
            if metric is not None:
                metrics.append(metric)
            elif not notes:
                empty.setdefault(headline.unit_name, []).append(label)
            warnings += notes
    warnings += [f"{_named(labels)}: no {unit} in either run, not compared" for unit, labels in empty.items()]
    warnings += _rough(metrics)
    unmatched = tuple(
        [f"{label} (A only)" for label in found_a if label not in found_b]
        + [f"{label} (B only)" for label in found_b if label not in found_a]
    )
    if unmatched:
        warnings.append(f"in one run only, not compared: {', '.join(unmatched)}")
    if not metrics:
        warnings.append("no metric in both runs")
    return Comparison(
        runs[0].path, runs[1].path, size, replications, stream, tuple(metrics), unmatched, tuple(warnings)
    )
