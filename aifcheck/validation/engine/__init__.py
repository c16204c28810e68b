"""Executors of the rule shapes: one interface, two implementations that must agree.

- ``fast``: each rule's SPARQL constraints compiled to whole-graph queries on pyoxigraph.
- ``reference``: pySHACL over rdflib, the SHACL reference semantics.
"""

from __future__ import annotations

from aifcheck.choices import choose
from aifcheck.validation.engine.base import Executor, RawResult, RuleFailure

ENGINES = ("fast", "reference")


def get_executor(name: str, threads: int | None = None) -> Executor:
    """The executor called ``name`` (one of ENGINES, any case); ``threads`` (fast only) run one file's
    queries, default all cores. Each is imported when chosen: the reference one imports pySHACL."""
    if choose(name, ENGINES, "engine") == "fast":
        from aifcheck.validation.engine.fast import FastExecutor

        return FastExecutor(threads)
    from aifcheck.validation.engine.reference import ReferenceExecutor

    return ReferenceExecutor()


__all__ = ["ENGINES", "Executor", "RawResult", "RuleFailure", "get_executor"]
