"""NIST's score tables (``scores/<Metric>-scores.txt`` and ``.tab``), for every scorer.

NIST prints a table of scores in two ways: ``pretty`` (columns padded to their widest cell and
joined by a space, each left- or right-justified) and ``tab`` (cells joined by tabs, unpadded).
A cell is its value formatted with the column's format spec; summary rows (ALL-Micro, ALL-Macro)
may use the column's ``mean_format`` instead. The text ends with a newline.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

from aifcheck.loading.tsv import TsvTable
from aifcheck.score.table import Column


def cell(column: Column, value: object, summary: bool = False) -> str:
    """A value as NIST prints it in a column (an empty string stays empty)."""
    spec = column.mean_format if summary and column.mean_format else column.format
    return format(value, "s" if value == "" else spec)


def score_table(columns: Sequence[Column], rows: Sequence[Mapping[str, str]], separator: str) -> str:
    """The table of already formatted rows (see cell); ``separator`` is "pretty" or "tab"."""
    if separator not in ("pretty", "tab"):
        raise ValueError(f"unknown separator {separator!r}")
    widths = {c.name: max([len(c.header), *(len(row[c.name]) for row in rows)]) for c in columns}

    def line(texts: Mapping[str, str]) -> str:
        if separator == "tab":
            return "\t".join(texts[c.name] for c in columns)
        pad = {"L": str.ljust, "R": str.rjust}
        return " ".join(
            pad[c.justify](texts[c.name], widths[c.name]) if c.justify in pad else texts[c.name] for c in columns
        )

    header = {c.name: c.header for c in columns}
    return "\n".join([line(header), *(line(row) for row in rows)]) + "\n"


def tab_table(path: str | os.PathLike, columns: Sequence[Column], rows: Sequence[Mapping[str, str]]) -> TsvTable:
    """The ``tab`` table of already formatted rows as a value: what NIST's reader reads back from
    the file at ``path``, without the round trip through the file (``score --ci`` uses it)."""
    return TsvTable.printed(str(path), [c.header for c in columns], ([row[c.name] for c in columns] for row in rows))
