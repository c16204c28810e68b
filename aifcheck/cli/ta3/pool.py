"""The ``aifcheck pool ta3`` command: a thin layer over aifcheck.pipeline.ta3.pool.

aifcheck pool ta3 RUN... --queries-to-score FILE [--user-queries DIR --aux DIR] -o DIR
                  [--previous-pool DIR]... [--force]
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import Annotated

import typer

from aifcheck.cli.common import FORCE, check_inputs, check_run_names, warn

EXAMPLES = (
    "Example:\n"
    "\n"
    "  aifcheck pool ta3 runs/team1 runs/team2 --queries-to-score queries.tab --user-queries"
    " user-queries/ --aux AUX-data/ -o pool/\n"
)


def register(pool: typer.Typer) -> None:
    """Add ``ta3`` to the ``pool`` group."""
    pool.command("ta3", no_args_is_help=True, epilog=EXAMPLES)(ta3)


def ta3(
    runs: Annotated[
        list[Path],
        typer.Argument(
            help="Runs as aifcheck pipeline ta3 writes them (ARF-output, SPARQL-VALID-output); a run's ID is its "
            "folder's name."
        ),
    ],
    queries_to_score: Annotated[
        Path, typer.Option(help="NIST's queries table: query_id, condition, depth (ontopic:N,supporting:N,...).")
    ],
    output: Annotated[
        Path, typer.Option("--output", "-o", help="Write pool/, claim-mappings.tab and human-readable-format.tab here.")
    ],
    user_queries: Annotated[
        Path | None,
        typer.Option(
            help="NIST's user queries: the Condition 5 query claim frames of the queries to score are pooled as run "
            "query_claim_frames, as NIST pooled them (their stages: OUT/runs/query_claim_frames)."
        ),
    ] = None,
    aux: Annotated[
        Path | None,
        typer.Option(help="LDC's AUX data, for the query claim frames' stages (with --user-queries)."),
    ] = None,
    previous_pool: Annotated[
        list[Path] | None,
        typer.Option(help="A pool made before: its claims are mapped but not written again (repeatable)."),
    ] = None,
    force: Annotated[bool, FORCE] = False,
) -> None:
    """Pool TA3 runs for assessment as NIST's generate_pool.py task3 does, with the claim mappings score ta3 reads."""
    from aifcheck.errors import UsageError
    from aifcheck.pipeline.ta3.pool import condition5_queries, pool_ta3
    from aifcheck.pipeline.ta3.qcf import query_claim_frames
    from aifcheck.pipeline.ta3.run import pipeline_ta3
    from aifcheck.render.output import check_new_folder
    from aifcheck.render.ta3.pool import RUNS, summary, write_pool

    if (user_queries is None) != (aux is None):
        raise UsageError("--user-queries and --aux go together: the query claim frames go through NIST's TA3 stages")
    check_run_names(runs)
    folders = [*(previous_pool or ()), user_queries, aux]  # (None: not given)
    given = [*runs, queries_to_score, *folders]
    check_new_folder(output, force, given)  # before the work, which a full folder would waste
    check_inputs(files=[queries_to_score], folders=[*runs, *folders])
    frames = None
    if user_queries is not None and aux is not None:
        qcf_out = str(output / RUNS / "query_claim_frames")
        invocation = shlex.join(["aifcheck", *sys.argv[1:]])
        selection = query_claim_frames(condition5_queries(queries_to_score))
        frames = pipeline_ta3(selection, user_queries, aux, out=qcf_out, invocation=invocation)
    pool = pool_ta3(runs, queries_to_score, previous_pool, frames, str(output / RUNS))
    write_pool(pool, output, force, given)
    warn(pool.warnings)
    sys.stdout.write(summary(pool, str(output), previous=bool(previous_pool)))
