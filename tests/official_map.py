"""The official AIF shapes and the map of their constraints to aifcheck's rules.

NIST's submission check is the AIF validator (``validateAIF --dwd --nist``): it runs
``dwd_aif.shacl`` and ``restricted_aif.shacl`` (``--nist-ta3`` adds
``restricted_claimframe_aif.shacl``) over the KB together with the AIF ontologies. ``aida_ontology.shacl``
is the same validator's shapes for the LDC ontology of Phases 1-2, which ``--dwd`` replaces: loaded
with ``dwd_aif.shacl`` it rejects every file of NIST's Phase 3 data (its role and type checks want
ontology classes where DWD writes strings).

``shapes/official_map.tsv`` maps every constraint those four files write (one row per constraint
parameter of a shape: a ``sh:minCount``, a ``sh:class``, a ``sh:sparql`` ...) to the aifcheck rules
that reject the same files, or says why the constraint cannot reject a file. This module reads both,
runs the official shapes with pySHACL, and makes the README tables: ``python tests/official_map.py``
prints them.
"""

from __future__ import annotations

import csv
import sys
from collections import defaultdict
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import rdflib
from rdflib import RDF, BNode, Literal, URIRef
from rdflib.collection import Collection

ROOT = Path(__file__).resolve().parents[1]
REFERENCE = ROOT.parent / "shared" / "reference" / "aif"
MAP = ROOT / "aifcheck" / "shapes" / "official_map.tsv"
FILES = ("aida_ontology.shacl", "dwd_aif.shacl", "restricted_aif.shacl", "restricted_claimframe_aif.shacl")
NIST_CHECK = ("dwd_aif.shacl", "restricted_aif.shacl")  # validateAIF --dwd --nist
ONTOLOGIES = ("InterchangeOntology", "AidaDomainOntologiesCommon")  # what the validator adds to the KB
SH = rdflib.Namespace("http://www.w3.org/ns/shacl#")

# The parameters of SHACL constraint components, and two that the files misspell (sh:value for
# sh:datatype, sh:dataType): a row each, as the files write them.
PARAMETERS = (
    "class",
    "datatype",
    "nodeKind",
    "minCount",
    "maxCount",
    "minExclusive",
    "maxExclusive",
    "minInclusive",
    "maxInclusive",
    "minLength",
    "maxLength",
    "pattern",
    "in",
    "hasValue",
    "xone",
    "or",
    "and",
    "not",
    "node",
    "closed",
    "sparql",
    "value",
    "dataType",
)
_COMPONENT_PARAMETER = {f"{p[0].upper()}{p[1:]}ConstraintComponent": p for p in PARAMETERS}
_COMPONENT_PARAMETER["SPARQLConstraintComponent"] = "sparql"


@dataclass(frozen=True)
class Constraint:
    """One constraint parameter a file writes on a shape: the unit of the map."""

    file: str
    shape: str  # aida:EntityShape, or "aida:ClaimShape / aida:topic" for an unnamed property shape
    constraint: str  # the parameter and its value, e.g. "sh:minCount 1"

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.file, self.shape, self.constraint)


@dataclass(frozen=True)
class Row:
    """A row of the map: the constraint, the rules that cover it ("-" for none) and why."""

    file: str
    shape: str
    constraint: str
    rules: tuple[str, ...]
    note: str

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.file, self.shape, self.constraint)


@cache
def shape_graph(name: str) -> rdflib.Graph:
    """One official file, parsed alone (its blank nodes are kept when graphs are merged)."""
    return rdflib.Graph().parse(REFERENCE / name, format="turtle")


def official_constraints() -> list[Constraint]:
    """Every constraint parameter of every shape of the four files, in file order."""
    found: list[Constraint] = []
    for name in FILES:
        graph = shape_graph(name)
        inline = _inline_shapes(graph)
        for node in sorted(
            {s for p in PARAMETERS for s in graph.subjects(SH[p], None)} - inline, key=lambda n: label(graph, n)
        ):
            for parameter in PARAMETERS:
                for value in sorted(graph.objects(node, SH[parameter]), key=lambda v: render(graph, v)):
                    found.append(Constraint(name, label(graph, node), f"sh:{parameter} {render(graph, value)}"))
    return found


