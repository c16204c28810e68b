"""Claim frames as objects and as TSV/CRUX/JSON rows; the objects agree with NIST's TA3 tables."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import SHARED_DATA, TEST_DATA

from aifcheck.errors import InputError
from aifcheck.extract.claims import claims, collect
from aifcheck.extract.model import Claim, LDCDate, LDCTime
from aifcheck.render.claims import TSV_COLUMNS, crux_date_time, crux_row, to_crux, to_json, to_tsv, tsv_row

AIDA = (
    "https://raw.githubusercontent.com/NextCenturyCorporation/AIDA-Interchange-Format/master/"
    "java/src/main/resources/com/ncc/aif/ontologies/InterchangeOntology#"
)
SUBMISSION = TEST_DATA / "submission"
FRAME_A = SUBMISSION / "run" / "CLQRYA0001.000001" / "CLDOCA0001.000001.ttl"


def _by_id(found: list[Claim]) -> dict[str, Claim]:
    return {c.claim_id: c for c in found}


# ------------------------------------------------------------------------------------------
# The objects agree with what NIST's queries printed (task3-expected/Condition5)
# ------------------------------------------------------------------------------------------


def _expected_cases() -> list:
    folder = SHARED_DATA / "task3-expected" / "Condition5"
    if not folder.is_dir():
        return [pytest.param(None, None, marks=pytest.mark.skip(reason=f"NIST evaluation data not found at {folder}"))]
    return [
        pytest.param(frame, group, id=f"{frame.parent.name}/{frame.name}/{group}")
        for frame in sorted(folder.glob("*/*.ttl"))
        for group in ("OC", "CC", "CT")
    ]


def _unquote(cell: str) -> str:
    return cell[1:-1] if len(cell) >= 2 and cell[0] == cell[-1] == '"' else cell


def _nist_rows(expected: Path, group: str) -> tuple[tuple[str, ...], list[dict[str, str]]]:
    header, *lines = (expected / f"AIDA_P3_TA3_{group}_0001.rq.tsv").read_text(encoding="utf-8").splitlines()
    columns = tuple(c.lstrip("?") for c in header.split("\t"))
    return columns, [dict(zip(columns, map(_unquote, line.split("\t")), strict=True)) for line in lines]


def _rebuilt(claim: Claim, group: str) -> list[dict[str, str]]:
    """The rows NIST's query ``group`` prints for the claim, made from the Claim object."""
    if group == "OC":
        return [
            {
                "root_uid": claim.document,
                "claim_id": claim.claim_id,
                "topic": claim.topic,
                "subtopic": claim.subtopic or "",
                "claim_template": claim.template or "",
                "description": claim.description or "",
                "epistemic_status": f"<{AIDA}{claim.epistemic}>",
                "sentiment_status": f"<{AIDA}{claim.sentiment}>",
            }
        ]
    if group == "CC":
        named = [
            ("xVariable", claim.x_variable),
            ("claimer", claim.claimer),
            ("claimLocation", claim.location),
            ("claimMedium", claim.medium),
            *(("claimerAffiliation", a) for a in claim.affiliations),
        ]
        return [
            {
                "claim_id": claim.claim_id,
                "component_type": f"<{AIDA}{prop}>",
                "name": c.name,
                "qnode_id": c.identity,
                "qnode_type": qnode,
                "provenance": c.provenance or "",
                "ke": f"<{c.ke}>" if c.ke else "",
            }
            for prop, c in named
            if c is not None
            for qnode in c.types
        ]
    assert claim.date_time is not None
    row = {"claim_id": claim.claim_id}
    for prefix, date in zip(("sa", "sb", "ea", "eb"), claim.date_time.as_tuple(), strict=True):
        row |= {
            f"{prefix}_month": f"{date.month:02d}",
            f"{prefix}_day": f"{date.day:02d}",
            f"{prefix}_year": f"{date.year:04d}",
        }
    return [row]


