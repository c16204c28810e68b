"""The ``aifcheck pool ta3`` command: a thin layer over aifcheck.pipeline.ta3.pool.

aifcheck pool ta3 RUN... --queries-to-score FILE -o DIR [--previous-pool DIR]... [--force]
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from aifcheck.cli.common import FORCE, check_inputs, check_run_names

EXAMPLES = """Example:

  aifcheck pool ta3 runs/team1 runs/query_claim_frames --queries-to-score queries.tab -o pool/
"""


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
    previous_pool: Annotated[
        list[Path] | None,
        typer.Option(help="A pool made before: its claims are mapped but not written again (repeatable)."),
    ] = None,
    force: Annotated[bool, FORCE] = False,
) -> None:
    """Pool TA3 runs for assessment as NIST's generate_pool.py task3 does, with the claim mappings score ta3 reads."""
    from aifcheck.loading.tsv import check_unique
    from aifcheck.pipeline.ta3.pool import pool_ta3
    from aifcheck.render.output import check_new_folder
    from aifcheck.render.ta3.pool import summary, write_pool

    check_run_names(runs)
    inputs = [*runs, queries_to_score, *(previous_pool or ())]
    check_new_folder(output, force, inputs)  # before the work, which a full folder would waste
    check_inputs(files=[queries_to_score], folders=[*runs, *(previous_pool or ())])
    check_unique(queries_to_score, ("condition", "query_id"))
    pool = pool_ta3(runs, queries_to_score, previous_pool)
    write_pool(pool, output, force, inputs)
    sys.stdout.write(summary(pool, str(output), previous=bool(previous_pool)))
