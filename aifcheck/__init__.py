"""aifcheck: validate and query AIDA Interchange Format (AIF) knowledge graphs.

    >>> import aifcheck
    >>> report = aifcheck.validate("kb.ttl", profile="nist")
    >>> report.conforms, [v.rule_id for v in report.violations]
"""
from __future__ import annotations

__version__ = "0.1.0"

from .catalog import Rule, Severity, load_catalog  # noqa: E402
from .errors import AifcheckError, InputError, UsageError  # noqa: E402
from .report import ExitStatus, FileReport, Report, Violation  # noqa: E402
from .validate import Options, validate  # noqa: E402

__all__ = [
    "AifcheckError",
    "ExitStatus",
    "FileReport",
    "InputError",
    "Options",
    "Report",
    "Rule",
    "Severity",
    "UsageError",
    "Violation",
    "load_catalog",
    "validate",
]
