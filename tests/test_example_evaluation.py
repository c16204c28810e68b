"""The example evaluation (example-evaluation, docs/example-evaluation.md): generate.py writes its
files again byte for byte, and each task's whole evaluation, the commands of its section of the
page as pasted, runs through the installed command with the numbers agreeing at each seam: what a
stage writes and the next one reads, each scorer's printout, files and Python API, the intervals,
the pool and the runs, compare's values and differences, the report."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from helpers import ROOT

import aifcheck
from aifcheck.render.ta1.scores import reported, results_entries

EXAMPLE = ROOT / "example-evaluation"
PAGE = ROOT / "docs" / "example-evaluation.md"
COMMAND = Path(sys.executable).parent / "aifcheck"
TASKS = ("ta1", "ta2", "ta3", "crux")
TA1_METRICS = (
    "FrameMetric",
    "CoreferenceMetric",
    "TypeMetricV4",
    "TemporalMetric",
    "NegationMetricV1",
    "NegationMetricV2",
    *(f"ArgumentMetricV3{v}" for v in ("A1", "A2", "B1", "B2", "C1", "C2")),
)
# compare and report average the per-unit values the score files print to 4 decimals, the scorers
# the unrounded ones, and each prints its own mean rounded: they may differ by one in the fourth
# decimal, and a printed difference from a printed A and B by as much
ROUNDING = 1.5e-4


@dataclass(frozen=True)
class Step:
    command: str
    status: int
    stdout: str
    stderr: str


def page_section(task: str) -> str:
    heading = {"ta1": "TA1", "ta2": "TA2", "ta3": "TA3", "crux": "CRUX"}[task]
    return PAGE.read_text(encoding="utf-8").split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0]


def page_commands(task: str) -> list[str]:
    """The commands of a task's section of the page: its first bash block."""
    return re.search(r"```bash\n(.*?)```", page_section(task), re.DOTALL).group(1).strip().splitlines()


def page_numbers(task: str, *values: str) -> None:
    """The section of the page says these values (its lines joined)."""
    text = " ".join(page_section(task).split())
    assert [v for v in values if v not in text] == [], f"docs/example-evaluation.md ({task}) is out of date"


def run_page(task: str, folder: Path) -> list[Step]:
    """Each command of a task's section, in order, from a folder standing for a clone's root (its
    example-evaluation/ is the repository's), with the installed aifcheck first on PATH."""
    if not COMMAND.exists():
        pytest.skip(f"the aifcheck command is not installed beside {sys.executable}")
    (folder / EXAMPLE.name).symlink_to(EXAMPLE)
    env = {
        **os.environ,
        "PATH": f"{COMMAND.parent}{os.pathsep}{os.environ.get('PATH', '')}",
        "AIFCHECK_CACHE_DIR": str(folder / ".cache"),
    }
    steps = []
    for command in page_commands(task):
        done = subprocess.run(["bash", "-c", command], cwd=folder, env=env, capture_output=True, text=True, check=False)
        assert "Traceback" not in done.stderr, (command, done.stderr)
        steps.append(Step(command, done.returncode, done.stdout, done.stderr))
    return steps


def ok(step: Step) -> Step:
    assert step.status == 0, f"{step.command}: exit status {step.status}: {step.stderr}"
    return step


def compared(step: Step) -> dict[str, tuple[float, float, float]]:
    """score compare's table: metric -> (A, B, B-A)."""
    rows = re.findall(r"^(\S.*?)\s+\d+\s+(\d\.\d{4})\s+(\d\.\d{4})\s+([+-]\d\.\d{4})\s", ok(step).stdout, re.MULTILINE)
    return {name: (float(a), float(b), float(d)) for name, a, b, d in rows}


def check_compare(step: Step, a: dict[str, float], b: dict[str, float]) -> None:
    """compare's A and B are the two runs' headline values, and B-A their difference."""
    table = compared(step)
    assert set(table) == set(a), step.stdout
    for name, (value_a, value_b, difference) in table.items():
        assert abs(value_a - a[name]) <= ROUNDING and abs(value_b - b[name]) <= ROUNDING, (
            name,
            table[name],
            a[name],
            b[name],
        )
        assert abs(difference - (value_b - value_a)) <= ROUNDING, (name, table[name])


