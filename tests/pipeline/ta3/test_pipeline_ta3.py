"""``aifcheck pipeline ta3``: NIST's TA3 docker stages on NIST's example task3 run.

The expected outputs are digests of what NIST's unmodified code at AIDAED-v2022.1.1
(clean_sparql_output.py, augment_output.py merge|handle, validate_responses.py, generate_arf.py,
and its driver's ClaimRankings for --depth) wrote, run offline (Python 3.11), from aifcheck's
SPARQL-output: a digest is the SHA-256 of every output file's path and bytes, logs aside (their
lines hold times).

- The tag's queries (the default, TAG_*): the stages were run by the offline oracle's driver
  (run_nist_stages.py ta3 SPARQL-output OUT: NIST's scripts as subprocesses with its docker's
  arguments; the driver is not in this repository) on aifcheck's SPARQL-output, which equals,
  file for file, what an independent run of NIST's own tag queries gives (rdflib with NIST's
  custom SPARQL functions re-implemented from its jars; GR rows sorted, as aifcheck prints them,
  since GraphDB's order is not known).
- The March 2022 queries (``query_set="march-2022"``, MARCH_*): NIST's own stored SPARQL output for
  Condition 5 (../shared/data/m54/task3-expected) is reproduced byte for byte, and the later stages
  as NIST's code writes them from it.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from functools import partial
from pathlib import Path

import pytest
from helpers import AUX_DATA as AUX
from helpers import NEEDS_TA3_RUN, SHARED_DATA, installed
from helpers import TA3_RUN as RUN
from helpers import USER_QUERIES as QUERIES
from tree_digest import digest

from aifcheck.errors import InputError, UsageError
from aifcheck.loading.tsv import TsvTable
from aifcheck.pipeline.shared.clean import clean_cell
from aifcheck.pipeline.shared.events import EventLog
from aifcheck.pipeline.ta3.handle import handle
from aifcheck.pipeline.ta3.merge import merge
from aifcheck.pipeline.ta3.queries import read_user_queries
from aifcheck.pipeline.ta3.run import pipeline_ta3
from aifcheck.pipeline.ta3.select import parse_depth, select_frames
from aifcheck.render.ta3.pipeline import write_pipeline
from aifcheck.render.tables import stage_text

EXPECTED = SHARED_DATA / "task3-expected"
pytestmark = NEEDS_TA3_RUN

# digests of NIST's code's output (see the module docstring)
# (also with an LTF folder: every handle is there, so the handle stage changes nothing)
TAG_FULL = "7b96dade7acc244a98c571186bbecadd6429e72f048193c1ed7c8991ce83ceba"
TAG_DEPTH1 = (
    "3bd8631e5b0ad001530701636fb0d39809b51313847bb554af960f9975e83f9b"  # --depth Condition5:1,Condition6:1,Condition7:1
)
MARCH_FULL = "f08ca6f5781bc84cc3850d725e93b54c420c1a06b98c43cac518196848c5aaa8"  # also with an LTF folder
MARCH_DEPTH1 = "cd22be6aeed6b7759ccdf1f167f35a14f58f1a216650e405612ddf1cf353a3ed"
# the example run changed, each through NIST's code
TAG_BAD_RELATION = "96b0a5e4e933905eae441cb22f252561ce3d9d942ded3451d8eae41f06663a7e"
TAG_REPORT = "7915dfd98c8c9db82dd4e17a2e03510ad4b644d5c22f28726dc607ba6220c674"
TAG_TOPIC = "b85d1f23981d39e190e04f8de32482d46d21c39a11c362b6f1636e58570d6287"
TAG_TIED_RANK = "c8fddcd6763959f817966805afe5ee12fae40b4ad977511d9c8d57199fab402b"


def run_pipeline(run: Path, out: Path, **options) -> object:
    result = pipeline_ta3(run, QUERIES, AUX, out=str(out), **options)
    write_pipeline(result, out)
    return result


@pytest.fixture(scope="module")
def example(tmp_path_factory) -> tuple[object, Path]:
    out = tmp_path_factory.mktemp("example") / "out"
    return run_pipeline(RUN, out), out


@pytest.fixture(scope="module")
def march(tmp_path_factory) -> tuple[object, Path]:
    out = tmp_path_factory.mktemp("march") / "out"
    return run_pipeline(RUN, out, query_set="march-2022"), out


def test_the_march_2022_queries_give_nist_s_stored_sparql_output(march) -> None:
    result, out = march
    for expected in (EXPECTED / "Condition5").rglob("*.tsv"):
        mine = out / "SPARQL-output" / expected.relative_to(EXPECTED)
        assert mine.read_bytes() == expected.read_bytes(), mine
    assert len(list((out / "SPARQL-output").rglob("*.rq.tsv"))) == 13 * 6
    # and the stages after it as NIST's code runs them, which does not read their 22-column GR table
    assert digest(out) == MARCH_FULL
    log = (out / "logs" / "validate-responses.log").read_text()
    assert log.count("UNKNOWN_RESPONSE_FILE_TYPE") == 13 and "validation finished (warnings:0, errors:13)" in log
    assert not list((out / "SPARQL-VALID-output").rglob("AIDA_P3_TA3_GR_0001.rq.tsv"))
    assert any("22-column AIDA_P3_TA3_GR_0001" in w for w in result.warnings)
    raw = out / "ARF-output/Condition5/CLL0C04979A.000004/CLL0C04AJNP.001755-raw-kes.tab"
    assert raw.read_text().count("\n") == 1


def test_every_stage_writes_nist_s_bytes(example) -> None:
    _result, out = example
    assert digest(out) == TAG_FULL
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
    assert [r.cells for r in gr.rows] == [r.cells for r in halves[0].rows + halves[1].rows]
    assert gr.columns == halves[0].columns and [r.line for r in gr.rows] == list(range(2, len(gr.rows) + 2))
    assert len(gr.rows) > 0


def test_merge_names_a_missing_table() -> None:
    table = TsvTable.numbered("Condition6/T1/C.ttl/AIDA_P3_TA3_GR_0001A.rq.tsv", ("?docid",), ())
    with pytest.raises(InputError, match="AIDA_P3_TA3_GR_0001B"):
        merge([table])


def test_validation_reads_the_graph_tables_and_the_arf_holds_the_kes(example) -> None:
    result, out = example
    log = (out / "logs" / "validate-responses.log").read_text()
    assert "UNKNOWN_RESPONSE_FILE_TYPE" not in log and "validation finished (warnings:3, errors:0)" in log
    assert log.count("SPAN_OFF_BOUNDARY_CORRECTED - Correcting span '(0,0)-(0,0)'") == 3
    assert result.valid_claims == result.claims == 13 and not result.warnings
    assert len(list((out / "SPARQL-VALID-output").rglob("AIDA_P3_TA3_GR_0001.rq.tsv"))) == 13
    assert "ARF generation finished (warnings:0, errors:0)" in (out / "logs" / "generate-arf.log").read_text()
    kes = [p.read_text().splitlines()[1:] for p in (out / "ARF-output").rglob("*-raw-kes.tab")]
    assert len(kes) == 13 and all(kes)
    rows = [row for claim in kes for row in claim]
    assert len(rows) == 127 and sum("::Time::TIME" in row for row in rows) == 3  # 124 edges, 3 times
    assert all(
        p.read_text().startswith(("Event:", "Relation:")) for p in (out / "ARF-output").rglob("*-readable-kes.txt")
    )
    assert "no --ltf given, skipping replacing missing handle-span with text." in (out / "logs" / "run.log").read_text()


def test_depth_keeps_the_best_ranked_claims_and_their_ranking_lines(tmp_path: Path) -> None:
    out = tmp_path / "out"
    run_pipeline(RUN, out, depth="Condition5:1,Condition6:1,Condition7:1")
    assert digest(out) == TAG_DEPTH1
    assert (out / "SPARQL-output/Condition7/C314/C314.ranking.tsv").read_text() == "C314\tCLL0C04AJNP.001781\t1\n"
    assert len(list((out / "ARF-output").rglob("*-outer-claim.tab"))) == 6
    march = tmp_path / "march"
    run_pipeline(RUN, march, depth="Condition5:1,Condition6:1,Condition7:1", query_set="march-2022")
    assert digest(march) == MARCH_DEPTH1


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
            TAG_BAD_RELATION,
            "Unknown claim_relation 'supports' (expected one from {refuting, related, supporting})",
        ),
        (
            "invalid KB",
            lambda r: (r / "Condition7/C303/CLL0C04AJNP.001495-report.txt").write_text(""),
            TAG_REPORT,
            "Ignoring invalid KB: /Condition7/C303/CLL0C04AJNP.001495.ttl",
        ),
        (
            "unknown topic",
            lambda r: _sub(
                r / "Condition5/CLL0C04C08B.000004/CLL0C04AJNP.001443.ttl",
                'aida:topic "Non-Pharmaceutical Interventions (NPIs): Masks"',
                'aida:topic "Masks"',
            ),
            TAG_TOPIC,
            "Unexpected topic 'Masks' for claim Condition5:CLL0C04C08B.000004:CLL0C04AJNP.001443",
        ),
        (
            "tied rank",
            lambda r: (r / "Condition7/C314/C314.ranking.tsv").write_text(
                "C314\tCLL0C04AJNP.001781\t2\nC314\tCLL0C04AJNP.001807\t2\nCLL0C04AJNP.001781\tQ999\t1\n"
            ),
            TAG_TIED_RANK,
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
    table = TsvTable.numbered(
        "Condition5/Q/C.ttl/T.rq.tsv",
        ("?docid", "?objectc_handle", "?oinf_j_span"),
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
    assert stage_text(handled) == (
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
    assert result.handled and digest(tmp_path / "out") == TAG_FULL
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
            "T301.ranking.tsv:1:6: not UTF-8 (byte 0xff)",
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
    with pytest.raises(InputError, match=r"Condition7/topics\.tsv:1: 1 columns, expected 2"):
        read_user_queries(queries)
    with pytest.raises(InputError, match=r"no file ending in '\.coredocs\.txt'"):
        pipeline_ta3(RUN, QUERIES, tmp_path, out="out")


def test_unranked_frames_are_left_out_with_a_warning(tmp_path: Path) -> None:
    run = _changed(
        tmp_path, lambda r: shutil.copy(r / "Condition6/T301/CLL0C049LVH.001531.ttl", r / "Condition6/T301/X.ttl")
    )
    selection = select_frames(run, read_user_queries(QUERIES))
    assert "Skipping /Condition6/T301/X.ttl" in selection.messages
    assert any("X.ttl: no ranking line" in w for w in selection.warnings)


aifcheck = partial(installed, timeout=600)


def test_the_installed_command(tmp_path: Path) -> None:
    out = tmp_path / "out"
    done = aifcheck("pipeline", "ta3", RUN, "--user-queries", QUERIES, "--aux", AUX, "-o", out)
    # 0: NIST's validator at the tag takes each of NIST's example claim frames (its 26-column GR table)
    assert done.returncode == 0, done.stderr
    assert " - ERROR - " not in (out / "logs" / "validate-responses.log").read_text(encoding="utf-8")
    assert "handle: skipped (no --ltf)" in done.stdout and "ARF-output: 13 claims" in done.stdout
    assert digest(out) == TAG_FULL and not done.stderr
    kes = (out / "ARF-output/Condition5/CLL0C04979A.000004/CLL0C04AJNP.001755-raw-kes.tab").read_text().splitlines()
    assert kes[1].startswith("CLL0C04AJNP.001755\t1\tcluster-NILCVML0C04AJNP.002966::A0_pag__complier::")
    march = aifcheck(
        "pipeline",
        "ta3",
        RUN,
        "--user-queries",
        QUERIES,
        "--aux",
        AUX,
        "-o",
        tmp_path / "march",
        "--query-set",
        "march-2022",
    )
    assert (
        march.returncode == 1 and digest(tmp_path / "march") == MARCH_FULL
    )  # (1: NIST's validator logs its GR tables)
    assert "22-column AIDA_P3_TA3_GR_0001" in march.stderr
    wrong = aifcheck(
        "pipeline", "ta3", RUN, "--user-queries", QUERIES, "--aux", AUX, "-o", tmp_path / "x", "--query-set", "may"
    )
    assert wrong.returncode == 2 and "'may' is not one of 'tag', 'march-2022'" in wrong.stderr
    again = aifcheck("pipeline", "ta3", RUN, "--user-queries", QUERIES, "--aux", AUX, "-o", out)
    assert again.returncode == 2 and "not empty (--force replaces it)" in again.stderr
    bad = _changed(tmp_path, lambda r: (r / "Condition6/T301/T301.ranking.tsv").write_text("T301\tx\tfirst\n"))
    failed = aifcheck(
        "pipeline", "ta3", bad, "--user-queries", QUERIES, "--aux", AUX, "-o", tmp_path / "out2", "--force"
    )
    assert failed.returncode == 3 and len(failed.stderr.splitlines()) == 1 and "Traceback" not in failed.stderr
    assert not (tmp_path / "out2").exists() and not list(tmp_path.glob(".out2*"))


# ---- one claim frame of NIST's example run, edited: the graph tables' cases -------------------------
C5 = ("Condition5", "CLL0C04979A.000004", "CLL0C04AJNP.001755")
C7 = ("Condition7", "C314", "CLL0C04AJNP.001781")
SHARED = "_:n14cf38cff1eb4dcc9df7e312ceef883ab17"  # the compound justification of C5's edges


def one_frame(folder: Path, base: tuple[str, str, str], edit: Callable[[str], str]) -> Path:
    """A TA3 run of one claim frame of NIST's example run, its text edited, ranked first."""
    condition, query, frame = base
    target = folder / condition / query
    target.mkdir(parents=True)
    text = (RUN / condition / query / f"{frame}.ttl").read_text(encoding="utf-8")
    (target / f"{frame}.ttl").write_text(edit(text), encoding="utf-8")
    relation = "\trelated" if condition == "Condition5" else ""
    (target / f"{query}.ranking.tsv").write_text(f"{query}\t{frame}\t1{relation}\n", encoding="utf-8")
    return folder


