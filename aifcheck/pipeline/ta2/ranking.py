"""Which responses of a TA2 query NIST pools (and scores): its top C clusters and, in each, its top
K documents (NIST's Task2Pool, which both its pooler and its scorer use).

Clusters: a cluster's score is the highest ``?link_cv`` of its rows; by score descending, then
cluster ID (string order); the first C are selected, ranked 1..C. In a selected cluster, per
document the row of highest ``?j_cv`` (the first one on ties); these by ``?j_cv`` descending, then
span (string order); the first K are pooled, ranked 1..K. Invalid rows take part like the others,
as in NIST's code. C or K below 0 select everything (NIST counts down to 0 and never meets it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from aifcheck.pipeline.ta2.responses import Response


@dataclass(frozen=True)
class SelectedCluster:
    cluster: str
    rank: int  # 1..C
    score: float  # its highest link confidence
    rows: tuple[int, ...]  # its rows (indices in the query's rows), in file order
    pooled: tuple[int, ...]  # its pooled rows, best first: the row of rank r is pooled[r - 1]
    ranks: dict[str, int]  # pooled span -> its rank (NIST looks a row's rank up by its span)


def select(rows: Sequence[Response], clusters: int, documents: int) -> tuple[SelectedCluster, ...]:
    """The selected clusters of a query's rows, in rank order."""
    members: dict[str, list[int]] = {}
    scores: dict[str, float] = {}
    for index, row in enumerate(rows):
        found = members.get(row.cluster)
        if found is None:
            members[row.cluster] = [index]
            scores[row.cluster] = row.link_cv.value
            continue
        found.append(index)
        if row.link_cv.value > scores[row.cluster]:
            scores[row.cluster] = row.link_cv.value
    ordered = sorted(members, key=lambda c: (-scores[c], c))
    chosen = ordered if clusters < 0 else ordered[:clusters]
    return tuple(
        _pool(rows, cluster, rank, scores[cluster], members[cluster], documents)
        for rank, cluster in enumerate(chosen, 1)
    )


def _pool(
    rows: Sequence[Response], cluster: str, rank: int, score: float, members: list[int], documents: int
) -> SelectedCluster:
    best: dict[str, int] = {}
    for index in members:
        known = best.get(rows[index].document)
        if known is None or rows[index].j_cv.value > rows[known].j_cv.value:
            best[rows[index].document] = index
    ordered = sorted(best.values(), key=lambda i: (-rows[i].j_cv.value, rows[i].span_text))
    pooled = tuple(ordered if documents < 0 else ordered[:documents])
    return SelectedCluster(
        cluster, rank, score, tuple(members), pooled, {rows[i].span_text: r for r, i in enumerate(pooled, 1)}
    )
