"""CRUX 2023 Task 2 (cross-claim relation tagging) scores: per-class P/R/F1 and macro-F1 (CRUX
plan §2.2 "Scoring"; research/ta3-crux-scoring.md §3.3, readings A12, A13).

Files: one relation a line, ``claim_id_1 <tab> label <tab> claim_id_2`` without a header (the
plan's layout; ``aifcheck claims --relations identical`` writes it), or a table whose header
line names ``claim_id_1``, ``relation`` and ``claim_id_2`` (LDC's layout, other columns
ignored). Labels are the plan's ``identical``, ``support``, ``refute``, ``related`` and LDC's
``supported_by``, ``refuted_by``: ``x supported_by y`` is read as ``y support x`` (likewise
refuted_by).

Scoring (each a documented default; README "CRUX readings"):
- the instances are the gold rows, each an ordered pair (x, y) with its label; a pair given
  again (same label or not) keeps its first row, with a warning, in either file;
- the system's label for (x, y) is that of its row (x, y), or of its row (y, x) when that label
  is symmetric (identical, refute, related: A12); without one the prediction is "none", a
  false negative of the gold label. System rows no instance uses are counted, not scored;
- per class: P, R and F1 from TP, FP and FN over the instances (0 for 0/0); macro-F1 is the
  mean over the classes that occur in gold or in the predictions (A13, sklearn's label set);
  accuracy is the share of instances predicted right.
"""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass, field, replace

from aifcheck.errors import InputError
from aifcheck.loading.tsv import read_rows
from aifcheck.score.allocations import cyclic_gc_paused
from aifcheck.score.crux.claims import Counts, count_values, counts
from aifcheck.score.crux.explain import Instance, explain_relations
from aifcheck.score.explain import Explanation

LABELS = ("identical", "support", "refute", "related")
SYMMETRIC = frozenset({"identical", "refute", "related"})
INVERSE = {"supported_by": "support", "refuted_by": "refute"}  # x L y -> y label x
NONE = "none"
HEADER = ("claim_id_1", "relation", "claim_id_2")


@dataclass(frozen=True)
class RelationFile:
    relations: dict[tuple[str, str], str]  # (x, y) -> label, the first row of each pair
    warnings: tuple[str, ...]
    path: str = ""
    lines: dict[tuple[str, str], int] = field(default_factory=dict)  # (x, y) -> the line of its row


def read_relation_file(path: str | os.PathLike) -> RelationFile:
    """Read a Task 2 file; InputError (file and line) for a format error."""
    rows = read_rows(path)
    path = str(path)
    columns: tuple[int, ...] = (0, 1, 2)
    width = 3
    if rows and HEADER[0] in (c.strip() for c in rows[0][1]):
        header = [c.strip() for c in rows[0][1]]
        missing = [c for c in HEADER if c not in header]
        if missing:
            raise InputError(path, f"the header has no column {', '.join(missing)}", rows[0][0])
        columns, width = tuple(header.index(c) for c in HEADER), len(header)
        rows = rows[1:]
    relations: dict[tuple[str, str], str] = {}
    lines: dict[tuple[str, str], int] = {}
    warnings = []
    for line, cells in rows:
        if len(cells) != width:
            raise InputError(path, f"{len(cells)} columns, expected {width} (claim_id_1, label, claim_id_2)", line)
        first, label, second = (cells[i].strip() for i in columns)
        if not first or not second:
            raise InputError(path, "a claim ID is empty", line)
        if label in INVERSE:
            first, label, second = second, INVERSE[label], first
        elif label not in LABELS:
            expected = f"{', '.join(LABELS)}, supported_by or refuted_by"
            raise InputError(path, f"unknown relation '{label}' (expected {expected})", line)
        key = (first, second)
        if key in relations:
            same = "again" if relations[key] == label else f"as {label}, after {relations[key]}"
            warnings.append(
                f"{path}:{line}: {first} {second} is given {same} (line {lines[key]}): the first row counts"
            )
            continue
        relations[key], lines[key] = label, line
    return RelationFile(relations, tuple(warnings), path, lines)


@dataclass(frozen=True)
class ClassScore(Counts):
    label: str


@dataclass(frozen=True)
class RelationScores:
    macro_f1: float
    accuracy: float
    classes: tuple[ClassScore, ...]  # the classes in gold or predictions, in LABELS order
    instances: int  # gold pairs
    unscored: int  # system rows that no gold pair uses
    confusion: dict[str, dict[str, int]]  # gold label -> predicted label (or "none") -> count
    warnings: tuple[str, ...]
    explanations: tuple[Explanation, ...] = ()  # when asked (aifcheck.score.crux.explain)


def score_relations(system: str | os.PathLike, gold: str | os.PathLike, explain: bool = False) -> RelationScores:
    """Score a Task 2 system file against a gold file (see the module's docstring); ``explain``:
    explain each class's row and the macro-F1 (RelationScores.explanations)."""
    with cyclic_gc_paused():
        scores = _score_relations(read_relation_file(system), read_relation_file(gold), explain)
    if scores.instances == 0:  # (the CRUX plan's reading: every score 0)
        return replace(scores, warnings=(*scores.warnings, f"{gold}: holds no relation: every score is 0"))
    return scores


def _score_relations(ours: RelationFile, theirs: RelationFile, explain: bool = False) -> RelationScores:
    used: dict[tuple[str, str], None] = {}  # the system rows the instances read, in their order
    pairs = []
    instances = []
    for (first, second), label in theirs.relations.items():
        predicted, row = NONE, None
        if (first, second) in ours.relations:
            row = (first, second)
        elif ours.relations.get((second, first)) in SYMMETRIC:
            row = (second, first)
        if row is not None:
            used[row] = None
            predicted = ours.relations[row]
        pairs.append((label, predicted))
        if explain:
            system_line = ours.lines[row] if row is not None else None
            instances.append(Instance(first, second, label, predicted, theirs.lines[first, second], system_line))
    tally = Counter(pairs)
    present = [c for c in LABELS if any(c in pair for pair in tally)]
    classes = []
    for label in present:
        hits = tally[label, label]
        answered = sum(n for (_, p), n in tally.items() if p == label)
        wanted = sum(n for (g, _), n in tally.items() if g == label)
        classes.append(ClassScore(**counts(hits, answered, wanted), label=label))
    confusion: dict[str, dict[str, int]] = {}
    for (label, predicted), n in sorted(tally.items(), key=lambda item: (_order(item[0][0]), _order(item[0][1]))):
        confusion.setdefault(label, {})[predicted] = n
    scores = RelationScores(
        macro_f1=sum(c.f1 for c in classes) / len(classes) if classes else 0.0,
        accuracy=sum(tally[c, c] for c in LABELS) / len(pairs) if pairs else 0.0,
        classes=tuple(classes),
        instances=len(pairs),
        unscored=len(ours.relations.keys() - used.keys()),
        confusion=confusion,
        warnings=(*ours.warnings, *theirs.warnings),
    )
    if not explain:
        return scores
    unscored = [(x, label, y, ours.lines[x, y]) for (x, y), label in ours.relations.items() if (x, y) not in used]
    rows = {c.label: count_values(c) for c in classes}
    rows["ALL"] = (("macro_f1", scores.macro_f1), ("accuracy", scores.accuracy), ("instances", len(pairs)))
    found = explain_relations(instances, unscored, (ours.path, theirs.path), rows)
    return replace(scores, explanations=tuple(found))


def _order(label: str) -> int:
    return LABELS.index(label) if label in LABELS else len(LABELS)
