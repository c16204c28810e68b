"""Where a run given as its KB writes the objects of its response rows: each entity cluster, and
each informative justification of its prototype (a row's mention), with its line in the KB
(queries/aifcheck_explain_ta2.rq). Explanations name these lines beside the row of the response
table the run's KB gives (a row NIST's docker would write, not a line of any file)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from aifcheck.extract.model import Span
from aifcheck.extract.query import run_table as run_query
from aifcheck.extract.query import value
from aifcheck.loading.kb import KB
from aifcheck.pipeline.shared.extent import extent
from aifcheck.pipeline.shared.sparql import format_term

CLUSTER = "?cluster"  # the response tables' column of the cluster


@dataclass(frozen=True)
class KbPlaces:
    """The lines of a KB's clusters and mentions, by what NIST's cleaned response tables name (a
    cluster's name, a row's span)."""

    path: str
    clusters: dict[str, int] = field(default_factory=dict)
    mentions: dict[tuple[str, Span], int] = field(default_factory=dict)  # (cluster, extent)

    def of(self, cluster: str, span: Span | None) -> tuple[int | None, int | None]:
        """The lines of a row's cluster and mention (None where the KB has none: a span NIST's
        validator corrected is no justification's)."""
        return self.clusters.get(cluster), self.mentions.get((cluster, span)) if span is not None else None


def kb_places(kb: KB, path: str, printed: Sequence, cleaned: Sequence) -> KbPlaces:
    """The lines of the KB's objects, named as NIST's clean stage leaves them: ``printed`` and
    ``cleaned`` are the SPARQL stage's tables and the clean stage's (row for row), from which each
    cluster's printed term and its cleaned name are read."""
    names: dict[str, str] = {}
    for table, clean in zip(printed, cleaned, strict=True):
        if CLUSTER in table.columns:
            at = table.columns.index(CLUSTER)
            names.update((row.cells[at], done.cells[at]) for row, done in zip(table.rows, clean.rows, strict=True))
    found = KbPlaces(path)
    for record in run_query(kb, "aifcheck_explain_ta2").records():
        line = kb.line_of(record["node"])
        cluster = names.get(format_term(record["cluster"]))
        if line is None or cluster is None:  # a cluster no response row names
            continue
        if value(record["kind"]) == "cluster":
            found.clusters.setdefault(cluster, line)
        else:
            found.mentions.setdefault((cluster, extent(record)), line)
    return found
