"""``aifcheck pipeline ta2``: NIST's TA2 docker stages (SPARQL, clean, validate) on task2_kb.ttl.

The expected rows and log lines below are what NIST's own clean_sparql_output.py and
validate_responses.py --task task2 gave on the same SPARQL output (run offline), and what the
compiled cfn:memberOf and cfn:getSpan return for the same arguments.
"""
# ruff: noqa: E501 - the KBs' Turtle and NIST's rows and log lines are written here as they are, one a line (tests name their lines)

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import SHARED_DATA, TEST_DATA

from aifcheck.errors import InputError
from aifcheck.loading.tsv import TsvTable
from aifcheck.pipeline.shared.auxdata import TA2_CORE, load_aux
from aifcheck.pipeline.shared.events import Where
from aifcheck.pipeline.ta2.queries import PIPELINE_COLUMNS, TEMPLATES, Query, read_queries
from aifcheck.pipeline.ta2.run import clean_stage, pipeline_ta2
from aifcheck.pipeline.ta2.screen import validate_stage
from aifcheck.render.tables import stage_text

AIDA = "https://raw.githubusercontent.com/NextCenturyCorporation/AIDA-Interchange-Format/master/java/src/main/resources/com/ncc/aif/ontologies/InterchangeOntology#"
PREFIXES = f"""@prefix aida: <{AIDA}> .
@prefix ex: <http://example.org/> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
ex:cv a aida:Confidence ; aida:confidenceValue "1.0"^^xsd:double .
ex:half a aida:Confidence ; aida:confidenceValue "0.5"^^xsd:double .
"""
HEADER = ("?docid", "?query_link_target", "?link_target", "?cluster", "?mention_span", "?j_cv", "?link_cv")
HEADER_LINE = "\t".join(HEADER)
EXPECTED = SHARED_DATA / "task2-expected"
REAL_KB = SHARED_DATA / "task2-run" / "task2_kb.ttl"
REAL_AUX = SHARED_DATA / "ta1-scoring" / "AUX-data"
# NIST's practice queries: the templates with these entry points (research note ta2-scoring §2.1)
PRACTICE = {"AIDA_P3_TA2_P0001": ("kbid", "Q84263196"), "AIDA_P3_TA2_P0002": ("name", "COVID-19")}


def installed(*args: object) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "aifcheck", *map(str, args)], capture_output=True, text=True, timeout=300
    )


def queries_table(path: Path, *rows: tuple[str, str, str]) -> Path:
    """NIST's queries table: (query_id, entrypoint_type, entrypoint) per row."""
    lines = ["query_id\tentity_id\tentrypoint_type\tentrypoint\tclusters\tdocuments"]
    lines += [f"{query_id}\tE1\t{kind}\t{entry_point}\t1\t10" for query_id, kind, entry_point in rows]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def run_folder(folder: Path, kb_text: str) -> Path:
    folder.mkdir(parents=True)
    (folder / "task2_kb.ttl").write_text(kb_text, encoding="utf-8")
    return folder


@pytest.fixture
def small_aux(tmp_path: Path) -> Path:
    """A small AUX-data folder: document D1 (core) with a text element T1 (sentences 10-50 and
    60-100), an image I1 (400x300), a video V1 (136.81 s, key frame V1_1 1280x720), an audio
    element A1 (no boundaries), an element X1 of an unknown encoding; D2 (not core) with T2;
    D3 (core) with T3, which has no sentences."""
    aux = tmp_path / "aux"
    aux.mkdir()
    files = {
        "encoding_modality.txt": "encoding\tmodality\nltf\ttext\njpg\timage\nmp4\tvideo\nmp3\taudio\n",
        "S.parent_children.tsv": "doceid\tdetype\tdocid\tlang_manual\nT1\tltf\tD1\teng\nI1\tjpg\tD1\tn/a\nV1\tmp4\tD1\tn/a\n"
        "A1\tmp3\tD1\tn/a\nT2\tltf\tD2\teng\nT3\tltf\tD3\teng\nX1\txyz\tD1\tn/a\n",
        "S.coredocs.txt": "root_id\nD1\nD3\n",
        "S.coredocs-xx.txt": "root_id\nD2\n",  # TA1's list, which TA2 must not take
        "S.sentence_boundaries.txt": "doceid\tsegment_id\tstart_char\tend_char\nT1\t0\t10\t50\nT1\t1\t60\t100\nT2\t0\t0\t100\n",
        "S.image_boundaries.txt": "image_filename\twxh\nI1.jpg\t400x300\n",
        "S.keyframe_boundaries.txt": "keyframeid\twxh\nV1_1\t1280x720\n",
        "S.video_boundaries.txt": "video_filename\tlength\nV1.mp4\t136.81\n",
    }
    for name, text in files.items():
        (aux / name).write_text(text, encoding="utf-8")
    return aux


def _row(
    document: str, span: str, j_cv: str = '"0.9"', link_cv: str = '"0.8"', cluster: str = "<https://example.org/kb#c1>"
) -> tuple[str, ...]:
    return (document, "Q1", "Q1", cluster, span, j_cv, link_cv)


def _validate(aux: Path, *rows: tuple[str, ...]) -> tuple[list[str], list[str]]:
    """The VALID rows (text) and log lines (without time and program) of one SPARQL-output file."""
    valid, log = validate_stage(clean_stage([TsvTable.numbered("Q.rq.tsv", HEADER, rows)]), load_aux(aux, TA2_CORE))
    lines = [f"{e.level} - {e.message}" + (f" at {e.where}" if e.where else "") for e in log]
    return stage_text(valid[0]).splitlines()[1:], lines[1:-1]  # without "validation started" and "finished"


# --- the real example -------------------------------------------------------------------------


def _need_shared_data() -> None:
    if not (EXPECTED.is_dir() and REAL_KB.is_file() and REAL_AUX.is_dir()):
        pytest.skip(f"NIST's TA2 example not found under {SHARED_DATA}")


