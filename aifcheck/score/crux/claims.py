"""CRUX 2023 Task 1 (claim frame extraction) scores: precision, recall, F1 and accuracy of a
system's claim frames against gold ones, and per-field P/R/F1 (CRUX plan §2.1 "Scoring";
research/ta3-crux-scoring.md §3.2 gives the formulas, §3.4 the reading of each ambiguity).

Files: one claim frame a line, 12 tab-separated columns without a header (COLUMNS), as a
system writes them (and ``aifcheck claims --format crux``); or a table whose header line names
the columns (it starts with ``root_uid``; LDC's layout, with extra columns such as ``subtopic``
ignored). In a header-named file, ``qnode_<column>_identity`` columns (x_variable, claimer,
claim_location, claim_medium) give KB identities.

Reading (each a documented default; README "CRUX readings"):
- A1: frames are matched within a document (root_uid) only.
- A2: entity values (X variable, claimer, location, medium) compare by KB identity when both
  files give an identity column for the field and the row has one (an empty cell or an
  ``EMPTY_...`` placeholder is none); otherwise by name, case-folded with whitespace collapsed.
  Affiliations, topic and template compare the same way as names.
- A3: ``EMPTY_NA`` equals ``EMPTY_NA``; a date ``unknown ...`` is EMPTY_NA.
- A4: epistemic status is the exact 5-way label. A5: dates match exactly (lower-cased x).
- A6-A8: a system frame and a gold frame can match only if root_uid, topic, template and X agree;
  the weight of a pair is then the sum of the weights (hundredths) of its equal fields; per
  (root_uid, topic, template, X) block a maximum-weight matching (scipy) pairs them. TP is the
  number of pairs, FP = |system| - TP, FN = |gold| - TP (pooled over documents); accuracy is
  the matched weight over 100 TP. Every maximum matching has the same TP and weight.
- A9: per field, P/R/F1 of the sets of (root_uid, value), EMPTY_NA left out, several
  affiliations counted one by one; a field with no value on either side (both sets empty, the
  gold holding claims) scores 1 in P, R and F1: nothing to find, and nothing wrongly found.
  A10: affiliations (separated by ``;`` or ``,``: the plan names no separator) are equal iff
  their sets are. A11: a frame listed twice is a false positive the second time. A14: a gold
  claim ID may appear once.
"""

from __future__ import annotations

import os
import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from aifcheck.errors import InputError
from aifcheck.extract.model import CRUX_EPISTEMIC, CRUX_SENTIMENT, Claim, ClaimComponent
from aifcheck.loading.tsv import read_rows
from aifcheck.pipeline.shared.matching import assign
from aifcheck.score.allocations import cyclic_gc_paused
from aifcheck.score.crux.explain import explain_claims
from aifcheck.score.explain import Explanation

COLUMNS = (
    "root_uid",
    "claim_id",
    "topic",
    "claim_template",
    "x_variable",
    "claimer",
    "epistemic_status",
    "claimer_affiliation",
    "sentiment_status",
    "claim_datetime",
    "claim_location",
    "claim_medium",
)
FIELDS = COLUMNS[2:]  # scored fields, in column order
WEIGHTS = {  # hundredths (CRUX plan §2.1)
    "topic": 19,
    "claim_template": 19,
    "x_variable": 19,
    "claimer": 19,
    "epistemic_status": 16,
    "claimer_affiliation": 2,
    "sentiment_status": 2,
    "claim_datetime": 2,
    "claim_location": 1,
    "claim_medium": 1,
}
BLOCK_FIELDS = ("topic", "claim_template", "x_variable")  # with root_uid: no match unless equal
EMPTY = "EMPTY_NA"
EPISTEMIC = ("true-certain", "true-uncertain", "false-certain", "false-uncertain", "unknown")
SENTIMENT = ("negative", "positive", "mixed", "neutral-unknown")
ENTITIES = ("x_variable", "claimer", "claim_location", "claim_medium")  # may have an identity column
# the plan names no separator of several affiliations: aifcheck claims writes ";", others ","
AFFILIATION_SEPARATORS = re.compile(r"[;,]")
_DATE = re.compile(
    r"(on|before|after|unknown) ([0-9x]{4})-([0-9x]{2})-([0-9x]{2})"
    r"T([0-9x]{2}):([0-9x]{2}):([0-9x]{2})"
)
_DATE_RANGES = ((1, 12), (1, 31), (0, 23), (0, 59), (0, 59))  # month, day, hour, minute, second


