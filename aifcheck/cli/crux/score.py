"""``aifcheck score crux-claims`` and ``crux-relations``: thin layers over aifcheck.score.crux.

aifcheck score crux-claims SYSTEM.tab --gold GOLD.tab [--format text|json]
aifcheck score crux-relations SYSTEM.tab --gold GOLD.tab [--format text|json]
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from aifcheck.cli.common import TABLE_FORMAT, warn

CLAIMS_EXAMPLES = """Example:

  aifcheck score crux-claims system.tab --gold gold.tab --format json
"""
RELATIONS_EXAMPLES = """Example:

  aifcheck score crux-relations system-relations.tab --gold gold-relations.tab
"""


def register(score: typer.Typer) -> None:
    """Add the CRUX scorers to the ``score`` group."""
    score.command("crux-claims", no_args_is_help=True, epilog=CLAIMS_EXAMPLES)(crux_claims)
    score.command("crux-relations", no_args_is_help=True, epilog=RELATIONS_EXAMPLES)(crux_relations)


def crux_claims(
    system: Annotated[Path, typer.Argument(help="The system's claim frames: CRUX's 12-column .tab.")],
    gold: Annotated[Path, typer.Option(help="The gold claim frames (12 columns, or a header-named table).")],
    output_format: Annotated[str, typer.Option("--format", click_type=TABLE_FORMAT, help="text or json.")] = "text",
    explain: Annotated[
        Path | None,
        typer.Option(
            "--explain",
            metavar="FOLDER",
            help="Also explain every row (each pair's fields matched or missed, each frame unmatched, at its line): "
            "FOLDER/explain/crux.jsonl (see aifcheck score explain).",
        ),
    ] = None,
) -> None:
    """CRUX Task 1: claim-frame P/R/F1, accuracy and per-field P/R/F1 (CRUX plan §2.1)."""
    from aifcheck.render.crux.scores import claims_json, claims_text
    from aifcheck.render.explain import write_explanations
    from aifcheck.score.crux.claims import score_claims

    scores = score_claims(system, gold, explain=explain is not None)
    if explain is not None:
        write_explanations(explain, "crux", scores.explanations)
    warn(scores.warnings)
    sys.stdout.write(claims_json(scores) if output_format == "json" else claims_text(scores))


def crux_relations(
    system: Annotated[Path, typer.Argument(help="The system's relations: claim_id_1 <tab> label <tab> claim_id_2.")],
    gold: Annotated[Path, typer.Option(help="The gold relations (same layout, or a header-named table).")],
    output_format: Annotated[str, typer.Option("--format", click_type=TABLE_FORMAT, help="text or json.")] = "text",
    explain: Annotated[
        Path | None,
        typer.Option(
            "--explain",
            metavar="FOLDER",
            help="Also explain every row (each gold pair a class counts, matched, missed or falsely predicted, at its "
            "lines; the macro-F1 and accuracy): FOLDER/explain/crux-relations.jsonl (see aifcheck score explain).",
        ),
    ] = None,
) -> None:
    """CRUX Task 2: per-class P/R/F1 and macro-F1 of cross-claim relations (CRUX plan §2.2)."""
    from aifcheck.render.crux.scores import relations_json, relations_text
    from aifcheck.render.explain import write_explanations
    from aifcheck.score.crux.relations import score_relations

    scores = score_relations(system, gold, explain=explain is not None)
    if explain is not None:
        write_explanations(explain, "crux-relations", scores.explanations)
    warn(scores.warnings)
    sys.stdout.write(relations_json(scores) if output_format == "json" else relations_text(scores))
