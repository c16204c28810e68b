"""The TA2 scores as NIST's code computes them (AcrossDocumentsCoreferenceMetricV2 at a0b379b;
research/ta2-scoring.md §4, A1-A12), its quirks included, each one that changes a number warned.

Per query q, in the table's order:
- its top C clusters and their pooled rows (aifcheck.pipeline.ta2.ranking, invalid rows included);
- a valid pooled row is judged by the line of the one assessment map of all scored queries (a key
  keeps the first scored query's line, whichever query asks); RIGHT when the label is CORRECT or
  INEXACT, WRONG otherwise (``Correct`` or ``NIL`` too); a row without a line is skipped;
- the classes G(q): the fqecs of q's right lines, plus the entry point of every kbid query of q's
  entity; every CORRECT NIL line is class NILG1001, of every query;
- Rel(f): documents of right lines of class f over the scored queries; RelCntd: Rel, or min(Rel, K)
  with ``cutoff``;
- AP(cluster, f): over the cluster's judged pooled rows by rank, n counting them, at each RIGHT row of
  class f right += its weight (1; ``weighted``: its j_cv; with ``normalize``: divided by the highest
  j_cv of the last selected cluster) and the sum += right / n; AP = sum / RelCntd;
- clusters and classes matched by munkres (1.1.4's choice among equal totals); a pair with AP > 0
  is aligned.
One row per class of G(q); the Summary is the mean AP of the rows with RelCntd > 0.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from aifcheck.pipeline.ta2.queries import Query
from aifcheck.pipeline.ta2.ranking import SelectedCluster, select
from aifcheck.pipeline.ta2.responses import LoadedResponses, Response
from aifcheck.score.ta2.alignment import nist_pairs
from aifcheck.score.ta2.assessments import NIST_NIL_CLASS, RIGHT, Assessments, Judgement
from aifcheck.score.ta2.explain import nist_row
from aifcheck.score.ta2.scores import PseudoQuery, ResponseCounts

EXACT_LABELS = ("CORRECT", "INEXACT", "INCORRECT")


@dataclass(frozen=True)
class ScorerFlags:
    cutoff: bool = False
    normalize: bool = False
    weighted: bool = False


@dataclass
class _Findings:
    """What the run met of NIST's quirks (research §6), to warn once each."""

    foreign: list[str] = field(default_factory=list)  # Q4: rows judged by another query's line
    conflicts: list[str] = field(default_factory=list)  # Q4: keys judged differently by two queries
    entry_points: list[str] = field(default_factory=list)  # Q5
    odd_labels: list[str] = field(default_factory=list)  # Q6
    unjudged: list[str] = field(default_factory=list)  # Q7
    invalid_pooled: list[str] = field(default_factory=list)  # Q8
    invalid_ranked: list[str] = field(default_factory=list)  # Q8
    inexact_nil: list[str] = field(default_factory=list)  # Q3
    normalized: list[str] = field(default_factory=list)  # Q9
    aligned: bool = False  # Q1
    no_lines: list[str] = field(default_factory=list)  # C1


def score_nist(
    queries: Mapping[str, Query],
    files: Mapping[str, LoadedResponses],
    assessments: Assessments,
    options: ScorerFlags,
    explain: bool = False,
) -> tuple[list[PseudoQuery], float | None, list[str], list[str]]:
    """(rows in NIST's file order, Summary AP or None, warnings, notes); ``explain``: each row
    carries its explanation."""
    findings = _Findings()
    notes: list[str] = []
    scored = {q: assessments.by_query.get(q, {}) for q in queries}
    judge = _assessment_map(scored, findings)
    relevant: dict[str, set[str]] = {}
    for judged in scored.values():
        for j in judged.values():
            if j.nist_right:
                relevant.setdefault(j.nist_fqec, set()).add(j.document)
    entry_points: dict[str, set[str]] = {}  # A6: an entity's kbid entry points are classes of its every query
    for query in queries.values():
        if query.entrypoint_type == "kbid":
            entry_points.setdefault(query.entity_id, set()).add(query.entrypoint)
    rows: list[PseudoQuery] = []
    for query in queries.values():
        if query.query_id not in assessments.by_query:
            findings.no_lines.append(query.query_id)
        found = files.get(query.query_id)
        responses = found.rows if found is not None else ()
        own = scored[query.query_id]
        classes = {j.nist_fqec for j in own.values() if j.nist_right}
        findings.entry_points += [
            f"{query.query_id} {c}" for c in sorted(entry_points.get(query.entity_id, set()) - classes)
        ]
        classes |= entry_points.get(query.entity_id, set())
        rows += _query_rows(query, classes, responses, own, judge, relevant, options, findings, (explain, found))
    rows.sort(key=lambda r: (r.entity_id, r.query_id))
    counted = [r.ap for r in rows if r.rel_counted]
    summary = None
    if counted:
        total = 0
        for ap in counted:
            total += ap
        summary = total / len(counted)
    notes += _notes(findings, assessments, queries, summary is None)
    return rows, summary, _warnings(findings, relevant, scored, options), notes


