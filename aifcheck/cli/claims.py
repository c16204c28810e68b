"""The ``aifcheck claims`` and ``aifcheck lint-submission`` commands: thin layers over
aifcheck.claim_frames and aifcheck.submission.

    aifcheck claims PATH... [--format tsv|crux|json | --relations identical] [-o FILE]
    aifcheck lint-submission DIR --condition 5|6|7 [--topics FILE | --queries DIR] [--complete]
                             [--format text|json|sarif|github]

Errors print one line to stderr: a usage error exits 2; an unreadable input exits 3 once the
other inputs have been processed (for lint-submission, violations, exit 1, win over it).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from aifcheck.cli.common import (
    CONDITION,
    AllFindings,
    Config,
    Engine,
    FileTimeout,
    Format,
    Ignore,
    Jobs,
    MaxSize,
    MaxViolations,
    Named,
    NoConfig,
    Output,
    Quiet,
    Scheduler,
    Select,
    SeverityOption,
    ShipFiles,
    Statistics,
    Store,
    Strict,
    format_name,
    report_output,
    validation_options,
)
from aifcheck.errors import ExitStatus
from aifcheck.loading.paths import discover
from aifcheck.render.output import FileOutput, check_files


def _claim_formats() -> tuple[str, ...]:
    from aifcheck.render.claims import FORMATS

    return tuple(FORMATS)


CLAIM_FORMAT = Named("format", _claim_formats)


def _relations() -> tuple[str, ...]:
    from aifcheck.extract.claims import IDENTICAL

    return (IDENTICAL,)


RELATION = Named("relation", _relations)


CLAIMS_EXAMPLES = """Examples:

  aifcheck claims run/ --format crux -o claims.tab

  aifcheck claims run/ --relations identical
"""
LINT_EXAMPLES = """Examples:

  aifcheck lint-submission task3-run/ --user-queries user-queries/

  aifcheck lint-submission run/Condition5 --queries user-queries/Condition5/Query_Claim_Frames
"""


def register(app: typer.Typer) -> None:
    """Add the ``claims`` and ``lint-submission`` commands to aifcheck's typer app."""
    app.command("claims", no_args_is_help=True, epilog=CLAIMS_EXAMPLES)(claims)
    app.command("lint-submission", no_args_is_help=True, epilog=LINT_EXAMPLES)(lint_submission)


def claims(
    paths: Annotated[
        list[str], typer.Argument(help="Claim frame files (.ttl, .nt, .gz), folders, globs, or - for stdin.")
    ],
    output_format: Annotated[
        str, typer.Option("--format", click_type=CLAIM_FORMAT, help="tsv (every field), crux (CRUX 2023 .tab) or json.")
    ] = "tsv",
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Output file (stdout by default).")] = None,
    relations: Annotated[
        str | None,
        typer.Option(
            "--relations",
            click_type=RELATION,
            help="identical: instead of the claims, the pairs of identical claims (CRUX §2.2) "
            "as CRUX Task 2 lines (claim_id_1, identical, claim_id_2).",
        ),
    ] = None,
    with_source: Annotated[
        bool, typer.Option("--with-source", help="crux: a last column naming the file(s) each row was read from.")
    ] = False,
) -> None:
    """One row per aida:Claim with every claim-frame field (plan §6.2.1-6.2.3)."""
    # imported here: the other commands start faster without it
    from aifcheck.extract.claims import collect, identical_pairs
    from aifcheck.render.claims import render_claims, to_relations
    from aifcheck.render.output import write_atomically

    if output is not None:
        check_files([FileOutput(output)], discover(paths)[0])  # before the work
    found, problems = collect(paths)
    if relations is None:
        text = render_claims(found, output_format, with_source)
    else:
        text = to_relations(identical_pairs(found), relations)
    if output is None:
        sys.stdout.write(text)
    else:
        write_atomically(output, text)
    sources = {claim.source for claim in found}
    unreadable = {problem.path for problem in problems}
    for path in paths:
        files = [f for f in discover([path])[0] if f not in unreadable]
        if files and not sources.intersection(files):
            typer.echo(
                f"aifcheck: warning: {path}: holds no claim (no aida:Claim with the fields NIST's tables read)",
                err=True,
            )
    for problem in problems:
        typer.echo(str(problem), err=True)
    raise typer.Exit(int(ExitStatus.UNREADABLE if problems else ExitStatus.VALID))


def lint_submission(
    directory: Annotated[
        Path, typer.Argument(help="The submission: one folder per query (or a whole TA3 run: Condition5/6/7).")
    ],
    condition: Annotated[
        str | None,
        typer.Option(click_type=CONDITION, help="TA3 condition 5, 6 or 7 (default: from the ConditionN folder names)."),
    ] = None,
    topics: Annotated[Path | None, typer.Option(help="Conditions 6, 7: NIST's topics file (topics.tsv).")] = None,
    queries: Annotated[
        Path | None, typer.Option(help="Condition 5: NIST's folder of query claim frames (<ID>.ttl).")
    ] = None,
    user_queries: Annotated[
        Path | None, typer.Option(help="A whole run: NIST's user-queries folder (ConditionN/topics.tsv, ...).")
    ] = None,
    complete: Annotated[bool, typer.Option("--complete", help="Every topic or query must have a folder (S8).")] = False,
    output_format: Format = None,
    output: Output = None,
    max_violations: MaxViolations = None,
    jobs: Jobs = 1,
    scheduler: Scheduler = None,
    ship_files: ShipFiles = False,
    file_timeout: FileTimeout = None,
    select: Select = None,
    ignore: Ignore = None,
    severity: SeverityOption = "warning",
    strict: Strict = False,
    engine: Engine = "fast",
    max_size: MaxSize = None,
    store: Store = "auto",
    quiet: Quiet = False,
    statistics: Statistics = False,
    all_findings: AllFindings = False,
    config: Config = None,
    no_config: NoConfig = False,
) -> None:
    """Check a TA3 submission directory (rules S1-S8) and every claim frame in it (profile ta3)."""
    from aifcheck.spread.parallel import Spread
    from aifcheck.validation.shapes import load_catalog
    from aifcheck.validation.submission import lint

    fmt = format_name(output_format)
    options = validation_options("ta3", select, ignore, severity, strict, max_violations, engine, max_size, store)
    catalog = load_catalog()
    report = lint(
        directory,
        int(condition) if condition else None,
        topics,
        queries,
        complete,
        user_queries,
        Spread(jobs, scheduler, ship_files, file_timeout),
        catalog,
        options,
    )
    out = report_output(catalog, fmt, [f.file for f in report.files], output, quiet, statistics, all_findings)
    out.start(report.input_errors)
    for file_report in report.files:
        out.file_done(file_report, report.profile, report.strict)
    out.finish(report)
    raise typer.Exit(int(report.exit_status))
