"""The score report's pictures, drawn by matplotlib as SVG text to inline in the HTML page: each
run's per-document (or per-query) scores by metric, and the differences between two runs with
their intervals. Text stays text (selectable, sharp when printed); ids are salted per picture so
that several pictures can share a page."""

from __future__ import annotations

import io
import re

import numpy as np

from aifcheck.errors import UsageError
from aifcheck.score.compare import Comparison
from aifcheck.score.report import RunSummary

BLUE, GREY, RED, GREEN = "#2c6fbb", "#8c8c8c", "#b2182b", "#1b7837"


def _pyplot():
    try:
        import matplotlib

        matplotlib.use("Agg")  # no screen needed
        import matplotlib.pyplot as plt
    except ImportError:
        raise UsageError("the score report draws its pictures with matplotlib: pip install 'aifcheck[plot]'") from None
    return plt


def _svg(figure, salt: str) -> str:
    plt = _pyplot()
    for axes in figure.axes:
        axes.grid(axis="x", color="#e5e5e5")
        axes.set_axisbelow(True)
        for side in ("top", "right"):
            axes.spines[side].set_visible(False)
    buffer = io.StringIO()
    with plt.rc_context({"svg.hashsalt": salt, "svg.fonttype": "none"}):
        figure.savefig(buffer, format="svg", bbox_inches="tight", metadata={"Date": None})
    plt.close(figure)
    text = buffer.getvalue()
    text = text[text.index("<svg") :]  # the XML declaration and doctype have no place inside HTML
    # matplotlib numbers its ids from 1 in every picture: prefix them, so that pictures can share a page
    text = re.sub(r'\bid="([^"]+)"', rf'id="{salt}-\1"', text)
    text = re.sub(r'(url\(#|href="#)([^)"]+)', rf"\g<1>{salt}-\2", text)
    # scale with the page: the viewBox keeps the proportions
    return re.sub(r'<svg([^>]*?) width="[^"]*" height="[^"]*"', r'<svg\1 class="plot"', text, count=1)


def _box(axes, values: list[float], y: float, half: float = 0.27) -> None:
    """A horizontal box: the quartiles, the median, whiskers to the furthest values within 1.5
    box lengths (Tukey's)."""
    from matplotlib.patches import Rectangle

    first, median, third = np.percentile(values, [25, 50, 75])
    reach = 1.5 * (third - first)
    low = min(v for v in values if v >= first - reach)
    high = max(v for v in values if v <= third + reach)
    axes.add_patch(Rectangle((first, y - half), third - first, 2 * half, fill=False, edgecolor=GREY, linewidth=1))
    axes.plot([median, median], [y - half, y + half], color=GREY, linewidth=1.5)
    axes.plot([low, first], [y, y], color=GREY, linewidth=1)
    axes.plot([third, high], [y, y], color=GREY, linewidth=1)


def _height(rows: int) -> float:
    return 0.9 + 0.42 * max(rows, 1)


def distribution_svg(run: RunSummary, salt: str) -> str:
    """One row per headline: a box of its units' values, each unit a dot, the headline's value a
    diamond on its widest interval."""
    plt = _pyplot()
    headlines = [h for h in run.headlines if h.headline.units]
    figure, axes = plt.subplots(figsize=(8.0, _height(len(headlines))))
    jitter = np.random.default_rng(0)  # the same picture on every run
    positions = np.arange(len(headlines))[::-1]
    values = [h.unit_values for h in headlines]
    for y, summary, unit_values in zip(positions, headlines, values, strict=True):
        _box(axes, unit_values, y)
        axes.scatter(
            unit_values,
            y + jitter.uniform(-0.18, 0.18, len(unit_values)),
            s=9,
            color=BLUE,
            alpha=0.45,
            linewidths=0,
            zorder=3,
        )
        if summary.intervals:
            low, high = summary.intervals[max(summary.intervals)]
            axes.plot([low, high], [y, y], color=RED, linewidth=3, solid_capstyle="butt", zorder=4)
        axes.scatter([summary.headline.value], [y], marker="D", s=36, color=RED, edgecolors="white", zorder=5)
    axes.set_yticks(positions, [f"{h.headline.label} (n={len(h.headline.units)})" for h in headlines])
    low = min([0.0, *(v for vs in values for v in vs)])
    high = max([1.0, *(v for vs in values for v in vs)])
    axes.set_xlim(low - 0.02 * (high - low), high + 0.02 * (high - low))
    axes.set_ylim(-0.7, len(headlines) - 0.3)
    unit = headlines[0].headline.unit_name if headlines else "document"
    axes.set_xlabel(f"score of each {unit} (dots), the metric (diamond) and its interval (bar)")
    return _svg(figure, salt)


def difference_svg(comparison: Comparison, salt: str) -> str:
    """One row per metric: B - A with its interval; red where B is significantly lower (p < 0.05),
    green where higher, grey otherwise."""
    plt = _pyplot()
    metrics = comparison.metrics
    figure, axes = plt.subplots(figsize=(8.0, _height(len(metrics))))
    positions = np.arange(len(metrics))[::-1]
    for y, metric in zip(positions, metrics, strict=True):
        colour = GREY if metric.p_value >= 0.05 else GREEN if metric.difference > 0 else RED
        axes.plot(list(metric.ci), [y, y], color=colour, linewidth=2.5, solid_capstyle="butt")
        axes.scatter([metric.difference], [y], s=30, color=colour, zorder=3)
    axes.axvline(0, color="#444444", linewidth=0.8)
    axes.set_yticks(positions, [m.label for m in metrics])
    axes.set_ylim(-0.7, len(metrics) - 0.3)
    axes.set_xlabel(f"B - A with its {comparison.size * 100:g}% interval (green: B higher, red: B lower, p < 0.05)")
    return _svg(figure, salt)
