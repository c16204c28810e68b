"""NIST's TA2 queries table (``queries_to_score`` for the scorer, the queries file for the pooler):
tab-separated with a header, columns found by name.

Columns: ``query_id``, ``entity_id``, ``entrypoint_type`` (``kbid`` or ``name``), ``entrypoint``,
``clusters`` (C, how many clusters of a query are pooled and scored) and ``documents`` (K, how
many documents per cluster); others are ignored. A query ID given twice keeps its first place and
its last values, as NIST's dictionary does. C and K are read as NIST reads them, with ``int()``
(so a negative number is accepted: NIST then takes every cluster or document).
"""
from __future__ import annotations

import os
from dataclasses import dataclass

from ..errors import InputError
from .tab_lines import read_columns

SCORER_COLUMNS = ("query_id", "entity_id", "entrypoint_type", "entrypoint", "clusters", "documents")
POOLER_COLUMNS = ("query_id", "entrypoint", "clusters", "documents")


@dataclass(frozen=True)
class Ta2Query:
    query_id: str
    entity_id: str
    entrypoint_type: str
    entrypoint: str
    clusters: int  # C
    documents: int  # K
    line: int


def read_queries(path: str | os.PathLike, required: tuple[str, ...] = SCORER_COLUMNS) -> dict[str, Ta2Query]:
    """The queries of the table, by ID, in the table's order."""
    queries: dict[str, Ta2Query] = {}
    for number, cells in read_columns(path, required, tuple(c for c in SCORER_COLUMNS if c not in required)):
        values = dict(zip((*required, *(c for c in SCORER_COLUMNS if c not in required)), cells))
        counts = []
        for name in ("clusters", "documents"):
            try:
                counts.append(int(values[name]))
            except ValueError:
                raise InputError(str(path), f"{name} {values[name]!r} is not an integer (NIST's code stops on it)", number) from None
        query_id = values["query_id"]
        queries[query_id] = Ta2Query(query_id, values["entity_id"], values["entrypoint_type"], values["entrypoint"], counts[0], counts[1], number)
    return queries