def test_the_real_example_gives_nist_output_through_the_installed_command(tmp_path: Path) -> None:
    _need_shared_data()
    run = tmp_path / "example-task2-run"
    run.mkdir()
    shutil.copyfile(REAL_KB, run / "task2_kb.ttl")
    table = queries_table(tmp_path / "queries.tsv", *((q, *PRACTICE[q]) for q in sorted(PRACTICE)))
    out = tmp_path / "out"
    proc = installed("pipeline", "ta2", run, "--queries", table, "--aux", REAL_AUX, "-o", out)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[-1] == "SPARQL output had no errors."
    expected = sorted(p.name for p in EXPECTED.glob("*.rq.tsv"))
    for stage in ("SPARQL-output", "SPARQL-CLEAN-output", "SPARQL-VALID-output"):
        assert sorted(p.name for p in (out / stage).iterdir()) == expected
    for name in expected:
        nist = (EXPECTED / name).read_bytes()
        assert (out / "SPARQL-output" / name).read_bytes() == nist
        # NIST's clean and validate stages keep these rows, the cluster IRI cut to its name
        cleaned = nist.replace(
            b"<https://raw.githubusercontent.com/NextCenturyCorporation/AIDA-Interchange-Format/master/"
            b"java/src/main/resources/com/ncc/aif/ontologies/LdcAnnotations#cluster-NILE30181>",
            b"cluster-NILE30181",
        )
        assert cleaned != nist
        assert (out / "SPARQL-CLEAN-output" / name).read_bytes() == cleaned
        assert (out / "SPARQL-VALID-output" / name).read_bytes() == cleaned
    assert (out / "SPARQL-KB-source" / "source.txt").read_text() == "Direct mount."
    assert (out / "SPARQL-KB-input" / "task2_kb.ttl").read_bytes() == REAL_KB.read_bytes()
    assert sorted(p.name for p in (out / "queries").iterdir()) == [f"{q}.rq" for q in sorted(PRACTICE)]
    assert '"Q84263196"' in (out / "queries" / "AIDA_P3_TA2_P0001.rq").read_text().splitlines()[1]
    validate_log = (out / "logs" / "validate-responses.log").read_text().splitlines()
    assert [line.split(" - ", 1)[1] for line in validate_log] == [
        "validate_responses.py - INFO - NO_CLASS_NAME - DEFAULT_INFO - validation started",
        "validate_responses.py - INFO - NO_CLASS_NAME - DEFAULT_INFO - validation finished (warnings:0, errors:0)",
    ]
    assert "SPARQL output had no errors." in (out / "logs" / "run.log").read_text()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no temporary folder left


def test_the_real_example_through_the_api() -> None:
    _need_shared_data()
    queries = tuple(Query(q, "E1", *PRACTICE[q], line) for line, q in enumerate(sorted(PRACTICE), 2))
    result = pipeline_ta2(REAL_KB, queries, REAL_AUX)
    assert (
        [f.path for f in result.sparql]
        == [f.path for f in result.valid]
        == sorted(p.name for p in EXPECTED.glob("*.rq.tsv"))
    )
    for file in result.sparql:
        assert stage_text(file) == (EXPECTED / file.path).read_text(encoding="utf-8")
    assert [len(f.rows) for f in result.valid] == [2, 2] and result.errors == 0
    assert {row.cells[3] for f in result.valid for row in f.rows} == {"cluster-NILE30181"}


# A perturbed copy of the real KB: a second cluster linked to Q2 (link confidence 0.5) whose
# prototype has a justification partly outside its text element, one in an unknown document, an
# image box wider than the image and one with confidence 1.5; one of its members is named
# "COVID-19"@en.
REAL_EXTRA = (TEST_DATA / "ta2-real-extra.ttl").read_text(encoding="utf-8")


