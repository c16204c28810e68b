"""``score_ta2``: a TA2 run scored as NIST's scorer does (``score_submission.py task2``), or with
``plan=True`` as the evaluation plan defines it."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from aifcheck.errors import InputError, UsageError
from aifcheck.pipeline.shared.auxdata import TA2_CORE, load_aux
from aifcheck.pipeline.ta2.queries import TEMPLATES, Query, read_queries
from aifcheck.pipeline.ta2.responses import KINDS, LoadedResponses, kb_of, load_run
from aifcheck.score.allocations import cyclic_gc_paused
from aifcheck.score.ta2.assessments import read_assessments
from aifcheck.score.ta2.explain import summary as explain_summary
from aifcheck.score.ta2.nist import ScorerFlags, score_nist
from aifcheck.score.ta2.plan import score_plan
from aifcheck.score.ta2.scores import NIST, PLAN, TA2Scores


@cyclic_gc_paused()  # (aifcheck.score.allocations: 10^5 small objects, no cycle)
def score_ta2(
    run: str | os.PathLike,
    queries_to_score: str | os.PathLike,
    assessments: str | os.PathLike,
    aux: str | os.PathLike,
    run_id: str | None = None,
    cutoff: bool = False,
    normalize: bool = False,
    weighted: bool = False,
    plan: bool = False,
    explain: bool = False,
) -> TA2Scores:
    """Score the TA2 run ``run`` (a folder holding SPARQL-VALID-output/<query_id>.rq.tsv, NIST's
    docker output; or one holding the team's task2_kb.ttl, which NIST's TA2 docker stages are run
    on first, in-process) on the queries of ``queries_to_score`` against LDC's ``assessments`` package
    (data/TA2/*.tab), with NIST's AUX-data folder ``aux``. ``cutoff``, ``normalize`` and
    ``weighted`` are NIST's -C, -N and -W; ``plan`` takes the plan's definitions instead (and none
    of those). The run ID defaults to the run folder's name. ``explain``: each row and the summary
    carry their explanation (TA2Scores.explanations)."""
    run = Path(run)
    if plan and (cutoff or normalize or weighted):
        raise UsageError(
            "--cutoff, --normalize and --weighted are options of NIST's scorer; "
            "--plan divides by min(K, GT) and values items 0 or 1"
        )
    for path, what in (
        (run, "RUN"),
        (Path(queries_to_score), "--queries-to-score"),
        (Path(assessments), "--assessments"),
    ):
        if not path.exists():
            raise UsageError(f"{what}: {path} does not exist")
    # a run given as its KB: NIST's TA2 docker makes a query of each, by its entry point type
    queries = read_queries(queries_to_score, entry_points=TEMPLATES if kb_of(run) is not None else None)
    if plan:
        _check_counts(queries, str(queries_to_score))
    judged = read_assessments(assessments, skip_short=plan)
    tables = load_aux(aux, TA2_CORE)
    files = load_run(run, tables, queries, places=explain)
    notes = [*judged.notes, *_response_notes(queries, files)]
    errors = sum(f.errors for f in files.values())
    name = run_id if run_id is not None else (run.name if run.is_dir() else run.parent.name)
    entities = {q.query_id: q.entity_id for q in queries.values()}
    if plan:
        rows, summary, denominator = score_plan(queries, files, judged, explain)
        per_query = {q: min(queries[q].clusters, sum(r.query_id == q for r in rows)) for q in queries}
        explained = explain_summary(rows, True, summary, per_query) if explain else None
        return TA2Scores(name, PLAN, tuple(rows), summary, entities, (), tuple(notes), errors, denominator, explained)
    flags = ScorerFlags(cutoff, normalize, weighted)
    rows, summary, warnings, more = score_nist(queries, files, judged, flags, explain)
    explained = explain_summary(rows, False, summary, {}) if explain else None
    return TA2Scores(
        name, NIST, tuple(rows), summary, entities, tuple(warnings), tuple(notes + more), errors, None, explained
    )


def _check_counts(queries: Mapping[str, Query], path: str) -> None:
    for query in queries.values():
        if query.clusters < 0 or query.documents < 0:
            raise InputError(
                path,
                f"query {query.query_id}: negative clusters or documents (the plan's C and K are counts)",
                query.line,
            )


def _response_notes(queries: Mapping[str, Query], files: Mapping[str, LoadedResponses]) -> list[str]:
    """What NIST's validator logs of the scored queries' files, one line per kind."""
    notes = []
    missing = [q for q in queries if q not in files]
    if missing:
        notes.append(
            f"{len(missing)} scored quer{'y has' if len(missing) == 1 else 'ies have'} no response file "
            f"({', '.join(missing[:3])}{', ...' if len(missing) > 3 else ''}): no clusters"
        )
    for found in files.values():
        if found.skipped:
            notes.append(f"{found.path}: skipped, {found.skipped} (NIST's scorer skips it: the query has no clusters)")
    what = {
        "invalid": "invalid row(s), scored as NIST does (not pooled, not judged)",
        "dropped": "row(s) dropped (documents unknown or not core)",
        "corrected": "span(s) moved inside their element (the corrected span is the row's key)",
        "confidence": "confidence(s) not in (0, 1] replaced by 1.0",
        "unreadable": "row(s) invalid where NIST's validator stops (C7)",
        "stage": "row(s) dropped or corrected by NIST's validate stage, run on the KB (pipeline ta2 writes its log)",
    }
    for kind in KINDS:
        events = [(f.path, e) for f in files.values() for e in f.events if e.kind == kind]
        if events:
            path, first = events[0]
            where = "" if kind == "stage" else f"{path}:{first.line}: "  # (a stage's event names its own file)
            notes.append(f"{len(events)} {what[kind]}; first: {where}{first.detail}")
    return notes
