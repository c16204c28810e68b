"""Claim frames as objects (aifcheck.extract.model.Claim), and the CRUX relations between them.

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
- text is the value the file gives (NIST's printed tables escape quotes, backslashes, tabs and
  line breaks; the objects hold the text itself).

aifcheck.render.claims writes them (TSV, CRUX .tab, JSON).
"""

from __future__ import annotations

import os
from collections import defaultdict
from collections.abc import Iterable, Sequence
from decimal import Decimal, InvalidOperation

from aifcheck.errors import InputError
from aifcheck.extract.kg import ldc_time
from aifcheck.extract.model import Claim, ClaimComponent, LDCTime
from aifcheck.extract.query import run_table, value
from aifcheck.loading.kb import KB, load_kb, read_each
from aifcheck.loading.lines import Term
from aifcheck.loading.paths import discover
from aifcheck.loading.tsv import read_rows
from aifcheck.names import AIDA

OUTER = "AIDA_P3_TA3_OC_0001"
COMPONENTS = "AIDA_P3_TA3_CC_0001"
DATE_TIME = "AIDA_P3_TA3_CT_0001"
VALUES = "aifcheck_claim_values"


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
    outer: dict[str, dict[str, Term | None]] = {}
    for row in run_table(kb, OUTER).records():
        outer.setdefault(value(row["claim_id"]), row)
    components = _components(kb)
    times = _date_times(kb)
    values: dict[str, dict[str, list[Term | None]]] = defaultdict(lambda: defaultdict(list))
    for row in run_table(kb, VALUES).records():
        values[value(row["claim_id"])][_aida_name(row["property"])].append(row["value"])
    return [
        _claim(kb.path, claim_id, row, components[claim_id], times.get(claim_id), values[claim_id])
        for claim_id, row in sorted(outer.items())
    ]


def _claim(
    source: str,
    claim_id: str,
    row: dict[str, Term | None],
    components: dict[str, list[ClaimComponent]],
    date_time: LDCTime | None,
    values: dict[str, list[Term | None]],
) -> Claim:
    def strings(prop: str) -> tuple[str, ...]:
        return tuple(sorted({value(term) for term in values[prop]}))

    single = {field: min(components[prop], key=_order, default=None) for prop, field in _COMPONENT_FIELDS.items()}
    return Claim(
        source=source,
        document=value(row["root_uid"]),
        claim_id=claim_id,
        topic=value(row["topic"]),
        epistemic=_aida_name(row["epistemic_status"]),
        sentiment=_aida_name(row["sentiment_status"]),
        query_id=min(strings("queryId"), default=None),
        subtopic=_optional(row["subtopic"]),
        template=_optional(row["claim_template"]),
        semantics=strings("claimSemantics"),
        affiliations=tuple(sorted(components["claimerAffiliation"], key=_order)),
        date_time=date_time,
        associated_kes=strings("associatedKEs"),
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
            value(row["claim_id"]),
            _aida_name(row["component_type"]),
            value(row["name"]),
            value(row["qnode_id"]),
            _optional(row["provenance"]),
            _optional(row["ke"]),
        )
        types[key].add(value(row["qnode_type"]))
    found: dict[str, dict[str, list[ClaimComponent]]] = defaultdict(lambda: defaultdict(list))
    for (claim_id, prop, name, identity, provenance, ke), qnodes in types.items():
        found[claim_id][prop].append(ClaimComponent(name, identity, tuple(sorted(qnodes)), provenance, ke))
    return found


def _date_times(kb: KB) -> dict[str, LDCTime]:
    found: dict[str, LDCTime] = {}
    for row in run_table(kb, DATE_TIME).records():
        claim_id = value(row["claim_id"])
        try:
            date_time = ldc_time(row)
        except ValueError:
            cells = " ".join(value(row[c]) for c in row if c != "claim_id")
            message = f"claim {claim_id}: aida:claimDateTime has a part that is not a number: {cells}"
            raise InputError(kb.path, message) from None
        found.setdefault(claim_id, date_time)
    return found


def _order(component: ClaimComponent) -> tuple[str, ...]:
    """Components sort by the fields the TSV output shows (an absent provenance or KE first)."""
    types = ";".join(component.types)
    return (component.name, component.identity, types, component.provenance or "", component.ke or "")


def _aida_name(term: Term | None) -> str:
    """An AIF term's local name (``EpistemicTrueCertain``); any other value as it is."""
    return value(term).removeprefix(AIDA)


def _optional(term: Term | None) -> str | None:
    return value(term) if term is not None else None


def _number(term: Term | None) -> float | None:
    """A double; None when the value is not a number (rule A12 reports it)."""
    try:
        return float(Decimal(value(term).strip()))
    except InvalidOperation:
        return None


IDENTICAL = "identical"
POLARITY = {
    "EpistemicTrueCertain": "true",
    "EpistemicTrueUncertain": "true",
    "EpistemicFalseCertain": "false",
    "EpistemicFalseUncertain": "false",
    "EpistemicUnknown": "unknown",
}


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


def claim_lines(path: str | os.PathLike) -> dict[str, int]:
    """The line of each claim frame of a KB, by claim ID; InputError when the file cannot be read.
    ``path`` may be the folder of the KB's SPARQL tables (a run given as tables, named as the KB):
    the line is then its claim's row of the outer-claim table."""
    if os.path.isdir(path):
        rows = read_rows(os.path.join(path, f"{OUTER}.rq.tsv"))
        at = rows[0][1].index("?claim_id") if rows and "?claim_id" in rows[0][1] else None
        found = {}
        for line, cells in rows[1:] if at is not None else ():
            if len(cells) > at:
                found.setdefault(cells[at], line)
        return found
    with load_kb(path) as kb:
        found: dict[str, int] = {}
        for row in run_table(kb, "aifcheck_explain_claims").records():
            line = kb.line_of(row["claim"])
            if line is not None:
                found.setdefault(value(row["claim_id"]), line)
        return found
