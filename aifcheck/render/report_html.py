"""The score report: one self-contained HTML page (no script, no network: styles inline, pictures
inline SVG) with each run's headline metrics and their intervals, the distribution of its
per-document or per-query scores, the runs side by side with the significance of each
difference, and every score file's table."""

from __future__ import annotations

import os
from html import escape
from pathlib import Path

from aifcheck.loading.tsv import TsvTable
from aifcheck.render.compare import p_text, shown_difference, significance
from aifcheck.render.output import write_atomically
from aifcheck.render.report_explain import CSS as EXPLAIN_CSS
from aifcheck.render.report_explain import explain_section
from aifcheck.render.report_plots import difference_svg, distribution_svg
from aifcheck.score.ci import Interval
from aifcheck.score.compare import Comparison, MetricComparison
from aifcheck.score.report import HeadlineSummary, ReportData, RunSummary
from aifcheck.version import __version__

_CSS = """
:root { --ink: #1d1d1f; --muted: #5f6368; --line: #d9dce1; --band: #f4f6f8; --accent: #2c6fbb; }
* { box-sizing: border-box; }
body { margin: 0; color: var(--ink); background: #fff; font: 15px/1.45 system-ui, -apple-system, "Segoe UI",
       Roboto, "DejaVu Sans", Arial, sans-serif; }
main { max-width: 1100px; margin: 0 auto; padding: 1.5rem 1.25rem 3rem; }
h1 { font-size: 1.7rem; margin: 0 0 .3rem; }
h2 { font-size: 1.3rem; margin: 2.2rem 0 .6rem; padding-bottom: .25rem; border-bottom: 2px solid var(--line); }
h3 { font-size: 1.05rem; margin: 1.4rem 0 .5rem; }
p, li { max-width: 75ch; }
.muted, figcaption, .path { color: var(--muted); font-size: .9rem; }
.path { font-family: ui-monospace, "DejaVu Sans Mono", monospace; word-break: break-all; }
nav ul { display: flex; flex-wrap: wrap; gap: .4rem 1.2rem; padding: 0; list-style: none; }
a { color: var(--accent); }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; margin: .4rem 0 1rem; font-variant-numeric: tabular-nums; }
th, td { padding: .28rem .6rem; border-bottom: 1px solid var(--line); text-align: left; vertical-align: top; }
th { background: var(--band); font-weight: 600; }
td.num, th.num { text-align: right; white-space: nowrap; }
tbody tr:nth-child(even) td { background: #fafbfc; }
table.file { font-size: .8rem; }
table.file td, table.file th { padding: .12rem .45rem; }
.up { color: #1b7837; font-weight: 600; }
.down { color: #b2182b; font-weight: 600; }
.notes { border-left: 4px solid #e0a800; background: #fff8e1; padding: .5rem 1rem; margin: 1rem 0; }
figure { margin: .5rem 0 1.2rem; }
svg.plot { width: 100%; max-width: 860px; height: auto; display: block; }
details { margin: .3rem 0; }
summary { cursor: pointer; }
@media print {
  body { font-size: 10.5pt; }
  main { max-width: none; padding: 0; }
  nav { display: none; }
  h2 { break-before: auto; break-after: avoid; }
  figure, table.headline, table.compare { break-inside: avoid; }
  a { color: inherit; text-decoration: none; }
}
"""


def _f(value: float | None) -> str:
    return "—" if value is None else format(value, ".4f")


def _count(number: int, unit: str) -> str:
    """ "1 document", "3 queries"."""
    plural = unit[:-1] + "ies" if unit.endswith("y") else unit + "s"
    return f"{number} {unit if number == 1 else plural}"


def _interval(interval: Interval | None) -> str:
    return "—" if interval is None else f"[{interval[0]:.4f}, {interval[1]:.4f}]"


def _td(text: str, number: bool = False, cls: str = "") -> str:
    classes = " ".join(c for c in ("num" if number else "", cls) if c)
    return f'<td class="{classes}">{escape(text)}</td>' if classes else f"<td>{escape(text)}</td>"


def _th(text: str, number: bool = False) -> str:
    return f'<th class="num">{escape(text)}</th>' if number else f"<th>{escape(text)}</th>"


def _table(headers: list[tuple[str, bool]], rows: list[str], cls: str) -> str:
    head = "".join(_th(text, number) for text, number in headers)
    body = "".join(rows)
    return f'<div class="scroll"><table class="{cls}"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>'


def _value(summary: HeadlineSummary) -> str:
    headline = summary.headline
    return _f(headline.reported if headline.reported is not None else (headline.value if headline.units else None))