def justify(text: str, subject: str, role: str, argument: str, by: str | None) -> str:
    """The edge between two prototypes (V.../E... without ``cluster-NILC``) justified by ``by``, or by nothing."""
    edge = re.compile(
        rf"(rdf:object ldc:cluster-NILC{argument}-prototype ;\n    rdf:predicate \"{role}\" ;\n"
        rf"    rdf:subject ldc:cluster-NILC{subject}-prototype ;\n    aida:confidence ldc:confidence ;\n)"
        r"    aida:justifiedBy \S+ ;\n"
    )
    changed, found = edge.subn(rf"\g<1>    aida:justifiedBy {by} ;\n" if by else r"\g<1>", text)
    assert found == 1, (subject, role, argument)
    return changed


def compound(label: str, spans: list[tuple[int, int]], document: str = "L0C04AJNP", element: str = "L0C04ATJY") -> str:
    """A compound justification of text spans, as Turtle."""
    parts = [f"{label}_{i}" for i in range(len(spans))]
    lines = [
        f"{label} a aida:CompoundJustification ; aida:confidence ldc:confidence ; "
        f"aida:containedJustification {', '.join(parts)} ."
    ]
    lines += [span(part, start, end, document, element) for part, (start, end) in zip(parts, spans, strict=True)]
    return "\n".join(lines) + "\n"


