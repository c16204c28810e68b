"""One assignment helper for every scorer: a maximum-weight one-to-one matching."""

from __future__ import annotations

import sys
from collections.abc import Sequence

import numpy as np
from scipy.optimize import linear_sum_assignment


def assign(weights: Sequence[Sequence[float]]) -> list[tuple[int, int]]:
    """The (row, column) pairs of a matching of greatest total weight, each row and column used at
    most once, pairs of weight 0 left out; rows and columns may differ in number. Among matchings
    of equal total weight, which one scipy returns is not specified: where a tie can change a
    result, a scorer must break it itself."""
    matrix = np.asarray(weights, dtype=float)
    if matrix.size == 0:
        return []
    rows, columns = linear_sum_assignment(matrix, maximize=True)
    return [(int(r), int(c)) for r, c in zip(rows, columns, strict=True) if matrix[r, c] > 0]


def munkres_assign(costs: Sequence[Sequence[float]]) -> list[tuple[int, int]]:
    """The minimum-cost assignment that the munkres package (1.1.4, NIST's scorers) returns.

    Where several assignments cost the same, which one munkres returns depends on the order of its
    steps; NIST's files record that one, so a scorer that must write them byte for byte uses this
    instead of assign(). The steps are Munkres' (Kuhn-Munkres with stars, primes and covers) in the
    order munkres 1.1.4 takes them, including its scan for an uncovered zero: rows from the last
    primed zero's row, columns from the last star's column, each row scanned to its end so that the
    last zero found in the first row holding one wins. A rectangular matrix is padded with zeros to
    a square. The pairs (row, column) come in row order, every row or column of the smaller side
    assigned (cost ties included); floats are added and subtracted in munkres' order, so that the
    zeros it finds are the same ones.
    """
    original = np.asarray(costs, dtype=float)
    if original.size == 0:
        return []
    rows, columns = original.shape
    n = max(rows, columns)
    cost = np.zeros((n, n))
    cost[:rows, :columns] = original
    cost -= cost.min(axis=1, keepdims=True)  # step 1
    zeros = cost == 0
    starred = _star_first_zeros(zeros)  # step 2
    primed = np.zeros((n, n), dtype=bool)
    row_covered = np.zeros(n, dtype=bool)
    while True:
        column_covered = starred.any(axis=0)  # step 3
        if column_covered.sum() >= n:
            break
        row = column = 0  # step 4
        while True:
            found = _find_zero(zeros, row_covered, column_covered, row, column)
            if found is None:  # step 6: no uncovered zero
                zeros = _shift_by_smallest_uncovered(cost, row_covered, column_covered)
                row = column = 0
                continue
            row, column = found
            primed[row, column] = True
            stars = np.flatnonzero(starred[row])
            if stars.size == 0:
                break
            column = int(stars[0])
            row_covered[row] = True
            column_covered[column] = False
        _flip_path(starred, primed, row, column)  # step 5
        row_covered[:] = False
        primed[:] = False
    return [(int(r), int(c)) for r, c in zip(*np.nonzero(starred[:rows, :columns]), strict=True)]


def _star_first_zeros(zeros: np.ndarray) -> np.ndarray:
    """munkres' step 2: in each row, in order, the first zero whose column has no star yet is starred."""
    n = len(zeros)
    starred = np.zeros((n, n), dtype=bool)
    column_starred = np.zeros(n, dtype=bool)
    for i in range(n):
        free = np.flatnonzero(zeros[i] & ~column_starred)
        if free.size:
            starred[i, free[0]] = True
            column_starred[free[0]] = True
    return starred


def _shift_by_smallest_uncovered(cost: np.ndarray, row_covered: np.ndarray, column_covered: np.ndarray) -> np.ndarray:
    """munkres' step 6, on ``cost`` in place: the smallest uncovered cost added to every covered row
    and taken from every uncovered column (in that order, as munkres adds floats). Returns the zeros."""
    uncovered = cost[np.ix_(~row_covered, ~column_covered)]
    smallest = uncovered.min() if uncovered.size else float(sys.maxsize)
    cost[row_covered] += smallest
    cost[:, ~column_covered] -= smallest
    return cost == 0


def _flip_path(starred: np.ndarray, primed: np.ndarray, row: int, column: int) -> None:
    """munkres' step 5, on ``starred`` in place: along the alternating path of primes and stars that
    starts at the prime (``row``, ``column``), each prime becomes a star and each star is removed."""
    path = [(row, column)]
    while (star_rows := np.flatnonzero(starred[:, path[-1][1]])).size:
        star_row = int(star_rows[0])
        path.append((star_row, path[-1][1]))
        path.append((star_row, int(np.flatnonzero(primed[star_row])[0])))
    for r, c in path:
        starred[r, c] = not starred[r, c]


def _find_zero(
    zeros: np.ndarray, row_covered: np.ndarray, column_covered: np.ndarray, row: int, column: int
) -> tuple[int, int] | None:
    """munkres' scan for an uncovered zero: the first row, from ``row`` on (wrapping round), that
    holds one, and in it the last one met scanning the columns from ``column`` on (wrapping)."""
    n = len(row_covered)
    free_rows = np.flatnonzero(~row_covered)
    if free_rows.size == 0:
        return None
    free_columns = ~column_covered
    candidates = zeros[free_rows][:, free_columns].any(axis=1)
    hits = free_rows[candidates]
    if hits.size == 0:
        return None
    order = (hits - row) % n
    found_row = int(hits[np.argmin(order)])
    found_columns = np.flatnonzero(zeros[found_row] & free_columns)
    found_column = int(found_columns[np.argmax((found_columns - column) % n)])
    return found_row, found_column
