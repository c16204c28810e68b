"""Bootstrap confidence intervals of score tables, as NIST's ``generate_confidence_intervals.py``
computes them (research: confidence-intervals.md), vectorised with numpy.

For each distinct key of the summary rows, the sample is the key's data rows' scores (or, with
``macro``, each document's mean score), and for each size the two-sided BCa interval of the
sample's mean from B bootstrap replications (100,000; 10,000,000 at size 0.99), as arch's
``IIDBootstrap.conf_int(method='bca')`` computes it: a share of replications *strictly* below
the estimate for the bias, a leave-one-out jackknife for the acceleration, numpy's linear
percentiles. A constant sample gives (min, max) without bootstrapping.

Random numbers: with ``seed=N`` the replications are those arch 4.19 draws after NIST's
``-s N`` (a fresh ``RandomState(N)`` per interval, ``randint(n, size=n)`` per replication), so
the intervals are NIST's to the last digit. Without a seed NIST's tool draws fresh entropy; here
a fixed seed (DEFAULT_SEED) drives aifcheck's own, much faster stream (``resample``: numpy's PCG64,
every sample of a table resampled at once, samples that share rows sharing their draws, tied
samples drawing counts of their distinct values): each interval has the distribution of NIST's,
and the numbers are the same on every run.

scipy.stats.bootstrap(method='BCa') is not used: it counts replications equal to the estimate as
half below, which moves the bounds of tied samples (research §9).
"""
from __future__ import annotations

import functools
import math
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace

import numpy as np
# the normal distribution's functions that scipy.stats.norm (and so arch) calls, without its import cost
from scipy.special import ndtr, ndtri

from ..errors import InputError, UsageError
from .resample import Replicates, replicate_indices, replicate_means, threaded_map
from .scorefiles import (
    ALL,
    ALL_MICRO,
    Layout,
    MetricTable,
    Row,
    ScoreTable,
    Unit,
    headline_data,
    key_cells,
    layout_of,
    read_score_file,
    read_scores,
    sample_rows,
    summary_matcher,
    wildcard_columns,
)

DEFAULT_SIZES = (0.7, 0.8, 0.9, 0.95)
REPLICATIONS = 100_000  # NIST's count
REPLICATIONS_AT_99 = 10_000_000  # NIST's count when a size equals 0.99
DEFAULT_SEED = 20210305  # the date of NIST's tool; any fixed number makes two runs agree
_BLOCK = 250_000  # indices drawn at a time: they and their values stay in the processor's cache while they are added
_STORED = 2 ** 25  # replicated means held at a time (samples computed together x replications)
_GATHERS_PER_DRAW = 8  # NIST's stream: drawing an index costs about as much as gathering and adding 8