def test_a_perturbed_real_kb_gives_what_nist_stages_give(tmp_path: Path) -> None:
    _need_shared_data()
    run = run_folder(tmp_path / "run", REAL_KB.read_text(encoding="utf-8") + REAL_EXTRA)
    table = queries_table(
        tmp_path / "queries.tsv",
        ("AIDA_P3_TA2_E0003", "kbid", "Q2|Q84263196"),
        ("AIDA_P3_TA2_E0004", "name", "Nobody"),
        ("AIDA_P3_TA2_P0002", "name", "COVID-19"),
    )
    out = tmp_path / "out"
    proc = installed("pipeline", "ta2", run, "--queries", table, "--aux", REAL_AUX, "-o", out)
    assert proc.returncode == 1, proc.stderr  # NIST's validate stage logged an error: a row dropped
    assert proc.stdout.splitlines()[-1] == "SPARQL output had 1 error(s)."
    e3 = (out / "SPARQL-VALID-output" / "AIDA_P3_TA2_E0003.rq.tsv").read_text().splitlines()
    assert e3 == [
        HEADER_LINE,
        'L0C04936H\tQ2|Q84263196\tQ84263196\tcluster-NILE30181\tL0C04936H:L0C04959A:(1257,0)-(1264,0)\t"1.0"\t"1.0"',
        'L0C04936H\tQ2|Q84263196\tQ2\tcluster-Q2\tL0C04936H:L0C0492VF:(10,10)-(438,100)\t"0.5"\t"0.5"',
        'L0C04936H\tQ2|Q84263196\tQ2\tcluster-Q2\tL0C04936H:L0C04959A:(3440,0)-(3446,0)\t"0.5"\t"0.5"',
        'L0C0499MZ\tQ2|Q84263196\tQ84263196\tcluster-NILE30181\tL0C0499MZ:L0C049DRM:(2888,0)-(2895,0)\t"1.0"\t"1.0"',
        'L0C0499MZ\tQ2|Q84263196\tQ2\tcluster-Q2\tL0C0499MZ:L0C049DRM:(10,0)-(20,0)\t"1.0"\t"0.5"',
    ]
    assert (out / "SPARQL-output" / "AIDA_P3_TA2_E0003.rq.tsv").read_text().count(
        "\n"
    ) == 7  # the unknown document's row too
    assert (out / "SPARQL-VALID-output" / "AIDA_P3_TA2_E0004.rq.tsv").read_text() == HEADER_LINE + "\n"
    p2 = (out / "SPARQL-VALID-output" / "AIDA_P3_TA2_P0002.rq.tsv").read_text().splitlines()
    assert [row.split("\t")[2] for row in p2[1:]] == [
        "COVID-19",
        '"COVID-19"@en',
        '"COVID-19"@en',
        "COVID-19",
        '"COVID-19"@en',
    ]
    log = [line.split(" - ", 2)[2] for line in (out / "logs" / "validate-responses.log").read_text().splitlines()]
    where = f"{out}/SPARQL-CLEAN-output/AIDA_P3_TA2_E0003.rq.tsv"
    # each distinct message once: P0002's rows repeat E0003's problems, which are not logged again
    assert log == [
        "INFO - NO_CLASS_NAME - DEFAULT_INFO - validation started",
        f"ERROR - Validator - UNKNOWN_ITEM - Unknown document 'L0C00000X' in response at {where}:2",
        "WARNING - Validator - SPAN_OFF_BOUNDARY_CORRECTED - Correcting span '(10,10)-(500,100)' to '(10,10)-(438,100)' because it is "
        f"outside the boundary '(0,0)-(438,392)' of document element 'L0C0492VF' at {where}:4",
        "WARNING - Validator - SPAN_OFF_BOUNDARY_CORRECTED - Correcting span '(3440,0)-(5000,0)' to '(3440,0)-(3446,0)' because it is "
        f"outside the boundary '(1,0)-(3446,0)' of document element 'L0C04959A' at {where}:5",
        f"WARNING - Validator - INVALID_CONFIDENCE - Invalid confidence value '1.5' (using 1.0) at {where}:7",
        "INFO - NO_CLASS_NAME - DEFAULT_INFO - validation finished (warnings:3, errors:1)",
    ]
    assert "SPARQL output had 1 error(s).\n" in (out / "logs" / "run.log").read_text()
    assert "validate-responses.log" in proc.stderr


# --- the queries: memberOf, names, spans -------------------------------------------------------


def _linked_kb(*targets: str) -> str:
    """One cluster per link target (ex:c0, ex:c1, ...), each with one text justification."""
    lines = [
        PREFIXES,
        'ex:j a aida:TextJustification ; aida:source "E" ; aida:sourceDocument "D" ; aida:startOffset 1 ; '
        "aida:endOffsetInclusive 2 ; aida:confidence ex:cv .",
    ]
    for n, target in enumerate(targets):
        literal = target.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\r", "\\r")
        lines.append(
            f"ex:c{n} a aida:SameAsCluster ; aida:prototype ex:p{n} . ex:p{n} a aida:Entity ; aida:informativeJustification ex:j ; "
            f'aida:link [ a aida:LinkAssertion ; aida:linkTarget "{literal}" ; aida:confidence ex:half ] .'
        )
    return "\n".join(lines) + "\n"


TARGETS = ("Q1", "Q2", "Q3", "Q1|Q2", "q1", " Q1")


@pytest.mark.parametrize(
    ("entry_point", "clusters"),
    [
        ("Q1", {"c0"}),
        ("Q1|Q2", {"c0", "c1"}),  # several reference-KB nodes
        ("Q3|Q1|Q2", {"c0", "c1", "c2"}),
        ("Q1||Q2", {"c0", "c1"}),  # an empty part names nothing
        ("Q1 | Q2", set()),  # compared exactly: no trimming
        ("Q1|", set()),  # memberOf's error: the entry point ends with "|"
        ("|Q1", set()),  # or starts with it
        ("|\n|Q1", {"c0"}),  # unless it holds a line terminator (Java's "." matches none)
        ("|\u2028|Q1", {"c0"}),
        ("|\x0b|Q1", set()),  # \x0b is no Java line terminator: an error again
        ("Q4", set()),
        ("", set()),  # empty: false
    ],
    ids=lambda value: repr(sorted(value) if isinstance(value, set) else value),
)  # (a set's order differs between processes)
def test_a_kbid_entry_point_is_matched_as_nist_cfn_memberof_matches_it(
    entry_point: str, clusters: set[str], small_aux: Path, tmp_path: Path
) -> None:
    """The link target "Q1|Q2" (a node holding "|") matches nothing, "q1" and " Q1" only
    themselves (the compiled isMemberOf gives the same for every pair here)."""
    kb = run_folder(tmp_path / "run", _linked_kb(*TARGETS)) / "task2_kb.ttl"
    result = pipeline_ta2(kb, [Query("E1", "E1", "kbid", entry_point, 2)], small_aux)
    assert {
        row.cells[3].removeprefix("<http://example.org/").removesuffix(">") for row in result.sparql[0].rows
    } == clusters
    assert {row.cells[2] for row in result.sparql[0].rows} <= {"Q1", "Q2", "Q3"}


