"""The alignment's shortcuts give what the plain computations give, on random clusters.

``_TypeCache.matrix`` computes TypeSim for all pairs of clusters by array, and
``_Mentions.matched`` matches most pairs of clusters in Python without munkres; the NIST example
run (test_ta1_reproduce.py) checks them on real data, these on shapes it lacks: several types per
cluster, table pairs (0 included), mentions with several partners. Confidences are in (0, 1], as
the validation stage leaves them.
"""

from __future__ import annotations

import marshal
import random

import numpy as np
import pytest

from aifcheck.extract.model import Cluster, Mention, Metatype, Span
from aifcheck.pipeline.shared.auxdata import Aux
from aifcheck.pipeline.shared.matching import munkres_assign
from aifcheck.pipeline.ta1.align import _Mentions, _TypeCache, type_similarity
from aifcheck.pipeline.ta1.similarity import TypeSimilarity

QNODES = [f"Q{n}" for n in range(8)]
AUX = Aux(
    "aux", ("D",), {"D": ("E",)}, {"E": "text"}, {"E": "ENG"}, {"text": marshal.dumps({})}, "core", "parent_children"
)


def random_clusters(rng: random.Random, count: int, prefix: str) -> list[Cluster]:
    clusters = []
    for number in range(count):
        typed = []  # a mention per (membership confidence, type): the type's weight is the highest
        for _ in range(rng.randint(1, 3)):
            confidence, qnode = rng.choice([0.1, 0.25, 0.5, 0.9, 1.0]), rng.choice(QNODES)
            typed.append(Mention(text_mention(0, 0).span, qnode, False, membership_confidence=confidence))
        clusters.append(Cluster(f"{prefix}{number}", Metatype.ENTITY, mentions=tuple(typed)))
    return clusters


def text_mention(start: int, end: int) -> Mention:
    return Mention(Span.parse(f"D:E:({start},0)-({end},0)"), "Q0", False)


@pytest.mark.parametrize("seed", range(20))
def test_the_type_matrix_is_type_similarity_pair_by_pair(seed: int) -> None:
    rng = random.Random(seed)
    pairs = {
        (a, b): rng.choice([0.0, round(rng.random(), 3)])
        for a in QNODES
        for b in QNODES
        if a != b and rng.random() < 0.3
    }
    types = TypeSimilarity("table", pairs, frozenset(), "taggable")
    first, second = random_clusters(rng, 7, "s"), random_clusters(rng, 5, "g")
    matrix = _TypeCache(types).matrix(first, second)
    for i, c1 in enumerate(first):
        for j, c2 in enumerate(second):
            assert matrix[i, j] == type_similarity(c1, c2, types)


def munkres_matched(mentions: _Mentions, first: Cluster, second: Cluster) -> list[tuple[int, int, float]]:
    """The matching as munkres alone gives it: the oracle of the shortcut."""
    block = mentions.iou[np.ix_(mentions.members[id(first)], mentions.members[id(second)])]
    if not (block > 0).any():
        return []
    return sorted(
        (int(r), int(c), float(block[r, c])) for r, c in munkres_assign(block.max() - block) if block[r, c] > 0
    )


def test_matching_without_munkres_is_munkres_matching() -> None:
    shortcuts = 0
    for seed in range(30):
        rng = random.Random(seed)
        clusters = []
        for number in range(8):
            found = []
            for _ in range(rng.randint(1, 4)):
                start = rng.randrange(0, 40)
                found.append(text_mention(start, start + rng.randint(0, 10)))
            clusters.append(Cluster(f"c{number}", Metatype.ENTITY, mentions=tuple(found)))
        mentions = _Mentions(clusters, AUX, 0.1)
        for first in clusters:
            for second in clusters:
                found = mentions.matched(first, second)
                assert sorted(found) == munkres_matched(mentions, first, second)
                block = mentions.iou[np.ix_(mentions.members[id(first)], mentions.members[id(second)])] > 0
                shortcuts += bool(block.any()) and (block.sum(axis=0) <= 1).all() and (block.sum(axis=1) <= 1).all()
    assert 100 < shortcuts < 30 * 64  # both ways were taken
