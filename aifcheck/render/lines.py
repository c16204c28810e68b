"""What the line-oriented formats (text, github) print, in order, before each gives it its syntax."""

from __future__ import annotations

from collections import Counter
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


@dataclass(frozen=True)
class Grouped:
    """A rule's findings in a file past the first few shown (the text format shows a few per rule)."""

    file: str
    rule_id: str
    more: int

    @property
    def text(self) -> str:
        findings = "finding" if self.more == 1 else "findings"
        return (
            f"... and {self.more} more {self.rule_id} {findings} in {self.file}"
            " (--all-findings or --format json to see them)"
        )


Line = FileError | ShownFinding | Truncated | Note | Grouped

SHOWN_PER_RULE = 5  # a rule's findings per file that the text format shows before it counts the rest


def report_lines(report: Report, catalog: Catalog, per_rule: int | None = None) -> Iterator[Line]:
    """Unreadable inputs, then file by file (see file_lines)."""
    yield from report.input_errors
    for file_report in sorted(report.files, key=lambda f: f.file):
        yield from file_lines(file_report, catalog, per_rule)


def file_lines(file_report: FileReport, catalog: Catalog, per_rule: int | None = None) -> Iterator[Line]:
    """One file: why it could not be read, or its findings (the first ``per_rule`` of each rule,
    then a line counting the rest of each, when given), its rules' internal errors, a truncation."""
    if file_report.error is not None:
        yield file_report.error
        return
    # the file's prefixes add names: one that rebinds a name of aifcheck's (aida: to an older AIF
    # namespace) would make the file's terms read as the ones the messages name
    prefixes = {**file_report.prefixes, **catalog.prefixes}
    shown: Counter[str] = Counter()
    hidden: Counter[str] = Counter()
    for v in file_report.violations:
        if per_rule is not None and shown[v.rule_id] >= per_rule:
            hidden[v.rule_id] += 1
            continue
        shown[v.rule_id] += 1
        yield ShownFinding(v, compact(v.focus, prefixes), compact(v.message, prefixes))
    for rule_id in sorted(hidden):
        yield Grouped(file_report.file, rule_id, hidden[rule_id])
    yield from file_report.rule_errors
    if file_report.truncated_after is not None:
        yield Truncated(file_report.file, file_report.truncated_after)
    for note in file_report.notes:
        yield Note(file_report.file, note)