def interval_scores(path: Path) -> dict[tuple[str, ...], str]:
    """A ci file's score column by its key columns (NIST's pretty layout)."""
    header, *lines = path.read_text(encoding="utf-8").splitlines()
    names = header.split()
    at = names.index("score")
    keys = names.index(next(n for n in names if n.endswith("%(")))
    return {tuple(cells[:keys]): cells[at] for cells in map(str.split, lines)}


def check_report(step: Step, html: Path, *values: str) -> None:
    """The report was written, and shows each run's headline values."""
    ok(step)
    page = html.read_text(encoding="utf-8")
    assert page.lower().startswith("<!doctype html>")
    missing = [v for v in values if v not in page]
    assert not missing, f"{html.name} lacks the runs' values {missing}"


def tsv_rows(path: Path) -> list[list[str]]:
    return [line.split("\t") for line in path.read_text(encoding="utf-8").splitlines()[1:]]


# ------------------------------------------------------------------------------------------------


def test_generate_writes_the_committed_files_again(tmp_path: Path) -> None:
    subprocess.run([sys.executable, str(EXAMPLE / "generate.py"), str(tmp_path)], check=True, capture_output=True)

    def tree(root: Path) -> dict[str, bytes]:
        return {
            p.relative_to(root).as_posix(): p.read_bytes()
            for task in TASKS
            for p in sorted((root / task).rglob("*"))
            if p.is_file()
        }

    written, committed = tree(tmp_path), tree(EXAMPLE)
    assert sorted(written) == sorted(committed)
    assert [name for name in written if written[name] != committed[name]] == []


def test_the_example_is_small_and_invented() -> None:
    files = [p for task in TASKS for p in (EXAMPLE / task).rglob("*") if p.is_file()]
    assert sum(p.stat().st_size for p in files) < 1_000_000
    assert [p.name for p in files if p.stat().st_size >= 100_000] == []
    # LDC's document and element IDs start with L0C; the example's with EX
    assert [p.name for p in files if "L0C0" in p.read_text(encoding="utf-8")] == []


