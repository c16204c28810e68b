"""Explanations of score rows (aifcheck.score.explain) as files: a JSON Lines file per task (a
record per row, then one per item of it) and a plain-text summary per row."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path

from aifcheck.render.output import write_atomically
from aifcheck.score.explain import FOLDER, Explanation, Move, Value, as_records, recompute


def write_explanations(folder: Path, task: str, explanations: Iterable[Explanation]) -> None:
    """``folder/explain/<task>.jsonl`` (``score explain`` prints a row's summary from it)."""
    encode = json.JSONEncoder(ensure_ascii=False).encode
    lines = [encode(r) + "\n" for e in explanations for r in as_records(e)]
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


def moves_text(found: Sequence[Move], shown: int = 20, items: int = 5) -> str:
    """What moved between two runs: each row whose value changed (the largest first), with the
    items the second run has that the first lacks (+) and the reverse (-)."""
    if not found:
        return ""
    lines = [f"\nWhat moved ({len(found)} row(s) changed; the {min(shown, len(found))} largest):"]
    for move in found[:shown]:
        key = ":".join([move.metric, *(v for _, v in move.row if v)])
        lines.append(f"  {key}  {move.column} {_show(move.before)} -> {_show(move.after)}")
        for sign, group in (("+", move.gained), ("-", move.lost)):
            lines += [f"    {sign} {i.kind} {i.label}" for i in group[:items]]
            if len(group) > items:
                lines.append(f"    {sign} ... {len(group) - items} more")
    return "\n".join(lines) + "\n"