def _headline_table(run: RunSummary, sizes: tuple[float, ...]) -> str:
    headers = [
        ("metric", False),
        ("units", True),
        ("value", True),
        *((f"{s * 100:g}% interval", True) for s in sorted(sizes)),
        ("recomputed", True),
    ]
    rows = []
    for summary in run.headlines:
        headline = summary.headline
        recomputed = _f(headline.value) if headline.units else "—"
        cells = [
            _td(headline.label),
            _td(_count(len(headline.units), headline.unit_name), True),
            _td(_value(summary), True),
            *(_td(_interval(summary.intervals.get(s)), True) for s in sorted(sizes)),
            _td(recomputed, True),
        ]
        rows.append(f"<tr>{''.join(cells)}</tr>")
    return _table(headers, rows, "headline")


def _run_section(index: int, run: RunSummary, data: ReportData) -> str:
    parts = [
        f'<section id="run-{index}"><h2>Run {index}: {escape(run.name)}</h2>',
        f'<p class="path">{escape(run.scores.path)}</p>',
    ]
    if not run.headlines:
        parts.append("<p>No headline metric: no score table of a known task.</p></section>")
        return "".join(parts)
    parts.append(_headline_table(run, data.sizes))
    parts.append(
        f'<p class="muted">value: as the score file prints it; recomputed: from its '
        f"per-{escape(run.headlines[0].headline.unit_name)} rows, which the intervals and the comparisons resample.</p>"
    )
    unit = run.headlines[0].headline.unit_name
    parts.append(
        f"<figure>{distribution_svg(run, f'run-{index}')}<figcaption>Each dot is one {escape(unit)}'s score; "
        f"the box spans the middle half of them, its line the median; the diamond is the metric and the bar its "
        f"{max(data.sizes) * 100:g}% interval.</figcaption></figure></section>"
    )
    return "".join(parts)


def _mark(p: float, difference: float) -> str:
    mark = significance(p)
    if not mark:
        return ""
    return f'<span class="{"up" if difference > 0 else "down"}">{mark}</span>'


def _side_by_side(data: ReportData) -> str:
    """Metrics down, runs across: each run's value and interval; for runs 2.. the difference with
    run 1 and its significance."""
    size = max(data.sizes)
    labels = list(dict.fromkeys(h.headline.label for run in data.runs for h in run.headlines))
    headers = [("metric", False)]
    for i, run in enumerate(data.runs, 1):
        headers.append((f"{i}: {run.name}", True))
        if i > 1:
            headers.append((f"{i} − 1", True))
    rows = []
    for label in labels:
        cells = [_td(label)]
        for i, run in enumerate(data.runs, 1):
            found = next((h for h in run.headlines if h.headline.label == label), None)
            text = "—" if found is None else f"{_value(found)} {_interval(found.intervals.get(size))}"
            cells.append(_td(text, True))
            if i > 1:
                metric = next((m for m in data.comparisons[i - 2].metrics if m.label == label), None)
                first = next((h for h in data.runs[0].headlines if h.headline.label == label), None)
                cells.append(_difference_cell(metric, first, found))
        rows.append(f"<tr>{''.join(cells)}</tr>")
    return (
        '<section id="side-by-side"><h2>Runs side by side</h2>'
        f"<p>Each value with its {size * 100:g}% interval; the differences with run 1, "
        '<span class="up">green</span> when higher and <span class="down">red</span> when lower with '
        "p &lt; 0.05 (* p &lt; 0.05, ** p &lt; 0.01, *** p &lt; 0.001; paired approximate randomization). "
        "A difference is over the documents or queries scored in both runs: where those are not all of a "
        "run's, or the values over them are not the ones shown, it shows the paired values it is the "
        "difference of.</p>" + _table(headers, rows, "compare") + "</section>"
    )


def _difference_cell(
    metric: MetricComparison | None, first: HeadlineSummary | None, this: HeadlineSummary | None
) -> str:
    """B - A of the side-by-side table: the difference of the two values shown beside it, or, where
    it was computed from other values (units in one run only, or values recomputed from the units
    that the score files print otherwise), with those paired values."""
    if metric is None or first is None or this is None:
        return _td("—", True)
    text = shown_difference(metric.a, metric.b)
    if (_f(metric.a), _f(metric.b)) != (_value(first), _value(this)):
        text += f" ({_f(metric.b)} − {_f(metric.a)} over {_count(metric.paired, metric.unit_name)} in both)"
    return f'<td class="num">{escape(text)} {_mark(metric.p_value, metric.difference)}</td>'


