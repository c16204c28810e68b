"""NIST's filtering maximal bipartite matching (FMBM): gold and system clusters of a document
aligned to maximise the sum of Sim(G,S) = MetatypeSim x TypeSim x MentionSim, and the mentions
of each aligned pair; plus the rows of ``similarities/<doc>.tab``.

TypeSim(G,S) is the greatest (membership x type confidence of G) x (that of S) x DWDTypeSim over
their types, set to 0 below the minimum type similarity; MentionSim is the number of pairs with
IoU > 0 in the matching of their mentions that maximises the total IoU. Both matchings follow
munkres' step order (aifcheck.score.matching.munkres_assign): when two matchings tie, NIST's files
record munkres' choice, and the number of mention pairs can differ between tied matchings.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from scipy import sparse

from ..matching import munkres_assign
from .iou import iou_matrix
from .responses import Cluster, DocumentResponses, Mention
from .similarity import TypeSimilarity

SIDES = ("system", "gold")


@dataclass(frozen=True)
class Parameters:
    """NIST's parameters (its docker Makefile) and the plan's reading of the thresholds."""

    iou_threshold: float = 0.1
    min_type_similarity: float = 0.3
    strict_min_type_similarity: bool = False  # the plan: TypeSim must exceed the minimum


@dataclass
class DocumentAlignment:
    document: str
    gold_to_system: dict[str, tuple[str, float]] = field(default_factory=dict)  # sorted by gold cluster
    system_to_gold: dict[str, tuple[str, float]] = field(default_factory=dict)
    mentions: dict[str, list[tuple[str, str, float]]] = field(default_factory=dict)  # gold cluster -> (gold, system mention, IoU)
    system_mentions: dict[str, dict[str, str]] = field(default_factory=dict)  # system cluster -> system mention -> gold mention
    unaligned_gold: list[str] = field(default_factory=list)  # in order of first appearance
    unaligned_system: list[str] = field(default_factory=list)
    similarity_lines: list[str] = field(default_factory=list)  # similarities/<doc>.tab without its header
    system_gold_type_similarity: dict[tuple[str, str], float] = field(default_factory=dict)
    self_similarity: dict[str, dict[str, float]] = field(default_factory=lambda: {"system": {}, "gold": {}})

    def type_similarity(self, system_cluster: str, gold_cluster: str) -> float:
        return self.system_gold_type_similarity.get((system_cluster, gold_cluster), 0.0)


class _Mentions:
    """The thresholded IoU of all mentions of a document's gold and system clusters."""

    def __init__(self, clusters: list[Cluster], threshold: float) -> None:
        index: dict[str, int] = {}
        mentions: list[Mention] = []
        self.members: dict[int, np.ndarray] = {}
        for cluster in clusters:
            positions = []
            for mention in cluster.mentions.values():
                if mention.id not in index:
                    index[mention.id] = len(mentions)
                    mentions.append(mention)
                positions.append(index[mention.id])
            self.members[id(cluster)] = np.array(positions, dtype=int)
        self.mentions = mentions
        self.iou = iou_matrix(mentions, threshold)
        self.touching = sparse.csr_matrix(self.iou > 0, dtype=np.int32)

    def overlapping(self, first: list[Cluster], second: list[Cluster]) -> np.ndarray:
        """Which pairs of clusters have a pair of mentions with IoU > 0."""
        size = len(self.mentions)

        def incidence(clusters: list[Cluster]) -> sparse.csr_matrix:
            columns = [self.members[id(c)] for c in clusters]
            rows = np.repeat(np.arange(len(clusters)), [len(c) for c in columns])
            data = np.ones(len(rows), dtype=np.int32)
            return sparse.csr_matrix((data, (rows, np.concatenate(columns) if columns else [])), shape=(len(clusters), size))

        return (incidence(first) @ self.touching @ incidence(second).T).toarray() > 0

    def matched(self, first: Cluster, second: Cluster) -> list[tuple[int, int, float]]:
        """The pairs (row, column, IoU > 0) of munkres' matching of the two clusters' mentions."""
        block = self.iou[np.ix_(self.members[id(first)], self.members[id(second)])]
        nonzero = block > 0
        if not nonzero.any():
            return []
        if (nonzero.sum(axis=0) <= 1).all() and (nonzero.sum(axis=1) <= 1).all():
            # each positive IoU alone in its row and column: every maximal matching takes them all
            rows, columns = np.nonzero(nonzero)
        else:
            pairs = munkres_assign(block.max() - block)
            rows = np.array([r for r, c in pairs if nonzero[r, c]], dtype=int)
            columns = np.array([c for r, c in pairs if nonzero[r, c]], dtype=int)
        return [(int(r), int(c), float(block[r, c])) for r, c in zip(rows, columns)]


def type_similarity(first: Cluster, second: Cluster, types: TypeSimilarity) -> float:
    return max(c1 * c2 * types.similarity(q1, q2) for c1, q1 in first.type_confidences for c2, q2 in second.type_confidences)