NAMED = (
    PREFIXES
    + """
ex:j a aida:TextJustification ; aida:source "T1" ; aida:sourceDocument "D1" ; aida:startOffset 20 ; aida:endOffsetInclusive 30 ;
    aida:confidence ex:half .
ex:c1 a aida:SameAsCluster ; aida:prototype ex:p1 .
ex:p1 a aida:Entity ; aida:informativeJustification ex:j .
ex:m1 a aida:Entity ; aida:hasName "Kyiv" .
ex:m2 a aida:Entity ; aida:hasName "Kyiv"@uk .
[] a aida:ClusterMembership ; aida:cluster ex:c1 ; aida:clusterMember ex:m1 ; aida:confidence ex:half .
[] a aida:ClusterMembership ; aida:cluster ex:c1 ; aida:clusterMember ex:m2 ; aida:confidence ex:cv .
ex:c2 a aida:SameAsCluster ; aida:prototype ex:p2 .
ex:p2 a aida:Entity ; aida:informativeJustification ex:j .
ex:m3 a aida:Entity ; aida:hasName "kyiv" .
[] a aida:ClusterMembership ; aida:cluster ex:c2 ; aida:clusterMember ex:m3 ; aida:confidence ex:cv .
ex:c3 a aida:SameAsCluster ; aida:prototype ex:p3 .
ex:p3 a aida:Entity ; aida:informativeJustification ex:j .
ex:m4 a aida:Entity ; aida:hasName "Kyiv" .
[] a aida:ClusterMembership ; aida:cluster ex:c3 ; aida:clusterMember ex:m4 .
ex:c4 a aida:SameAsCluster ; aida:prototype ex:p4 .
ex:p4 a aida:Event ; aida:informativeJustification ex:j .
[] a aida:ClusterMembership ; aida:cluster ex:c4 ; aida:clusterMember ex:m1 ; aida:confidence ex:cv .
"""
)


def test_a_name_entry_point_matches_member_names_exactly(small_aux: Path, tmp_path: Path) -> None:
    """A row per name and membership confidence; "kyiv" differs; a membership without a
    confidence (c3) or an event prototype (c4) gives none, as in NIST's template."""
    kb = run_folder(tmp_path / "run", NAMED) / "task2_kb.ttl"
    result = pipeline_ta2(kb, [Query("AIDA_P3_TA2_E0001", "E1", "name", "Kyiv", 2)], small_aux)
    assert [stage_text(f) for f in result.sparql] == [
        HEADER_LINE
        + "\n"
        + 'D1\tKyiv\t"Kyiv"@uk\t<http://example.org/c1>\tD1:T1:(20,0)-(30,0)\t"0.5"\t"1.0"\n'
        + 'D1\tKyiv\tKyiv\t<http://example.org/c1>\tD1:T1:(20,0)-(30,0)\t"0.5"\t"0.5"\n'
    ]
    assert [stage_text(f) for f in result.valid] == [
        HEADER_LINE
        + "\n"
        + 'D1\tKyiv\t"Kyiv"@uk\t<http://example.org/c1>\tD1:T1:(20,0)-(30,0)\t"0.5"\t"1.0"\n'
        + 'D1\tKyiv\tKyiv\t<http://example.org/c1>\tD1:T1:(20,0)-(30,0)\t"0.5"\t"0.5"\n'
    ]  # clean cuts only https IRIs with a #


SPANS = (
    PREFIXES
    + """
ex:c1 a aida:SameAsCluster ; aida:prototype ex:p1 .
ex:p1 a aida:Entity ; aida:link [ a aida:LinkAssertion ; aida:linkTarget "Q1" ; aida:confidence ex:cv ] ;
    aida:informativeJustification ex:text, ex:image, ex:keyframe, ex:video, ex:shot, ex:both, ex:unconfident .
ex:text a aida:TextJustification ; aida:source "T1" ; aida:sourceDocument "D1" ; aida:startOffset 20 ; aida:endOffsetInclusive 30 ;
    aida:confidence ex:cv .
ex:image a aida:ImageJustification ; aida:source "I1" ; aida:sourceDocument "D1" ; aida:confidence ex:cv ;
    aida:boundingBox [ aida:boundingBoxUpperLeftX 1 ; aida:boundingBoxUpperLeftY 2 ; aida:boundingBoxLowerRightX 30 ; aida:boundingBoxLowerRightY 40 ] .
ex:keyframe a aida:KeyFrameVideoJustification ; aida:source "V1" ; aida:sourceDocument "D1" ; aida:keyFrame "V1_1" ; aida:confidence ex:cv ;
    aida:boundingBox [ aida:boundingBoxUpperLeftX 5 ; aida:boundingBoxUpperLeftY 6 ; aida:boundingBoxLowerRightX 70 ; aida:boundingBoxLowerRightY 80 ] .
ex:video a aida:VideoJustification ; aida:source "V1" ; aida:sourceDocument "D1" ; aida:confidence ex:cv ;
    aida:startTimestamp 1.5 ; aida:endTimestamp 2.5 .
ex:shot a aida:ShotVideoJustification ; aida:source "V1" ; aida:sourceDocument "D1" ; aida:shot "V1_s3" ; aida:confidence ex:cv .
ex:both a aida:TextJustification, aida:AudioJustification ; aida:source "T1" ; aida:sourceDocument "D1" ; aida:confidence ex:half ;
    aida:startOffset 40 ; aida:endOffsetInclusive 45 ; aida:startTimestamp 1.0 ; aida:endTimestamp 2.0 .
ex:unconfident a aida:TextJustification ; aida:source "T1" ; aida:sourceDocument "D1" ; aida:startOffset 50 ; aida:endOffsetInclusive 55 .
"""
)


def test_spans_are_written_as_nist_cfn_getspan_writes_them(small_aux: Path, tmp_path: Path) -> None:
    """Text, image, key frame (under its ID), video timestamps; a shot, or two kinds at once,
    give no span (an empty cell), which validation drops; a justification without confidence
    gives no row."""
    kb = run_folder(tmp_path / "run", SPANS) / "task2_kb.ttl"
    result = pipeline_ta2(kb, [Query("E1", "E1", "kbid", "Q1", 2)], small_aux)
    assert [row.cells[4] for row in result.sparql[0].rows] == [
        "",
        "",
        "D1:I1:(1,2)-(30,40)",
        "D1:T1:(20,0)-(30,0)",
        "D1:V1:(1.5,0)-(2.5,0)",
        "D1:V1_1:(5,6)-(70,80)",
    ]
    assert [row.cells[5] for row in result.sparql[0].rows[:2]] == ['"0.5"', '"1.0"']  # text and audio at once; the shot
    assert [row.cells[4] for row in result.valid[0].rows] == [
        "D1:I1:(1,2)-(30,40)",
        "D1:T1:(20,0)-(30,0)",
        "D1:V1:(1.5,0)-(2.5,0)",
        "D1:V1_1:(5,6)-(70,80)",
    ]
    # the same message of the second row is not logged again
    assert [(e.message, e.where.line) for e in result.log if e.level == "ERROR"] == [
        ("Validator - INVALID_PROVENANCE_FORMAT - Invalid provenance ''", 2)
    ]


