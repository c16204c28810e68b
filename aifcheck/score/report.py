"""What a score report shows, computed: each run's headline metrics with their bootstrap
intervals and per-unit values, and each later run compared with the first
(aifcheck.render.report_html draws it)."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from aifcheck.score.ci import REPLICATIONS, Interval, Stream, unit_intervals
from aifcheck.score.compare import Comparison, compare_runs
from aifcheck.score.explain import Explanation, explained_run, source_lines
from aifcheck.score.scorefiles import Headline, ScoreSet, read_scores

REPORT_SIZES = (0.9, 0.95)
ITEMS_SHOWN = 12  # the items of a row the report shows, with their lines (score explain prints them all)


@dataclass(frozen=True)
class HeadlineSummary:
    headline: Headline
    intervals: dict[float, Interval]  # by size; empty when the headline has no unit

    @property
    def unit_values(self) -> list[float]:
        """Each unit's own value (numerator over denominator)."""
        return [u.numerator / u.denominator if u.denominator else 0.0 for u in self.headline.units]


@dataclass(frozen=True)
class RunSummary:
    name: str
    scores: ScoreSet
    headlines: tuple[HeadlineSummary, ...]
    explanations: tuple[Explanation, ...] = ()  # when the run was scored with --explain
    lines: Mapping[tuple[str, int], str] = field(default_factory=dict)  # the text of the lines they name


@dataclass(frozen=True)
class ReportData:
    runs: tuple[RunSummary, ...]
    comparisons: tuple[Comparison, ...]  # run 2, 3, ... each against run 1
    sizes: tuple[float, ...]
    replications: int
    stream: Stream
    warnings: tuple[str, ...]


def _names(runs: Sequence[ScoreSet]) -> list[str]:
    """Each run's folder name, numbered where two runs share one."""
    names = [run.name for run in runs]
    return [f"{name} ({i + 1})" if names.count(name) > 1 else name for i, name in enumerate(names)]


def report_data(
    paths: Sequence[ScoreSet | str | os.PathLike],
    *,
    sizes: Sequence[float] = REPORT_SIZES,
    replications: int = REPLICATIONS,
    seed: int | None = None,
) -> ReportData:
    """Read each scored run, compute its headlines' intervals and compare runs 2.. with run 1."""
    runs = [p if isinstance(p, ScoreSet) else read_scores(p) for p in paths]
    stream = Stream(Stream.of(seed).seed, False)
    summaries = []
    for name, run in zip(_names(runs), runs, strict=False):
        found = tuple(
            HeadlineSummary(h, unit_intervals(h.units, sizes, stream, replications) if h.units else {})
            for h in run.headlines()
        )
        explained = explained_run(run.path)
        summaries.append(RunSummary(name, run, found, explained, source_lines(explained, ITEMS_SHOWN)))
    comparisons = tuple(
        compare_runs(runs[0], other, size=max(sizes), replications=replications, seed=seed) for other in runs[1:]
    )
    warnings = list(dict.fromkeys(w for c in comparisons for w in c.warnings))
    if not comparisons:
        warnings += [w for s in summaries for h in s.headlines if (w := h.headline.disagreement())]
    warnings += [
        f"{s.name}: no headline metric found (no score table of a known task)" for s in summaries if not s.headlines
    ]
    return ReportData(tuple(summaries), comparisons, tuple(sizes), replications, stream, tuple(warnings))
