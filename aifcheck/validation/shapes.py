"""Building the rule catalogue from the shape files (with rdflib), when they have changed since
the cached one (aifcheck.catalog.load_catalog)."""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

import rdflib
from rdflib import RDF, RDFS, Literal, Namespace, URIRef, Variable

from .catalog import Catalog, Constraint, Profile, Rule, Severity, Target, read_vocabulary, sort_key

SH = Namespace("http://www.w3.org/ns/shacl#")
AIFC = Namespace("https://aifcheck.org/ns#")
_SEVERITY_OF_SHACL = {SH.Violation: Severity.ERROR, SH.Warning: Severity.WARNING, SH.Info: Severity.INFO}
THIS = Variable("this")


def build_catalog(texts: dict[str, str]) -> Catalog:
    shapes = rdflib.Graph()
    profiles: dict[str, Profile] = {}
    rules: dict[str, Rule] = {}
    for filename, text in texts.items():
        graph = rdflib.Graph().parse(data=text, format="turtle")
        shapes += graph
        profile = _read_profile(graph, filename)
        profiles[profile.name] = profile
        for rule in _read_rules(graph, profile.name):
            if rule.id in rules:
                raise ValueError(f"shapes/{filename}: rule ID {rule.id} is defined twice")
            rules[rule.id] = rule
    names = {str(node): str(shapes.value(node, AIFC.name)) for node in shapes.subjects(RDF.type, AIFC.Profile)}
    for name, profile in profiles.items():
        if profile.parent is not None:
            profiles[name] = Profile(profile.name, names[profile.parent], profile.file, profile.excludes)
    prefixes = _declared_prefixes(shapes)
    for rule_id, rule in rules.items():
        constraints = tuple(replace(c, implies_targets=implies_targets(c.select, rule.targets, prefixes)) for c in rule.constraints)
        for constraint in constraints:
            if constraint.targets_last and constraint.implies_targets:
                raise ValueError(f"{rule.id}: aifc:targetsLast on a constraint whose body implies its targets (the hint does nothing)")
            if constraint.targets_last and not binds_this(constraint.select, prefixes):
                # the fast executor would filter the body's solutions by the targets and lose
                # the violations of solutions that leave $this unbound
                raise ValueError(f"{rule.id}: aifc:targetsLast on a constraint whose body does not always bind $this")
        rules[rule_id] = replace(rule, constraints=constraints)
    from .engine.fast import compile_constraint

    ordered = tuple(sorted(prefixes.items()))
    for rule in rules.values():
        for constraint in rule.constraints:
            if constraint.anti_join:
                problem = anti_join_problem(compile_constraint(rule.targets, replace(constraint, anti_join=False), ordered))
                if problem:
                    raise ValueError(f"{rule.id}: aifc:antiJoin on a constraint whose FILTER NOT EXISTS {problem}")
    queries = {(rule.id, index): compile_constraint(rule.targets, constraint, ordered)
               for rule in rules.values() for index, constraint in enumerate(rule.constraints)}
    return Catalog(profiles, rules, texts, prefixes, queries)


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
    from rdflib.plugins.sparql import prepareQuery  # slow to import: only when the catalogue is built

    return _certainly_matched(prepareQuery(select, initNs=prefixes).algebra["p"], test)


def anti_join_problem(query: str) -> str | None:
    """Why the fast executor's MINUS for the query's FILTER NOT EXISTS (engine.fast.anti_joins) could
    find other solutions, or None. MINUS removes a solution when a match of the pattern, found
    alone, shares a bound variable with it and agrees there; NOT EXISTS when a match agrees with it.
    So every solution of the filtered group must bind a variable of the pattern, and the pattern
    may test no variable that its own triple patterns leave unbound (nor hold an EXISTS, whose
    pattern rdflib does not show). A NOT EXISTS that the algebra does not show as a FILTER of a
    group (in an OPTIONAL, say) is refused too."""
    from rdflib.plugins.sparql import prepareQuery

    from .engine.fast import anti_joins, holds_exists

    moved = anti_joins(query)[1]
    header = _PREFIXES.match(query)[0]
    for pattern in moved:
        if holds_exists(pattern):
            return "holds an EXISTS of its own"
        alone = prepareQuery(f"{header}SELECT * WHERE {pattern}").algebra["p"]
        if not all(_binds(alone, variable) for variable in _variables(alone)):
            return "tests a variable that its own triple patterns do not bind"
    found = 0
    for node in _patterns(prepareQuery(query).algebra["p"]):
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