def test_ta1(tmp_path: Path) -> None:
    validate, query, score1, score2, ci, compare, report, summary, graph = run_page("ta1", tmp_path)
    assert (
        ok(validate)
        .stdout.splitlines()[-1]
        .startswith("10 files: 10 valid, 0 invalid, 0 unreadable; 0 errors, 0 warnings")
    )
    headlines, documents = {}, ()
    for step, run in ((score1, "run1"), (score2, "run2")):
        out = tmp_path / f"ta1-{run}-scores"
        results = json.loads((out / "results.json").read_text(encoding="utf-8"))["scores"][0]
        api = aifcheck.score_ta1(
            EXAMPLE / "ta1" / run,
            gold=EXAMPLE / "ta1" / "gold",
            aux=EXAMPLE / "ta1" / "AUX-data",
            type_similarity=EXAMPLE / "ta1" / "type-similarity.tsv",
            taggable_types=EXAMPLE / "ta1" / "taggable-types.txt",
        )
        headlines[run], documents = {m: reported(api.headline(m)) for m in TA1_METRICS}, api.documents
        # the API, results.json and the table printed agree, and every metric says something
        assert results == results_entries(api.results)
        printed = {cells[0]: cells[1] for cells in map(str.split, ok(step).stdout.splitlines()[1:])}
        assert printed == {m: headlines[run][m] for m in printed} and len(printed) == 6
        assert all(0 < float(v) < 1 for v in headlines[run].values()), headlines[run]
        # --ci: each metric's interval file, around its headline
        for metric in TA1_METRICS:
            assert interval_scores(out / "scores" / f"{metric}-ci.txt")[(run, "ALL", "ALL")] == headlines[run][metric]
    assert headlines["run1"] != headlines["run2"]
    # the page's table: "| metric[, its variants' suffixes] | run 1 | run 2 |"
    shown = {}
    for names, one, two in re.findall(
        r"^\| (\w+(?:, \w+)*) \| (\d\.\d{4}) \| (\d\.\d{4}) \|$", page_section("ta1"), re.MULTILINE
    ):
        first, *others = names.split(", ")
        shown |= dict.fromkeys((first, *(first[: -len(o)] + o for o in others)), (one, two))
    assert shown == {m: (headlines["run1"][m], headlines["run2"][m]) for m in TA1_METRICS}
    # the query stage's tables are those the scorer's clean stage read, row for row
    ok(query)
    for name in (f"{d}.ttl/AIDA_P3_TA1_{table}_A0001.rq.tsv" for d in documents for table in ("CM", "AM", "TM")):
        assert len(tsv_rows(tmp_path / "ta1-run1-tables" / name)) == len(
            tsv_rows(tmp_path / "ta1-run1-scores" / "SPARQL-CLEAN-output" / name)
        )
    ok(ci)
    assert (
        interval_scores(tmp_path / "ta1-run1-frame-ci.txt")[("run1", "ALL", "ALL")] == headlines["run1"]["FrameMetric"]
    )
    check_compare(compare, *({m: float(v) for m, v in headlines[run].items()} for run in ("run1", "run2")))
    check_report(report, tmp_path / "ta1-report.html", *headlines["run1"].values(), *headlines["run2"].values())
    # summary and graph: the clusters and mentions of the query stage's CM table
    cm = tsv_rows(tmp_path / "ta1-run1-tables" / "EXD0001.ttl" / "AIDA_P3_TA1_CM_A0001.rq.tsv")
    clusters = {row[0].rsplit("#", 1)[1].rstrip(">") for row in cm}
    assert re.search(rf"clusters\s+{len(clusters)}:", ok(summary).stdout) and re.search(
        rf"mentions\s+{len(cm)} ", summary.stdout
    )
    dot = (tmp_path / "ta1-EXD0001.dot").read_text(encoding="utf-8")
    assert ok(graph) and [c for c in clusters if not re.search(rf"{c}\b", dot)] == []


def test_ta2(tmp_path: Path) -> None:
    validate, stages1, stages2, pool, score1, score2, direct, compare, report = run_page("ta2", tmp_path)
    assert ok(validate).stdout.splitlines()[-1].startswith("2 files: 2 valid, 0 invalid")
    queries = tsv_rows(EXAMPLE / "ta2" / "queries.tsv")
    for step, run in ((stages1, "run1"), (stages2, "run2")):
        # the VALID rows printed per query are the rows of its SPARQL-VALID-output file
        printed = {cells[0]: int(cells[-1]) for cells in map(str.split, ok(step).stdout.splitlines()[1:-1])}
        valid = tmp_path / "ta2-stages" / run / "SPARQL-VALID-output"
        assert printed == {q[0]: len(tsv_rows(valid / f"{q[0]}.rq.tsv")) for q in queries}
    # the pool: each run's pooled rows, together; and what LDC judged is this pool
    ok(pool)
    pooled = {
        (run, q[0], row[0], row[4])
        for run in ("run1", "run2")
        for q in queries
        for row in tsv_rows(tmp_path / "ta2-pool" / "runs" / run / "SPARQL-POOLED-BATCH1-output" / f"{q[0]}.rq.tsv")
    }
    lines = [
        row.split("\t") for row in (tmp_path / "ta2-pool" / "pool.txt").read_text(encoding="utf-8").splitlines()[1:]
    ]
    assert {(q, f"{doc}:{span}") for q, _, _, _, doc, span, *_ in lines} == {(q, span) for _, q, _, span in pooled}
    assert {run for run, *_ in pooled} == {"run1", "run2"}
    assert f"{len(lines)} mentions in" in pool.stdout
    judged = [
        line.split("\t")
        for kit in sorted((EXAMPLE / "ta2" / "LDC" / "data" / "TA2").glob("*.tab"))
        for line in kit.read_text(encoding="utf-8").splitlines()
    ]
    assert sorted(row[:6] for row in judged) == sorted(row[:6] for row in lines)
    summaries = {}
    for step, run in ((score1, "run1"), (score2, "run2")):
        out = tmp_path / f"ta2-{run}-scores" / "scores"
        api = aifcheck.score_ta2(
            tmp_path / "ta2-stages" / run,
            EXAMPLE / "ta2" / "queries.tsv",
            EXAMPLE / "ta2" / "LDC",
            EXAMPLE / "ta2" / "AUX-data",
            run_id=run,
        )
        summaries[run] = f"{api.summary:.4f}"
        assert ok(step).stdout.splitlines()[-1].endswith(f": {summaries[run]}")
        assert tsv_rows(out / "AcrossDocumentsCoreferenceMetricV2-scores.tab")[-1][-2] == summaries[run]
        assert interval_scores(out / "AcrossDocumentsCoreferenceMetricV2-ci.txt")[(run,)] == summaries[run]
    assert 0 < float(summaries["run2"]) < float(summaries["run1"]) < 1
    page_numbers("ta2", *summaries.values(), f"{len(lines)} mentions")
    # the KB scored directly, the stages run in-process: the same printout
    assert ok(direct).stdout == score1.stdout
    check_compare(
        compare,
        {"AcrossDocumentsCoreferenceMetricV2": float(summaries["run1"])},
        {"AcrossDocumentsCoreferenceMetricV2": float(summaries["run2"])},
    )
    check_report(report, tmp_path / "ta2-report.html", summaries["run1"], summaries["run2"])


