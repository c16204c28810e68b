"""``aifcheck pool ta3`` on NIST's example task3 run, and ``aifcheck score ta3`` on the pool it makes.

The runs pooled are the example run and, as NIST pools them, the Condition 5 query claim frames
as a run of their own (``query_claim_frames``), each through ``aifcheck pipeline ta3``. The expected
pools are digests (SHA-256 of every file's path and bytes) of what NIST's unmodified
``generate_pool.py task3`` wrote from NIST's own docker stages on the same runs, run offline; its
``runs_directory`` column holds the runs' folder as given, here ``runs``.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import SHARED_DATA
from tree_digest import digest

from aifcheck.errors import InputError
from aifcheck.pipeline.ta3.pool import pool_ta3
from aifcheck.pipeline.ta3.run import pipeline_ta3
from aifcheck.render.ta3.pipeline import write_pipeline
from aifcheck.render.ta3.pool import write_pool

RUN = SHARED_DATA / "task3-run"
QUERIES = SHARED_DATA / "user-queries"
AUX = SHARED_DATA / "ta1-scoring" / "AUX-data"
pytestmark = pytest.mark.skipif(not RUN.is_dir(), reason="NIST's example task3 run (../shared/data/m54) is absent")

NIST_POOL = "a176798a0a5bd66bdfd664e6905447de63ede96f0a075c8d29a70633e7612ac0"
NIST_POOL_AGAIN = (
    "e71d755a1b9b3fe3c4e7886518e9d7b08c1be5b1251c7be6a334918aa481d866"  # with the first as a previous pool
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
    frames = root / "qcf"
    for query in ("CLL0C04979A.000004", "CLL0C04C08B.000004"):
        folder = frames / "Condition5" / query
        folder.mkdir(parents=True)
        shutil.copy(QUERIES / "Condition5" / "Query_Claim_Frames" / f"{query}.ttl", folder)
        (folder / f"{query}.ranking.tsv").write_text(f"{query}\t{query}\t1\trelated\n", encoding="utf-8")
    for source, run_id in ((RUN, "system"), (frames, "query_claim_frames")):
        write_pipeline(pipeline_ta3(source, QUERIES, AUX), root / "runs" / run_id)
    (root / "queries.tab").write_text(QUERIES_TO_SCORE, encoding="utf-8")
    return root


def test_the_pool_is_nist_s(runs: Path, monkeypatch) -> None:
    monkeypatch.chdir(runs)
    pool = pool_ta3(["runs/system", "runs/query_claim_frames"], "queries.tab")
    write_pool(pool, runs / "pool")
    assert digest(runs / "pool") == NIST_POOL
    assert len(pool.claims) == 9 and len(pool.mappings) == 10  # one claim is in two queries with the same content
    mappings = (runs / "pool" / "claim-mappings.tab").read_text().splitlines()
    assert (
        mappings[0]
        == "pool_claim_uid\tcondition\tquery_id\tclaim_relations\trank\trun_claim_id\trun_id\truns_directory\tin_previous_pools"
    )
    assert (
        "285132e3035d7dd15d83ed3cad56bcb0\tCondition5\tCLL0C04979A.000004\tontopic,related,nonrefuting,nonsupporting\t1\t"
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


def aifcheck(*args: object, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "aifcheck", *map(str, args)], capture_output=True, text=True, timeout=600, cwd=cwd
    )


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


def test_score_ta3_runs_on_a_pool_aifcheck_made(runs: Path, tmp_path: Path) -> None:
    # Condition 7 claims have no X variable, which the scorer requires of an assessed claim: scored without them
    scored_queries = tmp_path / "queries.tab"
    scored_queries.write_text("".join(line for line in QUERIES_TO_SCORE.splitlines(True) if "Condition7" not in line))
    pool = tmp_path / "pool"
    done = aifcheck(
        "pool",
        "ta3",
        "runs/system",
        "runs/query_claim_frames",
        "--queries-to-score",
        scored_queries,
        "-o",
        pool,
        cwd=runs,
    )
    assert done.returncode == 0, done.stderr
    _assess(pool, tmp_path / "LDC")
    scored = aifcheck(
        "score",
        "ta3",
        "runs/system",
        "--queries-to-score",
        scored_queries,
        "--claim-mappings",
        pool / "claim-mappings.tab",
        "--assessments",
        tmp_path / "LDC",
        "-o",
        tmp_path / "scores",
        cwd=runs,
    )
    assert scored.returncode == 0, scored.stderr
    table = (tmp_path / "scores" / "scores" / "NDCGScorerV1-scores.tab").read_text(encoding="utf-8")
    rows = {tuple(line.split("\t")[:3]): line.split("\t") for line in table.splitlines()[1:]}
    # the third claim of CLL0C04979A.000004 was not pooled (depth 2): two claims are assessed
    assert rows["Condition5", "CLL0C04979A.000004", "ontopic"][4] == "2"
    assert {key[1] for key in rows} == {"CLL0C04979A.000004", "CLL0C04C08B.000004", "T301", "T302", "ALL-Macro"}
    assert (
        rows["Condition6", "T301", "ontopic"][6] == "1.0000"
    )  # both claims correct and distinct: the run's order is ideal


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
