"""The claim-frame fields NIST's TA3 scorer weighs, their correct values, and Novelty(C1, C2).

A field's values are read from a pool claim's outer-claim.tab (research/ta3-crux-scoring.md §2.1):
each component of the field has a row whose correctness column judges it (``overallAssessment``
for the components, ``value``/``polarity``/``range`` for the others) and a row that gives its
value: the template text, the epistemic polarity (True, False or Unknown), LDC's similarity
class for X variable, claimer, affiliation, location and medium (written in the correctness
column of their ``ec_similarity`` row), the date range ``(T1,T2)-(T3,T4)`` and the sentiment. A
field's *correct values* are those of its components judged Correct or Inexact, sorted and
capped at the field's number of values (a value given twice takes two of the places, as in
NIST's code). A query claim frame's values all count as correct.

Novelty(C1, C2) (plan §6.3.1, §2.3 of the research document) is 0 unless C1's four required
fields are correct, and otherwise the weighted sum over the fields of n_f, where, with V1 and V2
the correct values of f in C1 and C2:
- a field is *new* when V1 is not empty and either V1 - V2 is not empty or, for the date, V2 is
  empty or one of the four bounds differs (more than 30 days apart, or one side ``--``);
- a field is *novel* when it is new, or V1 is not empty and a field of its context is novel
  (plan §6.3.1: Context(f)); following contexts from field to field, a field is novel exactly
  when a chain of non-empty fields leads from it to a new field;
- NIST counts n_f = |V1 - V2| for a new field whose context is not novel, and |V1| for a novel
  one. With ``plan=True``, n_f is 1 for a novel field and 0 otherwise (the plan weighs fields,
  not values: claimer affiliation earns 4, not 4 per affiliation), and a date bound is near
  another when it is within one calendar month of it, not 30 days.

The matrix of every pairwise novelty of a set of claims is computed at once with numpy.
"""

from __future__ import annotations

import calendar
import datetime
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from aifcheck.errors import InputError
from aifcheck.score.ta3.package import SCORED_ROWS, AssessedClaim, OuterClaimRow

_CORE = ("claimTemplate", "claimEpistemic", "xVariable")
_DESIRABLE_CONTEXT = (*_CORE, "claimer")
# the judgement and value rows of a component (X variable, claimer, ...): LDC writes the value,
# a similarity class, in the correctness column of its ec_similarity row
_COMPONENT = ("overallAssessment", "ec_similarity", "correctness")


@dataclass(frozen=True)
class Field:
    """A field: its weight, context, the row judging a component, and the row (and column) of
    its value."""

    name: str
    weight: float
    context: tuple[str, ...]
    judged_by: str
    value_row: str
    value_column: str  # "value" or "correctness"
    max_values: int = 1
    required: bool = False


FIELDS: tuple[Field, ...] = (
    Field("claimTemplate", 32, ("claimEpistemic", "xVariable"), "value", "value", "value", required=True),
    Field("claimEpistemic", 32, ("claimTemplate", "xVariable"), "polarity", "polarity", "value", required=True),
    Field("xVariable", 32, ("claimTemplate", "claimEpistemic"), *_COMPONENT, required=True),
    Field("claimer", 16, _CORE, *_COMPONENT, required=True),
    Field("claimerAffiliation", 4, _DESIRABLE_CONTEXT, *_COMPONENT, max_values=3),
    Field("claimLocation", 1, _DESIRABLE_CONTEXT, *_COMPONENT),
    Field("claimMedium", 1, _DESIRABLE_CONTEXT, *_COMPONENT),
    Field("date", 1, _DESIRABLE_CONTEXT, "range", "range", "value"),
    Field("claimSentiment", 0.5, _DESIRABLE_CONTEXT, "value", "value", "value"),
)
# Contexts are single-valued fields: NIST's recursion differs from "a chain to a new field" only
# for a multi-valued field inside a context, which the plan does not have.
assert all(f.max_values == 1 for f in FIELDS if any(f.name in g.context for g in FIELDS))
assert {f.judged_by for f in FIELDS} | {f.value_row for f in FIELDS} == SCORED_ROWS
FIELD_INDEX = {f.name: k for k, f in enumerate(FIELDS)}
REQUIRED = tuple(f for f in FIELDS if f.required)
DATE = FIELD_INDEX["date"]

