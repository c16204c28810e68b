"""What NIST's TA3 scorer reads besides the run: the queries to score, claim-mappings.tab and LDC's
assessment package (research/ta3-crux-scoring.md §2.1).

- queries_to_score: a header line naming ``query_id``, ``condition`` (Condition5|6|7),
  ``topic_id`` and ``depth`` (``ontopic:30,supporting:30,...``, the pooling depth of each list).
  A query ID given twice keeps its first position and its last row, as NIST's dict does.
- claim-mappings.tab: one row per (run, condition, query, run claim) that was pooled, naming the
  pool claim (``pool_claim_uid``). The query claim frame of a Condition 5 query is the row whose
  ``run_id`` is ``query_claim_frames`` and whose ``run_claim_id`` is the query ID.
- ``<LDC>/data/TA3/system_claims/<uid>-outer-claim.tab`` for every pool claim, replaced by
  ``<LDC>/data/TA3/ldc_claims/<uid>-outer-claim.tab`` where that exists, whose ``NIL`` judgements
  count as ``Correct`` (LDC's own claims are correct; NIST writes ``Informative`` for an
  informativenessAssessment, a row no score reads); the -raw-kes.tab and -readable-kes.txt
  beside them are not read (NIST opens them without using them).
- ``<LDC>/data/TA3/cross_claim_relations.tab``: ``query_claim_id system_claim_id relation``;
  the first row of a (query, pool claim) pair is its relation.

A file that cannot be used raises InputError naming the file and, where there is one, the line.
"""

from __future__ import annotations

import os
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from aifcheck.errors import InputError
from aifcheck.loading.paths import entries, input_folder, missing, read_text
from aifcheck.loading.tsv import check_unique, fit_cells, read_table
from aifcheck.pipeline.ta3.qcf import QCF_RUN

CONDITION_LISTS = {
    "Condition5": ("ontopic", "related", "refuting", "supporting", "nonsupporting", "nonrefuting"),
    "Condition6": ("ontopic",),
    "Condition7": ("ontopic",),
}
# LDC's relation names -> the list a claim with that relation belongs to; `identical` has none
RELATIONS = {"supported_by": "supporting", "refuted_by": "refuting", "related": "related"}
IDENTICAL = "identical"


@dataclass(frozen=True)
class QueryToScore:
    query_id: str
    condition: str
    topic_id: str
    depth: dict[str, int]  # list -> pooling depth


class OuterClaimRow(NamedTuple):
    """One row of an outer-claim.tab: its value and correctness columns, and where it is."""

    value: str
    correctness: str
    line: int


@dataclass(frozen=True)
class AssessedClaim:
    """A pool claim's outer-claim.tab: component type -> component id -> field name -> the first
    row so named (component ids in file order; rows of SCORED_ROWS only)."""

    uid: str
    path: str
    fields: dict[str, dict[str, dict[str, OuterClaimRow]]]
    lines: dict[tuple[str, str], int] = field(default_factory=dict)  # (component type, id) -> its first row's line


class MappingRow(NamedTuple):
    """A claim-mappings.tab row: the pool claim it names, and its line."""

    uid: str
    line: int


@dataclass(frozen=True)
class Package:
    """Everything NIST's TA3 scorer knows besides the run."""

    mappings_path: str
    relations_path: str
    claims: dict[str, AssessedClaim]  # pool uid -> its assessment
    runs: dict[tuple[str, str, str, str], tuple[MappingRow, ...]]  # (condition, query, run, run claim) -> rows
    query_claim_frames: dict[str, str]  # query ID -> its query claim frame's pool uid
    flagged: frozenset[str]  # pool uids that are a query claim frame (all their fields count as correct)
    topic_claims: dict[str, frozenset[str]]  # topic ID -> pool uids mapped to a query of that topic
    relations: dict[tuple[str, str], str | None]  # (query, uid) -> supporting|refuting|related|None
    identical: dict[str, frozenset[str]]  # query -> uids LDC judged identical to it
    relation_rows: tuple[tuple[str, str, str | None], ...]  # (query, uid, list) in file order
    warnings: tuple[str, ...]


