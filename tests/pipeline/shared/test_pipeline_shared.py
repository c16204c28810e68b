"""What NIST's stages share, in one place each: the tab-separated reader (aifcheck.loading.tsv),
the AUX data of TA1 and TA2 (aifcheck.pipeline.shared.auxdata), and the Validator's span checks
(aifcheck.pipeline.shared.checks) as the TA2 validate stage and the TA2 scorer use them."""

from __future__ import annotations

from pathlib import Path

import pytest

from aifcheck.errors import InputError
from aifcheck.extract.model import Confidence, Span
from aifcheck.loading.tsv import TsvTable, read_lines, read_table
from aifcheck.pipeline.shared.auxdata import TA1_CORE, TA2_CORE, load_aux
from aifcheck.pipeline.shared.events import EventLog, Where
from aifcheck.pipeline.ta2.responses import read_folder
from aifcheck.pipeline.ta2.screen import validate_stage
from aifcheck.render.logs import log_text

HEADER = ("?docid", "?query_link_target", "?link_target", "?cluster", "?mention_span", "?j_cv", "?link_cv")


def _aux(folder: Path, image_size: str = "400x300") -> Path:
    """Document D1 (TA2's core) with a text element T1 and an image I1; D2 (TA1's core) with T2."""
    folder.mkdir()
    files = {
        "encoding_modality.txt": "encoding\tmodality\nltf\ttext\njpg\timage\n",
        "S.parent_children.tsv": (
            "doceid\tdetype\tdocid\tlang_manual\nT1\tltf\tD1\teng\nI1\tjpg\tD1\tn/a\nT2\tltf\tD2\teng\n"
        ),
        "S.coredocs.txt": "root_id\nD1\n",
        "S.coredocs-xx.txt": "root_id\nD2\n",
        "S.sentence_boundaries.txt": "doceid\tsegment_id\tstart_char\tend_char\nT1\t0\t10\t50\nT2\t0\t0\t100\n",
        "S.image_boundaries.txt": f"image_filename\twxh\nI1.jpg\t{image_size}\n",
        "S.keyframe_boundaries.txt": "keyframeid\twxh\n",
        "S.video_boundaries.txt": "video_filename\tlength\n",
    }
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def test_lines_end_as_in_nist_text_mode_and_a_repeated_column_keeps_its_last_cell(tmp_path: Path) -> None:
    path = tmp_path / "t.tsv"
    path.write_bytes(b"a\tb\ta\r\n1\t2\t3\r4\t5\t6 \t7\n\n8\x0c\t9\t10\n")
    assert [line for _, line in read_lines(path)] == ["a\tb\ta", "1\t2\t3", "4\t5\t6 \t7", "8\x0c\t9\t10"]
    table = read_table(path, ("a", "b"))
    assert table.cells(("a", "b", "c")) == [(2, ["3", "2", ""]), (3, ["6 \t7", "5", ""]), (5, ["10", "9", ""])]
    path.write_text("a\tb\n1\n", encoding="utf-8")
    with pytest.raises(InputError, match="1 cells, the header has 2 columns") as raised:
        read_table(path, ("a",))
    assert raised.value.line == 2


