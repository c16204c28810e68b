"""NIST's clean stage (``clean_sparql_output.py``) on TA1's printed tables (aifcheck.pipeline.shared.clean)."""

from __future__ import annotations

from aifcheck.pipeline.shared.clean import clean_cells


def clean_text(text: str) -> str:
    lines = []
    for line in text.splitlines(keepends=True):
        cells = line.rstrip("\r\n").split("\t")
        lines.append("\t".join(clean_cells(cells)) + "\n")
    return "".join(lines)