CORRECT = {"Correct": True, "Inexact": True, "Incorrect": False, "Wrong": False, "N/A": False}
POLARITY = {
    "EpistemicTrueCertain": "True",
    "EpistemicTrueUncertain": "True",
    "EpistemicFalseCertain": "False",
    "EpistemicFalseUncertain": "False",
    "EpistemicUnknown": "Unknown",
}
UNBOUNDED = "--"
_DAY_US = 86_400_000_000
_EPOCH = datetime.datetime(1, 1, 1)


class Bound(NamedTuple):
    """One bound of a date range: ``--``, or a time in microseconds since 0001-01-01 with the
    time one calendar month later."""

    unbounded: bool
    time: int = 0
    month_later: int = 0


@dataclass(frozen=True)
class ClaimValues:
    """A claim's correct values, field by field (in FIELDS order), and whether its four required
    fields are correct. ``dates`` holds the parsed bounds of its correct date, if any."""

    required_correct: bool
    values: tuple[frozenset[str], ...]
    dates: tuple[Bound, Bound, Bound, Bound] | None = None


_NO_VALUES: frozenset[str] = frozenset()
NOTHING = ClaimValues(False, tuple(_NO_VALUES for _ in FIELDS))  # what Conditions 6, 7 compare a claim with first


def _row(
    claim: AssessedClaim, field: Field, rows: dict[str, OuterClaimRow], component: str, name: str
) -> OuterClaimRow:
    row = rows.get(name)
    if row is None:
        raise InputError(
            claim.path, f"{field.name} {component} has no '{name}' row", claim.lines.get((field.name, component))
        )
    return row


def _correct(claim: AssessedClaim, field: Field, rows: dict[str, OuterClaimRow], component: str) -> bool:
    row = _row(claim, field, rows, component, field.judged_by)
    judged = CORRECT.get(row.correctness)
    if judged is None:
        raise InputError(
            claim.path,
            f"{field.name} {component} {field.judged_by}: unknown correctness "
            f"'{row.correctness}' (expected {', '.join(CORRECT)})",
            row.line,
        )
    return judged


def required_correct(claim: AssessedClaim, flagged: bool) -> tuple[bool, str | None]:
    """Whether the required fields of component 1 are all correct, read in plan order up to the
    first that is not (NIST reads no further); and the required field the claim lacks, where one
    is reached that it has no component 1 of (a Condition 7 claim frame has no template or X
    variable). Such a field is not correct; NIST's scorer stops on it (AttributeError)."""
    if flagged:
        return True, None
    for field in REQUIRED:
        rows = claim.fields.get(field.name, {}).get("1")
        if rows is None:
            return False, field.name
        if not _correct(claim, field, rows, "1"):
            return False, None
    return True, None


def judgement_lines(claim: AssessedClaim) -> list[tuple[str, str, int]]:
    """Each row that judges a component of a field: the field's name, LDC's judgement (the row's
    correctness) and the row's line, in FIELDS order, then component order."""
    return [
        (field.name, row.correctness, row.line)
        for field in FIELDS
        for rows in claim.fields.get(field.name, {}).values()
        if (row := rows.get(field.judged_by)) is not None
    ]