def test_one_aux_reader_gives_each_task_its_core_documents(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AIFCHECK_CACHE_DIR", str(tmp_path / "cache"))
    folder = _aux(tmp_path / "aux")
    ta1, ta2 = load_aux(folder, TA1_CORE), load_aux(folder, TA2_CORE)
    assert (ta1.core, ta2.core) == (("D2",), ("D1",))
    assert ta1.documents == ta2.documents == {"D1": ("T1", "I1"), "D2": ("T2",)}
    assert str(ta2.extent("text", "T1")) == "(10,0)-(50,0)" and ta2.extent("image", "I1").floats() == (0, 0, 400, 300)
    assert len(list((tmp_path / "cache").glob("aux-*.marshal"))) == 2  # a cache per list of core documents


@pytest.mark.parametrize("size", ["400x300x2", "x300", "400x"])
def test_an_image_size_that_is_not_width_x_height_is_one_located_error(size: str, tmp_path: Path) -> None:
    folder = _aux(tmp_path / "aux", size)
    with pytest.raises(InputError, match=f"wxh '{size}' is not WIDTHxHEIGHT") as raised:
        load_aux(folder, TA2_CORE)
    assert raised.value.line == 2


def test_an_extent_that_is_not_numbers_makes_the_row_invalid_in_both_ta2_stages(tmp_path: Path) -> None:
    """NIST's Validator stops on it; the validate stage logs an ERROR of aifcheck's and drops the
    row, the scorer keeps it invalid and says NIST stops there."""
    aux = load_aux(_aux(tmp_path / "aux", "wide x high"), TA2_CORE)
    rows = (
        ("D1", "Q", "Q", "c1", "D1:I1:(1,1)-(2,2)", '"1.0"', '"1.0"'),
        ("D1", "Q", "Q", "c1", "D1:T1:(20,0)-(60,0)", '"1.0"', '"1.0"'),
    )
    valid, log = validate_stage([TsvTable.numbered("Q.rq.tsv", HEADER, rows)], aux)
    assert valid[0].rows == (
        (2, ("D1", "Q", "Q", "c1", "D1:T1:(20,0)-(50,0)", '"1.0"', '"1.0"')),
    )  # the second, clipped to T1, now the first row (line 2) of the valid table
    assert [(e.level, e.message, e.where) for e in log[1:-1]] == [
        (
            "ERROR",
            "Validator - BOUNDARY_NOT_A_NUMBER - The image boundary of document element 'I1' in the AUX data "
            "is not numbers",
            Where("Q.rq.tsv", 2),
        ),
        (
            "WARNING",
            "Validator - SPAN_OFF_BOUNDARY_CORRECTED - Correcting span '(20,0)-(60,0)' to '(20,0)-(50,0)' because "
            "it is outside the boundary '(10,0)-(50,0)' of document element 'T1'",
            Where("Q.rq.tsv", 3),
        ),
    ]
    folder = tmp_path / "SPARQL-VALID-output"
    folder.mkdir()
    (folder / "Q.rq.tsv").write_text("".join("\t".join(cells) + "\n" for cells in (HEADER, *rows)), encoding="utf-8")
    read = read_folder(folder, aux)["Q"]
    assert [(r.span_text, r.valid) for r in read.rows] == [("D1:I1:(1,1)-(2,2)", False), ("D1:T1:(20,0)-(50,0)", True)]
    assert [(e.kind, e.line, e.detail) for e in read.events] == [
        ("unreadable", 2, "the image extent of I1 in the AUX data is not numbers"),
        ("invalid", 2, "the image extent of I1 in the AUX data is not numbers"),
        ("corrected", 3, "span D1:T1:(20,0)-(60,0) moved inside its element: D1:T1:(20,0)-(50,0)"),
    ]


def test_the_error_lines_are_counted_from_the_events_as_nist_s_driver_counts_the_log_s_lines(tmp_path: Path) -> None:
    # values read from files may hold "ERROR" and line breaks: NIST's driver reads the printed log in
    # text mode (\\r\\n, \\r, \\n end a line; a form feed does not) and keys each line holding
    # "ERROR" by its fourth '-'-separated field
    log = EventLog("validate_responses.py")
    log.begin("--input ERROR-runs", "/data/a-b")
    log.record("UNKNOWN_ITEM", "cluster", "x-ERROR-y", source="Validator")
    log.record("MISSING_ITEM_WITH_KEY", "kb", "k", where=Where("ERROR/f.tsv", 3), source="Validator")
    log.record("UNKNOWN_ITEM", "cluster", "a\nb - c - d - ERROR - e\r\nf\x0cERROR - g - h - i", source="Reader")
    log.record("UNKNOWN_ITEM", "cluster", "one\rtwo - x - y - ERROR", source="Reader")
    log.record("INVALID_CONFIDENCE", "0.ERROR", where="t.tsv:9", source="Filter")
    log.info("nothing to see")
    path = tmp_path / "validate-responses.log"
    path.write_text(log_text(log), encoding="utf-8")
    with open(path, encoding="utf-8") as file:  # as NIST's driver reads it
        nist = [line.split("-")[3].strip() for line in file.readlines() if "ERROR" in line]
    assert log.error_classes() == nist
    # the INFO line opening the log counts for its arguments; a line break in a value starts a line
    # that counts on its own, keyed by its own fourth field; a form feed ends no line
    assert nist == [
        *("Execution begins {current_dir:/data/a", "Validator", "Validator"),
        *("Reader", "ERROR", "i' in response", "Reader", "ERROR' in response", "Filter"),
    ]


def test_a_response_holds_its_span_and_confidences_as_values(tmp_path: Path) -> None:
    """The span as NIST's validator's grammar reads it (a corrected span: the corrected one, its text
    what NIST writes back), as NIST's scorer's does where the validator's reads none; each confidence
    with the text NIST writes back."""
    aux = load_aux(_aux(tmp_path / "aux"), TA2_CORE)
    rows = (
        ("D1", "Q", "Q", "c1", "D1:T1:(20,0)-(60,0)", '"0.50"', "2"),
        ("D1", "Q", "Q", "c1", "D1:I1:(1,2)-(3,4)", "0.25", "x"),
        ("D1", "Q", "Q", "c1", "D1:T-1:(12,0)-(15,0)", '"1.0"', '"1.0"'),
        ("D1", "Q", "Q", "c1", "D1:T1:(a,0)-(15,0)", '"1.0"', '"1.0"'),
    )
    folder = tmp_path / "SPARQL-VALID-output"
    folder.mkdir()
    (folder / "Q.rq.tsv").write_text("".join("\t".join(cells) + "\n" for cells in (HEADER, *rows)), encoding="utf-8")
    read = read_folder(folder, aux)["Q"].rows
    corrected, image, scorer_only, unread = (row.span for row in read)
    assert corrected == Span("D1", "T1", 20, 50) and corrected.text == read[0].span_text == "D1:T1:(20,0)-(50,0)"
    assert (image, image.text) == (Span("D1", "I1", 1, 3, 2, 4), "D1:I1:(1,2)-(3,4)")
    assert scorer_only == Span("D1", "T-1", 12, 15) and not read[2].valid
    assert unread is None and read[3].span_text == "D1:T1:(a,0)-(15,0)"
    assert [(row.j_cv, row.link_cv) for row in read[:2]] == [
        (Confidence(0.5, '"0.50"'), Confidence(1.0, '"1.0"')),
        (Confidence(0.25, "0.25"), Confidence(1.0, '"1.0"')),
    ]
