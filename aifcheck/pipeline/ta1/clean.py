"""NIST's clean stage (``clean_sparql_output.py``): a cell holding ``<https://...#NAME>`` becomes
``NAME`` (the whole cell: NIST keeps only the name); every other cell is kept as it is."""

from __future__ import annotations

import re

_IRI = re.compile(r"<https://.*?#(.*?)>")


def clean_text(text: str) -> str:
    lines = []
    for line in text.splitlines(keepends=True):
        cells = line.rstrip("\r\n").split("\t")
        lines.append("\t".join(match.group(1) if (match := _IRI.search(cell)) else cell for cell in cells) + "\n")
    return "".join(lines)
