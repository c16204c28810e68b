"""The rule catalogue, read from the shapes in shapes/ (no hand-kept lists).

Each profile file (aif.ttl, nist.ttl, ta3.ttl) declares one ``aifc:Profile`` and the rules
of that profile. A rule is one ``sh:NodeShape`` carrying ``aifc:ruleId``, ``rdfs:label``
(title), ``rdfs:comment`` (text), ``aifc:planRef``, ``sh:severity`` and one or more
``sh:sparql`` constraints, each with its ``sh:message``. Rules about a submission directory
rather than a graph are ``aifc:SubmissionRule`` resources with the same metadata; their
checks are Python (aifcheck/submission.py). Rules that RULES.md names but that have nothing
to check are ``aifc:UncheckedRule`` resources with an ``aifc:reason``.
"""
from __future__ import annotations

import enum
import hashlib
import os
import pickle
import re
from dataclasses import dataclass, field
from functools import cache, cached_property
from importlib import resources
from pathlib import Path

import rdflib
from rdflib import RDF, RDFS, Literal, Namespace, URIRef

from .errors import UsageError

SH = Namespace("http://www.w3.org/ns/shacl#")
AIFC = Namespace("https://aifcheck.org/ns#")
AIDA = Namespace(
    "https://raw.githubusercontent.com/NextCenturyCorporation/AIDA-Interchange-Format/"
    "master/java/src/main/resources/com/ncc/aif/ontologies/InterchangeOntology#"
)
RULE_ID = re.compile(r"^[ANTS]\d+[a-z]?$")


class Severity(enum.IntEnum):
    INFO = 0
    WARNING = 1
    ERROR = 2

    @property
    def label(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> Severity:
        try:
            return cls[text.upper()]
        except KeyError:
            raise UsageError(f"unknown severity '{text}' (choose error, warning or info)") from None


_SEVERITY_OF_SHACL = {SH.Violation: Severity.ERROR, SH.Warning: Severity.WARNING, SH.Info: Severity.INFO}


GROUP_CONCAT = re.compile(
    r"GROUP_CONCAT\((?:(?!GROUP_CONCAT).)*?separator\s*=\s*([\"'])(?P<sep>.*?)\1\s*\)\s*AS\s*\?(?P<var>\w+)",
    re.IGNORECASE | re.DOTALL,
)


@dataclass(frozen=True)
class Constraint:
    """One SPARQL-based constraint of a rule: its SELECT and the message template."""

    node: rdflib.term.Node
    select: str
    message: str
    # a hint to the fast executor: test each solution's $this against the targets after the body,
    # instead of enumerating the targets first (for selective bodies that bind $this)
    targets_last: bool = False

    @cached_property  # read for every result row: scan the SELECT once
    def lists(self) -> tuple[tuple[str, str], ...]:
        """(variable, separator) of each GROUP_CONCAT in the SELECT: engines join in any order."""
        return tuple((m["var"], m["sep"]) for m in GROUP_CONCAT.finditer(self.select))


@dataclass(frozen=True)
class Target:
    """A SHACL target of a rule shape: kind is class, node, subjectsOf or objectsOf."""

    kind: str
    term: URIRef


@dataclass(frozen=True)
class Rule:
    id: str
    profile: str
    severity: Severity
    title: str
    text: str
    plan_ref: str
    shape: URIRef | None = None
    targets: tuple[Target, ...] = ()
    constraints: tuple[Constraint, ...] = ()
    task: str | None = None  # only checked when validating for this task (e.g. "ta2")
    skip_conditions: frozenset[int] = frozenset()  # TA3 conditions where the rule does not apply
    unchecked_reason: str | None = None
    kind: str = "shape"  # "shape" (SHACL-SPARQL), "submission" (a directory check) or "unchecked"

    @property
    def checked(self) -> bool:
        return self.kind != "unchecked"

    @property
    def family(self) -> str:
        """N13a -> N13: the ID that selects a rule together with its lettered siblings."""
        return self.id.rstrip("abcdefghijklmnopqrstuvwxyz")


@dataclass(frozen=True)
class Profile:
    name: str
    parent: str | None
    file: str
    excludes: frozenset[str] = frozenset()


@dataclass
class Catalog:
    profiles: dict[str, Profile]
    rules: dict[str, Rule]  # in file order: aif, nist, ta3
    shape_texts: dict[str, str] = field(repr=False)  # file name -> Turtle
    prefixes: dict[str, str] = field(default_factory=dict)

    @cached_property
    def shapes(self) -> rdflib.Graph:
        """Every shape file in one graph, for pySHACL (the fast executor reads the rules only)."""
        graph = rdflib.Graph()
        for text in self.shape_texts.values():
            graph.parse(data=text, format="turtle")
        return graph

    def profile_chain(self, name: str) -> list[Profile]:
        if name not in self.profiles:
            raise UsageError(f"unknown profile '{name}' (choose {', '.join(self.profiles)})")
        chain = []
        current: str | None = name
        while current is not None:
            chain.append(self.profiles[current])
            current = self.profiles[current].parent
        return chain[::-1]

    def rules_for(self, profile: str) -> list[Rule]:
        """All rules a profile runs: its own and its ancestors', minus what it excludes."""
        chain = self.profile_chain(profile)
        names = {p.name for p in chain}
        excluded = set().union(*(p.excludes for p in chain))
        return [r for r in self.rules.values() if r.profile in names and r.id not in excluded]

    def resolve(self, ids: list[str]) -> set[str]:
        """Rule IDs named by the user; a bare family (N13) also names N13a, N13b, ...

        A single letter (A, N, T, S) names the whole group. Unknown IDs are usage errors.
        """
        chosen: set[str] = set()
        for raw in ids:
            for ident in filter(None, (part.strip() for part in raw.split(","))):
                hits = {
                    r.id
                    for r in self.rules.values()
                    if r.id == ident or r.family == ident or (len(ident) == 1 and r.id[0] == ident)
                }
                if not hits:
                    raise UsageError(f"unknown rule ID '{ident}' (see 'aifcheck rules')")
                chosen |= hits
        return chosen

    def get(self, rule_id: str) -> Rule:
        try:
            return self.rules[rule_id]
        except KeyError:
            raise UsageError(f"unknown rule ID '{rule_id}' (see 'aifcheck rules')") from None


PROFILE_FILES = ("aif.ttl", "nist.ttl", "ta3.ttl", "submission.ttl")


@cache
def load_catalog() -> Catalog:
    """Read every profile file shipped in shapes/ (installed as aifcheck.shapes).

    rdflib takes about a tenth of a second to parse the shapes, a fifth of a small file's whole
    run, so the catalogue built from them is kept in a cache file named by a hash of the shape
    files and of this module: an edit to either builds it afresh. A cache that cannot be read
    or written is only skipped.
    """
    base = resources.files("aifcheck.shapes")
    texts = {name: (base / name).read_text(encoding="utf-8") for name in PROFILE_FILES if (base / name).is_file()}
    digest = hashlib.sha256(repr((sorted(texts.items()), Path(__file__).read_bytes())).encode()).hexdigest()[:20]
    cached = _cache_dir() / f"catalog-{digest}.pickle"
    try:
        return pickle.loads(cached.read_bytes())
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError, TypeError):
        pass
    catalog = _build_catalog(texts)
    try:
        cached.parent.mkdir(parents=True, exist_ok=True)
        partial = cached.with_name(f"{cached.name}.{os.getpid()}")
        partial.write_bytes(pickle.dumps(catalog, protocol=pickle.HIGHEST_PROTOCOL))
        os.replace(partial, cached)  # atomic: parallel runs never read a half-written file
    except OSError:
        pass
    return catalog