def _read_profile(graph: rdflib.Graph, filename: str) -> Profile:
    nodes = list(graph.subjects(RDF.type, AIFC.Profile))
    if len(nodes) != 1:
        raise ValueError(f"shapes/{filename} must declare exactly one aifc:Profile")
    node = nodes[0]
    parent = graph.value(node, AIFC.extends)  # named in another file: resolved by IRI later
    excludes = frozenset(str(x) for x in graph.objects(node, AIFC.excludes))
    return Profile(
        name=str(graph.value(node, AIFC.name)),
        parent=str(parent) if parent is not None else None,
        file=filename,
        excludes=excludes,
    )


def _text(graph: rdflib.Graph, node, prop) -> str:
    value = graph.value(node, prop)
    return " ".join(str(value).split()) if value is not None else ""


def _read_rules(graph: rdflib.Graph, profile: str):
    ordered = sorted(graph.subject_objects(AIFC.ruleId), key=lambda so: sort_key(str(so[1])))
    for node, rule_id in ordered:
        rule_id = str(rule_id)
        common = dict(
            id=rule_id,
            profile=profile,
            title=_text(graph, node, RDFS.label),
            text=_text(graph, node, RDFS.comment),
            plan_ref=_text(graph, node, AIFC.planRef),
        )
        if (node, RDF.type, AIFC.UncheckedRule) in graph:
            yield Rule(
                severity=Severity.INFO, unchecked_reason=_text(graph, node, AIFC.reason), kind="unchecked", **common
            )
            continue
        severity = _SEVERITY_OF_SHACL.get(graph.value(node, SH.severity), Severity.ERROR)
        if (node, RDF.type, AIFC.SubmissionRule) in graph:
            yield Rule(severity=severity, kind="submission", **common)
            continue
        constraints = tuple(
            Constraint(str(graph.value(c, SH.select)), str(graph.value(c, SH.message) or ""),
                       targets_last=graph.value(c, AIFC.targetsLast) == Literal(True),
                       anti_join=graph.value(c, AIFC.antiJoin) == Literal(True))
            for c in sorted(graph.objects(node, SH.sparql), key=lambda c: str(graph.value(c, SH.select)))
        )
        targets = tuple(
            Target(kind, str(term))
            for kind, prop in (("class", SH.targetClass), ("node", SH.targetNode),
                               ("subjectsOf", SH.targetSubjectsOf), ("objectsOf", SH.targetObjectsOf))
            for term in sorted(graph.objects(node, prop))
        )
        task = graph.value(node, AIFC.task)
        skip = frozenset(int(c) for c in graph.objects(node, AIFC.notForCondition))
        vocabulary = graph.value(node, AIFC.vocabulary)
        yield Rule(
            severity=severity,
            shape=str(node),
            targets=targets,
            constraints=constraints,
            task=str(task) if task is not None else None,
            skip_conditions=skip,
            vocabulary=read_vocabulary(str(vocabulary)) if vocabulary is not None else (),
            **common,
        )


def _declared_prefixes(shapes: rdflib.Graph) -> dict[str, str]:
    """The sh:declare prefixes of the shapes, used by every SPARQL constraint."""
    prefixes = {}
    for decl in shapes.objects(None, SH.declare):
        prefixes[str(shapes.value(decl, SH.prefix))] = str(shapes.value(decl, SH.namespace))
    return prefixes
