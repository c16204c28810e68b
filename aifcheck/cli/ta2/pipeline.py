"""``aifcheck pipeline ta2``: NIST's TA2 docker stages on a team's task2_kb.ttl, a thin layer over
aifcheck.pipeline.ta2.run. Prints one line per query (its rows before and after validation) and NIST's
closing message on stdout. Exit codes as ``score ta1``: 0 done, 1 done but NIST's validate stage
logged errors (rows dropped), 2 usage error, 3 an input that cannot be read or an output that
cannot be written.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from aifcheck.cli.common import FORCE, check_inputs, note
from aifcheck.errors import ExitStatus

TA2_EXAMPLES = """Example:

  aifcheck pipeline ta2 run/ --queries queries.tsv --aux AUX-data/ -o out/
"""


def register(pipeline_app: typer.Typer) -> None:
    """Add ``pipeline ta2`` to the ``pipeline`` group."""
    pipeline_app.command("ta2", no_args_is_help=True, epilog=TA2_EXAMPLES)(ta2)


def ta2(
    run: Annotated[
        Path, typer.Argument(help="The run: a folder holding task2_kb.ttl and nothing else, as NIST's docker takes it.")
    ],
    queries: Annotated[
        Path,
        typer.Option(
            "--queries",
            help="NIST's TA2 queries table (query_id entity_id entrypoint_type entrypoint clusters documents).",
        ),
    ],
    aux: Annotated[
        Path,
        typer.Option("--aux", help="NIST's AUX-data folder (*.coredocs.txt, parent_children, boundaries, encodings)."),
    ],
    output: Annotated[
        Path, typer.Option("--output", "-o", help="Write NIST's output folders into this folder (new or empty).")
    ],
    force: Annotated[bool, FORCE] = False,
) -> None:
    """NIST's TA2 docker stages on task2_kb.ttl: one SPARQL query per row of the queries table, then
    clean and validate."""
    from aifcheck.pipeline.ta2.run import find_kb, pipeline_ta2
    from aifcheck.render.output import check_new_folder
    from aifcheck.render.ta2.pipeline import console_table, write_pipeline_ta2

    inputs = (run, queries, aux)
    check_new_folder(output, force, inputs)  # before the work, which a full folder would waste
    check_inputs(files=[queries], folders=[run, aux])
    kb = find_kb(run)
    result = pipeline_ta2(kb, queries, aux)
    write_pipeline_ta2(result, kb, output, force, inputs)
    typer.echo(console_table(result), nl=False)
    typer.echo(result.summary)
    if result.errors:
        note([f"see {output / 'logs' / 'validate-responses.log'}"])
    raise typer.Exit(int(ExitStatus.VIOLATIONS if result.errors else ExitStatus.VALID))
