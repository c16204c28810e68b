"""GitHub Actions workflow commands: each finding becomes an annotation on its file and line."""
from __future__ import annotations

from typing import TextIO

from ..catalog import Catalog, Severity
from ..report import Report
from .names import compact
from .text import summary_line

COMMANDS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def render(report: Report, catalog: Catalog, out: TextIO) -> None:
    for problem in report.input_errors:
        out.write(f"::error file={_escape_property(problem.file)}::{_escape_data(problem.message)}\n")
    for file_report in sorted(report.files, key=lambda f: f.file):
        if file_report.error is not None:
            out.write(f"::error file={_escape_property(file_report.file)}::{_escape_data(file_report.error.message)}\n")
            continue
        prefixes = {**catalog.prefixes, **file_report.prefixes}
        for v in file_report.violations:
            where = f"file={_escape_property(v.file)}" + (f",line={v.line}" if v.line else "")
            title = _escape_property(f"{v.rule_id} {v.severity.label}")
            message = _escape_data(f"{compact(v.message, prefixes)} ({v.plan_ref})")
            out.write(f"::{COMMANDS[v.severity]} {where},title={title}::{message}\n")
    out.write(summary_line(report) + "\n")