def test_ta3(tmp_path: Path) -> None:
    lint1, lint2, stages1, stages2, pool, score1, score2, compare, report = run_page("ta3", tmp_path)
    rankings = {}  # run -> (condition, query, claim) of each ranking line
    for lint, stages, run in ((lint1, stages1, "run1"), (lint2, stages2, "run2")):
        rankings[run] = [
            (path.parent.parent.name, path.parent.name, line.split("\t")[1])
            for path in (EXAMPLE / "ta3" / run).rglob("*.ranking.tsv")
            for line in path.read_text(encoding="utf-8").splitlines()
        ]
        files = len([p for p in (EXAMPLE / "ta3" / run).rglob("*") if p.is_file()])
        assert ok(lint).stdout.splitlines()[-1].startswith(f"{files} files: {files} valid, 0 invalid")
        logged = " - ERROR - " in (tmp_path / "ta3-stages" / run / "logs" / "validate-responses.log").read_text()
        assert stages.status == (1 if logged else 0), stages.stderr  # 1: NIST's stages logged errors
        assert f"ARF-output: {len(rankings[run])} claims" in stages.stdout
    # the pool maps claims of both runs, each ranked by its run, and each Condition 5 query's claim
    # frame as the first claim of run query_claim_frames (as NIST's scorer reads it); LDC judged
    # every pool claim
    mappings = tsv_rows(tmp_path / "ta3-pool" / "claim-mappings.tab")
    queries = [row for row in tsv_rows(EXAMPLE / "ta3" / "queries.tab") if row[1] == "Condition5"]
    frames = sorted((row[2], row[5], row[4]) for row in mappings if row[6] == "query_claim_frames")
    assert frames == sorted((query, query, "1") for query, *_ in queries) and len(queries) == 2
    rankings["query_claim_frames"] = [("Condition5", query, query) for query, *_ in queries]
    assert {row[6] for row in mappings} == {"run1", "run2", "query_claim_frames"}
    assert all((condition, query, claim) in rankings[run] for _, condition, query, _, _, claim, run, *_ in mappings)
    assert (tmp_path / "ta3-pool" / "runs" / "query_claim_frames" / "ARF-output" / "Condition5").is_dir()
    uids = {row[0] for row in mappings}
    assert f"pooled {len(mappings)} run claim(s) of 3 run(s) into {len(uids)} pool claim(s)" in ok(pool).stdout
    assert all(
        (EXAMPLE / "ta3" / "LDC" / "data" / "TA3" / "system_claims" / f"{uid}-outer-claim.tab").is_file()
        for uid in uids
    )
    page_numbers("ta3", f"{len(mappings)} run claims into {len(uids)} pool claims")
    values = {}
    for step, run in ((score1, "run1"), (score2, "run2")):
        # the Condition 7 claim frames have no X variable: one warning, and no claim stops the run
        assert "have no component 1 of a required field" in ok(step).stderr
        out = tmp_path / f"ta3-{run}-scores" / "scores"
        header, *lines = (cells.split() for cells in step.stdout.splitlines())
        values[run] = {
            f"{metric} {cells[0]} {cells[1]}": cells[i] for cells in lines for i, metric in enumerate(header[2:], 2)
        }
        for name, value in values[run].items():
            metric, condition, relation = name.split()
            tab = {(r[0], r[2]): r[-1] for r in tsv_rows(out / f"{metric}-scores.tab") if r[1] == "ALL-Macro"}
            assert tab[(condition, relation)] == ("" if value == "-" else value), name
            if value != "-":
                assert interval_scores(out / f"{metric}-ci.txt")[(condition, relation, run)] == value
    # the page's table of NDCG V1: "| ConditionN list | run 1 | run 2 |"
    shown = re.findall(r"^\| (Condition\d \w+) \| (\d\.\d{4}) \| (\d\.\d{4}) \|$", page_section("ta3"), re.MULTILINE)
    ndcg = {
        name.removeprefix("NDCGScorerV1 "): (values["run1"][name], values["run2"][name])
        for name in values["run1"]
        if name.startswith("NDCGScorerV1 ")
    }
    assert {name: (one, two) for name, one, two in shown} == {k: v for k, v in ndcg.items() if "-" not in v}
    numbers = [{k: float(v) for k, v in values[run].items() if v != "-"} for run in ("run1", "run2")]
    check_compare(compare, *numbers)
    check_report(
        report, tmp_path / "ta3-report.html", *(v for run in values.values() for v in run.values() if v != "-")
    )