def read_queries(path: str | os.PathLike) -> dict[str, QueryToScore]:
    names = ("query_id", "condition", "topic_id", "depth")
    table = read_table(path, names)
    check_unique(table.path, ("query_id",), table.cells(("query_id",)))
    at = [table.column(c) for c in names]
    queries: dict[str, QueryToScore] = {}
    for line, cells in table.rows:
        query_id, condition, topic, depth = (cells[i] for i in at)
        if condition not in CONDITION_LISTS:
            raise InputError(
                table.path,
                f"query {query_id}: unknown condition '{condition}' (expected Condition5, Condition6 or Condition7)",
                line,
            )
        queries[query_id] = QueryToScore(query_id, condition, topic, _depths(table.path, line, condition, depth))
    return queries


def _depths(path: str, line: int, condition: str, text: str) -> dict[str, int]:
    depths: dict[str, int] = {}
    for item in text.split(","):
        name, _, number = item.partition(":")
        if not number.strip().isdigit():
            raise InputError(path, f"depth '{text}': '{item}' is not <list>:<number>", line)
        depths.setdefault(name.strip(), int(number))
    missing = [name for name in CONDITION_LISTS[condition] if name not in depths]
    if missing:
        raise InputError(path, f"depth '{text}' has no pooling depth for {', '.join(missing)}", line)
    return depths


def read_package(
    assessments: str | os.PathLike, claim_mappings: str | os.PathLike, queries: dict[str, QueryToScore]
) -> Package:
    package = Path(assessments) / "data" / "TA3"
    if missing(package):
        raise InputError(str(assessments), "not an LDC assessment package: data/TA3 is missing")
    input_folder(package, "LDC's package")
    names = ("pool_claim_uid", "condition", "query_id", "run_id", "run_claim_id")
    table = read_table(claim_mappings, names)
    at = [table.column(c) for c in names]
    runs: dict[tuple[str, str, str, str], list[MappingRow]] = defaultdict(list)
    first_line: dict[str, int] = {}
    query_claim_frames: dict[str, str] = {}
    flagged = set()
    topic_claims: dict[str, set[str]] = defaultdict(set)
    for line, cells in table.rows:
        uid, condition, query, run, claim = (cells[i] for i in at)
        runs[condition, query, run, claim].append(MappingRow(uid, line))
        first_line.setdefault(uid, line)
        if run == QCF_RUN:
            flagged.add(uid)
            if claim == query:
                query_claim_frames.setdefault(query, uid)
        if query in queries:  # NIST fails on a mapping of a query it does not score; it is ignored here
            topic_claims[queries[query].topic_id].add(uid)
    for scored in queries.values():
        if scored.condition == "Condition5" and scored.query_id not in query_claim_frames:
            raise InputError(
                table.path,
                f"no row maps the query claim frame of {scored.query_id} "
                f"(run_id {QCF_RUN}, run_claim_id {scored.query_id}): make the pool with "
                "pool ta3 --user-queries DIR --aux DIR, which pools the query claim frames as NIST did",
            )
    ldc = package / "ldc_claims"
    # LDC's own judgements where they exist: a folder that cannot be read is an error, not none
    ldc_files = {p.name for p in entries(ldc, "LDC's claims")} if not missing(ldc) else set()
    claims = {
        uid: _read_claim(package, uid, f"{uid}-outer-claim.tab" in ldc_files, table.path, line)
        for uid, line in first_line.items()
    }
    relations_path = package / "cross_claim_relations.tab"
    relations, identical, relation_rows, warnings = _read_relations(relations_path)
    return Package(
        table.path,
        str(relations_path),
        claims,
        {k: tuple(v) for k, v in runs.items()},
        query_claim_frames,
        frozenset(flagged),
        {k: frozenset(v) for k, v in topic_claims.items()},
        relations,
        identical,
        relation_rows,
        warnings,
    )