def _comparison_section(index: int, names: tuple[str, str], comparison: Comparison) -> str:
    headers = [
        ("metric", False),
        ("paired", True),
        ("A", True),
        ("B", True),
        ("B − A", True),
        (f"{comparison.size * 100:g}% interval", True),
        ("p", True),
        ("", False),
    ]
    rows = []
    for m in comparison.metrics:
        cells = [
            _td(m.label),
            _td(_count(m.paired, m.unit_name), True),
            _td(_f(m.a), True),
            _td(_f(m.b), True),
            _td(shown_difference(m.a, m.b), True),
            _td(f"[{m.ci[0]:+.4f}, {m.ci[1]:+.4f}]", True),
            _td(p_text(m.p_value), True),
            f"<td>{_mark(m.p_value, m.difference)}</td>",
        ]
        rows.append(f"<tr>{''.join(cells)}</tr>")
    parts = [
        f'<section id="compare-{index}"><h2>Run {index} ({escape(names[1])}) against run 1 ({escape(names[0])})</h2>',
        "<p>A is run 1, B is run " + str(index) + ": each metric over the documents or queries scored in both runs. "
        "B − A is the difference of A and B as shown, with percentile intervals from "
        f"{comparison.replications:,} paired bootstrap replications and p-values from "
        f"{comparison.replications:,} trials of paired approximate randomization.</p>",
        _table(headers, rows, "compare"),
    ]
    if comparison.metrics:
        parts.append(
            f"<figure>{difference_svg(comparison, f'compare-{index}')}<figcaption>Each metric's difference "
            "with its interval; a bar that does not cross the line at 0 is a difference the bootstrap "
            "supports.</figcaption></figure>"
        )
    if comparison.warnings:
        parts.append(
            '<div class="notes"><ul>' + "".join(f"<li>{escape(w)}</li>" for w in comparison.warnings) + "</ul></div>"
        )
    return "".join(parts) + "</section>"


def _file_table(table: TsvTable) -> str:
    rows = [f"<tr>{''.join(_td(cell) for cell in row.cells)}</tr>" for row in table.rows]
    body = _table([(c, False) for c in table.columns], rows, "file")
    return (
        f"<details><summary>{escape(Path(table.path).name)} ({len(table.rows)} rows)</summary>"
        f'<p class="path">{escape(table.path)}</p>{body}</details>'
    )


def _files_section(data: ReportData) -> str:
    parts = ['<section id="files"><h2>Score files</h2><p>Every row of every score file read, as written.</p>']
    for i, run in enumerate(data.runs, 1):
        parts.append(f"<h3>Run {i}: {escape(run.name)}</h3>")
        parts += [_file_table(t.table) for t in run.scores.tables]
    return "".join(parts) + "</section>"


def report_html(data: ReportData) -> str:
    """The whole page."""
    names = [run.name for run in data.runs]
    toc = [("side-by-side", "Runs side by side")] if len(data.runs) > 1 else []
    toc += [(f"run-{i}", f"Run {i}: {name}") for i, name in enumerate(names, 1)]
    toc += [(f"compare-{i}", f"Run {i} against run 1") for i in range(2, len(names) + 1)]
    if any(run.explanations for run in data.runs):
        toc.append(("explain", "Why these scores"))
    toc.append(("files", "Score files"))
    sizes = " and ".join(f"{s * 100:g}%" for s in sorted(data.sizes))
    parts = [
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>Score report: {escape(', '.join(names))}</title><style>{_CSS}{EXPLAIN_CSS}</style></head><body><main>",
        f'<h1>Score report</h1><p class="muted">{len(names)} run{"s" if len(names) != 1 else ""}: '
        f"{escape(', '.join(names))}. Intervals: two-sided BCa bootstrap ({sizes}) over the documents or queries, "
        f"{data.replications:,} replications, {escape(data.stream.describe().split(' (')[0])}. "
        f"Values as the score files print them.</p>",
        "<nav><ul>"
        + "".join(f'<li><a href="#{anchor}">{escape(text)}</a></li>' for anchor, text in toc)
        + "</ul></nav>",
    ]
    if data.warnings:
        parts.append(
            '<div class="notes"><strong>Notes</strong><ul>'
            + "".join(f"<li>{escape(w)}</li>" for w in data.warnings)
            + "</ul></div>"
        )
    if len(data.runs) > 1:
        parts.append(_side_by_side(data))
    parts += [_run_section(i, run, data) for i, run in enumerate(data.runs, 1)]
    parts += [_comparison_section(i, (names[0], names[i - 1]), c) for i, c in enumerate(data.comparisons, 2)]
    parts.append(explain_section(data.runs))
    parts.append(_files_section(data))
    parts.append(
        f'<footer class="muted"><p>Written by aifcheck {escape(__version__)}.</p></footer></main></body></html>\n'
    )
    return "".join(parts)


def write_report(data: ReportData, target: str | os.PathLike) -> None:
    write_atomically(Path(target), report_html(data))
