"""Claim frames written as TSV, CRUX .tab or JSON, and CRUX claim relations.

Every format is made from the objects (aifcheck.extract.model.Claim). The TSV and CRUX formats
hold a value's text as it is, except the characters that would break a line or a column: a tab,
a newline and a carriage return are written as ``\\t``, ``\\n`` and ``\\r``. JSON holds every
value exactly.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict

from aifcheck.errors import UsageError
from aifcheck.extract.model import CRUX_EPISTEMIC, CRUX_SENTIMENT, Claim, ClaimComponent, LDCDate, LDCTime

SEPARATOR = ";"  # between the values of a multi-valued TSV cell (as NIST separates Qnodes)
AFFILIATION_SLOTS = 3  # plan §2.4.1 TA3 item 6: at most 3 claimer affiliations
EMPTY = "EMPTY_NA"  # CRUX: a field with no value
_LINE_BREAKERS = str.maketrans({"\t": "\\t", "\n": "\\n", "\r": "\\r"})


def _component_columns(prefix: str) -> tuple[str, ...]:
    return (prefix, f"{prefix}_identity", f"{prefix}_types")


TSV_COLUMNS: tuple[str, ...] = (
    "document_id",
    "claim_id",
    "query_id",
    "topic",
    "subtopic",
    "claim_template",
    *_component_columns("x_variable"),
    "claim_semantics",
    *_component_columns("claimer"),
    *(c for n in range(1, AFFILIATION_SLOTS + 1) for c in _component_columns(f"claimer_affiliation_{n}")),
    "epistemic_status",
    "sentiment_status",
    "claim_datetime_t1",
    "claim_datetime_t2",
    "claim_datetime_t3",
    "claim_datetime_t4",
    *_component_columns("claim_location"),
    *_component_columns("claim_medium"),
    "associated_kes",
    "description",
    "identical_claims",
    "supporting_claims",
    "refuting_claims",
    "related_claims",
    "importance",
    "file",
)


def tsv_row(claim: Claim) -> tuple[str, ...]:
    """One claim as the cells of TSV_COLUMNS.

    An absent value is an empty cell; multi-valued cells (types, clusters, claim IDs) are sorted
    and joined by SEPARATOR. Components take three cells: name, identity (Qnode or NIL ID) and
    types. Affiliations fill up to three slots in sorted order (the plan allows no more; the JSON
    output has them all). The date/time is the T1-T4 4-tuple as NIST prints it, each as
    yyyy-mm-dd, with 0001-01-01 and 9999-12-31 for unconstrained bounds.
    """
    slots = [*claim.affiliations[:AFFILIATION_SLOTS], *[None] * (AFFILIATION_SLOTS - len(claim.affiliations))]
    times = claim.date_time.as_tuple() if claim.date_time else (None,) * 4
    return (
        claim.document,
        claim.claim_id,
        claim.query_id or "",
        claim.topic,
        claim.subtopic or "",
        claim.template or "",
        *_component_cells(claim.x_variable),
        SEPARATOR.join(claim.semantics),
        *_component_cells(claim.claimer),
        *(cell for slot in slots for cell in _component_cells(slot)),
        claim.epistemic,
        claim.sentiment,
        *(_iso_date(t) if t else "" for t in times),
        *_component_cells(claim.location),
        *_component_cells(claim.medium),
        SEPARATOR.join(claim.associated_kes),
        claim.description or "",
        SEPARATOR.join(claim.identical_claims),
        SEPARATOR.join(claim.supporting_claims),
        SEPARATOR.join(claim.refuting_claims),
        SEPARATOR.join(claim.related_claims),
        repr(claim.importance) if claim.importance is not None else "",
        claim.source,
    )


def _component_cells(component: ClaimComponent | None) -> tuple[str, str, str]:
    if component is None:
        return ("", "", "")
    return (component.name, component.identity, SEPARATOR.join(component.types))


def _iso_date(date: LDCDate) -> str:
    return f"{date.year:04d}-{date.month:02d}-{date.day:02d}"


def crux_row(claim: Claim) -> tuple[str, ...]:
    """One claim in the CRUX 2023 claim-frame .tab layout (CRUX plan §2.1).

    Twelve tab-separated fields, in the order of §2.1's field list and example line, with no
    header line (the example has none): root_uid, claim ID, topic, claim template, X variable,
    claimer, epistemic status, claimer affiliation, sentiment status, claim date/time, claim
    location, claim medium. §2.1 has no subtopic and no claim semantics, KEs or relations.

    Interpretations:
    - X variable, claimer, affiliation, location and medium are the components' names, as in
      §2.1's example line ("lemon slices in hot water", "Mayo Clinic", "CNN"); the KB
      identities of CRUX's Appendix A2 are in the TSV output. Several affiliations are joined
      by SEPARATOR.
    - Epistemic and sentiment values map one to one from AIF's (EpistemicTrueCertain ->
      true-certain, SentimentNeutralUnknown -> neutral-unknown); a value outside AIF's lists
      is written as its local name.
    - The date/time is written by crux_date_time.
    - Any field without a value is EMPTY_NA.
    """
    return (
        claim.document,
        claim.claim_id,
        claim.topic,
        claim.template or EMPTY,
        _crux_name(claim.x_variable),
        _crux_name(claim.claimer),
        CRUX_EPISTEMIC.get(claim.epistemic, claim.epistemic),
        SEPARATOR.join(a.name for a in claim.affiliations) or EMPTY,
        CRUX_SENTIMENT.get(claim.sentiment, claim.sentiment),
        crux_date_time(claim.date_time),
        _crux_name(claim.location),
        _crux_name(claim.medium),
    )


def _crux_name(component: ClaimComponent | None) -> str:
    return component.name if component is not None and component.name else EMPTY


UNKNOWN_DATE = "xxxx-xx-xxTxx:xx:xx"


def crux_date_time(date_time: LDCTime | None) -> str:
    """``on|before|after|unknown yyyy-mm-ddTxx:xx:xx`` from a 4-tuple, or EMPTY_NA.

    A claim is made at one moment, so its 4-tuple bounds a single day: after the earliest
    day E (T1, T3) and before the latest day L (T2, T4) (LDCTime.bounds). Then:
    - E and L both unconstrained (0001-01-01, 9999-12-31), or no aida:claimDateTime: the
      document gives no date: EMPTY_NA;
    - only L constrained: ``before L``; only E constrained: ``after E``;
    - both constrained: ``on`` the date whose known parts are those E and L agree on, the
      others x: 2020-03-15..2020-03-15 is on 2020-03-15, 2019-12-01..2019-12-31 on 2019-12-xx,
      2020-01-01..2020-12-31 on 2020-xx-xx, 0001-04-04..9999-04-04 on xxxx-04-04 (CRUX's own
      example);
    - E after L (no day fits): ``unknown xxxx-xx-xxTxx:xx:xx``.
    A year 0001 or 9999 is unknown (x) in a before/after date as well. AIF times have no hour:
    the time of day is always ``xx:xx:xx``.
    """
    if date_time is None:
        return EMPTY
    earliest, latest = date_time.bounds()
    if earliest > latest:
        return f"unknown {UNKNOWN_DATE}"
    if earliest.unconstrained and latest.unconstrained:
        return EMPTY
    if earliest.unconstrained:
        return f"before {_crux_date(latest, latest)}"
    if latest.unconstrained:
        return f"after {_crux_date(earliest, earliest)}"
    return f"on {_crux_date(earliest, latest)}"


def _crux_date(low: LDCDate, high: LDCDate) -> str:
    """The parts low and high agree on, the others as x (a year 0001 or 9999 is never known)."""
    year = f"{low.year:04d}" if low.year == high.year and low.year not in (1, 9999) else "xxxx"
    month = f"{low.month:02d}" if low.month == high.month else "xx"
    day = f"{low.day:02d}" if low.day == high.day else "xx"
    return f"{year}-{month}-{day}Txx:xx:xx"


def to_tsv(found: Sequence[Claim]) -> str:
    return _lines([TSV_COLUMNS, *map(tsv_row, found)])


def to_crux(found: Sequence[Claim], with_source: bool = False) -> str:
    """The CRUX .tab rows, one per claim: the same claim frame read from several files (one
    submission's Condition5 and Condition6 folders) is one row; ``with_source`` adds a last column
    with the files each row was read from (joined by SEPARATOR)."""
    sources: dict[tuple[str, ...], list[str]] = {}
    for claim in found:
        sources.setdefault(crux_row(claim), []).append(claim.source)
    if not with_source:
        return _lines(sources)
    return _lines((*row, SEPARATOR.join(files)) for row, files in sources.items())


def to_json(found: Sequence[Claim]) -> str:
    """Every field of every claim (all affiliations, the 4-tuple as year/month/day objects)."""
    return json.dumps([asdict(c) for c in found], indent=2, ensure_ascii=False) + "\n"


def _lines(rows: Iterable[Sequence[str]]) -> str:
    return "".join("\t".join(cell.translate(_LINE_BREAKERS) for cell in row) + "\n" for row in rows)


FORMATS: dict[str, Callable[[Sequence[Claim]], str]] = {"tsv": to_tsv, "crux": to_crux, "json": to_json}


def to_relations(pairs: Iterable[tuple[str, str]], label: str) -> str:
    """Pairs in the CRUX Task 2 layout: ``claim_id_1 <tab> label <tab> claim_id_2`` a line."""
    return _lines((a, label, b) for a, b in pairs)


def render_claims(found: Sequence[Claim], fmt: str, with_source: bool = False) -> str:
    """The claims in a format; ``with_source`` (crux only: the other formats name each claim's file)."""
    if fmt not in FORMATS:
        raise UsageError(f"unknown format '{fmt}' (choose {', '.join(FORMATS)})")
    return to_crux(found, with_source) if fmt == "crux" else FORMATS[fmt](found)
