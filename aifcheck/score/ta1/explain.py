"""Each TA1 score row explained (aifcheck.score.explain): per document and metric, the alignment's
pairs with their similarity and the mention IoUs that made it, each aligned pair's contribution,
each miss (a gold cluster, mention, argument or time with no match: its gold row) and each false
alarm (a system cluster, mention, argument or time: its row of the submission), and the steps from
them to the row's values. The steps are the formulas of docs/explain.md; they read only the items.

The rows of the submission are those of NIST's tables (file and line); where the run was given as
KBs, aifcheck.score.ta1.scorer turns them into the KB's file and line of the node.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from aifcheck.extract.model import Cluster
from aifcheck.pipeline.ta1.align import type_similarity
from aifcheck.pipeline.ta1.locate import KbLines
from aifcheck.pipeline.ta1.tables import Document, TableRow
from aifcheck.score.explain import COUNTS_PRF, F1, Explanation, Item, Source, Value
from aifcheck.score.ta1.metrics import argument, coreference, frame, negation, temporal
from aifcheck.score.ta1.metrics.common import NONE, Inputs, MetricScores, ScoreRow, Trf, frame_trfs

GOLD, SYSTEM = "gold", "system"
TASK = "ta1"
# a row's key, as the score file's columns name it (RunID aside: the run's, on every row)
KEY_COLUMNS = (
    ("document", "DocID"),
    ("language", "Language"),
    ("metatype", "Metatype"),
    ("gold_cluster", "GoldClusterID"),
    ("system_cluster", "SystemClusterID"),
)

UNALIGNED = (
    "no alignment: the run has no KB of this core document (or no valid cluster in it, or the gold has none), "
    "so every gold object is a miss"
)
PRF_STEPS = (
    ("precision", "same / system if system else 0"),
    ("recall", "same / gold if gold else 0"),
    F1,
)
MEAN_STEPS = (
    ("total", 'total("{pair}", "score")'),
    ("count", 'count("{pair}") + count("{miss}") + count("{alarm}")'),
)


@dataclass(frozen=True)
class Locator:
    """Source each object of one side of a document comes from: the first row naming it."""

    side: str
    clusters: dict[str, Source] = field(default_factory=dict)
    mentions: dict[tuple[str, str], Source] = field(default_factory=dict)  # (cluster, printed span)
    edges: dict[tuple[str, str, str], Source] = field(default_factory=dict)  # (subject, object, role)
    times: dict[str, list[Source]] = field(default_factory=dict)  # cluster -> its TM rows, in order

    @classmethod
    def of(cls, side: str, document: Document | None, keep: Callable[[TableRow], bool]) -> Locator:
        found = cls(side)
        if document is None:
            return found
        for row in document.rows("CM"):
            if keep(row):
                found.clusters.setdefault(row["cluster"], Source(side, "cluster", row.path, row.line))
                key = (row["cluster"], row["mention_span"])
                found.mentions.setdefault(key, Source(side, "mention", row.path, row.line))
        for row in document.rows("AM"):
            if keep(row):
                key = (row["subject"], row["object"], row["predicate"])
                found.edges.setdefault(key, Source(side, "argument", row.path, row.line))
        for row in document.rows("TM"):
            if keep(row):
                found.times.setdefault(row["cluster"], []).append(Source(side, "time", row.path, row.line))
        return found

    def in_kb(self, lines: KbLines) -> Locator:
        """The same objects at their lines of the KB (a table's row where the KB's line is unknown)."""

        def at(line: int | None, where: Source) -> Source:
            return Source(where.side, where.what, lines.path, line) if line is not None else where

        times = {
            cluster: [at(found[n] if n < len(found) else None, w) for n, w in enumerate(rows)]
            for cluster, rows in self.times.items()
            for found in [lines.times.get(cluster, [])]
        }
        return Locator(
            self.side,
            {c: at(lines.clusters.get(c), w) for c, w in self.clusters.items()},
            {(c, s): at(lines.mention(c, s), w) for (c, s), w in self.mentions.items()},
            {key: at(lines.arguments.get(key), w) for key, w in self.edges.items()},
            times,
        )

    def cluster(self, cluster: str) -> tuple[Source, ...]:
        found = self.clusters.get(cluster)
        return (found,) if found else ()

    def mention(self, cluster: str, span: str) -> tuple[Source, ...]:
        found = self.mentions.get((cluster, span))
        return (found,) if found else ()

    def trf(self, trf: Trf) -> tuple[Source, ...]:
        return tuple(w for e in trf.edges if (w := self.edges.get((e.subject, e.object, e.role))) is not None)


@dataclass(frozen=True)
class Sides:
    gold: Locator
    system: Locator


def explain_metric(name: str, inputs: Inputs, scores: MetricScores, where: Sides) -> list[Explanation]:
    """Each row of one document's table of metric ``name`` explained, in the table's order."""
    explain = _EXPLAIN[name]
    return [
        Explanation(
            TASK,
            name,
            _key(row, scores),
            tuple(row.values),
            *explain(inputs, row, where, name),
            notes=() if row.document in inputs.alignments else (UNALIGNED,),
        )
        for row in scores.rows
    ]


def explain_summaries(name: str, scores: MetricScores) -> list[Explanation]:
    """Each summary row of a metric's table (ALL-Micro, ALL-Macro per language and metatype)
    explained: the rows it summarises, and their mean (ALL-Macro: the mean of each document's mean)."""
    columns = [c for c in scores.recipe.score_columns if c not in scores.recipe.blank]
    with_all_metatype = not any(r.metatype == "ALL" for r in scores.rows)
    found = []
    for summary in scores.summaries:
        rows = [
            r
            for r in scores.rows
            if summary.language in (r.language, "ALL")
            and (summary.metatype in (r.metatype, "ALL") if with_all_metatype else summary.metatype == r.metatype)
        ]
        items = tuple(
            Item(
                "row",
                ":".join(v for _, v in _key(r, scores) if v),
                (
                    ("document", r.document),
                    *((c, r.get(c)) for c in (*scores.recipe.score_columns, "tp", "fp", "fn") if r.get(c) != ""),
                ),
            )
            for r in rows
        )
        if name == "NegationMetricV2" and summary.document == "ALL-Micro":
            steps = tuple((c, f'total("row", "{c}")') for c in ("tp", "fp", "fn")) + COUNTS_PRF
        else:
            shown = [c for c in columns if summary.get(c) != ""]
            of = 'mean("row", "{c}")' if summary.document == "ALL-Micro" else 'group_mean("row", "{c}", "document")'
            steps = tuple((c, of.format(c=c)) for c in shown)
        values = tuple((c, v) for c, v in summary.values if v != "")
        found.append(Explanation(TASK, name, _key(summary, scores), values, steps, items))
    return found


def _key(row: ScoreRow, scores: MetricScores) -> tuple[tuple[str, str], ...]:
    names = {c.name for c in scores.columns}
    present = {"document", "language", "metatype"} | (
        {"gold_cluster", "system_cluster"} if "gold_cluster_id" in names else set()
    )
    return tuple(
        (header, "" if row.summary and field.endswith("_cluster") else str(getattr(row, field)))
        for field, header in KEY_COLUMNS
        if field in present
    )


Explained = tuple[tuple[tuple[str, str], ...], tuple[Item, ...]]  # (steps, items)


def _cluster_item(kind: str, where: Sides, gold_id: str, system_id: str, values=()) -> Item:
    label = f"{gold_id} <-> {system_id}" if kind == "pair" else gold_id if kind == "miss" else system_id
    found = (*where.gold.cluster(gold_id), *where.system.cluster(system_id))
    return Item(kind, label, tuple(values), found)


def _mention_items(inputs: Inputs, document: str, gold_id: str, system_id: str, where: Sides) -> list[Item]:
    """The mention alignment of a pair of clusters: each pair with its IoU, each mention left out."""
    alignment = inputs.alignments[document]
    pairs = alignment.mentions.get(gold_id, [])
    items = [
        Item(
            "mention-pair",
            f"{system} <-> {gold}",
            (("iou", iou), ("gold_cluster", gold_id), ("system_cluster", system_id)),
            (*where.gold.mention(gold_id, gold), *where.system.mention(system_id, system)),
        )
        for gold, system, iou in pairs
    ]
    paired_gold, paired_system = {g for g, _, _ in pairs}, {s for _, s, _ in pairs}
    gold_cluster = inputs.gold[document].get(gold_id)
    system_cluster = alignment.graphs["system"].get(system_id)
    items += [
        Item("mention-miss", key, (("gold_cluster", gold_id),), where.gold.mention(gold_id, key))
        for key in (gold_cluster.by_span if gold_cluster else ())
        if key not in paired_gold
    ]
    items += [
        Item("mention-false-alarm", key, (("system_cluster", system_id),), where.system.mention(system_id, key))
        for key in (system_cluster.by_span if system_cluster else ())
        if key not in paired_system
    ]
    return items


def _filtered_unaligned(inputs: Inputs, document: str) -> list[Cluster]:
    """The system clusters of the document that passed the filter and are not aligned."""
    alignment = inputs.alignments.get(document)
    graph = inputs.system.get(document)
    if graph is None:
        return []
    aligned = alignment.system_to_gold if alignment is not None else {}
    return [c for c in graph.clusters if c.iri not in aligned]


def _coreference(inputs: Inputs, row: ScoreRow, where: Sides, _name: str) -> Explained:
    document, metatypes = row.document, coreference.GROUPS[row.metatype]
    alignment = inputs.alignments.get(document)
    gold = inputs.gold.get(document)
    items: list[Item] = []
    aligned = alignment.gold_to_system if alignment is not None else {}

    def plan_self(cluster: Cluster | None) -> float:
        if cluster is None or not cluster.weighted_types:
            return 0
        return type_similarity(cluster, cluster, inputs.types) * len(cluster.by_span)

    def own_self(cluster: Cluster) -> tuple:  # what an unaligned cluster adds to the plan's denominators
        return (("self", plan_self(cluster)),) if inputs.plan else ()

    for gold_id, (system_id, similarity) in aligned.items():
        if gold.cluster(gold_id).metatype not in metatypes:
            continue
        selves = (
            (plan_self(gold.cluster(gold_id)), plan_self(inputs.system_cluster(document, system_id)))
            if inputs.plan
            else (alignment.self_similarity[GOLD][gold_id], alignment.self_similarity[SYSTEM][system_id])
        )
        type_sim = alignment.types(gold.cluster(gold_id), alignment.graphs[SYSTEM].cluster(system_id))
        values = (
            ("similarity", similarity),
            ("type_similarity", type_sim),
            ("mention_pairs", len(alignment.mentions.get(gold_id, []))),
            ("gold_self", selves[0]),
            ("system_self", selves[1]),
        )
        items.append(_cluster_item("pair", where, gold_id, system_id, values))
        items += _mention_items(inputs, document, gold_id, system_id, where)
    for cluster in gold.clusters if gold is not None else ():
        if cluster.iri not in aligned and cluster.metatype in metatypes:
            items.append(_cluster_item("miss", where, cluster.iri, NONE, own_self(cluster)))
    for cluster in _filtered_unaligned(inputs, document):
        if cluster.metatype in metatypes:
            items.append(_cluster_item("false-alarm", where, NONE, cluster.iri, own_self(cluster)))
    extra = (' + total("miss", "self")', ' + total("false-alarm", "self")') if inputs.plan else ("", "")
    steps = (
        ("same", 'total("pair", "similarity")'),
        ("gold", f'total("pair", "gold_self"){extra[0]}'),
        ("system", f'total("pair", "system_self"){extra[1]}'),
        *PRF_STEPS,
    )
    return steps, tuple(items)


def _unaligned(row: ScoreRow, where: Sides, column: str) -> Explained:
    """A row of a gold cluster with no system cluster, or the reverse: it scores 0."""
    kind, gold_id, system_id = (
        ("miss", row.gold_cluster, NONE) if row.system_cluster == NONE else ("false-alarm", NONE, row.system_cluster)
    )
    return ((column, "0"),), (_cluster_item(kind, where, gold_id, system_id),)


def _type_metric(inputs: Inputs, row: ScoreRow, where: Sides, _name: str) -> Explained:
    if NONE in (row.gold_cluster, row.system_cluster):
        return _unaligned(row, where, "type_similarity")
    alignment = inputs.alignments[row.document]
    system, gold = (
        alignment.graphs[SYSTEM].cluster(row.system_cluster),
        alignment.graphs[GOLD].cluster(row.gold_cluster),
    )
    similarity = inputs.types.similarity
    items = [_cluster_item("pair", where, row.gold_cluster, row.system_cluster)]
    items += [
        Item(
            "type-pair",
            f"{q1} ~ {q2}",
            (("system_weight", c1), ("gold_weight", c2), ("dwd_similarity", dwd), ("product", c1 * c2 * dwd)),
        )
        for q1, c1 in system.weighted_types
        for q2, c2 in gold.weighted_types
        for dwd in [similarity(q1, q2)]
    ]
    return (("type_similarity", 'most("type-pair", "product")'),), tuple(items)


def _frame(inputs: Inputs, row: ScoreRow, where: Sides, _name: str) -> Explained:
    if NONE in (row.gold_cluster, row.system_cluster):
        return _unaligned(row, where, "average_edge_score")
    document = row.document
    gold_list = frame_trfs(inputs.gold[document], row.gold_cluster)
    system_list = frame_trfs(inputs.system.get(document), row.system_cluster)
    matched = frame.edge_matching(inputs, document, gold_list, system_list)
    items = [_cluster_item("pair", where, row.gold_cluster, row.system_cluster)]
    items += _scored_pairs(
        ("edge-pair", "subject_similarity", "role_similarity", "filler_similarity"),
        matched,
        (gold_list, system_list),
        lambda g, s: frame.edge_components(inputs, document, g, s),
        where,
    )
    items += _unmatched(gold_list, system_list, matched, where, "edge")
    steps = tuple((n, e.format(pair="edge-pair", miss="edge-miss", alarm="edge-false-alarm")) for n, e in MEAN_STEPS)
    return (*steps, ("average_edge_score", "total / count if count else 0")), tuple(items)


def _trf_item(kind: str, gold: Trf | None, system: Trf | None, values: tuple, where: Sides) -> Item:
    def name(trf: Trf) -> str:
        return f"{trf.subject} -[{','.join(sorted(trf.roles))}]-> {trf.filler}"

    label = " <-> ".join(name(t) for t in (system, gold) if t is not None)
    found = (*(where.gold.trf(gold) if gold else ()), *(where.system.trf(system) if system else ()))
    return Item(kind, label, values, found)


def _scored_pairs(
    names: tuple[str, ...],
    matched: Iterable[tuple[int, int, float]],
    lists: tuple[list[Trf], list[Trf]],
    components: Callable[[Trf, Trf], tuple[float, ...]],
    where: Sides,
    keep: Callable[[Trf], bool] = lambda _t: True,
) -> list[Item]:
    """An item of kind ``names[0]`` per matched pair (gold index, system index, score) whose system
    TRF is kept, with the components of its score named by ``names[1:]``, and the score."""
    gold_list, system_list = lists
    return [
        _trf_item(
            names[0],
            gold_list[i],
            system_list[j],
            (*zip(names[1:], components(gold_list[i], system_list[j]), strict=True), ("score", score)),
            where,
        )
        for i, j, score in matched
        if keep(system_list[j])
    ]


def _unmatched(
    gold_list: list[Trf],
    system_list: list[Trf],
    matched: Iterable[tuple[int, int, float]],
    where: Sides,
    what: str,
    keep=lambda _t: True,
) -> list[Item]:
    matched = list(matched)
    gold_done, system_done = {i for i, _, _ in matched}, {j for _, j, _ in matched}
    items = [
        _trf_item(f"{what}-miss", t, None, (), where) for i, t in enumerate(gold_list) if i not in gold_done and keep(t)
    ]
    items += [
        _trf_item(f"{what}-false-alarm", None, t, (), where)
        for j, t in enumerate(system_list)
        if j not in system_done and keep(t)
    ]
    return items


def _argument(inputs: Inputs, row: ScoreRow, where: Sides, name: str) -> Explained:
    document, metatypes = row.document, argument.GROUPS[row.metatype]
    variant, justified = name[-2], name.endswith("1")
    gold_list, system_list, matched = argument.matched_trfs(inputs, document, variant, justified)
    items = _scored_pairs(
        ("trf-pair", "subject_type_similarity", "roles_precision", "filler_similarity"),
        sorted(matched, key=lambda m: m[1]),  # NIST adds in system TRF order
        (gold_list, system_list),
        lambda g, s: argument.trf_components(inputs, document, g, s),
        where,
        keep=lambda t: t.metatype in metatypes,
    )
    items += _unmatched(gold_list, system_list, matched, where, "trf", keep=lambda t: t.metatype in metatypes)
    steps = tuple((n, e.format(pair="trf-pair", miss="trf-miss", alarm="trf-false-alarm")) for n, e in MEAN_STEPS)
    return (*steps, ("trf_score", "total / count if count else 0")), tuple(items)


def _temporal(inputs: Inputs, row: ScoreRow, where: Sides, _name: str) -> Explained:
    document, gold_id, system_id = row.document, row.gold_cluster, row.system_cluster
    gold_tuple = temporal._tuple(inputs.gold[document].times_of(gold_id)[0], inputs.plan, document, gold_id)
    gold_rows = where.gold.times.get(gold_id, [])
    items = [_cluster_item("miss" if system_id == NONE else "pair", where, gold_id, system_id)]
    times = inputs.system[document].times_of(system_id) if system_id != NONE else ()
    system_rows = where.system.times.get(system_id, [])
    for number, time in enumerate(times):
        system_tuple = temporal._tuple(time, inputs.plan, document, system_id)
        terms, bounds = 0, 0
        for bound, (k, r) in enumerate(zip(gold_tuple, system_tuple, strict=True)):
            if k is None:
                continue
            days = abs((k - r).days) if r is not None else None
            term = temporal.C / (temporal.C + days / 365) if days is not None else 0
            terms += term
            bounds += 1
            items.append(
                Item(
                    "bound",
                    f"T{bound + 1} of tuple {number + 1}",
                    (
                        ("gold", _date(k)),
                        ("system", _date(r)),
                        ("days", days),
                        ("term", term),
                    ),
                    (*gold_rows[:1], *system_rows[number : number + 1]),
                )
            )
        items.append(
            Item(
                "tuple",
                f"tuple {number + 1}",
                (("sum", terms), ("bounds", bounds)),
                (*gold_rows[:1], *system_rows[number : number + 1]),
            )
        )
    return (("similarity", 'mean("tuple", "sum / bounds if bounds else 0")'),), tuple(items)


def _date(value: datetime.date | None) -> Value:
    return value.isoformat() if value is not None else None


def _negation_v1(inputs: Inputs, row: ScoreRow, where: Sides, _name: str) -> Explained:
    items = []
    pooled = row.gold_cluster == NONE  # the plan's row: every aligned pair of the metatype, pooled
    for metatype, gold_id, system_id, matched, _, _ in negation.aligned_pairs(inputs, row.document):
        if (metatype != row.metatype) if pooled else (gold_id, system_id) != (row.gold_cluster, row.system_cluster):
            continue
        items.append(_cluster_item("pair", where, gold_id, system_id))
        items += _negation_pairs(matched, gold_id, system_id, where, every=True)
        system = inputs.system_cluster(row.document, system_id)
        gold = inputs.gold[row.document].cluster(gold_id)
        paired_system, paired_gold = {m[2] for m in matched}, {m[3] for m in matched}
        items += [
            Item("mention-false-alarm", key, (), where.system.mention(system_id, key))
            for key in system.by_span
            if key not in paired_system
        ]
        items += [
            Item("mention-miss", key, (), where.gold.mention(gold_id, key))
            for key in gold.by_span
            if key not in paired_gold
        ]
    steps = (
        ("same", 'total("mention-pair", "system_negated == gold_negated")'),
        ("system", 'count("mention-pair") + count("mention-false-alarm")'),
        ("gold", 'count("mention-pair") + count("mention-miss")'),
        *PRF_STEPS,
    )
    return steps, tuple(items)


def _negation_pairs(matched, gold_id: str, system_id: str, where: Sides, every: bool) -> list[Item]:
    return [
        Item(
            "mention-pair",
            f"{system_key} <-> {gold_key}",
            (("system_negated", int(system_negated)), ("gold_negated", int(gold_negated))),
            (*where.gold.mention(gold_id, gold_key), *where.system.mention(system_id, system_key)),
        )
        for system_negated, gold_negated, system_key, gold_key in matched
        if every or system_negated or gold_negated
    ]


def _negation_v2(inputs: Inputs, row: ScoreRow, where: Sides, _name: str) -> Explained:
    items = []
    for metatype, gold_id, system_id, matched, _, _ in negation.aligned_pairs(inputs, row.document):
        if metatype in negation.V2_GROUPS[row.metatype]:
            items += _negation_pairs(matched, gold_id, system_id, where, every=False)
    steps = (
        ("tp", 'total("mention-pair", "system_negated * gold_negated")'),
        ("fp", 'total("mention-pair", "system_negated * (1 - gold_negated)")'),
        ("fn", 'total("mention-pair", "(1 - system_negated) * gold_negated")'),
        *COUNTS_PRF,
    )
    return steps, tuple(items)


_EXPLAIN: dict[str, Callable[[Inputs, ScoreRow, Sides, str], Explained]] = {
    "CoreferenceMetric": _coreference,
    "FrameMetric": _frame,
    "TemporalMetric": _temporal,
    "NegationMetricV1": _negation_v1,
    "NegationMetricV2": _negation_v2,
    "TypeMetricV4": _type_metric,
    **{f"ArgumentMetricV3{variant}{n}": _argument for variant in argument.VARIANTS for n in (1, 2)},
}
