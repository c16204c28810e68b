"""Each TA2 score row explained (aifcheck.score.explain): a pseudo-query (a query and one of its
entity classes), the aligned cluster's judged rows in rank order, each with its response row and the
assessment line that judged it, the precision at each rank holding a right mention of the class, the
documents the class's relevant count takes, and the average precision they give; the other selected
clusters with their AP for the class show what the alignment chose from. A row's items are made
when read (aifcheck.score.explain.MadeItems), from the rows and judgements the scorer keeps."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence

from aifcheck.pipeline.ta2.queries import Query
from aifcheck.pipeline.ta2.responses import LoadedResponses, Response
from aifcheck.score.explain import Explanation, Item, MadeItems, Source
from aifcheck.score.ta2.assessments import RIGHT, Judgement

TASK = "ta2"
METRIC = "AcrossDocumentsCoreferenceMetricV2"
AP_STEPS = (("sum", 'total("rank", "precision")'), ("ap", "sum / rel_counted if rel_counted else 0"))


def _key(query: Query, fqec: str) -> tuple[tuple[str, str], ...]:
    return (("QueryID", query.query_id), ("AssdEntity", fqec))


# Items and places made as plain tuples (a run's ranked rows are tens of thousands)
_new = tuple.__new__


def _rank_item(row: Response, file: LoadedResponses | None, j: Judgement | None, numbers: tuple, query: str) -> Item:
    """A ranked row: ``numbers`` (its rank first), then the label and class of the line that judged
    it, and ``line_of`` the query whose line that is where it is another query's (NIST's scorer
    judges by any query's line). Its places: the response row, the lines of its cluster and
    mention in the KB where the run was given as its KB, the assessment line."""
    where = (_new(Source, ("system", "response", file.path if file else "", row.line)),)
    if file is not None and file.places is not None:
        cluster, mention = file.places.of(row.cluster, row.span)
        kb = file.places.path
        where += tuple(
            _new(Source, ("system", what, kb, line))
            for what, line in (("cluster", cluster), ("mention", mention))
            if line
        )
    label = f"{row.span_text} ({row.cluster})"
    if j is None:
        return _new(Item, ("rank", label, (*numbers, ("label", None)), where))
    judged = (("label", j.nist_label), ("class", j.nist_fqec))
    if j.query_id != query:
        judged += (("line_of", j.query_id),)
    return _new(Item, ("rank", label, numbers + judged, (*where, _new(Source, ("gold", "assessment", j.path, j.line)))))


def _clusters(aps: Mapping[str, float], aligned: str | None) -> list[Item]:
    return [Item("cluster", c, (("ap", ap), ("aligned", int(c == aligned)))) for c, ap in aps.items()]


def _relevant(documents: Iterable[str], shown: int = 10) -> list[Item]:
    """The class's relevant documents (those of a right assessment line of the class), as one item."""
    found = sorted(documents)
    named = ", ".join(found[:shown]) + (f", ... ({len(found) - shown} more)" if len(found) > shown else "")
    return [Item("relevant", named or "none", (("documents", len(found)),))]


def nist_row(
    query: Query,
    fqec: str,
    values: tuple[tuple[str, object], ...],
    walk: Sequence[tuple[int, Judgement]],
    rows: Sequence[Response],
    file: LoadedResponses | None,
    weights: Sequence[float],
    relevant: Iterable[str],
    cutoff: bool,
    aps: Mapping[str, float],
    aligned: str | None,
) -> Explanation:
    """A row as NIST's scorer computes it: at each judged row, a right one of the class adds its
    weight to the hits, and the sum adds hits / rank; AP = sum / RelCntd."""

    def items() -> Iterator[Item]:
        hits = 0
        for rank, (index, j) in enumerate(walk, 1):
            if cutoff and 0 < query.documents < rank:  # NIST stops after K rows
                break
            weight = weights[index]
            if j.nist_right and j.nist_fqec == fqec:
                hits += weight
                numbers = (("rank", rank), ("right", 1), ("hits", hits), ("precision", hits / rank))
            else:
                numbers = (("rank", rank), ("right", 0), ("hits", hits), ("precision", 0))
            if weight != 1:  # (-W, -N)
                numbers += (("weight", weight),)
            yield _rank_item(rows[index], file, j, numbers, query.query_id)
        yield from _relevant(relevant)
        yield from _clusters(aps, aligned)

    counted = f"min(rel, {query.documents})" if cutoff else "rel"
    steps = (("rel", 'total("relevant", "documents")'), ("rel_counted", counted), *AP_STEPS)
    return Explanation(TASK, METRIC, _key(query, fqec), values, steps, MadeItems(items))


def plan_row(
    query: Query,
    g: str,
    values: tuple[tuple[str, object], ...],
    pooled: Sequence[int],
    rows: Sequence[Response],
    file: LoadedResponses | None,
    own: Mapping[str, Judgement],
    truth: Iterable[str],
    aps: Mapping[str, float],
    aligned: str | None,
) -> Explanation:
    """A row as the plan defines it: each ranked item judged by the query's own line (none: 0 at
    its rank), precision hits / rank at each right item of the class; AP = sum / min(K, GT)."""

    def items() -> Iterator[Item]:
        hits = 0
        for rank, index in enumerate(pooled, 1):
            j = own.get(rows[index].span_text)
            right = int(j is not None and j.plan_label in RIGHT and j.plan_class == g)
            hits += right
            numbers = (("rank", rank), ("right", right), ("hits", hits), ("precision", hits / rank if right else 0))
            yield _rank_item(rows[index], file, j, numbers, query.query_id)
        yield from _relevant(truth)
        yield from _clusters(aps, aligned)

    steps = (("rel", 'total("relevant", "documents")'), ("rel_counted", f"min({query.documents}, rel)"), *AP_STEPS)
    return Explanation(TASK, METRIC, _key(query, g), values, steps, MadeItems(items))


def summary(rows: Sequence, plan: bool, summary_value: float | None, denominators: Mapping[str, int]) -> Explanation:
    """The Summary row: NIST's mean AP over the rows with RelCntd > 0; the plan's sum of AP over
    the sum of min(C, |G(q)|) over the queries."""
    items = [
        Item(
            "row" if plan or row.rel_counted else "uncounted",
            f"{row.query_id}:{row.fqec}",
            (("ap", row.ap), ("rel_counted", row.rel_counted)),
        )
        for row in rows
    ]
    if plan:
        items += [Item("query", q, (("min_c_g", n),)) for q, n in denominators.items()]
        steps = (
            ("denominator", 'total("query", "min_c_g")'),
            ("ap", 'total("row", "ap") / denominator if denominator else 0'),
        )
    else:
        steps = (("ap", 'mean("row", "ap")'),)
    values = (("ap", summary_value),) if summary_value is not None else ()
    return Explanation(TASK, METRIC, (("QueryID", "ALL-Macro"), ("AssdEntity", "")), values, steps, tuple(items))
