"""The CRUX Task 1 scores explained (aifcheck.score.explain): per document (and ALL), each pair of
system and gold claim frames the matching made, with each field's match or miss and the pair's
weight, each system frame left unmatched (a false alarm, its line) and each gold frame (a miss, its
line); per field, each value of either file and whether the other has it."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from aifcheck.score.explain import Explanation, Item, Source

TASK = "crux"
METRIC = "crux-claims"
COUNTS = (
    ("tp", 'count("pair")'),
    ("fp", 'count("false-alarm")'),
    ("fn", 'count("miss")'),
    ("precision", "tp / (tp + fp) if tp + fp else 0"),
    ("recall", "tp / (tp + fn) if tp + fn else 0"),
    ("f1", "2 * precision * recall / (precision + recall) if precision + recall else 0"),
    ("accuracy", 'total("pair", "weight") / (100 * tp) if tp else 0'),
)
VALUES = (
    ("found", 'total("value", "in_system * in_gold")'),
    ("system", 'total("value", "in_system")'),
    ("gold", 'total("value", "in_gold")'),
    ("precision", "found / system if system else 0"),
    ("recall", "found / gold if gold else 0"),
    ("f1", "2 * precision * recall / (precision + recall) if precision + recall else 0"),
)


def explain_claims(
    system: Sequence[tuple[str, dict, str, int, str]],
    gold: Sequence[tuple[str, dict, str, int, str]],
    pairs: Sequence[tuple[int, int, int]],
    fields: Sequence[str],
    values: Callable[[Sequence[tuple[str, dict]], str], set],
    rows: dict[str, tuple[tuple[str, object], ...]],
) -> list[Explanation]:
    """``system``, ``gold``: (root_uid, comparison keys, file, line, claim ID) per frame; ``pairs``:
    (system index, gold index, weight); ``rows``: each row's values (by root_uid, "ALL", and
    "field:NAME")."""
    matched_system, matched_gold = {s for s, _, _ in pairs}, {g for _, g, _ in pairs}
    items: dict[str, list[Item]] = {}
    for s, g, w in pairs:
        root, keys, path, line, claim = system[s]
        _, other, gold_path, gold_line, gold_claim = gold[g]
        equal = tuple((f, int(keys[f] == other[f])) for f in fields)
        where = (Source("system", "claim", path, line), Source("gold", "claim", gold_path, gold_line))
        found = Item("pair", f"{claim} <-> {gold_claim}", (("weight", w), *equal), where)
        items.setdefault(root, []).append(found)
    for side, frames, done, kind in (
        (("system", system, matched_system, "false-alarm")),
        ("gold", gold, matched_gold, "miss"),
    ):
        for index, (root, _, path, line, claim) in enumerate(frames):
            if index not in done:
                items.setdefault(root, []).append(Item(kind, claim, (), (Source(side, "claim", path, line),)))
    found = [
        Explanation(TASK, METRIC, (("document", root),), rows[root], COUNTS, tuple(items.get(root, ())))
        for root in sorted(r for r in rows if r != "ALL" and not r.startswith("field:"))
    ]
    pooled = tuple(i for root in sorted(items) for i in items[root])
    found.append(Explanation(TASK, METRIC, (("document", "ALL"),), rows["ALL"], COUNTS, pooled))
    for field in fields:
        ours, theirs = values([(r, k) for r, k, *_ in system], field), values([(r, k) for r, k, *_ in gold], field)
        shown = tuple(
            Item(
                "value",
                f"{root}: {value}",
                (("in_system", int((root, value) in ours)), ("in_gold", int((root, value) in theirs))),
            )
            for root, value in sorted(ours | theirs, key=str)
        )
        found.append(Explanation(TASK, METRIC, (("field", field),), rows[f"field:{field}"], VALUES, shown))
    return found