def _inline_shapes(graph: rdflib.Graph) -> set:
    """Blank shapes written inside a logical parameter (sh:xone, sh:or, sh:and, sh:not): part of
    that parameter's value, not constraints of their own."""
    inline = set()
    for parameter in ("xone", "or", "and", "not"):
        for value in graph.objects(None, SH[parameter]):
            members = list(Collection(graph, value)) if (value, RDF.first, None) in graph else [value]
            inline |= {m for m in members if isinstance(m, BNode)}
    return inline


def label(graph: rdflib.Graph, node) -> str:
    """A named shape by its name; a blank property shape by its owner and path."""
    if not isinstance(node, BNode):
        return node.n3(graph.namespace_manager)
    owner = graph.value(None, SH.property, node)
    path = render(graph, graph.value(node, SH.path))
    return f"{label(graph, owner)} / {path}" if owner is not None else f"[{path}]"


def render(graph: rdflib.Graph, value) -> str:
    """A parameter value in compact Turtle: names, lists in (...), blank shapes in [...], a SPARQL
    constraint by its name or first message."""
    if value is None:
        return "?"
    if isinstance(value, URIRef):
        return value.n3(graph.namespace_manager)
    if isinstance(value, Literal):
        return str(value) if value.datatype is not None and value.datatype != rdflib.XSD.string else f'"{value}"'
    if (value, RDF.first, None) in graph:
        return "(" + " ".join(render(graph, item) for item in Collection(graph, value)) + ")"
    if (value, SH.select, None) in graph:
        return "[" + " ".join(str(graph.value(value, SH.message) or "SPARQL").split()) + "]"
    pairs = sorted(
        (p.n3(graph.namespace_manager), render(graph, o))
        for p, o in graph.predicate_objects(value)
        if p != RDF.type and p != SH.message
    )
    return "[" + " ; ".join(f"{p} {o}" for p, o in pairs) + "]"


def read_map(path: Path = MAP) -> list[Row]:
    """The rows of shapes/official_map.tsv (comment lines start with #)."""
    lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line and not line.startswith("#")]
    rows = []
    for record in csv.DictReader(lines, delimiter="\t", quoting=csv.QUOTE_NONE):
        rules = tuple(r for r in record["rules"].split() if r != "-")
        rows.append(Row(record["file"], record["shape"], record["constraint"], rules, record["note"]))
    return rows


# ------------------------------------------------------------------------------------------------
# Running NIST's check


@cache
def shapes_of(names: tuple[str, ...]) -> rdflib.Graph:
    graph = rdflib.Graph()
    for name in names:
        graph += shape_graph(name)
    return graph


@cache
def ontologies() -> rdflib.Graph:
    graph = rdflib.Graph()
    for name in ONTOLOGIES:
        graph.parse(REFERENCE / name, format="turtle")
    return graph


@dataclass(frozen=True)
class Rejection:
    """One result of the official shapes: where, and the map rows of the constraint that failed."""

    focus: str
    value: rdflib.term.Node | None
    keys: tuple[tuple[str, str, str], ...]
    message: str


def nist_rejections(path: Path) -> list[Rejection]:
    """What validateAIF --dwd --nist reports on a file: pySHACL with dwd_aif + restricted_aif over
    the file and the AIF ontologies (the validator validates their union)."""
    return rejections(path, NIST_CHECK)


def plain_rejections(path: Path, domain: Path | None = None) -> list[Rejection]:
    """What the AIF validator reports on a file as plain AIF (validateAIF without --dwd or --nist):
    aida_ontology.shacl over the file, the AIF ontologies and the domain ontology ``domain``."""
    return rejections(path, ("aida_ontology.shacl",), domain)


