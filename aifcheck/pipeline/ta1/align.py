"""NIST's filtering maximal bipartite matching (FMBM): gold and system clusters of a document
aligned to maximise the sum of Sim(G,S) = MetatypeSim x TypeSim x MentionSim, and the mentions
of each aligned pair; plus the values of ``similarities/<doc>.tab``.

TypeSim(G,S) is the greatest (membership x type confidence of G) x (that of S) x DWDTypeSim over
their types, set to 0 below the minimum type similarity; MentionSim is the number of pairs with
IoU > 0 in the matching of their mentions that maximises the total IoU. Both matchings follow
munkres' step order (aifcheck.pipeline.shared.matching.munkres_assign): when two matchings tie, NIST's files
record munkres' choice, and the number of mention pairs can differ between tied matchings.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
from scipy import sparse

from aifcheck.extract.model import Cluster, KnowledgeGraph, Mention
from aifcheck.pipeline.shared.auxdata import Aux
from aifcheck.pipeline.shared.matching import munkres_assign
from aifcheck.pipeline.ta1.iou import iou_matrix
from aifcheck.pipeline.ta1.settings import TA1Settings
from aifcheck.pipeline.ta1.similarity import TypeSimilarity

SIDES = ("system", "gold")


@dataclass(frozen=True)
class SimilarityBlock:
    """The similarity rows NIST writes for one pair of sides (system-system, system-gold or
    gold-gold): for every pair of their aligned clusters, TypeSim without threshold and TypeSim x
    MentionSim; a row is written for each pair of one metatype (aifcheck.render.ta1.scores)."""

    side1: str
    side2: str
    first: tuple[tuple[str, str | None], ...]  # (cluster, metatype) of side1's aligned clusters
    second: tuple[tuple[str, str | None], ...]
    type_similarity: np.ndarray  # first x second
    similarity: np.ndarray


@dataclass
class DocumentAlignment:
    document: str
    gold_to_system: dict[str, tuple[str, float]] = field(default_factory=dict)  # sorted by gold cluster
    system_to_gold: dict[str, tuple[str, float]] = field(default_factory=dict)
    mentions: dict[str, list[tuple[str, str, float]]] = field(
        default_factory=dict
    )  # gold cluster -> (gold, system mention, IoU)
    system_mentions: dict[str, dict[str, str]] = field(
        default_factory=dict
    )  # system cluster -> system mention -> gold mention
    unaligned_gold: list[str] = field(default_factory=list)  # in order of first appearance
    unaligned_system: list[str] = field(default_factory=list)
    similarities: list[SimilarityBlock] = field(default_factory=list)  # similarities/<doc>.tab, when asked
    self_similarity: dict[str, dict[str, float]] = field(default_factory=lambda: {"system": {}, "gold": {}})
    graphs: dict[str, KnowledgeGraph] = field(
        default_factory=dict, repr=False
    )  # "system" | "gold" -> the document's objects
    types: _TypeCache | None = field(default=None, repr=False)

    def type_similarity(self, system_cluster: str, gold_cluster: str) -> float:
        """TypeSim of an aligned system cluster and an aligned gold cluster of one metatype (NIST
        reads it from its similarity rows, which hold only those pairs); otherwise 0."""
        if system_cluster not in self.system_to_gold or gold_cluster not in self.gold_to_system:
            return 0.0
        system, gold = self.graphs["system"].cluster(system_cluster), self.graphs["gold"].cluster(gold_cluster)
        if system.metatype != gold.metatype or self.types is None:
            return 0.0
        return self.types(system, gold)


class _Mentions:
    """The thresholded IoU of all mentions (distinct spans) of a document's gold and system clusters."""

    def __init__(self, clusters: list[Cluster], aux: Aux, threshold: float | Callable[[Mention], float]) -> None:
        index: dict[str, int] = {}
        mentions: list[Mention] = []
        self.members: dict[int, np.ndarray] = {}
        for cluster in clusters:
            positions = []
            for key, mention in cluster.by_span.items():
                if key not in index:
                    index[key] = len(mentions)
                    mentions.append(mention)
                positions.append(index[key])
            self.members[id(cluster)] = np.array(positions, dtype=int)
        self.mentions = mentions
        limit = np.array([threshold(m) for m in mentions], dtype=float) if callable(threshold) else threshold
        self.iou = iou_matrix([m.span for m in mentions], aux, limit)
        self.touching = sparse.csr_matrix(self.iou > 0, dtype=np.int32)
        # each mention's partners (IoU > 0) by position, and each cluster's column of a position:
        # most pairs of clusters are matched in Python from these, without slicing the matrix
        self.partners = [
            dict(
                zip(
                    self.touching.indices[start:end].tolist(),
                    self.iou[row, self.touching.indices[start:end]].tolist(),
                    strict=True,
                )
            )
            for row, (start, end) in enumerate(zip(self.touching.indptr[:-1], self.touching.indptr[1:], strict=True))
        ]
        self.columns = {key: {int(p): c for c, p in enumerate(positions)} for key, positions in self.members.items()}

    def overlapping(self, first: list[Cluster], second: list[Cluster]) -> np.ndarray:
        """Which pairs of clusters have a pair of mentions with IoU > 0."""
        size = len(self.mentions)

        def incidence(clusters: list[Cluster]) -> sparse.csr_matrix:
            columns = [self.members[id(c)] for c in clusters]
            rows = np.repeat(np.arange(len(clusters)), [len(c) for c in columns])
            data = np.ones(len(rows), dtype=np.int32)
            return sparse.csr_matrix(
                (data, (rows, np.concatenate(columns) if columns else [])), shape=(len(clusters), size)
            )

        return (incidence(first) @ self.touching @ incidence(second).T).toarray() > 0

    def matched(self, first: Cluster, second: Cluster) -> list[tuple[int, int, float]]:
        """The pairs (row, column, IoU > 0) of munkres' matching of the two clusters' mentions, by row."""
        columns = self.columns[id(second)]
        found = [
            (row, columns[position], value)
            for row, mention in enumerate(self.members[id(first)].tolist())
            for position, value in self.partners[mention].items()
            if position in columns
        ]
        if len({row for row, _, _ in found}) == len(found) == len({column for _, column, _ in found}):
            # each positive IoU alone in its row and column: every maximal matching takes them all
            return found
        block = self.iou[np.ix_(self.members[id(first)], self.members[id(second)])]
        nonzero = block > 0
        pairs = munkres_assign(block.max() - block)
        return [(int(r), int(c), float(block[r, c])) for r, c in pairs if nonzero[r, c]]