def span(
    label: str,
    start: int,
    end: int,
    document: str = "L0C04AJNP",
    element: str = "L0C04ATJY",
    confidence: str = "ldc:confidence",
) -> str:
    return (
        f'{label} a aida:TextJustification ; aida:confidence {confidence} ; aida:source "{element}" ; '
        f'aida:sourceDocument "{document}" ; aida:startOffset {start} ; aida:endOffsetInclusive {end} .\n'
    )


def time(label: str, *bounds: str) -> str:
    """An aida:LDCTime of four YYYY-MM-DD bounds: start after, start before, end after, end before."""
    parts = []
    for (which, kind), bound in zip(
        (("start", "AFTER"), ("start", "BEFORE"), ("end", "AFTER"), ("end", "BEFORE")), bounds, strict=True
    ):
        year, month, day = bound.split("-")
        parts.append(
            f'aida:{which} [ a aida:LDCTimeComponent ; aida:timeType "{kind}" ; aida:year "{year}"^^xsd:gYear ; '
            f'aida:month "--{month}"^^xsd:gMonth ; aida:day "---{day}"^^xsd:gDay ]'
        )
    return f"{label} a aida:LDCTime ; " + " ; ".join(parts) + " .\n"


EVENT_HANDLE = 'ldc:cluster-NILCVML0C04AJNP.002554-prototype aida:handle "wearing masks event" .\n'
COMPLIED = ("VML0C04AJNP.002310", "A1_ppt___complied_with", "EML0C04AJNP.002082")
PIVOT = ("VML0C04AJNP.002554", "A0_pag_pivot_wearer", "EML0C04AJNP.002097")
UTTERANCE = ("VML0C04AJNP.002574", "A1_ppt_topic_utterance", "VML0C04AJNP.002554")
ASSOCIATED = "aida:associatedKEs ldc:cluster-NILCVML0C04AJNP.002310,\n        ldc:cluster-NILCVML0C04AJNP.002554,"
A = "Condition5/CLL0C04979A.000004/CLL0C04AJNP.001755.ttl/AIDA_P3_TA3_GR_0001A.rq.tsv"
B = A.replace("0001A", "0001B")
RAW = "ARF-output/Condition5/CLL0C04979A.000004/CLL0C04AJNP.001755-raw-kes.tab"