@dataclass(frozen=True)
class ClaimFile:
    claims: tuple[Claim, ...]
    identities: frozenset[str]  # the entity columns this file gives identities for
    lines: tuple[int, ...] = ()  # each claim's line in its file


def read_claim_file(path: str | os.PathLike, gold: bool = False) -> ClaimFile:
    """Read a Task 1 file into claims; InputError (file and line) for a format error, and for a
    gold claim ID given twice."""
    rows = read_rows(path)
    path = str(path)
    columns: tuple[str, ...] = COLUMNS
    if rows and rows[0][1][0].strip() == COLUMNS[0]:
        columns = tuple(c.strip() for c in rows[0][1])
        missing = [c for c in COLUMNS if c not in columns]
        if missing:
            raise InputError(path, f"the header has no column {', '.join(missing)}", rows[0][0])
        rows = rows[1:]
    identities = frozenset(f for f in ENTITIES if f"qnode_{f}_identity" in columns)
    claims, lines = [], []
    seen: dict[str, int] = {}
    for line, cells in rows:
        if len(cells) != len(columns):
            raise InputError(path, f"{len(cells)} columns, expected {len(columns)} ({' '.join(columns)})", line)
        claim = _claim(path, line, dict(zip(columns, (c.strip() for c in cells), strict=True)))
        if gold and claim.claim_id in seen:
            first = seen[claim.claim_id]
            raise InputError(path, f"gold claim ID {claim.claim_id} is repeated (first at line {first})", line)
        seen.setdefault(claim.claim_id, line)
        claims.append(claim)
        lines.append(line)
    return ClaimFile(tuple(claims), identities, tuple(lines))


_AIF_EPISTEMIC = {label: name for name, label in CRUX_EPISTEMIC.items()}
_AIF_SENTIMENT = {label: name for name, label in CRUX_SENTIMENT.items()}


def _claim(path: str, line: int, record: dict[str, str]) -> Claim:
    for column in COLUMNS:
        if not record[column]:
            raise InputError(path, f"{column} is empty (write {EMPTY} for a field without a value)", line)
    for column, allowed in (("epistemic_status", EPISTEMIC), ("sentiment_status", SENTIMENT)):
        if record[column] not in allowed:
            raise InputError(path, f"unknown {column} '{record[column]}' (expected {', '.join(allowed)})", line)

    def component(field: str) -> ClaimComponent | None:
        identity = record.get(f"qnode_{field}_identity", "")
        has_identity = identity and not identity.startswith("EMPTY_")
        return None if record[field] == EMPTY else ClaimComponent(record[field], identity if has_identity else "")

    affiliations = (a.strip() for a in AFFILIATION_SEPARATORS.split(record["claimer_affiliation"]))
    return Claim(
        source=path,
        document=record["root_uid"],
        claim_id=record["claim_id"],
        topic=record["topic"],
        epistemic=_AIF_EPISTEMIC[record["epistemic_status"]],
        sentiment=_AIF_SENTIMENT[record["sentiment_status"]],
        template=None if record["claim_template"] == EMPTY else record["claim_template"],
        x_variable=component("x_variable"),
        claimer=component("claimer"),
        affiliations=tuple(ClaimComponent(a, "") for a in affiliations if a and a != EMPTY),
        location=component("claim_location"),
        medium=component("claim_medium"),
        crux_date=_date(path, line, record["claim_datetime"]),
    )


def comparison_keys(claim: Claim, identities: frozenset[str]) -> dict[str, object]:
    """The values compared, one per field (None for EMPTY_NA, a frozenset for the affiliation):
    names case-folded with whitespace collapsed; an entity by its identity where ``identities``
    (the entity columns both files identify) has the field and the claim gives one, else by name."""
    keys: dict[str, object] = {
        "topic": _name(claim.topic),
        "claim_template": None if claim.template is None else _name(claim.template),
        "epistemic_status": CRUX_EPISTEMIC[claim.epistemic],
        "sentiment_status": CRUX_SENTIMENT[claim.sentiment],
        "claim_datetime": claim.crux_date,
        "claimer_affiliation": frozenset(_name(a.name) for a in claim.affiliations),
    }
    for field, component in zip(ENTITIES, (claim.x_variable, claim.claimer, claim.location, claim.medium), strict=True):
        if component is None:
            keys[field] = None
        elif component.identity and field in identities:
            keys[field] = ("identity", component.identity)
        else:
            keys[field] = ("name", _name(component.name))
    return keys


