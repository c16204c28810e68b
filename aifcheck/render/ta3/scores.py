"""TA3 scores as NIST writes them (``scores/<Metric>-scores.txt`` and ``.tab``) and as a summary.

NIST's columns: Condition, QueryID, ClaimRelation, RunID, then NumAssessedClaims, GT, NDCG
(NDCG metrics) or Cutoff, NumUniqueSubmittedValues, GT, F1 (F1 metrics); one row per query and
list, then one ALL-Macro row per (condition, list) whose count columns are blank. An ALL-Macro
over no query with GT > 0, where NIST's code stops, has a blank value.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from pathlib import Path

from aifcheck.loading.tsv import TsvTable
from aifcheck.render.output import new_folder, write_file
from aifcheck.render.score_table import Column, cell, score_table, tab_table
from aifcheck.score.ta3.scorer import METRICS, NDCG_METRICS, F1Row, NDCGRow, TA3MetricScores, TA3Scores

_KEYS = (
    Column("condition", "Condition", "s", "L"),
    Column("query_id", "QueryID", "s", "L"),
    Column("claim_relation", "ClaimRelation", "s", "L"),
    Column("run_id", "RunID", "s", "L"),
)
NDCG_COLUMNS = (
    *_KEYS,
    Column("num_of_claims", "NumAssessedClaims", "s", "R"),
    Column("ground_truth", "GT", "s", "R"),
    Column("ndcg", "NDCG", "6.4f", "R", "6.4f"),
)
F1_COLUMNS = (
    *_KEYS,
    Column("cutoff", "Cutoff", "s", "R"),
    Column("num_of_unique_submitted_values", "NumUniqueSubmittedValues", "s", "R"),
    Column("ground_truth", "GT", "s", "R"),
    Column("f1", "F1", "6.4f", "R", "6.4f"),
)
ALL_MACRO = "ALL-Macro"


def _cells(columns: tuple[Column, ...], values: dict[str, object], summary: bool) -> dict[str, str]:
    return {c.name: cell(c, values[c.name], summary) for c in columns}


def metric_table(scores: TA3MetricScores, run_id: str, separator: str) -> str:
    """One metric's file: ``separator`` "pretty" (the .txt) or "tab" (the .tab)."""
    return score_table(*_metric_rows(scores, run_id), separator)


def score_tables(scores: TA3Scores, out: str | os.PathLike) -> tuple[TsvTable, ...]:
    """The ``OUT/scores/<Metric>-scores.tab`` tables as values."""
    return tuple(
        tab_table(Path(out) / "scores" / f"{metric.metric}-scores.tab", *_metric_rows(metric, run_id=scores.run_id))
        for metric in scores.metrics
    )


def _metric_rows(scores: TA3MetricScores, run_id: str) -> tuple[tuple[Column, ...], list[dict[str, str]]]:
    """A metric's columns and its rows, formatted."""
    ndcg = scores.metric in NDCG_METRICS
    columns = NDCG_COLUMNS if ndcg else F1_COLUMNS
    value_name = columns[-1].name
    rows = []
    for row in scores.rows:
        values: dict[str, object] = {
            "condition": row.condition,
            "query_id": row.query_id,
            "claim_relation": row.relation,
            "run_id": run_id,
            "ground_truth": str(row.ground_truth),
        }
        if isinstance(row, NDCGRow):
            values.update(num_of_claims=str(row.assessed), ndcg=row.ndcg)
        elif isinstance(row, F1Row):
            values.update(
                cutoff="-" if row.cutoff is None else str(row.cutoff),
                num_of_unique_submitted_values=str(row.unique),
                f1=row.f1,
            )
        rows.append(_cells(columns, values, False))
    for macro in scores.macros:
        values = {c.name: "" for c in columns}
        values.update(condition=macro.condition, query_id=ALL_MACRO, claim_relation=macro.relation, run_id=run_id)
        values[value_name] = "" if macro.value is None else macro.value
        rows.append(_cells(columns, values, True))
    return columns, rows


def write_score_files(
    scores: TA3Scores,
    out: str | os.PathLike,
    force: bool = False,
    inputs: Iterable[str | os.PathLike] = (),
    beside: Callable[[Path], None] | None = None,
) -> list[Path]:
    """Write ``OUT/scores/<Metric>-scores.txt`` and ``.tab`` for every metric; returns the paths.
    The folder ``scores`` is written whole, with what ``beside`` writes into it (the intervals of
    --ci), then put in place (``force``: of one that holds files)."""
    folder = Path(out) / "scores"
    written = []
    with new_folder(folder, force, inputs) as partial:
        for metric in scores.metrics:
            for suffix, separator in (("txt", "pretty"), ("tab", "tab")):
                name = f"{metric.metric}-scores.{suffix}"
                write_file(partial / name, metric_table(metric, scores.run_id, separator))
                written.append(folder / name)
        if beside is not None:
            beside(partial)
    return written


NO_TRUTH = "-"


def summary_table(scores: TA3Scores) -> str:
    """The ALL-Macro value of every metric, one row per (condition, list); NO_TRUTH where no
    query of the group has GT > 0 (the score files leave that value blank)."""
    columns = (
        Column("condition", "Condition", "s", "L"),
        Column("relation", "ClaimRelation", "s", "L"),
        *(Column(m, m, "6.4f", "R") for m in METRICS),
    )
    groups: dict[tuple[str, str], dict[str, str]] = {}
    for metric in scores.metrics:
        for macro in metric.macros:
            row = groups.setdefault(
                (macro.condition, macro.relation), {"condition": macro.condition, "relation": macro.relation}
            )
            row[metric.metric] = NO_TRUTH if macro.value is None else format(macro.value, "6.4f")
    return score_table(columns, list(groups.values()), "pretty")