@pytest.mark.parametrize(("expected", "group"), _expected_cases())
def test_fields_agree_with_nist(expected: Path, group: str) -> None:
    run_file = SHARED_DATA / "task3-run" / "Condition5" / expected.parent.name / expected.name
    (claim,) = claims(run_file)
    columns, nist = _nist_rows(expected, group)
    ours = _rebuilt(claim, group)
    assert nist, "NIST printed no row"
    assert all(tuple(row) == columns for row in ours)
    key = lambda row: tuple(row.values())  # noqa: E731
    assert sorted(ours, key=key) == sorted(nist, key=key)


def test_every_nist_claim_frame_is_read(shared_data: Path) -> None:
    found, problems = collect([shared_data / "task3-run", shared_data / "user-queries"])
    assert not problems
    frames = sorted((shared_data / "task3-run").rglob("*.ttl")) + sorted((shared_data / "user-queries").rglob("*.ttl"))
    assert sorted(c.source for c in found) == sorted(map(str, frames))
    assert all(c.claimer is not None and c.date_time is not None for c in found)
    # Condition 7 claim frames have no template or X variable (plan §6.2.3)
    assert {c.template for c in found if "Condition7" in c.source} == {None}
    affiliated = _by_id(found)["CLL0C0492UF.000762"]
    assert [a.name for a in affiliated.affiliations] == ["Canada", "Center of Research on Globalization"]


# ------------------------------------------------------------------------------------------
# The objects, on the synthetic submission
# ------------------------------------------------------------------------------------------


def test_claim_with_every_field() -> None:
    (claim,) = claims(FRAME_A)
    assert claim.source == str(FRAME_A)
    assert (claim.document, claim.claim_id, claim.query_id) == ("DOCA0001", "CLDOCA0001.000001", None)
    assert (claim.topic, claim.subtopic, claim.template) == (
        "Transmitting the virus",
        "What transmits COVID-19",
        "X transmits / transfers COVID-19",
    )
    assert claim.x_variable is not None and claim.claimer is not None
    x = claim.x_variable
    assert (x.name, x.identity, x.types) == ("pets", "Q39201", ("Q39201", "Q729"))
    assert (
        claim.x_variable.ke == "http://aifcheck.test/fixture/DOCA0001#pets-p"
    )  # a prototype: AIF's componentKE is an ERE
    assert claim.claimer.provenance == "the veterinarian Dr. Vega"
    assert [a.name for a in claim.affiliations] == ["City Animal Clinic"]
    assert claim.location is not None and claim.location.identity == "Q597"
    assert claim.medium is not None and claim.medium.name == "radio interview"
    assert (claim.epistemic, claim.sentiment) == ("EpistemicTrueCertain", "SentimentNegative")
    assert claim.date_time == LDCTime(*[LDCDate(2020, 3, 15)] * 4)
    assert claim.semantics == claim.associated_kes == ("http://aifcheck.test/fixture/DOCA0001#transmission",)
    assert claim.supporting_claims == ("CLDOCB0002.000001",)
    assert claim.identical_claims == claim.refuting_claims == claim.related_claims == ()
    assert claim.description == "Dr. Vega says that pets transmit COVID-19"
    assert claim.importance == 0.75


def test_claims_of_a_folder_are_sorted_and_complete() -> None:
    found = claims(SUBMISSION)
    assert [c.claim_id for c in found] == [
        "CLDOCA0001.000001",
        "CLDOCB0002.000001",
        "CLDOCC0003.000002",
        "CLQRYA0001.000001",
        "CLQRYB0002.000001",
    ]
    by_id = _by_id(found)
    two = by_id["CLDOCC0003.000002"]
    assert [(a.name, a.types) for a in two.affiliations] == [
        ("Government", ("Q327333", "Q7188")),
        ("Ministry of Health", ("Q327333",)),
    ]
    assert two.related_claims == ("CLDOCA0001.000001", "CLDOCB0002.000001")
    assert two.refuting_claims == ("CLDOCD0004.000009",)
    assert by_id["CLQRYB0002.000001"].query_id == "QRYB"
    assert by_id["CLQRYB0002.000001"].date_time is None
    assert by_id["CLDOCB0002.000001"].location is None


