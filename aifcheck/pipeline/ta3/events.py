"""The log of one of NIST's TA3 stages, kept by NIST's logger's rules.

NIST's logger writes ``DATE - SCRIPT - LEVEL - CLASS - CODE - MESSAGE [at FILE:LINE]``, logs each
distinct ``CLASS - CODE - MESSAGE`` once (a later event with the same text is dropped, whatever its
place), and counts the ERROR and WARNING events it logged. SPECS holds the events of NIST's log
specification that the TA3 stages can record; an event NIST's specification marks CRITICAL (NIST
stops) is an InputError raised where it happens instead.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

# code -> (level, message), as in NIST's log specification
SPECS: dict[str, tuple[str, str]] = {
    "DEFAULT_INFO": ("INFO", "{}"),
    "INVALID_DATE": ("ERROR", "Cluster {} has invalid {} {}"),
    "INVALID_DATE_RANGE": ("ERROR", "{} {} has invalid date range: {} > {}"),
    "MISSING_CLAIM_RANK": ("ERROR", "Ranking information not found for claim {}"),
    "MISSING_REQUIRED_CLAIM_FIELD": ("ERROR", "Claim {} (required for {} KBs) missing in claim {}"),
    "MULTIPLE_CLAIM_RANKS": ("ERROR", "Multiple ranks found for claim {}"),
    "UNEXPECTED_CLAIM_ID": ("ERROR", "Unexpected claim ID '{}' (expected '{}')"),
    "UNEXPECTED_CLAIM_VALUE": ("ERROR", "Unexpected {} '{}' for claim {}"),
    "UNEXPECTED_NUM_CLAIM_COMPONENT_QNODE_TYPES": (
        "WARNING", "Unexpected number of claim component QNode types for {} (provided: {}, expected <= {}); removing extra types"),
    "UNKNOWN_CLAIM_CONDITION": ("ERROR", "Unknown claim condition '{}'"),
    "UNKNOWN_CLAIM_ID": ("ERROR", "Unknown claim ID '{}'"),
    "UNKNOWN_CLAIM_QUERY_TOPIC_OR_CLAIM_FRAME_ID": ("ERROR", "Unknown {} '{}'"),
    "UNKNOWN_ITEM": ("ERROR", "Unknown {} '{}' in response"),
    "UNKNOWN_RESPONSE_FILE_TYPE": ("ERROR", "Type cannot be determined for file: {}"),
    "UNKNOWN_VALUE": ("ERROR", "Unknown {} '{}' (expected one from {{{}}})"),
}


@dataclass(frozen=True)
class Event:
    when: str  # NIST's timestamp format, %m/%d/%Y %I:%M:%S %p
    level: str
    message: str  # "CLASS - CODE - MESSAGE", or the opening "Execution begins {...}"
    where: str | None = None  # "FILE:LINE"


@dataclass
class EventLog:
    """The events of one stage, as NIST's logger keeps them for one log file."""

    program: str  # the NIST script whose log this is, as NIST names it in every line
    events: list[Event] = field(default_factory=list)
    errors: int = 0
    warnings: int = 0
    _seen: set[str] = field(default_factory=set, repr=False)

    def begin(self, arguments: str, current_dir: str) -> None:
        """The line NIST's logger opens every log with."""
        text = f"Execution begins {{current_dir:{current_dir}, script_name:{self.program}, arguments:{arguments}}}"
        self.events.append(Event(_now(), "INFO", text))

    def record(self, code: str, *args: object, where: str | None = None, source: str = "NO_CLASS_NAME") -> None:
        level, template = SPECS[code]
        message = f"{source} - {code} - {template.format(*args)}"
        if message in self._seen:
            return
        self._seen.add(message)
        self.errors += level == "ERROR"
        self.warnings += level == "WARNING"
        self.events.append(Event(_now(), level, message, where))

    def info(self, text: str) -> None:
        self.record("DEFAULT_INFO", text)

    def count(self, code: str) -> int:
        return sum(f" - {code} - " in event.message for event in self.events)


def _now() -> str:
    return time.strftime("%m/%d/%Y %I:%M:%S %p")
