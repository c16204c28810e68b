"""GitHub Actions workflow commands: each finding becomes an annotation on its file and line."""

from __future__ import annotations

from aifcheck.render.lines import Grouped, Line, Note, ShownFinding, Truncated
from aifcheck.validation.catalog import Severity

COMMANDS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def line_text(line: Line, colour: bool = False) -> str:
    if isinstance(line, ShownFinding):
        v = line.violation
        where = f"file={_escape_property(v.file)}" + (f",line={v.line}" if v.line else "")
        title = _escape_property(f"{v.rule_id} {v.severity.label}")
        message = _escape_data(f"{line.message} ({v.plan_ref})")
        return f"::{COMMANDS[v.severity]} {where},title={title}::{message}"
    if isinstance(line, Truncated):
        return f"::notice file={_escape_property(line.file)}::{_escape_data(line.stopped)}"
    if isinstance(line, Note | Grouped):
        return f"::notice file={_escape_property(line.file)}::{_escape_data(line.text)}"
    title = f",title={_escape_property('internal error in rule ' + line.rule_id)}" if line.rule_id else ""
    return f"::error file={_escape_property(line.file)}{title}::{_escape_data(line.message)}"
