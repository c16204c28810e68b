"""CRUX scores as text tables or JSON (numbers rounded to 4 decimals).

JSON keys (stable, for other tools):
- claims: ``precision``, ``recall``, ``f1``, ``accuracy``, ``fields`` (``{<column>: {precision,
  recall, f1}}`` with the 12-column layout's names), and ``true_positives``,
  ``false_positives``, ``false_negatives``, ``documents`` (``{<root_uid>: {...}}``);
- relations: ``macro_f1``, ``classes`` (``{identical|support|refute|related: {precision, recall,
  f1}}``, the classes scored), and ``accuracy``, ``instances``, ``unscored_rows``, ``confusion``.
"""

from __future__ import annotations

import json

from aifcheck.render.score_table import Column, score_table
from aifcheck.score.crux.claims import ClaimScores, Counts, DocumentScore
from aifcheck.score.crux.relations import LABELS, NONE, RelationScores

DECIMALS = 4
_SCORE = "6.4f"


def _round(value: float) -> float:
    return round(value, DECIMALS)


def _prf(item) -> dict[str, float]:
    return {"precision": _round(item.precision), "recall": _round(item.recall), "f1": _round(item.f1)}


def _counts(item: Counts) -> dict[str, int]:
    return {
        "true_positives": item.true_positives,
        "false_positives": item.false_positives,
        "false_negatives": item.false_negatives,
    }


def claims_json(scores: ClaimScores) -> str:
    document = {
        **_prf(scores),
        "accuracy": _round(scores.accuracy),
        "fields": {field: _prf(value) for field, value in scores.fields.items()},
        **_counts(scores),
        "documents": {d.root_uid: {**_prf(d), "accuracy": _round(d.accuracy), **_counts(d)} for d in scores.documents},
    }
    return json.dumps(document, indent=2) + "\n"


def _scores_columns(first: Column, *counts: str) -> tuple[Column, ...]:
    return (
        first,
        *(Column(c, c, "d", "R") for c in counts),
        *(Column(c, c, _SCORE, "R") for c in ("precision", "recall", "F1")),
    )


def _score_cells(item) -> dict[str, str]:
    return {
        name: format(getattr(item, attribute), _SCORE)
        for name, attribute in (("precision", "precision"), ("recall", "recall"), ("F1", "f1"))
    }


def claims_text(scores: ClaimScores) -> str:
    columns = (
        *_scores_columns(Column("document", "document", "s", "L"), "TP", "FP", "FN"),
        Column("accuracy", "accuracy", _SCORE, "R"),
    )
    rows = []
    named: list[tuple[str, DocumentScore | ClaimScores]] = [(d.root_uid, d) for d in scores.documents]
    for name, d in (*named, ("ALL", scores)):
        rows.append(
            {
                "document": name,
                "TP": str(d.true_positives),
                "FP": str(d.false_positives),
                "FN": str(d.false_negatives),
                **_score_cells(d),
                "accuracy": format(d.accuracy, _SCORE),
            }
        )
    field_columns = _scores_columns(Column("field", "field", "s", "L"))
    field_rows = [{"field": name, **_score_cells(value)} for name, value in scores.fields.items()]
    return score_table(columns, rows, "pretty") + "\n" + score_table(field_columns, field_rows, "pretty")


def relations_json(scores: RelationScores) -> str:
    document = {
        "macro_f1": _round(scores.macro_f1),
        "classes": {c.label: _prf(c) for c in scores.classes},
        "accuracy": _round(scores.accuracy),
        "instances": scores.instances,
        "unscored_rows": scores.unscored,
        "confusion": scores.confusion,
    }
    return json.dumps(document, indent=2) + "\n"


def relations_text(scores: RelationScores) -> str:
    columns = _scores_columns(Column("class", "class", "s", "L"), "TP", "FP", "FN")
    rows = [
        {
            "class": c.label,
            "TP": str(c.true_positives),
            "FP": str(c.false_positives),
            "FN": str(c.false_negatives),
            **_score_cells(c),
        }
        for c in scores.classes
    ]
    summary = (
        f"macro-F1 {scores.macro_f1:.4f} over {_plural(len(scores.classes), 'class', 'classes')}, "
        f"accuracy {scores.accuracy:.4f} ({_plural(scores.instances, 'gold pair', 'gold pairs')}; "
        f"{_plural(scores.unscored, 'system row', 'system rows')} not in gold)\n"
    )
    predicted = [label for label in (*LABELS, NONE) if any(label in row for row in scores.confusion.values())]
    confusion_columns = (Column("gold", "gold \\ predicted", "s", "L"), *(Column(p, p, "s", "R") for p in predicted))
    confusion_rows = [
        {"gold": gold, **{p: str(row.get(p, 0)) for p in predicted}} for gold, row in scores.confusion.items()
    ]
    return (
        score_table(columns, rows, "pretty") + summary + "\n" + score_table(confusion_columns, confusion_rows, "pretty")
    )


def _plural(count: int, one: str, many: str) -> str:
    return f"{count} {one if count == 1 else many}"
