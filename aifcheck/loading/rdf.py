"""The KB's RDF terms (the store library's types), named here so that the stages above loading
never import the store library itself (an import contract keeps it to loading, extract and
validation)."""

from __future__ import annotations

import pyoxigraph as ox

NamedNode = ox.NamedNode
BlankNode = ox.BlankNode
Literal = ox.Literal
Term = ox.NamedNode | ox.BlankNode | ox.Literal


def literal_text(value: str) -> str:
    """``value`` as a string literal in N-Triples (quoted, its quotes and line breaks escaped)."""
    return str(ox.Literal(value))
