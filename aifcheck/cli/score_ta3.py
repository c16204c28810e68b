"""The ``aifcheck score ta3``, ``crux-claims`` and ``crux-relations`` commands: thin layers over
aifcheck.score.ta3, aifcheck.score.crux and aifcheck.score.crux_relations.

    aifcheck score ta3 SUBMISSION --queries-to-score FILE --claim-mappings FILE --assessments DIR
                       -o OUT [--run-id ID] [--plan]
    aifcheck score crux-claims SYSTEM.tab --gold GOLD.tab [--format text|json]
    aifcheck score crux-relations SYSTEM.tab --gold GOLD.tab [--format text|json]

Input that cannot be read or scored is one line (file, line where there is one) on stderr and
exit 3, as in every command; warnings (input NIST reads in a way worth knowing) go to stderr and do
not change the exit status.
"""
from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Annotated, TypeVar

import typer

from aifcheck.render.output import check_new_folder
from aifcheck.cli.common import FORCE, TABLE_FORMAT, check_run_id
from aifcheck.cli.score_stats import CI, CI_SEED, intervals_beside

T = TypeVar("T")


TA3_EXAMPLES = """Example:

  aifcheck score ta3 run/ --queries-to-score queries.tab --claim-mappings claim-mappings.tab --assessments LDC/ -o out/
"""
CLAIMS_EXAMPLES = """Example:

  aifcheck score crux-claims system.tab --gold gold.tab --format json
"""
RELATIONS_EXAMPLES = """Example:

  aifcheck score crux-relations system-relations.tab --gold gold-relations.tab
"""


def register(score: typer.Typer) -> None:
    """Add this scorer's commands to the ``score`` group."""
    score.command("ta3", no_args_is_help=True, epilog=TA3_EXAMPLES)(ta3)
    score.command("crux-claims", no_args_is_help=True, epilog=CLAIMS_EXAMPLES)(crux_claims)
    score.command("crux-relations", no_args_is_help=True, epilog=RELATIONS_EXAMPLES)(crux_relations)


def _warn(warnings: Iterable[str]) -> None:
    for warning in warnings:
        typer.echo(f"aifcheck: warning: {warning}", err=True)


def _write(scores: T, output_format: str, as_json: Callable[[T], str], as_text: Callable[[T], str]) -> None:
    sys.stdout.write(as_json(scores) if output_format == "json" else as_text(scores))


def ta3(
    submission: Annotated[Path, typer.Argument(
        help="The run: Condition5|6|7/<query>/<query>.ranking.tsv and claim frames "
             "(or NIST's docker output: SPARQL-AUGMENTED-output, ARF-output).")],
    queries_to_score: Annotated[Path, typer.Option(
        help="NIST's queries table (query_id, condition, topic_id, depth).")],
    claim_mappings: Annotated[Path, typer.Option(help="NIST's claim-mappings.tab (run claims -> pool claims).")],
    assessments: Annotated[Path, typer.Option(
        help="LDC's package: data/TA3/system_claims, ldc_claims, cross_claim_relations.tab.")],
    output: Annotated[Path, typer.Option("--output", "-o", help="Write OUT/scores/<Metric>-scores.tab and .txt here (OUT/scores new or empty, or --force).")],
    run_id: Annotated[str | None, typer.Option(
        help="The run's ID in claim-mappings.tab (default: SUBMISSION's folder name).")] = None,
    plan: Annotated[bool, typer.Option(
        "--plan", help="The plan's definitions where NIST's code departs from them (README).")] = False,
    ci: Annotated[bool, CI] = False,
    ci_seed: Annotated[int | None, CI_SEED] = None,
    force: Annotated[bool, FORCE] = False,
) -> None:
    """Score a TA3 run as NIST's scorer does: NDCG V1/V2 and F1 V1A-C/V2A-C (plan §6.3)."""
    # imported here: the other commands start faster without numpy
    from aifcheck.score.ta3.scorer import score_ta3
    from aifcheck.render.ta3.scores import summary_table, write_score_files

    check_run_id(run_id)
    inputs = [submission, queries_to_score, claim_mappings, assessments]
    check_new_folder(output / "scores", force, inputs)  # before the work, which a full folder would waste
    scores = score_ta3(submission, queries_to_score, claim_mappings, assessments, run_id, plan)
    write_score_files(scores, output, force, inputs)
    if ci:
        intervals_beside(output, ci_seed)
    _warn(scores.warnings)
    sys.stdout.write(summary_table(scores))


def crux_claims(
    system: Annotated[Path, typer.Argument(help="The system's claim frames: CRUX's 12-column .tab.")],
    gold: Annotated[Path, typer.Option(help="The gold claim frames (12 columns, or a header-named table).")],
    output_format: Annotated[str, typer.Option("--format", click_type=TABLE_FORMAT, help="text or json.")] = "text",
) -> None:
    """CRUX Task 1: claim-frame P/R/F1, accuracy and per-field P/R/F1 (CRUX plan §2.1)."""
    from aifcheck.score.crux.claims import score_claims
    from aifcheck.render.crux.scores import claims_json, claims_text

    scores = score_claims(system, gold)
    _warn(scores.warnings)
    _write(scores, output_format, claims_json, claims_text)


def crux_relations(
    system: Annotated[Path, typer.Argument(help="The system's relations: claim_id_1 <tab> label <tab> claim_id_2.")],
    gold: Annotated[Path, typer.Option(help="The gold relations (same layout, or a header-named table).")],
    output_format: Annotated[str, typer.Option("--format", click_type=TABLE_FORMAT, help="text or json.")] = "text",
) -> None:
    """CRUX Task 2: per-class P/R/F1 and macro-F1 of cross-claim relations (CRUX plan §2.2)."""
    from aifcheck.score.crux.relations import score_relations
    from aifcheck.render.crux.scores import relations_json, relations_text

    scores = score_relations(system, gold)
    _warn(scores.warnings)
    _write(scores, output_format, relations_json, relations_text)
