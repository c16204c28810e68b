"""NIST's clean stage (``clean_sparql_output.py``), the same for every task: a cell that holds an IRI
``<https://...#NAME>`` anywhere becomes NAME alone, the first such IRI's fragment (NIST's regular
expression takes the shortest match); every other cell is kept as it is."""

from __future__ import annotations

import re
from collections.abc import Iterable

_IRI = re.compile(r"<https://.*?#(.*?)>")


def clean_cell(cell: str) -> str:
    match = _IRI.search(cell)
    return match[1] if match else cell


def clean_cells(cells: Iterable[str]) -> tuple[str, ...]:
    return tuple(map(clean_cell, cells))
