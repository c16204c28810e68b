"""score ta1 on mentions of every kind of justification, in a core document of the practice
evaluation with text, an image and a video with key frames (L0C049DNW, its real element and
keyframe IDs in NIST's AUX data): tests/data/ta1-kinds has its KB and hand-made gold tables, under
plain names (KINDS lays them out as NIST's run and gold folders).

NIST's own code (validate_responses.py, filter_responses.py with aifcheck's type tables in place of
its DWD overlay and KGTK cache, score_submission.py), run offline on the KB's tables without the
shot row (on which it stops), writes the same VALID, FILTERED, alignment, similarities and scores
files as aifcheck. The IoU values below are worked by hand from NIST's rules (aifcheck.pipeline.ta1.iou).
"""

from __future__ import annotations

import atexit
import json
import shutil
import tempfile
from pathlib import Path

import pytest
from helpers import TYPE_TABLE_FILES
from ta1_kinds import DOC, kinds_aux, lay_out

from aifcheck.render.ta1.scores import NistLayout
from aifcheck.score.ta1 import score_ta1

KINDS = lay_out(Path(tempfile.mkdtemp(prefix="aifcheck-ta1-kinds-")))
atexit.register(shutil.rmtree, KINDS, True)


@pytest.fixture(scope="module")
def aux(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """NIST's AUX data with L0C049DNW the only core document (the run holds no other)."""
    return kinds_aux(tmp_path_factory.mktemp("aux"))


def score(run: Path, aux: Path, out: Path):
    layout = NistLayout(out)
    scores = score_ta1(run, KINDS / "gold", aux, run_id="kinds", on_document=layout.document, **TYPE_TABLE_FILES)
    layout.run(scores)
    return scores


def lines(path: Path) -> list[list[str]]:
    return [line.split("\t") for line in path.read_text().splitlines()[1:]]


@pytest.fixture(scope="module")
def scored(aux: Path, tmp_path_factory: pytest.TempPathFactory):
    out = tmp_path_factory.mktemp("kinds") / "out"
    return out, score(KINDS / "run", aux, out)


def test_a_cluster_mentioned_only_by_a_key_frame_keeps_its_rows(scored) -> None:
    out, _ = scored
    cm = lines(out / "SPARQL-CLEAN-output" / f"{DOC}.ttl" / "AIDA_P3_TA1_CM_A0001.rq.tsv")
    spans = {(r[0], r[3]) for r in cm}
    assert ("cluster-S-person", f"{DOC}:L0C049DNY_3:(110,90)-(300,400)") in spans  # key frame
    assert ("cluster-S-crash", f"{DOC}:L0C049DNY:(2.5,0)-(7.0,0)") in spans  # video times
    assert ("cluster-S-sound", f"{DOC}:L0C049DNY:(20.0,0)-(25.0,0)") in spans  # audio times
    assert ("cluster-S-shot", "") in spans  # getSpan prints no span for a shot


def test_a_shot_row_is_invalid_where_nist_stops(scored) -> None:
    # NIST's scorer stops on the empty span (UNEXPECTED_SPAN_FORMAT, CRITICAL); aifcheck drops the
    # row as NIST's validator drops such an AM row
    out, scores = scored
    valid = lines(out / "SPARQL-VALID-output" / f"{DOC}.ttl" / "AIDA_P3_TA1_CM_A0001.rq.tsv")
    assert "cluster-S-shot" not in {r[0] for r in valid} and len(valid) == 7
    assert scores.results.error_stats == {"Validator": 1}  # NIST keys a line by the class that logged it
    assert "INVALID_PROVENANCE_FORMAT - Invalid provenance ''" in (out / "logs" / "validate-responses.log").read_text()


def test_each_kind_is_aligned_with_nist_s_iou(scored) -> None:
    out, _ = scored
    found = {
        (r[1], r[2], r[3].split(":")[1]): (r[3], r[4], float(r[5]))
        for r in lines(out / "alignment" / "mention" / f"{DOC}.tab")
    }
    # image: 1-px collar in a 400x400 image: (9..190 x 9..210) against (0..200 x 0..200)
    assert found["cluster-S-car", "cluster-G-car", "L0C049DOJ"][2] == pytest.approx(
        181 * 191 / (200 * 200 + 181 * 201 - 181 * 191)
    )
    # key frame: the same, in the 1280x720 key frame L0C049DNY_3
    assert found["cluster-S-person", "cluster-G-person", "L0C049DNY_3"][2] == pytest.approx(
        191 * 301 / (201 * 301 + 192 * 312 - 191 * 301)
    )
    # video times, a 0.01 s collar: 2.49..7.01 against 1.99..6.01
    assert found["cluster-S-crash", "cluster-G-crash", "L0C049DNY"][2] == pytest.approx((6.01 - 2.49) / (7.01 - 1.99))
    # a key frame against video times of the same video, compared as the first (the gold's) is:
    # as times (3.02 / 4.02), not as boxes (5 / 6)
    assert found["cluster-S-screen", "cluster-G-screen", "L0C049DNY_4"] == (
        f"{DOC}:L0C049DNY_4:(10,0)-(13,0)",
        f"{DOC}:L0C049DNY:(10.0,0)-(14.0,0)",
        pytest.approx(3.02 / 4.02),
    )
    clusters = {(r[1], r[2]): float(r[3]) for r in lines(out / "alignment" / "cluster" / f"{DOC}.tab")}
    assert clusters["cluster-S-crash", "cluster-G-crash"] == 2.0  # its video and text mentions
    assert clusters["cluster-S-sound", "None"] == 0  # audio of the video: no gold near it


def test_the_scores_worked_by_hand(scored) -> None:
    _, scores = scored
    c = 1 / 12
    assert scores.results.values["CoreferenceMetric_F1"] == pytest.approx(
        5 / 6
    )  # aligned 5 of self-similarities 6 and 6
    assert scores.results.values["TypeMetricV4_S"] == pytest.approx(
        4 / 5
    )  # 4 aligned pairs, the audio cluster unaligned
    # crash: ClusterSim 0.8 (2 of 3 and 2); person 2/3 (1 of 1 and 2); car 1
    assert scores.results.values["FrameMetric_S"] == pytest.approx((0.8 * 2 / 3 + 0.8) / 2)
    assert scores.results.values["ArgumentMetricV3A2_TRFscore"] == pytest.approx((2 / 3 + 1) / 2)
    assert scores.results.values["TemporalMetric_S"] == pytest.approx((c / (c + 4 / 365) + c / (c + 11 / 365) + 2) / 4)


def test_an_audio_element_is_invalid_where_nist_stops(aux: Path, tmp_path: Path) -> None:
    # NIST's AUX data holds no audio boundaries: its validator stops (AttributeError) on a span of an
    # element whose modality is audio; aifcheck logs MISSING_ITEM_WITH_KEY and drops the row
    audio_aux = tmp_path / "aux"
    shutil.copytree(aux, audio_aux)
    with open(audio_aux / "LDC2021E11.parent_children.tsv", "a") as table:
        table.write(f"L0C049AUD\tmp3\t{DOC}\tn/a\n")
    run = tmp_path / "run"
    run.mkdir()
    kb = (
        (KINDS / "run" / f"{DOC}.ttl")
        .read_text()
        .replace(
            'run:sound-audio a aida:AudioJustification ; aida:source "L0C049DNY"',
            'run:sound-audio a aida:AudioJustification ; aida:source "L0C049AUD"',
        )
    )
    (run / f"{DOC}.ttl").write_text(kb)
    out = tmp_path / "out"
    scores = score(run, audio_aux, out)
    assert scores.results.error_stats == {"Validator": 2}
    assert (
        "MISSING_ITEM_WITH_KEY - audio boundary 'L0C049AUD' not found"
        in (out / "logs" / "validate-responses.log").read_text()
    )
    assert (
        json.loads((out / "results.json").read_text())["scores"][0]["TypeMetricV4_S"] == "1.0000"
    )  # no unaligned cluster left
