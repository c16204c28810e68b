"""Executors of the rule shapes: one interface, two implementations that must agree.

- ``fast``: each rule's SPARQL constraints compiled to whole-graph queries on pyoxigraph.
- ``reference``: pySHACL over rdflib, the SHACL reference semantics.
"""
from __future__ import annotations

from .base import Executor, RawResult, RuleFailure


def get_executor(name: str, threads: int | None = None) -> Executor:
    """The executor called ``name``; ``threads`` (fast only) run one file's queries, default all cores."""
    from ...errors import UsageError

    if name == "fast":
        from .fast import FastExecutor

        return FastExecutor(threads)
    if name == "reference":
        from .reference import ReferenceExecutor

        return ReferenceExecutor()
    raise UsageError(f"unknown engine '{name}' (choose fast or reference)")


__all__ = ["Executor", "RawResult", "RuleFailure", "get_executor"]
