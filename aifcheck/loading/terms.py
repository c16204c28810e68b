"""pyoxigraph terms as rdflib terms and back: for pySHACL (the reference executor) and for API
callers who hand aifcheck an rdflib Graph. The KB itself is always a pyoxigraph store."""

from __future__ import annotations

import logging
import warnings
from collections.abc import Iterator
from contextlib import contextmanager

import pyoxigraph as ox
import rdflib
from rdflib.term import BNode, Node

from aifcheck.errors import InputError
from aifcheck.loading.kb import KB
from aifcheck.loading.lines import Term

_XSD_STRING = ox.NamedNode("http://www.w3.org/2001/XMLSchema#string")


class RdflibView:
    """A store's triples as an rdflib Graph, with the way back from its terms to the store's.

    rdflib rewrites some literals as it builds them ("01"^^xsd:integer becomes "1"), as its own
    parser does: a term pySHACL reports is mapped back to the store's term it came from."""

    def __init__(self, store: ox.Store) -> None:
        self._back: dict[rdflib.Literal, ox.Literal] = {}
        self.graph = rdflib.Graph()
        with quiet_rdflib():
            for quad in store.quads_for_pattern(None, None, None, ox.DefaultGraph()):  # not the line marks
                self.graph.add(
                    (self._to_rdflib(quad.subject), self._to_rdflib(quad.predicate), self._to_rdflib(quad.object))
                )

    def _to_rdflib(self, term: Term) -> Node:
        if isinstance(term, ox.NamedNode):
            return rdflib.URIRef(term.value)
        if isinstance(term, ox.BlankNode):
            return BNode(term.value)
        if term.language:
            literal = rdflib.Literal(term.value, lang=term.language)
        elif term.datatype == _XSD_STRING:  # rdflib keeps simple literals untyped
            literal = rdflib.Literal(term.value)
        else:
            literal = rdflib.Literal(term.value, datatype=rdflib.URIRef(term.datatype.value))
        self._back.setdefault(literal, term)
        return literal

    def to_store(self, node: Node | None) -> Term | None:
        """The store's term for a term of the graph."""
        if node is None:
            return None
        if isinstance(node, rdflib.Literal):
            return self._back.get(node) or _literal(node)
        if isinstance(node, BNode):
            return ox.BlankNode(str(node))
        return ox.NamedNode(str(node))


def _literal(node: rdflib.Literal) -> ox.Literal:
    if node.language:
        return ox.Literal(str(node), language=node.language)
    if node.datatype is not None:
        return ox.Literal(str(node), datatype=ox.NamedNode(str(node.datatype)))
    return ox.Literal(str(node))


def kb_from_graph(graph: rdflib.Graph, name: str = "<graph>") -> KB:
    """A KB holding an rdflib Graph's triples (it has no text, so its findings have no lines)."""
    blank: dict[BNode, ox.BlankNode] = {}

    def term(node: Node) -> Term:
        if isinstance(node, BNode):
            return blank.setdefault(node, ox.BlankNode())
        if isinstance(node, rdflib.Literal):
            return _literal(node)
        return ox.NamedNode(str(node))

    store = ox.Store()
    try:
        store.extend(ox.Quad(term(s), term(p), term(o)) for s, p, o in graph)
    except (ValueError, TypeError) as exc:  # an IRI with a space, a literal as subject, ...
        raise InputError(name, f"not RDF that aifcheck can check: {exc}") from None
    prefixes = {prefix: str(namespace) for prefix, namespace in graph.namespaces()}
    return KB(name, store, prefixes=prefixes)


@contextmanager
def quiet_rdflib() -> Iterator[None]:
    """Silence rdflib while inside: it logs a traceback (and warns) for every ill-typed literal
    such as "high"^^xsd:double, which the rules report, located, so the noise is only in the way."""
    logger = logging.getLogger("rdflib")
    level = logger.level
    logger.setLevel(logging.CRITICAL)
    try:
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", module=r"rdflib\.")
            yield
    finally:
        logger.setLevel(level)
