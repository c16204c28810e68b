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
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

# the normal distribution's functions that scipy.stats.norm (and so arch) calls, without its import cost
from scipy.special import ndtr, ndtri

from aifcheck.errors import InputError, UsageError
from aifcheck.loading.tsv import TsvRow, TsvTable
from aifcheck.score import resample
from aifcheck.score.resample import Replicates, replicate_indices, replicate_means
from aifcheck.score.scorefiles import (
    ALL,
    ALL_MICRO,
    Layout,
    MetricTable,
    Unit,
    headline_data,
    key_cells,
    layout_of,
    metric_name,
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
_CHUNK = 250_000  # NIST's random outputs read at a time: their indices and values stay in the processor's cache
_STORED = 2**25  # replicated means held at a time (samples computed together x replications)
_READERS = 16  # sizes reading NIST's stream together (each holds some 4 MB of buffers)


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

        NIST's stream is one sequence (read in bulk, ``nist_statistics``). aifcheck's gives each block its
        own generator (PCG64 seeded with the seed and the block's number), so that blocks can be
        drawn on several cores and the replications do not depend on how many there are."""
        if self.nist:
            return nist_statistics([(n, [statistic])], replications, self.seed)[0][0]
        return replicate_indices(n, replications, self.seed, statistic)


class _NistSize:
    """The replications of one size n in NIST's stream (arch 4.19's ``randint(n, size=n)`` per
    replication): numpy's legacy randint takes each index from the next 32-bit output of MT19937,
    masked to the bits of n - 1, passing over those >= n (for 1 <= n < 2^32). The outputs are read
    in chunks and masked and filtered as arrays (faster than numpy's loop); each complete row of n
    indices goes to the statistics (blocks rows x n, each returning a value per row)."""

    def __init__(self, n: int, replications: int, statistics: Sequence[Callable[[np.ndarray], np.ndarray]]) -> None:
        self.n = n
        self.mask = (1 << (n - 1).bit_length()) - 1
        self.left = replications
        self.statistics = statistics
        self.found: list[list[np.ndarray]] = [[] for _ in statistics]
        # buffers reused chunk after chunk (fresh arrays cost page faults); ``kept``: the indices
        # not yet used, less than a row and what one chunk gives
        self.masked = np.empty(_CHUNK, dtype=np.int64)
        self.valid = np.empty(_CHUNK, dtype=bool)
        self.kept = np.empty(n + _CHUNK, dtype=np.int64)
        self.held = 0

    def read(self, outputs: np.ndarray) -> None:
        masked = np.bitwise_and(outputs, self.mask, out=self.masked)
        valid = np.less(masked, self.n, out=self.valid)
        count = np.count_nonzero(valid)
        np.compress(valid, masked, out=self.kept[self.held : self.held + count])
        self.held += count
        rows = min(self.held // self.n, self.left)
        if rows:
            used = rows * self.n
            block = self.kept[:used].reshape(rows, self.n)
            for found, statistic in zip(self.found, self.statistics, strict=True):
                found.append(statistic(block))
            self.left -= rows
            self.held -= used
            self.kept[: self.held] = self.kept[used : used + self.held]


def nist_statistics(
    sizes: Sequence[tuple[int, Sequence[Callable[[np.ndarray], np.ndarray]]]], replications: int, seed: int
) -> list[list[np.ndarray]]:
    """For each (n, statistics): each statistic's B values on NIST's replications of n rows with
    ``seed`` (those of ``RandomState(seed).randint(n, size=(B, n))``). arch seeds every interval
    anew, so every size reads the same MT19937 outputs: they are drawn once, the next chunk while
    the sizes read this one, on the cores."""
    generator = np.random.MT19937()
    generator.state = np.random.RandomState(seed).get_state(legacy=False)
    readers = [_NistSize(n, replications, statistics) for n, statistics in sizes]

    def draw() -> np.ndarray:
        return generator.random_raw(_CHUNK).view(np.int64)

    with ThreadPoolExecutor(resample.THREADS) as pool:
        outputs = draw()
        active = [reader for reader in readers if reader.left]
        while active:
            reading = [pool.submit(reader.read, outputs) for reader in active]
            outputs = draw()  # the next chunk, in this thread while the readers read
            for done in reading:
                done.result()
            active = [reader for reader in active if reader.left]
    return [[np.concatenate(found) for found in reader.found] for reader in readers]


def _ratio_replicates(
    numerators: np.ndarray, denominators: np.ndarray, replications: int, stream: Stream
) -> np.ndarray:
    return stream.replicate(
        len(numerators),
        replications,
        lambda block: ratio(np.take(numerators, block).sum(axis=1), np.take(denominators, block).sum(axis=1)),
    )


def ratio(numerator: np.ndarray, denominator: np.ndarray) -> np.ndarray:
    """numerator / denominator, 0 where the denominator is 0 (as every scorer scores nothing)."""
    out = np.zeros(np.broadcast(numerator, denominator).shape)
    return np.divide(numerator, denominator, out=out, where=denominator != 0)


def acceleration(jackknife: np.ndarray) -> float:
    """BCa's acceleration from leave-one-out estimates, as arch computes it (0 when they are all
    equal, where arch stops: NIST never gets there, a constant sample being answered before)."""
    u = jackknife.mean() - jackknife
    denominator = 6 * (np.sum(u**2) ** 1.5)
    return float(np.sum(u**3) / denominator) if denominator > 0 else 0.0


def bca(
    replicates: np.ndarray, estimate: float, accel: float, size: float, below: int | None = None
) -> tuple[float, float]:
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


def mean_intervals(
    sample: Sequence[float], sizes: Sequence[float], stream: Stream, replications: int | None = None
) -> dict[float, Interval]:
    """NIST's interval of the mean of ``sample`` at each size (sizes sharing a number of
    replications share the replications, as NIST's seeded runs do)."""
    data = np.asarray(sample, dtype=float)
    return sample_intervals(data, [np.arange(len(data))], sizes, stream, replications)[0]


def _nist_replicates(groups: Sequence[Sequence[np.ndarray]], replications: int, seed: int) -> list[list[Replicates]]:
    """NIST's replications of groups of samples, each group of one size: arch 4.19 seeds every
    interval anew with the seed, so samples of one size resample with the same indices, and all
    sizes read the same random outputs (``nist_statistics``)."""

    def mean_of(sample: np.ndarray) -> Callable[[np.ndarray], np.ndarray]:
        return lambda block: np.take(sample, block).mean(axis=1)

    drawn = nist_statistics(
        [(len(group[0]), [mean_of(sample) for sample in group]) for group in groups], replications, seed
    )
    return [
        [
            Replicates(means, int(np.count_nonzero(means < sample.mean())))
            for means, sample in zip(found, group, strict=True)
        ]
        for found, group in zip(drawn, groups, strict=True)
    ]


def _batches(samples: Sequence[np.ndarray], varied: list[int], count: int, nist: bool) -> list[list[int]]:
    """The samples drawn together: all of them in aifcheck's stream, those of one size in NIST's;
    never more than ``_STORED`` replicated means at a time (10,000,000 replications at 0.99)."""
    together = max(1, _STORED // count)
    groups: dict[int, list[int]] = {}
    for j in varied:
        groups.setdefault(len(samples[j]) if nist else 0, []).append(j)
    return [group[first : first + together] for group in groups.values() for first in range(0, len(group), together)]


def _rounds(batches: list[list[int]], count: int) -> list[list[list[int]]]:
    """NIST's sizes (batches of samples of one size) read the stream together in rounds of at
    most ``_READERS`` sizes (each holds its buffers) and ``_STORED`` replicated means."""
    rounds: list[list[list[int]]] = []
    stored = 0
    for chosen in batches:
        if not rounds or len(rounds[-1]) == _READERS or stored + len(chosen) * count > _STORED:
            rounds.append([])
            stored = 0
        rounds[-1].append(chosen)
        stored += len(chosen) * count
    return rounds


def sample_intervals(
    values: Sequence[float],
    members: Sequence[np.ndarray],
    sizes: Sequence[float],
    stream: Stream,
    replications: int | None = None,
) -> list[dict[float, Interval]]:
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
        if not stream.nist:  # aifcheck's stream spreads one batch's draws on the cores itself
            drawn = [replicate_means(data, [members[j] for j in chosen], count, stream.seed) for chosen in batches]
        else:
            drawn = [
                found
                for group in _rounds(batches, count)
                for found in _nist_replicates([[samples[j] for j in chosen] for chosen in group], count, stream.seed)
            ]
        for chosen, replicated in zip(batches, drawn, strict=True):
            for j, replicates in zip(chosen, replicated, strict=True):
                accel = _jackknife_acceleration(samples[j])
                for size in shared:
                    found[j][size] = bca(replicates.means, math.nan, accel, size, below=replicates.below)
    return [{size: intervals[size] for size in sizes} for intervals in found]


def unit_intervals(
    units: Sequence[Unit], sizes: Sequence[float], stream: Stream, replications: int | None = None
) -> dict[float, Interval]:
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
        return dict.fromkeys(sizes, (estimate, estimate))
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
            raise UsageError(
                f"--sizes: {labels[size_label(size)]} and {size} share the label "
                f"{size_label(size)}% (NIST's tool stops on them)"
            )
        labels[size_label(size)] = size


class _Pool:
    """The values of every sample in one array, a table row's value once: samples that share rows
    share positions, and so their draws (``resample``)."""

    def __init__(self) -> None:
        self.values: list[float] = []
        self._positions: dict[int, int] = {}

    def add(self, value: float, row: TsvRow | None = None) -> int:
        """The position of a row's value (of a value of no row: a new one)."""
        if row is not None and id(row) in self._positions:
            return self._positions[id(row)]
        self.values.append(value)
        if row is not None:
            self._positions[id(row)] = len(self.values) - 1
        return len(self.values) - 1


def _sample(table: TsvTable, rows: list[TsvRow], options: CIOptions, pool: _Pool) -> np.ndarray:
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


def _no_summary(_row: TsvRow) -> bool:
    return False


def _quirk_warnings(
    data: TsvTable,
    holds_all: Callable[[str], bool],
    cells: dict[str, str],
    wildcards: list[str],
    rows: list[TsvRow],
    label: str,
) -> list[str]:
    """The wildcard walk's quirk, when it changed a sample (the intended reading: every key
    column with ALL in a data row is literal). ``data``: the table's data rows;
    ``holds_all(column)``: whether a data row holds ALL in the column."""
    intended = [c for c in wildcards if not holds_all(c)]
    if intended == wildcards:
        return []
    literal = [c for c in wildcards if c not in intended]
    other = sample_rows(data, _no_summary, cells, intended)
    return [
        f"{data.path}: key {label}: NIST's tool lets ALL in {', '.join(literal)} match any value "
        "although data rows hold "
        f"ALL there (its walk skips a column after removing one): {len(rows)} rows instead of {len(other)}"
    ]


def _checked_options(table: TsvTable, options: CIOptions) -> list[str]:
    """UsageError or InputError for options the table cannot take; the warnings the options call for."""
    table.require(options.score, option="--score")
    table.require(*(column for column, _ in options.summary), option="--summary")
    if options.document:
        table.require(options.document, option="--document")
    _check_sizes(options.sizes)
    table.require(*options.key, option="--key")
    if options.macro and not options.document:
        raise UsageError("--macro needs --document: the column naming each row's document")
    warnings = []
    if options.replications is not None:
        warnings.append(f"{options.replications} replications per interval (NIST's tool: 100,000; 10,000,000 at 0.99)")
    for size in options.sizes:
        if size_label(size) != round(size * 100) and abs(size * 100 - round(size * 100)) < 1e-9:
            warnings.append(
                f"size {size} is labelled {size_label(size)}% as in NIST's tool "
                f"({size} x 100 = {size * 100!r}, truncated)"
            )
    return warnings


def nist_intervals(table: TsvTable, options: CIOptions) -> CIResult:
    """What NIST's ``generate_confidence_intervals.py`` computes on a score table (see the
    module docstring): one line per summary row, in file order; with ``macro`` the rows whose
    document cell is ALL-Micro are not printed. InputError (file and line) for a missing
    column, a score that is not a number, or a summary key without data rows."""
    warnings = _checked_options(table, options)
    stream = Stream.of(options.seed)
    is_summary = summary_matcher(table, options.summary)
    summaries = [row for row in table.rows if is_summary(row)]
    if not summaries:
        warnings.append(
            f"{table.path}: no row matches --summary "
            f"{','.join(f'{c}:{v}' for c, v in options.summary)}: the output is the header alone"
        )
    document = table.getter(options.document) if options.document else (lambda _row: None)
    printed = [row for row in summaries if not (options.macro and document(row) == ALL_MICRO)]
    for row in printed:  # NIST stops on these after computing every interval: say so first
        table.number(row, options.score)
    if summaries and not printed:
        warnings.append(
            "with --macro the ALL-Micro rows are not printed: every summary row is one, the output is the header alone"
        )
    # the data rows once, rather than telling them from the summary rows again for every key
    data = TsvTable(table.path, table.columns, tuple(row for row in table.rows if not is_summary(row)))
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
                warnings.append(
                    f"{table.path}:{row.line}: key {' '.join(values)} reads as {name!r} like the key "
                    f"{' '.join(first_key[name])}, and takes its intervals (NIST's tool joins key cells with '.')"
                )
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
    computed = {name: (found, len(samples[name])) for name, found in zip(samples, intervals, strict=True)}
    lines = []
    for row in printed:
        values = tuple(table.getter(name)(row) for name in options.key)
        intervals, size = computed[".".join(values)]
        lines.append(CILine(values, table.number(row, options.score), intervals, row.line, size))
    return CIResult(table.path, options.key, tuple(options.sizes), tuple(lines), stream, tuple(warnings))


def layout_options(table: TsvTable, layout: Layout, column: str | None = None, **settings) -> CIOptions:
    """NIST's arguments for a task's table, as NIST called its tool on TA1 tables (``-m``, key
    RunID,Language,Metatype, summary DocID:ALL-Macro,DocID:ALL-Micro, document DocID)."""
    return CIOptions(
        score=column or layout.headline_column(table),
        key=layout.key,
        summary=layout.summary,
        document=layout.unit,
        run=layout.run,
        macro=layout.macro,
        **settings,
    )


def headline_intervals(
    source: TsvTable | MetricTable | str | os.PathLike,
    column: str | None = None,
    *,
    sizes: Sequence[float] = DEFAULT_SIZES,
    seed: int | None = None,
    replications: int | None = None,
) -> CIResult:
    """The intervals of a score file's headline metric (``column``, by default the one its task
    reports: TA1's last column, TA2's AP, TA3's NDCG or F1, CRUX's F1), one line per ALL-Macro
    (TA1, TA3) or Summary (TA2) row, computed as NIST's tool does with the arguments NIST used
    (TA1: per-document means). The rows NIST's own ALL-Macro leaves out are left out of the
    samples: TA2 rows with RelCntd 0, TA3 queries with GT 0."""
    if isinstance(source, MetricTable):
        table, layout = source.table, source.layout
    else:
        table = source if isinstance(source, TsvTable) else read_score_file(source)
        layout = layout_of(table)
    if layout is None:
        raise InputError(
            table.path, "not a score table of TA1, TA2, TA3 or CRUX: give its columns to `aifcheck score ci`", 1
        )
    options = layout_options(table, layout, column, sizes=tuple(sizes), seed=seed, replications=replications)
    table.require(options.score, option="--score")
    data, is_summary = headline_data(table, layout)
    # a blank headline (TA2, TA3: nothing with ground truth, where NIST's scorer divides by zero)
    # has no interval: its line is left out rather than stopping every other one
    score = data.getter(options.score)
    blank = [row for row in data.rows if is_summary(row) and score(row) == ""]
    kept = TsvTable(data.path, data.columns, tuple(row for row in data.rows if row not in blank))
    result = nist_intervals(kept, options)
    notes = (_blank_rows(data.path, [row.line for row in blank], options.score),) if blank else ()
    return replace(result, warnings=notes + result.warnings)


def _blank_rows(path: str, lines: Sequence[int | None], score: str) -> str:
    """One warning for a file's summary rows with a blank headline, located at the first."""
    if len(lines) == 1:
        return f"{path}:{lines[0]}: no interval: the {score} of this summary row is blank"
    listed = ", ".join(map(str, lines))
    return f"{path}:{lines[0]}: no interval for the {len(lines)} summary rows whose {score} is blank (lines {listed})"


def folder_intervals(
    out: str | os.PathLike,
    *,
    sizes: Sequence[float] = DEFAULT_SIZES,
    seed: int | None = None,
    replications: int | None = None,
) -> dict[str, CIResult]:
    """``headline_intervals`` of every score table of a scored run (``OUT``, ``OUT/scores`` or one
    file), by metric name; tables of no known task are skipped."""
    tables = [t.table for t in read_scores(out).tables]
    return table_intervals(tables, sizes=sizes, seed=seed, replications=replications)


def table_intervals(
    tables: Iterable[TsvTable],
    *,
    sizes: Sequence[float] = DEFAULT_SIZES,
    seed: int | None = None,
    replications: int | None = None,
) -> dict[str, CIResult]:
    """``headline_intervals`` of score tables (a scorer's, in memory, or read from its files), by
    metric name, in the order of their paths (as a folder's files are read); tables of no known
    task are skipped."""
    found = {}
    for table in sorted(tables, key=lambda t: Path(t.path)):
        layout = layout_of(table)
        if layout is not None:
            found[metric_name(table)] = headline_intervals(
                MetricTable(table, layout), sizes=sizes, seed=seed, replications=replications
            )
    return found