def _name(text: str) -> str:
    return " ".join(text.split()).casefold()


def _date(path: str, line: int, text: str) -> str | None:
    if text == EMPTY:
        return None
    match = _DATE.fullmatch(text.replace("X", "x"))
    if match is None:
        raise InputError(
            path,
            f"claim_datetime '{text}' is not {EMPTY} or on|before|after|unknown "
            "yyyy-mm-ddTHH:MM:SS (x for an unknown digit)",
            line,
        )
    for part, (low, high) in zip(match.groups()[2:], _DATE_RANGES, strict=True):
        if part.isdigit() and not low <= int(part) <= high:
            raise InputError(path, f"claim_datetime '{text}': '{part}' is out of range", line)
    return None if match.group(1) == "unknown" else match.group(0)


# ------------------------------------------------------------------------------------------
# Scores
# ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PRF:
    precision: float
    recall: float
    f1: float


@dataclass(frozen=True)
class Counts(PRF):
    """P, R and F1 with the true positives, false positives and false negatives they come from."""

    true_positives: int
    false_positives: int
    false_negatives: int


def prf(found: int, system: int, gold: int) -> PRF:
    """P = found/system, R = found/gold (0 for a zero denominator), F1 their harmonic mean or 0."""
    precision = found / system if system else 0.0
    recall = found / gold if gold else 0.0
    return PRF(precision, recall, 2 * precision * recall / (precision + recall) if precision + recall else 0.0)


def counts(found: int, system: int, gold: int) -> dict[str, Any]:
    """The fields of Counts for ``found`` right among ``system`` answers and ``gold`` truths."""
    return {
        **vars(prf(found, system, gold)),
        "true_positives": found,
        "false_positives": system - found,
        "false_negatives": gold - found,
    }


@dataclass(frozen=True)
class DocumentScore(Counts):
    """The scores of one document, or of all (root_uid "ALL")."""

    root_uid: str
    accuracy: float  # mean weight (0-1) of the matched pairs; 0 when none


@dataclass(frozen=True)
class ClaimScores(Counts):
    accuracy: float
    fields: dict[str, PRF]  # per field, in FIELDS order
    documents: tuple[DocumentScore, ...]  # per root_uid of either file, sorted
    warnings: tuple[str, ...] = ()
    explanations: tuple[Explanation, ...] = ()  # when asked (aifcheck.score.crux.explain)


Keys = tuple[str, dict[str, object]]  # (root_uid, a claim's comparison keys)


def weight(system: dict[str, object], gold: dict[str, object]) -> int:
    """Eq 1 in hundredths for two frames of one document: the weights of their equal fields, 0
    unless topic, template and X agree."""
    if any(system[f] != gold[f] for f in BLOCK_FIELDS):
        return 0
    return sum(w for f, w in WEIGHTS.items() if system[f] == gold[f])


def score_claims(system: str | os.PathLike, gold: str | os.PathLike, explain: bool = False) -> ClaimScores:
    """Score a Task 1 system file against a gold file (see the module's docstring); ``explain``:
    explain each row (ClaimScores.explanations)."""
    with cyclic_gc_paused():
        scores = _score_claims(read_claim_file(system), read_claim_file(gold, gold=True), explain)
    if scores.true_positives + scores.false_negatives == 0:  # (the CRUX plan's reading: every score 0)
        return replace(scores, warnings=(f"{gold}: holds no claim frame: every score is 0",))
    return scores


