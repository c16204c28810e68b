"""NIST's log files (``logs/*.log`` of its TA1 and TA3 pipelines) from the events its stages logged."""

from __future__ import annotations

from aifcheck.pipeline.shared.events import EventLog


def log_text(log: EventLog) -> str:
    """The log file's content, as NIST's logger writes it: ``DATE - PROGRAM - LEVEL - TEXT`` a line
    (aifcheck.pipeline.shared.events counts its ERROR lines from the same parts)."""
    return "".join(f"{e.when} - {log.program} - {e.level} - {e.text}\n" for e in log.events)