def _notes(findings: _Findings, assessments: Assessments, queries: Mapping[str, Query], no_summary: bool) -> list[str]:
    """What NIST's code does not score (where it stops), and how it is scored here."""
    notes = []
    if no_summary:
        notes.append(
            "C2: no row has RelCntd > 0: the Summary AP is left empty (NIST's scorer stops: ZeroDivisionError)"
        )
    unscored = [j for q, judged in assessments.by_query.items() if q not in queries for j in judged.values()]
    if unscored:
        notes.append(
            f"C3: {len(unscored)} assessment line(s) of queries not scored are ignored (first: {unscored[0].where}, "
            f"query {unscored[0].query_id}) (NIST's scorer stops: AttributeError)"
        )
    if findings.no_lines:
        notes.append(
            f"C1: {_some(findings.no_lines, 'queries without assessment lines')}: a query's classes are then its "
            "entity's kbid entry points (NIST's scorer stops: TypeError)"
        )
    if findings.aligned:
        notes.append(
            "Q1: scored as with the 3-field ALIGNMENT_INFO log line "
            "(at a0b379b NIST's scorer stops on the first aligned pair)"
        )
    return notes


def _assessment_map(scored: Mapping[str, Mapping[str, Judgement]], findings: _Findings) -> dict[str, Judgement]:
    """A1: one map for all scored queries; a key keeps the first query's line."""
    judge: dict[str, Judgement] = {}
    for judged in scored.values():
        for key, j in judged.items():
            first = judge.setdefault(key, j)
            if first is not j and first.nist_label != j.nist_label:
                findings.conflicts.append(
                    f"{key} ({j.query_id} at {j.where} says {j.label_read}, {first.query_id} {first.label_read})"
                )
    return judge


def _query_rows(
    query: Query,
    classes: set[str],
    responses: tuple[Response, ...],
    own: Mapping[str, Judgement],
    judge: Mapping[str, Judgement],
    relevant: Mapping[str, set[str]],
    options: ScorerFlags,
    findings: _Findings,
    explain: tuple[bool, LoadedResponses | None] = (False, None),
) -> list[PseudoQuery]:
    """The rows of query q, one per class of G(q) (``classes``); ``explain``: (whether to explain
    them, the query's response file)."""
    findings.inexact_nil += [query.query_id] if "NIL" in classes else []
    selected = select(responses, query.clusters, query.documents) if responses else ()
    weights = _weights(responses, selected, options, query, findings)
    counts, walks = _categorize(query, responses, selected, own, judge, findings)
    alignment_classes = classes | {j.nist_fqec for walk in walks.values() for _, j in walk if j.nist_right}

    def rel_counted(fqec: str) -> int:
        rel = len(relevant.get(fqec, ()))
        return query.documents if options.cutoff and rel > query.documents else rel

    divisors = {f: rel_counted(f) for f in alignment_classes}
    truncate = query.documents if options.cutoff else 0
    aps = {cluster: _average_precisions(walk, weights, divisors, truncate) for cluster, walk in walks.items()}
    aligned = _align(aps, sorted(alignment_classes))
    findings.aligned |= bool(aligned)
    rows = []
    for fqec in sorted(classes):
        cluster, ap = aligned.get(fqec, (None, 0))
        row = PseudoQuery(
            query.entity_id,
            query.query_id,
            fqec,
            len(relevant.get(fqec, ())),
            rel_counted(fqec),
            ap,
            cluster,
            counts.get(cluster, ResponseCounts()) if cluster is not None else ResponseCounts(),
        )
        if explain[0]:
            values = (("ap", ap), ("rel_counted", row.rel_counted))
            class_aps = {c: found.get(fqec, 0) for c, found in aps.items()}
            explanation = nist_row(
                query,
                fqec,
                values,
                walks.get(cluster, []) if cluster is not None else [],
                responses,
                explain[1],
                weights,
                relevant.get(fqec, ()),
                options.cutoff,
                class_aps,
                cluster,
            )
            row = replace(row, explanation=explanation)
        rows.append(row)
    return rows


