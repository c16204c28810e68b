"""The reference executor: pySHACL over rdflib, running the shapes exactly as written."""
from __future__ import annotations

from collections.abc import Iterator

import pyshacl
import rdflib
from rdflib import RDF

from ..catalog import SH, Catalog, Rule
from ..load import LoadedGraph
from .base import RawResult, RuleFailure


class ReferenceExecutor:
    name = "reference"

    def run(self, loaded: LoadedGraph, rules: list[Rule], catalog: Catalog) -> Iterator[RawResult | RuleFailure]:
        try:
            results = self._validate(loaded.graph, rules, catalog)
        except Exception:  # noqa: BLE001 - isolate the rule that crashes, then report it alone
            results = []
            for rule in rules:
                try:
                    results.extend(self._validate(loaded.graph, [rule], catalog))
                except Exception as exc:  # noqa: BLE001 - any pySHACL failure becomes that rule's internal error
                    yield RuleFailure(rule.id, f"check failed: {type(exc).__name__}: {exc}")
        order = {rule.id: i for i, rule in enumerate(rules)}
        yield from sorted(results, key=lambda r: order[r.rule_id])

    @staticmethod
    def _validate(data: rdflib.Graph, rules: list[Rule], catalog: Catalog) -> list[RawResult]:
        shapes = rdflib.Graph()
        shapes += catalog.shapes
        active = {rule.shape: rule.id for rule in rules if rule.shape is not None}
        for shape in set(catalog.shapes.subjects(SH.sparql, None)) - set(active):
            shapes.add((shape, SH.deactivated, rdflib.Literal(True)))
        _, report, _ = pyshacl.validate(
            data, shacl_graph=shapes, advanced=True, allow_warnings=True, allow_infos=True, inference="none"
        )
        results = []
        for result in report.subjects(RDF.type, SH.ValidationResult):
            rule_id = active.get(report.value(result, SH.sourceShape))
            if rule_id is None:
                continue
            results.append(
                RawResult(
                    rule_id,
                    report.value(result, SH.focusNode),
                    report.value(result, SH.value),
                    str(report.value(result, SH.resultMessage) or ""),
                )
            )
        return results