def claim_values(claim: AssessedClaim, flagged: bool, correct: bool) -> ClaimValues:
    """Every field's correct values (``correct``: required_correct's answer); every judgement of
    every component is read (and must be one NIST knows), as NIST reads them for each claim it
    ranks."""
    fields = []
    dates = None
    for field in FIELDS:
        found = []
        for component, rows in claim.fields.get(field.name, {}).items():
            row = _row(claim, field, rows, component, field.value_row)
            if flagged or _correct(claim, field, rows, component):
                value = row.correctness if field.value_column == "correctness" else row.value
                found.append((POLARITY.get(value, value), row.line))
        if not found:
            fields.append(_NO_VALUES)
            continue
        found.sort()
        kept = found[: field.max_values]
        fields.append(frozenset(value for value, _ in kept))
        if field.name == "date":
            dates = _parse_range(claim.path, *kept[0])
    return ClaimValues(correct, tuple(fields), dates)


def _parse_range(path: str, text: str, line: int) -> tuple[Bound, Bound, Bound, Bound]:
    halves = [half.strip("()").split(",") for half in text.split(")-(")]
    try:
        if len(halves) != 2 or any(len(half) != 2 for half in halves):
            raise ValueError
        return tuple(_bound(b) for half in halves for b in half)  # type: ignore[return-value]
    except ValueError:
        raise InputError(path, f"date range '{text}' is not (T1,T2)-(T3,T4) with ISO dates or --", line) from None


def _bound(text: str) -> Bound:
    if text == UNBOUNDED:
        return Bound(True)
    moment = datetime.datetime.fromisoformat(text)
    if moment.tzinfo is not None:
        moment = moment.astimezone(datetime.UTC).replace(tzinfo=None)
    return Bound(False, _micros(moment), _micros(_month_later(moment)))


def _micros(moment: datetime.datetime) -> int:
    return (moment - _EPOCH) // datetime.timedelta(microseconds=1)


def _month_later(moment: datetime.datetime) -> datetime.datetime:
    year, month = (moment.year, moment.month + 1) if moment.month < 12 else (moment.year + 1, 1)
    if year > datetime.MAXYEAR:
        return datetime.datetime.max
    return moment.replace(year=year, month=month, day=min(moment.day, calendar.monthrange(year, month)[1]))


def _context_table() -> np.ndarray:
    """For every pair (new fields, non-empty fields) of field bit masks, the mask of the fields
    whose context is novel: a field is novel when it is new, or non-empty with a novel field in
    its context (the fixed point of that rule, i.e. a chain of non-empty fields to a new one)."""
    masks = np.arange(1 << len(FIELDS))
    new, filled = masks[:, None], masks[None, :]
    has = [((filled >> k) & 1).astype(bool) for k in range(len(FIELDS))]
    reach = [np.broadcast_to(((new >> k) & 1).astype(bool), (len(masks), len(masks))) for k in range(len(FIELDS))]
    context = [[FIELD_INDEX[g] for g in f.context] for f in FIELDS]

    def novel_context(k: int) -> np.ndarray:
        found = np.zeros_like(reach[0])
        for g in context[k]:
            found = found | reach[g]
        return has[k] & found

    changed = True
    while changed:
        grown = [reach[k] | novel_context(k) for k in range(len(FIELDS))]
        changed = any((g != r).any() for g, r in zip(grown, reach, strict=True))
        reach = grown
    table = np.zeros((len(masks), len(masks)), dtype=np.int32)
    for k in range(len(FIELDS)):
        table |= novel_context(k).astype(np.int32) << k
    return table


