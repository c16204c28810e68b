"""Tab-separated lines as NIST's file handler reads them, with line numbers for every complaint.

NIST opens a file in text mode (so ``\\r\\n`` and a lone ``\\r`` end lines too), takes the line
without its line break, splits it at most into as many cells as there are columns (further tabs
stay in the last cell) and strips each cell. A line with fewer cells stops NIST's code; a blank
line is such a line for NIST, and skipped here.
"""
from __future__ import annotations

import os

from ..errors import InputError


def read_lines(path: str | os.PathLike, skip_blank: bool = True) -> list[tuple[int, str]]:
    """(line number, text without its line break) of every line (that is not blank)."""
    try:
        with open(path, encoding="utf-8") as handle:
            lines = list(handle)
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(str(path), f"cannot read: {getattr(exc, 'strerror', None) or exc}") from None
    return [(number, line.rstrip("\r\n")) for number, line in enumerate(lines, 1) if not skip_blank or line.strip()]


def read_columns(path: str | os.PathLike, required: tuple[str, ...], optional: tuple[str, ...] = ()) -> list[tuple[int, list[str]]]:
    """The cells of the named columns (``required``, then ``optional``: "" when absent), stripped,
    of each line of a table whose first line names its columns, with their line numbers.
    InputError when the file is empty, lacks a required column, or a line has too few cells."""
    lines = read_lines(path)
    path = str(path)
    if not lines:
        raise InputError(path, f"empty: expected a header line naming {', '.join(required)}")
    header_number, header = lines[0]
    names = [name.strip() for name in header.rstrip().split("\t")]
    missing = [name for name in required if name not in names]
    if missing:
        raise InputError(path, f"the header has no column {', '.join(missing)}", header_number)
    # a name given twice: NIST's entry keeps the last cell of that name
    index = {name: position for position, name in enumerate(names)}
    wanted = [index.get(name) for name in (*required, *optional)]
    width = len(names)
    found = []
    for number, line in lines[1:]:
        cells = line.split("\t", width - 1)
        if len(cells) < width:
            raise InputError(path, f"{len(cells)} tab-separated fields, {width} expected", number)
        found.append((number, [cells[i].strip() if i is not None else "" for i in wanted]))
    return found
