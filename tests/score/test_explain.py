"""Every score row explained adds up to NIST's number: each row of each score file a scorer writes
is recomputed from its explanation alone (read back from explain/<task>.jsonl) by the steps it
states, on every oracle fixture; and every KB line an explanation names holds the node it names."""

from __future__ import annotations

import html
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import EXAMPLE_TYPE_TABLE_FILES, ROOT, SHARED_DATA, TYPE_TABLE_FILES
from ta1_kinds import kinds_aux, lay_out
from ta3_lines import check_ta3_lines
from typer.testing import CliRunner

from aifcheck.cli import application
from aifcheck.render.explain import lines, write_explanations
from aifcheck.render.report_explain import explain_section
from aifcheck.render.report_html import report_html
from aifcheck.render.ta1.scores import NistLayout
from aifcheck.render.ta2.scores import write_scores as write_ta2
from aifcheck.render.ta3.scores import write_score_files as write_ta3
from aifcheck.score.explain import (
    Explanation,
    Item,
    Source,
    explained_run,
    item_fields,
    read_explanations,
    recompute,
    row_record,
)
from aifcheck.score.moved import moves
from aifcheck.score.report import report_data
from aifcheck.score.ta1 import TA1Settings, score_ta1
from aifcheck.score.ta2 import score_ta2
from aifcheck.score.ta3.scorer import score_ta3

GOLD, AUX = SHARED_DATA / "ta1-gold-tsv", SHARED_DATA / "ta1-scoring" / "AUX-data"
SETTINGS = ROOT / "tests" / "data" / "ta1-settings"


def _need_m54() -> None:
    if not (SHARED_DATA / "task1-run").is_dir():
        pytest.skip(f"NIST's example TA1 run not found at {SHARED_DATA}")


def _table(path: Path) -> list[dict[str, str]]:
    header, *lines = path.read_text().splitlines()
    names = header.split("\t")
    return [dict(zip(names, (c.strip() for c in line.split("\t")), strict=True)) for line in lines]


def check_recomputed(scores_folder: Path, explanations: list[Explanation], headers: dict[str, dict[str, str]]) -> int:
    """Each row of each ``<Metric>-scores.tab`` under ``scores_folder`` has one explanation whose
    steps give its printed values; ``headers``: metric -> column name -> the file's header. Returns
    the number of values checked."""
    by_metric: dict[str, list[Explanation]] = {}
    for explanation in explanations:
        by_metric.setdefault(explanation.metric, []).append(explanation)
    checked = 0
    for metric, names in headers.items():
        rows = _table(scores_folder / f"{metric}-scores.tab")
        assert len(rows) == len(by_metric.get(metric, [])), metric
        for explanation in by_metric.get(metric, []):
            found = [r for r in rows if all(r[k] == v for k, v in explanation.row)]
            assert len(found) == 1, (metric, explanation.row)
            computed = recompute(explanation)
            for name, value in explanation.values:
                if name not in names:  # a count the file does not print (NegationMetricV2's TP, FP, FN)
                    assert computed[name] == value, (metric, explanation.row, name)
                    continue
                printed = found[0][names[name]]
                if printed == "":
                    continue
                assert f"{computed[name]:.4f}" == f"{float(printed):.4f}", (metric, explanation.row, name, printed)
                checked += 1
    return checked


def _ta1(run: Path, gold: Path, aux: Path, out: Path, **options) -> tuple[object, list[Explanation]]:
    layout = NistLayout(out)
    scores = score_ta1(run, gold, aux, on_document=layout.document, explain=True, **TYPE_TABLE_FILES, **options)
    layout.run(scores)
    write_explanations(out, "ta1", scores.explanations)
    return scores, read_explanations(out)


def _headers(scores) -> dict[str, dict[str, str]]:
    return {m: {c.name: c.header for c in s.columns} for m, s in scores.metrics.items()}


