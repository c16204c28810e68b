"""``aifcheck pool ta2``: the TA2 pool NIST sends to LDC for assessment, a thin layer over
aifcheck.pipeline.ta2.pool.

    aifcheck pool ta2 RUN... --queries-to-score FILE --aux DIR -o POOL [--previous-pool DIR]...
                      [--batch BATCH1] [--kit-size 200]

Writes the POOL folder whole (pool.txt, the kits, their language map, the LDC package, each run's
pooled rows), prints each query's pooled mentions and kits on stdout, notes and the LDC package's
name (it holds the time and an md5) on stderr. Exit
status as ``score ta2``: 0, 1 when rows of the runs were dropped or invalid, 2, 3.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from aifcheck.cli.common import FORCE, KIT_SIZE, check_inputs, check_run_names, note
from aifcheck.errors import ExitStatus
from aifcheck.names import check_id

EXAMPLES = """Example:

  aifcheck pool ta2 runA/ runB/ --queries-to-score queries.tab --aux AUX-data/ -o pool/
"""


def register(pool_app: typer.Typer) -> None:
    """Add ``pool ta2`` to the ``pool`` group."""
    pool_app.command("ta2", no_args_is_help=True, epilog=EXAMPLES)(ta2)


def ta2(
    runs: Annotated[
        list[Path],
        typer.Argument(
            help="The runs: folders holding SPARQL-VALID-output/ (NIST's docker output); a folder's name is its run ID."
        ),
    ],
    queries_to_score: Annotated[
        Path, typer.Option(help="NIST's queries table (query_id, entrypoint, clusters, documents).")
    ],
    aux: Annotated[
        Path,
        typer.Option(help="NIST's AUX-data folder (<package>.coredocs.txt, parent_children, boundaries, encodings)."),
    ],
    output: Annotated[Path, typer.Option("--output", "-o", help="Write the pool into this new folder.")],
    previous_pool: Annotated[
        list[Path] | None,
        typer.Option(
            "--previous-pool",
            "-p",
            help="An earlier pool's folder (its pool.txt): its mentions are not pooled again (repeatable).",
        ),
    ] = None,
    batch: Annotated[str, typer.Option("--batch", "-b", help="The batch ID in the kits' names.")] = "BATCH1",
    kit_size: Annotated[
        int, typer.Option("--kit-size", "-k", click_type=KIT_SIZE, help="The most lines in a kit (1 or more).")
    ] = 200,
    force: Annotated[bool, FORCE] = False,
) -> None:
    """Pool TA2 runs as NIST's generate_pool.py task2 does: each query's top C clusters, K documents each."""
    from aifcheck.pipeline.shared.auxdata import TA2_CORE, load_aux
    from aifcheck.pipeline.ta2.pool import pool_ta2
    from aifcheck.pipeline.ta2.queries import POOLER_COLUMNS, read_queries
    from aifcheck.render.output import check_new_folder
    from aifcheck.render.ta2.pool import pool_summary, write_pool

    check_id(batch, "--batch")
    check_run_names(runs)
    inputs = (*runs, queries_to_score, aux, *(previous_pool or ()))
    check_new_folder(output, force, inputs)  # before the work, which a full folder would waste
    check_inputs(files=[queries_to_score], folders=[*runs, aux, *(previous_pool or ())])
    check_inputs(files=[Path(pool) / "pool.txt" for pool in previous_pool or ()])
    pool = pool_ta2(
        runs,
        read_queries(queries_to_score, POOLER_COLUMNS),
        load_aux(aux, TA2_CORE),
        previous_pool or (),
        batch,
        kit_size,
    )
    package = write_pool(pool, queries_to_score, output, force, inputs)
    note(pool.notes)
    note([f"wrote {output}, with the LDC package {package}"])
    typer.echo(pool_summary(pool), nl=False)
    raise typer.Exit(int(ExitStatus.VIOLATIONS if pool.errors else ExitStatus.VALID))
