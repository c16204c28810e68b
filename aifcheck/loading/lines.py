"""Where each node of a knowledge base is written: the line every finding prints.

A finding's line is defined here, once, for both executors:
- a node written as a subject (an IRI or a labelled blank node ``_:x``): the line where its first
  statement (its subject block) starts;
- a ``[ ]`` blank node: the line of its ``[``;
- any other node: the line where the first statement that mentions it starts.

pyoxigraph's parser does not report positions, so a file's text is marked as it is parsed
(aifcheck.marking): a Turtle text of marks gives the line of every statement subject and every
``[``, under the blank node labels the store itself uses. It is read when the first line is asked
for (a file without findings never reads it).
"""

from __future__ import annotations

import pyoxigraph as ox

Term = ox.NamedNode | ox.BlankNode | ox.Literal
_DEFAULT = ox.DefaultGraph()


class LineIndex:
    """The line of any node of a store whose text was marked."""

    def __init__(self, store: ox.Store, marks: str, base: str | None) -> None:
        self._store = store
        self._marks = _first_marks(marks, base)
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
        return self._marks.get(node)


def _first_marks(marks: str, base: str | None) -> dict[Term, int]:
    """The first line marked for each node of a marks text."""
    first: dict[Term, int] = {}
    try:
        for quad in ox.parse(marks, ox.RdfFormat.TURTLE, base_iri=base, rename_blank_nodes=False):
            line = int(quad.object.value)
            if first.get(quad.subject, line) >= line:
                first[quad.subject] = line
    except SyntaxError:  # (the file's own subjects parsed, so theirs should): marks not to be trusted
        return {}
    return first
