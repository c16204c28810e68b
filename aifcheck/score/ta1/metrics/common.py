"""What every TA1 metric shares: its inputs, its score rows, NIST's summary rows and printing.

Each metric gives one row per item (cluster, document...), sorted as NIST sorts them, then summary
rows ``ALL-Micro`` (mean of all rows) and ``ALL-Macro`` (mean over documents of each document's
mean) for each language and metatype, and ALL of each. Means add in row order, as NIST does.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from aifcheck.extract.model import Cluster, Edge, Frame, KnowledgeGraph, Metatype, short_role
from aifcheck.pipeline.shared.auxdata import Aux
from aifcheck.pipeline.shared.events import EventLog
from aifcheck.pipeline.ta1.align import DocumentAlignment
from aifcheck.pipeline.ta1.similarity import TypeSimilarity
from aifcheck.score.table import Column

NONE = "None"  # NIST's name for "no cluster"
Aggregate = Callable[[list["ScoreRow"], str, str], object]  # (rows, column, "ALL-Micro" | "ALL-Macro") -> value


@dataclass
class Inputs:
    """What the score stage reads: gold (valid) and system (filtered) objects, the alignment."""

    run_id: str
    aux: Aux
    gold: dict[str, KnowledgeGraph]
    system: dict[str, KnowledgeGraph]
    alignments: dict[str, DocumentAlignment]
    log: EventLog
    types: TypeSimilarity
    plan: bool = False
    only: str | None = None  # score this core document alone (the run scores each document apart)
    # document -> gold cluster -> (file, line) of each of its TM rows, for the messages that name one
    gold_time_rows: dict[str, dict[str, list[tuple[str, int]]]] = field(default_factory=dict)
    # what a metric computed that its explanation reads again (argument.matched_trfs), shared by
    # the copies of these inputs each metric is given
    computed: dict[tuple, object] = field(default_factory=dict, compare=False, repr=False)

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
        return found.get(cluster) if found else None


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
    """A metric's rows and summaries: NIST's ``scores/<metric>-scores.{txt,tab}`` (aifcheck.render.ta1.scores)."""

    columns: tuple[Column, ...]
    rows: tuple[ScoreRow, ...]  # sorted as NIST sorts them
    recipe: Recipe = field(compare=False, repr=False)

    @staticmethod
    def combine(parts: list[MetricScores]) -> MetricScores:
        """One metric's scores of documents scored apart, as one table."""
        first = parts[0]
        return MetricScores(
            first.columns,
            tuple(sorted((row for part in parts for row in part.rows), key=first.recipe.sort_key)),
            first.recipe,
        )

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
                values = tuple(
                    (c, "" if c in recipe.blank else recipe.aggregate(groups[key], c, kind))
                    for c in recipe.score_columns
                )
                summaries.append(ScoreRow(kind, key[0], key[1], values, summary=True))
        return tuple(summaries)

    def summary(self, language: str = "ALL", metatype: str = "ALL", kind: str = "ALL-Macro") -> ScoreRow | None:
        for row in self.summaries:
            if (row.document, row.language, row.metatype) == (kind, language, metatype):
                return row
        return None


ID_COLUMNS = (
    Column("document_id", "DocID", "s"),
    Column("run_id", "RunID", "s"),
    Column("language", "Language", "s"),
    Column("metatype", "Metatype", "s"),
)
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


def summarise(
    columns: tuple[Column, ...],
    rows: list[ScoreRow],
    score_columns: Sequence[str],
    sort_key: Callable[[ScoreRow], tuple],
    aggregate: Aggregate = micro_macro,
    blank: Sequence[str] = (),
) -> MetricScores:
    """A metric's rows sorted as NIST does, with how to summarise them (MetricScores.summaries):
    ``aggregate`` computes each summary's value, ``blank`` columns are empty in summaries."""
    return MetricScores(
        columns, tuple(sorted(rows, key=sort_key)), Recipe(tuple(score_columns), sort_key, aggregate, tuple(blank))
    )


def by_cluster(row: ScoreRow) -> tuple:
    return (row.document, row.metatype, row.gold_cluster, row.system_cluster)


def by_document_metatype(row: ScoreRow) -> tuple:
    return (row.document, "_ALL" if row.metatype == "ALL" else row.metatype)


def cluster_sim(similarity: float, system: Cluster, gold: Cluster) -> float:
    """NIST's ClusterSim: the F1 of Sim/|S| and Sim/|G| (|.| = distinct mention spans)."""
    precision = similarity / len(system.by_span)
    recall = similarity / len(gold.by_span)
    return 2 * precision * recall / (precision + recall) if (precision + recall) else 0


def aligned_similarity(alignment: DocumentAlignment | None, system_cluster: str, gold_cluster: str) -> float:
    """Sim(G,S) when the system cluster is aligned to that gold cluster, else 0."""
    if alignment is None:
        return 0
    found = alignment.system_to_gold.get(system_cluster)
    return found[1] if found is not None and found[0] == gold_cluster else 0


def roles_precision(gold_roles: frozenset[str], system_roles: frozenset[str]) -> float:
    """NIST's RolesPrecision, of roles cut to their short names (``A0_pag_causer`` -> ``A0_pag``)."""
    gold = {short_role(r) for r in gold_roles}
    system = {short_role(r) for r in system_roles}
    return len(system & gold) / len(system) if system else 0


@dataclass(frozen=True)
class Trf:
    """A subject and a filler of a frame with the edges between them: NIST's edge (FrameMetric) and
    TRF (ArgumentMetric, plan §4.6), whose roles are the union of its edges' roles."""

    frame: Frame
    filler: str
    edges: tuple[Edge, ...]  # in NIST's order (Frame.fillers)
    roles: frozenset[str] = field(init=False)
    negation: frozenset[bool] = field(init=False)  # whether each of its edges is negated

    def __post_init__(self) -> None:
        object.__setattr__(self, "roles", frozenset(edge.role for edge in self.edges))
        object.__setattr__(self, "negation", frozenset(edge.negated for edge in self.edges))

    @property
    def subject(self) -> str:
        return self.frame.cluster

    @property
    def metatype(self) -> Metatype:
        return self.frame.metatype


def frame_trfs(graph: KnowledgeGraph | None, subject: str | None = None) -> list[Trf]:
    """The TRFs of one frame or, with ``subject`` None, of all frames of the document, in NIST's order."""
    if graph is None:
        return []
    frames = graph.frames
    chosen = list(frames.values()) if subject is None else [frames[subject]] if subject in frames else []
    return [Trf(frame, filler, edges) for frame in chosen for filler, edges in frame.fillers.items()]