def _weights(
    rows: tuple[Response, ...],
    selected: tuple[SelectedCluster, ...],
    options: ScorerFlags,
    query: Query,
    findings: _Findings,
) -> list[float]:
    """A4: 1, or the row's j_cv (weighted), divided with normalize by the highest j_cv of the last
    selected cluster (NIST normalises by each selected cluster in turn; the last one stays)."""
    if not options.weighted:
        return [1] * len(rows)
    if not (options.normalize and selected):
        return [r.j_cv.value for r in rows]
    highest = [max(rows[i].j_cv.value for i in c.rows) for c in selected]
    if len(set(highest)) > 1:
        findings.normalized.append(query.query_id)
    return [r.j_cv.value / highest[-1] for r in rows]


def _categorize(
    query: Query,
    rows: tuple[Response, ...],
    selected: tuple[SelectedCluster, ...],
    own: Mapping[str, Judgement],
    judge: Mapping[str, Judgement],
    findings: _Findings,
) -> tuple[dict[str, ResponseCounts], dict[str, list[tuple[int, Judgement]]]]:
    """A5: each selected cluster's counts, and the ranked lists of its judged pooled rows
    ((row index, line) by rank) of the clusters that have one (NIST's alignment clusters)."""
    counts: dict[str, ResponseCounts] = {}
    walks: dict[str, list[tuple[int, Judgement]]] = {}
    for cluster in selected:
        pooled = set(cluster.pooled)
        tally = dict.fromkeys(ResponseCounts.__dataclass_fields__, 0)
        tally["submitted"] = len(cluster.rows)
        ranked = []
        for index in cluster.rows:
            j = _judged(query, rows[index], index in pooled, own, judge, tally, findings)
            if j is not None:
                ranked.append((cluster.ranks[rows[index].span_text], index, j))
        if max((rows[i].link_cv.value for i in cluster.rows if rows[i].valid), default=None) != cluster.score:
            findings.invalid_ranked.append(f"{query.query_id} {cluster.cluster}")
        tally["assessed"] = tally["pooled"] - tally["not_assessed"]
        tally["ignored"] = tally["not_pooled"] + tally["not_assessed"]
        counts[cluster.cluster] = ResponseCounts(**tally)
        if ranked:
            ranked.sort(key=lambda item: item[0])
            walks[cluster.cluster] = [(index, j) for _, index, j in ranked]
    return counts, walks


def _judged(
    query: Query,
    row: Response,
    pooled: bool,
    own: Mapping[str, Judgement],
    judge: Mapping[str, Judgement],
    tally: dict[str, int],
    findings: _Findings,
) -> Judgement | None:
    """A5 for one row of a selected cluster: the counts it adds to, and its judgement where it is
    valid, pooled and judged (None otherwise)."""
    if not row.valid:
        tally["invalid"] += 1
        tally["not_pooled"] += 1
        if pooled:
            findings.invalid_pooled.append(f"{query.query_id} line {row.line}")
        return None
    tally["valid"] += 1
    if not pooled:
        tally["not_pooled"] += 1
        return None
    tally["pooled"] += 1
    j = judge.get(row.span_text)
    if j is None:
        tally["not_assessed"] += 1
        findings.unjudged.append(f"{query.query_id} {row.span_text}")
        return None
    label = j.nist_label
    if label in EXACT_LABELS:
        tally[label.lower()] += 1
    else:
        findings.odd_labels.append(f"{label!r} at {j.where}")
    tally["right" if label in RIGHT else "wrong"] += 1
    mine = own.get(row.span_text)
    if j is not mine and (mine is None or (mine.nist_label, mine.nist_fqec) != (label, j.nist_fqec)):
        findings.foreign.append(f"{query.query_id} {row.span_text} by {j.query_id}'s line at {j.where}")
    return j