def _score_claims(ours: ClaimFile, theirs: ClaimFile, explain: bool = False) -> ClaimScores:
    identities = ours.identities & theirs.identities
    system_keys = [(c.document, comparison_keys(c, identities)) for c in ours.claims]
    gold_keys = [(c.document, comparison_keys(c, identities)) for c in theirs.claims]
    blocks: dict[tuple[str, tuple[object, ...]], tuple[list[int], ...]] = defaultdict(lambda: ([], []))
    for side, frames in enumerate((system_keys, gold_keys)):
        for index, (root_uid, keys) in enumerate(frames):
            blocks[root_uid, tuple(keys[f] for f in BLOCK_FIELDS)][side].append(index)
    matched: dict[str, list[int]] = defaultdict(lambda: [0, 0])  # root_uid -> [pairs, weight]
    paired: list[tuple[int, int, int]] = []  # (system frame, gold frame, weight)
    for (root_uid, _), (found, wanted) in blocks.items():
        if found and wanted:
            weights = [[weight(system_keys[s][1], gold_keys[g][1]) for g in wanted] for s in found]
            matching = assign(weights)
            matched[root_uid][0] += len(matching)
            matched[root_uid][1] += sum(weights[s][g] for s, g in matching)
            paired += [(found[s], wanted[g], weights[s][g]) for s, g in matching]
    system_sizes, gold_sizes = _count(system_keys), _count(gold_keys)
    documents = tuple(
        _document(root, matched[root], system_sizes.get(root, 0), gold_sizes.get(root, 0))
        for root in sorted(system_sizes.keys() | gold_sizes.keys())
    )
    pairs, total = sum(m[0] for m in matched.values()), sum(m[1] for m in matched.values())
    scores = ClaimScores(
        **counts(pairs, len(system_keys), len(gold_keys)),
        accuracy=_accuracy(pairs, total),
        fields=_fields(system_keys, gold_keys),
        documents=documents,
    )
    if not explain:
        return scores
    rows = {d.root_uid: _row_values(d) for d in documents} | {"ALL": _row_values(scores)}
    rows |= {f"field:{f}": tuple(vars(found).items()) for f, found in scores.fields.items()}

    def frames(keys: list[Keys], file: ClaimFile) -> list[tuple[str, dict, str, int, str]]:
        return [(*k, c.source, line, c.claim_id) for k, c, line in zip(keys, file.claims, file.lines, strict=True)]

    found = explain_claims(frames(system_keys, ours), frames(gold_keys, theirs), paired, FIELDS, _values, rows)
    return replace(scores, explanations=tuple(found))


def count_values(found: Counts) -> tuple[tuple[str, object], ...]:
    """TP, FP, FN, P, R and F1 by the names of the explanation's steps."""
    names = ("true_positives", "false_positives", "false_negatives", "precision", "recall", "f1")
    steps = ("tp", "fp", "fn", "precision", "recall", "f1")
    return tuple((step, getattr(found, name)) for step, name in zip(steps, names, strict=True))


def _row_values(found: DocumentScore | ClaimScores) -> tuple[tuple[str, object], ...]:
    return (*count_values(found), ("accuracy", found.accuracy))


def _count(frames: Iterable[Keys]) -> dict[str, int]:
    found: dict[str, int] = defaultdict(int)
    for root_uid, _ in frames:
        found[root_uid] += 1
    return found


def _document(root: str, matched: list[int], system: int, gold: int) -> DocumentScore:
    pairs, total = matched
    return DocumentScore(**counts(pairs, system, gold), root_uid=root, accuracy=_accuracy(pairs, total))


def _accuracy(pairs: int, total: int) -> float:
    """A8: the mean weight of the matched pairs, as a share of the 100 hundredths."""
    return total / (100 * pairs) if pairs else 0.0


def _fields(system: list[Keys], gold: list[Keys]) -> dict[str, PRF]:
    scores = {}
    for field in FIELDS:
        ours, theirs = _values(system, field), _values(gold, field)
        if gold and not ours and not theirs:  # A9: empty against empty agrees
            scores[field] = PRF(1.0, 1.0, 1.0)
        else:
            scores[field] = prf(len(ours & theirs), len(ours), len(theirs))
    return scores


def _values(frames: Iterable[Keys], field: str) -> set[tuple[str, object]]:
    """The (root_uid, value) pairs of a field over the frames (EMPTY_NA left out)."""
    values: set[tuple[str, object]] = set()
    for root_uid, keys in frames:
        key = keys[field]
        if isinstance(key, frozenset):
            values.update((root_uid, k) for k in key)
        elif key is not None:
            values.add((root_uid, key))
    return values