@dataclass(frozen=True)
class Stream:
    """Where the replications come from: NIST's (arch 4.19's RandomState, ``nist``) or
    aifcheck's faster PCG64 stream (``resample``), seeded anew for every interval or table."""

    seed: int
    nist: bool

    @classmethod
    def of(cls, seed: int | None) -> Stream:
        return cls(DEFAULT_SEED, False) if seed is None else cls(seed, True)

    def describe(self) -> str:
        if self.nist:
            return f"seed {self.seed}, NIST's stream (arch 4.19 RandomState, as NIST's tool with -s {self.seed})"
        return f"seed {self.seed}, aifcheck's PCG64 stream (give --seed N for NIST's stream, as its tool with -s N)"

    def replicate(self, n: int, replications: int, statistic: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
        """``statistic`` of B bootstrap draws of n indices in [0, n): it is given blocks of draws
        (arrays rows x n) and returns one value per row.

        NIST's stream is one sequence, drawn block after block. aifcheck's gives each block its
        own generator (PCG64 seeded with the seed and the block's number), so that blocks can be
        drawn on several cores and the replications do not depend on how many there are."""
        if self.nist:
            return np.concatenate([statistic(block) for block in nist_index_blocks(n, replications, self.seed)])
        return replicate_indices(n, replications, self.seed, statistic)


def nist_index_blocks(n: int, replications: int, seed: int) -> Iterator[np.ndarray]:
    """NIST's bootstrap indices of B replications of n rows (1 <= n < 2^32), in blocks (rows x n):
    those of ``RandomState(seed).randint(n, size=(B, n))``, which takes each index from the next
    32-bit output of MT19937, masked to the bits of n - 1, passing over those >= n. Here the
    outputs are drawn in bulk, then masked and filtered as arrays: faster than numpy's loop.
    A block is valid until the next one is drawn (they share their memory)."""
    generator = np.random.MT19937()
    generator.state = np.random.RandomState(seed).get_state(legacy=False)
    mask = (1 << (n - 1).bit_length()) - 1
    kept_share = n / (mask + 1)  # above 1/2

    def outputs_for(count: int) -> int:  # a few more than are expected to give ``count`` indices
        return int(count / kept_share * 1.01) + 64

    rows = max(1, _BLOCK // n)
    # one buffer for the indices kept, reused block after block (fresh arrays cost page faults);
    # it holds what the outputs drawn for a block can give, with what was held before them
    kept = np.empty(outputs_for(rows * n), dtype=np.int64)
    held = 0  # indices kept and not yet given
    for start in range(0, replications, rows):
        wanted = min(rows, replications - start) * n
        while held < wanted:  # rarely twice
            outputs = generator.random_raw(outputs_for(wanted - held)).view(np.int64)
            outputs &= mask
            valid = outputs < n
            found = np.count_nonzero(valid)
            np.compress(valid, outputs, out=kept[held:held + found])
            held += found
        yield kept[:wanted].reshape(-1, n)
        held -= wanted
        kept[:held] = kept[wanted:wanted + held]


def _ratio_replicates(numerators: np.ndarray, denominators: np.ndarray, replications: int,
                      stream: Stream) -> np.ndarray:
    return stream.replicate(len(numerators), replications, lambda block: ratio(
        np.take(numerators, block).sum(axis=1), np.take(denominators, block).sum(axis=1)))


def ratio(numerator: np.ndarray, denominator: np.ndarray) -> np.ndarray:
    """numerator / denominator, 0 where the denominator is 0 (as every scorer scores nothing)."""
    out = np.zeros(np.broadcast(numerator, denominator).shape)
    return np.divide(numerator, denominator, out=out, where=denominator != 0)


def acceleration(jackknife: np.ndarray) -> float:
    """BCa's acceleration from leave-one-out estimates, as arch computes it (0 when they are all
    equal, where arch stops: NIST never gets there, a constant sample being answered before)."""
    u = jackknife.mean() - jackknife
    denominator = 6 * (np.sum(u ** 2) ** 1.5)
    return float(np.sum(u ** 3) / denominator) if denominator > 0 else 0.0


def bca(replicates: np.ndarray, estimate: float, accel: float, size: float, below: int | None = None) -> tuple[float, float]:
    """The two-sided BCa interval of ``size`` from bootstrap replicates (arch's formula: the bias
    from the share of replicates strictly below the estimate, or ``below`` of them when the caller
    counted them exactly). Where every replicate lies on one side of the estimate (never for a
    mean of a non-constant sample) BCa is undefined and the percentile interval is given."""
    alpha = (1.0 - size) / 2
    quantiles = ndtri(np.array([alpha, 1.0 - alpha]))
    if below is None:
        below = np.count_nonzero(replicates < estimate)
    share = below / len(replicates)
    if 0 < share < 1:
        bias = ndtri(share)
        percentiles = ndtr(bias + (bias + quantiles) / (1.0 - accel * (bias + quantiles))) * 100
    else:
        percentiles = np.array([alpha, 1.0 - alpha]) * 100
    lower, upper = np.percentile(replicates, list(percentiles))
    return float(lower), float(upper)


def replications_for(size: float, replications: int | None) -> int:
    """NIST's number of replications for a size (10,000,000 at exactly 0.99), unless overridden."""
    if replications is not None:
        return replications
    return REPLICATIONS_AT_99 if size == 0.99 else REPLICATIONS


Interval = tuple[float, float]


def _jackknife_acceleration(sample: np.ndarray) -> float:
    return acceleration((sample.sum() - sample) / (len(sample) - 1))


def mean_intervals(sample: Sequence[float], sizes: Sequence[float], stream: Stream,
                   replications: int | None = None) -> dict[float, Interval]:
    """NIST's interval of the mean of ``sample`` at each size (sizes sharing a number of
    replications share the replications, as NIST's seeded runs do)."""
    data = np.asarray(sample, dtype=float)
    return sample_intervals(data, [np.arange(len(data))], sizes, stream, replications)[0]


def _nist_replicates(samples: Sequence[np.ndarray], replications: int, seed: int) -> list[Replicates]:
    """NIST's replications of samples of one size n: arch 4.19 seeds every interval anew with the
    seed, so all of them resample with the same indices, drawn once here."""
    means: list[list[np.ndarray]] = [[] for _ in samples]
    for block in nist_index_blocks(len(samples[0]), replications, seed):
        for found, sample in zip(means, samples):
            found.append(np.take(sample, block).mean(axis=1))
    replicated = [np.concatenate(found) for found in means]
    return [Replicates(found, int(np.count_nonzero(found < sample.mean()))) for found, sample in zip(replicated, samples)]


def _batches(samples: Sequence[np.ndarray], varied: list[int], count: int, nist: bool) -> list[list[int]]:
    """The samples drawn together: all of them in aifcheck's stream, those of one size in NIST's;
    never more than ``_STORED`` replicated means at a time (10,000,000 replications at 0.99)."""
    together = max(1, _STORED // count)
    groups: dict[int, list[int]] = {}
    for j in varied:
        groups.setdefault(len(samples[j]) if nist else 0, []).append(j)
    return [group[first:first + together] for group in groups.values() for first in range(0, len(group), together)]


def sample_intervals(values: Sequence[float], members: Sequence[np.ndarray], sizes: Sequence[float], stream: Stream,
                     replications: int | None = None) -> list[dict[float, Interval]]:
    """``mean_intervals`` of each sample ``values[members[j]]`` (positions into ``values``, each
    at most once per sample). In aifcheck's stream the samples are resampled together, those
    sharing rows sharing their draws (``resample``); in NIST's, samples of one size share their
    indices, as they do in NIST's tool."""
    data = np.asarray(values, dtype=float)
    samples = [data[rows] for rows in members]
    found: list[dict[float, Interval]] = [{} for _ in members]
    varied = []
    for j, sample in enumerate(samples):
        if sample.min() == sample.max():
            found[j] = {size: (float(sample.min()), float(sample.max())) for size in sizes}
        else:
            varied.append(j)
    by_count: dict[int, list[float]] = {}
    for size in sizes:
        by_count.setdefault(replications_for(size, replications), []).append(size)
    for count, shared in by_count.items():
        batches = _batches(samples, varied, count, stream.nist)

        def draw(chosen: list[int]) -> list[Replicates]:
            if stream.nist:
                return _nist_replicates([samples[j] for j in chosen], count, stream.seed)
            return replicate_means(data, [members[j] for j in chosen], count, stream.seed)

        if stream.nist and sum(map(len, batches)) * count <= _STORED:
            # NIST's stream draws each size's indices in one sequence: the sizes are drawn side by
            # side on the cores (largest first, so that they end together), when their means fit
            batches.sort(key=lambda chosen: -len(samples[chosen[0]]) * (len(chosen) + _GATHERS_PER_DRAW))
            drawn = threaded_map(draw, batches)
        else:  # aifcheck's stream spreads one batch's draws on the cores itself
            drawn = [draw(chosen) for chosen in batches]
        for chosen, replicated in zip(batches, drawn):
            for j, replicates in zip(chosen, replicated):
                accel = _jackknife_acceleration(samples[j])
                for size in shared:
                    found[j][size] = bca(replicates.means, math.nan, accel, size, below=replicates.below)
    return [{size: intervals[size] for size in sizes} for intervals in found]


def unit_intervals(units: Sequence[Unit], sizes: Sequence[float], stream: Stream,
                   replications: int | None = None) -> dict[float, Interval]:
    """The interval of a headline (sum of numerators over sum of denominators) from resampled
    units. With every denominator 1 it is the mean of the units: NIST's macro interval."""
    numerators = np.array([u.numerator for u in units], dtype=float)
    denominators = np.array([u.denominator for u in units], dtype=float)
    if not len(units):
        raise ValueError("no units to resample")
    if np.all(denominators == 1):
        return mean_intervals(numerators, sizes, stream, replications)
    estimate = float(ratio(numerators.sum(), denominators.sum()))
    n = len(units)
    if n == 1:
        return {size: (estimate, estimate) for size in sizes}
    accel = acceleration(ratio(numerators.sum() - numerators, denominators.sum() - denominators))
    found = {}
    drawn: dict[int, np.ndarray] = {}
    for size in sizes:
        count = replications_for(size, replications)
        if count not in drawn:
            drawn[count] = _ratio_replicates(numerators, denominators, count, stream)
        replicates = drawn[count]
        if replicates.min() == replicates.max():
            found[size] = (float(replicates.min()), float(replicates.max()))
        else:
            found[size] = bca(replicates, estimate, accel, size)
    return found


# NIST's tool on a score table


@dataclass(frozen=True)
class CIOptions:
    """NIST's arguments: the score column, the key columns, the summary rows (column, value),
    the document column (for ``macro``), the run column (never read, as in NIST's tool)."""

    score: str
    key: tuple[str, ...]
    summary: tuple[tuple[str, str], ...]
    document: str | None = None
    run: str | None = None
    macro: bool = False
    sizes: tuple[float, ...] = DEFAULT_SIZES
    replications: int | None = None  # None: NIST's
    seed: int | None = None  # None: DEFAULT_SEED in aifcheck's stream; N: NIST's stream


def size_label(size: float) -> int:
    """NIST's percent label: size x 100 truncated (0.57 gives 56)."""
    return int(size * 100)


@dataclass(frozen=True)
class CILine:
    """One output line: a printed summary row's key cells, its own score, the key's intervals."""

    key: tuple[str, ...]  # as read, one per --key column (a repeated column repeats)
    score: float
    intervals: dict[float, Interval]  # by size
    line: int | None
    sample_size: int


@dataclass(frozen=True)
class CIResult:
    path: str
    key: tuple[str, ...]
    sizes: tuple[float, ...]  # as given
    lines: tuple[CILine, ...]
    stream: Stream
    warnings: tuple[str, ...] = field(default=())


def _check_sizes(sizes: Sequence[float]) -> None:
    if not sizes:
        raise UsageError("--sizes: give at least one size")
    for size in sizes:
        if not 0 < size < 1:
            raise UsageError(f"--sizes: {size} is not between 0 and 1")
    labels: dict[int, float] = {}
    for size in sizes:
        if size_label(size) in labels:
            # NIST's tool computes every interval and then stops on the repeated label
            raise UsageError(f"--sizes: {labels[size_label(size)]} and {size} share the label "
                             f"{size_label(size)}% (NIST's tool stops on them)")
        labels[size_label(size)] = size


class _Pool:
    """The values of every sample in one array, a table row's value once: samples that share rows
    share positions, and so their draws (``resample``)."""

    def __init__(self) -> None:
        self.values: list[float] = []
        self._positions: dict[int, int] = {}

    def add(self, value: float, row: Row | None = None) -> int:
        """The position of a row's value (of a value of no row: a new one)."""
        if row is not None and id(row) in self._positions:
            return self._positions[id(row)]
        self.values.append(value)
        if row is not None:
            self._positions[id(row)] = len(self.values) - 1
        return len(self.values) - 1


def _sample(table: ScoreTable, rows: list[Row], options: CIOptions, pool: _Pool) -> np.ndarray:
    """The positions in ``pool`` of a key's sample: its rows' scores, or with ``macro`` each
    document's mean score."""
    if not options.macro:
        return np.array([pool.add(table.number(row, options.score), row) for row in rows])
    document = table.getter(options.document)
    documents: dict[str, list[float]] = {}
    for row in rows:
        documents.setdefault(document(row), []).append(table.number(row, options.score))
    means = []
    for scores in documents.values():
        total = 0.0
        for score in scores:  # in file order, as NIST adds them
            total += score
        means.append(pool.add(total / len(scores)))
    return np.array(means)


def _no_summary(_row: Row) -> bool:
    return False


def _quirk_warnings(data: ScoreTable, holds_all: Callable[[str], bool], cells: dict[str, str], wildcards: list[str],
                    rows: list[Row], label: str) -> list[str]:
    """The wildcard walk's quirk, when it changed a sample (the intended reading: every key
    column with ALL in a data row is literal). ``data``: the table's data rows;
    ``holds_all(column)``: whether a data row holds ALL in the column."""
    intended = [c for c in wildcards if not holds_all(c)]
    if intended == wildcards:
        return []
    literal = [c for c in wildcards if c not in intended]
    other = sample_rows(data, _no_summary, cells, intended)
    return [f"{data.path}: key {label}: NIST's tool lets ALL in {', '.join(literal)} match any value although data rows hold "
            f"ALL there (its walk skips a column after removing one): {len(rows)} rows instead of {len(other)}"]


def nist_intervals(table: ScoreTable, options: CIOptions) -> CIResult:
    """What NIST's ``generate_confidence_intervals.py`` computes on a score table (see the
    module docstring): one line per summary row, in file order; with ``macro`` the rows whose
    document cell is ALL-Micro are not printed. InputError (file and line) for a missing
    column, a score that is not a number, or a summary key without data rows."""
    _check_sizes(options.sizes)
    table.require(*options.key, option="--key")
    table.require(options.score, option="--score")
    if options.macro:
        if not options.document:
            raise UsageError("--macro needs --document: the column naming each row's document")
        table.require(options.document, option="--document")
    stream = Stream.of(options.seed)
    warnings = []
    if options.replications is not None:
        warnings.append(f"{options.replications} replications per interval (NIST's tool: 100,000; 10,000,000 at 0.99)")
    for size in options.sizes:
        if size_label(size) != round(size * 100) and abs(size * 100 - round(size * 100)) < 1e-9:
            warnings.append(f"size {size} is labelled {size_label(size)}% as in NIST's tool ({size} x 100 = {size * 100!r}, truncated)")
    is_summary = summary_matcher(table, options.summary)
    summaries = [row for row in table.rows if is_summary(row)]
    if not summaries:
        warnings.append(f"{table.path}: no row matches --summary "
                        f"{','.join(f'{c}:{v}' for c, v in options.summary)}: the output is the header alone")
    document = table.getter(options.document) if options.document else (lambda _row: None)
    printed = [row for row in summaries if not (options.macro and document(row) == ALL_MICRO)]
    for row in printed:  # NIST stops on these after computing every interval: say so first
        table.number(row, options.score)
    if summaries and not printed:
        warnings.append("with --macro the ALL-Micro rows are not printed: every summary row is one, the output is the header alone")
    # the data rows once, rather than telling them from the summary rows again for every key
    data = ScoreTable(table.path, table.columns, tuple(row for row in table.rows if not is_summary(row)))
    holds_all = functools.cache(lambda column: ALL in map(data.getter(column), data.rows))
    samples: dict[str, np.ndarray] = {}
    first_key: dict[str, tuple[str, ...]] = {}
    pool = _Pool()
    for row in summaries:
        cells = key_cells(table, row, options.key)
        values = tuple(table.getter(name)(row) for name in options.key)
        name = ".".join(values)
        if name in samples:
            if values != first_key[name]:
                warnings.append(f"{table.path}:{row.line}: key {' '.join(values)} reads as {name!r} like the key "
                                f"{' '.join(first_key[name])}, and takes its intervals (NIST's tool joins key cells with '.')")
            continue
        label = " ".join(f"{k}={v}" for k, v in cells.items())
        wildcards = wildcard_columns(data, _no_summary, cells)
        rows = sample_rows(data, _no_summary, cells, wildcards)
        if not rows:
            raise InputError(table.path, f"no data rows for the key {label} of this summary row", row.line)
        warnings.extend(_quirk_warnings(data, holds_all, cells, wildcards, rows, label))
        samples[name] = _sample(table, rows, options, pool)
        first_key[name] = values
    intervals = sample_intervals(pool.values, list(samples.values()), options.sizes, stream, options.replications)
    computed = {name: (found, len(samples[name])) for name, found in zip(samples, intervals)}
    lines = []
    for row in printed:
        values = tuple(table.getter(name)(row) for name in options.key)
        intervals, size = computed[".".join(values)]
        lines.append(CILine(values, table.number(row, options.score), intervals, row.line, size))
    return CIResult(table.path, options.key, tuple(options.sizes), tuple(lines), stream, tuple(warnings))


def layout_options(table: ScoreTable, layout: Layout, column: str | None = None, **settings) -> CIOptions:
    """NIST's arguments for a task's table, as NIST called its tool on TA1 tables (``-m``, key
    RunID,Language,Metatype, summary DocID:ALL-Macro,DocID:ALL-Micro, document DocID)."""
    return CIOptions(score=column or layout.headline_column(table), key=layout.key, summary=layout.summary,
                     document=layout.unit, run=layout.run, macro=layout.macro, **settings)


def headline_intervals(source: ScoreTable | MetricTable | str | os.PathLike, column: str | None = None, *,
                       sizes: Sequence[float] = DEFAULT_SIZES, seed: int | None = None,
                       replications: int | None = None) -> CIResult:
    """The intervals of a score file's headline metric (``column``, by default the one its task
    reports: TA1's last column, TA2's AP, TA3's NDCG or F1, CRUX's F1), one line per ALL-Macro
    (TA1, TA3) or Summary (TA2) row, computed as NIST's tool does with the arguments NIST used
    (TA1: per-document means). The rows NIST's own ALL-Macro leaves out are left out of the
    samples: TA2 rows with RelCntd 0, TA3 queries with GT 0."""
    if isinstance(source, MetricTable):
        table, layout = source.table, source.layout
    else:
        table = source if isinstance(source, ScoreTable) else read_score_file(source)
        layout = layout_of(table)
    if layout is None:
        raise InputError(table.path, "not a score table of TA1, TA2, TA3 or CRUX: give its columns to `aifcheck score ci`", 1)
    options = layout_options(table, layout, column, sizes=tuple(sizes), seed=seed, replications=replications)
    table.require(options.score, option="--score")
    data, is_summary = headline_data(table, layout)
    # a blank headline (TA2, TA3: nothing with ground truth, where NIST's scorer divides by zero)
    # has no interval: its line is left out rather than stopping every other one
    score = data.getter(options.score)
    blank = [row for row in data.rows if is_summary(row) and score(row) == ""]
    kept = ScoreTable(data.path, data.columns, tuple(row for row in data.rows if row not in blank))
    result = nist_intervals(kept, options)
    notes = tuple(f"{data.path}:{row.line}: no interval: the {options.score} of this summary row is blank" for row in blank)
    return replace(result, warnings=notes + result.warnings)


def folder_intervals(out: str | os.PathLike, *, sizes: Sequence[float] = DEFAULT_SIZES, seed: int | None = None,
                     replications: int | None = None) -> dict[str, CIResult]:
    """``headline_intervals`` of every score table of a scored run (``OUT``, ``OUT/scores`` or one
    file), by metric name; tables of no known task are skipped."""
    scores = read_scores(out)
    return {t.name: headline_intervals(t, sizes=sizes, seed=seed, replications=replications)
            for t in scores.tables if t.layout is not None}
