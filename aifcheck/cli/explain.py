"""``aifcheck score explain``: one score row explained, from what ``score ta1|ta2|ta3 --explain``
wrote (a thin layer over aifcheck.score.explain and aifcheck.render.explain)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from aifcheck.errors import UsageError

# `score ta1|ta2|ta3|crux-* --explain`: every score row explained beside the scores
EXPLAIN = typer.Option(
    "--explain",
    help="Also explain every score row, down to the lines of the submission: explain/<task>.jsonl "
    "beside the scores (see aifcheck score explain).",
)

EXAMPLES = """Examples:

  aifcheck score explain scores/ CoreferenceMetric:L0C04936H:ALL

  aifcheck score explain scores/ --list
"""


def register(score: typer.Typer) -> None:
    score.command("explain", no_args_is_help=True, epilog=EXAMPLES)(explain)


def explain(
    scores: Annotated[
        Path, typer.Argument(help="A folder score ta1|ta2|ta3 --explain wrote, or its explain/<task>.jsonl.")
    ],
    row: Annotated[
        str | None,
        typer.Argument(
            help="METRIC[:VALUE...]: the metric and values of the row's key (document, query, metatype, cluster...)."
        ),
    ] = None,
    listing: Annotated[bool, typer.Option("--list", help="List the rows explained, one a line.")] = False,
) -> None:
    """Print why a score row has its value: the items it counted and the formula that adds them up."""
    from aifcheck.render.explain import row_line, summary
    from aifcheck.score.explain import read_explanations, select_rows

    explanations = read_explanations(scores)
    if listing or row is None:
        typer.echo("".join(row_line(e) for e in explanations), nl=False)
        return
    chosen = select_rows(explanations, row)
    if not chosen:
        metrics = sorted({e.metric for e in explanations})
        raise UsageError(f"no row {row!r} in {scores} (metrics: {', '.join(metrics)}; --list lists the rows)")
    typer.echo("\n".join(summary(e) for e in chosen), nl=False)
