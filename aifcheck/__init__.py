"""aifcheck: validate and query AIDA Interchange Format (AIF) knowledge graphs.

    >>> import aifcheck
    >>> report = aifcheck.validate("kb.ttl", profile="nist")
    >>> report.conforms, [v.rule_id for v in report.violations]
    >>> kb = aifcheck.load_kb("kb.ttl")       # the file in a pyoxigraph store, with kb.line_of(node)
    >>> kg = aifcheck.load("kb.ttl")          # clusters, mentions, edges, temporal 4-tuples
    >>> frames = aifcheck.claims("run/")      # one Claim per aida:Claim
"""
from __future__ import annotations

__version__ = "0.1.0"

import importlib

# Eager: the submodule aifcheck.validate, once imported, would otherwise shadow the function.
from .validate import Options, validate  # noqa: E402

# The API, imported on first use: the command line needs only part of it, and its start-up time
# counts in every run (PEP 562).
_EXPORTS = {
    "Rule": "catalog", "Severity": "catalog", "load_catalog": "catalog",
    "claims": "claim_frames",
    "AifcheckError": "errors", "InputError": "errors", "UsageError": "errors",
    "load": "extract",
    "KB": "kb", "load_kb": "kb",
    "Claim": "model", "ClaimComponent": "model", "Cluster": "model", "Edge": "model",
    "KnowledgeGraph": "model", "LDCDate": "model", "LDCTime": "model", "Mention": "model",
    "Metatype": "model", "Span": "model",
    "ExitStatus": "report", "FileReport": "report", "Report": "report", "Violation": "report",
}
_RENAMED = {"load": "load_kg"}


def __getattr__(name: str):
    if name not in _EXPORTS:
        raise AttributeError(f"module 'aifcheck' has no attribute '{name}'")
    value = getattr(importlib.import_module(f".{_EXPORTS[name]}", __name__), _RENAMED.get(name, name))
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(list(globals()) + list(_EXPORTS))


__all__ = [
    "AifcheckError",
    "Claim",
    "ClaimComponent",
    "Cluster",
    "Edge",
    "ExitStatus",
    "FileReport",
    "InputError",
    "KB",
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
    "load_kb",
    "validate",
]