TA1_CASES = {
    "nist": {},
    "plan": {"plan": True},
    "settings": {
        "settings": TA1Settings(
            alpha=0.5,
            iou_thresholds=TA1Settings.parse_iou_thresholds(["spa:text:0.6,rus:text:0.3"]),
            min_type_similarity=0.5,
            near_neighbour_similarity=0.6,
            similarity_types=("class",),
        ),
        "overlay": SETTINGS / "overlay.json",
        "extra_similarities": SETTINGS / "extra.tsv",
    },
}


@pytest.mark.parametrize("case", TA1_CASES)
def test_every_ta1_row_of_nist_s_example_run_is_recomputed_from_its_explanation(case: str, tmp_path: Path) -> None:
    _need_m54()
    scores, explanations = _ta1(
        SHARED_DATA / "task1-run", GOLD, AUX, tmp_path, run_id="example-task1-run", **TA1_CASES[case]
    )
    assert len(scores.metrics) == 12
    assert check_recomputed(tmp_path / "scores", explanations, _headers(scores)) > 1000
    _check_kb_lines(explanations)


def test_every_ta1_row_of_every_kind_of_justification_is_recomputed(tmp_path: Path) -> None:
    _need_m54()
    lay_out(tmp_path)
    scores, explanations = _ta1(
        tmp_path / "run", tmp_path / "gold", kinds_aux(tmp_path), tmp_path / "out", run_id="kinds"
    )
    assert check_recomputed(tmp_path / "out" / "scores", explanations, _headers(scores)) > 50
    kinds = {i.kind for e in explanations for i in e.items}
    assert {"pair", "mention-pair", "edge-pair", "trf-pair", "bound"} <= kinds
    _check_kb_lines(explanations)


# what the line of each object an item names shows in Turtle
_NODE_LINE = {
    "cluster": re.compile(r"SameAsCluster"),
    "mention": re.compile(r"Justification"),
    "argument": re.compile(r"rdf:subject|rdf:predicate|rdf:object|ArgumentStatement|aida:Argument"),
    "time": re.compile(r"LDCTime"),
}


def _check_kb_lines(explanations: list[Explanation]) -> None:
    """Each KB file and line named is the node's: the statement starting there declares it."""
    texts: dict[str, list[str]] = {}
    seen = 0
    for item in (i for e in explanations for i in e.items):
        for where in item.where:
            if where.side != "system" or not where.file.endswith(".ttl"):
                continue
            lines = texts.setdefault(where.file, Path(where.file).read_text().splitlines())
            statement = "\n".join(lines[where.line - 1 : where.line + 3])
            assert _NODE_LINE[where.what].search(statement), (where, statement)
            if where.what == "cluster":
                assert item.label.split(" <-> ")[-1] in lines[where.line - 1]
            seen += 1
    assert seen > 0


def test_the_report_s_drill_down_of_nist_s_example_run_stays_small_and_shows_each_line(tmp_path: Path) -> None:
    _need_m54()
    _, explanations = _ta1(SHARED_DATA / "task1-run", GOLD, AUX, tmp_path, run_id="example-task1-run")
    data = report_data([tmp_path], replications=100)
    page = report_html(data)
    assert len(page.encode()) < 4_000_000 and "<script" not in page
    section = explain_section(data.runs)
    metrics = {e.metric for e in explanations}
    # level 1, a metric; level 2, its rows
    assert section.count('<details id="explain-1-') == len(metrics) + len(explanations)
    # level 3, a row: its items, a few of each kind, and the command that prints the rest
    assert "aifcheck score explain" in section and section.count('<span class="kind ') < 12 * len(explanations)
    # ... and a link to the JSON Lines file that holds them all
    links = set(re.findall(r'more item\(s\): <a href="([^"]+)">', section))
    assert links == {(tmp_path / "explain" / "ta1.jsonl").resolve().as_uri()}, links
    # level 4, an item: the lines it names, each the file's line (files named from the folder they share)
    root = Path(html.unescape(re.search(r"Files are named from (.*?)/\.", section).group(1)))
    shown = re.findall(r'<span class="path">([^<]*?):(\d+)</span><pre class="side-(\w+)">(.*?)</pre>', section)
    assert {side for *_, side, _ in shown} == {"gold", "system"}
    for path, line, _, text in shown:
        assert (root / html.unescape(path)).read_text().splitlines()[int(line) - 1] == html.unescape(text)


