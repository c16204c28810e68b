"""Explanations of score rows (aifcheck.score.explain) as files: a JSON Lines file per task (a
record per row, then one per item of it) and a plain-text summary per row."""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path

from aifcheck.errors import OutputError
from aifcheck.render.output import replaced
from aifcheck.score.allocations import cyclic_gc_paused
from aifcheck.score.explain import (
    FOLDER,
    Explanation,
    Item,
    Value,
    item_fields,
    recompute,
    relocated,
    row_name,
    row_record,
)
from aifcheck.score.moved import Move, changed_values


@cyclic_gc_paused()  # (aifcheck.score.allocations: 10^5 small objects, no cycle)
def write_explanations(folder: Path, task: str, explanations: Iterable[Explanation]) -> None:
    """``folder/explain/<task>.jsonl`` (``score explain`` prints a row's summary from it), whole or
    not at all, written row by row (a run's explanations are tens of MB: never all in memory)."""
    place = relocated(folder, writing=True)
    target = folder / FOLDER / f"{task}.jsonl"
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        with replaced(target) as partial, open(partial, "w", encoding="utf-8") as out:
            for explanation in explanations:
                out.writelines(lines(explanation, place))
    except OSError as exc:
        raise OutputError(f"cannot write {target}: {exc.strerror or exc}") from None


_encode = json.JSONEncoder(ensure_ascii=False).encode
_string = json.encoder.encode_basestring  # a JSON string, non-ASCII kept as it is (ensure_ascii=False)
# a value as json's encoder writes it, by its type (written here: a run's explanations hold
# hundreds of thousands of items, and the encoder's general path costs most of their writing)
_BY_TYPE: dict[type, Callable[[Value], str]] = {
    str: _string,
    int: int.__repr__,
    float: lambda v: float.__repr__(v) if math.isfinite(v) else _encode(v),
    bool: lambda v: "true" if v else "false",
    type(None): lambda _v: "null",
}
_KEYS: dict[str, str] = {}  # a value's name, as JSON, with its separator


def _key(name: str) -> str:
    _KEYS[name] = found = _string(name) + ": "
    return found


def lines(explanation: Explanation, place: Callable[[str], str] = str) -> Iterator[str]:
    """The JSON Lines of a row: its record, then one per item (with the row's task, metric and
    key, then item_fields), each as json's encoder writes it (a value named twice is written
    twice: a reader keeps the last, as a dict does)."""
    yield _encode(row_record(explanation)) + "\n"
    base = {"record": "item", "task": explanation.task, "metric": explanation.metric, "row": dict(explanation.row)}
    head = _encode(base)[:-1] + ', "kind": '
    keys, by_type, string = _KEYS, _BY_TYPE, _string  # (locals: the loop runs once per item of a run)
    sides: dict[tuple[str, str], str] = {}
    files: dict[str, str] = {}
    for kind, label, values, where in explanation.items:
        try:
            text = ", ".join([keys[k] + by_type[type(v)](v) for k, v in values])
        except KeyError:  # a name met first, or a value of another type
            text = ", ".join([(keys.get(k) or _key(k)) + (by_type.get(type(v)) or _encode)(v) for k, v in values])
        places = []
        for side, what, file, line in where:
            prefix = sides.get((side, what))
            if prefix is None:
                prefix = sides[side, what] = f'{{"side": {string(side)}, "what": {string(what)}, "file": '
            name = files.get(file)
            if name is None:
                name = files[file] = string(place(file))
            places.append(f'{prefix}{name}, "line": {"null" if line is None else int.__repr__(line)}}}')
        where_text = ", ".join(places)
        yield f'{head}{string(kind)}, "label": {string(label)}, "values": {{{text}}}, "where": [{where_text}]}}\n'


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
    counts = Counter(item.kind for item in explanation.items)
    if counts:
        lines.append("  items: " + ", ".join(f"{n} {k}" for k, n in counts.items()))
    for item in explanation.items:
        numbers = " ".join(f"{k}={_show(v)}" for k, v in item.values)
        lines.append(f"    {item.kind:<20} {item.label}" + (f"  [{numbers}]" if numbers else ""))
        lines += [f"      {w.side} {w.what}: {w}" for w in item.where]
    return "\n".join(lines) + "\n"


def row_line(explanation: Explanation) -> str:
    """The row as ``score explain`` names it (METRIC:VALUE...), with its values."""
    values = " ".join(f"{k}={_show(v)}" for k, v in explanation.values)
    return f"{row_name(explanation.metric, explanation.row)}  {values}\n"


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
        key = row_name(move.metric, move.row)
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
