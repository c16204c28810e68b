"""What every TA1 metric shares: its inputs, its score rows, NIST's summary rows and printing.

Each metric gives one row per item (cluster, document...), sorted as NIST sorts them, then summary
rows ``ALL-Micro`` (mean of all rows) and ``ALL-Macro`` (mean over documents of each document's
mean) for each language and metatype, and ALL of each. Means add in row order, as NIST does.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from ...table import Column
from ..align import DocumentAlignment
from ..aux import Aux
from ..events import EventLog
from ..responses import Cluster, DocumentResponses
from ..similarity import TypeSimilarity

NONE = "None"  # NIST's name for "no cluster"
Aggregate = Callable[[list["ScoreRow"], str, str], object]  # (rows, column, "ALL-Micro" | "ALL-Macro") -> value


@dataclass
class Inputs:
    """What the score stage reads: gold (valid) and system (filtered) objects, the alignment."""

    run_id: str
    aux: Aux
    gold: dict[str, DocumentResponses]
    system: dict[str, DocumentResponses]
    alignments: dict[str, DocumentAlignment]
    log: EventLog
    types: TypeSimilarity
    plan: bool = False
    only: str | None = None  # score this core document alone (the run scores each document apart)

    def documents(self) -> list[tuple[str, str | None]]:
        """The core documents NIST scores (those the parent-children table knows), with language."""
        chosen = self.aux.core if self.only is None else [self.only] if self.aux.is_core(self.only) else []
        return [(d, self.aux.language(d)) for d in chosen if d in self.aux.documents]

    def aligned_documents(self):
        """(document, language, alignment, gold objects) of the scored documents that have an
        alignment, i.e. that the system submitted."""
        for document, language in self.documents():
            alignment = self.alignments.get(document)
            if alignment is not None:
                yield document, language, alignment, self.gold[document]

    def system_cluster(self, document: str, cluster: str) -> Cluster | None:
        found = self.system.get(document)
        return found.clusters.get(cluster) if found else None

    def gold_cluster(self, document: str, cluster: str) -> Cluster | None:
        found = self.gold.get(document)
        return found.clusters.get(cluster) if found else None


@dataclass(frozen=True)
class ScoreRow:
    """One line of a score table: per item, or a summary (document ALL-Micro / ALL-Macro)."""

    document: str
    language: str
    metatype: str
    values: tuple[tuple[str, object], ...]  # (column name, value) for the metric's score columns
    gold_cluster: str = NONE
    system_cluster: str = NONE
    summary: bool = False

    def get(self, name: str) -> object:
        for key, value in self.values:  # a few columns: a scan is quicker than a dict
            if key == name:
                return value
        return ""


@dataclass(frozen=True)
class Recipe:
    """How a metric sorts and summarises its rows (the arguments of summarise after the rows)."""

    score_columns: tuple[str, ...]
    sort_key: Callable[[ScoreRow], tuple]
    aggregate: Aggregate
    blank: tuple[str, ...] = ()


@dataclass(frozen=True)
class MetricScores:
    """A metric's rows and summaries: NIST's ``scores/<metric>-scores.{txt,tab}`` (aifcheck.render.ta1)."""

    columns: tuple[Column, ...]
    rows: tuple[ScoreRow, ...]  # sorted as NIST sorts them
    recipe: Recipe = field(compare=False, repr=False)

    @staticmethod
    def combine(parts: list[MetricScores]) -> MetricScores:
        """One metric's scores of documents scored apart, as one table."""
        first = parts[0]
        return MetricScores(first.columns, tuple(sorted((row for part in parts for row in part.rows), key=first.recipe.sort_key)), first.recipe)

    @cached_property  # a run's documents are scored apart: only the combined scores are summarised
    def summaries(self) -> tuple[ScoreRow, ...]:
        """NIST's summaries for each (language, metatype), with ALL for each when no row carries ALL
        already: the ALL-Micro rows, then the ALL-Macro rows."""
        recipe = self.recipe
        with_all_metatype = not any(r.metatype == "ALL" for r in self.rows)
        groups: dict[tuple[str, str], list[ScoreRow]] = {}
        for row in self.rows:
            for language in (row.language, "ALL"):
                for metatype in (row.metatype, "ALL") if with_all_metatype else (row.metatype,):
                    groups.setdefault((language, metatype), []).append(row)

        def order(key: tuple[str, str]) -> str:
            language, metatype = ("_ALL" if k == "ALL" else str(k) for k in key)
            return f"{language}:{metatype}"

        summaries = []
        for kind in ("ALL-Micro", "ALL-Macro"):
            for key in sorted(groups, key=order):
                values = tuple((c, "" if c in recipe.blank else recipe.aggregate(groups[key], c, kind)) for c in recipe.score_columns)
                summaries.append(ScoreRow(kind, key[0], key[1], values, summary=True))
        return tuple(summaries)

    def summary(self, language: str = "ALL", metatype: str = "ALL", kind: str = "ALL-Macro") -> ScoreRow | None:
        for row in self.summaries:
            if (row.document, row.language, row.metatype) == (kind, language, metatype):
                return row
        return None


