"""One file parsed straight into pyoxigraph, with the line each node starts on: the fast load path.

pyoxigraph's parser does not report positions, so the text is marked before it is parsed: one
regular-expression pass finds the statements (skipping strings, IRIs and comments) and gives
each statement's subject, and each ``[`` blank node, an extra triple ``<urn:aifcheck:line> N``.
Those triples go to a named graph of their own while loading, so the rules, which query the
default graph, never see them; a node's line is then one look-up in that graph. No rdflib Graph
is built and no per-node index is held in Python, so memory stays with the store.

A node that is never a subject (nor a ``[`` blank node) takes the line of the first statement
that mentions it as an object. Files this path cannot read (syntax errors) go through the rdflib
loader, whose messages are located to the column.
"""
from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pyoxigraph as ox
from rdflib.term import BNode, Node, URIRef

from .errors import InputError
from .parsing import read_text

LINE = ox.NamedNode("urn:aifcheck:line")
LINES_GRAPH = ox.NamedNode("urn:aifcheck:lines")

# What can hide a "." or a "[" from the scanner, the "." that ends a statement, and "[".
_TOKEN = re.compile(
    r'"""(?:[^"\\]|\\.|"(?!""))*"""'
    r"|'''(?:[^'\\]|\\.|'(?!''))*'''"
    r'|"(?:[^"\\\n]|\\.)*"'
    r"|'(?:[^'\\\n]|\\.)*'"
    r"|<[^>\s]*>"
    r"|#[^\n]*"
    r"|(?P<open>\[)"
    r"|(?P<end>\.)(?=[\s#]|\Z)",
)
_SPACE = re.compile(r"(?:\s|#[^\n]*)*")
_SPARQL_DIRECTIVE = re.compile(r"(?i:PREFIX\s+[^\s:]*:\s*<[^>]*>|BASE\s*<[^>]*>)")
_SUBJECT = re.compile(r"<[^>\s]*>|[^\s<\"\[(;,]+")


def mark_lines(text: str) -> str:
    """The text with a line triple on every statement subject and every ``[``."""
    pieces: list[str] = []
    kept = 0  # text[:kept] is already in pieces
    line = 1
    counted = 0  # line is the line of offset `counted`
    position = _statement_start(text, 0)
    while position < len(text):
        directive = _SPARQL_DIRECTIVE.match(text, position)
        if directive:  # SPARQL-style PREFIX and BASE have no final "."
            position = _statement_start(text, directive.end())
            continue
        if not text.startswith(("@", "[", "("), position):
            subject = _SUBJECT.match(text, position)
            if subject:
                line += text.count("\n", counted, position)
                counted = position
                pieces += (text[kept : subject.end()], f" {LINE} {line} ;")
                kept = subject.end()
        end = len(text)
        for token in _TOKEN.finditer(text, position):
            if token["open"]:
                line += text.count("\n", counted, token.start())
                counted = token.start()
                pieces += (text[kept : token.end()], f" {LINE} {line} ;")
                kept = token.end()
            elif token["end"]:
                end = token.end()
                break
        position = _statement_start(text, end)
    pieces.append(text[kept:])
    return "".join(pieces)


def _statement_start(text: str, offset: int) -> int:
    return _SPACE.match(text, offset).end()


@dataclass
class IndexedStore:
    """One parsed file: its triples in a pyoxigraph store, the line triples beside them."""

    path: str
    store: ox.Store
    prefixes: dict[str, str] = field(default_factory=dict)
    _lines: dict[Node, int | None] = field(default_factory=dict, repr=False)

    def __len__(self) -> int:
        return len(self.store) - sum(1 for _ in self.store.quads_for_pattern(None, None, None, LINES_GRAPH))

    def line_of(self, node: Node | None) -> int | None:
        if node is None:
            return None
        if node not in self._lines:
            self._lines[node] = self._find_line(node)
        return self._lines[node]

    def _find_line(self, node: Node) -> int | None:
        term = _ox_term(node)
        if term is None:
            return None
        own = self._own_line(term)
        if own is not None:
            return own
        mentions = (self._own_line(q.subject) for q in self.store.quads_for_pattern(None, None, term, ox.DefaultGraph()))
        return min((line for line in mentions if line is not None), default=None)

    def _own_line(self, term) -> int | None:
        lines = [int(q.object.value) for q in self.store.quads_for_pattern(term, LINE, None, LINES_GRAPH)]
        return min(lines, default=None)


def _ox_term(node: Node):
    if isinstance(node, URIRef):
        return ox.NamedNode(str(node))
    if isinstance(node, BNode):
        return ox.BlankNode(str(node))
    return None


def _route(quads: Iterator[ox.Quad]) -> Iterator[ox.Quad]:
    for quad in quads:
        if quad.predicate == LINE:
            yield ox.Quad(quad.subject, LINE, quad.object, LINES_GRAPH)
        else:
            yield quad


def load_indexed(path: str | os.PathLike) -> IndexedStore | None:
    """Parse one file into a store with its line index; None when the rdflib loader must say why
    it cannot be parsed. Raises InputError for files that cannot be read at all."""
    path = str(path)
    text = read_text(path)
    store = ox.Store()
    parser = ox.parse(input=mark_lines(text), format=ox.RdfFormat.TURTLE, base_iri=Path(path).resolve().as_uri())
    try:
        store.extend(_route(parser))
    except SyntaxError:
        return None
    loaded = IndexedStore(path, store, prefixes=dict(parser.prefixes))
    if len(loaded) == 0:
        raise InputError(path, "no RDF triples in file")
    return loaded