def test_crux(tmp_path: Path) -> None:
    validate, claims1, claims2, mkdir, score1, score2, relations1, relations2, ci, compare, report = run_page(
        "crux", tmp_path
    )
    assert ok(validate).stdout.splitlines()[-1].startswith("19 files: 19 valid, 0 invalid")
    ok(mkdir)
    gold = EXAMPLE / "crux" / "gold"
    f1 = {}
    for claims, score, relations, run in ((claims1, score1, relations1, "run1"), (claims2, score2, relations2, "run2")):
        # the claim frames in Turtle make the shipped Task 1 submission
        table = tmp_path / f"crux-{run}-claims.tab"
        assert ok(claims) and table.read_bytes() == (EXAMPLE / "crux" / run / "claims.tab").read_bytes()
        written = json.loads((tmp_path / f"crux-{run}-scores" / "claims.json").read_text(encoding="utf-8"))
        api = aifcheck.score_crux_claims(table, gold / "claims.tab")
        assert ok(score) and (written["precision"], written["recall"], written["f1"]) == tuple(
            round(v, 4) for v in (api.precision, api.recall, api.f1)
        )
        f1[run] = written["f1"]
        expected = aifcheck.score_crux_relations(
            EXAMPLE / "crux" / run / "relations.tab", gold / "relations.tab"
        ).macro_f1
        assert f"macro-F1 {expected:.4f} over" in ok(relations).stdout
        page_numbers("crux", f"{api.f1:.4f}", f"{expected:.4f}")
    assert 0 < f1["run2"] < f1["run1"] < 1
    assert ok(ci) and interval_scores(tmp_path / "crux-run1-ci.txt")[("ALL",)] == f"{f1['run1']:.4f}"
    table = compared(compare)
    assert abs(table["claims"][0] - f1["run1"]) <= ROUNDING and abs(table["claims"][1] - f1["run2"]) <= ROUNDING
    assert abs(table["claims"][2] - (table["claims"][1] - table["claims"][0])) <= ROUNDING
    check_report(report, tmp_path / "crux-report.html", f"{f1['run1']:.4f}", f"{f1['run2']:.4f}")
