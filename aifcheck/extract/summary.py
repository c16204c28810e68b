"""What is inside a KB, counted: clusters by metatype, members, mentions per document and modality,
edges, types, LDC times and claims (``aifcheck summary``). The counts come from the
queries/aifcheck_summary_*.rq tables."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from aifcheck.extract.query import run_table, value
from aifcheck.loading.kb import KB
from aifcheck.loading.lines import Term

METATYPES = ("Entity", "Event", "Relation")


@dataclass(frozen=True)
class Summary:
    """The counts of one KB (or, added up, of several)."""

    file: str
    triples: int = 0
    clusters: dict[str, int] = field(default_factory=dict)  # by metatype
    members: int = 0
    mentions: dict[str, dict[str, int]] = field(default_factory=dict)  # document -> modality -> count
    edges: int = 0
    types: dict[str, int] = field(default_factory=dict)  # type -> nodes that carry it
    ldc_times: int = 0
    claims: int = 0

    def top_types(self, count: int) -> list[tuple[str, int]]:
        """The most used types, most first (ties by name)."""
        return sorted(self.types.items(), key=lambda item: (-item[1], item[0]))[:count]


def summarize(kb: KB) -> Summary:
    clusters: dict[str, int] = dict.fromkeys(METATYPES, 0)
    members = 0
    for row in run_table(kb, "aifcheck_summary_clusters").records():
        clusters[_local(row["metatype"])] = int(value(row["clusters"]))
        members += int(value(row["members"]))
    mentions: dict[str, dict[str, int]] = {}
    for row in run_table(kb, "aifcheck_summary_mentions").records():
        modality = _local(row["kind"]).removesuffix("Justification").lower()
        mentions.setdefault(value(row["document"]), {})[modality] = int(value(row["mentions"]))
    types = {value(row["type"]): int(value(row["nodes"])) for row in run_table(kb, "aifcheck_summary_types").records()}
    (counts,) = run_table(kb, "aifcheck_summary_counts").records()
    return Summary(
        file=kb.path,
        triples=len(kb),
        clusters=clusters,
        members=members,
        mentions=mentions,
        edges=int(value(counts["edges"])),
        types=types,
        ldc_times=int(value(counts["ldc_times"])),
        claims=int(value(counts["claims"])),
    )


def total(summaries: Iterable[Summary]) -> Summary:
    """Several KBs' counts added up (a type carried in two files counts in both)."""
    summaries = list(summaries)
    mentions: dict[str, Counter] = {}
    for summary in summaries:
        for document, modalities in summary.mentions.items():
            mentions.setdefault(document, Counter()).update(modalities)
    return Summary(
        file="total",
        triples=sum(s.triples for s in summaries),
        clusters={metatype: sum(s.clusters.get(metatype, 0) for s in summaries) for metatype in METATYPES},
        members=sum(s.members for s in summaries),
        mentions={document: dict(counts) for document, counts in mentions.items()},
        edges=sum(s.edges for s in summaries),
        types=dict(sum((Counter(s.types) for s in summaries), Counter())),
        ldc_times=sum(s.ldc_times for s in summaries),
        claims=sum(s.claims for s in summaries),
    )


def _local(term: Term | None) -> str:
    """An AIF class's name: aida:Entity -> Entity."""
    return value(term).rsplit("#", 1)[-1]
