"""``aifcheck validate`` and ``aifcheck rules``: thin layers over aifcheck.validation."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from aifcheck.cli.common import (
    CONDITION,
    PROFILE,
    AllFindings,
    Config,
    Engine,
    FileTimeout,
    Format,
    Ignore,
    InputFormat,
    Jobs,
    MaxSize,
    MaxViolations,
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
from aifcheck.names import TASKS

VALIDATE_EXAMPLES = """Examples:

  aifcheck validate run/*.ttl

  aifcheck validate --profile ta3 task3-run/ --format sarif -o reports/

  aifcheck validate kb.ttl --select N13 --severity info
"""

RULES_EXAMPLES = """Examples:

  aifcheck rules

  aifcheck rules --profile ta3

  aifcheck rules N13b
"""


def register(app: typer.Typer) -> None:
    app.command(epilog=VALIDATE_EXAMPLES)(validate)
    app.command(epilog=RULES_EXAMPLES)(rules)


def validate(
    paths: Annotated[
        list[str],
        typer.Argument(
            help="Files (.ttl, .nt, .n3, .trig, .jsonld, .rdf; .gz allowed), folders, globs, or - for stdin."
        ),
    ],
    profile: Annotated[str, typer.Option(click_type=PROFILE, help="The rules to run.")] = "nist",
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
    task: Annotated[str | None, typer.Option(help=f"Task-only rules ({', '.join(TASKS)}): ta2 enables N16b.")] = None,
    condition: Annotated[
        str | None,
        typer.Option(
            click_type=CONDITION, help="TA3 condition 5, 6 or 7 (default: the ConditionN folder a file is in)."
        ),
    ] = None,
    engine: Engine = "fast",
    max_size: MaxSize = None,
    store: Store = "auto",
    input_format: InputFormat = None,
    quiet: Quiet = False,
    statistics: Statistics = False,
    all_findings: AllFindings = False,
    config: Config = None,
    no_config: NoConfig = False,
) -> None:
    """Check RDF files against the rules of a profile and report every violation with its rule ID."""
    from aifcheck.cli.progress import ProgressBar
    from aifcheck.loading.paths import discover
    from aifcheck.validation.report import FileError, FileReport
    from aifcheck.validation.run import Checker, validate_files
    from aifcheck.validation.shapes import load_catalog

    fmt = format_name(output_format)
    options = validation_options(
        profile,
        select,
        ignore,
        severity,
        strict,
        max_violations,
        engine,
        max_size,
        store,
        task=task,
        condition=int(condition) if condition else None,
        jobs=jobs,
        scheduler=scheduler,
        ship_files=ship_files,
        file_timeout=file_timeout,
        input_format=input_format,
    )
    catalog = load_catalog()
    Checker(options, catalog).rules()  # usage errors before any file is read
    files, problems = discover(paths)
    out = report_output(catalog, fmt, files, output, quiet, statistics, all_findings)
    input_errors = [FileError(p.path, str(p)) for p in problems]
    out.start(input_errors)
    with ProgressBar.on_terminal(len(files)) as bar:

        def done(file_report: FileReport, count: int, total: int) -> None:
            out.file_done(file_report, options.profile, options.strict)
            bar.file_done(file_report.file, count, total)

        report = validate_files(
            files,
            input_errors,
            options,
            progress=done,
            file_progress=bar.within if bar.active else None,
            catalog=catalog,
        )
    out.finish(report)
    raise typer.Exit(int(report.exit_status))


def rules(
    rule_id: Annotated[str | None, typer.Argument(help="Show one rule in full, with its failing fixture.")] = None,
    profile: Annotated[
        str | None, typer.Option(help="List only the rules a profile runs (aif, nist, ta3, submission).")
    ] = None,
) -> None:
    """List the rule catalogue, or show one rule: its text, plan reference and failing example."""
    from aifcheck.choices import choose
    from aifcheck.render.rules import rule_page, rule_table
    from aifcheck.validation.fixtures import fixtures_for
    from aifcheck.validation.shapes import load_catalog

    catalog = load_catalog()
    if rule_id is None:
        chosen = (
            catalog.rules_for(choose(profile, catalog.profiles, "profile")) if profile else list(catalog.rules.values())
        )
        rule_table(chosen, sys.stdout)
        return
    rule = catalog.rules[choose(rule_id, catalog.rules, "rule ID")]
    rule_page(rule, next((f for f in fixtures_for(rule.id) if f.is_bad), None), sys.stdout)
