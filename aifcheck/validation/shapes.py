"""The rule catalogue a run uses: the one built from shapes/ and shipped beside them, read as JSON
without rdflib (see aifcheck.validation.catalog); built from the shapes (aifcheck.validation.build)
only when the shapes differ from the ones it was built from."""

from __future__ import annotations

import sys
from functools import cache

from aifcheck.validation.catalog import Built, Catalog, fingerprint, shapes_folder
from aifcheck.validation.engine.compile import QUERIES, compile_queries, queries_json

PROFILE_FILES = ("aif.ttl", "nist.ttl", "ta3.ttl", "submission.ttl")
CATALOG = Built("catalog.json")


def shape_texts() -> dict[str, str]:
    """The Turtle of every profile file shipped in shapes/ (installed as aifcheck.shapes), by file name."""
    folder = shapes_folder()
    return {name: (folder / name).read_text(encoding="utf-8") for name in PROFILE_FILES if (folder / name).is_file()}


@cache
def load_catalog() -> Catalog:
    """The catalogue of the shapes in shapes/: the one shipped beside them (or cached, for shapes
    that changed), read without rdflib; built from the shapes when neither fits them, with a line on
    stderr, and cached."""
    current = fingerprint()
    found = CATALOG.read(current)
    if found is not None:
        return Catalog.from_json(found, current)
    from aifcheck.validation.build import build_catalog

    print(
        "aifcheck: the rule shapes differ from the built catalogue: building it (once, into the cache)", file=sys.stderr
    )
    catalog = build_catalog(shape_texts(), current)
    CATALOG.keep(current, catalog.to_json())
    QUERIES.keep(current, queries_json(compile_queries(catalog)))
    return catalog


def ship() -> None:
    """Build the catalogue and the fast executor's queries from shapes/ and write them beside the
    shapes, as the package ships them (``python -m aifcheck.validation.shapes``)."""
    from aifcheck.validation.build import build_catalog

    current = fingerprint()
    catalog = build_catalog(shape_texts(), current)
    CATALOG.ship(current, catalog.to_json())
    QUERIES.ship(current, queries_json(compile_queries(catalog)))


if __name__ == "__main__":
    ship()