def test_explain_changes_no_byte_of_nist_s_outputs(tmp_path: Path) -> None:
    _need_m54()
    plain, explained = tmp_path / "plain", tmp_path / "explained"
    for out, explain in ((plain, False), (explained, True)):
        layout = NistLayout(out)
        scores = score_ta1(
            SHARED_DATA / "task1-run",
            GOLD,
            AUX,
            run_id="example-task1-run",
            on_document=layout.document,
            explain=explain,
            **TYPE_TABLE_FILES,
        )
        layout.run(scores)
    files = sorted(p.relative_to(plain) for p in plain.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(explained) for p in explained.rglob("*") if p.is_file())
    for name in files:  # the logs' lines start with the time they were written
        texts = [_STAMP.sub("", (out / name).read_text()) for out in (plain, explained)]
        assert texts[0] == texts[1], name


_STAMP = re.compile(r"^\d\d/\d\d/\d{4} \d\d:\d\d:\d\d [AP]M - ", re.MULTILINE)


TA2 = ROOT / "tests" / "score" / "fixtures" / "ta2"
# the TA2 fixtures that score (the others stop on their input, as NIST's scorer does)
TA2_FIXTURES = sorted(
    d.name
    for d in TA2.iterdir()
    if (d / "queries_to_score.tab").is_file()
    and d.name
    not in ("bad_clusters", "duplicate_conflict", "malformed_span", "short_line", "short_row", "unknown_label")
)
TA2_OPTIONS = {
    "nist": {},
    "plan": {"plan": True},
    "cutoff-weighted-normalize": {"cutoff": True, "weighted": True, "normalize": True},
}


@pytest.mark.parametrize("options", TA2_OPTIONS)
@pytest.mark.parametrize("fixture", TA2_FIXTURES)
def test_every_ta2_row_is_recomputed_from_its_explanation(fixture: str, options: str, tmp_path: Path) -> None:
    _need_m54()
    folder = TA2 / fixture
    scores = score_ta2(
        folder / "runW", folder / "queries_to_score.tab", folder / "LDC", AUX, explain=True, **TA2_OPTIONS[options]
    )
    write_ta2(scores, tmp_path / "out")
    explanations = read_explanations(tmp_path / "out")
    headers = {"AcrossDocumentsCoreferenceMetricV2": {"ap": "AP", "rel_counted": "RelCntd"}}
    assert check_recomputed(tmp_path / "out" / "scores", explanations, headers) >= len(scores.rows)
    for item in (i for e in explanations for i in e.items if i.kind == "rank"):
        # the response row and the assessment line named hold the mention's document and element
        # (NIST's validator may have corrected the span the row gives)
        document, element, _ = item.label.split(":", 2)
        for where in item.where:
            line = Path(where.file).read_text().splitlines()[where.line - 1]
            assert document in line and element in line, (where, line)


