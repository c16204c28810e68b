"""``aifcheck pool ta2`` and aifcheck.pipeline.ta2.pool on tests/score/fixtures/ta2/pool: two runs,
an earlier pool and kits of 2 lines, against what NIST's pooler wrote for them (``pool/nist/``:
pool.txt, the kits, the .klm and each run's SPARQL-POOLED output; its last step, the md5 by
macOS's ``md5``, fails on Linux after those)."""

from __future__ import annotations

import hashlib
import re
import shutil
import subprocess
import tarfile
from pathlib import Path

import pytest
from ta2_common import AUX, FIXTURES, aifcheck, need_aux  # noqa: F401 (a fixture)

from aifcheck.errors import InputError, UsageError
from aifcheck.pipeline.shared.auxdata import TA2_CORE, load_aux
from aifcheck.pipeline.ta2.pool import pool_ta2
from aifcheck.pipeline.ta2.queries import POOLER_COLUMNS, read_queries

CASE = FIXTURES / "pool"
RUNS = (CASE / "runs" / "runA", CASE / "runs" / "runB")


def pool_command(
    out: Path, *options: object, runs: tuple[Path, ...] = RUNS, queries: Path = CASE / "queries.tab"
) -> subprocess.CompletedProcess:
    return aifcheck("pool", "ta2", *runs, "--queries-to-score", queries, "--aux", AUX, "-o", out, *options)


def files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_the_pool_is_nist_s(tmp_path: Path) -> None:
    out = tmp_path / "pool"
    done = pool_command(out, "-p", CASE / "previous", "-k", "2")
    assert done.returncode == 0, done.stderr
    written = files(out)
    for name, content in files(CASE / "nist").items():
        assert written[name] == content, name
    assert (
        written["runs_to_pool.txt"] == b"run_id\nrunA\nrunB\n"
        and written["queries.tab"] == (CASE / "queries.tab").read_bytes()
    )
    assert "aifcheck: note: " in done.stderr and "P9.rq.tsv: query P9 is not in the queries table" in done.stderr
    assert done.stdout.splitlines()[1:4] == [
        "P1      Natasha           6    3",
        "P2      Q5                2    1",
        "P3      Olha              3    2",
    ]


def test_the_ldc_package_is_a_tarball_named_with_its_md5(tmp_path: Path) -> None:
    out = tmp_path / "pool"
    assert pool_command(out, "-k", "2").returncode == 0
    packages = list(out.glob("task2_pool_batch1_*.tgz.txt"))
    assert len(packages) == 1
    match = re.fullmatch(r"task2_pool_batch1_(\d{12})_([0-9a-f]{32})\.tgz\.txt", packages[0].name)
    assert match and match.group(2) == hashlib.md5(packages[0].read_bytes()).hexdigest()
    with tarfile.open(packages[0]) as tar:
        names = tar.getnames()
        assert "task2_pool_batch1/task2_pool_batch1.klm" in names and "task2_pool_batch1/kits/BATCH1_P1_1.tab" in names
        kit = tar.extractfile("task2_pool_batch1/kits/BATCH1_P1_1.tab").read()
    assert kit == (out / "task2_pool_batch1" / "kits" / "BATCH1_P1_1.tab").read_bytes()


def test_the_pool_as_values() -> None:
    queries = read_queries(CASE / "queries.tab", POOLER_COLUMNS)
    pool = pool_ta2(RUNS, queries, load_aux(AUX, TA2_CORE))
    p1 = [(line.response_id, line.document, line.mention) for line in pool.lines if line.query_id == "P1"]
    assert p1[0] == (1, "L0C04C4IA", "L0C04CAAG:(8,0)-(12,0)") and len(p1) == 7  # 4K6 pooled: no earlier pool
    assert [(k.name, len(k.lines), k.languages) for k in pool.kits] == [
        ("BATCH1_P1_1.tab", 7, "ENG,RUS"),
        ("BATCH1_P2_1.tab", 2, "ENG"),
        ("BATCH1_P3_1.tab", 3, "ENG,RUS"),
    ]
    assert [line.source for line in pool.lines if line.query_id == "P3"] == ["IMAGE", "VIDEO", "TEXT"]
    assert pool.batch == "BATCH1" and [r.run_id for r in pool.runs] == ["runA", "runB"] and pool.errors == 0
    later = pool_ta2(RUNS, queries, load_aux(AUX, TA2_CORE), previous=[CASE / "previous"], batch="BATCH2", kit_size=2)
    assert [k.name for k in later.kits][:3] == ["BATCH2_P1_1.tab", "BATCH2_P1_2.tab", "BATCH2_P1_3.tab"]
    assert [line.response_id for line in later.lines if line.query_id == "P1"] == list(range(8, 14))


def _run_with(tmp_path: Path, query_link_target: str, link_target: str, entrypoint: str) -> tuple[Path, Path]:
    run = tmp_path / "runX" / "SPARQL-VALID-output"
    run.mkdir(parents=True)
    header = "?docid\t?query_link_target\t?link_target\t?cluster\t?mention_span\t?j_cv\t?link_cv"
    row = f'L0C04C50R\t{query_link_target}\t{link_target}\tk1\tL0C04C50R:L0C04CAAU:(31,0)-(36,0)\t"0.9"\t"0.9"'
    (run / "K1.rq.tsv").write_text(f"{header}\n{row}\n", encoding="utf-8")
    queries = tmp_path / "queries.tab"
    queries.write_text(f"query_id\tentrypoint\tclusters\tdocuments\nK1\t{entrypoint}\t1\t10\n", encoding="utf-8")
    return run.parent, queries


