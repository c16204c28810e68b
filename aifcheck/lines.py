"""Where each node of a knowledge base is written: the line every finding prints.

A finding's line is defined here, once, for both executors:
- a node written as a subject (an IRI or a labelled blank node ``_:x``): the line where its first
  statement (its subject block) starts;
- a ``[ ]`` blank node: the line of its ``[``;
- any other node: the line where the first statement that mentions it starts.

The store is parsed from the plain text, without positions (most files have no finding, and
marking costs 40% of a small file's load). When a file's lines are first asked for, its text is
marked (aifcheck.marking) and parsed once more, and the marks are read. IRIs and labelled blank
nodes are the same in both parses. A ``[ ]`` node gets a fresh random identifier in each parse, so
it is recognised by its place in the graph: the triples around it, out to the IRIs, literals and
labelled nodes they reach, which cannot differ between two parses of one text. Two ``[ ]`` nodes
alike in all of that are interchangeable to every rule; both get the first of their lines.
"""
from __future__ import annotations

from collections import defaultdict
import pyoxigraph as ox

from .marking import LINES_GRAPH

Term = ox.NamedNode | ox.BlankNode | ox.Literal
# How far a signature looks from its node: far enough to tell AIF's [ ] nodes apart (a statement,
# its justification and that one's bounding box), and bounded on long RDF lists.
_DEPTH = 6


class _Parsed:
    """The marked parse, read back from a store of its own (so that its literals take the form the
    KB's store gives them: oxigraph writes "01"^^xsd:int as "1"^^xsd:integer): each subject's line,
    where each node is mentioned, and the triples around its blank nodes (what a signature reads)."""

    def __init__(self, marked: ox.Store, store: ox.Store) -> None:
        self.lines: dict[Term, int] = {}
        for quad in marked.quads_for_pattern(None, None, None, LINES_GRAPH):
            line = int(quad.object.value)
            if line < self.lines.get(quad.subject, line + 1):
                self.lines[quad.subject] = line
        # node -> the subject of the statement that mentions it on the earliest line (one without a
        # line of its own, an RDF list's node, only when no other mentions it)
        self.mention: dict[Term, Term] = {}
        self.outgoing: dict[ox.BlankNode, list[tuple[ox.NamedNode, Term]]] = defaultdict(list)
        self.incoming: dict[ox.BlankNode, list[tuple[Term, ox.NamedNode]]] = defaultdict(list)
        unplaced = 1 << 62
        for subject, predicate, obj, _ in marked.quads_for_pattern(None, None, None, ox.DefaultGraph()):
            known = self.mention.get(obj)
            if known is None or self.lines.get(subject, unplaced) < self.lines.get(known, unplaced):
                self.mention[obj] = subject
            if isinstance(subject, ox.BlankNode):
                self.outgoing[subject].append((predicate, obj))
            if isinstance(obj, ox.BlankNode):
                self.incoming[obj].append((subject, predicate))
        self._store = store
        self._shared: dict[ox.BlankNode, bool] = {}

    def has(self, node: Term) -> bool:
        return node in self.lines or node in self.mention or node in self.outgoing

    def line_of(self, node: Term) -> int | None:
        """Its own line, or that of the statement that mentions it (up an RDF list to its holder)."""
        seen = set()
        while node not in self.lines:
            seen.add(node)
            node = self.mention.get(node)
            if node is None or node in seen:
                return None
        return self.lines[node]

    def anonymous(self, node: Term) -> bool:
        """A blank node this parse named on its own ([ ] or a list), not a label of the text,
        which the store has too."""
        if not isinstance(node, ox.BlankNode):
            return False
        if node not in self._shared:
            self._shared[node] = any(
                True for _ in self._store.quads_for_pattern(node, None, None)
            ) or any(True for _ in self._store.quads_for_pattern(None, None, node))
        return not self._shared[node]

    def out_of(self, node: ox.BlankNode) -> list[tuple[ox.NamedNode, Term]]:
        return self.outgoing.get(node, [])

    def into(self, node: ox.BlankNode) -> list[tuple[Term, ox.NamedNode]]:
        return self.incoming.get(node, [])


class _Stored:
    """The same questions asked of the store."""

    def __init__(self, store: ox.Store, parsed: _Parsed) -> None:
        self._store = store
        self._parsed = parsed

    def anonymous(self, node: Term) -> bool:
        return isinstance(node, ox.BlankNode) and not self._parsed.has(node)

    def out_of(self, node: ox.BlankNode) -> list[tuple[ox.NamedNode, Term]]:
        return [(q.predicate, q.object) for q in self._store.quads_for_pattern(node, None, None)]

    def into(self, node: ox.BlankNode) -> list[tuple[Term, ox.NamedNode]]:
        return [(q.subject, q.predicate) for q in self._store.quads_for_pattern(None, None, node)]


def _signature(node: ox.BlankNode, side: _Parsed | _Stored) -> tuple[str, str]:
    """What tells a [ ] node apart from the others in either parse: (where it hangs, what it holds)."""
    return _up(node, side, _DEPTH), _down(node, side, _DEPTH)


def _down(node: ox.BlankNode, side: _Parsed | _Stored, depth: int) -> str:
    if depth == 0:
        return "[...]"
    held = (f"{p} {_down(o, side, depth - 1) if side.anonymous(o) else o}" for p, o in side.out_of(node))
    return "[" + " ; ".join(sorted(held)) + "]"


def _up(node: ox.BlankNode, side: _Parsed | _Stored, depth: int) -> str:
    if depth == 0:
        return "..."
    parents = (
        f"{_up(s, side, depth - 1)} {_down(s, side, depth - 1)} {p}" if side.anonymous(s) else f"{s} {p}"
        for s, p in side.into(node)
    )
    return " | ".join(sorted(parents))


class LineIndex:
    """The line of any node of one store, read from a marked parse of the same text (``marked``:
    see aifcheck.marking), loaded into a store of its own with its blank node labels kept."""

    def __init__(self, marked: ox.Store, store: ox.Store) -> None:
        self._parsed = _Parsed(marked, store)
        self._stored = _Stored(store, self._parsed)
        self._by_signature: dict[tuple[str, str], int] | None = None

    def line_of(self, node: Term) -> int | None:
        if not self._stored.anonymous(node):
            return self._parsed.line_of(node)
        if self._by_signature is None:
            self._by_signature = self._signatures()
        return self._by_signature.get(_signature(node, self._stored))

    def _signatures(self) -> dict[tuple[str, str], int]:
        """The first line of every signature of the parse's own blank nodes."""
        found: dict[tuple[str, str], int] = {}
        parsed = self._parsed
        for node in set(parsed.outgoing) | set(parsed.incoming):
            if not parsed.anonymous(node):
                continue
            line = parsed.line_of(node)
            if line is None:
                continue
            signature = _signature(node, parsed)
            if line < found.get(signature, line + 1):
                found[signature] = line
        return found
