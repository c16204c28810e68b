"""aifcheck: validate and query AIDA Interchange Format (AIF) knowledge graphs.

>>> import aifcheck
>>> report = aifcheck.validate("kb.ttl", profile="nist")
>>> report.conforms, [v.rule_id for v in report.violations]
>>> kb = aifcheck.load_kb("kb.ttl")       # the file in a pyoxigraph store, with kb.line_of(node)
>>> kg = aifcheck.load("kb.ttl")          # clusters, mentions, edges, temporal 4-tuples
>>> table = aifcheck.query("kb.ttl", "AIDA_P3_TA1_CM_A0001")  # a NIST table's rows, as RDF terms
>>> frames = aifcheck.claims("run/")      # one Claim per aida:Claim
"""

from __future__ import annotations

import importlib

from aifcheck.version import __version__ as __version__

# The API, the one list of it: each name and the module it comes from, imported on first use (the
# command line needs only part of it, and its start-up time counts in every run: PEP 562).
_EXPORTS = {
    "Options": "validation.run",
    "validate": "validation.run",
    "Rule": "validation.catalog",
    "Severity": "validation.report",
    "load_catalog": "validation.shapes",
    "claims": "extract.claims",
    "query": "extract.query",
    "Table": "extract.query",
    "AifcheckError": "errors",
    "InputError": "errors",
    "UsageError": "errors",
    "load": "extract.kg",
    "KB": "loading.kb",
    "load_kb": "loading.kb",
    "score_ta1": "score.ta1",
    "TA1Scores": "score.ta1",
    "TA1Settings": "score.ta1",
    "score_ta2": "score.ta2",
    "TA2Scores": "score.ta2",
    "score_ta3": "score.ta3.scorer",
    "TA3Scores": "score.ta3.scorer",
    "score_crux_claims": "score.crux.claims",
    "score_crux_relations": "score.crux.relations",
    "Claim": "extract.model",
    "ClaimComponent": "extract.model",
    "Cluster": "extract.model",
    "Edge": "extract.model",
    "KnowledgeGraph": "extract.model",
    "LDCDate": "extract.model",
    "LDCTime": "extract.model",
    "Mention": "extract.model",
    "Metatype": "extract.model",
    "Span": "extract.model",
    "SpanKind": "extract.model",
    "Frame": "extract.model",
    "ExitStatus": "errors",
    "FileReport": "validation.report",
    "Report": "validation.report",
    "Violation": "validation.report",
}
_RENAMED = {"load": "load_kg", "score_crux_claims": "score_claims", "score_crux_relations": "score_relations"}


def __getattr__(name: str):
    if name not in _EXPORTS:
        raise AttributeError(f"module 'aifcheck' has no attribute '{name}'")
    value = getattr(importlib.import_module(f".{_EXPORTS[name]}", __name__), _RENAMED.get(name, name))
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(list(globals()) + list(_EXPORTS))


__all__ = sorted(_EXPORTS)
