"""Reading the shape files of shapes/ into the rule catalogue, with rdflib (slow to import: only
when the shipped catalogue does not fit the shapes, or when it is built for shipping)."""

from __future__ import annotations

import rdflib
from rdflib import RDF, RDFS, Literal, Namespace

from aifcheck.validation.catalog import Catalog, Constraint, Profile, Rule, Severity, Target, read_vocabulary, sort_key
from aifcheck.validation.engine.compile import check_hints

SH = Namespace("http://www.w3.org/ns/shacl#")
AIFC = Namespace("https://aifcheck.org/ns#")
_SEVERITY_OF_SHACL = {SH.Violation: Severity.ERROR, SH.Warning: Severity.WARNING, SH.Info: Severity.INFO}


def build_catalog(texts: dict[str, str], fingerprint: str = "") -> Catalog:
    """The catalogue of the shape files' texts (file name -> Turtle); ValueError for shapes that
    define a rule twice or hint what the fast executor cannot do (engine.compile.check_hints)."""
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
    catalog = Catalog(profiles, rules, _declared_prefixes(shapes), fingerprint)
    check_hints(catalog)
    return catalog


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
        common = {
            "id": rule_id,
            "profile": profile,
            "title": _text(graph, node, RDFS.label),
            "text": _text(graph, node, RDFS.comment),
            "plan_ref": _text(graph, node, AIFC.planRef),
        }
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
            Constraint(
                str(graph.value(c, SH.select)),
                str(graph.value(c, SH.message) or ""),
                targets_last=graph.value(c, AIFC.targetsLast) == Literal(True),
                anti_join=graph.value(c, AIFC.antiJoin) == Literal(True),
            )
            for c in sorted(graph.objects(node, SH.sparql), key=lambda c: str(graph.value(c, SH.select)))
        )
        targets = tuple(
            Target(kind, str(term))
            for kind, prop in (
                ("class", SH.targetClass),
                ("node", SH.targetNode),
                ("subjectsOf", SH.targetSubjectsOf),
                ("objectsOf", SH.targetObjectsOf),
            )
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