def type_similarity(first: Cluster, second: Cluster, types: TypeSimilarity) -> float:
    """NIST's TypeSim: the greatest product of the two clusters' type weights and DWDTypeSim."""
    return max(
        c1 * c2 * types.similarity(q1, q2) for q1, c1 in first.weighted_types for q2, c2 in second.weighted_types
    )


def align_document(
    gold: KnowledgeGraph,
    system: KnowledgeGraph,
    types: TypeSimilarity,
    aux: Aux,
    settings: TA1Settings,
    strict: bool = False,
    similarities: bool = False,
) -> DocumentAlignment | None:
    """The FMBM of a document, or None when gold or system has no cluster there (NIST then
    writes no alignment and no similarities for it). ``strict``: TypeSim must exceed the minimum
    (the plan), not reach it (NIST). ``similarities``: also the values of
    ``similarities/<doc>.tab``, quadratic in the aligned clusters."""
    gold_clusters = sorted(gold.clusters, key=lambda c: c.iri)
    system_clusters = sorted(system.clusters, key=lambda c: c.iri)
    if not gold_clusters or not system_clusters:
        return None
    language = aux.language(gold.source) if settings.iou_thresholds else None  # (all 0.1 otherwise)
    # NIST's threshold of a mention pair: its document's language and its first mention's modality
    mentions = _Mentions(
        gold_clusters + system_clusters,
        aux,
        lambda mention: settings.iou_threshold(language, aux.modality(mention.span)),
    )
    cache = _TypeCache(types)
    minimum = settings.min_type_similarity
    sims = _cluster_similarities(gold_clusters, system_clusters, mentions, cache, minimum, strict)
    result = DocumentAlignment(gold.source, graphs={"system": system, "gold": gold}, types=cache)
    _align_best(result, sims, gold_clusters, system_clusters, mentions)
    result.unaligned_gold = [c.iri for c in gold.clusters if c.iri not in result.gold_to_system]
    result.unaligned_system = [c.iri for c in system.clusters if c.iri not in result.system_to_gold]
    aligned = {"system": sorted(result.system_to_gold), "gold": sorted(result.gold_to_system)}
    for side, graph in (("system", system), ("gold", gold)):
        for cluster_id in aligned[side]:  # MentionSim x TypeSim of a cluster with itself
            cluster = graph.cluster(cluster_id)
            result.self_similarity[side][cluster_id] = (1.0 * len(mentions.matched(cluster, cluster))) * cache(
                cluster, cluster
            )
    if similarities:
        _similarities(result, {"system": system, "gold": gold}, aligned, mentions, cache)
    return result


def _cluster_similarities(
    gold_clusters: list[Cluster],
    system_clusters: list[Cluster],
    mentions: _Mentions,
    cache: _TypeCache,
    minimum: float,
    strict: bool,
) -> np.ndarray:
    """TypeSim x MentionSim of each pair (gold, system) of one metatype whose mentions overlap and
    whose TypeSim reaches ``minimum`` (exceeds it when ``strict``); 0 for every other pair."""
    touching = mentions.overlapping(gold_clusters, system_clusters)
    sims = np.zeros((len(gold_clusters), len(system_clusters)))
    for i, g in enumerate(gold_clusters):
        for j in np.flatnonzero(touching[i]):
            s = system_clusters[j]
            if g.metatype != s.metatype:
                continue
            value = cache(g, s)
            if (value <= minimum) if strict else (value < minimum):
                continue
            sims[i, j] = (1.0 * value) * len(mentions.matched(g, s))
    return sims


