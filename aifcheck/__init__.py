"""aifcheck: validate and query AIDA Interchange Format (AIF) knowledge graphs.

    >>> import aifcheck
    >>> report = aifcheck.validate("kb.ttl", profile="nist")
    >>> report.conforms, [v.rule_id for v in report.violations]
    >>> kg = aifcheck.load("kb.ttl")          # clusters, mentions, edges, temporal 4-tuples
    >>> frames = aifcheck.claims("run/")      # one Claim per aida:Claim
"""
from __future__ import annotations

__version__ = "0.1.0"

from .catalog import Rule, Severity, load_catalog  # noqa: E402
from .claim_frames import claims  # noqa: E402
from .errors import AifcheckError, InputError, UsageError  # noqa: E402
from .extract import load_kg as load  # noqa: E402
from .model import (  # noqa: E402
    Claim,
    ClaimComponent,
    Cluster,
    Edge,
    KnowledgeGraph,
    LDCDate,
    LDCTime,
    Mention,
    Metatype,
    Span,
)
from .report import ExitStatus, FileReport, Report, Violation  # noqa: E402
from .validate import Options, validate  # noqa: E402

__all__ = [
    "AifcheckError",
    "Claim",
    "ClaimComponent",
    "Cluster",
    "Edge",
    "ExitStatus",
    "FileReport",
    "InputError",
    "KnowledgeGraph",
    "LDCDate",
    "LDCTime",
    "Mention",
    "Metatype",
    "Options",
    "Report",
    "Rule",
    "Severity",
    "Span",
    "UsageError",
    "Violation",
    "claims",
    "load",
    "load_catalog",
    "validate",
]