@pytest.mark.parametrize("plan", [False, True], ids=["nist", "plan"])
def test_a_ta2_run_given_as_its_kb_is_explained_at_the_kb_s_lines(plan: bool, tmp_path: Path) -> None:
    folder = ROOT / "example-evaluation" / "ta2"
    scores = score_ta2(
        folder / "run1", folder / "queries.tsv", folder / "LDC", folder / "AUX-data", plan=plan, explain=True
    )
    write_ta2(scores, tmp_path / "out")
    explanations = read_explanations(tmp_path / "out")
    headers = {"AcrossDocumentsCoreferenceMetricV2": {"ap": "AP", "rel_counted": "RelCntd"}}
    assert check_recomputed(tmp_path / "out" / "scores", explanations, headers) >= len(scores.rows)
    kb = (folder / "run1" / "task2_kb.ttl").read_text().splitlines()
    named = 0
    for item in (i for e in explanations for i in e.items if i.kind == "rank"):
        span, cluster = item.label[:-1].split(" (")
        document, element, extent = span.split(":", 2)
        start, end = extent.split("-")[0].strip("()").split(","), extent.split("-")[1].strip("()").split(",")
        for where in (w for w in item.where if w.file.endswith(".ttl")):
            statement = "\n".join(kb[where.line - 1 : where.line + 1])  # the node's statement starts there
            if where.what == "cluster":
                assert f":{cluster} a aida:SameAsCluster" in statement, (where, statement)
            else:  # the prototype's informative justification the row's span prints
                assert "Justification" in statement and f'"{document}"' in statement, (where, statement)
                assert f'"{element}"' in statement and f'"{start[0]}"' in statement and f'"{end[0]}"' in statement
            named += 1
    assert named >= 2 * sum(1 for e in explanations for i in e.items if i.kind == "rank") > 0


TA3 = ROOT / "tests" / "score" / "fixtures" / "ta3"
TA3_FIXTURES = sorted(d.name for d in TA3.iterdir() if (d / "queries_to_score.tab").is_file() and d.name != "T12_nil")
NDCG = {"ndcg": "NDCG", "assessed": "NumAssessedClaims", "gt": "GT"}
F1 = {"f1": "F1", "unique": "NumUniqueSubmittedValues", "gt": "GT", "cutoff": "Cutoff"}


@pytest.mark.parametrize("plan", [False, True], ids=["nist", "plan"])
@pytest.mark.parametrize("fixture", TA3_FIXTURES)
def test_every_ta3_row_is_recomputed_from_its_explanation(fixture: str, plan: bool, tmp_path: Path) -> None:
    folder = TA3 / fixture
    files = (folder / "queries_to_score.tab", folder / "claim-mappings.tab", folder / "LDC")
    scores = score_ta3(folder / "RUN1", *files, plan=plan, explain=True)
    write_ta3(scores, tmp_path)
    write_explanations(tmp_path, "ta3", scores.explanations)
    explanations = read_explanations(tmp_path)
    headers = {m.metric: NDCG if m.metric.startswith("NDCG") else F1 for m in scores.metrics}
    assert check_recomputed(tmp_path / "scores", explanations, headers) >= sum(len(m.rows) for m in scores.metrics)
    # the fixtures' claim frames are empty files: a line is named only where the file has the claim
    claims = [w for e in explanations for i in e.items for w in i.where if w.what == "claim" and w.line]
    for where in claims:  # the claim frame's line declares the claim
        assert "aida:Claim" in Path(where.file).read_text().splitlines()[where.line - 1], where


def test_every_line_a_ta3_explanation_of_the_example_evaluation_names_holds_its_node(tmp_path: Path) -> None:
    folder, app = EXAMPLE / "ta3", application()
    shared = ["--user-queries", str(folder / "user-queries"), "--aux", str(folder / "AUX-data")]
    stages = [tmp_path / "stages" / run for run in ("run1", "run2")]
    for run, out in zip(("run1", "run2"), stages, strict=True):
        done = CliRunner().invoke(app, ["pipeline", "ta3", str(folder / run), *shared, "-o", str(out)])
        assert done.exit_code == 0, done.output
    pool = ["pool", "ta3", *map(str, stages), "--queries-to-score", str(folder / "queries.tab"), *shared]
    done = CliRunner().invoke(app, [*pool, "-o", str(tmp_path / "pool")])
    assert done.exit_code == 0, done.output
    for out in stages:  # the runs given as NIST's tables (the stages' output)
        files = (folder / "queries.tab", tmp_path / "pool" / "claim-mappings.tab", folder / "LDC")
        checked = check_ta3_lines(score_ta3(out, *files, explain=True).explanations)
        assert set(checked) == {"ranking", "claim", "mapping", "judgement"}, checked