def align_document(gold: DocumentResponses, system: DocumentResponses, types: TypeSimilarity, parameters: Parameters) -> DocumentAlignment | None:
    """The FMBM of a document, or None when gold or system has no cluster there (NIST then
    writes no alignment and no similarities for it)."""
    gold_ids, system_ids = sorted(gold.clusters), sorted(system.clusters)
    if not gold_ids or not system_ids:
        return None
    gold_clusters = [gold.clusters[c] for c in gold_ids]
    system_clusters = [system.clusters[c] for c in system_ids]
    mentions = _Mentions(gold_clusters + system_clusters, parameters.iou_threshold)
    touching = mentions.overlapping(gold_clusters, system_clusters)
    cache = _TypeCache(types)
    sims = np.zeros((len(gold_ids), len(system_ids)))
    for i, g in enumerate(gold_clusters):
        for j in np.flatnonzero(touching[i]):
            s = system_clusters[j]
            if g.metatype != s.metatype:
                continue
            value = cache(g, s)
            below = value <= parameters.min_type_similarity if parameters.strict_min_type_similarity else value < parameters.min_type_similarity
            if below:
                continue
            sims[i, j] = (1.0 * value) * len(mentions.matched(g, s))
    result = DocumentAlignment(gold.id)
    best = sims.max()
    if best > 0:
        for i, j in munkres_assign(best - sims):
            if sims[i, j] > 0:
                g, s = gold_ids[i], system_ids[j]
                result.gold_to_system[g] = (s, float(sims[i, j]))
                result.system_to_gold[s] = (g, float(sims[i, j]))
                ids = (list(gold_clusters[i].mentions), list(system_clusters[j].mentions))
                result.mentions[g] = [(ids[0][r], ids[1][c], v) for r, c, v in mentions.matched(gold_clusters[i], system_clusters[j])]
                result.system_mentions[s] = {m_system: m_gold for m_gold, m_system, _ in result.mentions[g]}
    result.unaligned_gold = [c for c in gold.clusters if c not in result.gold_to_system]
    result.unaligned_system = [c for c in system.clusters if c not in result.system_to_gold]
    _similarities(result, gold, system, mentions, cache)
    return result


class _TypeCache:
    """TypeSim by pair of type sets (clusters share few distinct sets)."""

    def __init__(self, types: TypeSimilarity) -> None:
        self.types = types
        self.keys: dict[frozenset, int] = {}
        self.known: dict[tuple[int, int], float] = {}

    def key(self, cluster: Cluster) -> int:
        return self.keys.setdefault(frozenset(cluster.type_confidences), len(self.keys))

    def __call__(self, first: Cluster, second: Cluster) -> float:
        key = (self.key(first), self.key(second))
        found = self.known.get(key)
        if found is None:
            found = self.known[key] = type_similarity(first, second, self.types)
        return found


def _similarities(result: DocumentAlignment, gold: DocumentResponses, system: DocumentResponses, mentions: _Mentions, cache: _TypeCache) -> None:
    """The rows NIST writes for every ordered pair of aligned clusters of one metatype (system-
    system, system-gold, gold-gold): TypeSim without threshold, and TypeSim x MentionSim."""
    aligned = {"system": sorted(result.system_to_gold), "gold": sorted(result.gold_to_system)}
    responses = {"system": system, "gold": gold}
    lines = result.similarity_lines
    text: dict[float, str] = {}

    def show(value: float) -> str:
        found = text.get(value)
        if found is None:
            found = text[value] = str(value)
        return found

    for side1, side2 in (("system", "system"), ("system", "gold"), ("gold", "gold")):
        first = [responses[side1].clusters[c] for c in aligned[side1]]
        second = [responses[side2].clusters[c] for c in aligned[side2]]
        if not first or not second:
            continue
        touching = mentions.overlapping(first, second)
        keys2 = [cache.key(c) for c in second]
        for i, c1 in enumerate(first):
            prefix = f"{c1.metatype}\t{side1}\t{c1.id}\t{side2}\t"
            key1 = cache.key(c1)
            near = set(np.flatnonzero(touching[i]).tolist())
            for j, c2 in enumerate(second):
                if c1.metatype != c2.metatype:
                    continue
                type_sim = cache.known.get((key1, keys2[j]))
                if type_sim is None:
                    type_sim = cache(c1, c2)
                count = len(mentions.matched(c1, c2)) if j in near else 0
                similarity = (1.0 * count) * type_sim
                lines.append(f"{prefix}{c2.id}\t{show(type_sim)}\t{show(similarity)}\n")
                if side1 == "system" and side2 == "gold":
                    result.system_gold_type_similarity[c1.id, c2.id] = type_sim
                elif c1.id == c2.id:
                    result.self_similarity[side1][c1.id] = similarity
