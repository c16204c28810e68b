"""The score report's drill-down (aifcheck.render.report_html): for each run scored with
``--explain``, metric → score row (a document, query or list) → item (a cluster pair, mention,
claim, rank) → the lines it comes from: the submission's KB line beside the gold or assessment row.
Nested ``<details>``: no script, as the rest of the page.

The page stays small on a whole run (NIST's example TA1 run: 1,309 rows, 46,000 items): a metric
states its formulas once, a row shows a few items of each kind (what lowered the score first) and
names the command that prints the rest, and files are named from the folder they share.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Mapping, Sequence
from html import escape
from pathlib import Path

from aifcheck.score.explain import (
    FOLDER,
    Explanation,
    Item,
    Source,
    Value,
    is_summary,
    recompute,
    row_name,
    shown_items,
)
from aifcheck.score.report import ITEMS_SHOWN, RunSummary

CSS = """
.explain details { margin: .15rem 0 .15rem 1rem; }
.explain summary { font-variant-numeric: tabular-nums; }
.explain .kind { display: inline-block; min-width: 9.5rem; color: var(--muted); }
.explain .miss, .explain .false-alarm, .explain .mention-miss, .explain .mention-false-alarm { color: #b2182b; }
.explain .pair, .explain .rank, .explain .mention-pair, .explain .edge-pair, .explain .trf-pair { color: #1b7837; }
.explain table.steps td { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: .82rem; }
.explain .computed { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: .82rem; margin: .2rem 0; }
.explain .source { margin: .2rem 0 .4rem 1rem; font-size: .82rem; }
.explain .source pre { margin: .1rem 0 .3rem; padding: .2rem .4rem; background: var(--band); white-space: pre-wrap;
                       word-break: break-all; font-size: .8rem; }
.explain .side-system { border-left: 3px solid var(--accent); }
.explain .side-gold { border-left: 3px solid #e0a800; }
"""


def _show(value: Value) -> str:
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else f"{value:.4f}"
    return "—" if value is None else str(value)


def _numbers(pairs: Sequence[tuple[str, Value]]) -> str:
    return " ".join(f"{k}={_show(v)}" for k, v in pairs)


class _Page:
    """What one run's drill-down draws with: the lines' text and the folder its files are named from."""

    def __init__(self, run: RunSummary) -> None:
        self.lines = run.lines
        folder = Path(run.scores.path)
        self.folder = folder.parent if folder.name == "scores" else folder
        self.explain = Path(os.path.abspath(self.folder / FOLDER))
        self.command = f"aifcheck score explain {self.folder}"
        self.shown = {id(e): shown_items(e, ITEMS_SHOWN) for e in run.explanations}  # (run keeps them)
        files = {w.file for shown in self.shown.values() for i in shown for w in i.where}
        try:
            root = os.path.commonpath([os.path.abspath(f) for f in files]) if files else ""
        except ValueError:  # files on different drives
            root = ""
        self.root = "" if root in ("", os.sep) or any(os.path.abspath(f) == root for f in files) else root

    def path(self, where: Source) -> str:
        shown = os.path.relpath(os.path.abspath(where.file), self.root) if self.root else where.file
        return f"{shown}:{where.line}" if where.line is not None else shown

    def item(self, item: Item) -> str:
        sources = []
        for where in item.where:
            text = self.lines.get((where.file, where.line)) if where.line is not None else None
            shown = f'<pre class="side-{escape(where.side)}">{escape(text)}</pre>' if text is not None else ""
            sources.append(
                f'<div><span class="muted">{escape(where.side)} {escape(where.what)}:</span> '
                f'<span class="path">{escape(self.path(where))}</span>{shown}</div>'
            )
        numbers = f' <span class="muted">[{escape(_numbers(item.values))}]</span>' if item.values else ""
        head = f'<span class="kind {escape(item.kind)}">{escape(item.kind)}</span> {escape(item.label)}{numbers}'
        if not sources:
            return f"<div>{head}</div>"
        return f'<details><summary>{head}</summary><div class="source">{"".join(sources)}</div></details>'

    def rest(self, explanation: Explanation, more: int) -> str:
        """The line under a row's items shown: how many more, the JSON Lines file holding them all
        (a link) and the command that prints them."""
        if not more:
            return ""
        jsonl = self.explain / f"{explanation.task}.jsonl"
        name = row_name(explanation.metric, explanation.row)
        return (
            f'<p class="muted">{more} more item(s): <a href="{escape(jsonl.as_uri())}">{escape(jsonl.name)}</a> '
            f"holds them all; {escape(self.command)} {escape(name)} prints them.</p>"
        )

    def row(self, explanation: Explanation, anchor: str, formulas: tuple) -> str:
        computed = recompute(explanation)
        if explanation.steps == formulas:  # the metric's formulas, stated once above its rows
            steps = f'<p class="computed">{escape(" · ".join(f"{n} {_show(computed[n])}" for n, _ in formulas))}</p>'
        else:
            steps = _steps_table(explanation.steps, computed)
        counts = Counter(item.kind for item in explanation.items)
        shown = self.shown[id(explanation)]
        key = " ".join(v for _, v in explanation.row if v)
        notes = "".join(f'<p class="muted">note: {escape(n)}</p>' for n in explanation.notes)
        return (
            f'<details id="{escape(anchor)}"><summary><strong>{escape(key)}</strong> '
            f'<span class="muted">{escape(_numbers(explanation.values))}</span></summary>{steps}{notes}'
            f'<p class="muted">{escape(", ".join(f"{n} {k}" for k, n in counts.items()) or "no item")}</p>'
            + "".join(self.item(i) for i in shown)
            + self.rest(explanation, counts.total() - len(shown))
            + "</details>"
        )


def _steps_table(steps: Sequence[tuple[str, str]], computed: Mapping[str, Value] | None = None) -> str:
    value = "<th class='num'>value</th>" if computed is not None else ""
    rows = "".join(
        f"<tr><td>{escape(n)}</td><td>{escape(e)}</td>"
        + (f"<td class='num'>{escape(_show(computed[n]))}</td>" if computed is not None else "")
        + "</tr>"
        for n, e in steps
    )
    return f'<table class="steps"><tr><th>step</th><th>formula</th>{value}</tr>{rows}</table>'


def _metric(page: _Page, index: int, metric: str, rows: list[Explanation]) -> str:
    """A metric's rows, summaries first, under the formulas most of its rows use."""
    formulas = Counter(e.steps for e in rows if not is_summary(e)).most_common(1)
    common = formulas[0][0] if formulas else ()
    ordered = [e for e in rows if is_summary(e)] + [e for e in rows if not is_summary(e)]
    head = f'<p class="muted">Each row computes, from its items:</p>{_steps_table(common)}' if common else ""
    body = "".join(page.row(e, f"explain-{index}-{metric}-{n}", common) for n, e in enumerate(ordered))
    return (
        f'<details id="explain-{index}-{escape(metric)}"><summary>{escape(metric)} '
        f'<span class="muted">({len(rows)} rows)</span></summary>{head}{body}</details>'
    )


def explain_section(runs: Sequence[RunSummary]) -> str:
    """The drill-down of every run that has explanations ('' when none has)."""
    explained = [(i, run) for i, run in enumerate(runs, 1) if run.explanations]
    if not explained:
        return ""
    parts = [
        '<section id="explain" class="explain"><h2>Why these scores</h2>',
        "<p>Each score row, opened: the steps that give its values from its items, then the items (aligned pairs, "
        "misses, false alarms, ranked clusters or claims; a few of each kind, what lowered the score first), each "
        "with the submission's line and the gold or assessment row it was judged by.</p>",
    ]
    for index, run in explained:
        page = _Page(run)
        parts.append(
            f"<h3>Run {index}: {escape(run.name)}</h3>"
            f'<p class="muted">Every item of every row: <a href="{escape(page.explain.as_uri())}">'
            f"{escape(str(page.explain))}{os.sep}</a> (JSON Lines; <code>{escape(page.command)} ROW</code> prints one "
            "row)." + (f" Files are named from {escape(page.root)}{os.sep}." if page.root else "") + "</p>"
        )
        metrics: dict[str, list[Explanation]] = {}
        for explanation in run.explanations:
            metrics.setdefault(explanation.metric, []).append(explanation)
        parts += [_metric(page, index, metric, rows) for metric, rows in metrics.items()]
    return "".join(parts) + "</section>"
