"""``aifcheck score ta2`` as users run it: the installed command on the fixtures of
tests/score/fixtures/ta2 (its files, stdout, stderr and exit status)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from helpers import SHARED_DATA, TEST_DATA
from ta2_common import AUX, FILES, FIXTURES, aifcheck, by_query_sorted, need_aux  # noqa: F401 (a fixture)


def score(case: str, out: Path, *options: str, run: Path | None = None, aux: Path = AUX) -> subprocess.CompletedProcess:
    """score ta2 on a case of the fixtures; ``run``: another run than the case's, ``aux``: other AUX data."""
    root = FIXTURES / case
    return aifcheck(
        "score",
        "ta2",
        run or root / "runW",
        "--queries-to-score",
        root / "queries_to_score.tab",
        "--assessments",
        root / "LDC",
        "--aux",
        aux,
        "-o",
        out,
        *options,
    )


def test_w1_writes_nist_s_files_and_prints_a_summary(tmp_path: Path) -> None:
    done = score("W1", tmp_path / "out")
    assert done.returncode == 0, done.stderr
    for name in FILES:
        assert (tmp_path / "out" / "scores" / name).read_text(encoding="utf-8") == (
            FIXTURES / "W1" / "nist" / name
        ).read_text(encoding="utf-8")
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
        assert by_query_sorted((tmp_path / "out" / "scores" / name).read_text(encoding="utf-8")) == by_query_sorted(
            expected
        )
    assert "1.1375" in done.stdout and "aifcheck: warning: Q9: --weighted --normalize" in done.stderr
    w7 = score("W7", tmp_path / "w7")
    assert w7.returncode == 0 and w7.stderr.count("aifcheck: warning: Q4:") == 2


def test_json_for_other_tools(tmp_path: Path) -> None:
    done = score("W8a", tmp_path / "out", "--format", "json", "--run-id", "R9")
    document = json.loads(done.stdout)
    assert done.returncode == 0 and document["mode"] == "nist" and document["run_id"] == "R9"
    assert round(document["map"], 4) == 0.6667 and document["queries"]["W8Q2"] == {
        "entity_id": "EW8",
        "pseudo_queries": [],
    }
    first = document["queries"]["W1Q1"]["pseudo_queries"][0]
    assert (first["class"], first["cluster"], round(first["ap"], 4), first["counts"]["submitted"]) == (
        "Q1",
        "cluster-1",
        0.6667,
        4,
    )
    assert (tmp_path / "out" / "scores" / FILES[0]).read_text(encoding="utf-8").split("\n")[1].split("\t")[1] == "R9"


def test_plan_json(tmp_path: Path) -> None:
    done = score("W2", tmp_path / "out", "--plan", "--format", "json")
    document = json.loads(done.stdout)
    assert done.returncode == 0 and document["mode"] == "plan" and document["map"] == 0.5
    assert document["queries"]["W2Q3"]["pseudo_queries"] == []
    assert [(p["class"], p["cluster"], round(p["ap"], 4)) for p in document["queries"]["W2Q2"]["pseudo_queries"]] == [
        ("Q2001", "cluster-A", 0.3333)
    ]
    assert "MAP" in score("W2", tmp_path / "text", "--plan").stdout


def test_exit_1_when_rows_were_dropped_or_invalid(tmp_path: Path) -> None:
    done = score("validation", tmp_path / "out")
    assert done.returncode == 1 and (tmp_path / "out" / "scores" / FILES[0]).is_file()
    assert "aifcheck: note: 2 invalid row(s)" in done.stderr