# --- clean and validate, rule by rule (research note ta2-scoring §2.3) --------------------------

C1 = "<https://example.org/kb#c1>"
AT = " at Q.rq.tsv:2"
OFF = "Validator - SPAN_OFF_BOUNDARY_CORRECTED - Correcting span"
RULES = [
    # kept as it is: inside its element's boundary, the cluster IRI cut to its name
    ("inside", _row("D1", "D1:T1:(20,0)-(30,0)"), 'D1\tQ1\tQ1\tc1\tD1:T1:(20,0)-(30,0)\t"0.9"\t"0.8"', []),
    ("on-the-boundary", _row("D1", "D1:T1:(10,0)-(100,0)"), 'D1\tQ1\tQ1\tc1\tD1:T1:(10,0)-(100,0)\t"0.9"\t"0.8"', []),
    ("image-zero-box-inside", _row("D1", "D1:I1:(0,0)-(0,0)"), 'D1\tQ1\tQ1\tc1\tD1:I1:(0,0)-(0,0)\t"0.9"\t"0.8"', []),
    ("keyframe", _row("D1", "D1:V1_1:(0,0)-(100,100)"), 'D1\tQ1\tQ1\tc1\tD1:V1_1:(0,0)-(100,100)\t"0.9"\t"0.8"', []),
    ("video", _row("D1", "D1:V1:(1.5,0)-(2.5,0)"), 'D1\tQ1\tQ1\tc1\tD1:V1:(1.5,0)-(2.5,0)\t"0.9"\t"0.8"', []),
    (
        "numbers-as-python-reads-them",
        _row("D1", "D1:T1:(1e1,0)-(3E1,0)"),
        'D1\tQ1\tQ1\tc1\tD1:T1:(1e1,0)-(3E1,0)\t"0.9"\t"0.8"',
        [],
    ),
    (
        "keyframe-suffix-on-text",
        _row("D1", "D1:T1_3:(20,0)-(30,0)"),
        'D1\tQ1\tQ1\tc1\tD1:T1_3:(20,0)-(30,0)\t"0.9"\t"0.8"',
        [],
    ),
    (
        "cells-stripped",
        (" D1 ", "Q1", "Q1", "  " + C1, " D1:T1:(20,0)-(30,0) ", ' "0.5" ', '"0.5"  '),
        'D1\tQ1\tQ1\tc1\tD1:T1:(20,0)-(30,0)\t"0.5"\t"0.5"',
        [],
    ),
    (
        "clean-takes-the-first-https-iri",
        _row("D1", "D1:T1:(20,0)-(30,0)", cluster="<https://a/b>x<https://c#d>"),
        'D1\tQ1\tQ1\td\tD1:T1:(20,0)-(30,0)\t"0.9"\t"0.8"',
        [],
    ),
    # corrected: all zero -> the whole element; partly outside -> clipped
    (
        "all-zero",
        _row("D1", "D1:T1:(0,0)-(0,0)"),
        'D1\tQ1\tQ1\tc1\tD1:T1:(10,0)-(100,0)\t"0.9"\t"0.8"',
        [
            f"WARNING - {OFF} '(0,0)-(0,0)' to '(10,0)-(100,0)' because it is outside the boundary '(10,0)-(100,0)' of document element 'T1'{AT}"
        ],
    ),
    (
        "partly-outside",
        _row("D1", "D1:T1:(5,0)-(30,0)"),
        'D1\tQ1\tQ1\tc1\tD1:T1:(10,0)-(30,0)\t"0.9"\t"0.8"',
        [
            f"WARNING - {OFF} '(5,0)-(30,0)' to '(10,0)-(30,0)' because it is outside the boundary '(10,0)-(100,0)' of document element 'T1'{AT}"
        ],
    ),
    (
        "image-partly-outside",
        _row("D1", "D1:I1:(10,10)-(500,200)"),
        'D1\tQ1\tQ1\tc1\tD1:I1:(10,10)-(400,200)\t"0.9"\t"0.8"',
        [
            f"WARNING - {OFF} '(10,10)-(500,200)' to '(10,10)-(400,200)' because it is outside the boundary '(0,0)-(400,300)' of document element 'I1'{AT}"
        ],
    ),
    (
        "keyframe-partly-outside",
        _row("D1", "D1:V1_1:(0,0)-(2000,100)"),
        'D1\tQ1\tQ1\tc1\tD1:V1_1:(0,0)-(1280,100)\t"0.9"\t"0.8"',
        [
            f"WARNING - {OFF} '(0,0)-(2000,100)' to '(0,0)-(1280,100)' because it is outside the boundary '(0,0)-(1280,720)' of document element 'V1'{AT}"
        ],
    ),
    (
        "video-partly-outside",
        _row("D1", "D1:V1:(100,0)-(200,0)"),
        'D1\tQ1\tQ1\tc1\tD1:V1:(100,0)-(136.81,0)\t"0.9"\t"0.8"',
        [
            f"WARNING - {OFF} '(100,0)-(200,0)' to '(100,0)-(136.81,0)' because it is outside the boundary '(0,0)-(136.81,0)' of document element 'V1'{AT}"
        ],
    ),
    (
        "corrected-drops-a-keyframe-suffix-on-text",
        _row("D1", "D1:T1_3:(5,0)-(30,0)"),
        'D1\tQ1\tQ1\tc1\tD1:T1:(10,0)-(30,0)\t"0.9"\t"0.8"',
        [
            f"WARNING - {OFF} '(5,0)-(30,0)' to '(10,0)-(30,0)' because it is outside the boundary '(10,0)-(100,0)' of document element 'T1'{AT}"
        ],
    ),
    # confidences: not a number, or outside (0, 1] -> "1.0"
    (
        "confidence-above-one-and-not-a-number",
        _row("D1", "D1:T1:(20,0)-(30,0)", '"1.5"', "abc"),
        'D1\tQ1\tQ1\tc1\tD1:T1:(20,0)-(30,0)\t"1.0"\t"1.0"',
        [
            f"WARNING - Validator - INVALID_CONFIDENCE - Invalid confidence value '1.5' (using 1.0){AT}",
            f"WARNING - Validator - INVALID_CONFIDENCE - Invalid confidence value 'abc' (using 1.0){AT}",
        ],
    ),
    (
        "confidence-zero-and-negative",
        _row("D1", "D1:T1:(20,0)-(30,0)", '"0"', '"-0.5"'),
        'D1\tQ1\tQ1\tc1\tD1:T1:(20,0)-(30,0)\t"1.0"\t"1.0"',
        [
            f"WARNING - Validator - INVALID_CONFIDENCE - Invalid confidence value '0.0' (using 1.0){AT}",
            f"WARNING - Validator - INVALID_CONFIDENCE - Invalid confidence value '-0.5' (using 1.0){AT}",
        ],
    ),
    (
        "confidence-nan-and-kept-as-written",
        _row("D1", "D1:T1:(20,0)-(30,0)", "nan", '"1.0E0"'),
        'D1\tQ1\tQ1\tc1\tD1:T1:(20,0)-(30,0)\t"1.0"\t"1.0E0"',
        [f"WARNING - Validator - INVALID_CONFIDENCE - Invalid confidence value 'nan' (using 1.0){AT}"],
    ),
    # dropped: entirely outside, unknown or not core document, bad span
    (
        "entirely-outside",
        _row("D1", "D1:T1:(200,0)-(300,0)"),
        None,
        [
            f"ERROR - Validator - SPAN_OFF_BOUNDARY_ERROR - Cannot correct therefore removing span '(200,0)-(300,0)' because it is outside the boundary '(10,0)-(100,0)' of document element 'T1'{AT}"
        ],
    ),
    (
        "point-outside",
        _row("D1", "D1:T1:(5,0)-(5,0)"),
        None,
        [
            f"ERROR - Validator - SPAN_OFF_BOUNDARY_ERROR - Cannot correct therefore removing span '(5,0)-(5,0)' because it is outside the boundary '(10,0)-(100,0)' of document element 'T1'{AT}"
        ],
    ),
    (
        "unknown-document",
        _row("D9", "D9:T1:(1,0)-(2,0)"),
        None,
        [f"ERROR - Validator - UNKNOWN_ITEM - Unknown document 'D9' in response{AT}"],
    ),
    ("not-core-dropped-silently", _row("D2", "D2:T2:(1,0)-(2,0)"), None, []),
    (
        "empty-docid",
        _row("", ":T1:(1,0)-(2,0)"),
        None,
        [
            f"ERROR - Validator - UNKNOWN_ITEM - Unknown document 'SPARQL-CLEAN-ou' in response{AT}",
            f"ERROR - Validator - INVALID_PROVENANCE_FORMAT - Invalid provenance ':T1:(1,0)-(2,0)'{AT}",
        ],
    ),
    (
        "span-of-another-document",
        _row("D1", "D2:T2:(1,0)-(2,0)"),
        None,
        [f"ERROR - Validator - MULTIPLE_DOCUMENTS - Multiple documents in response: 'D2', 'D1'{AT}"],
    ),
    (
        "element-of-another-document",
        _row("D1", "D1:T2:(1,0)-(2,0)"),
        None,
        [f"ERROR - Validator - PARENT_CHILD_RELATION_FAILURE - 'T2' is not a child of 'D1'{AT}"],
    ),
    (
        "unknown-element",
        _row("D1", "D1:Z9:(1,0)-(2,0)"),
        None,
        [f"ERROR - Validator - UNKNOWN_ITEM - Unknown document element 'Z9' in response{AT}"],
    ),
    (
        "unknown-modality",
        _row("D1", "D1:X1:(1,0)-(2,0)"),
        None,
        [f"ERROR - Validator - UNKNOWN_MODALITY - Unknown modality for document element 'X1'{AT}"],
    ),
    (
        "unknown-keyframe",
        _row("D1", "D1:V1_9:(0,0)-(1,1)"),
        None,
        [f"ERROR - Validator - MISSING_ITEM_WITH_KEY - KeyFrameID 'V1_9' not found{AT}"],
    ),
    (
        "start-after-end",
        _row("D1", "D1:T1:(30,0)-(20,0)"),
        None,
        [f"ERROR - Validator - START_BIGGER_THAN_END - '30' is bigger than '20' in 'D1:T1:(30,0)-(20,0)'{AT}"],
    ),
    (
        "start-y-after-end-y",
        _row("D1", "D1:T1:(20,5)-(30,0)"),
        None,
        [f"ERROR - Validator - START_BIGGER_THAN_END - '5' is bigger than '0' in 'D1:T1:(20,5)-(30,0)'{AT}"],
    ),
    (
        "negative",
        _row("D1", "D1:T1:(-1,0)-(20,0)"),
        None,
        [f"ERROR - Validator - NEGATIVE_NUMBER - '-1' is negative, expecting non-negative{AT}"],
    ),
    (
        "bad-format",
        _row("D1", "D1:T1:20-30"),
        None,
        [f"ERROR - Validator - INVALID_PROVENANCE_FORMAT - Invalid provenance 'D1:T1:20-30'{AT}"],
    ),
    (
        "four-parts",
        _row("D1", "D1:T1:(20,0)-(30,0):x"),
        None,
        [f"ERROR - Validator - INVALID_PROVENANCE_FORMAT - Invalid provenance 'D1:T1:(20,0)-(30,0):x'{AT}"],
    ),
    # where NIST's stage stops with a traceback: the row is invalid, with an ERROR of aifcheck's
    (
        "coordinate-not-a-number",
        _row("D1", "D1:T1:(a,0)-(20,0)"),
        None,
        [f"ERROR - Validator - NOT_A_NUMBER - 'a' is not a number{AT}"],
    ),
    (
        "audio-has-no-boundaries",
        _row("D1", "D1:A1:(1,0)-(2,0)"),
        None,
        [f"ERROR - Validator - NO_BOUNDARY - No audio boundary for document element 'A1' in the AUX data{AT}"],
    ),
    (
        "element-without-sentences",
        _row("D3", "D3:T3:(1,0)-(2,0)"),
        None,
        [f"ERROR - Validator - NO_BOUNDARY - No text boundary for document element 'T3' in the AUX data{AT}"],
    ),
]