def _cache_dir() -> Path:
    if os.environ.get("AIFCHECK_CACHE_DIR"):
        return Path(os.environ["AIFCHECK_CACHE_DIR"])
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "aifcheck"


def _build_catalog(texts: dict[str, str]) -> Catalog:
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
    for rule in rules.values():
        for constraint in rule.constraints:
            if constraint.targets_last and not binds_this(constraint.select, prefixes):
                # the fast executor would filter the body's solutions by the targets and lose
                # the violations of solutions that leave $this unbound
                raise ValueError(f"{rule.id}: aifc:targetsLast on a constraint whose body does not always bind $this")
    return Catalog(profiles, rules, texts, prefixes)


def binds_this(select: str, prefixes: dict[str, str]) -> bool:
    """Whether every solution of the SELECT's pattern binds $this: the condition for aifc:targetsLast
    (the targets then filter solutions instead of producing the focus nodes)."""
    from rdflib.plugins.sparql import prepareQuery  # slow to import: only when the catalogue is built

    return _certainly_binds(prepareQuery(select, initNs=prefixes).algebra["p"], rdflib.Variable("this"))


def _certainly_binds(node, var: rdflib.Variable) -> bool:
    name = getattr(node, "name", None)
    if name == "BGP":
        return any(var in triple for triple in node["triples"])
    if name == "Join":
        return _certainly_binds(node["p1"], var) or _certainly_binds(node["p2"], var)
    if name == "Union":
        return _certainly_binds(node["p1"], var) and _certainly_binds(node["p2"], var)
    if name in ("LeftJoin", "Minus"):
        return _certainly_binds(node["p1"], var)
    if name in ("Filter", "Extend", "Project", "Distinct", "Reduced", "OrderBy", "Slice", "Group", "AggregateJoin"):
        return _certainly_binds(node["p"], var)
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
    ordered = sorted(graph.subject_objects(AIFC.ruleId), key=lambda so: _sort_key(str(so[1])))
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
            Constraint(c, str(graph.value(c, SH.select)), str(graph.value(c, SH.message) or ""),
                       targets_last=graph.value(c, AIFC.targetsLast) == Literal(True))
            for c in sorted(graph.objects(node, SH.sparql), key=lambda c: str(graph.value(c, SH.select)))
        )
        targets = tuple(
            Target(kind, term)
            for kind, prop in (("class", SH.targetClass), ("node", SH.targetNode),
                               ("subjectsOf", SH.targetSubjectsOf), ("objectsOf", SH.targetObjectsOf))
            for term in sorted(graph.objects(node, prop))
        )
        task = graph.value(node, AIFC.task)
        skip = frozenset(int(c) for c in graph.objects(node, AIFC.notForCondition))
        yield Rule(
            severity=severity,
            shape=node,
            targets=targets,
            constraints=constraints,
            task=str(task) if task is not None else None,
            skip_conditions=skip,
            **common,
        )


def _sort_key(rule_id: str) -> tuple:
    match = re.match(r"^([A-Z])(\d+)([a-z]?)$", rule_id)
    if not match:
        return (rule_id, 0, "")
    return (match[1], int(match[2]), match[3])


def _declared_prefixes(shapes: rdflib.Graph) -> dict[str, str]:
    """The sh:declare prefixes of the shapes, used by every SPARQL constraint."""
    prefixes = {}
    for decl in shapes.objects(None, SH.declare):
        prefixes[str(shapes.value(decl, SH.prefix))] = str(shapes.value(decl, SH.namespace))
    return prefixes
