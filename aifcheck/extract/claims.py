"""Claim frames as objects (aifcheck.model.Claim), and written as TSV, CRUX .tab or JSON.

The objects are built from the rows of NIST's TA3 tables, so that they read each file as NIST
does: AIDA_P3_TA3_OC_0001 (outer fields), AIDA_P3_TA3_CC_0001 (claim components) and
AIDA_P3_TA3_CT_0001 (claim date/time), completed by queries/aifcheck_claim_values.rq (query ID,
claim semantics, associated KEs, related claim IDs, importance). As in those tables:

- a claim is an ``aida:Claim`` with an ``aida:sourceDocument``, ``aida:claimId``, ``aida:topic``,
  ``aida:epistemic`` and ``aida:sentiment``; NIST ignores any other (plan §2.4.1 TA3 item 2),
  and so does this module (``aifcheck validate --profile ta3`` says what is missing);
- a claim component has a name, an identity and at least one type;
- fields are keyed by claim ID; where a file gives a single-valued field twice (which the ta3
  profile reports), the first value in sorted order is kept;
- text is as NIST prints it: tabs and line breaks inside a value appear as ``\\t`` and ``\\n``.

The rows of every output format are made from the objects.
"""
from __future__ import annotations

import json
import os
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict
from decimal import Decimal, InvalidOperation

from ..validation.catalog import AIDA
from ..errors import InputError, UsageError
from .kg import cell_iri, cell_text, ldc_time
from .model import Claim, ClaimComponent, LDCDate, LDCTime
from ..loading.kb import KB, read_each
from ..loading.paths import discover
from .query import run_table

OUTER = "AIDA_P3_TA3_OC_0001"
COMPONENTS = "AIDA_P3_TA3_CC_0001"
DATE_TIME = "AIDA_P3_TA3_CT_0001"
VALUES = "aifcheck_claim_values"

SEPARATOR = ";"  # between the values of a multi-valued TSV cell (as NIST separates Qnodes)
AFFILIATION_SLOTS = 3  # plan §2.4.1 TA3 item 6: at most 3 claimer affiliations
EMPTY = "EMPTY_NA"  # CRUX: a field with no value

_COMPONENT_FIELDS = {
    "xVariable": "x_variable",
    "claimer": "claimer",
    "claimLocation": "location",
    "claimMedium": "medium",
}


def claims(path: str | os.PathLike) -> list[Claim]:
    """The claims of a file, or of every RDF file under a folder; raises InputError on the first bad file."""
    found, problems = collect([path])
    if problems:
        raise problems[0]
    return found


def collect(paths: Iterable[str | os.PathLike]) -> tuple[list[Claim], list[InputError]]:
    """The claims of files, folders (recursively) or globs, sorted by document, claim ID and file.

    Files that cannot be read are returned as errors; the others are still read.
    """
    files, problems = discover([str(p) for p in paths])
    per_file, unreadable = read_each(files, read_claims)
    found = [claim for claims in per_file for claim in claims]
    return sorted(found, key=lambda c: (c.document, c.claim_id, c.source)), problems + unreadable


def read_claims(kb: KB) -> list[Claim]:
    outer: dict[str, dict[str, str]] = {}
    for row in run_table(kb, OUTER).records():
        outer.setdefault(cell_text(row["claim_id"]), row)
    components = _components(kb)
    times = _date_times(kb)
    values: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for row in run_table(kb, VALUES).records():
        values[cell_text(row["claim_id"])][_aida_name(row["property"])].append(row["value"])
    return [
        _claim(kb.path, claim_id, row, components[claim_id], times.get(claim_id), values[claim_id])
        for claim_id, row in sorted(outer.items())
    ]


def _claim(
    source: str,
    claim_id: str,
    row: dict[str, str],
    components: dict[str, list[ClaimComponent]],
    date_time: LDCTime | None,
    values: dict[str, list[str]],
) -> Claim:
    def strings(prop: str) -> tuple[str, ...]:
        return tuple(sorted({cell_text(cell) for cell in values[prop]}))

    def iris(prop: str) -> tuple[str, ...]:
        return tuple(sorted({cell_iri(cell) for cell in values[prop]}))

    single = {field: min(components[prop], key=_order, default=None) for prop, field in _COMPONENT_FIELDS.items()}
    return Claim(
        source=source,
        document=cell_text(row["root_uid"]),
        claim_id=claim_id,
        topic=cell_text(row["topic"]),
        epistemic=_aida_name(row["epistemic_status"]),
        sentiment=_aida_name(row["sentiment_status"]),
        query_id=min(strings("queryId"), default=None),
        subtopic=_optional(row["subtopic"]),
        template=_optional(row["claim_template"]),
        semantics=iris("claimSemantics"),
        affiliations=tuple(sorted(components["claimerAffiliation"], key=_order)),
        date_time=date_time,
        associated_kes=iris("associatedKEs"),
        description=_optional(row["description"]),
        identical_claims=strings("identicalClaims"),
        supporting_claims=strings("supportingClaims"),
        refuting_claims=strings("refutingClaims"),
        related_claims=strings("relatedClaims"),
        importance=min((n for n in map(_number, values["importance"]) if n is not None), default=None),
        **single,
    )


