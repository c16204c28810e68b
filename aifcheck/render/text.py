"""Plain text: one line per finding, FILE:LINE: ID severity node: message (plan reference).

A finding that has no line (one about a folder or a whole file) prints FILE: without a line. A
report shows the first few findings of each rule in a file, then one line counting the rest
(aifcheck.render.lines.Grouped), unless all are asked for.
On a terminal, severities and rule IDs are coloured (see aifcheck.cli_common.color_enabled).
"""

from __future__ import annotations

from collections import Counter
from typing import TextIO

from aifcheck.render.lines import Grouped, Line, Note, ShownFinding, Truncated
from aifcheck.validation.catalog import Catalog, Severity
from aifcheck.validation.report import FileError, Report

_COLOURS = {Severity.ERROR: "\033[31;1m", Severity.WARNING: "\033[33m", Severity.INFO: "\033[36m"}
_BOLD, _RESET = "\033[1m", "\033[0m"


def line_text(line: Line, colour: bool = False) -> str:
    if isinstance(line, ShownFinding):
        v = line.violation
        where = f"{v.file}:{v.line}:" if v.line else f"{v.file}:"
        rule, severity = v.rule_id, v.severity.label
        if colour:
            rule, severity = f"{_BOLD}{rule}{_RESET}", f"{_COLOURS[v.severity]}{severity}{_RESET}"
        return f"{where} {rule} {severity} {line.node}: {line.message} ({v.plan_ref})"
    if isinstance(line, Truncated):
        return f"{line.file}: {line.stopped}"
    if isinstance(line, Note):
        return f"{line.file}: note: {line.text}"
    if isinstance(line, Grouped):
        return line.text
    assert isinstance(line, FileError)
    if line.rule_id is not None:
        return f"{line.message} [internal error in rule {line.rule_id}]"
    return line.message


def statistics(report: Report, catalog: Catalog, out: TextIO, colour: bool = False) -> None:
    """Findings counted per rule, most first (as ruff --statistics prints them)."""
    counts = Counter(v.rule_id for v in report.violations)
    for rule_id, count in sorted(counts.items(), key=lambda item: (-item[1], item[0])):
        rule = catalog.rules[rule_id]
        severity = rule.severity.label
        if colour:
            severity = f"{_COLOURS[rule.severity]}{severity:<8}{_RESET}"
        out.write(f"{count:>6}  {rule_id:<6} {severity:<8} {rule.title}\n")


def summary_line(report: Report) -> str:
    """The counts of a run. The findings of a submission's layout (S rules) are about its folders,
    which are not counted as files: the line says how many of the errors they are, so that "19
    valid" beside "36 errors" reads as it is."""
    s = report.summary()
    counts = [_count(s["errors"], "error"), _count(s["warnings"], "warning")]
    layout = sum(f.count(Severity.ERROR) for f in report.files if not f.is_file)
    if layout:
        counts[0] += f" ({layout} in the layout of the folders)"
    if s["infos"]:
        counts.append(_count(s["infos"], "info"))
    return (
        f"{_count(s['files'], 'file')}: {s['valid']} valid, {s['invalid']} invalid, {s['unreadable']} unreadable; "
        f"{', '.join(counts)} ({s['seconds']:.2f} s)"
    )


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'s' if number != 1 else ''}"