class NoveltyMatrix:
    """Novelty(C_i, C_j) for every pair of a list of claims, as one numpy array.

    A claim is first encoded as one row of integers (``encode``): whether its required fields
    are correct, then per field its values' ids (ids shared by every claim this object encodes),
    -1 for an empty place, and for the date whether there is one and its bounds."""

    CONTEXT = _context_table()
    WEIGHTS = np.array([sum(f.weight for k, f in enumerate(FIELDS) if m >> k & 1) for m in range(1 << len(FIELDS))])
    MULTI = tuple(k for k, f in enumerate(FIELDS) if f.max_values > 1)
    SINGLE = sum(1 << k for k, f in enumerate(FIELDS) if f.max_values == 1)
    NO_DATE = (0, *(Bound(True) * 4))

    def __init__(self, plan: bool = False):
        self.plan = plan
        self._ids: list[dict[str, int]] = [{} for _ in FIELDS]
        self._columns: list[slice] = []
        start = 1
        for k, field in enumerate(FIELDS):
            width = len(self.NO_DATE) if k == DATE else field.max_values
            self._columns.append(slice(start, start + width))
            start += width

    def encode(self, claim: ClaimValues) -> tuple[int, ...]:
        row = [int(claim.required_correct)]
        for k, field in enumerate(FIELDS):
            if k == DATE:
                row.extend((1, *(x for bound in claim.dates for x in bound)) if claim.dates else self.NO_DATE)
            else:
                known, values = self._ids[k], sorted(claim.values[k])
                row.extend(known.setdefault(v, len(known)) for v in values)
                row.extend([-1] * (field.max_values - len(values)))
        return tuple(row)

    def __call__(self, rows: Sequence[tuple[int, ...]]) -> np.ndarray:
        data = np.array(rows, dtype=np.int64)
        size = len(rows)
        new_bits = np.zeros((size, size), dtype=np.int32)
        filled_bits = np.zeros(size, dtype=np.int32)
        new, counts = {}, {}
        for k, field in enumerate(FIELDS):
            columns = data[:, self._columns[k]]
            if k == DATE:
                counts[k] = columns[:, 0]
                new[k] = self._new_dates(columns[:, 0] == 1, columns[:, 1:].reshape(size, 4, 3))
            else:
                valid = columns >= 0
                if field.max_values == 1:
                    new[k] = valid & (columns != columns.T)
                else:  # the values of C_i not among C_j's (explicit loops: numpy reduces short axes slowly)
                    new[k] = np.zeros((size, size), dtype=np.int64)
                    for a in range(field.max_values):
                        new[k] += valid[:, a, None] & _none_equal(columns[:, a], columns)
                counts[k] = valid.sum(axis=1)
            new_bits |= (new[k] > 0).astype(np.int32) << k
            filled_bits |= (counts[k] > 0).astype(np.int32) << k
        context = self.CONTEXT[new_bits, filled_bits[:, None]]
        novel = new_bits | context
        if self.plan:  # a novel field counts its weight once
            total = self.WEIGHTS[novel]
        else:  # NIST: a multi-valued field counts its new values, or all of them in a novel context
            total = self.WEIGHTS[novel & self.SINGLE]
            for k in self.MULTI:
                total += FIELDS[k].weight * np.where(context >> k & 1, counts[k][:, None], new[k])
        total[data[:, 0] == 0, :] = 0
        return total

    def _new_dates(self, present: np.ndarray, bounds: np.ndarray) -> np.ndarray:
        unbounded, time, later = bounds[:, :, 0] == 1, bounds[:, :, 1], bounds[:, :, 2]
        u1, u2 = unbounded[:, None, :], unbounded[None, :, :]
        t1, t2 = time[:, None, :], time[None, :, :]
        if self.plan:  # the later bound more than a calendar month after the earlier one
            apart = np.where(t1 <= t2, t2 > later[:, None, :], t1 > later[None, :, :])
        else:  # NIST: timedelta.days > 30
            apart = np.abs(t1 - t2) >= 31 * _DAY_US
        differs = (u1 ^ u2) | (~u1 & ~u2 & apart)
        differs_any = differs[:, :, 0] | differs[:, :, 1] | differs[:, :, 2] | differs[:, :, 3]
        return present[:, None] & (~present[None, :] | differs_any)


def _none_equal(values: np.ndarray, others: np.ndarray) -> np.ndarray:
    """[i, j]: values[i] differs from every others[j, :]."""
    result = np.ones((len(values), len(others)), dtype=bool)
    for b in range(others.shape[1]):
        result &= values[:, None] != others[None, :, b]
    return result
