"""The CRUX scores explained (aifcheck.score.explain).

Task 1 (claim frames): per document (and ALL), each pair of system and gold claim frames the
matching made, with each field's match or miss and the pair's weight, each system frame left
unmatched (a false alarm, its line) and each gold frame (a miss, its line); per field, each value
of either file and whether the other has it.

Task 2 (relations): per class, each gold pair (an instance) the class counts, at its gold line and
the system line that gave its prediction: a ``pair`` (gold and prediction are the class), a
``miss`` (gold is, the prediction is not) or a ``false-alarm`` (the reverse); the ALL row, each
class's F1 (macro-F1 their mean), each instance predicted right or wrong (the accuracy), and each
system row no instance reads (``uncounted``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

from aifcheck.score.explain import COUNTS_PRF, F1, Explanation, Item, Source

TASK = "crux"
METRIC = "crux-claims"
RELATIONS = "crux-relations"
PRF = (("tp", 'count("pair")'), ("fp", 'count("false-alarm")'), ("fn", 'count("miss")'), *COUNTS_PRF)
COUNTS = (*PRF, ("accuracy", 'total("pair", "weight") / (100 * tp) if tp else 0'))
MACRO = (
    ("macro_f1", 'mean("class", "f1")'),
    ("right", 'count("right")'),
    ("instances", 'count("right") + count("wrong")'),
    ("accuracy", "right / instances if instances else 0"),
)
VALUES = (
    ("found", 'total("value", "in_system * in_gold")'),
    ("system", 'total("value", "in_system")'),
    ("gold", 'total("value", "in_gold")'),
    ("precision", "found / system if system else 0"),
    ("recall", "found / gold if gold else 0"),
    F1,
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
    system_keys, gold_keys = ([(root, keys) for root, keys, *_ in frames] for frames in (system, gold))
    for field in fields:
        ours, theirs = values(system_keys, field), values(gold_keys, field)
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


class Instance(NamedTuple):
    """A gold pair (first, second) with its gold label, the system's prediction ("none" without a
    row), the gold row's line and that of the system row predicting it (None: no row)."""

    first: str
    second: str
    gold: str
    predicted: str
    gold_line: int
    system_line: int | None


def explain_relations(
    instances: Sequence[Instance],
    unscored: Sequence[tuple[str, str, str, int]],
    paths: tuple[str, str],
    rows: dict[str, tuple[tuple[str, object], ...]],
) -> list[Explanation]:
    """``unscored``: (first, label, second, line) of each system row no instance reads; ``paths``:
    the system's and the gold's file; ``rows``: each class's values, and "ALL"'s."""
    system_path, gold_path = paths

    def item(kind: str, instance: Instance) -> Item:
        where = [Source("gold", "relation", gold_path, instance.gold_line)]
        if instance.system_line is not None:
            where.append(Source("system", "relation", system_path, instance.system_line))
        label = f"{instance.first} {instance.gold} {instance.second}: predicted {instance.predicted}"
        return Item(kind, label, (("gold", instance.gold), ("predicted", instance.predicted)), tuple(where))

    found = []
    for label, values in rows.items():
        if label == "ALL":
            continue
        items = tuple(
            item("pair" if i.gold == i.predicted else "miss" if i.gold == label else "false-alarm", i)
            for i in instances
            if label in (i.gold, i.predicted)
        )
        found.append(Explanation(TASK, RELATIONS, (("class", label),), values, PRF, items))
    classes = [Item("class", e.row[0][1], (("f1", dict(e.values)["f1"]),)) for e in found]
    judged = [item("right" if i.gold == i.predicted else "wrong", i) for i in instances]
    left = [
        Item("uncounted", f"{x} {label} {y}: no gold pair", (), (Source("system", "relation", system_path, line),))
        for x, label, y, line in unscored
    ]
    found.append(Explanation(TASK, RELATIONS, (("class", "ALL"),), rows["ALL"], MACRO, (*classes, *judged, *left)))
    return found
