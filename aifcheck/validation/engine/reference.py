"""The reference executor: pySHACL over rdflib, running the shapes exactly as written, on an
rdflib copy of the KB's store."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import lru_cache

import pyshacl
import rdflib
from pyshacl.helper.sparql_query_helper import SPARQLQueryHelper
from rdflib import RDF
from rdflib.plugins.sparql.algebra import translateQuery
from rdflib.plugins.sparql.parser import parseQuery
from rdflib.plugins.sparql.processor import SPARQLProcessor

from aifcheck.loading.kb import KB
from aifcheck.loading.terms import RdflibView, quiet_rdflib
from aifcheck.validation.catalog import Catalog, Rule, shapes_folder
from aifcheck.validation.engine.base import RawResult, RuleFailure

SH = rdflib.Namespace("http://www.w3.org/ns/shacl#")


@lru_cache(maxsize=4)
def shapes_graph(files: tuple[str, ...]) -> rdflib.Graph:
    """The shape files of shapes/ in one rdflib Graph, as pySHACL reads them."""
    graph = rdflib.Graph()
    for name in files:
        graph.parse(shapes_folder() / name, format="turtle")
    return graph


@lru_cache(maxsize=16)
def _active_shapes(files: tuple[str, ...], active: frozenset[rdflib.URIRef]) -> rdflib.Graph:
    """The shape files with every SPARQL shape but ``active`` deactivated, made once per set of
    rules (a copy of the shapes per file checked was a tenth of a small file's run); pySHACL adds
    the same two RDFS axioms to any shapes graph it is given, and nothing else."""
    shapes = rdflib.Graph()
    shapes += shapes_graph(files)
    for shape in set(shapes.subjects(SH.sparql, None)) - active:
        shapes.add((shape, SH.deactivated, rdflib.Literal(True)))
    return shapes


@lru_cache(maxsize=2048)
def _prepared(text: str, base: str | None, namespaces: tuple):
    return translateQuery(parseQuery(text), base, dict(namespaces))


class _PreparingSPARQLProcessor(SPARQLProcessor):
    """pySHACL sends each constraint's text once per focus node and rdflib re-parses it every
    time (most of the run). A prepared query is reusable with other bindings, so parse it once."""

    def query(self, strOrQuery, initBindings=None, initNs=None, base=None, DEBUG=False):  # noqa: N803 - rdflib's names
        query = strOrQuery
        if isinstance(query, str):
            query = _prepared(query, base, tuple(sorted((initNs or {}).items())))
        return super().query(query, initBindings, initNs, base, DEBUG)


_check_text = SPARQLQueryHelper.check_invalid_sparql
_checked: dict[tuple, Exception | None] = {}


def _check_text_once(self, sparql_text, valuenode=None, extravars=None):
    """pySHACL runs its regexes over a constraint's whole text once per focus node (a rule with a
    long vocabulary list doubled a KB's run), though the verdict depends on the text alone."""
    key = (sparql_text, valuenode is None, frozenset(extravars or ()))
    if key not in _checked:
        try:
            _check_text(self, sparql_text, valuenode, extravars)
            _checked[key] = None
        except Exception as exc:  # noqa: BLE001 - pySHACL's verdict on the text, given again at each call
            _checked[key] = exc
    if _checked[key] is not None:
        raise _checked[key]
    return True


@contextmanager
def queries_parsed_once() -> Iterator[None]:
    """While pySHACL runs: rdflib's SPARQL processor (looked up by name on every Graph.query, and
    pySHACL asks for "sparql") parses each query once, and pySHACL checks each text once; rdflib and
    pySHACL are left as they were after, for any other code of the process that uses them."""
    rdflib.plugin.register("sparql", rdflib.query.Processor, __name__, "_PreparingSPARQLProcessor")
    SPARQLQueryHelper.check_invalid_sparql = _check_text_once
    try:
        yield
    finally:
        SPARQLQueryHelper.check_invalid_sparql = _check_text
        rdflib.plugin.register("sparql", rdflib.query.Processor, "rdflib.plugins.sparql.processor", "SPARQLProcessor")


class ReferenceExecutor:
    name = "reference"

    def run(
        self, kb: KB, rules: list[Rule], catalog: Catalog, progress: Callable[[int, int], None] | None = None
    ) -> Iterator[RawResult | RuleFailure]:
        # pySHACL runs every shape in one call: there is no progress to tell
        found: list[RawResult | RuleFailure] = []
        with quiet_rdflib(), queries_parsed_once():
            view = RdflibView(kb.store)
            try:
                found += self._validate(view, rules, catalog)
            except Exception:  # noqa: BLE001 - isolate the rule that crashes, then report it alone
                for rule in rules:
                    try:
                        found += self._validate(view, [rule], catalog)
                    except Exception as exc:  # noqa: BLE001 - any pySHACL failure becomes that rule's internal error
                        found.append(RuleFailure(rule.id, f"check failed: {type(exc).__name__}: {exc}"))
        order = {rule.id: i for i, rule in enumerate(rules)}
        yield from sorted(found, key=lambda r: (order[r.rule_id], r.constraint if isinstance(r, RawResult) else -1))

    @staticmethod
    def _validate(view: RdflibView, rules: list[Rule], catalog: Catalog) -> list[RawResult]:
        active = {rdflib.URIRef(rule.shape): rule.id for rule in rules if rule.shape is not None}
        shapes = _active_shapes(catalog.files, frozenset(active))
        # in place: the view is this run's own copy of the store, and no shape is a SHACL rule that
        # would add to it (pySHACL otherwise copies the whole KB first)
        _, report, _ = pyshacl.validate(
            view.graph,
            shacl_graph=shapes,
            advanced=True,
            allow_warnings=True,
            allow_infos=True,
            inference="none",
            inplace=True,
        )
        by_id = {rule.id: rule for rule in rules}
        results = []
        for result in report.subjects(RDF.type, SH.ValidationResult):
            rule_id = active.get(report.value(result, SH.sourceShape))
            if rule_id is None:
                continue
            select = str(shapes.value(report.value(result, SH.sourceConstraint), SH.select))
            results.append(
                RawResult(
                    rule_id,
                    next(i for i, c in enumerate(by_id[rule_id].constraints) if c.select == select),
                    view.to_store(report.value(result, SH.focusNode)),
                    view.to_store(report.value(result, SH.value)),
                    str(report.value(result, SH.resultMessage) or ""),
                )
            )
        return results
