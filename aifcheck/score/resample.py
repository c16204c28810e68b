"""Bootstrap replications of the means of several samples of one table at once, in aifcheck's own
random stream (``score ci`` without ``--seed``): for each sample the same distribution as drawing
its n rows with replacement, at a fraction of the cost.

- Samples that share rows share their draws. The rows are split into *atoms*, the rows that belong
  to the same samples (TA1's ALL/ALL sample is the union of the language x metatype ones). Drawing n
  rows of a sample is drawing how many come from each of its atoms (multinomial counts), then that
  many rows of each atom, uniformly. Each atom has one stream of row draws per replication, and every
  sample takes as many of its first draws as its counts say: a row draw serves every sample the row
  is in. Each sample's replications have exactly the bootstrap distribution; the samples'
  replications are correlated with each other, which no interval depends on (NIST's seeded runs
  share theirs too: the same seed for every interval).
- Tied samples (few distinct values) draw counts of each distinct value instead: k numbers, not n.
- Scores written with at most 6 decimals are added as integers: the sums are exact, and a
  replication whose sum equals the sample's (a tie) is known as such. NIST's library compares
  float64 means, whose rounding puts some ties below the mean when the scores are not exact in
  binary (0.3333); ties are decided that way here too (``replicate_means``).
- Indices are drawn in the narrowest unsigned type that numpy's bounded generator serves fast, in
  blocks that stay in the processor's cache, on all cores (numpy lets go of the GIL while it draws,
  gathers and adds); each task has its own generator, so the numbers do not depend on the cores.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TypeVar

import numpy as np

_TASK = 4096  # replications per task (a task runs on one core with its own generator)
_CACHE_BLOCK = 250_000  # row draws at a time: small enough to stay in cache while they are gathered and added
THREADS = min(4, os.cpu_count() or 1)
_COUNTS_FACTOR = 16  # drawing counts of k values costs about this many index draws each
_MAX_DIGITS = 6  # decimals of scores added as integers
_TIES = 1e-4  # a share of replications tied with the estimate that NIST's rounding would show
_REDRAWN = 20_000_000  # index draws a sample with any tie may cost to be drawn again as NIST adds it
_ATOMS, _REDRAWS, _ORDERS = (
    1,
    2,
    3,
)  # spawn keys: the streams of the atoms' tasks, of samples drawn again, of tie orders
_UINT16_UP_TO = 4096  # numpy's 16-bit bounded draws slow down past this (they often take a remainder)

T = TypeVar("T")
R = TypeVar("R")


@dataclass(frozen=True)
class Replicates:
    """A sample's B replicated means and how many of them lie strictly below its mean."""

    means: np.ndarray
    below: int


def threaded_map(function: Callable[[T], R], items: Sequence[T]) -> list[R]:
    """``function`` of each item, in order, on up to ``THREADS`` cores: the items' work is
    numpy's drawing, gathering and adding, which lets go of the GIL."""
    if len(items) <= 1 or THREADS == 1:
        return [function(item) for item in items]
    with threads(min(THREADS, len(items))) as pool:
        return list(pool.map(function, items))


@contextmanager
def threads(count: int) -> Iterator[ThreadPoolExecutor]:
    """A pool of ``count`` threads. A run stopped (SIGTERM, Ctrl-C) drops the tasks still queued, and
    ends once the running ones (each a short block of draws) are done: a pool's own ending would
    first run every task given."""
    pool = ThreadPoolExecutor(count)
    try:
        yield pool
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown(wait=True)


def _integers(values: np.ndarray) -> tuple[np.ndarray, float] | None:
    """The values as integers times 10^-d (smallest d), when every one has at most
    ``_MAX_DIGITS`` decimals and any sum of them stays exact in a float; else None."""
    if not len(values):
        return None
    for digits in range(_MAX_DIGITS + 1):
        scale = 10.0**digits
        scaled = np.round(values * scale)
        if np.array_equal(scaled / scale, values):
            if np.abs(scaled).max() * len(values) >= 2.0**53:
                return None
            return scaled.astype(np.int64), scale
    return None


def _index_type(n: int) -> type:
    if n <= _UINT16_UP_TO:
        return np.uint16
    return np.uint32 if n <= 2**32 else np.int64


@dataclass(frozen=True)
class _Plan:
    """Atoms (row positions into the values) and, per sample, its atoms (by number)."""

    atoms: tuple[np.ndarray, ...]
    parts: tuple[tuple[int, ...], ...]


