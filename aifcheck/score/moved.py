"""What moved between two runs scored with ``--explain`` (``score compare``'s last section): the
score rows whose value differs, with the items one run has and the other lacks, and the items both
have whose judgement differs.

Rows are matched by what is stable across runs: the gold side of their key (document, language,
metatype, gold cluster, query, entity class, condition, list), never the system's cluster ID, which
each run names its own way. Where one run has several rows under a key (TA1's rows of a system
cluster no gold cluster matches: gold cluster ``None``), they move together: their number and their
mean. Items are matched the same way: a gold object (a miss, a pair, an assessed rank) is the same
item in both runs, named by its gold row; a system object that has no gold row by its label.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import PurePath

from aifcheck.score.explain import Explanation, Item, Value, is_summary

SYSTEM_SIDE = frozenset({"SystemClusterID"})  # key columns each run names its own way
Key = tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Move:
    """The rows under one stable key whose value differs between two runs."""

    metric: str
    row: Key  # the stable part of the rows' key
    column: str  # the row's headline value (F1 where it has one, else its first)
    before: float | None  # None: the first run has no row under the key
    after: float | None
    rows: tuple[int, int]  # the number of rows under the key in each run
    systems: tuple[tuple[str, ...], tuple[str, ...]]  # each run's system side of the rows (their system clusters)
    gained: tuple[Item, ...]  # in the second run only
    lost: tuple[Item, ...]  # in the first run only
    changed: tuple[tuple[Item, Item], ...]  # in both, judged otherwise (first run's, second run's)

    @property
    def change(self) -> float:
        return abs((self.after or 0.0) - (self.before or 0.0))


def stable_key(explanation: Explanation) -> Key:
    return tuple((k, v) for k, v in explanation.row if k not in SYSTEM_SIDE)


def headline(explanation: Explanation) -> str | None:
    """The column a row is compared on: F1 where the row has one, else its first value."""
    names = [name for name, _ in explanation.values]
    return "f1" if "f1" in names else names[0] if names else None


def _identity(item: Item) -> tuple[str, str]:
    """An item as both runs name it: its kind and its gold row (file, by its last two parts, and
    line), or its label where it has no gold row."""
    gold = next((w for w in item.where if w.side == "gold"), None)
    if gold is None:
        return (item.kind, item.label)
    return (item.kind, f"{'/'.join(PurePath(gold.file).parts[-2:])}:{gold.line}")


def _group_value(rows: Sequence[Explanation], column: str) -> float | None:
    values = [float(dict(e.values).get(column) or 0) for e in rows]
    return sum(values) / len(values) if values else None


def _systems(rows: Sequence[Explanation]) -> tuple[str, ...]:
    return tuple(v for e in rows for k, v in e.row if k in SYSTEM_SIDE)


def _items(rows: Sequence[Explanation]) -> dict[tuple[str, str, int], Item]:
    """The rows' items by their identity and their rank among the items of that identity (a gold
    time row gives each of a tuple's bounds)."""
    found: dict[tuple[str, str, int], Item] = {}
    seen: dict[tuple[str, str], int] = {}
    for explanation in rows:
        for item in explanation.items:
            name = _identity(item)
            seen[name] = seen.get(name, -1) + 1
            found[(*name, seen[name])] = item
    return found


def _by_key(explanations: Iterable[Explanation]) -> dict[tuple[str, Key], list[Explanation]]:
    found: dict[tuple[str, Key], list[Explanation]] = {}
    for explanation in explanations:
        if not is_summary(explanation):
            found.setdefault((explanation.metric, stable_key(explanation)), []).append(explanation)
    return found


def moves(first: Iterable[Explanation], second: Iterable[Explanation]) -> list[Move]:
    """The per-document or per-query rows that differ between two runs' explanations, largest
    change first (then those whose number of rows differs)."""
    before, after = _by_key(first), _by_key(second)
    found = []
    for key in dict.fromkeys([*before, *after]):
        a, b = before.get(key, []), after.get(key, [])
        column = headline((a or b)[0])
        if column is None:
            continue
        old, new = _group_value(a, column), _group_value(b, column)
        if old == new and len(a) == len(b):
            continue
        have, get = _items(a), _items(b)
        changed = tuple(
            (have[k], i) for k, i in get.items() if k in have and (have[k].label, have[k].values) != (i.label, i.values)
        )
        found.append(
            Move(
                metric=key[0],
                row=key[1],
                column=column,
                before=old,
                after=new,
                rows=(len(a), len(b)),
                systems=(_systems(a), _systems(b)),
                gained=tuple(i for k, i in get.items() if k not in have),
                lost=tuple(i for k, i in have.items() if k not in get),
                changed=changed,
            )
        )
    return sorted(found, key=lambda m: (-m.change, -abs(m.rows[1] - m.rows[0])))


def changed_values(pair: tuple[Item, Item]) -> tuple[tuple[str, Value, Value], ...]:
    """The values an item has in both runs that differ: (name, first run's, second run's)."""
    a, b = dict(pair[0].values), dict(pair[1].values)
    return tuple((k, a.get(k), b.get(k)) for k in dict.fromkeys([*a, *b]) if a.get(k) != b.get(k))