_OUTER_COLUMNS = ("component_type", "id", "fieldname", "value", "correctness")
# the rows the scorer reads (ta3_fields.FIELDS: a component's judgement and value); the others
# (name, qnode_id, strength, informativenessAssessment, ec_id, ...) only make the component exist
SCORED_ROWS = frozenset({"value", "polarity", "overallAssessment", "ec_similarity", "range"})


def _read_claim(package: Path, uid: str, from_ldc: bool, mappings_path: str, line: int) -> AssessedClaim:
    """Read an outer-claim.tab (a header line naming _OUTER_COLUMNS, then rows split into at most
    as many cells as the header has, stripped, as NIST reads them; a row with another number of
    cells stops NIST, and is an InputError here). A run reads thousands: str.split is the fastest."""
    name = f"{uid}-outer-claim.tab"
    path = os.path.join(package, "ldc_claims" if from_ldc else "system_claims", name)
    if missing(path):
        message = f"pool claim {uid} has no {name} in {package}/system_claims or ldc_claims"
        raise InputError(mappings_path, message, line)
    lines = read_text(path, universal=True).split("\n")
    header = [cell.strip() for cell in lines[0].rstrip().split("\t")]
    if any(c not in header for c in _OUTER_COLUMNS):
        raise InputError(path, f"the header does not name {', '.join(_OUTER_COLUMNS)}", 1)
    width = len(header)
    a, b, c, d, e = (header.index(name) for name in _OUTER_COLUMNS)
    fields: dict[str, dict[str, dict[str, OuterClaimRow]]] = {}
    texts, lines = lines, {}
    for number, text in enumerate(texts[1:], 2):
        if not text.strip():
            continue  # as in every table read here (NIST stops on a blank line)
        cells = fit_cells(text.split("\t"), width)
        if len(cells) != width:
            raise InputError(path, f"{len(cells)} cells, the header has {width} columns", number)
        rows = fields.setdefault(cells[a], {}).setdefault(cells[b], {})
        lines.setdefault((cells[a], cells[b]), number)
        field_name = cells[c]
        if field_name in SCORED_ROWS and field_name not in rows:
            correctness = cells[e]
            if from_ldc and correctness == "NIL":
                correctness = "Correct"
            rows[field_name] = OuterClaimRow(cells[d], correctness, number)
    return AssessedClaim(uid, path, fields, lines)


Relations = tuple[
    dict[tuple[str, str], str | None],  # (query, uid) -> the list of the first row's relation
    dict[str, frozenset[str]],  # query -> uids identical to it
    tuple[tuple[str, str, str | None], ...],  # every row: (query, uid, list)
    tuple[str, ...],  # warnings
]


def _read_relations(path: Path) -> Relations:
    if missing(path):  # (one that is there is read, and told of if it is no file)
        raise InputError(str(path), "missing: the LDC package has no cross_claim_relations.tab")
    names = ("query_claim_id", "system_claim_id", "relation")
    table = read_table(path, names)
    at = [table.column(c) for c in names]
    relations: dict[tuple[str, str], str | None] = {}
    identical: dict[str, set[str]] = defaultdict(set)
    rows = []
    warned: set[str] = set()
    warnings = []
    for line, cells in table.rows:
        query, uid, relation = (cells[i] for i in at)
        kind = RELATIONS.get(relation)
        if relation == IDENTICAL:
            identical[query].add(uid)
        elif kind is None and relation not in warned:
            warned.add(relation)
            warnings.append(
                f"{path}:{line}: relation '{relation}' is none of supported_by, refuted_by, related, "
                "identical: NIST counts it, and every other row spelt so, as no relation"
            )
        relations.setdefault((query, uid), kind)
        rows.append((query, uid, kind))
    return relations, {k: frozenset(v) for k, v in identical.items()}, tuple(rows), tuple(warnings)
