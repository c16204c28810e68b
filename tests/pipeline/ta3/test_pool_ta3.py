"""``aifcheck pool ta3`` on NIST's example task3 run, and ``aifcheck score ta3`` on the pool it makes.

The runs pooled are the example run and, as NIST pools them, the Condition 5 query claim frames
as a run of their own (``query_claim_frames``), each through ``aifcheck pipeline ta3``. The expected
pools are digests (SHA-256 of every file's path and bytes) of what NIST's unmodified
``generate_pool.py task3`` wrote from NIST's own docker stages on the same runs, run offline; its
``runs_directory`` column holds the runs' folder as given, here ``runs``. The runs' SPARQL stage is the
tag's queries, so the pool's files hold the claims' KEs (and a claim's ID, the MD5 of its content,
covers them).
"""

from __future__ import annotations

import shutil
import subprocess
from functools import partial
from pathlib import Path

import pytest
from helpers import AUX_DATA as AUX
from helpers import NEEDS_TA3_RUN, installed, write_pool_runs
from helpers import USER_QUERIES as QUERIES
from tree_digest import digest

from aifcheck.errors import InputError
from aifcheck.pipeline.ta3.pool import pool_ta3
from aifcheck.render.ta3.pool import write_pool

pytestmark = NEEDS_TA3_RUN

NIST_POOL = "70db390fb017d4f7cdd94bc0ee024b34f780e3d193f5f6dc1661b62a004375e3"
NIST_POOL_AGAIN = (
    "f7fe0ed179bd9080f8bd1b7f826764c651d55eb3062efc947272ee5838b2a234"  # with the first as a previous pool
)
ALL = "ontopic:{0},supporting:{0},refuting:{0},related:{0},nonrefuting:{0},nonsupporting:{0}"
QUERIES_TO_SCORE = (
    "\n".join(
        [
            "query_id\tcondition\ttopic_id\tdepth",
            f"CLL0C04979A.000004\tCondition5\tT302\t{ALL.format(2)}",
            f"CLL0C04C08B.000004\tCondition5\tT302\t{ALL.format(1)}",
            "T301\tCondition6\tT301\tontopic:5",
            "T302\tCondition6\tT302\tontopic:1",
            "C303\tCondition7\tC303\tontopic:5",
        ]
    )
    + "\n"
)


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> Path:
    """A folder with runs/system, runs/query_claim_frames and queries.tab."""
    root = tmp_path_factory.mktemp("pool")
    write_pool_runs(root / "runs")
    (root / "queries.tab").write_text(QUERIES_TO_SCORE, encoding="utf-8")
    return root


def test_the_pool_is_nist_s(runs: Path, monkeypatch) -> None:
    monkeypatch.chdir(runs)
    pool = pool_ta3(["runs/system", "runs/query_claim_frames"], "queries.tab")
    write_pool(pool, runs / "pool")
    assert digest(runs / "pool") == NIST_POOL
    assert len(pool.claims) == 9 and len(pool.mappings) == 10  # one claim is in two queries with the same content
    mappings = (runs / "pool" / "claim-mappings.tab").read_text().splitlines()
    assert mappings[0].split("\t") == [
        *("pool_claim_uid", "condition", "query_id", "claim_relations", "rank", "run_claim_id", "run_id"),
        *("runs_directory", "in_previous_pools"),
    ]
    assert (
        "42ea55ec15f3fefb6bbe840eb370b726\tCondition5\tCLL0C04979A.000004\tontopic,related,nonrefuting,nonsupporting\t1\t"
        "CLL0C04AJNP.001755\tsystem\truns\tFalse" in mappings
    )
    assert (
        "that Wearing masks is required in location/GPE/facility-<Target store>"
        in (runs / "pool" / "human-readable-format.tab").read_text()
    )


