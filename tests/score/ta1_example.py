"""NIST's example TA1 run, for the TA1 scorer tests."""

from __future__ import annotations

from helpers import AUX_DATA, SHARED_DATA, TA1_EXAMPLE, TAGGABLE_TYPES, TYPE_SIMILARITY

from aifcheck.render.ta1.scores import NistLayout
from aifcheck.score.ta1 import score_ta1

EXAMPLE = TA1_EXAMPLE


def run_example(source, out, **options):
    """Score ``source`` against NIST's gold and AUX data, as NIST scored its example run, and
    write NIST's output layout under ``out``."""
    layout = NistLayout(out)
    options.setdefault("type_similarity", TYPE_SIMILARITY)  # the tables NIST's example run was scored with
    options.setdefault("taggable_types", TAGGABLE_TYPES)
    scores = score_ta1(
        source,
        SHARED_DATA / "ta1-gold-tsv",
        AUX_DATA,
        run_id="example-task1-run",
        on_document=layout.document,
        **options,
    )
    layout.run(scores)
    return scores
