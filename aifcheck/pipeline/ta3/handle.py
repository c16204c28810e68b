"""NIST's handle stage (``augment_output.py handle --task task3``), run when LDC's LTF files are
given (``--ltf DIR``; NIST's docker runs it when ``/data/ltf`` exists, and copies
SPARQL-VALID-output otherwise).

In a table with an ``?objectc_handle`` column, a missing handle (``[unknown]``, empty, ``""``) is
replaced with the source text of the row's ``?oinf_j_span``, and a handle that is itself a span
(``DOC:ELEMENT:(x1,y1)-(x2,y2)``) with its source text. The text is found as NIST's code finds it,
line by line in ``<ELEMENT>.ltf.xml``: the first line ``<SEG id=".." start_char="S"
end_char="E">`` whose range holds the span, then the next line that starts with
``<ORIGINAL_TEXT>``, cut from x1 to x2 counting from S (an indented tag is not found, as for NIST).
Every replacement, and every handle left as it was, is an INFO line of the log. Every other file is
written back as read, its first line taken as a header (a ranking file's first line loses its
trailing whitespace). Where NIST stops (no LTF file, a span it cannot read, an empty ranking file)
the handle is kept, or the empty file written, with the same log line as a handle not replaced.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path

from aifcheck.extract.model import HANDLE_SPAN
from aifcheck.loading.tsv import TsvTable, fit_cells
from aifcheck.pipeline.shared.events import EventLog
from aifcheck.pipeline.shared.tables import ended_lines, rstrip_cells

MISSING = ("[unknown]", "", '""')
_SEGMENT = re.compile(r'^<SEG id=".*?" start_char="(\d+)" end_char="(\d+)">$')
_HANDLE = "?objectc_handle"
_SPAN_COLUMN = "?oinf_j_span"


def handle(tables: Iterable[TsvTable], ltf: str | Path, log: EventLog, root: str) -> tuple[TsvTable, ...]:
    """SPARQL-AUGMENTED-output from SPARQL-VALID-output (``root`` names it in the log)."""
    source = _Source(Path(ltf))
    return tuple(_handle_table(table, source, log, root) for table in tables)


def _handle_table(table: TsvTable, source: _Source, log: EventLog, root: str) -> TsvTable:
    if not table.headed:
        if not table.rows:
            return table
        first = table.rows[0]
        return replace(table, rows=(first._replace(cells=rstrip_cells(first.cells)), *table.rows[1:]))
    columns = [c.strip() for c in table.columns]
    if _HANDLE not in columns:
        return table
    at, span_at = columns.index(_HANDLE), columns.index(_SPAN_COLUMN) if _SPAN_COLUMN in columns else None
    rows = []
    for number, row in table.rows:
        cells = list(fit_cells(row, len(columns)))
        where = f"{root}/{table.path}:{number}"
        handle_text = cells[at] if at < len(cells) else None
        text = None
        if handle_text in MISSING:
            text = source.text(cells[span_at]) if span_at is not None and span_at < len(cells) else None
            if text:
                log.record(
                    "DEFAULT_INFO",
                    f"replacing missing handle '{handle_text}' with text '{text}'",
                    where=where,
                    source="Handle",
                )
            else:
                log.record(
                    "DEFAULT_INFO",
                    f"handle '{handle_text}' found to be missing but no replacements made",
                    where=where,
                    source="Handle",
                )
        elif handle_text is not None and len(handle_text.split(":")) == 3 and HANDLE_SPAN.parts(handle_text):
            text = source.text(handle_text)
            if text:
                log.record(
                    "DEFAULT_INFO",
                    f"replacing handle span '{handle_text}' with text '{text}'",
                    where=where,
                    source="Handle",
                )
            else:
                log.record(
                    "DEFAULT_INFO",
                    f"handle span '{handle_text}' found but not replaced with text",
                    where=where,
                    source="Handle",
                )
        if text:
            cells[at] = text
            row = tuple(cells)
        rows.append(row)
    return TsvTable.numbered(table.path, table.columns, rows)


class _Source:
    """LDC's LTF files, each read once."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.read: dict[str, list[str] | None] = {}

    def lines(self, element: str) -> list[str] | None:
        if element not in self.read:
            try:
                self.read[element] = ended_lines((self.folder / f"{element}.ltf.xml").read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError):
                self.read[element] = None
        return self.read[element]

    def text(self, span: str) -> str | None:
        parts = HANDLE_SPAN.parts(span)
        if parts is None:
            return None
        try:
            start, end = int(parts[2]), int(parts[4])
        except ValueError:
            return None
        lines = self.lines(parts[1])
        found, segment_start = False, 0
        for line in lines or ():
            if line.startswith("<ORIGINAL_TEXT>") and found:
                # NIST removes the opening tag only (it looks for the closing one as "<\/ORIGINAL_TEXT>")
                return line.replace("<ORIGINAL_TEXT>", "")[start - segment_start : end - segment_start + 1]
            segment = _SEGMENT.match(line)
            if segment:
                segment_start, segment_end = int(segment[1]), int(segment[2])
                if segment_start <= start <= segment_end and segment_start <= end <= segment_end:
                    found = True
        return None
