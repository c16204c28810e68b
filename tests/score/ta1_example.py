"""NIST's example TA1 run, for the TA1 scorer tests."""

from __future__ import annotations

from helpers import SHARED_DATA, TAGGABLE_TYPES, TYPE_SIMILARITY

from aifcheck.render.ta1.scores import NistLayout
from aifcheck.score.ta1 import score_ta1

EXAMPLE = SHARED_DATA / "ta1-scoring" / "example-task1-run"


def run_example(source, out, **options):
    """Score ``source`` against NIST's gold and AUX data, as NIST scored its example run, and
    write NIST's output layout under ``out``."""
    layout = NistLayout(out)
    options.setdefault("type_similarity", TYPE_SIMILARITY)  # the tables NIST's example run was scored with
    options.setdefault("taggable_types", TAGGABLE_TYPES)
    scores = score_ta1(
        source,
        SHARED_DATA / "ta1-gold-tsv",
        SHARED_DATA / "ta1-scoring" / "AUX-data",
        run_id="example-task1-run",
        on_document=layout.document,
        **options,
    )
    layout.run(scores)
    return scores