CRUX = ROOT / "tests" / "score" / "fixtures" / "crux"
CRUX_NAMES = {"tp": "true_positives", "fp": "false_positives", "fn": "false_negatives"}


def test_every_crux_claims_row_is_recomputed_from_its_explanation(tmp_path: Path) -> None:
    # CRUX has no NIST file: the numbers are those --format json prints (4 decimals)
    command = ["score", "crux-claims", str(CRUX / "system.tab"), "--gold", str(CRUX / "gold.tab"), "--format", "json"]
    result = CliRunner().invoke(application(), [*command, "--explain", str(tmp_path)])
    assert result.exit_code == 0, result.output
    printed = json.loads(result.stdout)
    rows = {"ALL": printed, **printed["documents"], **{f"field:{f}": v for f, v in printed["fields"].items()}}
    explanations = read_explanations(tmp_path)
    assert len(explanations) == len(rows)
    for explanation in explanations:
        key = explanation.row[0][1] if explanation.row[0][0] == "document" else f"field:{explanation.row[0][1]}"
        computed = recompute(explanation)
        for name in computed.keys() & {*dict(explanation.values)}:
            assert round(computed[name], 4) == rows[key][CRUX_NAMES.get(name, name)], (key, name)
    pairs = [i for e in explanations if e.row == (("document", "ALL"),) for i in e.items if i.kind == "pair"]
    for item in pairs:  # each line named holds the claim
        for where in item.where:
            line = Path(where.file).read_text().splitlines()[where.line - 1]
            assert line.split("\t")[1] in item.label, (where, item.label)


EXAMPLE = ROOT / "example-evaluation"
CRUX_RELATIONS = {
    "fixture": (CRUX / "system-relations.tab", CRUX / "gold-relations.tab"),
    **{
        f"example-{run}": (EXAMPLE / "crux" / run / "relations.tab", EXAMPLE / "crux" / "gold" / "relations.tab")
        for run in ("run1", "run2")
    },
}


@pytest.mark.parametrize("case", CRUX_RELATIONS)
def test_every_crux_relations_row_is_recomputed_from_its_explanation(case: str, tmp_path: Path) -> None:
    system, gold = CRUX_RELATIONS[case]
    command = ["score", "crux-relations", str(system), "--gold", str(gold), "--format", "json"]
    result = CliRunner().invoke(application(), [*command, "--explain", str(tmp_path)])
    assert result.exit_code == 0, result.output
    printed = json.loads(result.stdout)
    explanations = {e.row[0][1]: e for e in read_explanations(tmp_path)}
    assert set(explanations) == {"ALL", *printed["classes"]}
    for label, expected in printed["classes"].items():
        computed = recompute(explanations[label])
        assert {k: round(computed[k], 4) for k in expected} == expected, label
        # each gold pair the class counts is one of its row's confusion cells
        kinds = [i.kind for i in explanations[label].items]
        assert kinds.count("pair") == printed["confusion"].get(label, {}).get(label, 0)
        assert len(kinds) == sum(printed["confusion"].get(label, {}).values()) + sum(
            row.get(label, 0) for gold_label, row in printed["confusion"].items() if gold_label != label
        )
    # macro-F1 reads each class's F1 as its own row's explanation recomputes it
    classes = {i.label: i.value("f1") for i in explanations["ALL"].items if i.kind == "class"}
    assert classes == {label: recompute(explanations[label])["f1"] for label in printed["classes"]}
    computed = recompute(explanations["ALL"])
    assert (round(computed["macro_f1"], 4), round(computed["accuracy"], 4)) == (
        printed["macro_f1"],
        printed["accuracy"],
    )
    assert computed["instances"] == printed["instances"]
    assert [i.kind for i in explanations["ALL"].items].count("uncounted") == printed["unscored_rows"]
    for item in (i for i in explanations["ALL"].items if i.kind != "class"):  # each line holds the pair
        first, _, second = item.label.split(":")[0].split(" ")
        for where in item.where:
            cells = Path(where.file).read_text().splitlines()[where.line - 1].split("\t")
            assert {first, second} <= {c.strip() for c in cells}, (where, item.label)


