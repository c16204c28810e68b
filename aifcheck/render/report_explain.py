"""The score report's drill-down (aifcheck.render.report_html): for each run scored with
``--explain``, metric → score row (a document, query or list) → item (a cluster pair, mention,
claim, rank) → the lines it comes from: the submission's KB line beside the gold or assessment row.
Nested ``<details>``: no script, as the rest of the page."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape

from aifcheck.score.explain import Explanation, Item, Value, recompute, shown_items
from aifcheck.score.report import ITEMS_SHOWN, RunSummary

CSS = """
.explain details { margin: .15rem 0 .15rem 1rem; }
.explain summary { font-variant-numeric: tabular-nums; }
.explain .kind { display: inline-block; min-width: 9.5rem; color: var(--muted); }
.explain .miss, .explain .false-alarm, .explain .mention-miss, .explain .mention-false-alarm { color: #b2182b; }
.explain .pair, .explain .rank, .explain .mention-pair, .explain .edge-pair, .explain .trf-pair { color: #1b7837; }
.explain table.steps td { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: .82rem; }
.explain .source { margin: .2rem 0 .4rem 1rem; font-size: .82rem; }
.explain .source pre { margin: .1rem 0 .3rem; padding: .2rem .4rem; background: var(--band); white-space: pre-wrap;
                       word-break: break-all; font-size: .8rem; }
.explain .side-system { border-left: 3px solid var(--accent); }
.explain .side-gold { border-left: 3px solid #e0a800; }
"""


def _show(value: Value) -> str:
    if isinstance(value, float):
        return f"{value:.4f}"
    return "—" if value is None else str(value)


def _numbers(pairs: Sequence[tuple[str, Value]]) -> str:
    return " ".join(f"{k}={_show(v)}" for k, v in pairs)


def _item(item: Item, lines: Mapping[tuple[str, int], str]) -> str:
    sources = []
    for where in item.where:
        text = lines.get((where.file, where.line)) if where.line is not None else None
        shown = f'<pre class="side-{escape(where.side)}">{escape(text)}</pre>' if text is not None else ""
        sources.append(
            f'<div><span class="muted">{escape(where.side)} {escape(where.what)}:</span> '
            f'<span class="path">{escape(str(where))}</span>{shown}</div>'
        )
    numbers = f' <span class="muted">[{escape(_numbers(item.values))}]</span>' if item.values else ""
    head = f'<span class="kind {escape(item.kind)}">{escape(item.kind)}</span> {escape(item.label)}{numbers}'
    if not sources:
        return f"<div>{head}</div>"
    return f'<details><summary>{head}</summary><div class="source">{"".join(sources)}</div></details>'


def _row(explanation: Explanation, lines: Mapping[tuple[str, int], str], anchor: str) -> str:
    computed = recompute(explanation)
    steps = "".join(
        f"<tr><td>{escape(n)}</td><td>{escape(e)}</td><td class='num'>{escape(_show(computed[n]))}</td></tr>"
        for n, e in explanation.steps
    )
    counts: dict[str, int] = {}
    for item in explanation.items:
        counts[item.kind] = counts.get(item.kind, 0) + 1
    shown = shown_items(explanation, ITEMS_SHOWN)
    more = len(explanation.items) - len(shown)
    key = " ".join(v for _, v in explanation.row if v)
    name = ":".join([explanation.metric, *key.split()])
    rest = f'<p class="muted">{more} more item(s): aifcheck score explain RUN {escape(name)}</p>' if more else ""
    return (
        f'<details id="{escape(anchor)}"><summary><strong>{escape(key)}</strong> '
        f'<span class="muted">{escape(_numbers(explanation.values))}</span></summary>'
        f'<table class="steps"><tr><th>step</th><th>formula</th><th class="num">value</th></tr>{steps}</table>'
        f'<p class="muted">{escape(", ".join(f"{n} {k}" for k, n in counts.items()) or "no item")}</p>'
        + "".join(_item(i, lines) for i in shown)
        + rest
        + "</details>"
    )


def explain_section(runs: Sequence[RunSummary]) -> str:
    """The drill-down of every run that has explanations ('' when none has)."""
    explained = [(i, run) for i, run in enumerate(runs, 1) if run.explanations]
    if not explained:
        return ""
    parts = [
        '<section id="explain" class="explain"><h2>Why these scores</h2>',
        "<p>Each score row, opened: the steps that give its values from its items, then the items (aligned pairs, "
        "misses, false alarms, ranked clusters or claims), each with the submission's line and the gold or "
        "assessment row it was judged by.</p>",
    ]
    for index, run in explained:
        parts.append(f"<h3>Run {index}: {escape(run.name)}</h3>")
        metrics: dict[str, list[Explanation]] = {}
        for explanation in run.explanations:
            metrics.setdefault(explanation.metric, []).append(explanation)
        for metric, rows in metrics.items():
            body = "".join(_row(e, run.lines, f"explain-{index}-{metric}-{n}") for n, e in enumerate(rows))
            parts.append(
                f'<details id="explain-{index}-{escape(metric)}"><summary>{escape(metric)} '
                f'<span class="muted">({len(rows)} rows)</span></summary>{body}</details>'
            )
    return "".join(parts) + "</section>"
