"""Matching a query's clusters with its entity classes for the greatest total AP: NIST's choice
(munkres 1.1.4 on the costs M - AP) and the plan's (any maximum matching). Pairs of AP 0 are left
out: they align nothing.

A query has few clusters and classes, and where one matching has the greatest total (its pairs of
AP > 0 the same in every maximum one) every algorithm finds it. Such matrices are solved here by
trying every matching; munkres' order of steps (aifcheck.pipeline.shared.matching.munkres_assign) decides only
between equal totals, and scipy only large matrices: importing numpy and scipy costs a small run
more than all its scoring.
"""

from __future__ import annotations

import math
from itertools import permutations

_TRIED = 5040  # the most matchings tried (7 clusters and classes)
_TIE = 1e-9  # totals closer than this are equal: munkres' float steps decide between them


def nist_pairs(matrix: list[list[float]]) -> list[tuple[int, int]]:
    """(row, column) pairs of AP > 0 of the assignment munkres 1.1.4 returns for the costs M - AP."""
    found = _unique_best(matrix)
    if found is not None:
        return found
    from aifcheck.pipeline.shared.matching import munkres_assign

    highest = max(ap for row in matrix for ap in row)
    return [(i, k) for i, k in munkres_assign([[highest - ap for ap in row] for row in matrix]) if matrix[i][k] > 0]


def best_pairs(matrix: list[list[float]]) -> list[tuple[int, int]]:
    """(row, column) pairs of AP > 0 of a matching of greatest total."""
    if not matrix or not matrix[0]:
        return []
    rows, columns = len(matrix), len(matrix[0])
    if math.perm(max(rows, columns), min(rows, columns)) > _TRIED:
        from aifcheck.pipeline.shared.matching import assign

        return assign(matrix)
    return max(_matchings(matrix), key=lambda found: found[0])[1]


def _unique_best(matrix: list[list[float]]) -> list[tuple[int, int]] | None:
    """The positive pairs shared by every matching of greatest total, or None when they differ
    between two of them (or the matrix is too large to try every matching)."""
    if not matrix or not matrix[0]:
        return []
    rows, columns = len(matrix), len(matrix[0])
    if math.perm(max(rows, columns), min(rows, columns)) > _TRIED:
        return None
    found = list(_matchings(matrix))
    best = max(total for total, _ in found)
    optima = {tuple(pairs) for total, pairs in found if total >= best - _TIE}
    return list(optima.pop()) if len(optima) == 1 else None


def _matchings(matrix: list[list[float]]):
    """(total AP, its pairs of AP > 0 in row order) of every matching of the smaller side."""
    rows, columns = len(matrix), len(matrix[0])
    if rows <= columns:
        for chosen in permutations(range(columns), rows):
            pairs = [(i, k) for i, k in enumerate(chosen) if matrix[i][k] > 0]
            yield sum(matrix[i][k] for i, k in pairs), pairs
    else:
        for chosen in permutations(range(rows), columns):
            pairs = sorted((i, k) for k, i in enumerate(chosen) if matrix[i][k] > 0)
            yield sum(matrix[i][k] for i, k in pairs), pairs
