"""Plain text: one line per finding, FILE:LINE: ID severity node: message (plan reference)."""
from __future__ import annotations

from typing import TextIO

from ..catalog import Catalog
from ..report import Report
from .lines import Finding, Truncated, report_lines


def render(report: Report, catalog: Catalog, out: TextIO) -> None:
    for line in report_lines(report, catalog):
        if isinstance(line, Finding):
            v = line.violation
            out.write(f"{v.file}:{v.line}: {v.rule_id} {v.severity.label} {line.node}: {line.message} ({v.plan_ref})\n")
        elif isinstance(line, Truncated):
            out.write(f"{line.file}: {line.stopped}\n")
        elif line.rule_id is not None:
            out.write(f"{line.message} [internal error in rule {line.rule_id}]\n")
        else:
            out.write(f"{line.message}\n")
    out.write(summary_line(report) + "\n")


def summary_line(report: Report) -> str:
    s = report.summary()
    counts = [_count(s["errors"], "error"), _count(s["warnings"], "warning")]
    if s["infos"]:
        counts.append(_count(s["infos"], "info"))
    return (
        f"{_count(s['files'], 'file')}: {s['valid']} valid, {s['invalid']} invalid, {s['unreadable']} unreadable; "
        f"{', '.join(counts)} ({s['seconds']:.2f} s)"
    )


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'s' if number != 1 else ''}"
