"""The ``claims`` and ``lint-submission`` commands, driven through typer's CliRunner on aifcheck's app."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from helpers import ROOT, TEST_DATA
from typer.testing import CliRunner, Result

from aifcheck.cli import application
from aifcheck.render.claims import TSV_COLUMNS

app = application()

SUBMISSION = TEST_DATA / "submission"
RUN = SUBMISSION / "run"
QUERIES = SUBMISSION / "queries"


def _run(*args: str | Path) -> Result:
    return CliRunner().invoke(app, [str(a) for a in args])


def _broken_copy(tmp_path: Path) -> tuple[Path, Path]:
    """A copy of the synthetic run whose first ranking file ties two ranks; returns (run, ranking)."""
    run = tmp_path / "run"
    shutil.copytree(RUN, run)
    ranking = run / "CLQRYA0001.000001" / "CLQRYA0001.000001.ranking.tsv"
    ranking.write_text(ranking.read_text(encoding="utf-8").replace("\t2\t", "\t1\t"), encoding="utf-8")
    return run, ranking


# --- claims ---------------------------------------------------------------------------------


def test_claims_tsv_by_default() -> None:
    result = _run("claims", RUN)
    assert result.exit_code == 0, result.output
    header, *rows = result.stdout.splitlines()
    assert header.split("\t") == list(TSV_COLUMNS)
    assert [row.split("\t")[1] for row in rows] == ["CLDOCA0001.000001", "CLDOCB0002.000001", "CLDOCC0003.000002"]


def test_claims_crux_has_twelve_fields_and_no_header() -> None:
    result = _run("claims", "--format", "crux", RUN / "CLQRYB0002.000001")
    assert result.exit_code == 0, result.output
    assert result.stdout == (
        "DOCC0003\tCLDOCC0003.000002\tOrigin of the Virus\tThe first case of COVID-19 occurred in location-X\t"
        "a seafood market\tthe spokesperson\tfalse-uncertain\tGovernment;Ministry of Health\tmixed\t"
        "after 2020-02-01Txx:xx:xx\tEMPTY_NA\tEMPTY_NA\n"
    )


def test_claims_json_to_a_file(tmp_path: Path) -> None:
    out = tmp_path / "claims.json"
    result = _run("claims", "--format", "json", "-o", out, SUBMISSION)
    assert result.exit_code == 0, result.output
    assert result.stdout == ""
    document = json.loads(out.read_text(encoding="utf-8"))
    assert len(document) == 5
    assert document[0]["claimer"]["name"] == "Dr. Vega"


def test_claims_unreadable_file_is_one_located_line_and_exit_3(tmp_path: Path) -> None:
    broken = tmp_path / "broken.ttl"
    broken.write_text("@prefix ex: <http://e/> .\nex:a ex:b ex:c ex:d .\n", encoding="utf-8")
    result = _run("claims", broken, RUN / "CLQRYB0002.000001", tmp_path / "missing.ttl")
    assert result.exit_code == 3
    missing, syntax = result.stderr.splitlines()  # problems with the arguments first, then the files read
    assert missing == f"{tmp_path / 'missing.ttl'}: no such file or directory"
    assert syntax.startswith(f"{broken}:2:16: syntax error: ")
    assert "Traceback" not in result.output
    assert [row.split("\t")[1] for row in result.stdout.splitlines()[1:]] == ["CLDOCC0003.000002"]  # still read


def test_claims_unknown_format_is_a_usage_error() -> None:
    result = _run("claims", "--format", "csv", RUN)
    assert result.exit_code == 2


# --- lint-submission ------------------------------------------------------------------------


def test_lint_submission_valid_run_exits_0() -> None:
    result = _run("lint-submission", RUN, "--condition", "5", "--queries", QUERIES, "--complete")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[-1].startswith("5 files: 5 valid, 0 invalid, 0 unreadable; 0 errors, 0 warnings")


def test_lint_submission_text_line_is_located_and_tagged(tmp_path: Path) -> None:
    run, ranking = _broken_copy(tmp_path)
    result = _run("lint-submission", run, "--condition", "5", "--queries", QUERIES)
    assert result.exit_code == 1
    (line,) = [line for line in result.stdout.splitlines() if " S3 " in line]
    assert line.startswith(f"{ranking}:2: S3 error CLDOCB0002.000001: claim frame CLDOCB0002.000001 has rank 1")
    assert line.endswith("(plan §6.2.1-6.2.3 ranking file)")


@pytest.mark.parametrize("fmt", ["json", "sarif", "github"])
def test_lint_submission_formats(tmp_path: Path, fmt: str) -> None:
    run, ranking = _broken_copy(tmp_path)
    result = _run("lint-submission", run, "--condition", "5", "--format", fmt)
    assert result.exit_code == 1
    if fmt == "json":
        document = json.loads(result.stdout)
        assert document["profile"] == "submission"
        (finding,) = [v for f in document["files"] for v in f["violations"]]
        assert (finding["rule_id"], finding["file"], finding["line"]) == ("S3", str(ranking), 2)
    elif fmt == "sarif":
        (result_,) = json.loads(result.stdout)["runs"][0]["results"]
        assert result_["ruleId"] == "S3"
        assert result_["locations"][0]["physicalLocation"]["region"] == {"startLine": 2}
    else:
        assert f"::error file={ranking},line=2,title=S3 error::" in result.stdout


@pytest.mark.parametrize(
    "args",
    [
        pytest.param(["--condition", "4"], id="condition"),
        pytest.param(["--condition", "6", "--queries", QUERIES], id="queries-for-6"),
    ],
)
def test_lint_submission_usage_errors_exit_2(args: list) -> None:
    result = _run("lint-submission", RUN, *args)
    assert result.exit_code == 2
    assert result.stderr.startswith("aifcheck: error: ")
    assert "Traceback" not in result.output


def test_lint_submission_format_is_a_choice() -> None:
    result = CliRunner().invoke(
        app, ["lint-submission", str(RUN), "--condition", "5", "--format", "xml"], env={"COLUMNS": "200"}
    )
    assert result.exit_code == 2 and "'xml' is not one of 'text', 'json', 'sarif', 'github'" in result.output


def test_lint_submission_bad_input_is_reported_not_raised(tmp_path: Path) -> None:
    run = tmp_path / "run"
    shutil.copytree(RUN, run)
    frame = run / "CLQRYB0002.000001" / "CLDOCC0003.000002.ttl"
    frame.write_bytes(b"\xff\xfe not turtle")
    ranking = run / "CLQRYA0001.000001" / "CLQRYA0001.000001.ranking.tsv"
    ranking.write_bytes(b"")
    result = _run("lint-submission", run, "--condition", "5")
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert f"{frame}:1:1: not UTF-8 (byte 0xff); RDF files must be UTF-8" in lines
    assert any(line.startswith(f"{ranking}: S2 error") and "empty file" in line for line in lines)  # no line: no ":0"
    assert "Traceback" not in result.output


def test_lint_submission_nist_example(shared_data: Path) -> None:
    run = shared_data / "task3-run" / "Condition6"
    topics = shared_data / "user-queries" / "Condition6" / "topics.tsv"
    result = _run("lint-submission", run, "--condition", "6", "--topics", topics)
    assert result.exit_code == 0, result.output
    assert not re.search(r":\d+: S\d ", result.stdout), result.stdout


def test_claims_of_several_folders_are_one_row_per_claim_and_can_name_their_files(tmp_path: Path) -> None:
    # the same claim frame submitted in two condition folders is one claim
    for condition in ("Condition5", "Condition6"):
        shutil.copytree(RUN / "CLQRYA0001.000001", tmp_path / condition / "Q1")
    once = _run("claims", tmp_path / "Condition5", "--format", "crux").stdout.splitlines()
    both = _run("claims", tmp_path, "--format", "crux").stdout.splitlines()
    assert both == once and len(once) == len(list((tmp_path / "Condition5" / "Q1").glob("*.ttl")))
    named = _run("claims", tmp_path, "--format", "crux", "--with-source").stdout.splitlines()
    assert [row.split("\t")[:-1] for row in named] == [row.split("\t") for row in once]
    for row in named:
        files = row.split("\t")[-1].split(";")
        assert [Path(f).parent.parent.name for f in files] == ["Condition5", "Condition6"]


def test_claims_says_when_a_path_holds_no_claim() -> None:
    result = _run("claims", RUN, ROOT / "examples" / "valid")
    assert result.exit_code == 0 and result.stdout.count("\n") > 1
    assert result.stderr == (
        f"aifcheck: warning: {ROOT / 'examples' / 'valid'}: holds no claim"
        " (no aida:Claim with the fields NIST's tables read)\n"
    )
