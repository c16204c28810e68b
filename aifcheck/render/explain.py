"""Explanations of score rows (aifcheck.score.explain) as files: a JSON Lines file per task (a
record per row, then one per item of it) and a plain-text summary per row."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path

from aifcheck.render.output import write_atomically
from aifcheck.score.explain import FOLDER, Explanation, Item, Value, as_records, item_fields, recompute, relocated
from aifcheck.score.moved import Move, changed_values


def write_explanations(folder: Path, task: str, explanations: Iterable[Explanation]) -> None:
    """``folder/explain/<task>.jsonl`` (``score explain`` prints a row's summary from it)."""
    encode = json.JSONEncoder(ensure_ascii=False).encode
    place = relocated(folder, writing=True)
    lines = [encode(r) + "\n" for e in explanations for r in as_records(e, place)]
    write_atomically(folder / FOLDER / f"{task}.jsonl", "".join(lines))


def _show(value: Value) -> str:
    if isinstance(value, float):
        return f"{value:.4f}".rstrip("0").rstrip(".") if value != int(value) else f"{value:.0f}"
    return "-" if value is None else str(value)


def summary(explanation: Explanation) -> str:
    """One row's explanation for a person: the row, its values, each step with its value, and the
    items, each with its numbers and where it comes from."""
    computed = recompute(explanation)
    lines = [f"{explanation.metric}  " + "  ".join(f"{k} {v}" for k, v in explanation.row if v)]
    lines.append("  values: " + "  ".join(f"{k} {_show(v)}" for k, v in explanation.values))
    width = max((len(n) for n, _ in explanation.steps), default=0)
    lines += [f"  {n:<{width}} = {e}  ->  {_show(computed[n])}" for n, e in explanation.steps]
    lines += [f"  note: {note}" for note in explanation.notes]
    counts: dict[str, int] = {}
    for item in explanation.items:
        counts[item.kind] = counts.get(item.kind, 0) + 1
    if counts:
        lines.append("  items: " + ", ".join(f"{n} {k}" for k, n in counts.items()))
    for item in explanation.items:
        numbers = " ".join(f"{k}={_show(v)}" for k, v in item.values)
        lines.append(f"    {item.kind:<20} {item.label}" + (f"  [{numbers}]" if numbers else ""))
        lines += [f"      {w.side} {w.what}: {w}" for w in item.where]
    return "\n".join(lines) + "\n"


def row_line(explanation: Explanation) -> str:
    """The row as ``score explain`` names it (METRIC:VALUE...), with its values."""
    name = ":".join([explanation.metric, *(v for _, v in explanation.row if v)])
    return name + "  " + " ".join(f"{k}={_show(v)}" for k, v in explanation.values) + "\n"


def _moved_value(value: float | None) -> str:
    return "no row" if value is None else _show(value)


def _item_text(item: Item) -> str:
    return f"{item.kind} {item.label}"


def moves_text(found: Sequence[Move], shown: int = 20, items: int = 5) -> str:
    """What moved between two runs: each row whose value changed (the largest first), with the
    items the second run has that the first lacks (+), the reverse (-), and those both have, judged
    otherwise (~, with the values that differ)."""
    if not found:
        return ""
    lines = [f"\nWhat moved ({len(found)} row(s) changed; the {min(shown, len(found))} largest):"]
    for move in found[:shown]:
        key = ":".join([move.metric, *(v for _, v in move.row if v)])
        change = f"{move.column} {_moved_value(move.before)} -> {_moved_value(move.after)}"
        if max(move.rows) > 1:  # the rows of system clusters no gold cluster matches
            change += f" (mean of {move.rows[0]} -> {move.rows[1]} rows)"
        if move.systems[0] != move.systems[1] and len(move.systems[0]) == len(move.systems[1]) == 1:
            change += f" (system {move.systems[0][0]} -> {move.systems[1][0]})"
        lines.append(f"  {key}  {change}")
        for sign, group in (("+", move.gained), ("-", move.lost)):
            lines += [f"    {sign} {_item_text(i)}" for i in group[:items]]
            if len(group) > items:
                lines.append(f"    {sign} ... {len(group) - items} more")
        for pair in move.changed[:items]:
            label = pair[1].label if pair[0].label == pair[1].label else f"{pair[0].label} => {pair[1].label}"
            values = " ".join(f"{k}={_show(a)}->{_show(b)}" for k, a, b in changed_values(pair))
            lines.append(f"    ~ {pair[1].kind} {label}" + (f"  [{values}]" if values else ""))
        if len(move.changed) > items:
            lines.append(f"    ~ ... {len(move.changed) - items} more")
    return "\n".join(lines) + "\n"


def moves_json(found: Sequence[Move]) -> list[dict[str, object]]:
    """What moved, as ``score compare --format json``'s ``moved``: one record per row (docs/explain.md)."""
    return [
        {
            "metric": move.metric,
            "row": dict(move.row),
            "column": move.column,
            "a": move.before,
            "b": move.after,
            "rows": list(move.rows),
            "system_a": list(move.systems[0]),
            "system_b": list(move.systems[1]),
            "gained": [item_fields(i) for i in move.gained],
            "lost": [item_fields(i) for i in move.lost],
            "changed": [{"a": item_fields(a), "b": item_fields(b)} for a, b in move.changed],
        }
        for move in found
    ]
