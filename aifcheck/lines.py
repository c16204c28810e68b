"""Where each node of a knowledge base is written: the line every finding prints.

A finding's line is defined here, once, for both executors:
- a node written as a subject (an IRI or a labelled blank node ``_:x``): the line where its first
  statement (its subject block) starts;
- a ``[ ]`` blank node: the line of its ``[``;
- any other node: the line where the first statement that mentions it starts.

The store is parsed from the plain text, without positions (most files have no finding, and
marking costs 40% of a small file's load). When a file's lines are first asked for, its text is
marked (aifcheck.marking) and parsed once more into a store of its own, and the marks are read.
IRIs and labelled blank nodes are the same in both parses. A ``[ ]`` node gets a fresh random
identifier in each parse, so it is recognised by its place in the graph: the triples around it,
out to the IRIs, literals and labelled nodes they reach, which cannot differ between two parses
of one text (both stores write literals the same way: oxigraph turns "01"^^xsd:int into
"1"^^xsd:integer). Two ``[ ]`` nodes alike in all of that are interchangeable to every rule;
both get the first of their lines. Only the nodes asked for are looked at.
"""
from __future__ import annotations

import pyoxigraph as ox

from .marking import LINES_GRAPH

Term = ox.NamedNode | ox.BlankNode | ox.Literal
# How far a signature looks from its node: far enough to tell AIF's [ ] nodes apart (a statement,
# its justification and that one's bounding box), and bounded on long RDF lists.
_DEPTH = 6
_DEFAULT = ox.DefaultGraph()


class _Side:
    """One of the two parses, as a signature reads it: a blank node of its own (not shared with the
    other parse, which has all the labelled ones) is anonymous."""

    def __init__(self, store: ox.Store) -> None:
        self.store = store
        self.other: _Side | None = None
        self._anonymous: dict[ox.BlankNode, bool] = {}
        self._signatures: dict[ox.BlankNode, tuple[str, str]] = {}

    def has(self, node: Term) -> bool:
        return any(True for _ in self.store.quads_for_pattern(node, None, None, _DEFAULT)) or any(
            True for _ in self.store.quads_for_pattern(None, None, node, _DEFAULT)
        )

    def anonymous(self, node: Term) -> bool:
        if not isinstance(node, ox.BlankNode):
            return False
        if node not in self._anonymous:
            self._anonymous[node] = not self.other.has(node)
        return self._anonymous[node]

    def out_of(self, node: Term) -> list[tuple[ox.NamedNode, Term]]:
        return [(q.predicate, q.object) for q in self.store.quads_for_pattern(node, None, None, _DEFAULT)]

    def into(self, node: Term) -> list[tuple[Term, ox.NamedNode]]:
        return [(q.subject, q.predicate) for q in self.store.quads_for_pattern(None, None, node, _DEFAULT)]

    def signature(self, node: ox.BlankNode) -> tuple[str, str]:
        """What tells a [ ] node apart from the others in either parse: (where it hangs, what it holds)."""
        if node not in self._signatures:
            self._signatures[node] = (self._up(node, _DEPTH), self._down(node, _DEPTH))
        return self._signatures[node]

    def _down(self, node: Term, depth: int) -> str:
        if depth == 0:
            return "[...]"
        held = (f"{p} {self._down(o, depth - 1) if self.anonymous(o) else o}" for p, o in self.out_of(node))
        return "[" + " ; ".join(sorted(held)) + "]"

    def _up(self, node: Term, depth: int) -> str:
        if depth == 0:
            return "..."
        parents = (
            f"{self._up(s, depth - 1)} {self._down(s, depth - 1)} {p}" if self.anonymous(s) else f"{s} {p}"
            for s, p in self.into(node)
        )
        return " | ".join(sorted(parents))


class LineIndex:
    """The line of any node of one store, read from a marked parse of the same text (``marked``:
    see aifcheck.marking), loaded into a store of its own with its blank node labels kept."""

    def __init__(self, marked: ox.Store, store: ox.Store) -> None:
        self._lines: dict[Term, int | None] = {}  # marked subjects, and the nodes resolved so far
        for quad in marked.quads_for_pattern(None, None, None, LINES_GRAPH):
            line = int(quad.object.value)
            if line < self._lines.get(quad.subject, line + 1):
                self._lines[quad.subject] = line
        self._parsed, self._stored = _Side(marked), _Side(store)
        self._parsed.other, self._stored.other = self._stored, self._parsed
        self._sharing: dict[tuple[Term | None, ...], set[Term]] = {}  # the parse's nodes with a triple

    def line_of(self, node: Term) -> int | None:
        if self._stored.anonymous(node):
            return self._anonymous_line(node)
        return self._parsed_line(node)

    def _parsed_line(self, node: Term) -> int | None:
        """A node of the marked parse: its own line, or that of the statement that mentions it on the
        earliest line (up an RDF list, whose nodes have none, to the statement that holds it)."""
        walked: list[Term] = []  # (each node's line is its mention's: kept for all, once found)
        line: int | None = None
        while node not in self._lines:
            if node in walked:
                break
            walked.append(node)
            mentions = [q.subject for q in self._parsed.store.quads_for_pattern(None, None, node, _DEFAULT)]
            if not mentions:
                break
            located = [m for m in mentions if self._lines.get(m) is not None]
            node = min(located, key=self._lines.__getitem__) if located else mentions[0]
        else:
            line = self._lines[node]
        for visited in walked:
            self._lines[visited] = line
        return line

    def _anonymous_line(self, node: ox.BlankNode) -> int | None:
        """The first line of the parse's [ ] nodes that have the same signature."""
        target = self._stored.signature(node)
        lines = [
            line
            for candidate in self._candidates(node)
            if self._parsed.signature(candidate) == target and (line := self._parsed_line(candidate)) is not None
        ]
        return min(lines, default=None)

    def _candidates(self, node: ox.BlankNode) -> set[ox.BlankNode]:
        """The parse's [ ] nodes that share one triple with ``node`` (the least common one), which
        every node of the same signature does; all of them when ``node`` has no such triple."""
        parsed = self._parsed
        options = [self._sharing_triple(None, p, o) for p, o in self._stored.out_of(node) if not self._stored.anonymous(o)]
        options += [self._sharing_triple(s, p, None) for s, p in self._stored.into(node) if not self._stored.anonymous(s)]
        if not options:
            options = [{t for q in parsed.store.quads_for_pattern(None, None, None, _DEFAULT) for t in (q.subject, q.object)}]
        return {n for n in min(options, key=len) if parsed.anonymous(n)}

    def _sharing_triple(self, subject: Term | None, predicate: ox.NamedNode, obj: Term | None) -> set[Term]:
        """The subjects (or objects) of the parse's triples that match (kept: findings share them)."""
        key = (subject, predicate, obj)
        if key not in self._sharing:
            quads = self._parsed.store.quads_for_pattern(subject, predicate, obj, _DEFAULT)
            self._sharing[key] = {q.subject if subject is None else q.object for q in quads}
        return self._sharing[key]