def _average_precisions(
    walk: list[tuple[int, Judgement]], weights: list[float], divisors: Mapping[str, int], truncate: int
) -> dict[str, float]:
    """A8 for every class at once: the AP of each class of ``divisors`` (its RelCntd), with NIST's
    arithmetic in NIST's order (each class's running sums see only its own rows)."""
    right: dict[str, float] = {}
    total: dict[str, float] = {}
    for seen, (index, j) in enumerate(walk, 1):
        if 0 < truncate < seen:  # NIST stops after K rows (a K below 0 never stops it)
            break
        if j.nist_right and j.nist_fqec in divisors:
            f = j.nist_fqec
            right[f] = right.get(f, 0) + weights[index]
            total[f] = total.get(f, 0) + right[f] / seen
    return {f: (total.get(f, 0) / divisor if divisor else 0) for f, divisor in divisors.items()}


def _align(aps: Mapping[str, Mapping[str, float]], classes: list[str]) -> dict[str, tuple[str, float]]:
    """A9: class -> (cluster, AP) of munkres' assignment on costs M - AP, pairs with AP > 0
    (clusters and classes in string order)."""
    clusters = sorted(aps)
    matrix = [[aps[c].get(f, 0) for f in classes] for c in clusters]
    return {classes[k]: (clusters[i], matrix[i][k]) for i, k in nist_pairs(matrix)}


def _some(items: list[str], what: str, shown: int = 3) -> str:
    """ "3 <what> (a, b, c, ...)": how many, and the first few."""
    return f"{len(items)} {what} ({', '.join(items[:shown])}{', ...' if len(items) > shown else ''})"


def _warnings(
    findings: _Findings,
    relevant: Mapping[str, set[str]],
    scored: Mapping[str, Mapping[str, Judgement]],
    options: ScorerFlags,
) -> list[str]:
    """One line per quirk of research §6 that changed a number in this run."""
    found = []
    nil_queries = sorted(
        {j.query_id for judged in scored.values() for j in judged.values() if j.nist_fqec == NIST_NIL_CLASS}
    )
    if len(nil_queries) > 1:
        found.append(
            f"Q2: every CORRECT NIL line is one class {NIST_NIL_CLASS} (Rel {len(relevant.get(NIST_NIL_CLASS, ()))}), "
            f"NIST's class counter never advancing: {_some(nil_queries, 'queries')}"
        )
    # (quirk, what it does, the cases met, what they are, how many are named)
    listed = (
        ("Q3", f"INEXACT lines with fqec NIL are a class NIL apart from {NIST_NIL_CLASS}", findings.inexact_nil,
         "queries", 3),
        ("Q4", "one assessment map for all queries", findings.foreign,
         "pooled row(s) judged by the line of another query", 1),
        ("Q4", "one assessment map for all queries, where the first query's line holds for the others "
         "(NIST: CONFLICTING_ASSESSMENTS)", findings.conflicts, "mention(s) judged differently", 1),
        ("Q5", "every kbid entry point of a query's entity is a class of the query", findings.entry_points,
         "class(es) without a line of the query", 3),
        ("Q6", "labels NIST does not map count as assessed and wrong", findings.odd_labels, "pooled row(s)", 1),
        ("Q7", "pooled rows without an assessment line are skipped, closing up the ranked list", findings.unjudged,
         "row(s)", 1),
        ("Q8", "invalid rows take pooling places", findings.invalid_pooled, "row(s)", 1),
        ("Q8", "invalid rows' link confidences rank clusters", findings.invalid_ranked, "cluster(s)", 1),
    )  # fmt: skip
    found += [f"{quirk}: {does}: {_some(met, what, shown)}" for quirk, does, met, what, shown in listed if met]
    if options.normalize and not options.weighted:
        found.append("Q9: --normalize without --weighted changes nothing in NIST's code")
    if findings.normalized:
        found.append(
            "Q9: --weighted --normalize divides every weight by the highest j_cv of the last selected cluster: "
            f"{_some(findings.normalized, 'queries')}"
        )
    return found