def _components(kb: KB) -> dict[str, dict[str, list[ClaimComponent]]]:
    """Claim ID -> the claim's property (``claimer``, ...) -> its components; CC has one row per type."""
    types: dict[tuple[str, str, str, str, str | None, str | None], set[str]] = defaultdict(set)
    for row in run_table(kb, COMPONENTS).records():
        key = (
            cell_text(row["claim_id"]),
            _aida_name(row["component_type"]),
            cell_text(row["name"]),
            cell_text(row["qnode_id"]),
            _optional(row["provenance"]),
            cell_iri(row["ke"]) or None,
        )
        types[key].add(cell_text(row["qnode_type"]))
    found: dict[str, dict[str, list[ClaimComponent]]] = defaultdict(lambda: defaultdict(list))
    for (claim_id, prop, name, identity, provenance, ke), qnodes in types.items():
        found[claim_id][prop].append(ClaimComponent(name, identity, tuple(sorted(qnodes)), provenance, ke))
    return found


def _date_times(kb: KB) -> dict[str, LDCTime]:
    found: dict[str, LDCTime] = {}
    for row in run_table(kb, DATE_TIME).records():
        claim_id = cell_text(row["claim_id"])
        try:
            date_time = ldc_time(row)
        except ValueError:
            cells = " ".join(row[c] for c in row if c != "claim_id")
            message = f"claim {claim_id}: aida:claimDateTime has a part that is not a number: {cells}"
            raise InputError(kb.path, message) from None
        found.setdefault(claim_id, date_time)
    return found


def _order(component: ClaimComponent) -> tuple[str, ...]:
    """Components sort by their printed fields (an absent provenance or KE first)."""
    types = SEPARATOR.join(component.types)
    return (component.name, component.identity, types, component.provenance or "", component.ke or "")


def _aida_name(cell: str) -> str:
    """An AIF term's local name (``EpistemicTrueCertain``); any other value as printed."""
    return cell_iri(cell).removeprefix(str(AIDA)) if cell.startswith("<") else cell_text(cell)


def _optional(cell: str) -> str | None:
    return cell_text(cell) if cell else None


def _number(cell: str) -> float | None:
    """A printed double; None when the value is not a number (rule A12 reports it)."""
    try:
        return float(Decimal(cell_text(cell)))
    except InvalidOperation:
        return None


# ------------------------------------------------------------------------------------------
# Output formats
# ------------------------------------------------------------------------------------------


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


EPISTEMIC = {
    "EpistemicTrueCertain": "true-certain",
    "EpistemicTrueUncertain": "true-uncertain",
    "EpistemicFalseCertain": "false-certain",
    "EpistemicFalseUncertain": "false-uncertain",
    "EpistemicUnknown": "unknown",
}
SENTIMENT = {
    "SentimentNegative": "negative",
    "SentimentPositive": "positive",
    "SentimentMixed": "mixed",
    "SentimentNeutralUnknown": "neutral-unknown",
}


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
        EPISTEMIC.get(claim.epistemic, claim.epistemic),
        SEPARATOR.join(a.name for a in claim.affiliations) or EMPTY,
        SENTIMENT.get(claim.sentiment, claim.sentiment),
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
    return "".join("\t".join(row) + "\n" for row in rows)


FORMATS: dict[str, Callable[[Sequence[Claim]], str]] = {"tsv": to_tsv, "crux": to_crux, "json": to_json}

IDENTICAL = "identical"
POLARITY = {"EpistemicTrueCertain": "true", "EpistemicTrueUncertain": "true",
            "EpistemicFalseCertain": "false", "EpistemicFalseUncertain": "false", "EpistemicUnknown": "unknown"}


def _identity(component: ClaimComponent | None) -> str | None:
    """A component's KB identity (Qnode or NIL ID); None when absent or a placeholder (EMPTY_TBD)."""
    if component is None or not component.identity or component.identity.startswith("EMPTY_"):
        return None
    return component.identity


def identical_pairs(found: Sequence[Claim]) -> list[tuple[str, str]]:
    """The pairs of claim IDs that are identical by their fields alone (CRUX plan §2.2): same
    topic, subtopic and template, same X variable identity, same claimer identity, same
    epistemic truth value (true-certain and true-uncertain are both true).

    A claim whose X variable or claimer has no KB identity (none, or a placeholder such as
    EMPTY_TBD) is identical to no other: a name is not an identity. Each pair is given once,
    the smaller ID first, sorted; a claim ID read from several files is one claim, identical to
    another if any of its frames is.
    """
    groups: dict[tuple[object, ...], set[str]] = defaultdict(set)
    for claim in found:
        x, claimer = _identity(claim.x_variable), _identity(claim.claimer)
        if x is not None and claimer is not None:
            truth = POLARITY.get(claim.epistemic, claim.epistemic)
            groups[claim.topic, claim.subtopic, claim.template, x, claimer, truth].add(claim.claim_id)
    return sorted({(a, b) for ids in groups.values() for a in ids for b in ids if a < b})


def to_relations(pairs: Iterable[tuple[str, str]], label: str) -> str:
    """Pairs in the CRUX Task 2 layout: ``claim_id_1 <tab> label <tab> claim_id_2`` a line."""
    return _lines((a, label, b) for a, b in pairs)


def render_claims(found: Sequence[Claim], fmt: str, with_source: bool = False) -> str:
    """The claims in a format; ``with_source`` (crux only: the other formats name each claim's file)."""
    if fmt not in FORMATS:
        raise UsageError(f"unknown format '{fmt}' (choose {', '.join(FORMATS)})")
    return to_crux(found, with_source) if fmt == "crux" else FORMATS[fmt](found)