@pytest.mark.parametrize(
    ("case", "message"),
    [
        ("unknown_label", "kit1.tab:8: unknown assessment label 'maybe'"),
        ("duplicate_conflict", "kit2.tab:1: query W1Q1"),
        ("short_row", "W1Q1.rq.tsv:8: 3 tab-separated fields, 7 expected"),
        ("bad_clusters", "queries_to_score.tab:2: clusters 'two' is not an integer"),
    ],
)
def test_input_that_cannot_be_scored_exits_3_with_one_line_and_no_output(
    case: str, message: str, tmp_path: Path
) -> None:
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
    done = aifcheck(
        "score",
        "ta2",
        case / "runW",
        "--queries-to-score",
        case / "queries_to_score.tab",
        "--assessments",
        case / "LDC",
        "--aux",
        AUX,
        "-o",
        case,
        "--force",
    )
    assert done.returncode == 2 and "which the output would replace" in done.stderr and (case / "runW").is_dir()


# test_pipeline_ta2's perturbed real KB: its validate stage corrects two spans, replaces a
# confidence and drops a row of an unknown document; judged for two of its queries
KB_QUERIES = (
    "query_id\tentity_id\tentrypoint_type\tentrypoint\tclusters\tdocuments\n"
    "AIDA_P3_TA2_E0003\tE3\tkbid\tQ2|Q84263196\t2\t10\nAIDA_P3_TA2_E0004\tE4\tname\tNobody\t1\t10\n"
    "AIDA_P3_TA2_P0002\tE5\tname\tCOVID-19\t2\t3\n"
)
KB_JUDGED = (
    ("TEXT", "L0C04936H", "L0C04959A:(1257,0)-(1264,0)", "CORRECT", "Q84263196"),
    ("IMAGE", "L0C04936H", "L0C0492VF:(10,10)-(438,100)", "INCORRECT", "NIL"),
    ("TEXT", "L0C04936H", "L0C04959A:(3440,0)-(3446,0)", "CORRECT", "Q2"),
    ("TEXT", "L0C0499MZ", "L0C049DRM:(2888,0)-(2895,0)", "INEXACT", "Q84263196"),
    ("TEXT", "L0C0499MZ", "L0C049DRM:(10,0)-(20,0)", "CORRECT", "Q2"),
)


