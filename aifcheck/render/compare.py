"""A comparison of two runs as a text table, JSON or a tab-separated file.

JSON (stable keys): ``{"a": PATH, "b": PATH, "size", "replications", "seed", "metrics": {NAME:
{"a", "b", "difference", "ci": [low, high], "p_value", "units", "only_a", "only_b"}}}``; the
difference is B - A, ``units`` the documents or queries in both runs. A and B are the metric over
those units (the score files' values when every unit is in both runs); the text and tab tables
print B - A as the difference of A and B as they print them (4 decimals), the JSON unrounded.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from aifcheck.render.output import write_atomically
from aifcheck.render.score_table import Column, score_table
from aifcheck.score.compare import Comparison, MetricComparison

_NUMBER = "6.4f"


def p_text(p: float) -> str:
    """A p-value with 4 decimals, or ``<0.0001`` below that."""
    return "<0.0001" if p < 0.0001 else format(p, ".4f")


def shown_difference(a: float, b: float, spec: str = "+.4f") -> str:
    """B - A as the difference of the two values as printed (4 decimals), so that the three
    numbers of a row agree; its interval is the unrounded difference's."""
    difference = round(float(format(b, ".4f")) - float(format(a, ".4f")), 4) + 0.0  # + 0.0: no "-0.0000"
    return format(difference, spec)


def significance(p: float) -> str:
    return "***" if p < 0.001 else "**" if p < 0.01 else "*" if p < 0.05 else ""


def _cells(metric: MetricComparison) -> dict[str, str]:
    return {
        "metric": metric.label,
        "units": str(metric.paired),
        "a": format(metric.a, _NUMBER),
        "b": format(metric.b, _NUMBER),
        "difference": shown_difference(metric.a, metric.b),
        "low": format(metric.ci[0], "+.4f"),
        "high": format(metric.ci[1], "+.4f"),
        "p": p_text(metric.p_value),
        "mark": significance(metric.p_value),
    }


def _columns(comparison: Comparison) -> tuple[Column, ...]:
    percent = f"{comparison.size * 100:g}%"
    return (
        Column("metric", "metric", "s", "L"),
        Column("units", "units", "s", "R"),
        Column("a", "A", "s", "R"),
        Column("b", "B", "s", "R"),
        Column("difference", "B-A", "s", "R"),
        Column("low", f"{percent}(", "s", "R"),
        Column("high", f"){percent}", "s", "R"),
        Column("p", "p", "s", "R"),
        Column("mark", "", "s", "L"),
    )


def comparison_text(comparison: Comparison) -> str:
    """The table, then what A and B are and how the numbers were drawn."""
    table = score_table(_columns(comparison), [_cells(m) for m in comparison.metrics], "pretty")
    lines = [line.rstrip() for line in table.splitlines()]
    lines += [
        "",
        f"A: {comparison.a}",
        f"B: {comparison.b}",
        f"A, B: each metric over the units (documents or queries) in both runs; B-A: the difference of A and B as "
        f"printed, with its {comparison.size * 100:g}% percentile interval from {comparison.replications:,} paired "
        f"bootstrap replications over those units; p: paired approximate randomization, "
        f"{comparison.replications:,} trials; {comparison.stream.describe().split(',')[0]}.",
        "* p < 0.05, ** p < 0.01, *** p < 0.001",
    ]
    return "\n".join(lines) + "\n"


def comparison_json(comparison: Comparison, moved: list[dict[str, object]] | None = None) -> str:
    """The comparison as JSON; ``moved``: what moved (render.explain.moves_json), where both runs
    were scored with --explain."""
    metrics = {
        m.label: {
            "a": m.a,
            "b": m.b,
            "difference": m.difference,
            "ci": list(m.ci),
            "p_value": m.p_value,
            "units": m.paired,
            "only_a": list(m.only_a),
            "only_b": list(m.only_b),
        }
        for m in comparison.metrics
    }
    document = {
        "a": comparison.a,
        "b": comparison.b,
        "size": comparison.size,
        "replications": comparison.replications,
        "seed": comparison.stream.seed,
        "metrics": metrics,
    }
    if moved is not None:
        document["moved"] = moved
    return json.dumps(document, indent=2) + "\n"


def comparison_tab(comparison: Comparison) -> str:
    """One line per metric: Metric, Units, A, B, Difference, the interval's bounds, PValue."""
    columns = (
        Column("metric", "Metric", "s"),
        Column("units", "Units", "s"),
        Column("a", "A", _NUMBER),
        Column("b", "B", _NUMBER),
        Column("difference", "Difference", _NUMBER),
        Column("low", "Lower", _NUMBER),
        Column("high", "Upper", _NUMBER),
        Column("p", "PValue", "s"),
    )
    rows = [
        {
            "metric": m.label,
            "units": str(m.paired),
            "a": format(m.a, _NUMBER),
            "b": format(m.b, _NUMBER),
            "difference": shown_difference(m.a, m.b, _NUMBER),
            "low": format(m.ci[0], _NUMBER),
            "high": format(m.ci[1], _NUMBER),
            "p": format(m.p_value, ".6f"),
        }
        for m in comparison.metrics
    ]
    return score_table(columns, rows, "tab")


def write_comparison_tab(comparison: Comparison, path: str | os.PathLike) -> None:
    write_atomically(Path(path), comparison_tab(comparison))
