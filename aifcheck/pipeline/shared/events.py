"""The events NIST's stages log (TA1, TA2, TA3), and the log files that hold them.

NIST's logger writes ``DATE - SCRIPT - LEVEL - CLASS - CODE - MESSAGE [at FILE:LINE]``, logs every
event once per distinct message (the same message from a later row is dropped), and counts the
ERROR and WARNING events it logged; the TA1 driver's ``results.json`` counts the lines of ``logs/``
that hold "ERROR". This module keeps those rules so that aifcheck counts what NIST counts. An event
NIST's specification marks CRITICAL (NIST stops) is an InputError raised where it happens instead.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass

# code -> (level, message), as in NIST's log specifications; only the events of aifcheck's stages
SPECS: dict[str, tuple[str, str]] = {
    "CLUSTER_NOT_ANNOTATED": (
        "INFO",
        "Response line skipped because all mentions of cluster '{}' were outside annotated regions",
    ),
    "DEFAULT_INFO": ("INFO", "{}"),
    "IMPROPER_COMPOUND_JUSTIFICATION": ("ERROR", "Compound justification '{}' has more than two justifications"),
    "INVALID_CONFIDENCE": ("WARNING", "Invalid confidence value '{}' (using 1.0)"),
    "INVALID_DATE": ("ERROR", "Cluster {} has invalid {} {}"),
    "INVALID_DATE_RANGE": ("ERROR", "{} {} has invalid date range: {} > {}"),
    "INVALID_METATYPE": ("ERROR", "Invalid metatype (expected one from '{}', provided '{}')"),
    "INVALID_PROVENANCE_FORMAT": ("ERROR", "Invalid provenance '{}'"),
    "KB_STATS": ("INFO", "Input directory contains {} KBs in total. (valid {}, invalid {})"),
    "MENTION_NOT_ANNOTATED": ("INFO", "Response skipped because mention '{}' is outside the annotated regions"),
    "MISSING_CLAIM_RANK": ("ERROR", "Ranking information not found for claim {}"),
    "MISSING_DATE_FIELD": ("INFO", "Missing {} {}; using '{}' as the {} date"),
    "MISSING_ITEM_WITH_KEY": ("ERROR", "{} '{}' not found"),
    "MISSING_OPEN_PERFORMER_FILE": ("ERROR", "{}/{} is expected from open performers but not found"),
    "MISSING_REQUIRED_CLAIM_FIELD": ("ERROR", "Claim {} (required for {} KBs) missing in claim {}"),
    "MULTIPLE_CLAIM_RANKS": ("ERROR", "Multiple ranks found for claim {}"),
    "MULTIPLE_DATES": ("WARNING", "Multiple dates on claim {} - {} - {} - {}"),
    "MULTIPLE_DOCUMENTS": ("ERROR", "Multiple documents in response: '{}', '{}'"),
    "MULTIPLE_METATYPES": ("ERROR", "Multiple metatypes '{}' and '{} for '{}'"),
    "NEGATIVE_NUMBER": ("ERROR", "'{}' is negative, expecting non-negative"),
    "NOTHING_TO_SCORE": ("ERROR", "Nothing to score."),
    "NO_TEMPORAL_CONSTRAINT": ("INFO", "Gold cluster {} in document {} has no temporal constraint"),
    "PARENT_CHILD_RELATION_FAILURE": ("ERROR", "'{}' is not a child of '{}'"),
    "SPAN_OFF_BOUNDARY_CORRECTED": (
        "WARNING",
        "Correcting span '{}' to '{}' because it is outside the boundary '{}' of document element '{}'",
    ),
    "SPAN_OFF_BOUNDARY_ERROR": (
        "ERROR",
        "Cannot correct therefore removing span '{}' because it is outside the boundary '{}' of document element '{}'",
    ),
    "START_BIGGER_THAN_END": ("ERROR", "'{}' is bigger than '{}' in '{}'"),
    "UNEXPECTED_CLAIM_ID": ("ERROR", "Unexpected claim ID '{}' (expected '{}')"),
    "UNEXPECTED_CLAIM_VALUE": ("ERROR", "Unexpected {} '{}' for claim {}"),
    "UNEXPECTED_DOCUMENT": ("ERROR", "Unexpected document (expected '{}', provided '{})"),
    "UNEXPECTED_NUM_CLAIM_COMPONENT_QNODE_TYPES": (
        "WARNING",
        "Unexpected number of claim component QNode types for {} (provided: {}, expected <= {}); removing extra types",
    ),
    "UNEXPECTED_VALUE": ("ERROR", "Unexpected {}: {}"),
    "UNKNOWN_CLAIM_CONDITION": ("ERROR", "Unknown claim condition '{}'"),
    "UNKNOWN_CLAIM_ID": ("ERROR", "Unknown claim ID '{}'"),
    "UNKNOWN_CLAIM_QUERY_TOPIC_OR_CLAIM_FRAME_ID": ("ERROR", "Unknown {} '{}'"),
    "UNKNOWN_ITEM": ("ERROR", "Unknown {} '{}' in response"),
    "UNKNOWN_MODALITY": ("ERROR", "Unknown modality for document element '{}'"),
    "UNKNOWN_RESPONSE_FILE_TYPE": ("ERROR", "Type cannot be determined for file: {}"),
    "UNKNOWN_VALUE": ("ERROR", "Unknown {} '{}' (expected one from {{{}}})"),
}
# aifcheck's events where NIST's Validator stops with a traceback on a span it means to reject:
# NIST's log specification lacks them
STOPS: dict[str, tuple[str, str]] = {
    "NOT_A_NUMBER": ("ERROR", "'{}' is not a number"),
    "NO_BOUNDARY": ("ERROR", "No {} boundary for document element '{}' in the AUX data"),
    "BOUNDARY_NOT_A_NUMBER": ("ERROR", "The {} boundary of document element '{}' in the AUX data is not numbers"),
}
_EVENTS = {**SPECS, **STOPS}


@dataclass(frozen=True)
class Event:
    level: str  # INFO, WARNING or ERROR
    code: str
    message: str  # "<class> - <code> - <message>", what NIST logs each distinct one of once
    where: Where | str | None  # the row it is about ("FILE:LINE")
    when: str

    @property
    def text(self) -> str:
        """The message and its row: what the event's line in NIST's log holds after its level."""
        return self.message if self.where is None else f"{self.message} at {self.where}"


@dataclass(frozen=True)
class Where:
    """A row of an input file, as NIST names it in its log ("at FILE:LINE")."""

    path: str
    line: int

    def __str__(self) -> str:
        return f"{self.path}:{self.line}"


class EventLog:
    """The events of one NIST stage (one log file), each distinct message once."""

    def __init__(self, program: str) -> None:
        self.program = program
        self.events: list[Event] = []
        self._seen: set[str] = set()

    def begin(self, arguments: str, current_dir: str) -> None:
        """The line NIST's logger opens every log with."""
        text = f"Execution begins {{current_dir:{current_dir}, script_name:{self.program}, arguments:{arguments}}}"
        self.events.append(Event("INFO", "", text, None, _now()))

    def info(self, text: str) -> None:
        self.record("DEFAULT_INFO", text)

    def record(self, code: str, *args: object, where: Where | str | None = None, source: str = "NO_CLASS_NAME") -> None:
        level, template = _EVENTS[code]
        message = f"{source} - {code} - {template.format(*args)}"
        if message in self._seen:
            return
        self._seen.add(message)
        self.events.append(Event(level, code, message, where, _now()))

    def extend(self, events: Iterable[Event]) -> None:
        """Log events of another log here, each distinct message once (NIST re-reads the same files
        in a later stage; a run's documents are scored apart)."""
        for event in events:
            if event.message not in self._seen:
                self._seen.add(event.message)
                self.events.append(event)

    def count(self, level: str) -> int:
        return sum(event.level == level for event in self.events)

    @property
    def errors(self) -> int:
        return self.count("ERROR")

    @property
    def warnings(self) -> int:
        return self.count("WARNING")

    def error_classes(self) -> list[str]:
        """The key NIST's TA1 driver counts each line of this log holding "ERROR" under in results.json
        (its "Errors" and "ErrorStats"), from the events as aifcheck.render.logs prints them: a line
        is ``DATE - PROGRAM - LEVEL - TEXT``, an event's text may hold line breaks (a value read from
        a file), and the driver keys a line by its fourth '-'-separated field."""
        found = []
        for event in self.events:
            first, *more = _file_lines(event.text)
            # the separators " - " cannot be part of "ERROR", nor of a field: each part is looked at alone
            parts = (event.when, self.program, event.level, first)
            if any("ERROR" in part for part in parts):
                found.append([field for part in parts for field in part.split("-")][3].strip())
            found += [_key(line) for line in more if "ERROR" in line]
        return found


def _file_lines(text: str) -> list[str]:
    """A log's lines as NIST's driver reads them (Python's text mode): \\r\\n, \\r and \\n end a line."""
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def _key(line: str) -> str:
    """A line's fourth '-'-separated field (NIST's driver stops on a line with fewer: the whole line)."""
    fields = line.split("-")
    return fields[3].strip() if len(fields) > 3 else line.strip()


def _now() -> str:
    return time.strftime("%m/%d/%Y %I:%M:%S %p")
