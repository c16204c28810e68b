"""Report renderers, one small module per output format, looked up by name.

The line formats (text, github) give each line of a report its syntax, so that a file's findings
can be printed as soon as the file is done; the document formats (json, sarif) write the whole
report at the end.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TextIO

from aifcheck.errors import UsageError
from aifcheck.render import github, text
from aifcheck.render.lines import Line, file_lines, report_lines
from aifcheck.validation.catalog import Catalog
from aifcheck.validation.report import FileError, FileReport, Report


def _imported_when_used(module: str) -> Callable[[Report, Catalog, TextIO], None]:
    """The ``render`` of a document format's module, imported on first use (the json module costs
    every run an import; most print text)."""

    def render(report: Report, catalog: Catalog, out: TextIO) -> None:
        importlib.import_module(f"{__package__}.{module}").render(report, catalog, out)

    return render


# each format by name, in the order the help lists them: a line format's line syntax, or None for a
# document format (rendered by its module's render)
_SYNTAX: dict[str, Callable[[Line, bool], str] | None] = {
    "text": text.line_text,
    "json": None,
    "sarif": None,
    "github": github.line_text,
}
LINE_FORMATS = {name: syntax for name, syntax in _SYNTAX.items() if syntax is not None}
DOCUMENT_FORMATS: dict[str, Callable[[Report, Catalog, TextIO], None]] = {
    name: _imported_when_used(name) for name, syntax in _SYNTAX.items() if syntax is None
}
FORMATS = tuple(_SYNTAX)
TABLE_FORMATS = ("text", "json")  # a score or summary table: for people, or for other tools
GRAPH_VIEWS = ("clusters", "mentions")  # aifcheck graph --view (see aifcheck.render.graph)
GRAPH_DETAIL_LIMIT = 50  # more clusters and claims than this: the clusters view, unless one is asked for
EXTENSIONS = {"text": ".txt", "json": ".json", "sarif": ".sarif", "github": ".txt"}


def check_format(name: str) -> str:
    if name not in FORMATS:
        raise UsageError(f"unknown format '{name}' (choose {', '.join(FORMATS)})")
    return name


def render(
    report: Report, catalog: Catalog, out: TextIO, fmt: str, colour: bool = False, per_rule: int | None = None
) -> None:
    """The whole report in a format (a line format ends with the summary line; ``per_rule``: the
    findings of a rule shown per file, see aifcheck.render.lines.file_lines)."""
    if fmt in DOCUMENT_FORMATS:
        DOCUMENT_FORMATS[fmt](report, catalog, out)
        return
    _write(report_lines(report, catalog, per_rule), out, fmt, colour)
    out.write(text.summary_line(report) + "\n")


def render_input_errors(errors: list[FileError], out: TextIO, fmt: str, colour: bool = False) -> None:
    """The inputs that could not be found, before the files of a streamed run."""
    _write(errors, out, fmt, colour)


def render_file(
    file_report: FileReport,
    catalog: Catalog,
    out: TextIO,
    fmt: str,
    colour: bool = False,
    per_rule: int | None = None,
) -> None:
    """One file's lines in a line format, as soon as the file is done."""
    _write(file_lines(file_report, catalog, per_rule), out, fmt, colour)


def _write(lines, out: TextIO, fmt: str, colour: bool) -> None:
    line_text = LINE_FORMATS[check_format(fmt)]
    for line in lines:
        out.write(line_text(line, colour) + "\n")