@pytest.mark.parametrize(("row", "kept", "logged"), [pytest.param(*case[1:], id=case[0]) for case in RULES])
def test_each_validation_rule_as_nist_applies_and_logs_it(
    row: tuple[str, ...], kept: str | None, logged: list[str], small_aux: Path
) -> None:
    valid, log = _validate(small_aux, row)
    assert valid == ([kept] if kept else [])
    assert log == logged


def test_each_distinct_message_is_logged_once_and_counted(small_aux: Path) -> None:
    rows = [
        _row("D9", "D9:T1:(1,0)-(2,0)"),
        _row("D1", "D1:T1:(20,0)-(30,0)", '"1.5"'),
        _row("D9", "D9:T1:(1,0)-(2,0)"),
        _row("D1", "D1:T1:(21,0)-(30,0)", '"1.5"'),
    ]
    valid, log = validate_stage(
        clean_stage(
            [
                TsvTable.numbered("B.rq.tsv", HEADER, tuple(rows[2:])),
                TsvTable.numbered("A.rq.tsv", HEADER, tuple(rows[:2])),
            ]
        ),
        load_aux(small_aux, TA2_CORE),
    )
    assert [f.path for f in valid] == ["A.rq.tsv", "B.rq.tsv"]  # NIST reads the files in name order
    assert [(e.code, e.where) for e in log] == [
        ("DEFAULT_INFO", None),
        ("UNKNOWN_ITEM", Where("A.rq.tsv", 2)),
        ("INVALID_CONFIDENCE", Where("A.rq.tsv", 3)),
        ("DEFAULT_INFO", None),
    ]
    assert log[-1].message.endswith("validation finished (warnings:1, errors:1)")
    assert [len(f.rows) for f in valid] == [1, 1]


