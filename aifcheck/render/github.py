"""GitHub Actions workflow commands: each finding becomes an annotation on its file and line."""
from __future__ import annotations

from typing import TextIO

from ..catalog import Catalog, Severity
from ..report import Report
from .lines import Finding, Truncated, report_lines
from .text import summary_line

COMMANDS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def render(report: Report, catalog: Catalog, out: TextIO) -> None:
    for line in report_lines(report, catalog):
        if isinstance(line, Finding):
            v = line.violation
            where = f"file={_escape_property(v.file)}" + (f",line={v.line}" if v.line else "")
            title = _escape_property(f"{v.rule_id} {v.severity.label}")
            message = _escape_data(f"{line.message} ({v.plan_ref})")
            out.write(f"::{COMMANDS[v.severity]} {where},title={title}::{message}\n")
        elif isinstance(line, Truncated):
            out.write(f"::notice file={_escape_property(line.file)}::{_escape_data(line.stopped)}\n")
        else:
            title = f",title={_escape_property('internal error in rule ' + line.rule_id)}" if line.rule_id else ""
            out.write(f"::error file={_escape_property(line.file)}{title}::{_escape_data(line.message)}\n")
    out.write(summary_line(report) + "\n")