# (case, frame, edit, digest of NIST's code's output, a file of OUT, what it holds)
GRAPH_CASES: list[tuple[str, tuple[str, str, str], Callable[[str], str], str, str, str]] = [
    (
        "an event argument with a justification is in GR_0001A",
        C5,
        lambda t: t + EVENT_HANDLE,
        "0a04e0ab81e1c42a7d779e9e3ef12c122317bd00dce3a120a70323da973efa16",
        f"SPARQL-output/{A}",
        "A1_ppt_topic_utterance",
    ),
    (
        "an edge without justification is in GR_0001B, its span and confidence NULL",
        C5,
        lambda t: justify(t, *PIVOT, None),
        "113004234ca856534dbb0dcb3f5006194fa3e7a34f890fa77ef2d749740e47a6",
        "logs/validate-responses.log",
        "Invalid confidence value 'NULL' (using 1.0)",
    ),
    (
        "an event argument without justification",
        C5,
        lambda t: justify(t, *UTTERANCE, None) + EVENT_HANDLE,
        "12fdc52f8083817ac8bf0052f4b5bdcc80e2e89b63ca9d57da036829e3b1cfe2",
        f"SPARQL-output/{B}",
        "A1_ppt_topic_utterance",
    ),
    (
        "two spans are one row, the lower first",
        C5,
        lambda t: justify(t, *COMPLIED, "_:gr1") + compound("_:gr1", [(30, 40), (10, 20)]),
        "3cf7e0196c19af5975effb52bce9e1305e0858cbbbb448fdae83e1e7f3e26f6b",
        RAW,
        "\tL0C04AJNP:L0C04ATJY:(10,0)-(20,0);L0C04AJNP:L0C04ATJY:(30,0)-(40,0)\t",
    ),
    (
        "one span twice is one span",
        C5,
        lambda t: justify(t, *COMPLIED, "_:gr1") + compound("_:gr1", [(10, 20), (10, 20)]),
        "9bb3ecf412a7abdd55d8e4bcd09700f0e3c0b682501a8b9a7db4081e4f29b817",
        f"SPARQL-output/{A}",
        "\tL0C04AJNP:L0C04ATJY:(10,0)-(20,0)\tmask mandate",
    ),
    (
        "three spans are three rows, one per pair",
        C5,
        lambda t: justify(t, *COMPLIED, "_:gr1") + compound("_:gr1", [(10, 20), (30, 40), (50, 60)]),
        "591f7d0d6a478cf476d5c433edfffdad180b2439da143761a03203f54288ba6e",
        f"SPARQL-output/{A}",
        "\tL0C04AJNP:L0C04ATJY:(30,0)-(40,0);L0C04AJNP:L0C04ATJY:(50,0)-(60,0)\t",
    ),
    (
        "a pair of spans is not corrected: a span outside its element makes the row invalid",
        C5,
        lambda t: justify(t, *COMPLIED, "_:gr1") + compound("_:gr1", [(0, 0), (10, 20)]),
        "3ae2d5803f82b690adaa34dbff943bad7ed2d0430e451c905dc2ab010d9e54cc",
        "logs/validate-responses.log",
        "Cannot correct therefore removing span '(0,0)-(0,0)' because it is outside the boundary '(1,0)-(5941,0)'",
    ),
    (
        "the claim-association flags follow associatedKEs and claimSemantics, and filter nothing",
        C7,
        lambda t: (
            t.replace(ASSOCIATED, "aida:associatedKEs ldc:cluster-NILCVML0C04AJNP.002554,")
            + "ldc:claim-CLL0C04AJNP.001781 aida:associatedKEs ldc:cluster-NILCEML0C04AJNP.002097, "
            "ldc:cluster-NILCEML0C04AJNP.002082 ; aida:claimSemantics ldc:cluster-NILCEML0C04AJNP.002092, "
            "ldc:cluster-NILCEML0C04AJNP.002082 .\n"
        ),
        "42cd3c7a709a6b2ed4bfd4788c91a90a18717ca46316fcf786332e0e5509d896",
        "SPARQL-VALID-output/Condition7/C314/CLL0C04AJNP.001781.ttl/AIDA_P3_TA3_GR_0001.rq.tsv",
        "cluster-NILCVML0C04AJNP.002310\tNotAssociatedKE\tNotInClaimSemantics",
    ),
    (
        "a Condition 7 claim with an xVariable",
        C7,
        lambda t: (
            t + "ldc:claim-CLL0C04AJNP.001781 aida:xVariable [ a aida:ClaimComponent ; aida:componentIdentity "
            '"EMPTY_TBD" ; aida:componentName "Walmart store" ; aida:componentType "Q57334497" ] .\n'
        ),
        "e8b0637ed0cf99cf19cb978010a7c047ef156d991e9d10d5d71fd361456d37f2",
        "ARF-output/Condition7/C314/CLL0C04AJNP.001781-outer-claim.tab",
        "xVariable\t1\tname\tWalmart store",
    ),
    (
        "rows of another document than the claim's, or of an unknown one, are invalid",
        C5,
        lambda t: (
            justify(
                justify(t, "VML0C04AJNP.002310", "AM_loc__location", "EML0C04AJNP.002092", "_:gr2"),
                "VML0C04AJNP.002966",
                "AM_loc__location",
                "EML0C04AJNP.002990",
                "_:gr3",
            )
            + compound("_:gr2", [(100, 110)], "L0C0492UF", "L0C04958V")
            + compound("_:gr3", [(100, 110)], "L0C0XXXXX", "L0C0YYYYY")
            + "ldc:cluster-NILCEML0C04AJNP.002092-prototype aida:informativeJustification _:gr4 .\n"
            + span("_:gr4", 200, 210, "L0C0492UF", "L0C04958V")
            + "ldc:cluster-NILCEML0C04AJNP.002990-prototype aida:informativeJustification _:gr5 .\n"
            + span("_:gr5", 200, 210, "L0C0XXXXX", "L0C0YYYYY")
        ),
        "e300d99ac7600e04ba87ee08792cd7f53ad8a823ae8ae6b6e83a940d1b1a7652",
        "logs/validate-responses.log",
        "Unexpected document (expected 'L0C04AJNP', provided 'L0C0492UF)",
    ),
    (
        "an entity subject is invalid; negations are printed; a confidence above 1 becomes 1.0",
        C5,
        lambda t: (
            t + "[] a aida:ArgumentStatement ; rdf:subject ldc:cluster-NILCEML0C04AJNP.002082-prototype ; "
            'rdf:predicate "A0_pag_holder" ; rdf:object ldc:cluster-NILCEML0C04AJNP.002097-prototype ; '
            f"aida:attributes aida:Negated ; aida:confidence ldc:confidence ; aida:justifiedBy {SHARED} .\n"
            "ldc:cluster-NILCEML0C04AJNP.002082-prototype aida:attributes aida:Negated .\n"
            "ldc:cluster-NILCEML0C04AJNP.002097-prototype aida:informativeJustification _:gr6 .\n"
            + span("_:gr6", 100, 110, confidence="_:gr7")
            + '_:gr7 a aida:Confidence ; aida:confidenceValue "1.5"^^xsd:double .\n'
        ),
        "b436590c3cc264382fb1ab00e0a43961fda2fb83e0deff7f6a4aacbc690f1ef8",
        "logs/validate-responses.log",
        "Invalid confidence value '1.5' (using 1.0)",
    ),
    (
        "times: the first TM row of an edge's subject in raw-kes, the last in readable-kes",
        C5,
        lambda t: (
            t.replace(
                "ldc:cluster-NILCVML0C04AJNP.002310-prototype a aida:Event ;\n"
                "    aida:informativeJustification _:n14cf38cff1eb4dcc9df7e312ceef883ab18 ;\n"
                "    aida:ldcTime _:n14cf38cff1eb4dcc9df7e312ceef883ab47 ;",
                "ldc:cluster-NILCVML0C04AJNP.002310-prototype a aida:Event ;\n"
                "    aida:informativeJustification _:n14cf38cff1eb4dcc9df7e312ceef883ab18 ;\n"
                "    aida:ldcTime _:gr8 ;",
            )
            + time("_:gr8", "2020-03-15", "2020-04-01", "2020-05-01", "9999-12-31")
            + "ldc:cluster-NILCVML0C04AJNP.002966-prototype aida:ldcTime _:gr9 .\n"
            + time("_:gr9", "2021-01-01", "2021-01-31", "0001-01-01", "9999-12-31")
        ),
        "116b982eb2c323709dac9e05e6c2dc38d366ba911ae9fe2b2f2844b0b3dd08e2",
        RAW,
        # 11 edges, then their times: unconstrained ones take numbers 12 to 15, a repeated one none
        "\t16\tcluster-NILCVML0C04AJNP.002310::Time::TIME\tTime\tNotNegated\tEvent\tQ1399332\t",
    ),
]