def test_ta2_takes_the_full_list_of_core_documents(small_aux: Path) -> None:
    """*.coredocs.txt (D1, D3), not TA1's *coredocs-xx.txt (D2 only)."""
    aux = load_aux(small_aux, TA2_CORE)
    assert (aux.is_core("D1"), aux.is_core("D2")) == (True, False)
    assert load_aux(small_aux).is_core("D2")


# --- the command: bad input, the output folder --------------------------------------------------


@pytest.fixture
def run_and_table(tmp_path: Path) -> tuple[Path, Path]:
    run = run_folder(tmp_path / "run", SPANS)
    return run, queries_table(tmp_path / "queries.tsv", ("AIDA_P3_TA2_E0001", "kbid", "Q1"))


def _one_line_error(proc: subprocess.CompletedProcess, code: int, *needles: str) -> None:
    assert proc.returncode == code, proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and all(n in lines[0] for n in needles), proc.stderr
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize(
    ("table", "line", "needle"),
    [
        (
            "query_id\tentity_id\tentrypoint_type\tentrypoint\nE1\tX\tkbid\tQ1\nE2\tX\tqnode\tQ2\n",
            3,
            "entrypoint_type 'qnode' is neither kbid nor name",
        ),
        ("query_id\tentity_id\tentrypoint_type\tentrypoint\nE1\tX\tkbid\n", 2, "3 cells, the header has 4 columns"),
        (
            "query_id\tentity_id\tentry_point_type\tentrypoint\nE1\tX\tkbid\tQ1\n",
            1,
            "the header has no column entrypoint_type",
        ),
        ("query_id\tentity_id\tentrypoint_type\tentrypoint\n../E1\tX\tkbid\tQ1\n", 2, "query_id '../E1' cannot name"),
        ("query_id\tentity_id\tentrypoint_type\tentrypoint\n\tX\tkbid\tQ1\n", 2, "query_id '' cannot name"),
        (  # issue 43 (case 2852): refused where it is read, not when its output file cannot be made
            "query_id\tentity_id\tentrypoint_type\tentrypoint\nE1\tX\tkbid\tQ1\n" + "9" * 300 + "\tX\tname\tN\n",
            3,
            "a query_id of 300 characters: longer than NIST's file <query_id>.rq.tsv may be",
        ),
    ],
    ids=["type", "short-row", "missing-column", "path", "empty-id", "too-long-id"],
)
def test_a_malformed_queries_table_is_one_located_line_exit_3(
    table: str, line: int, needle: str, run_and_table: tuple[Path, Path], tmp_path: Path
) -> None:
    bad = tmp_path / "bad.tsv"
    bad.write_text(table, encoding="utf-8")
    proc = installed("pipeline", "ta2", run_and_table[0], "--queries", bad, "--aux", tmp_path, "-o", tmp_path / "out")
    _one_line_error(proc, 3, f"{bad}:{line}:", needle)
    assert not (tmp_path / "out").exists()
    with pytest.raises(InputError) as raised:
        read_queries(bad, PIPELINE_COLUMNS, TEMPLATES)
    assert raised.value.line == line


