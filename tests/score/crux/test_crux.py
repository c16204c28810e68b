"""CRUX 2023 scorers: Task 1 claim frames (aifcheck.score.crux.claims) and Task 2 relations
(aifcheck.score.crux.relations), through their functions and the ``aifcheck score crux-*``
commands.

Expected values are the hand-computed cases of research/ta3-crux-scoring.md §4 (C1-C9 and the
Task 2 example), and hand computations written out below for the readings of §3.4.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import ROOT, TEST_DATA
from typer.testing import CliRunner

from aifcheck.cli import application
from aifcheck.errors import InputError
from aifcheck.score.crux.claims import COLUMNS, FIELDS, PRF, score_claims
from aifcheck.score.crux.relations import score_relations

app = application()

FIXTURES = Path(__file__).parents[1] / "fixtures" / "crux"
BASE = dict(
    zip(
        COLUMNS,
        (
            "D1",
            "c1",
            "Curing the Virus",
            "X cures COVID-19",
            "lemon slices in hot water",
            "Jiao Shenme Minzi",
            "true-certain",
            "Mayo Clinic",
            "neutral-unknown",
            "on xxxx-04-04Txx:xx:xx",
            "Loudoun County",
            "CNN",
        ),
        strict=True,
    )
)


def _line(**changes: str) -> str:
    return "\t".join({**BASE, **changes}[c] for c in COLUMNS)


def _write(path: Path, lines: list[str]) -> Path:
    path.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    return path


def _claims(tmp_path: Path, system: list[str], gold: list[str]):
    return score_claims(_write(tmp_path / "system.tab", system), _write(tmp_path / "gold.tab", gold))


def _counts(scores) -> tuple[int, int, int]:
    return scores.true_positives, scores.false_positives, scores.false_negatives


# --- Task 1: research document §4, C1-C9 ----------------------------------------------------

CASES = {  # system lines, gold lines, (TP, FP, FN), (P, R, F1), accuracy
    "C1 identical": ([_line()], [_line()], (1, 0, 0), (1, 1, 1), 1.0),
    "C2 X differs": ([_line(x_variable="ginger")], [_line()], (0, 1, 1), (0, 0, 0), 0.0),
    "C3 epistemic and sentiment differ": (
        [_line(epistemic_status="false-certain", sentiment_status="negative")],
        [_line()],
        (1, 0, 0),
        (1, 1, 1),
        0.82,
    ),
    "C4 system lists the gold claim twice": (
        [_line(), _line(claim_id="c2")],
        [_line()],
        (1, 1, 0),
        (0.5, 1, 0.6667),
        1.0,
    ),
    "C5 the best matching, not the greedy one": (
        [_line(claimer="C2"), _line(claim_id="c2", epistemic_status="false-certain")],
        [_line(), _line(claim_id="c2", claimer="C2", epistemic_status="false-certain")],
        (2, 0, 0),
        (1, 1, 1),
        0.84,
    ),
    "C6 another document": ([_line(root_uid="D2")], [_line()], (0, 1, 1), (0, 0, 0), 0.0),
    "C7 empty system": ([], [_line()], (0, 0, 1), (0, 0, 0), 0.0),
    "C7 empty both": ([], [], (0, 0, 0), (0, 0, 0), 0.0),
    "C8 EMPTY_NA on both sides": (
        [_line(claim_location="EMPTY_NA")],
        [_line(claim_location="EMPTY_NA")],
        (1, 0, 0),
        (1, 1, 1),
        1.0,
    ),
    "C8 a location against EMPTY_NA": ([_line()], [_line(claim_location="EMPTY_NA")], (1, 0, 0), (1, 1, 1), 0.99),
}


@pytest.mark.parametrize("name", CASES)
def test_claim_cases(name: str, tmp_path: Path) -> None:
    system, gold, counts, prf, accuracy = CASES[name]
    scores = _claims(tmp_path, system, gold)
    assert _counts(scores) == counts
    assert (scores.precision, scores.recall, round(scores.f1, 4)) == prf
    assert scores.accuracy == pytest.approx(accuracy)


def test_c9_per_field_values_are_document_value_pairs(tmp_path: Path) -> None:
    gold = [
        _line(claimer="C1"),
        _line(claim_id="c2", claimer="C1", x_variable="x2"),
        _line(claim_id="c3", claimer="C2"),
    ]
    system = [_line(claimer="C1"), _line(claim_id="c2", claimer="C3")]
    claimer = _claims(tmp_path, system, gold).fields["claimer"]
    assert (claimer.precision, claimer.recall, claimer.f1) == (0.5, 0.5, 0.5)


def test_every_field_is_scored(tmp_path: Path) -> None:
    scores = _claims(tmp_path, [_line(claimer_affiliation="Mayo Clinic;WHO")], [_line()])
    assert list(scores.fields) == list(FIELDS)
    affiliation = scores.fields["claimer_affiliation"]  # system {Mayo Clinic, WHO}, gold {Mayo Clinic}
    assert (affiliation.precision, affiliation.recall) == (0.5, 1.0)


def test_documents_are_scored_one_by_one(tmp_path: Path) -> None:
    scores = _claims(tmp_path, [_line(), _line(root_uid="D2")], [_line(), _line(root_uid="D3", claim_id="c3")])
    rows = {d.root_uid: (d.true_positives, d.false_positives, d.false_negatives) for d in scores.documents}
    assert rows == {"D1": (1, 0, 0), "D2": (0, 1, 0), "D3": (0, 0, 1)}


# --- Task 1: readings of §3.4 ---------------------------------------------------------------


def test_a2_names_compare_case_folded_with_spaces_collapsed(tmp_path: Path) -> None:
    scores = _claims(
        tmp_path,
        [_line(x_variable="Lemon  Slices in HOT water", claimer=" jiao shenme minzi")],
        [_line(x_variable="lemon slices in hot water")],
    )
    assert scores.accuracy == 1.0


def test_a2_identities_win_when_both_files_have_them(tmp_path: Path) -> None:
    header = "\t".join([*COLUMNS, "qnode_x_variable_identity", "description"])
    gold = [header, f"{_line(x_variable='Vitamin C')}\tNILQE30318\tgold"]
    # same identity, another name: a match; another identity, the same name: none
    system = [
        header,
        f"{_line(x_variable='ascorbic acid')}\tNILQE30318\tx",
        f"{_line(claim_id='c2', x_variable='Vitamin C')}\tNILQE30319\ty",
    ]
    assert _counts(_claims(tmp_path, system, gold)) == (1, 1, 0)
    # a 12-column system has no identities: names are compared
    assert _counts(_claims(tmp_path, [_line(x_variable="Vitamin C")], gold)) == (1, 0, 0)


def test_a3_unknown_date_is_empty(tmp_path: Path) -> None:
    scores = _claims(
        tmp_path, [_line(claim_datetime="unknown xxxx-xx-xxTxx:xx:xx")], [_line(claim_datetime="EMPTY_NA")]
    )
    assert scores.accuracy == 1.0
    # EMPTY_NA is no value: empty against empty agrees (A9)
    assert scores.fields["claim_datetime"] == PRF(1.0, 1.0, 1.0)


def test_a5_dates_match_exactly(tmp_path: Path) -> None:
    scores = _claims(tmp_path, [_line(claim_datetime="on 2020-04-04Txx:xx:xx")], [_line()])
    assert scores.accuracy == 0.98


def test_a10_affiliation_sets(tmp_path: Path) -> None:
    same = _claims(
        tmp_path, [_line(claimer_affiliation="WHO; Mayo Clinic")], [_line(claimer_affiliation="Mayo Clinic;WHO")]
    )
    assert same.accuracy == 1.0
    fewer = _claims(tmp_path, [_line()], [_line(claimer_affiliation="Mayo Clinic;WHO")])
    assert fewer.accuracy == 0.98
    # the plan names no separator: "," separates as ";" does (issue 42 §4)
    comma = _claims(
        tmp_path, [_line(claimer_affiliation="WHO, Mayo Clinic")], [_line(claimer_affiliation="Mayo Clinic;WHO")]
    )
    assert comma.accuracy == 1.0 and comma.fields["claimer_affiliation"] == PRF(1.0, 1.0, 1.0)


def test_a_table_scored_against_itself_scores_1_everywhere(tmp_path: Path) -> None:
    """Issue 42 §4, through the installed command: the example evaluation's run 1 against itself
    (no claim of it gives an affiliation, a location or a medium: a field empty on both sides agrees,
    A9, docs/scoring.md), but for one claim given two affiliations, joined by "," in one file and
    by ";" in the other."""
    lines = (ROOT / "example-evaluation" / "crux" / "run1" / "claims.tab").read_text(encoding="utf-8").splitlines()
    tables = {}
    for name, joined in (
        ("system", "Port Alder Health Office, Alder General Hospital"),
        ("gold", "Alder General Hospital;Port Alder Health Office"),
    ):
        cells = lines[0].split("\t")
        assert cells[7] == "EMPTY_NA"
        cells[7] = joined
        tables[name] = tmp_path / f"{name}.tab"
        tables[name].write_text("\n".join(["\t".join(cells), *lines[1:]]) + "\n", encoding="utf-8")
    command = ["score", "crux-claims", tables["system"], "--gold", tables["gold"], "--format", "json"]
    done = subprocess.run(
        [sys.executable, "-m", "aifcheck", *map(str, command)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    scores = json.loads(done.stdout)
    assert (scores["precision"], scores["recall"], scores["f1"], scores["accuracy"]) == (1.0, 1.0, 1.0, 1.0)
    fields = {name: (f["precision"], f["recall"], f["f1"]) for name, f in scores["fields"].items()}
    assert fields == dict.fromkeys(FIELDS, (1.0, 1.0, 1.0))


# --- Task 1: format errors ------------------------------------------------------------------

TASK1_ERRORS = {
    "wrong column count": ("system", _line().rsplit("\t", 1)[0], "11 columns, expected 12"),
    "unknown epistemic value": ("system", _line(epistemic_status="certain"), "unknown epistemic_status 'certain'"),
    "unknown sentiment value": ("system", _line(sentiment_status="happy"), "unknown sentiment_status 'happy'"),
    "malformed date": ("system", _line(claim_datetime="on 2020-04-04"), "claim_datetime 'on 2020-04-04'"),
    "impossible date": ("gold", _line(claim_datetime="before 2020-13-01Txx:xx:xx"), "'13' is out of range"),
    "empty cell": ("gold", _line(claim_medium=""), "claim_medium is empty"),
}


@pytest.mark.parametrize("name", TASK1_ERRORS)
def test_task1_format_errors(name: str, tmp_path: Path) -> None:
    side, bad, words = TASK1_ERRORS[name]
    lines = {"system": [_line()], "gold": [_line()]}
    lines[side].append(bad)
    with pytest.raises(InputError) as caught:
        _claims(tmp_path, lines["system"], lines["gold"])
    assert (Path(caught.value.path).name, caught.value.line) == (f"{side}.tab", 2)
    assert words in caught.value.message


def test_a14_gold_claim_id_repeated(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="gold claim ID c1 is repeated \\(first at line 1\\)") as caught:
        _claims(tmp_path, [_line()], [_line(), _line(x_variable="ginger")])
    assert caught.value.line == 2
    _claims(tmp_path, [_line(), _line()], [_line()])  # a system may repeat an ID (A11)


# --- Task 2 ---------------------------------------------------------------------------------


def _relations(tmp_path: Path, system: list[str], gold: list[str]):
    return score_relations(_write(tmp_path / "system.tab", system), _write(tmp_path / "gold.tab", gold))


GOLD = ["a\tsupport\tb", "a\trefute\tc", "b\trelated\tc", "c\tidentical\td", "a\trelated\td"]
SYSTEM = ["a\tsupport\tb", "c\trefute\ta", "b\tsupport\tc", "c\tidentical\td"]


def test_task2_example(tmp_path: Path) -> None:
    scores = _relations(tmp_path, SYSTEM, GOLD)
    f1 = {c.label: round(c.f1, 4) for c in scores.classes}
    assert f1 == {"identical": 1.0, "support": 0.6667, "refute": 1.0, "related": 0.0}
    assert round(scores.macro_f1, 4) == 0.6667
    assert scores.accuracy == 0.6
    assert (scores.instances, scores.unscored) == (5, 0)
    assert scores.confusion["related"] == {"support": 1, "none": 1}


def test_task2_direction_matters_for_support(tmp_path: Path) -> None:
    scores = _relations(tmp_path, ["b\tsupport\ta"], ["a\tsupport\tb"])
    support = scores.classes[0]
    assert (support.true_positives, support.false_positives, support.false_negatives) == (0, 0, 1)
    assert scores.unscored == 1  # counted, not scored


def test_task2_ldc_vocabulary(tmp_path: Path) -> None:
    scores = _relations(tmp_path, ["a\tsupport\tb", "d\trefuted_by\tc"], ["b\tsupported_by\ta", "c\trefute\td"])
    assert scores.macro_f1 == 1.0 and scores.accuracy == 1.0


def test_task2_macro_over_the_classes_present(tmp_path: Path) -> None:
    gold = [g for g in GOLD if "identical" not in g]
    system = [s for s in SYSTEM if "identical" not in s]
    scores = _relations(tmp_path, system, gold)
    assert [c.label for c in scores.classes] == ["support", "refute", "related"]
    assert scores.macro_f1 == pytest.approx((2 / 3 + 1 + 0) / 3)


def test_task2_header_named_gold_and_duplicates(tmp_path: Path) -> None:
    # the second row gives the pair (b, a) again, as refute (b refutes a): the first row counts
    gold = [
        "claim_id_1\troot_uid_1\tclaim_id_2\troot_uid_2\trelation",
        "a\tD1\tb\tD2\tsupported_by",
        "a\tD1\tb\tD2\trefuted_by",
    ]
    scores = _relations(tmp_path, ["b\tsupport\ta"], gold)
    assert scores.accuracy == 1.0
    assert (
        len(scores.warnings) == 1
        and "gold.tab:3" in scores.warnings[0]
        and "the first row counts" in scores.warnings[0]
    )


TASK2_ERRORS = {
    "wrong column count": ("a\tsupport", "2 columns, expected 3"),
    "unknown label": ("a\tsupports\tb", "unknown relation 'supports'"),
    "empty claim ID": ("a\trelated\t ", "a claim ID is empty"),
}


@pytest.mark.parametrize("name", TASK2_ERRORS)
def test_task2_format_errors(name: str, tmp_path: Path) -> None:
    bad, words = TASK2_ERRORS[name]
    with pytest.raises(InputError) as caught:
        _relations(tmp_path, ["a\tsupport\tb", bad], GOLD)
    assert (Path(caught.value.path).name, caught.value.line) == ("system.tab", 2)
    assert words in caught.value.message


# --- the commands ---------------------------------------------------------------------------


def _invoke(*args: str | Path):
    return CliRunner().invoke(app, [str(a) for a in args])


def test_crux_claims_json_keys(tmp_path: Path) -> None:
    system, gold = (
        _write(tmp_path / "s.tab", CASES["C3 epistemic and sentiment differ"][0]),
        _write(tmp_path / "g.tab", [_line()]),
    )
    result = _invoke("score", "crux-claims", system, "--gold", gold, "--format", "json")
    assert result.exit_code == 0, result.output
    scores = json.loads(result.stdout)
    assert {"precision", "recall", "f1", "accuracy", "fields"} <= scores.keys()
    assert scores["accuracy"] == 0.82
    assert list(scores["fields"]) == list(FIELDS)
    assert scores["fields"]["epistemic_status"] == {"precision": 0.0, "recall": 0.0, "f1": 0.0}


def test_crux_claims_rounds_to_four_decimals(tmp_path: Path) -> None:
    system, gold = (
        _write(tmp_path / "s.tab", [_line(), _line(claim_id="c2"), _line(claim_id="c3")]),
        _write(tmp_path / "g.tab", [_line()]),
    )
    scores = json.loads(_invoke("score", "crux-claims", system, "--gold", gold, "--format", "json").stdout)
    assert (scores["precision"], scores["f1"]) == (0.3333, 0.5)


def test_crux_claims_text(tmp_path: Path) -> None:
    result = _invoke("score", "crux-claims", FIXTURES / "system.tab", "--gold", FIXTURES / "gold.tab")
    assert result.exit_code == 0, result.output
    documents, fields = result.stdout.split("\n\n")
    assert documents.splitlines()[0].split() == ["document", "TP", "FP", "FN", "precision", "recall", "F1", "accuracy"]
    # fixtures/crux/README.md: pairs of weight 0.98, 0.84 and 0.98; one frame added, one missed
    assert documents.splitlines()[-1].split() == ["ALL", "3", "1", "1", "0.7500", "0.7500", "0.7500", "0.9333"]
    assert [row.split()[0] for row in fields.splitlines()[1:]] == list(FIELDS)


def test_crux_relations_json_keys(tmp_path: Path) -> None:
    result = _invoke(
        "score",
        "crux-relations",
        _write(tmp_path / "s.tab", SYSTEM),
        "--gold",
        _write(tmp_path / "g.tab", GOLD),
        "--format",
        "json",
    )
    assert result.exit_code == 0, result.output
    scores = json.loads(result.stdout)
    assert scores["macro_f1"] == 0.6667
    assert list(scores["classes"]) == ["identical", "support", "refute", "related"]
    assert scores["classes"]["support"] == {"precision": 0.5, "recall": 1.0, "f1": 0.6667}


def test_crux_format_error_exits_3_with_one_line(tmp_path: Path) -> None:
    gold = _write(tmp_path / "g.tab", [_line(), _line(epistemic_status="maybe")])
    result = _invoke("score", "crux-claims", _write(tmp_path / "s.tab", [_line()]), "--gold", gold)
    assert result.exit_code == 3
    assert result.stderr.splitlines() == [
        f"aifcheck: error: {gold}:2: unknown epistemic_status 'maybe' "
        "(expected true-certain, true-uncertain, false-certain, false-uncertain, unknown)"
    ]


def test_claims_crux_output_is_a_system_file(tmp_path: Path) -> None:
    """`aifcheck claims --format crux` piped into `aifcheck score crux-claims`."""
    written = _invoke("claims", "--format", "crux", TEST_DATA / "submission" / "run")
    assert written.exit_code == 0, written.output
    system = tmp_path / "system.tab"
    system.write_text(written.stdout, encoding="utf-8")
    result = _invoke("score", "crux-claims", system, "--gold", system, "--format", "json")
    assert result.exit_code == 0, result.output
    scores = json.loads(result.stdout)
    assert (scores["true_positives"], scores["f1"], scores["accuracy"]) == (3, 1.0, 1.0)


def test_real_claim_frames_are_a_system_file(shared_data: Path, tmp_path: Path) -> None:
    written = _invoke("claims", "--format", "crux", shared_data / "task3-run", shared_data / "user-queries")
    assert written.exit_code == 0, written.output
    system = _write(tmp_path / "system.tab", written.stdout.splitlines())
    unique = {line.split("\t")[1]: line for line in written.stdout.splitlines()}  # gold IDs are unique (A14)
    result = _invoke(
        "score",
        "crux-claims",
        system,
        "--gold",
        _write(tmp_path / "gold.tab", list(unique.values())),
        "--format",
        "json",
    )
    assert result.exit_code == 0, result.output
    scores = json.loads(result.stdout)
    assert scores["recall"] == 1.0
    # the system lists a claim again for each query folder it answers (A11: false positives)
    assert scores["false_positives"] == len(written.stdout.splitlines()) - len(unique)