def _plan(members: Sequence[np.ndarray], size: int) -> _Plan:
    belongs = np.zeros((size, len(members)), dtype=bool)
    for j, rows in enumerate(members):
        belongs[rows, j] = True
    used = np.flatnonzero(belongs.any(axis=1))
    signatures, atom_of = np.unique(belongs[used], axis=0, return_inverse=True)
    atom_of = atom_of.reshape(-1)
    order = np.argsort(atom_of, kind="stable")
    atoms = tuple(np.split(used[order], np.cumsum(np.bincount(atom_of, minlength=len(signatures)))[:-1]))
    parts = tuple(tuple(int(a) for a in np.flatnonzero(signatures[:, j])) for j in range(len(members)))
    return _Plan(atoms, parts)


def _atom_sums(values: np.ndarray, members: Sequence[np.ndarray], replications: int, seed: int) -> np.ndarray:
    """Each sample's B replicated sums (samples x B), drawn through shared atoms (see the module
    docstring)."""
    plan = _plan(members, len(values))
    sizes = [len(rows) for rows in plan.atoms]
    largest = max(len(rows) for rows in members)
    exact = values.dtype.kind == "i"
    gathered = np.int32 if exact and int(np.abs(values).max()) * largest < 2**31 else values.dtype
    sources = [values[rows].astype(gathered) for rows in plan.atoms]
    users = [np.array([j for j, parts in enumerate(plan.parts) if a in parts]) for a in range(len(sizes))]
    sums = np.zeros((len(members), replications), dtype=values.dtype)

    def task(number: int) -> None:
        start = number * _TASK
        count = min(_TASK, replications - start)
        generator = np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(_ATOMS, number))))
        wanted = [np.empty((len(users[a]), count), dtype=np.int64) for a in range(len(sizes))]
        for j, parts in enumerate(plan.parts):
            if len(parts) == 1:
                counts = np.full((count, 1), len(members[j]))
            else:
                counts = generator.multinomial(
                    len(members[j]), np.array([sizes[a] for a in parts]) / len(members[j]), size=count
                )
            for column, a in enumerate(parts):
                wanted[a][np.searchsorted(users[a], j)] = counts[:, column]
        local = sums[:, start : start + count]
        for a, n in enumerate(sizes):
            kind = _index_type(n)
            # replications in order of the most draws any sample takes, so that a block's rows
            # are drawn to nearly the same length (which rows go to which replication is no matter:
            # every row is drawn alike)
            most = wanted[a].max(axis=0)
            order = np.argsort(most, kind="stable")
            rows = max(1, _CACHE_BLOCK // max(n, 1))
            for first in range(0, count, rows):
                chosen = order[first : first + rows]
                positions = wanted[a][:, chosen]
                low, high = int(positions.min()), int(most[chosen[-1]])
                draws = np.take(sources[a], generator.integers(0, n, size=(len(chosen), high), dtype=kind))
                base = draws[:, :low].sum(axis=1, dtype=gathered)
                if high > low:  # prefix sums where the samples' counts differ
                    prefix = np.zeros((len(chosen), high - low + 1), dtype=gathered)
                    np.cumsum(draws[:, low:], axis=1, dtype=gathered, out=prefix[:, 1:])
                    local[np.ix_(users[a], chosen)] += base + prefix[np.arange(len(chosen)), positions - low]
                else:
                    local[np.ix_(users[a], chosen)] += base

    threaded_map(task, range(-(-replications // _TASK)))
    return sums


def _count_sums(numbers: np.ndarray, replications: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """B replicated sums of a tied sample, drawn as how many of each distinct value (not which
    rows); with the distinct values' first positions and the counts of the replications whose sum
    equals the sample's."""
    distinct, first, counts = np.unique(numbers, return_index=True, return_counts=True)
    n = len(numbers)
    total = numbers.sum()
    generator = np.random.Generator(np.random.PCG64(seed))
    rows = max(1, _CACHE_BLOCK * _COUNTS_FACTOR // len(distinct))
    sums, tied = [], []
    for start in range(0, replications, rows):
        drawn = generator.multinomial(n, counts / n, size=min(rows, replications - start))
        found = drawn @ distinct
        sums.append(found)
        tied.append(drawn[found == total])
    return np.concatenate(sums), first, np.concatenate(tied)


def _below_in_floats(sample: np.ndarray, distinct: np.ndarray, tied: np.ndarray, generator: np.random.Generator) -> int:
    """How many replications tied with the sample's sum (``tied``: their counts of the
    ``distinct`` values) NIST's library puts below the mean: each one's values in a random order,
    the order its draws would have come in, added as numpy adds them."""
    estimate = sample.mean()
    below = 0
    for counts in tied:
        drawn = np.repeat(distinct, counts)
        generator.shuffle(drawn)
        below += bool(drawn.mean() < estimate)
    return below


def replicate_indices(
    n: int, replications: int, seed: int, statistic: Callable[[np.ndarray], np.ndarray], key: tuple[int, ...] = ()
) -> np.ndarray:
    """``statistic`` of B bootstrap draws of n indices in [0, n) (int64): it is given blocks of
    draws (arrays rows x n) and returns one value per row. Each block has its own generator (PCG64
    seeded with the seed, ``key`` and the block's number), so that blocks can be drawn on several
    cores and the replications do not depend on how many there are."""
    rows = max(1, _CACHE_BLOCK // max(n, 1))

    def block(number: int) -> np.ndarray:
        generator = np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(*key, number))))
        return statistic(generator.integers(0, n, size=(min(rows, replications - number * rows), n)))

    return np.concatenate(threaded_map(block, range(-(-replications // rows))))


def _float_sums_exact(sample: np.ndarray) -> bool:
    """Whether float64 adds any of these values in any order exactly (multiples of a power of
    two, such as 0, 1 and 0.5): then a replication equal to the mean compares equal in floats too."""
    for bits in range(31):
        scaled = sample * 2.0**bits
        if np.array_equal(scaled, np.round(scaled)):
            return float(np.abs(scaled).max()) * len(sample) < 2.0**53
    return False


def replicate_means(
    values: Sequence[float], members: Sequence[np.ndarray], replications: int, seed: int
) -> list[Replicates]:
    """B bootstrap replications of the mean of each sample ``values[members[j]]`` (positions into
    ``values``, each at most once per sample, two or more rows), in aifcheck's stream.

    A replication whose exact sum equals the sample's (a tie) compares as NIST's library compares
    it: float64 means, added in the order of the draws. For scores float64 holds exactly (0, 1,
    0.5) a tie is never below the mean; for others (0.3333) the rounding puts some ties below,
    which moves the bounds of samples where ties are frequent (small ones, tied ones). A tied
    replication drawn as counts is put in a random order and added as numpy adds it; a sample
    drawn through atoms that has ties is drawn again as NIST's library draws it (n indices per
    replication, float64 means) when that is cheap (``_REDRAWN``) or its ties are frequent
    (``_TIES``). A larger sample with a few ties keeps them off the share below the estimate,
    which moves that share by at most 0.0001, a small part of its Monte-Carlo noise.
    """
    data = np.asarray(values, dtype=float)
    exact = _integers(data)
    numbers, scale = exact if exact is not None else (data, 1.0)
    sums: list[np.ndarray | None] = [None] * len(members)
    tied: dict[int, tuple[np.ndarray, np.ndarray]] = {}
    shared = []
    for j, rows in enumerate(members):
        if len(np.unique(numbers[rows])) * _COUNTS_FACTOR < len(rows):
            sums[j], first, counts = _count_sums(numbers[rows], replications, seed)
            tied[j] = (first, counts)
        else:
            shared.append(j)
    if shared:
        for j, found in zip(shared, _atom_sums(numbers, [members[j] for j in shared], replications, seed), strict=True):
            sums[j] = found
    found = []
    for j, (rows, replicated) in enumerate(zip(members, sums, strict=True)):
        total = numbers[rows].sum()
        sample = data[rows]
        below = int(np.count_nonzero(replicated < total))
        if exact is None or _float_sums_exact(sample):
            pass  # float64 decides ties as exact sums do (or there are only float64 sums)
        elif j in tied:
            first, counts = tied[j]
            generator = np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(_ORDERS, j))))
            below += _below_in_floats(sample, sample[first], counts, generator)
        else:
            ties = np.count_nonzero(replicated == total)
            if ties and (ties > _TIES * replications or len(rows) * replications <= _REDRAWN):
                means = replicate_indices(
                    len(rows),
                    replications,
                    seed,
                    lambda block, sample=sample: np.take(sample, block).mean(axis=1),
                    (_REDRAWS, j),
                )
                found.append(Replicates(means, int(np.count_nonzero(means < sample.mean()))))
                continue
        found.append(Replicates(replicated / (len(rows) * scale), below))
    return found