@pytest.mark.parametrize("options", [(), ("-C", "-N", "-W"), ("--plan",)], ids=["nist", "C-N-W", "plan"])
def test_a_run_given_as_its_kb_scores_as_the_pipeline_then_the_scorer(options: tuple[str, ...], tmp_path: Path) -> None:
    real_kb = SHARED_DATA / "task2-run" / "task2_kb.ttl"
    if not real_kb.is_file():
        pytest.skip(f"NIST's TA2 example KB is not at {real_kb}")
    run = tmp_path / "run"
    run.mkdir()
    extra = (TEST_DATA / "ta2-real-extra.ttl").read_text(encoding="utf-8")
    (run / "task2_kb.ttl").write_text(real_kb.read_text(encoding="utf-8") + extra, encoding="utf-8")
    queries = tmp_path / "queries.tab"
    queries.write_text(KB_QUERIES, encoding="utf-8")
    (tmp_path / "LDC" / "data" / "TA2").mkdir(parents=True)
    lines = [
        f"{query}\t{entry}\t{number}\t{source}\t{document}\t{span}\t{label}\tNAM\t{fqec}"
        for number, (query, entry, (source, document, span, label, fqec)) in enumerate(
            (
                (q, e, judged)
                for q, e in (("AIDA_P3_TA2_E0003", "Q2|Q84263196"), ("AIDA_P3_TA2_P0002", "COVID-19"))
                for judged in KB_JUDGED
            ),
            1,
        )
    ]
    (tmp_path / "LDC" / "data" / "TA2" / "kit1.tab").write_text("\n".join(lines) + "\n", encoding="utf-8")
    stages = aifcheck("pipeline", "ta2", run, "--queries", queries, "--aux", AUX, "-o", tmp_path / "docker")
    assert stages.returncode == 1 and "had 1 error(s)" in stages.stdout, stages.stderr  # the unknown document's row
    inputs = ("--queries-to-score", queries, "--assessments", tmp_path / "LDC", "--aux", AUX, "--run-id", "R", *options)
    two_steps = aifcheck("score", "ta2", tmp_path / "docker", *inputs, "-o", tmp_path / "two")
    one_step = aifcheck("score", "ta2", run, *inputs, "-o", tmp_path / "one")
    assert (one_step.returncode, one_step.stdout) == (two_steps.returncode, two_steps.stdout)
    # the one step also tells what the validate stage dropped (the two steps' pipeline logged it)
    told = [line for line in one_step.stderr.splitlines() if line not in two_steps.stderr.splitlines()]
    assert len(told) == 1 and "row(s) dropped or corrected by NIST's validate stage" in told[0], told
    assert (
        f"first: {run / 'task2_kb.ttl'}#SPARQL-CLEAN-output/AIDA_P3_TA2_E0003.rq.tsv:2: " in told[0]
        and "UNKNOWN_ITEM" in told[0]
    ), told
    assert len(one_step.stderr.splitlines()) == len(two_steps.stderr.splitlines()) + 1
    assert two_steps.returncode == 0 and "cluster-Q2" in two_steps.stdout, two_steps.stderr
    for name in FILES:
        assert (tmp_path / "one" / "scores" / name).read_bytes() == (tmp_path / "two" / "scores" / name).read_bytes()
    table = (tmp_path / "one" / "scores" / FILES[0]).read_text(encoding="utf-8")
    assert "cluster-Q2" in table and "cluster-NILE30181" in table
    assert sorted(p.name for p in run.iterdir()) == ["task2_kb.ttl"]  # nothing written beside the KB
    if options:
        return
    # the pooler too (P0002's rows name the entry point as a language-tagged literal, which it refuses)
    pooled = tmp_path / "pooled.tab"
    pooled.write_text("".join(KB_QUERIES.splitlines(keepends=True)[:3]), encoding="utf-8")
    pools = [
        aifcheck("pool", "ta2", source, "--queries-to-score", pooled, "--aux", AUX, "-o", tmp_path / f"pool-{n}")
        for n, source in enumerate((run, tmp_path / "docker"))
    ]
    assert [p.returncode for p in pools] == [0, 0], pools[0].stderr
    kb_pool, docker_pool = (
        sorted(p for p in (tmp_path / f"pool-{n}" / "task2_pool_batch1").rglob("*.tab")) for n in range(2)
    )
    assert [p.name for p in kb_pool] == [p.name for p in docker_pool] != []
    assert [p.read_bytes() for p in kb_pool] == [p.read_bytes() for p in docker_pool]
    assert (tmp_path / "pool-0" / "pool.txt").read_bytes() == (tmp_path / "pool-1" / "pool.txt").read_bytes()
    # the pooled files of the queries (the docker's folder also holds P0002's, which is copied empty)
    kb_files, docker_files = (
        {
            f.name: f.read_bytes()
            for f in (tmp_path / f"pool-{n}" / "runs" / name / "SPARQL-POOLED-BATCH1-output").iterdir()
        }
        for n, name in enumerate(("run", "docker"))
    )
    assert sorted(kb_files) == ["AIDA_P3_TA2_E0003.rq.tsv", "AIDA_P3_TA2_E0004.rq.tsv"]
    assert kb_files == {name: docker_files[name] for name in kb_files}


def test_usage_errors(tmp_path: Path) -> None:
    (tmp_path / "kb").mkdir()
    (tmp_path / "kb" / "task2_kb.ttl").write_text("", encoding="utf-8")
    empty = score("W1", tmp_path / "out", run=tmp_path / "kb")
    assert empty.returncode == 3 and "task2_kb.ttl: empty file" in empty.stderr and empty.stderr.count("\n") == 1
    mixed = score("W1", tmp_path / "out", "--plan", "-W")
    assert mixed.returncode == 2 and "--plan" in mixed.stderr
    no_aux = score("W1", tmp_path / "out", aux=tmp_path / "none")
    assert no_aux.returncode == 3 and "none: no such file or directory" in no_aux.stderr
    assert aifcheck("score", "ta2", "-h").returncode == 0