def _write(tmp_path: Path, body: str, name: str = "frame.ttl") -> Path:
    path = tmp_path / name
    path.write_text(
        f"@prefix aida: <{AIDA}> .\n@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .\n"
        f"@prefix ex: <http://example.org/> .\n{body}",
        encoding="utf-8",
    )
    return path


CORE = (
    'aida:sourceDocument "D1" ; aida:topic "T" ; '
    "aida:epistemic aida:EpistemicUnknown ; aida:sentiment aida:SentimentMixed"
)


def test_claims_nist_ignores_are_not_listed(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        f"""
ex:kept a aida:Claim ; aida:claimId "C1" ; {CORE} ; aida:importance "0.0"^^xsd:double .
ex:no-topic a aida:Claim ; aida:claimId "C2" ; aida:sourceDocument "D1" ;
    aida:epistemic aida:EpistemicUnknown ; aida:sentiment aida:SentimentMixed .
ex:untyped aida:claimId "C3" ; {CORE} .
""",
    )
    (claim,) = claims(path)
    assert claim.claim_id == "C1"
    assert claim.importance == 0.0  # a zero importance is a value, not an absent one


def test_a_broken_date_is_an_input_error(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        f"""
ex:c a aida:Claim ; aida:claimId "C1" ; {CORE} ; aida:claimDateTime ex:t .
ex:t a aida:LDCTime ; aida:start ex:after .
ex:after a aida:LDCTimeComponent ; aida:timeType "AFTER" ; aida:year "20x0"^^xsd:gYear .
""",
    )
    with pytest.raises(InputError, match=r"claim C1: aida:claimDateTime has a part that is not a number"):
        claims(path)


def test_unreadable_files_are_reported_and_the_others_read(tmp_path: Path) -> None:
    broken = _write(tmp_path, "ex:a ex:b .\n", "broken.ttl")
    found, problems = collect([broken, FRAME_A])
    assert [c.claim_id for c in found] == ["CLDOCA0001.000001"]
    assert len(problems) == 1 and str(problems[0]).startswith(f"{broken}:4:")
    with pytest.raises(InputError):
        claims(broken)


# ------------------------------------------------------------------------------------------
# Output rows
# ------------------------------------------------------------------------------------------


def test_tsv_rows_have_the_header_columns() -> None:
    found = claims(SUBMISSION)
    lines = to_tsv(found).splitlines()
    assert lines[0].split("\t") == list(TSV_COLUMNS)
    assert len(lines) == 1 + len(found)
    assert all(len(line.split("\t")) == len(TSV_COLUMNS) for line in lines)


def test_tsv_row_values() -> None:
    claim = _by_id(claims(SUBMISSION))["CLDOCC0003.000002"]
    row = dict(zip(TSV_COLUMNS, tsv_row(claim), strict=True))
    assert row["claimer_affiliation_1"] == "Government"
    assert row["claimer_affiliation_1_types"] == "Q327333;Q7188"
    assert row["claimer_affiliation_2_identity"] == "NILFX0012"
    assert row["claimer_affiliation_3"] == ""
    times = [row[f"claim_datetime_t{n}"] for n in range(1, 5)]
    assert times == ["2020-02-01", "9999-12-31", "2020-02-01", "9999-12-31"]
    assert row["related_claims"] == "CLDOCA0001.000001;CLDOCB0002.000001"
    assert (row["epistemic_status"], row["sentiment_status"]) == ("EpistemicFalseUncertain", "SentimentMixed")
    assert row["importance"] == "" and row["claim_location"] == ""
    assert row["file"].endswith("CLDOCC0003.000002.ttl")


