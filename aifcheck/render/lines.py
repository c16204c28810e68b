"""What the line-oriented formats (text, github) print, in order, before each gives it its syntax."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from aifcheck.render.names import compact
from aifcheck.validation.catalog import Catalog
from aifcheck.validation.report import FileError, FileReport, Report, Violation


@dataclass(frozen=True)
class ShownFinding:
    violation: Violation
    node: str  # the focus node and the message with the file's prefixes applied
    message: str


@dataclass(frozen=True)
class Truncated:
    file: str
    after: int

    @property
    def stopped(self) -> str:
        return f"checking stopped at {self.after} finding{'s' if self.after != 1 else ''} (--max-violations)"


@dataclass(frozen=True)
class Note:
    file: str
    text: str


Line = FileError | ShownFinding | Truncated | Note


def report_lines(report: Report, catalog: Catalog) -> Iterator[Line]:
    """Unreadable inputs, then file by file (see file_lines)."""
    yield from report.input_errors
    for file_report in sorted(report.files, key=lambda f: f.file):
        yield from file_lines(file_report, catalog)


def file_lines(file_report: FileReport, catalog: Catalog) -> Iterator[Line]:
    """One file: why it could not be read, or its findings, its rules' internal errors, a truncation."""
    if file_report.error is not None:
        yield file_report.error
        return
    prefixes = {**catalog.prefixes, **file_report.prefixes}
    for v in file_report.violations:
        yield ShownFinding(v, compact(v.focus, prefixes), compact(v.message, prefixes))
    yield from file_report.rule_errors
    if file_report.truncated_after is not None:
        yield Truncated(file_report.file, file_report.truncated_after)
    for note in file_report.notes:
        yield Note(file_report.file, note)
