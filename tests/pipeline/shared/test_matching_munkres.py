"""munkres_assign: munkres 1.1.4's choice among tied assignments (traced by hand below)."""

from __future__ import annotations

import pytest

from aifcheck.pipeline.shared.matching import munkres_assign


def test_all_ties_star_the_first_zero_of_each_row():
    # step 1 leaves all zeros; step 2 stars (0,0) then (1,1): done
    assert munkres_assign([[0, 0], [0, 0]]) == [(0, 0), (1, 1)]


def test_rectangular_matrix_is_padded_with_zeros():
    # padded to 3x3 with zero rows; row 0's only zero after step 1 is column 1
    assert munkres_assign([[2, 1, 3]]) == [(0, 1)]


def test_last_zero_of_the_scanned_row_wins():
    # costs [[0,0],[0,1]]: step 2 stars (0,0); column 0 covered; step 4 finds (0,1) (row 0 is the
    # first with an uncovered zero), primes it, covers row 0, uncovers column 0; then (1,0) is
    # primed with no star in row 1: the path (1,0)->(0,0)->(0,1) swaps to stars (1,0), (0,1)
    assert munkres_assign([[0, 0], [0, 1]]) == [(0, 1), (1, 0)]


def test_agrees_with_the_munkres_package_when_installed():
    munkres = pytest.importorskip("munkres")
    import random

    rng = random.Random(7)
    for _ in range(200):
        rows, columns = rng.randint(1, 7), rng.randint(1, 7)
        costs = [[rng.choice([0, 1, 1, 2, 0.5]) for _ in range(columns)] for _ in range(rows)]
        assert munkres_assign(costs) == munkres.Munkres().compute([row[:] for row in costs])
