"""The ``aifcheck claims`` and ``aifcheck lint-submission`` commands: thin layers over
aifcheck.claim_frames and aifcheck.submission.

    aifcheck claims PATH... [--format tsv|crux|json] [-o FILE]
    aifcheck lint-submission DIR --condition 5|6|7 [--topics FILE | --queries DIR] [--complete]
                             [--format text|json|sarif|github]

Errors print one line to stderr: a usage error exits 2; an unreadable input exits 3 once the
other inputs have been processed (for lint-submission, violations, exit 1, win over it).
"""
from __future__ import annotations

import enum
import os
import sys
from pathlib import Path
from typing import Annotated

import typer

from .catalog import load_catalog
from .errors import UsageError
from .render import get_renderer
from .report import ExitStatus


class ClaimFormat(str, enum.Enum):
    tsv = "tsv"
    crux = "crux"
    json = "json"


def register(app: typer.Typer) -> None:
    """Add the ``claims`` and ``lint-submission`` commands to aifcheck's typer app."""
    app.command("claims", no_args_is_help=True)(claims)
    app.command("lint-submission", no_args_is_help=True)(lint_submission)


def claims(
    paths: Annotated[list[str], typer.Argument(help="Claim frame files (.ttl, .nt, .gz), folders or globs.")],
    output_format: Annotated[
        ClaimFormat, typer.Option("--format", help="tsv (every field), crux (CRUX 2023 .tab) or json.")
    ] = ClaimFormat.tsv,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Output file (stdout by default).")] = None,
) -> None:
    """One row per aida:Claim with every claim-frame field (plan §6.2.1-6.2.3)."""
    from .claim_frames import collect, render  # imported here: the other commands start faster without it

    found, problems = collect(paths)
    text = render(found, output_format.value)
    try:
        if output is None:
            sys.stdout.write(text)
        else:
            output.write_text(text, encoding="utf-8")
    except OSError as exc:
        typer.echo(f"aifcheck: error: cannot write {output}: {exc.strerror or exc}", err=True)
        raise typer.Exit(int(ExitStatus.USAGE)) from None
    for problem in problems:
        typer.echo(str(problem), err=True)
    raise typer.Exit(int(ExitStatus.UNREADABLE if problems else ExitStatus.VALID))


def lint_submission(
    directory: Annotated[Path, typer.Argument(help="The submission: one folder per query claim frame or topic.")],
    condition: Annotated[int, typer.Option(help="TA3 condition: 5, 6 or 7.")],
    topics: Annotated[Path | None, typer.Option(help="Conditions 6, 7: NIST's topics file (topics.tsv).")] = None,
    queries: Annotated[
        Path | None, typer.Option(help="Condition 5: NIST's folder of query claim frames (<ID>.ttl).")
    ] = None,
    complete: Annotated[bool, typer.Option("--complete", help="Every topic or query must have a folder (S8).")] = False,
    output_format: Annotated[
        str | None, typer.Option("--format", help="text, json, sarif or github (github when GITHUB_ACTIONS is set).")
    ] = None,
) -> None:
    """Check a TA3 submission directory (rules S1-S8) and every claim frame in it (profile ta3)."""
    from .submission import lint  # imported here, as collect above

    try:
        render_report = get_renderer(output_format or ("github" if os.environ.get("GITHUB_ACTIONS") else "text"))
        report = lint(directory, condition, topics, queries, complete)
    except UsageError as exc:
        typer.echo(f"aifcheck: error: {exc}", err=True)
        raise typer.Exit(int(ExitStatus.USAGE)) from None
    render_report(report, load_catalog(), sys.stdout)
    raise typer.Exit(int(report.exit_status))
