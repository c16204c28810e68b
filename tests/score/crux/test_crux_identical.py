"""``aifcheck claims --relations identical``: identical claims from their fields alone (CRUX plan
§2.2), written in the CRUX Task 2 layout that ``aifcheck score crux-relations`` reads."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from helpers import TEST_DATA
from typer.testing import CliRunner

from aifcheck.cli import application
from aifcheck.extract.claims import identical_pairs
from aifcheck.extract.model import Claim, ClaimComponent
from aifcheck.render.claims import to_relations

app = application()

RUN = TEST_DATA / "submission" / "run"
# CLDOCA0001.000001 of RUN (pets Q39201, Dr. Vega NILFX0001, true-certain) under another claim ID,
# true-uncertain: the same truth value
COPY = Path(__file__).parents[1] / "fixtures" / "crux" / "CLDOCA0001.000009.ttl"

BASE = Claim(
    source="a.ttl",
    document="D1",
    claim_id="C1",
    topic="Origin",
    subtopic="Where",
    template="X is the origin",
    x_variable=ClaimComponent("bats", "Q10"),
    claimer=ClaimComponent("WHO", "Q7817"),
    epistemic="EpistemicTrueCertain",
    sentiment="SentimentNeutralUnknown",
)


def test_same_fields_same_identities_same_truth_value() -> None:
    found = [
        BASE,
        replace(
            BASE,
            claim_id="C2",
            document="D2",
            epistemic="EpistemicTrueUncertain",
            x_variable=ClaimComponent("fruit bats", "Q10"),
            sentiment="SentimentNegative",
        ),  # names differ: no matter
        replace(BASE, claim_id="C3", epistemic="EpistemicFalseCertain"),  # another truth value
        replace(BASE, claim_id="C4", subtopic="When"),
        replace(BASE, claim_id="C5", claimer=ClaimComponent("WHO", "EMPTY_TBD")),  # no identity: never identical
        replace(BASE, claim_id="C6", claimer=ClaimComponent("WHO", "EMPTY_TBD")),
        replace(BASE, claim_id="C0", x_variable=ClaimComponent("a bat", "Q10")),
    ]
    assert identical_pairs(found) == [("C0", "C1"), ("C0", "C2"), ("C1", "C2")]


def test_a_claim_read_twice_is_one_claim() -> None:
    assert identical_pairs([BASE, replace(BASE, source="b.ttl")]) == []


def test_task2_layout() -> None:
    assert to_relations([("C0", "C1")], "identical") == "C0\tidentical\tC1\n"


def test_command_lists_identical_pairs() -> None:
    result = CliRunner().invoke(app, ["claims", "--relations", "identical", str(RUN), str(COPY)])
    assert result.exit_code == 0, result.output
    assert result.stdout == "CLDOCA0001.000001\tidentical\tCLDOCA0001.000009\n"


def test_command_output_is_a_crux_relations_file(tmp_path: Path) -> None:
    out = tmp_path / "identical.tab"
    result = CliRunner().invoke(app, ["claims", "--relations", "identical", "-o", str(out), str(RUN), str(COPY)])
    assert result.exit_code == 0, result.output
    gold = tmp_path / "gold.tab"
    gold.write_text("CLDOCA0001.000009\tidentical\tCLDOCA0001.000001\n", encoding="utf-8")  # the other order: symmetric
    scored = CliRunner().invoke(app, ["score", "crux-relations", str(out), "--gold", str(gold), "--format", "json"])
    assert scored.exit_code == 0, scored.output
    assert json.loads(scored.stdout)["macro_f1"] == 1.0


def test_no_pair_in_nist_s_example_submission(shared_data: Path) -> None:
    # its run claims have no identities (EMPTY_TBD); its query claim frames differ
    result = CliRunner().invoke(
        app, ["claims", "--relations", "identical", str(shared_data / "task3-run"), str(shared_data / "user-queries")]
    )
    assert result.exit_code == 0, result.output
    assert result.stdout == ""
