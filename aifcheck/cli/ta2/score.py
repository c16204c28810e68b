"""``aifcheck score ta2``: a thin layer over aifcheck.score.ta2.score_ta2.

    aifcheck score ta2 RUN --queries-to-score FILE --assessments DIR --aux DIR [--run-id ID]
                       [--cutoff] [--normalize] [--weighted] [--plan] [--format text|json] [--ci] -o OUT

Writes OUT/scores/AcrossDocumentsCoreferenceMetricV2-scores.tab and .txt (OUT whole or not at
all), prints a summary table (or JSON) on stdout and one line per warning or note on stderr.
Exit status: 0 scored, 1 scored but response rows were dropped or invalid (NIST's validation
logs errors), 2 usage error, 3 an input that cannot be read or scored.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from aifcheck.cli.common import FORCE, TABLE_FORMAT, check_inputs, check_run_id, note, warn
from aifcheck.cli.explain import EXPLAIN
from aifcheck.cli.stats import CI, CI_SEED, intervals_beside
from aifcheck.errors import ExitStatus

EXAMPLES = """Examples:

  aifcheck score ta2 stages/ --queries-to-score queries.tab --assessments LDC/ --aux AUX-data/ -o out/

  aifcheck score ta2 run/ --queries-to-score queries.tab --assessments LDC/ --aux AUX-data/ -o out/  # run/task2_kb.ttl
"""


def register(score: typer.Typer) -> None:
    """Add this scorer's command to the ``score`` group."""
    score.command("ta2", no_args_is_help=True, epilog=EXAMPLES)(ta2)


def ta2(
    run: Annotated[
        Path,
        typer.Argument(
            help="The run: NIST's docker output (a folder holding SPARQL-VALID-output/<query_id>.rq.tsv), "
            "or a folder holding task2_kb.ttl, which NIST's TA2 stages are run on first."
        ),
    ],
    queries_to_score: Annotated[
        Path,
        typer.Option(
            help="NIST's queries table (query_id, entity_id, entrypoint_type, entrypoint, clusters, documents)."
        ),
    ],
    assessments: Annotated[Path, typer.Option(help="LDC's package: data/TA2/*.tab.")],
    aux: Annotated[
        Path,
        typer.Option(help="NIST's AUX-data folder (<package>.coredocs.txt, parent_children, boundaries, encodings)."),
    ],
    output: Annotated[
        Path,
        typer.Option(
            "--output", "-o", help="Write OUT/scores/AcrossDocumentsCoreferenceMetricV2-scores.tab and .txt here."
        ),
    ],
    run_id: Annotated[
        str | None, typer.Option(help="The run ID in the score files (default: RUN's folder name).")
    ] = None,
    cutoff: Annotated[bool, typer.Option("--cutoff", "-C", help="NIST's -C: divide each AP by min(Rel, K).")] = False,
    normalize: Annotated[
        bool, typer.Option("--normalize", "-N", help="NIST's -N: with -W, divide weights by a cluster's highest j_cv.")
    ] = False,
    weighted: Annotated[
        bool, typer.Option("--weighted", "-W", help="NIST's -W: weigh each right item by its j_cv.")
    ] = False,
    plan: Annotated[
        bool, typer.Option("--plan", help="The plan's definitions (§5.2) where NIST's code departs from them.")
    ] = False,
    output_format: Annotated[
        str, typer.Option("--format", click_type=TABLE_FORMAT, help="text (a summary table) or json.")
    ] = "text",
    force: Annotated[bool, FORCE] = False,
    ci: Annotated[bool, CI] = False,
    ci_seed: Annotated[int | None, CI_SEED] = None,
    explain: Annotated[bool, EXPLAIN] = False,
) -> None:
    """Score a TA2 run as NIST's scorer does: AP per query and entity class, their mean (plan §5.2)."""
    from aifcheck.render.output import check_new_folder
    from aifcheck.render.ta2.scores import score_tables, scores_json, summary_text, write_scores
    from aifcheck.score.allocations import kept_until_exit
    from aifcheck.score.ta2 import score_ta2

    # the run ID NIST's scorer takes: the run folder's name (a KB file's folder's), or --run-id
    check_run_id(run_id, run.name if run.is_dir() else run.parent.name)
    inputs = (run, queries_to_score, assessments, aux)
    check_new_folder(output, force, inputs)  # before the work, which a full folder would waste
    check_inputs(files=[queries_to_score], folders=[run, assessments, aux])
    with kept_until_exit():
        scores = score_ta2(
            run, queries_to_score, assessments, aux, run_id, cutoff, normalize, weighted, plan, explain=explain
        )
    write_scores(
        scores,
        output,
        force,
        inputs,
        beside=(lambda folder: intervals_beside(folder, score_tables(scores, output), ci_seed)) if ci else None,
    )
    warn(scores.warnings)
    note(scores.notes)
    sys.stdout.write(scores_json(scores) if output_format == "json" else summary_text(scores))
    raise typer.Exit(int(ExitStatus.VIOLATIONS if scores.errors else ExitStatus.VALID))
