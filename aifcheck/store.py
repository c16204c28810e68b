"""One RDF file in an in-memory pyoxigraph store: the knowledge base the query engine reads.

Loading was measured on the five TA1 KBs of the M54 data (1.3 MB of Turtle, 29k triples), all
five files per run: on a quiet machine ``extend(parse(...))`` 54.2 ms, ``load`` 54.4 ms,
``bulk_load`` 54.7 ms (best of 5); on a busy one, 30 interleaved runs, minimum 168 / 165 / 180 ms.
They are within noise of each other; ``extend(parse(...))`` was never the slowest, so it is used.
"""
from __future__ import annotations

import os
from pathlib import Path

import pyoxigraph

from .errors import InputError
from .parsing import read_text


def load_store(path: str | os.PathLike) -> pyoxigraph.Store:
    """Read one .ttl or .nt file (optionally gzipped) into a new in-memory store.

    Raises InputError (with line and column for syntax errors) when the file cannot be used.
    N-Triples is read with the Turtle parser, as aifcheck.parsing does, so both agree on what parses.
    """
    path = str(path)
    text = read_text(path)
    store = pyoxigraph.Store()
    try:
        store.extend(
            pyoxigraph.parse(input=text, format=pyoxigraph.RdfFormat.TURTLE, base_iri=Path(path).resolve().as_uri())
        )
    except SyntaxError as exc:
        raise InputError(path, f"syntax error: {_reason(exc)}", exc.lineno, exc.offset) from None
    if len(store) == 0:
        raise InputError(path, "no RDF triples in file")
    return store


def _reason(exc: SyntaxError) -> str:
    # pyoxigraph prefixes its message with the position, which InputError already prints.
    message = exc.msg or str(exc)
    return message.split(": ", 1)[1] if message.startswith("Parser error") and ": " in message else message