ID_COLUMNS = (Column("document_id", "DocID", "s"), Column("run_id", "RunID", "s"), Column("language", "Language", "s"), Column("metatype", "Metatype", "s"))
CLUSTER_COLUMNS = (Column("gold_cluster_id", "GoldClusterID", "s"), Column("system_cluster_id", "SystemClusterID", "s"))


def mean(values: Sequence[float]) -> float:
    total = 0  # added one by one from 0, as NIST does (Python's sum may compensate)
    for value in values:
        total += value
    return total / len(values)


def micro_macro(rows: list[ScoreRow], column: str, kind: str) -> object:
    if kind == "ALL-Micro":
        return mean([r.get(column) for r in rows])
    by_document: dict[str, list] = {}
    for row in rows:
        by_document.setdefault(row.document, []).append(row.get(column))
    return mean([mean(values) for values in by_document.values()])


def summarise(columns: tuple[Column, ...], rows: list[ScoreRow], score_columns: Sequence[str],
              sort_key: Callable[[ScoreRow], tuple], aggregate: Aggregate = micro_macro, blank: Sequence[str] = ()) -> MetricScores:
    """A metric's rows sorted as NIST does, with how to summarise them (MetricScores.summaries):
    ``aggregate`` computes each summary's value, ``blank`` columns are empty in summaries."""
    return MetricScores(columns, tuple(sorted(rows, key=sort_key)), Recipe(tuple(score_columns), sort_key, aggregate, tuple(blank)))


def by_cluster(row: ScoreRow) -> tuple:
    return (row.document, row.metatype, row.gold_cluster, row.system_cluster)


def by_document_metatype(row: ScoreRow) -> tuple:
    return (row.document, "_ALL" if row.metatype == "ALL" else row.metatype)


def cluster_sim(similarity: float, system: Cluster, gold: Cluster) -> float:
    """NIST's ClusterSim: the F1 of Sim/|S| and Sim/|G| (|.| = distinct mention spans)."""
    precision = similarity / len(system.mentions)
    recall = similarity / len(gold.mentions)
    return 2 * precision * recall / (precision + recall) if (precision + recall) else 0


def aligned_similarity(alignment: DocumentAlignment | None, system_cluster: str, gold_cluster: str) -> float:
    """Sim(G,S) when the system cluster is aligned to that gold cluster, else 0."""
    if alignment is None:
        return 0
    found = alignment.system_to_gold.get(system_cluster)
    return found[1] if found is not None and found[0] == gold_cluster else 0


def trim_role(role: str) -> str:
    """A role's short name: its first two ``_`` parts (``A0_pag_causer`` -> ``A0_pag``)."""
    return "_".join(role.split("_")[:2])


def roles_precision(gold_roles: set[str], system_roles: set[str]) -> float:
    gold = {trim_role(r) for r in gold_roles}
    system = {trim_role(r) for r in system_roles}
    return len(system & gold) / len(system) if system else 0


@dataclass
class Edge:
    """A (subject, filler) pair of a frame: NIST's edge (FrameMetric) and TRF (ArgumentMetric)."""

    subject: str
    filler: str
    metatype: str | None
    roles: set[str] = field(default_factory=set)
    negation: set[str] = field(default_factory=set)
    assertions: list = field(default_factory=list)


def frame_edges(responses: DocumentResponses | None, subject: str | None = None) -> dict[str, Edge]:
    """The edges of one frame (keyed by filler) or, with ``subject`` None, of all frames of the
    document (keyed ``subject:filler``), in NIST's order."""
    edges: dict[str, Edge] = {}
    if responses is None:
        return edges
    frames = [responses.frames[subject]] if subject is not None and subject in responses.frames else ([] if subject is not None else list(responses.frames.values()))
    for frame in frames:
        for role, fillers in frame.fillers.items():
            for filler, assertions in fillers.items():
                key = filler if subject is not None else f"{frame.id}:{filler}"
                edge = edges.get(key)
                if edge is None:
                    edge = edges[key] = Edge(frame.id, filler, frame.metatype)
                edge.roles.add(role)
                for assertion in assertions:
                    edge.negation.add(assertion.is_assertion_negated)
                    edge.assertions.append(assertion)
    return edges