def test_crux_rows() -> None:
    rows = [line.split("\t") for line in to_crux(claims(SUBMISSION / "run")).splitlines()]
    assert rows == [
        [
            "DOCA0001",
            "CLDOCA0001.000001",
            "Transmitting the virus",
            "X transmits / transfers COVID-19",
            "pets",
            "Dr. Vega",
            "true-certain",
            "City Animal Clinic",
            "negative",
            "on 2020-03-15Txx:xx:xx",
            "Lisbon",
            "radio interview",
        ],
        [
            "DOCB0002",
            "CLDOCB0002.000001",
            "Transmitting the virus",
            "X transmits / transfers COVID-19",
            "cats",
            "author",
            "true-uncertain",
            "EMPTY_NA",
            "neutral-unknown",
            "EMPTY_NA",
            "EMPTY_NA",
            "EMPTY_NA",
        ],
        [
            "DOCC0003",
            "CLDOCC0003.000002",
            "Origin of the Virus",
            "The first case of COVID-19 occurred in location-X",
            "a seafood market",
            "the spokesperson",
            "false-uncertain",
            "Government;Ministry of Health",
            "mixed",
            "after 2020-02-01Txx:xx:xx",
            "EMPTY_NA",
            "EMPTY_NA",
        ],
    ]


def test_crux_row_of_a_claim_without_template_or_x_variable() -> None:
    claim = Claim(
        source="f.ttl",
        document="D",
        claim_id="C",
        topic="Who can contract COVID-19",
        epistemic="EpistemicUnknown",
        sentiment="SentimentPositive",
    )
    assert crux_row(claim) == (
        "D",
        "C",
        "Who can contract COVID-19",
        "EMPTY_NA",
        "EMPTY_NA",
        "EMPTY_NA",
        "unknown",
        "EMPTY_NA",
        "positive",
        "EMPTY_NA",
        "EMPTY_NA",
        "EMPTY_NA",
    )


def _time(
    t1: tuple[int, int, int],
    t2: tuple[int, int, int],
    t3: tuple[int, int, int] | None = None,
    t4: tuple[int, int, int] | None = None,
) -> LDCTime:
    return LDCTime(LDCDate(*t1), LDCDate(*t2), LDCDate(*(t3 or t1)), LDCDate(*(t4 or t2)))


OPEN_START, OPEN_END = (1, 1, 1), (9999, 12, 31)


@pytest.mark.parametrize(
    ("date_time", "expected"),
    [
        pytest.param(None, "EMPTY_NA", id="no-date-time"),
        pytest.param(_time(OPEN_START, OPEN_END), "EMPTY_NA", id="unconstrained"),
        pytest.param(_time((2020, 8, 21), (2020, 8, 21)), "on 2020-08-21Txx:xx:xx", id="on-day"),
        pytest.param(_time((2019, 12, 1), (2019, 12, 31)), "on 2019-12-xxTxx:xx:xx", id="on-month"),
        pytest.param(_time((2020, 1, 1), (2020, 12, 31)), "on 2020-xx-xxTxx:xx:xx", id="on-year"),
        pytest.param(_time((1, 4, 4), (9999, 4, 4)), "on xxxx-04-04Txx:xx:xx", id="on-day-of-unknown-year"),
        pytest.param(_time(OPEN_START, (2020, 6, 5)), "before 2020-06-05Txx:xx:xx", id="before"),
        pytest.param(_time((2020, 7, 28), OPEN_END), "after 2020-07-28Txx:xx:xx", id="after"),
        pytest.param(
            _time((2020, 1, 1), OPEN_END, (2020, 3, 1), OPEN_END),
            "after 2020-03-01Txx:xx:xx",
            id="after-the-later-bound",
        ),
        pytest.param(_time((2020, 5, 1), (2020, 4, 1)), "unknown xxxx-xx-xxTxx:xx:xx", id="no-day-fits"),
    ],
)
def test_crux_date_time(date_time: LDCTime | None, expected: str) -> None:
    assert crux_date_time(date_time) == expected


def test_json_has_every_field() -> None:
    found = claims(SUBMISSION)
    document = json.loads(to_json(found))
    assert [d["claim_id"] for d in document] == [c.claim_id for c in found]
    two = next(d for d in document if d["claim_id"] == "CLDOCC0003.000002")
    assert [a["identity"] for a in two["affiliations"]] == ["NILFX0013", "NILFX0012"]
    assert two["date_time"]["start_after"] == {"year": 2020, "month": 2, "day": 1}
    assert two["x_variable"]["types"] == ["Q330284"]
