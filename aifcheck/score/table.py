"""The columns of a score table, as a scorer declares them: what NIST's score files show of its
values and in which format (aifcheck.render.score_table prints them)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Column:
    name: str  # the key of the value in each row
    header: str
    format: str  # a format spec, e.g. "s", "6.4f", "d"
    justify: str = "L"  # "L", "R" or "" (no padding), in pretty tables
    mean_format: str | None = None  # the format of summary rows, when it differs
