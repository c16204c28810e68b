"""Where each node of a knowledge base is written: the line every finding prints.

A finding's line is defined here, once, for both executors:
- a node written as a subject (an IRI or a labelled blank node ``_:x``): the line where its first
  statement (its subject block) starts;
- a ``[ ]`` blank node: the line of its ``[``;
- any other node: the line where the first statement that mentions it starts.

pyoxigraph's parser does not report positions, so a file's text is marked as it is parsed
(aifcheck.marking): the store holds, beside the file's triples, a named graph giving the line of
every statement subject and every ``[``, under the blank node labels the store itself uses. Only
the nodes asked for are looked up.
"""
from __future__ import annotations

import pyoxigraph as ox

from .marking import LINE, LINES_GRAPH

Term = ox.NamedNode | ox.BlankNode | ox.Literal
_DEFAULT = ox.DefaultGraph()


class LineIndex:
    """The line of any node of a store whose text was marked."""

    def __init__(self, store: ox.Store) -> None:
        self._store = store
        self._marks: dict[Term, int | None] = {}  # the first mark of each node looked at
        self._lines: dict[Term, int | None] = {}  # the nodes resolved so far

    def line_of(self, node: Term) -> int | None:
        """The node's own line, or that of the statement that mentions it on the earliest line (up an
        RDF list, whose nodes have none, to the statement that holds it)."""
        walked: list[Term] = []  # (each node's line is its mention's: kept for all, once found)
        line = self._line(node)
        while line is None and node not in walked and node not in self._lines:
            walked.append(node)
            mentions = [q.subject for q in self._store.quads_for_pattern(None, None, node, _DEFAULT)]
            located = [found for m in mentions if (found := self._line(m)) is not None]
            if located:
                line = min(located)
            elif mentions:
                node = mentions[0]
                line = self._line(node)
        for visited in walked:
            self._lines[visited] = line
        return line

    def _line(self, node: Term) -> int | None:
        """The line resolved for the node already, or else its first mark."""
        if node in self._lines:
            return self._lines[node]
        if node not in self._marks:
            marks = () if isinstance(node, ox.Literal) else self._store.quads_for_pattern(node, LINE, None, LINES_GRAPH)
            self._marks[node] = min((int(q.object.value) for q in marks), default=None)
        return self._marks[node]