def test_a_previous_pool_is_honoured(runs: Path, monkeypatch, tmp_path: Path) -> None:
    monkeypatch.chdir(runs)
    first = tmp_path / "first"
    write_pool(pool_ta3(["runs/system", "runs/query_claim_frames"], "queries.tab"), first)
    again = pool_ta3(["runs/system", "runs/query_claim_frames"], "queries.tab", [first])
    assert again.new == () and {m.in_previous_pools for m in again.mappings} == {"True"}
    write_pool(again, tmp_path / "again")
    assert digest(tmp_path / "again") == NIST_POOL_AGAIN


def _assess(pool: Path, package: Path) -> None:
    """LDC's judgements of every pool claim: all Correct, a component's similarity class its name;
    each Condition 5 claim related to its query."""
    claims = package / "data" / "TA3" / "system_claims"
    claims.mkdir(parents=True)
    for outer in (pool / "pool").glob("*-outer-claim.tab"):
        lines = outer.read_text(encoding="utf-8").split("\n")
        names = {tuple(c[1:3]): c[4] for c in (line.split("\t") for line in lines[1:]) if c[3] == "name"}
        judged = [lines[0]]
        for line in lines[1:]:
            cells = line.split("\t")
            cells[5] = (
                names.get((cells[1], cells[2]), "none")
                if cells[3] == "ec_similarity"
                else cells[5].replace("NIL", "Correct")
            )
            judged.append("\t".join(cells))
        (claims / outer.name).write_text("\n".join(judged), encoding="utf-8")
        for suffix in ("-raw-kes.tab", "-readable-kes.txt"):
            name = outer.name.replace("-outer-claim.tab", suffix)
            shutil.copy(pool / "pool" / name, claims / name)
    rows = ["query_claim_id\tsystem_claim_id\trelation"]
    for line in (pool / "claim-mappings.tab").read_text(encoding="utf-8").split("\n")[1:]:
        uid, condition, query, *_, run_id, _, _ = line.split("\t")
        if condition == "Condition5" and run_id != "query_claim_frames":
            rows.append(f"{query}\t{uid}\trelated")
    (package / "data" / "TA3" / "cross_claim_relations.tab").write_text("\n".join(rows) + "\n", encoding="utf-8")


aifcheck = partial(installed, timeout=600)


