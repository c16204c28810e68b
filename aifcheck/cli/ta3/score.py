"""``aifcheck score ta3``: a thin layer over aifcheck.score.ta3.

    aifcheck score ta3 SUBMISSION --queries-to-score FILE --claim-mappings FILE --assessments DIR
                       -o OUT [--run-id ID] [--plan]

Input that cannot be read or scored is one line (file, line where there is one) on stderr and
exit 3, as in every command; warnings (input NIST reads in a way worth knowing) go to stderr and do
not change the exit status.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from aifcheck.cli.common import FORCE, check_inputs, check_run_id, warn
from aifcheck.cli.explain import EXPLAIN
from aifcheck.cli.stats import CI, CI_SEED, intervals_beside
from aifcheck.render.output import check_scores_folder

EXAMPLES = """Example:

  aifcheck score ta3 run/ --queries-to-score queries.tab --claim-mappings claim-mappings.tab --assessments LDC/ -o out/
"""


def register(score: typer.Typer) -> None:
    """Add ``score ta3`` to the ``score`` group."""
    score.command("ta3", no_args_is_help=True, epilog=EXAMPLES)(ta3)


def ta3(
    submission: Annotated[
        Path,
        typer.Argument(
            help="The run: Condition5|6|7/<query>/<query>.ranking.tsv and claim frames "
            "(or NIST's docker output: SPARQL-AUGMENTED-output, ARF-output)."
        ),
    ],
    queries_to_score: Annotated[
        Path, typer.Option(help="NIST's queries table (query_id, condition, topic_id, depth).")
    ],
    claim_mappings: Annotated[Path, typer.Option(help="NIST's claim-mappings.tab (run claims -> pool claims).")],
    assessments: Annotated[
        Path, typer.Option(help="LDC's package: data/TA3/system_claims, ldc_claims, cross_claim_relations.tab.")
    ],
    output: Annotated[
        Path,
        typer.Option(
            "--output",
            "-o",
            help="Write OUT/scores/<Metric>-scores.tab and .txt here (OUT/scores new or empty, or --force).",
        ),
    ],
    run_id: Annotated[
        str | None, typer.Option(help="The run's ID in claim-mappings.tab (default: SUBMISSION's folder name).")
    ] = None,
    plan: Annotated[
        bool, typer.Option("--plan", help="The plan's definitions where NIST's code departs from them (README).")
    ] = False,
    ci: Annotated[bool, CI] = False,
    ci_seed: Annotated[int | None, CI_SEED] = None,
    explain: Annotated[bool, EXPLAIN] = False,
    force: Annotated[bool, FORCE] = False,
) -> None:
    """Score a TA3 run as NIST's scorer does: NDCG V1/V2 and F1 V1A-C/V2A-C (plan §6.3)."""
    # imported here: the other commands start faster without numpy
    from aifcheck.render.explain import write_explanations
    from aifcheck.render.ta3.scores import score_tables, summary_table, write_score_files
    from aifcheck.score.allocations import kept_until_exit
    from aifcheck.score.ta3.scorer import score_ta3

    check_run_id(run_id, submission.resolve().name)
    inputs = [submission, queries_to_score, claim_mappings, assessments]
    check_scores_folder(output, force, inputs)  # before the work, which a full folder would waste
    check_inputs(files=[queries_to_score, claim_mappings], folders=[submission, assessments])
    with kept_until_exit():
        scores = score_ta3(submission, queries_to_score, claim_mappings, assessments, run_id, plan, explain)
    beside = (lambda folder: intervals_beside(folder, score_tables(scores, output), ci_seed)) if ci else None
    write_score_files(scores, output, force, inputs, beside=beside)
    if explain:
        write_explanations(output, "ta3", scores.explanations)
    warn(scores.warnings)
    sys.stdout.write(summary_table(scores))
