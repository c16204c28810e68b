"""The ``aifcheck pipeline ta3`` command: a thin layer over aifcheck.pipeline.ta3.

    aifcheck pipeline ta3 RUN --user-queries DIR --aux DIR [--depth Condition5:N,...] [--ltf DIR]
                          [--query-set tag|march-2022] -o OUT [--force]

Bad input is one line (file, line where there is one) on stderr and exit 3; warnings (input NIST's
docker reads in a way worth knowing, or stops on) go to stderr and do not change the exit status.
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import Annotated

import typer

from aifcheck.cli.common import FORCE, QUERY_SET

EXAMPLES = """Example:

\b
  aifcheck pipeline ta3 task3-run/ --user-queries user-queries/ --aux AUX-data/
      --depth Condition5:10,Condition6:10,Condition7:10 -o out/
"""


def register(pipeline: typer.Typer) -> None:
    """Add ``ta3`` to the ``pipeline`` group."""
    pipeline.command("ta3", no_args_is_help=True, epilog=EXAMPLES)(ta3)


def ta3(
    run: Annotated[
        Path,
        typer.Argument(help="The TA3 run: Condition5|6|7/<query>/<query>.ranking.tsv and its claim frames (.ttl)."),
    ],
    user_queries: Annotated[
        Path, typer.Option(help="NIST's user queries: Condition5|6|7/topics.tsv and Condition5/Query_Claim_Frames/.")
    ],
    aux: Annotated[
        Path,
        typer.Option(help="LDC's AUX data as NIST's docker mounts it (documents, elements, their extents, encodings)."),
    ],
    output: Annotated[Path, typer.Option("--output", "-o", help="Write SPARQL-*-output, ARF-output and logs/ here.")],
    depth: Annotated[
        str | None,
        typer.Option(
            help="Keep only the N best-ranked claims per query and relation: Condition5:N,Condition6:N,Condition7:N."
        ),
    ] = None,
    ltf: Annotated[
        Path | None,
        typer.Option(help="LDC's LTF files (<element>.ltf.xml): fill missing object handles from the source text."),
    ] = None,
    query_set: Annotated[str, QUERY_SET] = "tag",
    force: Annotated[bool, FORCE] = False,
) -> None:
    """Run NIST's TA3 docker: SPARQL tables, clean, merge, validate, handle and ARF, as NIST writes them."""
    from aifcheck.pipeline.ta3.run import pipeline_ta3
    from aifcheck.render.output import check_new_folder
    from aifcheck.render.ta3.pipeline import summary, write_pipeline

    check_new_folder(output, force, [run, user_queries, aux, *([ltf] if ltf else [])])
    invocation = shlex.join(["aifcheck", *sys.argv[1:]])
    result = pipeline_ta3(run, user_queries, aux, depth, ltf, str(output), invocation, query_set)
    write_pipeline(result, output, force)
    for warning in result.warnings:
        typer.echo(f"aifcheck: warning: {warning}", err=True)
    sys.stdout.write(summary(result, str(output)))
