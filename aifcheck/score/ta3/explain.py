"""Each TA3 score row explained (aifcheck.score.explain): per query and list, the ranked claims as
scored (the run's ranking row, the claim-mappings row of its pool claim, LDC's relation and whether
its required fields are correct), each claim's relation scale, novelty and gain, each DCG term, the
ideal list and its terms, and the normalisation; for F1, each claim's value combination, which are
new and in the truth, and the F1 at each cutoff."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from aifcheck.score.explain import F1, Explanation, Item, Source

TASK = "ta3"
DCG = 'total("{kind}", "gain / log2(rank + 1)")'


def _key(condition: str, query_id: str, relation: str) -> tuple[tuple[str, str], ...]:
    return (("Condition", condition), ("QueryID", query_id), ("ClaimRelation", relation))


def ndcg(
    metric: str,
    key: tuple[str, str, str],
    values: tuple[tuple[str, object], ...],
    ranked: Sequence[tuple[object, str | None]],
    scales: Sequence[float],
    gains: Sequence[float],
    ideal: Sequence[tuple[str, float]],
    about: Callable[[str], tuple[tuple[str, object], ...]],
    where: Callable[[object, str | None], tuple[Source, ...]],
) -> Explanation:
    """NDCG = DCG / IDCG: DCG adds each submitted claim's gain / log2(rank + 1), IDCG the ideal
    list's; a gain is the relation scale x the least novelty against the query claim frame and
    every claim above."""
    items = []
    for rank, ((claim, uid), scale, gain) in enumerate(zip(ranked, scales, gains, strict=True), 1):
        numbers = (
            ("rank", rank),
            ("assessed", int(uid is not None)),
            ("scale", scale),
            ("novelty", gain / scale if scale else None),
            ("gain", gain),
        )
        label = f"{claim.claim_id} ({uid or 'not assessed'}, tagged {claim.tag})"
        items.append(Item("rank", label, (*numbers, *(about(uid) if uid else ())), where(claim, uid)))
    items += [
        Item("ideal", uid, (("rank", rank), ("gain", gain), *about(uid)), where(None, uid))
        for rank, (uid, gain) in enumerate(ideal, 1)
    ]
    steps = (
        ("dcg", DCG.format(kind="rank")),
        ("idcg", DCG.format(kind="ideal")),
        ("ndcg", "dcg / idcg if idcg > 0 else 0"),
        ("assessed", 'total("rank", "assessed")'),
        ("gt", 'count("ideal")'),
    )
    return Explanation(TASK, metric, _key(*key), values, steps, tuple(items))


def f1(
    metric: str,
    key: tuple[str, str, str],
    values: tuple[tuple[str, object], ...],
    ranked: Sequence[tuple[object, str | None]],
    combos: Sequence[str | None],
    truth: set[str],
    curve: Sequence[tuple[float, int]],
    cutoff: int | None,
    plan: bool,
    where: Callable[[object, str | None], tuple[Source, ...]],
) -> Explanation:
    """F1 at the cutoff (the earliest k of the best F1): precision = unique combinations / k,
    recall = unique (the plan: those in the truth) / the truth's combinations."""
    items, seen = [], set()
    for k, ((claim, uid), combo) in enumerate(zip(ranked, combos, strict=True), 1):
        new = int(combo is not None and combo not in seen)
        seen.add(combo)
        numbers = (("rank", k), ("new", new), ("in_truth", int(combo in truth)), ("f1_at_k", curve[k - 1][0]))
        kind = "rank" if cutoff is not None and k <= cutoff else "later"
        items.append(
            Item(
                kind,
                f"{claim.claim_id} ({uid or 'not assessed'}): {combo or 'not counted'}",
                numbers,
                where(claim, uid),
            )
        )
    items += [Item("truth", combo) for combo in sorted(truth)]
    found = 'total("rank", "new * in_truth")' if plan else "unique"
    steps = (
        ("cutoff", 'count("rank")'),
        ("unique", 'total("rank", "new")'),
        ("gt", 'count("truth")'),
        ("precision", "unique / cutoff if cutoff else 0"),
        ("recall", f"{found} / gt if gt else 0"),
        F1,
        ("best_later", 'most("later", "f1_at_k")'),
    )
    return Explanation(TASK, metric, _key(*key), values, steps, tuple(items))


def macro(
    metric: str, condition: str, relation: str, rows: Sequence[tuple[str, float, int]], value: float | None
) -> Explanation:
    """An ALL-Macro row: the mean over the group's queries with GT > 0 (``rows``: query, value, GT)."""
    items = tuple(Item("row" if gt > 0 else "uncounted", q, (("value", v), ("gt", gt))) for q, v, gt in rows)
    name = "ndcg" if metric.startswith("NDCG") else "f1"
    values = ((name, value),) if value is not None else ()
    return Explanation(
        TASK, metric, _key(condition, "ALL-Macro", relation), values, ((name, 'mean("row", "value")'),), items
    )
