"""``aifcheck pipeline ta3``: NIST's TA3 docker stages on NIST's example task3 run.

The expected outputs: NIST's own SPARQL output for Condition 5 (../shared/data/m54/task3-expected),
and for the other stages the digests of what NIST's unmodified code (clean_sparql_output.py,
augment_output.py merge|handle, validate_responses.py, generate_arf.py, and its driver's
ClaimRankings for --depth) wrote from the same SPARQL output, run offline (Python 3.11): a digest
is the SHA-256 of every output file's path and bytes, logs aside (their lines hold times).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import SHARED_DATA
from tree_digest import digest

from aifcheck.errors import InputError, UsageError
from aifcheck.pipeline.shared.events import EventLog
from aifcheck.pipeline.ta3.clean import clean_cell
from aifcheck.pipeline.ta3.handle import handle
from aifcheck.pipeline.ta3.merge import merge
from aifcheck.pipeline.ta3.queries import read_user_queries
from aifcheck.pipeline.ta3.run import pipeline_ta3
from aifcheck.pipeline.ta3.select import parse_depth, select_frames
from aifcheck.pipeline.ta3.tables import StageTable, file_text
from aifcheck.render.ta3.pipeline import write_pipeline

RUN = SHARED_DATA / "task3-run"
EXPECTED = SHARED_DATA / "task3-expected"
QUERIES = SHARED_DATA / "user-queries"
AUX = SHARED_DATA / "ta1-scoring" / "AUX-data"
pytestmark = pytest.mark.skipif(not RUN.is_dir(), reason="NIST's example task3 run (../shared/data/m54) is absent")

# digests of NIST's code's output (see the module docstring)
NIST_FULL = "f08ca6f5781bc84cc3850d725e93b54c420c1a06b98c43cac518196848c5aaa8"  # also with an LTF folder
NIST_DEPTH1 = (
    "cd22be6aeed6b7759ccdf1f167f35a14f58f1a216650e405612ddf1cf353a3ed"  # --depth Condition5:1,Condition6:1,Condition7:1
)
# the example run changed, each through NIST's code
NIST_BAD_RELATION = "a93a0f5ad379b37b2d9511c513cd6ee9ba5ae0067629b6b639964b3090b929b2"
NIST_REPORT = "b221bf427181182b7337b5c0e091a0ec59dfb498b5a20c9641d968f220a6a1b8"
NIST_TOPIC = "8bc0216264e860d99d1e7daf4630638a20134ca43c0a1b62c8aec33561e72f12"
NIST_TIED_RANK = "024b2590114829f5ce0845042f152336935adca2714fbff0e8a6f50b676fb8c6"


def run_pipeline(run: Path, out: Path, **options) -> object:
    result = pipeline_ta3(run, QUERIES, AUX, out=str(out), **options)
    write_pipeline(result, out)
    return result


@pytest.fixture(scope="module")
def example(tmp_path_factory) -> tuple[object, Path]:
    out = tmp_path_factory.mktemp("example") / "out"
    return run_pipeline(RUN, out), out


def test_sparql_output_is_nist_s_with_the_rankings_copied_as_nist_copies_them(example) -> None:
    _, out = example
    for expected in (EXPECTED / "Condition5").rglob("*.tsv"):
        mine = out / "SPARQL-output" / expected.relative_to(EXPECTED)
        assert mine.read_bytes() == expected.read_bytes(), mine
    assert len(list((out / "SPARQL-output").rglob("*.rq.tsv"))) == 13 * 6


def test_every_stage_writes_nist_s_bytes(example) -> None:
    _result, out = example
    assert digest(out) == NIST_FULL
    assert sorted(p.name for p in out.iterdir()) == [
        "ARF-output",
        "SPARQL-AUGMENTED-output",
        "SPARQL-CLEAN-output",
        "SPARQL-MERGED-output",
        "SPARQL-VALID-output",
        "SPARQL-output",
        "logs",
    ]
    outer = (out / "ARF-output/Condition5/CLL0C04979A.000004/CLL0C04AJNP.001755-outer-claim.tab").read_text()
    assert outer.splitlines()[5] == "CLL0C04AJNP.001755\tclaimDocument\t1\tvalue\tL0C04AJNP\t--"
    assert outer.endswith("xVariable\t1\tec_similarity\tvalue\tNIL")  # NIST joins the lines: no final newline


def test_clean_keeps_the_fragment_of_an_iri() -> None:
    assert clean_cell("<https://example.org/x#EpistemicTrueCertain>") == "EpistemicTrueCertain"
    assert clean_cell('"a <https://e.org/o#Q> b"') == "Q"  # the whole cell becomes the fragment
    assert clean_cell("<http://e.org/o#Q>") == "<http://e.org/o#Q>"  # http:, not https:
    assert clean_cell("L0C04AJNP:L0C04ATJY:(0,0)-(0,0)") == "L0C04AJNP:L0C04ATJY:(0,0)-(0,0)"


def test_merge_puts_the_two_halves_of_the_graph_table_together(example) -> None:
    result, _ = example
    gr = {t.path: t for t in result.merged}[
        "Condition5/CLL0C04979A.000004/CLL0C04AJNP.001755.ttl/AIDA_P3_TA3_GR_0001.rq.tsv"
    ]
    clean = {t.path: t for t in result.clean}
    halves = [
        clean[f"Condition5/CLL0C04979A.000004/CLL0C04AJNP.001755.ttl/AIDA_P3_TA3_GR_0001{h}.rq.tsv"] for h in "AB"
    ]
    assert gr.rows == halves[0].rows + halves[1].rows and gr.header == halves[0].header
    assert len(gr.rows) > 0


def test_merge_names_a_missing_table() -> None:
    table = StageTable("Condition6/T1/C.ttl/AIDA_P3_TA3_GR_0001A.rq.tsv", "?docid", ())
    with pytest.raises(InputError, match="AIDA_P3_TA3_GR_0001B"):
        merge([table])


def test_validation_logs_what_nist_logs_and_drops_the_graph_table(example) -> None:
    result, out = example
    log = (out / "logs" / "validate-responses.log").read_text()
    assert log.count("UNKNOWN_RESPONSE_FILE_TYPE") == 13 and "validation finished (warnings:0, errors:13)" in log
    assert result.valid_claims == result.claims == 13
    assert not list((out / "SPARQL-VALID-output").rglob("AIDA_P3_TA3_GR_0001.rq.tsv"))
    assert any("22-column AIDA_P3_TA3_GR_0001" in w for w in result.warnings)
    assert "ARF generation finished (warnings:0, errors:0)" in (out / "logs" / "generate-arf.log").read_text()
    assert "no --ltf given, skipping replacing missing handle-span with text." in (out / "logs" / "run.log").read_text()


def test_depth_keeps_the_best_ranked_claims_and_their_ranking_lines(tmp_path: Path) -> None:
    out = tmp_path / "out"
    run_pipeline(RUN, out, depth="Condition5:1,Condition6:1,Condition7:1")
    assert digest(out) == NIST_DEPTH1
    assert (out / "SPARQL-output/Condition7/C314/C314.ranking.tsv").read_text() == "C314\tCLL0C04AJNP.001781\t1\n"
    assert len(list((out / "ARF-output").rglob("*-outer-claim.tab"))) == 6


def test_depth_is_parsed_per_condition() -> None:
    assert parse_depth("Condition6:2,Condition5:10") == {"Condition6": 2, "Condition5": 10}
    with pytest.raises(UsageError, match="'Condition8:1' is not ConditionN:DEPTH"):
        parse_depth("Condition8:1")


def _changed(tmp_path: Path, edit) -> Path:
    run = tmp_path / "run"
    shutil.copytree(RUN, run)
    edit(run)
    return run


def _sub(path: Path, old: str, new: str) -> None:
    path.write_text(path.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")


@pytest.mark.parametrize(
    ("case", "edit", "expected", "logged"),
    [
        (
            "bad relation",
            lambda r: _sub(
                r / "Condition5/CLL0C04979A.000004/CLL0C04979A.000004.ranking.tsv",
                "001807\t2\trelated",
                "001807\t2\tsupports",
            ),
            NIST_BAD_RELATION,
            "Unknown claim_relation 'supports' (expected one from {refuting, related, supporting})",
        ),
        (
            "invalid KB",
            lambda r: (r / "Condition7/C303/CLL0C04AJNP.001495-report.txt").write_text(""),
            NIST_REPORT,
            "Ignoring invalid KB: /Condition7/C303/CLL0C04AJNP.001495.ttl",
        ),
        (
            "unknown topic",
            lambda r: _sub(
                r / "Condition5/CLL0C04C08B.000004/CLL0C04AJNP.001443.ttl",
                'aida:topic "Non-Pharmaceutical Interventions (NPIs): Masks"',
                'aida:topic "Masks"',
            ),
            NIST_TOPIC,
            "Unexpected topic 'Masks' for claim Condition5:CLL0C04C08B.000004:CLL0C04AJNP.001443",
        ),
        (
            "tied rank",
            lambda r: (r / "Condition7/C314/C314.ranking.tsv").write_text(
                "C314\tCLL0C04AJNP.001781\t2\nC314\tCLL0C04AJNP.001807\t2\nCLL0C04AJNP.001781\tQ999\t1\n"
            ),
            NIST_TIED_RANK,
            "Skipping /Condition7/C314/CLL0C04AJNP.001781.ttl",
        ),
    ],
)
def test_a_changed_run_gives_what_nist_s_code_gives(
    tmp_path: Path, case: str, edit, expected: str, logged: str
) -> None:
    out = tmp_path / "out"
    run_pipeline(_changed(tmp_path, edit), out)
    assert digest(out) == expected, case
    assert logged in "".join(p.read_text() for p in (out / "logs").iterdir())


def test_a_frame_whose_name_is_not_its_claim_is_left_out_where_nist_stops(tmp_path: Path) -> None:
    def rename(run: Path) -> None:
        folder = run / "Condition6/T301"
        (folder / "CLL0C049LVH.001531.ttl").rename(folder / "CLL0C049LVH.009999.ttl")
        _sub(folder / "T301.ranking.tsv", "001531", "009999")

    result = run_pipeline(_changed(tmp_path, rename), tmp_path / "out")
    assert result.valid_claims == 12 and any("has no outer claim row" in w for w in result.warnings)
    log = (tmp_path / "out/logs/validate-responses.log").read_text()
    assert "Unexpected claim ID 'CLL0C049LVH.001531' (expected 'CLL0C049LVH.009999')" in log


def test_handle_fills_missing_handles_from_the_ltf_files(tmp_path: Path) -> None:
    """The expected rows and log lines are NIST's (augment_output.py handle), but for the last row,
    whose LTF file is missing: NIST stops there; the handle is kept."""
    (tmp_path / "E1.ltf.xml").write_text(
        '<LCTL_TEXT>\n<SEG id="segment-0" start_char="0" end_char="20">\n'
        "<ORIGINAL_TEXT>The mayor of Paris said</ORIGINAL_TEXT>\n"
        '</SEG>\n<SEG id="segment-1" start_char="24" end_char="40">\n'
        "<ORIGINAL_TEXT>Masks are required.</ORIGINAL_TEXT>\n</SEG>\n"
    )
    table = StageTable(
        "Condition5/Q/C.ttl/T.rq.tsv",
        "?docid\t?objectc_handle\t?oinf_j_span",
        (
            ("D1", "[unknown]", "D1:E1:(4,0)-(8,0)"),
            ("D1", "", "D1:E1:(24,0)-(28,0)"),
            ("D1", "D1:E1:(13,0)-(17,0)", "NULL"),
            ("D1", "Paris", "D1:E1:(13,0)-(17,0)"),
            ("D1", '""', "D1:E9:(1,0)-(2,0)"),
        ),
    )
    log = EventLog("augment_output.py")
    (handled,) = handle([table], tmp_path, log, "VALID")
    assert file_text(handled) == (
        "?docid\t?objectc_handle\t?oinf_j_span\nD1\tmayor\tD1:E1:(4,0)-(8,0)\n"
        "D1\tMasks\tD1:E1:(24,0)-(28,0)\nD1\tParis\tNULL\nD1\tParis\tD1:E1:(13,0)-(17,0)\n"
        'D1\t""\tD1:E9:(1,0)-(2,0)\n'
    )
    assert [e.message.split(" - ")[2] for e in log.events] == [
        "replacing missing handle '[unknown]' with text 'mayor'",
        "replacing missing handle '' with text 'Masks'",
        "replacing handle span 'D1:E1:(13,0)-(17,0)' with text 'Paris'",
        "handle '\"\"' found to be missing but no replacements made",
    ]
    assert log.events[0].where == "VALID/Condition5/Q/C.ttl/T.rq.tsv:2"


def test_the_pipeline_with_ltf_files_runs_the_handle_stage(tmp_path: Path) -> None:
    (tmp_path / "ltf").mkdir()
    result = run_pipeline(RUN, tmp_path / "out", ltf=tmp_path / "ltf")
    assert result.handled and digest(tmp_path / "out") == NIST_FULL
    assert (tmp_path / "out/logs/augment-handle-output.log").is_file()


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (
            lambda r: (r / "Condition6/T301/T301.ranking.tsv").write_text("T301\tCLL0C049LVH.001531\tfirst\n"),
            "Condition6/T301/T301.ranking.tsv:1: rank 'first' of CLL0C049LVH.001531 is not a whole number",
        ),
        (
            lambda r: (r / "Condition5/CLL0C04C08B.000004/CLL0C04C08B.000004.ranking.tsv").write_text(
                "CLL0C04C08B.000004\tCLL0C04AJNP.001443\t1\n"
            ),
            "CLL0C04C08B.000004.ranking.tsv:1: 3 columns, expected 4 in Condition5",
        ),
        (
            lambda r: (r / "Condition6/T301/T301.ranking.tsv").write_bytes(b"T301\t\xff\n"),
            "T301.ranking.tsv:1: not UTF-8 text",
        ),
        (
            lambda r: (r / "Condition6/extra.ttl").write_text(""),
            "Condition6/extra.ttl: not at ConditionN/<query>/<file>",
        ),
        (lambda r: (r / "Condition6/T301").rename(r / "Condition6/T999"), "unexpected topic 'T999'"),
        (
            lambda r: (r / "Condition6/T301/CLL0C049LVH.001531.ttl").write_text("<a> <b> <c> .\n<c> <d"),
            "Condition6/T301/CLL0C049LVH.001531.ttl:2",
        ),
        (
            lambda r: _sub(
                r / "Condition5/CLL0C04979A.000004/CLL0C04979A.000004.ranking.tsv",
                "001807\t2\trelated",
                "001807\t1\tsupporting",
            ),
            "SPARQL-MERGED-output/Condition5/CLL0C04979A.000004/CLL0C04979A.000004.ranking.tsv:2: "
            "rank 1 is also given to",
        ),
    ],
)
def test_bad_input_is_one_line_naming_the_file_and_line(tmp_path: Path, edit, message: str) -> None:
    run = _changed(tmp_path, edit)
    with pytest.raises(InputError) as caught:
        pipeline_ta3(run, QUERIES, AUX, out=str(tmp_path / "out"))
    assert message in str(caught.value) and "\n" not in str(caught.value)


def test_bad_user_queries_and_aux_are_named(tmp_path: Path) -> None:
    queries = tmp_path / "queries"
    shutil.copytree(QUERIES, queries)
    (queries / "Condition7/topics.tsv").write_text("C303\n")
    with pytest.raises(InputError, match=r"Condition7/topics.tsv:1: 1 columns, expected 2"):
        read_user_queries(queries)
    with pytest.raises(UsageError, match=r"no \*parent_children\.tsv"):
        pipeline_ta3(RUN, QUERIES, tmp_path, out="out")


def test_unranked_frames_are_left_out_with_a_warning(tmp_path: Path) -> None:
    run = _changed(
        tmp_path, lambda r: shutil.copy(r / "Condition6/T301/CLL0C049LVH.001531.ttl", r / "Condition6/T301/X.ttl")
    )
    selection = select_frames(run, read_user_queries(QUERIES))
    assert "Skipping /Condition6/T301/X.ttl" in selection.messages
    assert any("X.ttl: no ranking line" in w for w in selection.warnings)


def aifcheck(*args: object, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "aifcheck", *map(str, args)], capture_output=True, text=True, timeout=600, cwd=cwd
    )


def test_the_installed_command(tmp_path: Path) -> None:
    out = tmp_path / "out"
    done = aifcheck("pipeline", "ta3", RUN, "--user-queries", QUERIES, "--aux", AUX, "-o", out)
    assert done.returncode == 0, done.stderr
    assert "handle: skipped (no --ltf)" in done.stdout and "ARF-output: 13 claims" in done.stdout
    assert digest(out) == NIST_FULL
    again = aifcheck("pipeline", "ta3", RUN, "--user-queries", QUERIES, "--aux", AUX, "-o", out)
    assert again.returncode == 2 and "not empty (--force replaces it)" in again.stderr
    bad = _changed(tmp_path, lambda r: (r / "Condition6/T301/T301.ranking.tsv").write_text("T301\tx\tfirst\n"))
    failed = aifcheck(
        "pipeline", "ta3", bad, "--user-queries", QUERIES, "--aux", AUX, "-o", tmp_path / "out2", "--force"
    )
    assert failed.returncode == 3 and len(failed.stderr.splitlines()) == 1 and "Traceback" not in failed.stderr
    assert not (tmp_path / "out2").exists() and not list(tmp_path.glob(".out2*"))
