"""Building the rule catalogue from the shape files (with rdflib), when they have changed since
the cached one (aifcheck.catalog.load_catalog)."""
from __future__ import annotations

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


def _certainly_matched(node, test: Callable[[tuple], bool]) -> bool:
    name = getattr(node, "name", None)
    if name == "BGP":
        return any(test(triple) for triple in node["triples"])
    if name == "Join":
        return _certainly_matched(node["p1"], test) or _certainly_matched(node["p2"], test)
    if name == "Union":
        return _certainly_matched(node["p1"], test) and _certainly_matched(node["p2"], test)
    if name in ("LeftJoin", "Minus"):
        return _certainly_matched(node["p1"], test)
    if name in ("Filter", "Extend", "Project", "Distinct", "Reduced", "OrderBy", "Slice", "Group", "AggregateJoin"):
        return _certainly_matched(node["p"], test)
    return False  # sub-selects, VALUES, GRAPH, paths: not looked into


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
                       targets_last=graph.value(c, AIFC.targetsLast) == Literal(True))
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
