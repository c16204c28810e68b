"""Results: located findings and their severity, per-file outcomes and the run's exit status."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from aifcheck.errors import ExitStatus, UsageError


class Severity(enum.IntEnum):
    INFO = 0
    WARNING = 1
    ERROR = 2

    @property
    def label(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> Severity:
        try:
            return cls[text.upper()]
        except KeyError:
            raise UsageError(f"unknown severity '{text}' (choose error, warning or info)") from None


@dataclass(frozen=True, order=True)
class Violation:
    """One finding, located by file, line and node; ordered by (file, line, rule, node, message),
    so that the order never depends on the run."""

    file: str
    line: int  # 0 when the node does not appear in the file
    rule_id: str
    focus: str  # the focus node as <iri>, a literal in N-Triples, or "[] (line N)" for a blank node
    severity: Severity = field(compare=False)
    message: str = ""
    plan_ref: str = field(compare=False, default="")
    value: str | None = field(compare=False, default=None)  # the value concerned, when not the focus node


@dataclass(frozen=True)
class FileError:
    """A file that could not be read, or a rule that could not run on it."""

    file: str
    message: str  # already located: FILE:LINE:COL: ...
    rule_id: str | None = None  # set for an internal error of one rule


@dataclass
class FileReport:
    file: str  # a file, or (for a submission's findings about its layout) a folder
    triples: int = 0
    violations: list[Violation] = field(default_factory=list)
    error: FileError | None = None  # the file could not be read
    rule_errors: list[FileError] = field(default_factory=list)
    truncated_after: int | None = None  # --max-violations cut the list to this many findings
    # the file's own, to shorten IRIs in its findings
    prefixes: dict[str, str] = field(default_factory=dict)
    seconds: float = 0.0
    is_file: bool = True  # False for a folder's findings, which the summary does not count as a file
    notes: list[str] = field(default_factory=list)  # what a user should know of the run on this file (no finding)

    @property
    def readable(self) -> bool:
        return self.error is None

    def count(self, severity: Severity) -> int:
        return sum(1 for v in self.violations if v.severity == severity)


@dataclass
class Report:
    """The outcome of one validation run over any number of files."""

    profile: str
    files: list[FileReport] = field(default_factory=list)
    input_errors: list[FileError] = field(default_factory=list)  # missing paths, empty dirs
    seconds: float = 0.0
    strict: bool = False

    @property
    def violations(self) -> list[Violation]:
        return sorted(v for f in self.files for v in f.violations)

    def count(self, severity: Severity) -> int:
        return sum(f.count(severity) for f in self.files)

    def file_failed(self, report: FileReport) -> bool:
        worst = Severity.WARNING if self.strict else Severity.ERROR
        return bool(report.rule_errors) or any(v.severity >= worst for v in report.violations)

    @property
    def failed(self) -> bool:
        """Some readable file has a finding that fails the run (or a rule that could not run)."""
        return any(self.file_failed(f) for f in self.files if f.readable)

    @property
    def unreadable(self) -> bool:
        return bool(self.input_errors) or any(not f.readable for f in self.files)

    @property
    def conforms(self) -> bool:
        """Every input was read, and nothing in it fails the run."""
        return not self.failed and not self.unreadable

    @property
    def exit_status(self) -> ExitStatus:
        if self.failed:
            return ExitStatus.VIOLATIONS
        if self.unreadable:
            return ExitStatus.UNREADABLE
        return ExitStatus.VALID

    def summary(self) -> dict[str, float | int]:
        files = [f for f in self.files if f.is_file]
        readable = [f for f in files if f.readable]
        invalid = sum(1 for f in readable if self.file_failed(f))
        return {
            "files": len(files) + len(self.input_errors),
            "valid": len(readable) - invalid,
            "invalid": invalid,
            "unreadable": len(files) - len(readable) + len(self.input_errors),
            "errors": self.count(Severity.ERROR),
            "warnings": self.count(Severity.WARNING),
            "infos": self.count(Severity.INFO),
            "seconds": round(self.seconds, 2),
        }