@pytest.mark.parametrize(
    ("base", "edit", "expected", "file", "holds"), [pytest.param(*case[1:], id=case[0]) for case in GRAPH_CASES]
)
def test_each_graph_case_gives_what_nist_s_code_gives(
    tmp_path: Path, base: tuple[str, str, str], edit, expected: str, file: str, holds: str
) -> None:
    run = one_frame(tmp_path / "run", base, edit)
    out = tmp_path / "out"
    done = aifcheck("pipeline", "ta3", run, "--user-queries", QUERIES, "--aux", AUX, "-o", out)
    errors = any(" - ERROR - " in log.read_text(encoding="utf-8") for log in (out / "logs").iterdir())
    assert done.returncode == (1 if errors else 0), done.stderr  # 1 when NIST's stages logged an error
    assert digest(out) == expected
    assert holds in (out / file).read_text(encoding="utf-8")


HANDLE_CASE = (
    "3fdc4195b4fa485c5894ec3b690c327e7b9aa6da817f97dc89ee6d5e8e5fbf76"  # NIST's code with the LTF folder below
)


def missing_handle(folder: Path) -> tuple[Path, Path]:
    """A claim frame whose argument E.002092 has the handle [unknown] and its own informative
    span, and an LTF file holding the text of that span."""
    old = (
        "ldc:cluster-NILCEML0C04AJNP.002092-prototype a aida:Entity ;\n"
        '    aida:handle "indoors" ;\n'
        "    aida:informativeJustification _:n14cf38cff1eb4dcc9df7e312ceef883ab18 ;"
    )
    new = (
        "ldc:cluster-NILCEML0C04AJNP.002092-prototype a aida:Entity ;\n"
        '    aida:handle "[unknown]" ;\n'
        "    aida:informativeJustification _:gr10 ;"
    )

    def edit(text: str) -> str:
        assert text.count(old) == 1
        return text.replace(old, new) + span("_:gr10", 100, 106)

    run = one_frame(folder / "run", C5, edit)
    ltf = folder / "ltf"
    ltf.mkdir()
    (ltf / "L0C04ATJY.ltf.xml").write_text(
        '<LCTL_TEXT>\n<SEG id="segment-0" start_char="90" end_char="120">\n'
        "<ORIGINAL_TEXT>Masks are required indoors in all stores.</ORIGINAL_TEXT>\n</SEG>\n",
        encoding="utf-8",
    )
    return run, ltf


def test_the_handle_stage_fills_a_missing_handle_of_the_graph_table(tmp_path: Path) -> None:
    run, ltf = missing_handle(tmp_path)
    out = tmp_path / "out"
    done = aifcheck("pipeline", "ta3", run, "--user-queries", QUERIES, "--aux", AUX, "--ltf", ltf, "-o", out)
    assert done.returncode == 0, done.stderr
    assert digest(out) == HANDLE_CASE
    assert "\tAM_loc__location\tEntity\tQ27096235\trequire\tcluster-NILCEML0C04AJNP.002092" in (
        out / "ARF-output/Condition5/CLL0C04979A.000004/CLL0C04AJNP.001755-readable-kes.txt"
    ).read_text(encoding="utf-8")