def test_compare_says_which_queries_moved_and_by_which_items(tmp_path: Path) -> None:
    _need_m54()
    folder = TA2 / "W2"
    runs = []
    for name, plan in (("nist", False), ("plan", True)):
        scores = score_ta2(
            folder / "runW", folder / "queries_to_score.tab", folder / "LDC", AUX, plan=plan, explain=True
        )
        write_ta2(scores, tmp_path / name)
        runs.append(tmp_path / name)
    found = moves(explained_run(runs[0]), explained_run(runs[1]))
    # W2Q2's second mention is judged by W2Q1's line under NIST's scorer, by none of its own under the plan
    move = next(m for m in found if dict(m.row)["QueryID"] == "W2Q2")
    assert (round(move.before, 4), round(move.after, 4)) == (0.6667, 0.3333)
    result = CliRunner().invoke(application(), ["score", "compare", *map(str, runs), "--replications", "200"])
    assert result.exit_code == 0, result.output
    assert (
        "What moved" in result.stdout
        and "AcrossDocumentsCoreferenceMetricV2:W2Q2:Q2001  ap 0.6667 -> 0.3333" in result.stdout
    )


def _scored_example_ta1(out: Path) -> list[Path]:
    runs = []
    for run in ("run1", "run2"):
        folder = EXAMPLE / "ta1"
        layout = NistLayout(out / run)
        scores = score_ta1(
            folder / run,
            folder / "gold",
            folder / "AUX-data",
            on_document=layout.document,
            explain=True,
            **EXAMPLE_TYPE_TABLE_FILES,
        )
        layout.run(scores)
        write_explanations(out / run, "ta1", scores.explanations)
        runs.append(out / run)
    return runs


def test_compare_matches_rows_by_their_gold_side_and_says_so_in_json(tmp_path: Path) -> None:
    runs = _scored_example_ta1(tmp_path)
    found = moves(explained_run(runs[0]), explained_run(runs[1]))
    # one row per key: a gold cluster whose system cluster changed is one row that moved, not two
    assert len({(m.metric, m.row) for m in found}) == len(found)
    assert all("SystemClusterID" not in dict(m.row) for m in found)
    type_moves = {dict(m.row)["GoldClusterID"]: m for m in found if m.metric == "TypeMetricV4"}
    vaccination = type_moves["gold-vaccination"]
    assert (vaccination.before, vaccination.after, vaccination.systems) == (
        1.0,
        0.0,
        (("cluster-vaccination",), ("None",)),
    )
    assert [i.kind for i in vaccination.gained] == ["miss"] and "pair" in [i.kind for i in vaccination.lost]
    # a mention both runs pair, negated by one of them only: the same item, judged otherwise
    negated = next(m for m in found if m.metric == "NegationMetricV1" and m.changed)
    assert any(a.value("system_negated") != b.value("system_negated") for a, b in negated.changed)
    command = ["score", "compare", *map(str, runs), "--replications", "200"]
    result = CliRunner().invoke(application(), [*command, "--format", "json"])
    assert result.exit_code == 0, result.output
    moved = json.loads(result.stdout)["moved"]
    assert len(moved) == len(found)
    record = next(r for r in moved if r["metric"] == "TypeMetricV4" and r["row"]["GoldClusterID"] == "gold-vaccination")
    assert (record["a"], record["b"], record["system_a"], record["system_b"]) == (
        1.0,
        0.0,
        ["cluster-vaccination"],
        ["None"],
    )
    text = CliRunner().invoke(application(), command).stdout
    assert f"What moved ({len(found)} row(s) changed" in text
    first = ":".join([found[0].metric, *(v for _, v in found[0].row)])
    assert f"\n  {first}  {found[0].column} " in text


