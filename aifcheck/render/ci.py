"""Confidence intervals in NIST's two files (``generate_confidence_intervals.py``'s pretty and tab
outputs): the key columns, the lower bounds from the widest interval inward (``95%(`` ...), the
summary row's ``score``, the upper bounds outward (... ``)95%``); numbers ``6.4f``; in the pretty
file every column right-justified to its widest cell and one space between columns; lines joined
by a newline, none after the last (as NIST writes them).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from aifcheck.render.output import FileOutput, write_files
from aifcheck.render.score_table import Column, score_table
from aifcheck.score.ci import CIResult, size_label

_NUMBER = "6.4f"


def ci_table(result: CIResult, separator: str) -> str:
    """The pretty (``separator="pretty"``) or tab (``"tab"``) file of NIST's tool."""
    sizes = sorted(result.sizes, reverse=True)
    header = [
        *result.key,
        *(f"{size_label(s)}%(" for s in sizes),
        "score",
        *(f"){size_label(s)}%" for s in reversed(sizes)),
    ]
    columns = [Column(f"c{i}", name, "s", "R") for i, name in enumerate(header)]
    rows = []
    for line in result.lines:
        lower = [format(line.intervals[s][0], _NUMBER) for s in sizes]
        upper = [format(line.intervals[s][1], _NUMBER) for s in reversed(sizes)]
        cells = [*line.key, *lower, format(line.score, _NUMBER), *upper]
        rows.append({c.name: text for c, text in zip(columns, cells, strict=True)})
    return score_table(columns, rows, separator).removesuffix("\n")


def write_ci_files(result: CIResult, pretty: str | os.PathLike, tab: str | os.PathLike) -> None:
    """Write NIST's two files (``-o`` and ``--tab``): both whole, or neither."""
    write_files(
        {
            FileOutput(Path(pretty), "-o"): ci_table(result, "pretty"),
            FileOutput(Path(tab), "--tab"): ci_table(result, "tab"),
        }
    )


def write_folder_intervals(out: str | os.PathLike, results: Mapping[str, CIResult]) -> list[Path]:
    """``<Metric>-ci.txt`` and ``<Metric>-ci.tab`` beside the score files (``OUT/scores`` when it
    exists, else ``OUT``), as NIST named them in its sampling study; returns the paths."""
    folder = Path(out) / "scores" if (Path(out) / "scores").is_dir() else Path(out)
    written = []
    for metric, result in results.items():
        pretty, tab = folder / f"{metric}-ci.txt", folder / f"{metric}-ci.tab"
        write_ci_files(result, pretty, tab)
        written += [pretty, tab]
    return written