def test_a_part_of_a_list_entry_point_is_pooled_where_nist_stops(tmp_path: Path) -> None:
    run, queries = _run_with(tmp_path, "Q1|Q2", "Q1", "Q1|Q2")
    done = pool_command(tmp_path / "out", runs=(run,), queries=queries)
    assert done.returncode == 0 and "UNEXPECTED_ENTRYPOINT_DESCRIPTOR" in done.stderr
    assert (
        (tmp_path / "out" / "pool.txt")
        .read_text(encoding="utf-8")
        .splitlines()[1]
        .startswith("K1\tQ1|Q2\t1\tTEXT\tL0C04C50R\t")
    )


def test_a_row_of_another_query_stops_the_pool(tmp_path: Path) -> None:
    run, queries = _run_with(tmp_path, "Q7", "Q7", "Q1")
    done = pool_command(tmp_path / "out", runs=(run,), queries=queries)
    assert done.returncode == 3 and "K1.rq.tsv:2:" in done.stderr and "entry point 'Q1'" in done.stderr
    assert done.stderr.count("\n") == 1 and not (tmp_path / "out").exists()


def test_usage_errors(tmp_path: Path) -> None:
    queries = read_queries(CASE / "queries.tab", POOLER_COLUMNS)
    with pytest.raises(UsageError, match="share a folder name"):
        pool_ta2([RUNS[0], RUNS[0]], queries, load_aux(AUX, TA2_CORE))
    with pytest.raises(UsageError, match="at least one line"):
        pool_ta2(RUNS, queries, load_aux(AUX, TA2_CORE), kit_size=0)
    with pytest.raises(UsageError, match=r"no pool\.txt"):
        pool_ta2(RUNS, queries, load_aux(AUX, TA2_CORE), previous=[tmp_path])
    bad = tmp_path / "previous"
    bad.mkdir()
    (bad / "pool.txt").write_text(
        "QUERY_ID\tDOCUMENT_ID\tMENTION_SPAN\tRESPONSE_ID\nP1\tD\tE:(1,0)-(2,0)\tseven\n", encoding="utf-8"
    )
    with pytest.raises(InputError, match="RESPONSE_ID 'seven'"):
        pool_ta2(RUNS, queries, load_aux(AUX, TA2_CORE), previous=[bad])
    out = tmp_path / "out"
    out.mkdir()
    (out / "x").write_text("", encoding="utf-8")
    assert pool_command(out).returncode == 2 and pool_command(out, "--force").returncode == 0
    shutil.rmtree(out)
    assert aifcheck("pool", "ta2", "-h").returncode == 0


@pytest.mark.parametrize("case", ["pool_languages", "pool_nothing_new"])
def test_kit_languages_and_empty_folders_are_nist_s(case: str, tmp_path: Path) -> None:
    """Issue 42 §2. ``<case>/nist/`` is what NIST's generate_pool.py task2 (a0b379b) wrote for the
    case, run offline by build.py (``python tests/score/fixtures/ta2/build.py pool_languages
    pool_nothing_new``; its last step, macOS's md5, fails on Linux after the rest is written):
    a document whose element's language is a list (``eng,rus``) counts each of its languages in
    its kit's (ENG,RUS and ENG,RUS,SPA,UKR); a run without response files gets an empty
    SPARQL-POOLED folder; a pool with nothing new an empty kits/ folder (``folders.txt`` lists
    NIST's folders, the empty ones too, which git does not keep)."""
    root = FIXTURES / case
    nist = root / "nist"
    runs = tmp_path / "runs"
    shutil.copytree(root / "runs", runs)
    # every run NIST pooled, those without response files too (git keeps no empty folder)
    folders = (nist / "folders.txt").read_text(encoding="utf-8").splitlines()
    for run in (f.split("/")[1] for f in folders if f.count("/") == 1 and f.startswith("runs/")):
        (runs / run / "SPARQL-VALID-output").mkdir(parents=True, exist_ok=True)
    previous = ("-p", root / "previous") if (root / "previous").is_dir() else ()
    out = tmp_path / "pool"
    ordered = sorted(runs.iterdir(), key=lambda run: run.name, reverse=True)  # runL, then runE: NIST's order
    done = pool_command(out, *previous, runs=tuple(ordered), queries=root / "queries.tab")
    assert done.returncode == 0, done.stderr
    written = files(out)
    expected = {name: data for name, data in files(nist).items() if name not in ("folders.txt", "warnings.txt")}
    assert {name: written[name] for name in expected} == expected
    assert sorted(str(p.relative_to(out)) for p in out.rglob("*") if p.is_dir()) == folders
    # NIST warns on each line of such a document; aifcheck once, naming the first
    listed = "document(s) whose language is a list in the AUX data"
    warned = (nist / "warnings.txt").read_text(encoding="utf-8")
    assert (listed in done.stderr) == ("Multiple languages" in warned)
