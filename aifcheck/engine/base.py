"""What every executor yields."""
from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Protocol

from rdflib.term import Node

from ..catalog import Catalog, Rule
from ..indexed import IndexedStore
from ..parsing import LoadedGraph

Loaded = LoadedGraph | IndexedStore  # a file as an rdflib Graph, or as a pyoxigraph store


@dataclass(frozen=True)
class RawResult:
    """A SHACL validation result before it is located and stamped with the rule's metadata."""

    rule_id: str
    focus: Node
    value: Node | None
    message: str


@dataclass(frozen=True)
class RuleFailure:
    """A rule whose check crashed on this file; reported as an internal error under its ID."""

    rule_id: str
    message: str


class Executor(Protocol):
    name: str

    def run(
        self, loaded: Loaded, rules: list[Rule], catalog: Catalog, progress: Callable[[int, int], None] | None = None
    ) -> Iterator[RawResult | RuleFailure]:
        """Yield results rule by rule, in the order of ``rules``; ``progress(done, total)`` may
        be told of the checks done so far."""
        ...


_PLACEHOLDER = re.compile(r"\{[?$]([A-Za-z_][A-Za-z0-9_]*)\}")


def fill_message(template: str, bindings: Mapping[str, str]) -> str:
    """SHACL-SPARQL message templates: {?var} and {$var} take the variable's value."""
    return _PLACEHOLDER.sub(lambda m: bindings.get(m[1], "(none)"), template)