def test_the_installed_command_pools_as_the_api_does(runs: Path, tmp_path: Path) -> None:
    done = aifcheck(
        "pool",
        "ta3",
        "runs/system",
        "runs/query_claim_frames",
        "--queries-to-score",
        "queries.tab",
        "-o",
        tmp_path / "pool",
        cwd=runs,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("pooled 10 run claim(s) of 2 run(s) into 9 pool claim(s), 9 new")
    assert digest(tmp_path / "pool") == NIST_POOL
    failed = aifcheck(
        "pool", "ta3", "runs/system", "--queries-to-score", "missing.tab", "-o", tmp_path / "pool2", cwd=runs
    )
    assert (
        failed.returncode == 3
        and len(failed.stderr.splitlines()) == 1
        and "missing.tab: no such file or directory" in failed.stderr
    )


FRAMES = ("--user-queries", QUERIES, "--aux", AUX)


def pool_command(*runs: object, out: object, cwd: Path, options: tuple = ()) -> subprocess.CompletedProcess:
    return aifcheck("pool", "ta3", *runs, "--queries-to-score", "queries.tab", *options, "-o", out, cwd=cwd)


def score_command(run: object, pool: Path, assessments: Path, out: Path, cwd: Path) -> subprocess.CompletedProcess:
    return aifcheck(
        "score",
        "ta3",
        run,
        "--queries-to-score",
        "queries.tab",
        "--claim-mappings",
        pool / "claim-mappings.tab",
        "--assessments",
        assessments,
        "-o",
        out,
        cwd=cwd,
    )


def test_the_pool_makes_the_query_claim_frames_run_from_the_user_queries(runs: Path, tmp_path: Path) -> None:
    """``--user-queries --aux`` pools the Condition 5 query claim frames as run query_claim_frames:
    the pool is the one of the run made by hand above (whose digest is NIST's pool, made by NIST's
    generate_pool.py task3 from NIST's own stages), but for the runs_directory of that run's rows,
    the pool's own runs/ folder, where the run's stages are written."""
    done = pool_command("runs/system", out="made", cwd=runs, options=FRAMES)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert done.stdout.splitlines()[:2] == [
        "pooled 10 run claim(s) of 2 run(s) into 9 pool claim(s), 9 new",
        "the query claim frames' run (2 frame(s)): made/runs/query_claim_frames",
    ]
    by_hand = tmp_path / "by-hand"
    assert pool_command("runs/system", "runs/query_claim_frames", out=by_hand, cwd=runs).returncode == 0
    assert digest(by_hand) == NIST_POOL
    made = runs / "made"
    for name in ("human-readable-format.tab", *(f"pool/{p.name}" for p in (by_hand / "pool").iterdir())):
        assert (made / name).read_bytes() == (by_hand / name).read_bytes(), name
    expected = (
        (by_hand / "claim-mappings.tab")
        .read_text()
        .replace("\tquery_claim_frames\truns\t", "\tquery_claim_frames\tmade/runs\t")
    )
    assert (made / "claim-mappings.tab").read_text() == expected and "made/runs" in expected
    for stage in ("ARF-output", "SPARQL-VALID-output", "SPARQL-output"):
        ours, theirs = made / "runs" / "query_claim_frames" / stage, runs / "runs" / "query_claim_frames" / stage
        assert digest(ours) == digest(theirs), stage


def test_a_pool_without_the_query_claim_frames_says_so(runs: Path, tmp_path: Path) -> None:
    done = pool_command("runs/system", out=tmp_path / "p", cwd=runs)
    assert done.returncode == 0 and done.stderr.splitlines() == [
        "aifcheck: warning: the pool maps no query claim frame of 2 Condition 5 quer(ies) (CLL0C04979A.000004, "
        "CLL0C04C08B.000004): score ta3 needs them; give --user-queries and --aux to pool them as NIST did "
        "(run query_claim_frames)"
    ]
    alone = pool_command("runs/system", out=tmp_path / "q", cwd=runs, options=FRAMES[:2])
    assert alone.returncode == 2 and alone.stderr.splitlines() == [
        "aifcheck: error: --user-queries and --aux go together: the query claim frames go through NIST's TA3 stages"
    ]
    twice = pool_command("runs/system", "runs/query_claim_frames", out=tmp_path / "r", cwd=runs, options=FRAMES)
    assert twice.returncode == 2 and "a run is named query_claim_frames" in twice.stderr
    frames = tmp_path / "user-queries"
    shutil.copytree(QUERIES, frames)
    (frames / "Condition5" / "Query_Claim_Frames" / "CLL0C04C08B.000004.ttl").unlink()
    missing = pool_command("runs/system", out=tmp_path / "s", cwd=runs, options=("--user-queries", frames, *FRAMES[2:]))
    assert missing.returncode == 3 and missing.stderr.splitlines() == [
        f"aifcheck: error: {frames}/Condition5/Query_Claim_Frames/CLL0C04C08B.000004.ttl: missing: the query claim "
        "frame of Condition 5 query CLL0C04C08B.000004"
    ]
    assert not any((tmp_path / name).exists() for name in "qrs")


def test_score_ta3_runs_on_a_pool_aifcheck_made(runs: Path, tmp_path: Path) -> None:
    """pool ta3 -> score ta3 with no hand-made file (issue 42 §3); NIST's Condition 7 claim frames have
    no X variable: judged, they are not correct and stop nothing (one warning)."""
    pool = tmp_path / "pool"
    done = pool_command("runs/system", out=pool, cwd=runs, options=FRAMES)
    assert done.returncode == 0, done.stderr
    _assess(pool, tmp_path / "LDC")
    scored = score_command("runs/system", pool, tmp_path / "LDC", tmp_path / "scores", runs)
    assert scored.returncode == 0, scored.stderr
    mappings = (pool / "claim-mappings.tab").read_text().split("\n")
    condition7 = sorted({row.split("\t")[0] for row in mappings if "\tCondition7\t" in row})
    assert len(condition7) == 2
    assert [line for line in scored.stderr.splitlines() if "required field" in line] == [
        "aifcheck: warning: 2 pool claim(s) have no component 1 of a required field, as a Condition 7 claim frame "
        f"has no template or X variable ({condition7[0]} (xVariable), {condition7[1]} (xVariable)): their required "
        "fields are not all correct, so they gain nothing and are in no ideal list (NIST's scorer stops on them)"
    ]
    table = (tmp_path / "scores" / "scores" / "NDCGScorerV1-scores.tab").read_text(encoding="utf-8")
    rows = {tuple(line.split("\t")[:3]): line.split("\t") for line in table.splitlines()[1:]}
    # the third claim of CLL0C04979A.000004 was not pooled (depth 2): two claims are assessed
    assert rows["Condition5", "CLL0C04979A.000004", "ontopic"][4] == "2"
    assert {key[1] for key in rows} == {"CLL0C04979A.000004", "CLL0C04C08B.000004", "T301", "T302", "C303", "ALL-Macro"}
    # both claims correct and distinct: the run's order is ideal
    assert rows["Condition6", "T301", "ontopic"][6] == "1.0000"
    assert rows["Condition7", "C303", "ontopic"][5:] == ["0", "0.0000"]
    # a run whose folder name the pool does not know would score 0 everywhere: refused (issue 42 §4)
    shutil.copytree(runs / "runs" / "system", tmp_path / "team9")
    unknown = score_command(tmp_path / "team9", pool, tmp_path / "LDC", tmp_path / "scores9", runs)
    assert unknown.returncode == 2 and unknown.stderr.splitlines() == [
        f"aifcheck: error: {pool}/claim-mappings.tab: no ranked claim of run team9 is mapped to a pool claim; the "
        "mappings hold run(s) system: give the run's ID with --run-id"
    ]
    assert not (tmp_path / "scores9" / "scores").exists()


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (
            lambda r: (r / "runs/system/SPARQL-VALID-output/Condition6/T301/T301.ranking.tsv").write_text(
                "T301\tx\tone\n"
            ),
            "T301.ranking.tsv:1: rank 'one' is not a whole number",
        ),
        (
            lambda r: (r / "runs/system/ARF-output/Condition7/C303/CLL0C0492UF.000762-outer-claim.tab").unlink(),
            "CLL0C0492UF.000762-outer-claim.tab: no such file or directory",
        ),
        (
            lambda r: (r / "queries.tab").write_text("query_id\tcondition\tdepth\nT301\tCondition6\tsupporting:1\n"),
            "queries.tab:2: the depth of Condition6 T301 has no ontopic",
        ),
        (
            lambda r: (r / "queries.tab").write_text("query_id\tcondition\tdepth\nT301\tCondition6\tontopic=1\n"),
            "queries.tab:2: depth 'ontopic=1': 'ontopic=1' is not <list>:<number>",
        ),
        (
            lambda r: (r / "runs/system/ARF-output/Condition7/C303/CLL0C0492UF.000762-outer-claim.tab").write_text(
                "claim_id\n"
            ),
            "CLL0C0492UF.000762-outer-claim.tab:1: the header has no column component_type",
        ),
    ],
)
def test_bad_input_is_one_line_naming_the_file_and_line(runs: Path, tmp_path: Path, edit, message: str) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(runs / "runs", copy / "runs")
    shutil.copy(runs / "queries.tab", copy)
    edit(copy)
    with pytest.raises(InputError) as caught:
        pool_ta3([copy / "runs/system"], copy / "queries.tab")
    assert message in str(caught.value) and "\n" not in str(caught.value)
