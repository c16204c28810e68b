"""Plain text: one line per finding, FILE:LINE: ID severity node: message (plan reference)."""
from __future__ import annotations

from typing import TextIO

from ..catalog import Catalog
from ..report import Report
from .names import compact


def render(report: Report, catalog: Catalog, out: TextIO) -> None:
    for problem in report.input_errors:
        out.write(f"{problem.message}\n")
    for file_report in sorted(report.files, key=lambda f: f.file):
        if file_report.error is not None:
            out.write(f"{file_report.error.message}\n")
            continue
        prefixes = {**catalog.prefixes, **file_report.prefixes}
        for v in file_report.violations:
            node = compact(v.focus, prefixes)
            message = compact(v.message, prefixes)
            out.write(f"{v.file}:{v.line}: {v.rule_id} {v.severity.label} {node}: {message} ({v.plan_ref})\n")
        for failure in file_report.rule_errors:
            out.write(f"{failure.message} [internal error in rule {failure.rule_id}]\n")
        if file_report.truncated_after is not None:
            out.write(f"{file_report.file}: only the first {file_report.truncated_after} findings are shown (--max-violations)\n")
    out.write(summary_line(report) + "\n")


def summary_line(report: Report) -> str:
    s = report.summary()
    return (
        f"{s['files']} file{'s' if s['files'] != 1 else ''}: {s['valid']} valid, {s['invalid']} invalid, "
        f"{s['unreadable']} unreadable; {s['errors']} errors, {s['warnings']} warnings"
        + (f", {s['infos']} infos" if s["infos"] else "")
        + f" ({s['seconds']:.2f} s)"
    )