def _align_best(
    result: DocumentAlignment,
    sims: np.ndarray,
    gold_clusters: list[Cluster],
    system_clusters: list[Cluster],
    mentions: _Mentions,
) -> None:
    """Record in ``result`` the pairs of clusters that munkres' assignment of greatest similarity
    aligns (NIST's order on ties), with their matched mentions."""
    best = sims.max()
    if best <= 0:
        return
    for i, j in munkres_assign(best - sims):
        if sims[i, j] <= 0:
            continue
        g, s = gold_clusters[i].iri, system_clusters[j].iri
        result.gold_to_system[g] = (s, float(sims[i, j]))
        result.system_to_gold[s] = (g, float(sims[i, j]))
        ids = (list(gold_clusters[i].by_span), list(system_clusters[j].by_span))
        result.mentions[g] = [
            (ids[0][r], ids[1][c], v) for r, c, v in mentions.matched(gold_clusters[i], system_clusters[j])
        ]
        result.system_mentions[s] = {m_system: m_gold for m_gold, m_system, _ in result.mentions[g]}


class _TypeCache:
    """TypeSim by pair of type sets (clusters share few distinct sets)."""

    def __init__(self, types: TypeSimilarity) -> None:
        self.types = types
        self.keys: dict[frozenset, int] = {}
        self.known: dict[tuple[int, int], float] = {}
        self.of_cluster: dict[int, int] = {}  # id(cluster) -> key: the clusters live as long as this cache

    def key(self, cluster: Cluster) -> int:
        found = self.of_cluster.get(id(cluster))
        if found is None:
            found = self.of_cluster[id(cluster)] = self.keys.setdefault(
                frozenset(cluster.weighted_types), len(self.keys)
            )
        return found

    def __call__(self, first: Cluster, second: Cluster) -> float:
        key = (self.key(first), self.key(second))
        found = self.known.get(key)
        if found is None:
            found = self.known[key] = type_similarity(first, second, self.types)
        return found

    def matrix(self, first: list[Cluster], second: list[Cluster]) -> np.ndarray:
        """TypeSim of every pair (first[i], second[j]), the values type_similarity gives, by array:
        the product of confidences and DWDTypeSim of every pair of their types, maximised over
        each pair of clusters (np.maximum.reduceat over the types of each)."""
        key1, inverse1 = np.unique([self.key(c) for c in first], return_inverse=True)
        key2, inverse2 = np.unique([self.key(c) for c in second], return_inverse=True)
        sets = {key: types for types, key in self.keys.items()}
        (starts1, confidences1, qnodes1), (starts2, confidences2, qnodes2) = (
            _entries([sets[k] for k in keys]) for keys in (key1, key2)
        )
        similarity = np.equal.outer(np.array(qnodes1, dtype=object), np.array(qnodes2, dtype=object)).astype(float)
        columns: dict[str, list[int]] = {}
        for column, qnode in enumerate(qnodes2):
            columns.setdefault(qnode, []).append(column)
        for row, qnode in enumerate(qnodes1):
            for other, value in self.types.neighbours.get(qnode, ()):
                if other != qnode:
                    similarity[row, columns.get(other, [])] = value
        products = np.multiply.outer(np.array(confidences1), np.array(confidences2)) * similarity
        table = np.maximum.reduceat(np.maximum.reduceat(products, starts1, axis=0), starts2, axis=1)
        return table[np.ix_(inverse1, inverse2)]


def _entries(type_sets: list[frozenset]) -> tuple[list[int], list[float], list[str]]:
    """Where each set starts in the flat lists of (type, weight) of all sets, and those lists."""
    starts, confidences, qnodes = [], [], []
    for types in type_sets:
        starts.append(len(qnodes))
        for qnode, confidence in types:
            confidences.append(confidence)
            qnodes.append(qnode)
    return starts, confidences, qnodes


def _similarities(
    result: DocumentAlignment,
    graphs: dict[str, KnowledgeGraph],
    aligned: dict[str, list[str]],
    mentions: _Mentions,
    cache: _TypeCache,
) -> None:
    """The values NIST writes for every ordered pair of aligned clusters of one metatype (system-
    system, system-gold, gold-gold): TypeSim without threshold, and TypeSim x MentionSim."""
    for side1, side2 in (("system", "system"), ("system", "gold"), ("gold", "gold")):
        first = [graphs[side1].cluster(c) for c in aligned[side1]]
        second = [graphs[side2].cluster(c) for c in aligned[side2]]
        if not first or not second:
            continue
        type_sims = cache.matrix(first, second)
        counts = np.zeros(type_sims.shape)
        for i, j in zip(*np.nonzero(mentions.overlapping(first, second)), strict=True):
            if first[i].metatype == second[j].metatype:
                counts[i, j] = len(mentions.matched(first[i], second[j]))
        result.similarities.append(
            SimilarityBlock(
                side1,
                side2,
                tuple((c.iri, c.metatype) for c in first),
                tuple((c.iri, c.metatype) for c in second),
                type_sims,
                (1.0 * counts) * type_sims,
            )
        )
