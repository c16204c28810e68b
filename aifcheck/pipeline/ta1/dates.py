"""The dates of a TM row: four (year, month, day) constraints (the model's LDCDate), NIST's way of
filling gaps."""

from __future__ import annotations

import re
from calendar import monthrange
from dataclasses import dataclass

from aifcheck.errors import InputError
from aifcheck.extract.model import LDCDate
from aifcheck.pipeline.shared.checks import trim
from aifcheck.pipeline.ta1.tables import TableRow

NAMES = ("start_after", "start_before", "end_after", "end_before")
PREFIX = {"start_after": "sa", "start_before": "sb", "end_after": "ea", "end_before": "eb"}
_LDC_DATE = re.compile(r"^(....)-(..)-(..)$")


@dataclass(frozen=True)
class Correction:
    """A date whose year was given but not its month or day, completed as NIST completes it."""

    name: str
    missing: str  # e.g. "month,day"
    completed: str  # e.g. "2020-01-01"


def read_date(row: TableRow, name: str) -> tuple[LDCDate | None, Correction | None]:
    """The constraint ``name`` of a TM row: None when its year is not given; a month or day not
    given is completed (first day of the year or month for an AFTER bound, last day for a
    BEFORE bound) and the row's cells are set to the completed date, as NIST's pipeline does."""
    prefix = PREFIX[name]
    text = {field: trim(row[f"{prefix}_{field}"]) for field in ("month", "day", "year")}
    try:
        value = {field: None if t == "" else int(t) for field, t in text.items()}
    except ValueError:
        raise InputError(
            row.path,
            f"{name} date has a part that is not a number ({text['year']}-{text['month']}-{text['day']});"
            " NIST's pipeline stops on it",
            row.line,
        ) from None
    missing = [field for field in ("month", "day", "year") if text[field] == ""]
    if not missing:
        return LDCDate(value["year"], value["month"], value["day"]), None
    parts = [text["year"] or "xxxx", text["month"] or "xx", text["day"] or "xx"]
    if not _LDC_DATE.match("-".join(parts)):
        raise InputError(
            row.path,
            f"{name} date {'-'.join(parts)} is not YYYY-MM-DD with its gaps; NIST's pipeline stops on it",
            row.line,
        )
    if "year" in missing:
        return None, None
    year, month, day = parts
    after = name.endswith("after")
    if month == "xx":
        month, day = ("01", "01") if after else ("12", "31")
    if day == "xx":
        try:
            day = "01" if after else str(monthrange(int(year), int(month))[1])
        except (ValueError, IndexError):
            raise InputError(
                row.path, f"{name} date has month {month}; NIST's pipeline stops on it", row.line
            ) from None
    for field, completed in (("month", month), ("day", day), ("year", year)):
        row[f"{prefix}_{field}"] = f'"{completed}"'
    return LDCDate(int(year), int(month), int(day)), Correction(name, ",".join(missing), f"{year}-{month}-{day}")
