"""Input the TA3 scorer cannot score: one line naming the file (and line), exit 2, no traceback;
and the ``aifcheck score ta3`` command itself (typer's CliRunner, and once the installed command).

Each broken input is a copy of a fixture (tests/score/fixtures/ta3) with one thing changed.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from aifcheck.cli import application
from aifcheck.errors import InputError
from aifcheck.score.ta3.scorer import METRICS, score_ta3

app = application()

FIXTURES = Path(__file__).parents[1] / "fixtures" / "ta3"


def _paths(root: Path) -> list[Path]:
    return [root / "RUN1", root / "queries_to_score.tab", root / "claim-mappings.tab", root / "LDC"]


def _command(root: Path, out: Path, *extra: str) -> list[str]:
    run, queries, mappings, package = _paths(root)
    return [
        "score",
        "ta3",
        str(run),
        "--queries-to-score",
        str(queries),
        "--claim-mappings",
        str(mappings),
        "--assessments",
        str(package),
        "-o",
        str(out),
        *extra,
    ]


def _copy(case: str, tmp_path: Path) -> Path:
    root = tmp_path / case
    shutil.copytree(FIXTURES / case, root, ignore=shutil.ignore_patterns("nist"))
    return root


def _edit(path: Path, change: Callable[[list[str]], list[str]]) -> None:
    path.write_text("\n".join(change(path.read_text(encoding="utf-8").split("\n"))), encoding="utf-8")


def _replace(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


T1_RANKING = "RUN1/Condition6/T100/T100.ranking.tsv"
T3_CLAIM_E = "LDC/data/TA3/system_claims/uidE-outer-claim.tab"

# (case, file to break, how, file named in the message, line named, words of the message)
BROKEN = {
    "NIL judgement (T12)": ("T12_nil", None, None, "uidC-outer-claim.tab", 10, "unknown correctness 'NIL'"),
    "two mappings for one claim (T12)": (
        "T1",
        "claim-mappings.tab",
        lambda lines: [*lines[:2], lines[1], *lines[2:]],
        "claim-mappings.tab",
        3,
        "a second row maps claim CL_A",
    ),
    "ranking tie (T13)": (
        "T1",
        T1_RANKING,
        lambda lines: [lines[0], lines[1].replace("\t2", "\t1"), *lines[2:]],
        "T100.ranking.tsv",
        2,
        "rank 1 is given to CL_C and to CL_A",
    ),
    "claim ranked twice": (
        "T1",
        T1_RANKING,
        lambda lines: [*lines[:2], lines[0].replace("\t1", "\t9"), *lines[2:]],
        "T100.ranking.tsv",
        3,
        "CL_A is ranked twice",
    ),
    "rank not a number": (
        "T1",
        T1_RANKING,
        lambda lines: [lines[0].replace("\t1", "\tfirst"), *lines[1:]],
        "T100.ranking.tsv",
        1,
        "rank 'first' of CL_A is not a number",
    ),
    "Condition 5 line without relation": (
        "T3",
        "RUN1/Condition5/Q1/Q1.ranking.tsv",
        lambda lines: [lines[0].rsplit("\t", 1)[0], *lines[1:]],
        "Q1.ranking.tsv",
        1,
        "3 columns, expected 4",
    ),
    "ranked claim frame missing": ("T1", None, None, "T100.ranking.tsv", 2, "CL_C is ranked but"),
    "unknown condition": (
        "T1",
        "queries_to_score.tab",
        lambda lines: [lines[0], lines[1].replace("Condition6", "Condition8"), *lines[2:]],
        "queries_to_score.tab",
        2,
        "unknown condition 'Condition8'",
    ),
    "missing pooling depth": (
        "T3",
        "queries_to_score.tab",
        lambda lines: [lines[0], lines[1].replace(",nonsupporting:30", ""), *lines[2:]],
        "queries_to_score.tab",
        2,
        "no pooling depth for nonsupporting",
    ),
    "malformed depth": (
        "T1",
        "queries_to_score.tab",
        lambda lines: [lines[0], lines[1].replace("ontopic:2", "ontopic=2"), *lines[2:]],
        "queries_to_score.tab",
        2,
        "'ontopic=2' is not <list>:<number>",
    ),
    "no query claim frame mapping": (
        "T3",
        "claim-mappings.tab",
        lambda lines: [lines[0], *lines[2:]],
        "claim-mappings.tab",
        None,
        "no row maps the query claim frame of Q1",
    ),
    "missing mapping column": (
        "T1",
        "claim-mappings.tab",
        lambda lines: [lines[0].replace("run_claim_id", "run_claim"), *lines[1:]],
        "claim-mappings.tab",
        1,
        "no column run_claim_id",
    ),
    "pool claim without outer claim": (
        "T3",
        None,
        None,
        "claim-mappings.tab",
        4,
        "pool claim uidE has no uidE-outer-claim.tab",
    ),
    "outer claim row too short": (
        "T3",
        T3_CLAIM_E,
        lambda lines: [*lines[:3], lines[3].rsplit("\t", 1)[0], *lines[4:]],
        "uidE-outer-claim.tab",
        4,
        "5 cells, the header has 6 columns",
    ),
    "component without its value row": (
        "T3",
        T3_CLAIM_E,
        lambda lines: [x for x in lines if "xVariable\t1\tec_similarity" not in x],
        "uidE-outer-claim.tab",
        6,
        "xVariable 1 has no 'ec_similarity' row",
    ),
    "malformed date range": (
        "T7",
        "LDC/data/TA3/system_claims/uidK-outer-claim.tab",
        lambda lines: [x.replace("(2020-03-01,2020-03-01)-(", "(2020-03-01)-(") for x in lines],
        "uidK-outer-claim.tab",
        7,
        "date range '(2020-03-01)-(2020-03-01,2020-03-01)'",
    ),
    "relations file missing": ("T3", None, None, "cross_claim_relations.tab", None, "no cross_claim_relations.tab"),
}


def _break(name: str, tmp_path: Path) -> Path:
    case, target, change, *_ = BROKEN[name]
    root = _copy(case, tmp_path)
    if change is not None:
        _edit(root / target, change)
    elif name == "ranked claim frame missing":
        (root / "RUN1/Condition6/T100/CL_C.ttl").unlink()
    elif name == "pool claim without outer claim":
        (root / T3_CLAIM_E).unlink()
    elif name == "relations file missing":
        (root / "LDC/data/TA3/cross_claim_relations.tab").unlink()
    return root


@pytest.mark.parametrize("name", BROKEN)
def test_broken_input_is_one_located_error(name: str, tmp_path: Path) -> None:
    *_, file_name, line, words = BROKEN[name]
    root = _break(name, tmp_path)
    with pytest.raises(InputError) as caught:
        score_ta3(*_paths(root))
    assert Path(caught.value.path).name == file_name
    assert caught.value.line == line
    assert words in caught.value.message


@pytest.mark.parametrize("name", ["NIL judgement (T12)", "two mappings for one claim (T12)", "ranking tie (T13)"])
def test_broken_input_exits_3_with_one_line(name: str, tmp_path: Path) -> None:
    # input that cannot be used is exit 3 in every command (README: Exit codes)
    root = _break(name, tmp_path)
    result = CliRunner().invoke(app, _command(root, tmp_path / "out"))
    assert result.exit_code == 3
    assert len(result.stderr.splitlines()) == 1
    assert result.stderr.startswith("aifcheck: error: ") and BROKEN[name][3] in result.stderr
    assert "Traceback" not in result.output
    assert not (tmp_path / "out").exists()


def test_blank_lines_are_skipped(tmp_path: Path) -> None:
    root = _copy("T3", tmp_path)
    for path in (root / "RUN1/Condition5/Q1/Q1.ranking.tsv", root / T3_CLAIM_E, root / "claim-mappings.tab"):
        _edit(path, lambda lines: [lines[0], "", *lines[1:], "  ", ""])
    assert score_ta3(*_paths(root)).metrics == score_ta3(*_paths(FIXTURES / "T3")).metrics


def test_not_a_run(tmp_path: Path) -> None:
    root = _copy("T1", tmp_path)
    shutil.rmtree(root / "RUN1" / "Condition6")
    with pytest.raises(InputError, match="no Condition5, Condition6 or Condition7 folder"):
        score_ta3(*_paths(root))


# --- the command ----------------------------------------------------------------------------


def test_command_writes_nist_files_and_prints_a_summary(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, _command(FIXTURES / "T3", tmp_path))
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (tmp_path / "scores").iterdir()) == sorted(
        f"{m}-scores.{s}" for m in METRICS for s in ("tab", "txt")
    )
    header, *rows = result.stdout.splitlines()
    assert header.split() == ["Condition", "ClaimRelation", *METRICS]
    summary = {tuple(r.split()[:2]): r.split()[2:] for r in rows}
    assert summary["Condition5", "nonsupporting"][0] == "0.9173"
    assert summary["Condition5", "related"][METRICS.index("F1ScorerV1B")] == "-"  # no query with truth (T5)
    assert (tmp_path / "scores" / "NDCGScorerV1-scores.tab").read_text(encoding="utf-8") == (
        FIXTURES / "T3" / "nist" / "NDCGScorerV1-scores.tab"
    ).read_text(encoding="utf-8")


def test_command_plan_mode(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, _command(FIXTURES / "T3", tmp_path, "--plan"))
    assert result.exit_code == 0, result.output
    nonrefuting = next(r for r in result.stdout.splitlines() if "nonrefuting" in r)
    assert nonrefuting.split()[2] == "0.9173"  # T6


def test_command_warnings_go_to_stderr(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, _command(FIXTURES / "dates", tmp_path))
    assert result.exit_code == 0
    assert all(line.startswith("aifcheck: warning: ") for line in result.stderr.splitlines())
    assert "NDCG 1.0038 > 1" in result.stderr


def test_installed_command(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "aifcheck", *_command(FIXTURES / "T1", tmp_path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "Condition6 ontopic" in done.stdout and "0.8934" in done.stdout
