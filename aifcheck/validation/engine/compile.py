"""The fast executor's queries: each SPARQL constraint of a rule compiled into one whole-graph
query, and what the catalogue's shapes hint checked against what the queries can do.

SHACL evaluates a SPARQL constraint once per focus node with $this pre-bound (pySHACL
re-parses the query each time). Here the rule's targets become a DISTINCT sub-select
joined as the first member of the query's top-level group, so a single query finds every
violating focus node. The shapes keep to the one convention that makes this equivalent:
$this is never used inside a sub-select or MINUS (tests/validation/test_shapes.py checks it). A constraint
marked aifc:targetsLast keeps its body first and tests each solution's $this against the
targets (FILTER EXISTS), which is faster when the body is selective and binds $this. A constraint
whose body implies its targets (implies_targets) is run as written. A constraint marked
aifc:antiJoin has its FILTER NOT EXISTS run as MINUS (see anti_joins).

The analyses read the SPARQL with rdflib's algebra, slow to import: the compiled queries are
built with the catalogue and shipped beside it (shapes/queries.json, see load_queries).
"""

from __future__ import annotations

import re
from dataclasses import replace

from aifcheck.validation.catalog import GROUP_CONCAT, Built, Catalog, Constraint, Target
from aifcheck.validation.engine.sparql_text import anti_joins, group_end

Queries = dict[tuple[str, int], str]  # (rule ID, constraint index) -> the whole-graph query
QUERIES = Built("queries.json")

# GROUP_CONCAT joins with this instead of the shape's separator, which an item may contain
# (a literal "b, a"): the items are split back, sorted, and joined with the shape's separator
UNIT_SEPARATOR = "\x1f"
_WHERE = re.compile(r"\bWHERE\s*\{", re.IGNORECASE)

# The shapes test a variable against a list of IRIs with FILTER (?p IN (...)), as SHACL forbids
# VALUES in constraints. For pyoxigraph a VALUES block is the same join (the variable is bound
# by a triple pattern of the same group) but an index lookup instead of a scan.
_IN_LIST = re.compile(r"FILTER\s*\((\?\w+) IN \(((?:\s*(?:[A-Za-z][\w-]*:[\w.-]*|<[^<>\s]*>)\s*,?)+)\)\)")

_TARGET_PATTERNS = {
    "class": (
        "?this <http://www.w3.org/1999/02/22-rdf-syntax-ns#type>/"
        "<http://www.w3.org/2000/01/rdf-schema#subClassOf>* <{}>"
    ),
    "node": "VALUES ?this {{ <{}> }}",
    "subjectsOf": "?this <{}> ?aifc_target_other",
    "objectsOf": "?aifc_target_other <{}> ?this",
}


def compile_constraint(
    targets: tuple[Target, ...], constraint: Constraint, prefixes: tuple[tuple[str, str], ...], implied: bool = False
) -> str:
    """The whole-graph query for one constraint of one rule (``implied``: its body implies its targets)."""
    header = "".join(f"PREFIX {p}: <{ns}>\n" for p, ns in prefixes)
    body = _IN_LIST.sub(lambda m: f"VALUES {m[1]} {{ {' '.join(m[2].replace(',', ' ').split())} }}", constraint.select)
    body = GROUP_CONCAT.sub(_join_with_unit_separator, body)
    match = _WHERE.search(body)
    if match is None:
        raise ValueError("SPARQL constraint has no WHERE clause")
    query = header + _with_targets(targets, constraint, body, match, implied)
    return anti_joins(query)[0] if constraint.anti_join else query


def _with_targets(
    targets: tuple[Target, ...], constraint: Constraint, body: str, match: re.Match, implied: bool
) -> str:
    if implied:
        return body
    union = " UNION ".join("{ " + _TARGET_PATTERNS[t.kind].format(t.term) + " }" for t in targets)
    if constraint.targets_last:  # one index look-up per solution of the body
        end = group_end(body, match.end() - 1)
        return body[:end] + f"\nFILTER EXISTS {{ {union} }}\n" + body[end:]
    focus = f"{{ SELECT DISTINCT ?this WHERE {{ {union} }} }}\n"
    return body[: match.end()] + "\n" + focus + body[match.end() :]


def _join_with_unit_separator(match: re.Match) -> str:
    start, end = (offset - match.start() for offset in match.span("sep"))
    return match[0][:start] + UNIT_SEPARATOR + match[0][end:]


def compile_queries(catalog: Catalog) -> Queries:
    """Every constraint's query, after checking the shapes' hints (ValueError for a hint that does
    nothing or that could change what the constraint finds)."""
    from aifcheck.validation.engine.analysis import implies_targets  # rdflib: only when the shapes changed

    check_hints(catalog)
    ordered = tuple(sorted(catalog.prefixes.items()))
    queries = {}
    for rule in catalog.rules.values():
        for index, constraint in enumerate(rule.constraints):
            implied = implies_targets(constraint.select, rule.targets, catalog.prefixes)
            queries[rule.id, index] = compile_constraint(rule.targets, constraint, ordered, implied)
    return queries


def load_queries(catalog: Catalog) -> Queries:
    """The compiled queries of the catalogue: shipped with the package, or cached, or compiled now
    (for shapes that differ from the shipped ones), then cached."""
    found = QUERIES.read(catalog.fingerprint)
    if found is not None:
        return {(rule_id, index): query for rule_id, index, query in found}
    queries = compile_queries(catalog)
    QUERIES.keep(catalog.fingerprint, queries_json(queries))
    return queries


def queries_json(queries: Queries) -> list:
    return [[rule_id, index, query] for (rule_id, index), query in queries.items()]


def check_hints(catalog: Catalog) -> None:
    """ValueError naming the rule whose aifc:targetsLast or aifc:antiJoin hint does nothing or
    could change what the constraint finds."""
    from aifcheck.validation.engine.analysis import anti_join_problem, binds_this, implies_targets

    ordered = tuple(sorted(catalog.prefixes.items()))
    for rule in catalog.rules.values():
        for constraint in rule.constraints:
            if constraint.targets_last:
                if implies_targets(constraint.select, rule.targets, catalog.prefixes):
                    raise ValueError(
                        f"{rule.id}: aifc:targetsLast on a constraint whose body implies its targets"
                        " (the hint does nothing)"
                    )
                if not binds_this(constraint.select, catalog.prefixes):
                    # the fast executor would filter the body's solutions by the targets and lose
                    # the violations of solutions that leave $this unbound
                    raise ValueError(
                        f"{rule.id}: aifc:targetsLast on a constraint whose body does not always bind $this"
                    )
            if constraint.anti_join:
                implied = implies_targets(constraint.select, rule.targets, catalog.prefixes)
                problem = anti_join_problem(
                    compile_constraint(rule.targets, replace(constraint, anti_join=False), ordered, implied)
                )
                if problem:
                    raise ValueError(f"{rule.id}: aifc:antiJoin on a constraint whose FILTER NOT EXISTS {problem}")
