"""TA2 scores: the score files as NIST writes them (``scores/AcrossDocumentsCoreferenceMetricV2-scores.txt``
and ``.tab``), a summary table, the scores as JSON.

The score table has 21 columns (ScoutEntity ... AP, ClusterID), one row per pseudo-query, then the
Summary row: ``Summary``, the run ID, ``ALL-Macro``, empty count cells and the AP; an empty AP where
no row has RelCntd > 0 (NIST's code divides by zero there). Within a query, rows come by class
(AssdEntity, string order): NIST's order there follows Python's hash seed.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable
from pathlib import Path

from aifcheck.loading.tsv import TsvTable
from aifcheck.render.explain import write_explanations
from aifcheck.render.output import new_folder, write_file
from aifcheck.render.score_table import Column, cell, score_table, tab_table
from aifcheck.score.ta2.scores import PLAN, TA2Scores

METRIC = "AcrossDocumentsCoreferenceMetricV2"
_COUNTS = (
    ("submitted", "Sub"),
    ("valid", "Valid"),
    ("invalid", "Invld"),
    ("not_pooled", "NtMtPlgCrt"),
    ("pooled", "MtPlgCrt"),
    ("assessed", "Assd"),
    ("not_assessed", "NtAssd"),
    ("correct", "Crct"),
    ("inexact", "Inexct"),
    ("incorrect", "Incrct"),
    ("right", "Right"),
    ("wrong", "Wrong"),
    ("ignored", "Ignrd"),
)
COLUMNS = (
    Column("entity_id", "ScoutEntity", "s", "L"),
    Column("run_id", "RunID", "s", "L"),
    Column("query_id", "QueryID", "s", "L"),
    Column("fqec", "AssdEntity", "s", "L"),
    Column("rel", "Rel", "d", "R", "0.2f"),
    Column("rel_counted", "RelCntd", "d", "R", "0.2f"),
    *(Column(name, header, "d", "R", "0.2f") for name, header in _COUNTS),
    Column("ap", "AP", "6.4f", "R"),
    Column("cluster", "ClusterID", "s", "L"),
)
SUMMARY = ("Summary", "ALL-Macro")


def score_table_text(scores: TA2Scores, separator: str) -> str:
    """The score file: ``separator`` "pretty" (the .txt) or "tab" (the .tab)."""
    return score_table(COLUMNS, _score_rows(scores), separator)


def score_tables(scores: TA2Scores, out: str | os.PathLike) -> tuple[TsvTable, ...]:
    """The ``OUT/scores/<Metric>-scores.tab`` table as a value."""
    return (tab_table(Path(out) / "scores" / f"{METRIC}-scores.tab", COLUMNS, _score_rows(scores)),)


def _score_rows(scores: TA2Scores) -> list[dict[str, str]]:
    """The rows of the score file, formatted."""
    lines = []
    for row in scores.rows:
        values: dict[str, object] = {
            "entity_id": row.entity_id,
            "run_id": scores.run_id,
            "query_id": row.query_id,
            "fqec": row.fqec,
            "rel": row.rel,
            "rel_counted": row.rel_counted,
            "ap": row.ap,
            "cluster": str(row.cluster),
        }
        values.update({name: getattr(row.counts, name) for name, _ in _COUNTS})
        lines.append({c.name: cell(c, values[c.name]) for c in COLUMNS})
    summary = {c.name: "" for c in COLUMNS}
    summary.update(
        entity_id=SUMMARY[0],
        run_id=scores.run_id,
        query_id=SUMMARY[1],
        ap="" if scores.summary is None else scores.summary,
    )
    lines.append({c.name: cell(c, summary[c.name], summary=True) for c in COLUMNS})
    return lines


def score_files(scores: TA2Scores) -> dict[str, str]:
    """The files of OUT, by path relative to OUT."""
    return {
        f"scores/{METRIC}-scores.{suffix}": score_table_text(scores, separator)
        for suffix, separator in (("txt", "pretty"), ("tab", "tab"))
    }


def summary_text(scores: TA2Scores) -> str:
    """The table on stdout: every pseudo-query's AP and cluster, then the summary value."""
    columns = (
        Column("query_id", "QueryID", "s"),
        Column("entity_id", "Entity", "s"),
        Column("fqec", "Class", "s"),
        Column("rel_counted", "RelCntd", "s", "R"),
        Column("ap", "AP", "s", "R"),
        Column("cluster", "Cluster", "s", ""),
    )
    rows = [
        {
            "query_id": r.query_id,
            "entity_id": r.entity_id,
            "fqec": r.fqec,
            "rel_counted": str(r.rel_counted),
            "ap": format(r.ap, "6.4f").strip(),
            "cluster": "-" if r.cluster is None else r.cluster,
        }
        for r in scores.rows
    ]
    value = "-" if scores.summary is None else format(scores.summary, "6.4f").strip()
    if scores.mode == PLAN:
        label = f"MAP (the plan: sum of AP / {scores.denominator}, the sum over queries of min(C, G))"
    else:
        label = "ALL-Macro (NIST: the mean AP of the rows with RelCntd > 0)"
    return score_table(columns, rows, "pretty") + f"{label}: {value}\n"


def scores_json(scores: TA2Scores) -> str:
    """The scores for other tools: ``map`` (NIST's ALL-Macro, or the plan's MAP; null where NIST
    divides by zero) and every scored query's pseudo-queries (an empty list when it has none)."""
    queries: dict[str, dict[str, object]] = {
        q: {"entity_id": e, "pseudo_queries": []} for q, e in scores.queries.items()
    }
    for row in scores.rows:
        queries[row.query_id]["pseudo_queries"].append(
            {
                "class": row.fqec,
                "cluster": row.cluster,
                "ap": row.ap,
                "rel": row.rel,
                "rel_counted": row.rel_counted,
                "counts": {name: getattr(row.counts, name) for name, _ in _COUNTS},
            }
        )
    document = {
        "run_id": scores.run_id,
        "mode": scores.mode,
        "map": scores.summary,
        "denominator": scores.denominator,
        "queries": queries,
        "warnings": list(scores.warnings),
        "notes": list(scores.notes),
        "errors": scores.errors,
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def write_scores(
    scores: TA2Scores,
    out: str | os.PathLike,
    force: bool = False,
    inputs: Iterable[str | os.PathLike] = (),
    beside: Callable[[Path], None] | None = None,
) -> None:
    """OUT/scores/AcrossDocumentsCoreferenceMetricV2-scores.txt and .tab (and, when the rows were
    explained, OUT/explain/ta2.jsonl and .txt), OUT written whole; what ``beside`` writes into the
    folder (the intervals of --ci) is part of it."""
    with new_folder(Path(out), force, inputs) as folder:
        for name, text in score_files(scores).items():
            write_file(folder / name, text)
        if scores.explanations:
            write_explanations(folder, "ta2", scores.explanations)
        if beside is not None:
            beside(folder)