def _row(system: str, value: float, items: tuple[Item, ...] = ()) -> Explanation:
    key = (("DocID", "D1"), ("Language", "ENG"), ("Metatype", "Event"), ("GoldClusterID", "None"))
    return Explanation(
        "ta1", "TypeMetricV4", (*key, ("SystemClusterID", system)), (("type_similarity", value),), (), items
    )


def test_compare_moves_the_rows_of_unmatched_system_clusters_together() -> None:
    alarm = Item("false-alarm", "c3", (), (Source("system", "cluster", "run2/D1.ttl", 7),))
    found = moves([_row("c1", 0.0), _row("c2", 0.0)], [_row("d1", 0.0), _row("d2", 0.0), _row("c3", 0.0, (alarm,))])
    assert len(found) == 1
    assert (found[0].rows, found[0].before, found[0].after, found[0].gained) == ((2, 3), 0.0, 0.0, (alarm,))
    assert moves([_row("c1", 0.0)], [_row("d1", 0.0)]) == []  # the same row under another system name


def test_the_json_lines_are_what_json_s_encoder_writes_of_each_record(tmp_path: Path) -> None:
    encode = json.JSONEncoder(ensure_ascii=False).encode
    odd = Item(
        "pair",
        'a "quoted"\tlabel é \\ \u2028',
        (("x", 1), ("y", 0.1), ("z", float("nan")), ("w", float("-inf")), ("b", True), ("n", None), ("s", "é")),
        (
            Source("gold", "row", "g.tsv", 3),
            Source("system", "cluster", "é.ttl", None),
            Source("gold", "row", "g.tsv", 3),
        ),
    )
    twice = Item("miss", "x", (("v", 1), ("v", 2)), ())
    found = [Explanation("ta1", "M", (("DocID", "D"),), (("f1", 0.5),), (("f1", "0.5"),), (odd, twice))]
    scores = score_ta3(
        *(TA3 / "multi" / name for name in ("RUN1", "queries_to_score.tab", "claim-mappings.tab", "LDC")), explain=True
    )
    found += scores.explanations
    written = [line for e in found for line in lines(e)]
    expected = []
    for explanation in found:
        base = {"record": "item", "task": explanation.task, "metric": explanation.metric, "row": dict(explanation.row)}
        expected += [encode(row_record(explanation)) + "\n"]
        expected += [encode({**base, **item_fields(item)}) + "\n" for item in explanation.items]
    # a value named twice is written twice, and read as a dict keeps it
    assert written[2] == expected[2].replace('{"v": 2}', '{"v": 1, "v": 2}')
    assert json.loads(written[2]) == json.loads(expected[2])
    assert written[:2] + written[3:] == expected[:2] + expected[3:]


def test_a_damaged_step_is_one_line_naming_the_file(tmp_path: Path) -> None:
    # an explain/*.jsonl edited by hand: a step that is no expression is refused where it is read
    found = [Explanation("ta1", "M", (("DocID", "D"),), (("f1", 0.5),), (("f1", "1 +"),), ())]
    write_explanations(tmp_path, "ta1", found)
    result = subprocess.run(
        [sys.executable, "-m", "aifcheck", "score", "explain", str(tmp_path), "M"], capture_output=True, text=True
    )
    path = tmp_path / "explain" / "ta1.jsonl"
    assert result.returncode == 3, result.stderr
    assert result.stderr.splitlines() == [
        f"aifcheck: error: {path}: line 1: not a record of an explanation (not an expression: '1 +')"
    ]