def test_a_query_id_given_twice_is_refused_naming_both_lines(tmp_path: Path) -> None:
    table = queries_table(tmp_path / "q.tsv", ("E2", "name", "A"), ("E1", "kbid", "Q1"), ("E2", "kbid", "Q2"))
    with pytest.raises(InputError, match="query_id E2 is also on line 2: give each once") as raised:
        read_queries(table, PIPELINE_COLUMNS, TEMPLATES)
    assert (raised.value.path, raised.value.line) == (str(table), 4)


def test_an_s3_location_is_refused_in_one_line(
    run_and_table: tuple[Path, Path], small_aux: Path, tmp_path: Path
) -> None:
    run = tmp_path / "s3-run"
    run.mkdir()
    (run / "s3_location.txt").write_text("s3://aida-team/run.tgz\n", encoding="utf-8")
    proc = installed("pipeline", "ta2", run, "--queries", run_and_table[1], "--aux", small_aux, "-o", tmp_path / "out")
    _one_line_error(proc, 2, "s3_location.txt", "aifcheck reads local files")


@pytest.mark.parametrize("extra", ["notes.txt", None], ids=["another-file", "no-kb"])
def test_a_run_folder_must_hold_the_kb_alone(
    extra: str | None, run_and_table: tuple[Path, Path], small_aux: Path, tmp_path: Path
) -> None:
    run = run_and_table[0]
    if extra:
        (run / extra).write_text("x", encoding="utf-8")
    else:
        (run / "task2_kb.ttl").unlink()
    proc = installed("pipeline", "ta2", run, "--queries", run_and_table[1], "--aux", small_aux, "-o", tmp_path / "out")
    _one_line_error(proc, 2, "must hold task2_kb.ttl and nothing else", extra or "nothing")


def test_unreadable_inputs_are_one_line_each(run_and_table: tuple[Path, Path], small_aux: Path, tmp_path: Path) -> None:
    run, table = run_and_table
    proc = installed("pipeline", "ta2", run, "--queries", table, "--aux", tmp_path / "no-aux", "-o", tmp_path / "out")
    _one_line_error(proc, 3, "no-aux: no such file or directory")
    (small_aux / "S.coredocs.txt").unlink()
    proc = installed("pipeline", "ta2", run, "--queries", table, "--aux", small_aux, "-o", tmp_path / "out")
    _one_line_error(proc, 3, "no file ending in '.coredocs.txt': NIST's TA2 stages need exactly one")
    (small_aux / "S.coredocs.txt").write_text("root_id\nD1\n", encoding="utf-8")
    (run / "task2_kb.ttl").write_text(PREFIXES + "ex:a ex:b .\n", encoding="utf-8")
    proc = installed("pipeline", "ta2", run, "--queries", table, "--aux", small_aux, "-o", tmp_path / "out")
    _one_line_error(proc, 3, "task2_kb.ttl:6")
    assert not (tmp_path / "out").exists()


def test_the_output_folder_is_new_or_empty_unless_forced(
    run_and_table: tuple[Path, Path], small_aux: Path, tmp_path: Path
) -> None:
    run, table = run_and_table
    out = tmp_path / "out"
    out.mkdir()
    (out / "old.txt").write_text("old", encoding="utf-8")
    proc = installed("pipeline", "ta2", run, "--queries", table, "--aux", small_aux, "-o", out)
    _one_line_error(proc, 2, "exists and is not empty", "--force")
    proc = installed("pipeline", "ta2", run, "--queries", table, "--aux", small_aux, "-o", out, "--force")
    assert proc.returncode == 1, proc.stderr  # the shot's and the double span's empty cells are errors
    assert sorted(p.name for p in out.iterdir()) == [
        "SPARQL-CLEAN-output",
        "SPARQL-KB-input",
        "SPARQL-KB-source",
        "SPARQL-VALID-output",
        "SPARQL-output",
        "logs",
        "queries",
    ]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["aux", "out", "queries.tsv", "run"]  # nothing left beside it
    proc = installed("pipeline", "ta2", run, "--queries", table, "--aux", small_aux, "-o", run.parent, "--force")
    _one_line_error(proc, 2, "holds the input")
    assert (run / "task2_kb.ttl").is_file()


def test_an_output_that_cannot_be_written_is_one_line_exit_3(
    run_and_table: tuple[Path, Path], small_aux: Path, tmp_path: Path
) -> None:
    a_file = tmp_path / "a-file"
    a_file.write_text("x", encoding="utf-8")
    proc = installed(
        "pipeline", "ta2", run_and_table[0], "--queries", run_and_table[1], "--aux", small_aux, "-o", a_file / "out"
    )
    _one_line_error(proc, 3, "cannot write")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-file", "aux", "queries.tsv", "run"]


def test_the_console_shows_each_query_and_nist_closing_message(
    run_and_table: tuple[Path, Path], small_aux: Path, tmp_path: Path
) -> None:
    proc = installed(
        "pipeline", "ta2", run_and_table[0], "--queries", run_and_table[1], "--aux", small_aux, "-o", tmp_path / "out"
    )
    assert proc.stdout.splitlines() == [
        "query             type entry point SPARQL rows VALID rows",
        "AIDA_P3_TA2_E0001 kbid Q1                    6          4",
        "SPARQL output had 1 error(s).",
    ]
    assert proc.returncode == 1


def test_the_api_refuses_what_the_command_refuses(small_aux: Path, tmp_path: Path) -> None:
    with pytest.raises(InputError, match="missing-aux: no such file or directory"):
        pipeline_ta2(tmp_path / "kb.ttl", [], tmp_path / "missing-aux")
    with pytest.raises(InputError):
        pipeline_ta2(tmp_path / "missing.ttl", [], small_aux)
