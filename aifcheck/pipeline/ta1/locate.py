"""Where the objects of a KB's TA1 tables are written in the KB: each cluster, mention (the
justification of a type statement), argument assertion and time, keyed as NIST's cleaned tables
name them, with its line (queries/aifcheck_explain_ta1.rq). Explanations name these lines."""

from __future__ import annotations

from dataclasses import dataclass, field

from aifcheck.extract.model import Span
from aifcheck.extract.query import run_table as run_query
from aifcheck.extract.query import value
from aifcheck.loading.kb import load_kb
from aifcheck.pipeline.shared.clean import clean_cell
from aifcheck.pipeline.shared.extent import extent
from aifcheck.pipeline.shared.sparql import format_term
from aifcheck.pipeline.ta1.select import tables_of
from aifcheck.pipeline.ta1.tables import Cells


@dataclass
class KbLines:
    """The lines of a KB's objects, by the keys of NIST's cleaned tables."""

    path: str
    clusters: dict[str, int] = field(default_factory=dict)
    mentions: dict[tuple[str, Span], int] = field(default_factory=dict)  # (cluster, extent)
    arguments: dict[tuple[str, str, str], int] = field(default_factory=dict)  # (subject, object, role)
    times: dict[str, list[int]] = field(default_factory=dict)  # cluster -> its times' lines

    def mention(self, cluster: str, span: str) -> int | None:
        try:
            return self.mentions.get((cluster, Span.parse(span)))
        except ValueError:
            return None


def kb_tables_and_lines(path: str) -> tuple[dict[str, tuple[str, Cells]], KbLines]:
    """The tables NIST's SPARQL stage makes of a KB (as aifcheck.pipeline.ta1.select.kb_tables),
    and the lines of their objects, from one load of the KB."""
    with load_kb(path) as kb:
        tables = tables_of(kb, path)
        found = KbLines(path)
        for record in run_query(kb, "aifcheck_explain_ta1").records():
            line = kb.line_of(record["node"])
            if line is None:
                continue
            cluster = _name(record["cluster"])
            kind = value(record["kind"])
            if kind == "cluster":
                found.clusters.setdefault(cluster, line)
            elif kind == "mention":
                found.mentions.setdefault((cluster, extent(record)), line)
            elif kind == "argument":
                found.arguments.setdefault((cluster, _name(record["object"]), _name(record["role"])), line)
            else:
                found.times.setdefault(cluster, []).append(line)
    for lines in found.times.values():
        lines.sort()
    return tables, found


def _name(term) -> str:
    """A term as NIST's clean stage leaves it in a table's cell."""
    return clean_cell(format_term(term))
