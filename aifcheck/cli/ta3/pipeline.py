"""The ``aifcheck pipeline ta3`` command: a thin layer over aifcheck.pipeline.ta3.

    aifcheck pipeline ta3 RUN --user-queries DIR --aux DIR [--depth Condition5:N,...] [--ltf DIR]
                          [--query-set tag|march-2022] -o OUT [--force]

Exit status: 0 done, 1 done but NIST's stages logged errors (claims dropped), 2 usage error, 3 an
input that cannot be read (one line on stderr: file, line where there is one) or an output that
cannot be written; warnings (input NIST's docker reads in a way worth knowing, or stops on) go to
stderr and do not change the exit status.
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import Annotated

import typer

from aifcheck.cli.common import FORCE, QUERY_SET, check_inputs, warn
from aifcheck.cli.progress import ProgressBar
from aifcheck.errors import ExitStatus

EXAMPLES = """Example:

  aifcheck pipeline ta3 task3-run/ --user-queries user-queries/ --aux AUX-data/ --depth Condition5:10 -o out/
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
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Claim frames queried in N parallel processes.")] = 1,
) -> None:
    """Run NIST's TA3 docker: SPARQL tables, clean, merge, validate, handle and ARF, as NIST writes them."""
    from aifcheck.pipeline.ta3.run import pipeline_ta3
    from aifcheck.render.output import check_new_folder
    from aifcheck.render.ta3.pipeline import summary, write_pipeline
    from aifcheck.spread.parallel import Spread

    inputs = [run, user_queries, aux, ltf]
    check_new_folder(output, force, inputs)  # before the work, which a full folder would waste
    check_inputs(folders=inputs)
    invocation = shlex.join(["aifcheck", *sys.argv[1:]])
    with ProgressBar.on_terminal(0) as bar:
        result = pipeline_ta3(
            run, user_queries, aux, depth, ltf, str(output), invocation, query_set, Spread(jobs), bar.stage
        )
    write_pipeline(result, output, force, inputs)
    warn(result.warnings)
    sys.stdout.write(summary(result, str(output)))
    # as pipeline ta2 and the scorers: 1 when NIST's stages logged errors (rows or claims dropped)
    raise typer.Exit(
        int(ExitStatus.VIOLATIONS if any(log.errors for log in result.logs.values()) else ExitStatus.VALID)
    )
