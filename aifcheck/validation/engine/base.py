"""What every executor takes and yields."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Protocol

from aifcheck.loading.kb import KB
from aifcheck.loading.lines import Term
from aifcheck.validation.catalog import Catalog, Rule


@dataclass(frozen=True)
class RawResult:
    """A SHACL validation result before it is located and stamped with the rule's metadata."""

    rule_id: str
    constraint: int  # which of the rule's constraints found it (its index in Rule.constraints)
    focus: Term
    value: Term | None
    message: str


@dataclass(frozen=True)
class RuleFailure:
    """A rule whose check crashed on this file; reported as an internal error under its ID."""

    rule_id: str
    message: str


class Executor(Protocol):
    name: str

    def run(
        self, kb: KB, rules: list[Rule], catalog: Catalog, progress: Callable[[int, int], None] | None = None
    ) -> Iterator[RawResult | RuleFailure]:
        """Yield results rule by rule, in the order of ``rules``; ``progress(done, total)`` may
        be told of the checks done so far."""
        ...


_PLACEHOLDER = re.compile(r"\{[?$]([A-Za-z_][A-Za-z0-9_]*)\}")


def fill_message(template: str, bindings: Mapping[str, str]) -> str:
    """SHACL-SPARQL message templates: {?var} and {$var} take the variable's value."""
    return _PLACEHOLDER.sub(lambda m: bindings.get(m[1], "(none)"), template)