def rejections(path: Path, names: tuple[str, ...], domain: Path | None = None) -> list[Rejection]:
    """pySHACL with the official shape files ``names`` over the file, the AIF ontologies and the
    domain ontology, if any: each result with the map keys of the constraint that failed."""
    import pyshacl

    from aifcheck.loading.terms import quiet_rdflib
    from aifcheck.validation.engine.reference import queries_parsed_once

    with quiet_rdflib(), queries_parsed_once():  # ill-typed literals are what some fixtures are about
        data = rdflib.Graph().parse(path, format="turtle")
        data += ontologies()
        if domain is not None:
            data.parse(domain, format="turtle")
        shapes = shapes_of(names)
        _, report, _ = pyshacl.validate(data, shacl_graph=shapes, advanced=True, inference="none", inplace=True)
    found = []
    for result in report.subjects(RDF.type, SH.ValidationResult):
        shape = report.value(result, SH.sourceShape)
        component = str(report.value(result, SH.sourceConstraintComponent)).rsplit("#", 1)[-1]
        parameter = _COMPONENT_PARAMETER[component]
        written = (
            [report.value(result, SH.sourceConstraint)]
            if parameter == "sparql"
            else list(shapes.objects(shape, SH[parameter]))
        )
        keys = tuple(
            (name, label(shape_graph(name), shape), f"sh:{parameter} {render(shape_graph(name), value)}")
            for name in names
            for value in written
            if (shape, SH[parameter], value) in shape_graph(name)
        )
        found.append(
            Rejection(
                str(report.value(result, SH.focusNode)),
                report.value(result, SH.value),
                keys,
                str(report.value(result, SH.resultMessage)),
            )
        )
    return found


# ------------------------------------------------------------------------------------------------
# The README tables


def readme_tables(rows: list[Row]) -> str:
    """Official shape -> aifcheck rules (a shape of aida_ontology.shacl that maps as its namesake
    in dwd_aif.shacl shares its line), and aifcheck rule -> the official shapes NIST applies."""
    from aifcheck.validation.shapes import load_catalog

    by_shape: dict[tuple[str, str], list[Row]] = defaultdict(list)
    for row in rows:
        by_shape[(row.file, row.shape.split(" / ")[0])].append(row)
    lines = [
        "| shape | official files | constraints | aifcheck rules "
        "| notes: what no rule checks, and why; where aifcheck differs |",
        "| --- | --- | --- | --- | --- |",
    ]
    for (file, shape), group in by_shape.items():
        if file == "aida_ontology.shacl" and _same(group, by_shape.get(("dwd_aif.shacl", shape), [])):
            continue  # shown with its dwd_aif.shacl namesake
        files = file.removesuffix(".shacl")
        if file == "dwd_aif.shacl" and _same(group, by_shape.get(("aida_ontology.shacl", shape), [])):
            files = "aida_ontology, dwd_aif"
        rules, notes = _summary(group)
        lines.append(f"| {shape} | {files} | {len(group)} | {', '.join(rules) or '-'} | {'; '.join(notes) or '-'} |")
    lines += [
        "",
        "| rule | source | official shapes of NIST's check that reject the same files |",
        "| --- | --- | --- |",
    ]
    shapes_of: dict[str, set[str]] = defaultdict(set)
    for row in rows:
        if row.file != "aida_ontology.shacl":
            for rule in row.rules:
                shapes_of[rule].add(f"{row.shape.split(' / ')[0]} ({row.file.removesuffix('.shacl')})")
    for rule in load_catalog().rules.values():
        if rule.kind == "shape":
            official = ", ".join(sorted(shapes_of[rule.id])) or "not checked by NIST's validator"
            lines.append(f"| {rule.id} | {rule.plan_ref} | {official} |")
    return "\n".join(lines) + "\n"


def _same(group: list[Row], other: list[Row]) -> bool:
    return {(r.shape, r.constraint, r.rules, r.note) for r in group} == {
        (r.shape, r.constraint, r.rules, r.note) for r in other
    }


def _summary(group: list[Row]) -> tuple[list[str], list[str]]:
    rules = sorted({r for row in group for r in row.rules}, key=_rule_order)
    return rules, sorted({row.note for row in group if row.note})


def _rule_order(rule_id: str) -> tuple:
    from aifcheck.validation.catalog import sort_key

    return sort_key(rule_id)


if __name__ == "__main__":
    sys.stdout.write(readme_tables(read_map()))
