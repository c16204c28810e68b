"""What a SPARQL constraint's pattern guarantees, read from rdflib's algebra: whether every
solution binds $this, whether its body implies its rule's targets, and whether a MINUS could find
other solutions than its FILTER NOT EXISTS. Used to compile the fast executor's queries and to
check the shapes' hints; rdflib is slow to import, so only when they are built."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

from rdflib import RDF, URIRef, Variable
from rdflib.plugins.sparql import prepareQuery

from aifcheck.validation.catalog import Target
from aifcheck.validation.engine.sparql_text import anti_joins, holds_exists

THIS = Variable("this")


def binds_this(select: str, prefixes: dict[str, str]) -> bool:
    """Whether every solution of the SELECT's pattern binds $this: the condition for aifc:targetsLast
    (the targets then filter solutions instead of producing the focus nodes)."""
    return _every_solution_matches(select, prefixes, lambda triple: THIS in triple)


def implies_targets(select: str, targets: tuple[Target, ...], prefixes: dict[str, str]) -> bool:
    """Whether every solution of the SELECT's pattern puts $this among the targets, by a triple
    pattern a target matches: ``$this rdf:type C`` for a target class C (a subclass of C would not
    do), ``$this P ?x`` for subjects of P, ``?x P $this`` for objects of P. Joining the targets to
    such a body changes none of its solutions."""
    kinds = {(t.kind, URIRef(t.term)) for t in targets}

    def targeted(triple: tuple) -> bool:
        subject, predicate, obj = triple
        return (
            (subject == THIS and predicate == RDF.type and ("class", obj) in kinds)
            or (subject == THIS and ("subjectsOf", predicate) in kinds)
            or (obj == THIS and ("objectsOf", predicate) in kinds)
        )

    return _every_solution_matches(select, prefixes, targeted)


def _every_solution_matches(select: str, prefixes: dict[str, str], test: Callable[[tuple], bool]) -> bool:
    """Whether every solution of the SELECT's pattern comes from a triple pattern that passes ``test``."""
    return _certainly_matched(_pattern(select, tuple(sorted(prefixes.items()))), test)


@functools.lru_cache(maxsize=4096)
def _pattern(query: str, prefixes: tuple[tuple[str, str], ...] = ()):
    """The query's algebra pattern, read once: rdflib's parser is slow,
    and building the catalogue asks about each constraint several times (never changing the tree)."""
    return prepareQuery(query, initNs=dict(prefixes)).algebra["p"]


def anti_join_problem(query: str) -> str | None:
    """Why the fast executor's MINUS for the query's FILTER NOT EXISTS (engine.fast.anti_joins) could
    find other solutions, or None. MINUS removes a solution when a match of the pattern, found
    alone, shares a bound variable with it and agrees there; NOT EXISTS when a match agrees with it.
    So every solution of the filtered group must bind a variable of the pattern, and the pattern
    may test no variable that its own triple patterns leave unbound (nor hold an EXISTS, whose
    pattern rdflib does not show). A NOT EXISTS that the algebra does not show as a FILTER of a
    group (in an OPTIONAL, say) is refused too."""
    moved = anti_joins(query)[1]
    header = _PREFIXES.match(query)[0]
    for pattern in moved:
        if holds_exists(pattern):
            return "holds an EXISTS of its own"
        alone = _pattern(f"{header}SELECT * WHERE {pattern}")
        if not all(_binds(alone, variable) for variable in _variables(alone)):
            return "tests a variable that its own triple patterns do not bind"
    found = 0
    for node in _patterns(_pattern(query)):
        if node.name != "Filter":
            continue
        for conjunct in _conjuncts(node["expr"]):
            if getattr(conjunct, "name", None) == "Builtin_NOTEXISTS":
                found += 1
                if not any(_binds(node["p"], variable) for variable in _variables(conjunct["graph"])):
                    return "shares no variable that every solution binds"
    if found != len(moved):
        return "is not a FILTER of a group (in an OPTIONAL, say)"
    return None


_PREFIXES = re.compile(r"(?:\s*PREFIX\s+[^\s:]*:\s*<[^>]*>)*\s*", re.IGNORECASE)


def _patterns(node):
    """The algebra's graph patterns, sub-selects included (not those of EXISTS, which are expressions)."""
    yield node
    for key in ("p", "p1", "p2"):
        child = node.get(key) if hasattr(node, "get") else None
        if getattr(child, "name", None):
            yield from _patterns(child)


def _conjuncts(expr) -> list:
    if getattr(expr, "name", None) == "ConditionalAndExpression":
        return [part for each in (expr["expr"], *expr["other"]) for part in _conjuncts(each)]
    return [expr]


def _parts(value):
    """Every value inside a parse tree or algebra node, at any depth."""
    if isinstance(value, dict):
        for item in value.values():
            yield item
            yield from _parts(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield item
            yield from _parts(item)


def _variables(pattern) -> set[Variable]:
    return {part for part in _parts(pattern) if isinstance(part, Variable)}


def _binds(node, variable: Variable) -> bool:
    """Whether every solution of the pattern binds the variable (by a triple pattern, or a sub-select
    that projects it)."""
    return _certainly_matched(node, lambda triple: variable in triple, variable)


def _certainly_matched(node, test: Callable[[tuple], bool], variable: Variable = THIS) -> bool:
    """Whether every solution of the pattern comes from a triple pattern that passes ``test`` and
    binds ``variable`` (which a projection or a grouping must then keep)."""
    name = getattr(node, "name", None)
    if name == "BGP":
        return any(test(triple) for triple in node["triples"])
    if name == "Join":
        return _certainly_matched(node["p1"], test, variable) or _certainly_matched(node["p2"], test, variable)
    if name == "Union":
        return _certainly_matched(node["p1"], test, variable) and _certainly_matched(node["p2"], test, variable)
    if name in ("LeftJoin", "Minus"):
        return _certainly_matched(node["p1"], test, variable)
    if name == "Project":  # the query's own, or a sub-select's
        return variable in node["PV"] and _certainly_matched(node["p"], test, variable)
    if name == "Group":
        return variable in (node["expr"] or ()) and _certainly_matched(node["p"], test, variable)
    if name in ("Filter", "Extend", "Distinct", "Reduced", "OrderBy", "Slice", "AggregateJoin", "ToMultiSet"):
        return _certainly_matched(node["p"], test, variable)
    return False  # VALUES (may be UNDEF), GRAPH, paths: not looked into
