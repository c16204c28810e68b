"""``aifcheck score ta2`` as users run it: the installed command on the fixtures of
tests/score/fixtures/ta2 (its files, stdout, stderr and exit status)."""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from ta2_common import AUX, FILES, FIXTURES, aifcheck, by_query_sorted, need_aux  # noqa: F401 (a fixture)


def score(case: str, out: Path, *options: str) -> subprocess.CompletedProcess:
    root = FIXTURES / case
    return aifcheck("score", "ta2", root / "runW", "--queries-to-score", root / "queries_to_score.tab",
                    "--assessments", root / "LDC", "--aux", AUX, "-o", out, *options)


def test_w1_writes_nist_s_files_and_prints_a_summary(tmp_path: Path) -> None:
    done = score("W1", tmp_path / "out")
    assert done.returncode == 0, done.stderr
    for name in FILES:
        assert (tmp_path / "out" / "scores" / name).read_text(encoding="utf-8") == (FIXTURES / "W1" / "nist" / name).read_text(encoding="utf-8")
    assert sorted(p.name for p in (tmp_path / "out").rglob("*")) == sorted(["scores", *FILES])
    assert done.stdout.splitlines() == [
        "QueryID Entity Class RelCntd     AP Cluster",
        "W1Q1    EW1    Q1          3 0.6667 cluster-1",
        "W1Q1    EW1    Q2          3 0.6667 cluster-2",
        "ALL-Macro (NIST: the mean AP of the rows with RelCntd > 0): 0.6667",
    ]
    assert done.stderr.startswith("aifcheck: note: Q1: ") and "Traceback" not in done.stderr


def test_flags_and_warnings(tmp_path: Path) -> None:
    done = score("W6", tmp_path / "out", "-C", "-N", "-W")
    assert done.returncode == 0
    for name in FILES:
        expected = (FIXTURES / "W6" / "nist-C-N-W" / name).read_text(encoding="utf-8")
        assert by_query_sorted((tmp_path / "out" / "scores" / name).read_text(encoding="utf-8")) == by_query_sorted(expected)
    assert "1.1375" in done.stdout and "aifcheck: warning: Q9: --weighted --normalize" in done.stderr
    w7 = score("W7", tmp_path / "w7")
    assert w7.returncode == 0 and w7.stderr.count("aifcheck: warning: Q4:") == 2


def test_json_for_other_tools(tmp_path: Path) -> None:
    done = score("W8a", tmp_path / "out", "--format", "json", "--run-id", "R9")
    document = json.loads(done.stdout)
    assert done.returncode == 0 and document["mode"] == "nist" and document["run_id"] == "R9"
    assert round(document["map"], 4) == 0.6667 and document["queries"]["W8Q2"] == {"entity_id": "EW8", "pseudo_queries": []}
    first = document["queries"]["W1Q1"]["pseudo_queries"][0]
    assert (first["class"], first["cluster"], round(first["ap"], 4), first["counts"]["submitted"]) == ("Q1", "cluster-1", 0.6667, 4)
    assert (tmp_path / "out" / "scores" / FILES[0]).read_text(encoding="utf-8").split("\n")[1].split("\t")[1] == "R9"


def test_plan_json(tmp_path: Path) -> None:
    done = score("W2", tmp_path / "out", "--plan", "--format", "json")
    document = json.loads(done.stdout)
    assert done.returncode == 0 and document["mode"] == "plan" and document["map"] == 0.5
    assert document["queries"]["W2Q3"]["pseudo_queries"] == []
    assert [(p["class"], p["cluster"], round(p["ap"], 4)) for p in document["queries"]["W2Q2"]["pseudo_queries"]] == [("Q2001", "cluster-A", 0.3333)]
    assert "MAP" in score("W2", tmp_path / "text", "--plan").stdout


def test_exit_1_when_rows_were_dropped_or_invalid(tmp_path: Path) -> None:
    done = score("validation", tmp_path / "out")
    assert done.returncode == 1 and (tmp_path / "out" / "scores" / FILES[0]).is_file()
    assert "aifcheck: note: 2 invalid row(s)" in done.stderr


@pytest.mark.parametrize(("case", "message"), [
    ("unknown_label", "kit1.tab:8: unknown assessment label 'maybe'"),
    ("duplicate_conflict", "kit2.tab:1: query W1Q1"),
    ("short_row", "W1Q1.rq.tsv:8: 3 tab-separated fields, 7 expected"),
    ("bad_clusters", "queries_to_score.tab:2: clusters 'two' is not an integer"),
])
def test_input_that_cannot_be_scored_exits_3_with_one_line_and_no_output(case: str, message: str, tmp_path: Path) -> None:
    done = score(case, tmp_path / "out")
    assert done.returncode == 3 and message in done.stderr and done.stderr.count("\n") == 1, done.stderr
    assert not (tmp_path / "out").exists() and list(tmp_path.iterdir()) == []


def test_an_output_folder_that_is_not_empty_needs_force(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "old.txt").write_text("old", encoding="utf-8")
    refused = score("W1", out)
    assert refused.returncode == 2 and "exists and is not empty" in refused.stderr and (out / "old.txt").exists()
    replaced = score("W1", out, "--force")
    assert replaced.returncode == 0 and not (out / "old.txt").exists() and (out / "scores" / FILES[1]).is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]  # no temporary folder left beside


def test_force_never_deletes_an_input(tmp_path: Path) -> None:
    case = tmp_path / "W1"
    shutil.copytree(FIXTURES / "W1", case)
    done = aifcheck("score", "ta2", case / "runW", "--queries-to-score", case / "queries_to_score.tab",
                    "--assessments", case / "LDC", "--aux", AUX, "-o", case, "--force")
    assert done.returncode == 2 and "which the output would replace" in done.stderr and (case / "runW").is_dir()


def test_usage_errors(tmp_path: Path) -> None:
    (tmp_path / "kb").mkdir()
    (tmp_path / "kb" / "task2_kb.ttl").write_text("", encoding="utf-8")
    root = FIXTURES / "W1"
    done = aifcheck("score", "ta2", tmp_path / "kb", "--queries-to-score", root / "queries_to_score.tab",
                    "--assessments", root / "LDC", "--aux", AUX, "-o", tmp_path / "out")
    assert done.returncode == 2 and "TA2 query stage" in done.stderr and done.stderr.count("\n") == 1
    mixed = score("W1", tmp_path / "out", "--plan", "-W")
    assert mixed.returncode == 2 and "--plan" in mixed.stderr
    no_aux = aifcheck("score", "ta2", root / "runW", "--queries-to-score", root / "queries_to_score.tab",
                      "--assessments", root / "LDC", "--aux", tmp_path / "none", "-o", tmp_path / "out")
    assert no_aux.returncode == 2 and "--aux" in no_aux.stderr
    assert aifcheck("score", "ta2", "-h").returncode == 0
