"""The aifcheck command line: a thin layer over the library (parse options, call, render, exit)."""
from __future__ import annotations

import gc

# A run is short and makes few reference cycles, while its imports and its loading allocate many
# objects: at the default threshold (700 allocations) the collector runs hundreds of times for
# nothing, 6 ms of a 0.17 s run on an 11k-triple file. Set before the imports below, which it pays for.
gc.set_threshold(50_000)

import importlib  # noqa: E402 (after the collector's setting)
import io
import signal
import sys
from pathlib import Path
from typing import Annotated, Optional

import click
import typer

from .. import __version__
from .common import (
    CONFIG,
    FILE_TIMEOUT,
    JOBS,
    NO_CONFIG,
    SCHEDULER,
    SHIP_FILES,
    EngineName,
    OutputFormat,
    ProfileName,
    SeverityName,
    StoreName,
    color_enabled,
    format_name,
    new_app,
    parse_size,
    prepare_folder,
    report_paths,
)
from ..validation.report import FileReport

# A command imports the library it needs when it runs: importing them all would cost every command,
# --version and --help included, a fifth of a second.

HELP = "Validate, query and score AIDA Interchange Format (AIF) knowledge graphs in NIST-restricted AIF."


def _show_version(value: bool) -> None:
    if value:
        print(f"aifcheck {__version__}")
        raise typer.Exit()


def _root(
    version: Annotated[
        bool, typer.Option("--version", "-V", callback=_show_version, is_eager=True, help="Show the version and exit.")
    ] = False,
) -> None:
    """Validate, query and score AIDA Interchange Format (AIF) knowledge graphs in NIST-restricted AIF."""


VALIDATE_EXAMPLES = """Examples:

  aifcheck validate run/*.ttl

  aifcheck validate --profile ta3 task3-run/ --format sarif -o reports/

  aifcheck validate kb.ttl --select N13 --severity info
"""


def validate(
    paths: Annotated[
        list[str], typer.Argument(help="Files (.ttl, .nt, .n3, .trig, .jsonld, .rdf; .gz allowed), folders, globs, or - for stdin.")
    ],
    profile: Annotated[ProfileName, typer.Option(help="The rules to run.")] = ProfileName.nist,
    output_format: Annotated[
        Optional[OutputFormat], typer.Option("--format", help="Output format (github when GITHUB_ACTIONS is set, else text).")
    ] = None,
    output: Annotated[Optional[Path], typer.Option("--output", "-o", help="Write one report file per input under this folder.")] = None,
    max_violations: Annotated[
        Optional[int], typer.Option(help="Show at most N findings per file; stop checking it after N errors.")
    ] = None,
    jobs: Annotated[int, JOBS] = 1,
    scheduler: Annotated[Optional[str], SCHEDULER] = None,
    ship_files: Annotated[bool, SHIP_FILES] = False,
    file_timeout: Annotated[Optional[float], FILE_TIMEOUT] = None,
    select: Annotated[Optional[list[str]], typer.Option(help="Only these rule IDs; N13 means N13 and N13a-d.")] = None,
    ignore: Annotated[Optional[list[str]], typer.Option(help="Skip these rule IDs.")] = None,
    severity: Annotated[SeverityName, typer.Option(help="Lowest severity shown.")] = SeverityName.warning,
    strict: Annotated[bool, typer.Option(help="Warnings fail the run too.")] = False,
    task: Annotated[Optional[str], typer.Option(help="Task-only rules: ta2 enables N16b.")] = None,
    condition: Annotated[
        Optional[int], typer.Option(help="TA3 condition 5, 6 or 7 (default: the ConditionN folder a file is in).")
    ] = None,
    engine: Annotated[EngineName, typer.Option(help="fast (compiled SPARQL) or reference (pySHACL).")] = EngineName.fast,
    max_size: Annotated[
        Optional[str], typer.Option(help="Largest file accepted, gunzipped (e.g. 8G); by default only decompression bombs are refused.")
    ] = None,
    store: Annotated[
        StoreName,
        typer.Option(help="Where each file's triples go: auto puts a file in memory when its estimated peak fits in half the memory available, else on disk."),
    ] = StoreName.auto,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print the summary line only.")] = False,
    statistics: Annotated[bool, typer.Option("--statistics", help="Print the number of findings per rule instead of the findings.")] = False,
    config: Annotated[Optional[Path], CONFIG] = None,
    no_config: Annotated[bool, NO_CONFIG] = False,
) -> None:
    """Check RDF files against the rules of a profile and report every violation with its rule ID."""
    from ..validation.catalog import load_catalog
    from ..loading.paths import discover
    from .progress import ProgressBar
    from ..render import EXTENSIONS, LINE_FORMATS, render, render_file, render_input_errors
    from ..render.text import statistics as print_statistics
    from ..render.text import summary_line
    from ..validation.report import FileError
    from ..validation.severity import Severity
    from ..validation.run import Options, validate_files

    fmt = format_name(output_format)
    options = Options(
        profile=profile.value,
        select=frozenset(select) if select else None,
        ignore=frozenset(ignore or ()),
        min_severity=Severity.parse(severity.value),
        strict=strict,
        max_violations=max_violations,
        task=task,
        condition=condition,
        engine=engine.value,
        jobs=jobs,
        max_size=parse_size(max_size),
        store=store.value,
        scheduler=scheduler,
        ship_files=ship_files,
        file_timeout=file_timeout,
    )
    catalog = load_catalog()
    options.rules(catalog)  # usage errors before any file is read
    files, problems = discover(paths)
    targets = None
    if output is not None:
        prepare_folder(output)
        targets = report_paths(files, output, EXTENSIONS[fmt])
    stream = output is None and fmt in LINE_FORMATS and not (quiet or statistics)
    colour = color_enabled(sys.stdout)
    input_errors = [FileError(p.path, str(p)) for p in problems]
    if stream:
        render_input_errors(input_errors, sys.stdout, fmt, colour)
    bar = ProgressBar.on_terminal(len(files))

    def done(file_report: FileReport, count: int, total: int) -> None:
        if stream:
            render_file(file_report, catalog, sys.stdout, fmt, colour)
            sys.stdout.flush()
        if targets is not None:
            _write_report(file_report, options, catalog, fmt, targets[file_report.file])
        bar.file_done(file_report.file, count, total)

    with bar:
        report = validate_files(files, input_errors, options, progress=done, file_progress=bar.within if bar.active else None)
    if statistics and not quiet:
        print_statistics(report, catalog, sys.stdout, colour)
    if stream or quiet or statistics or output is not None:
        if output is not None:
            for problem in input_errors:
                print(problem.message, file=sys.stderr)
        print(summary_line(report))
    else:
        render(report, catalog, sys.stdout, fmt, colour)
    raise typer.Exit(int(report.exit_status))


def _write_report(file_report: FileReport, options, catalog, fmt: str, target: Path) -> None:
    from ..render.output import write_atomically
    from ..render import render
    from ..validation.report import Report

    single = Report(options.profile, files=[file_report], seconds=file_report.seconds, strict=options.strict)
    text = io.StringIO()
    render(single, catalog, text, fmt)
    write_atomically(target, text.getvalue())


RULES_EXAMPLES = """Examples:

  aifcheck rules

  aifcheck rules --profile ta3

  aifcheck rules N13b
"""


def rules(
    rule_id: Annotated[Optional[str], typer.Argument(help="Show one rule in full, with its failing fixture.")] = None,
    profile: Annotated[Optional[str], typer.Option(help="List only the rules a profile runs (aif, nist, ta3, submission).")] = None,
) -> None:
    """List the rule catalogue, or show one rule: its text, plan reference and failing example."""
    from ..validation.catalog import load_catalog
    from ..choices import choose
    from ..validation.fixtures import fixtures_for

    catalog = load_catalog()
    if rule_id is None:
        chosen = catalog.rules_for(choose(profile, catalog.profiles, "profile")) if profile else list(catalog.rules.values())
        print(f"{'ID':<6} {'PROFILE':<8} {'SEVERITY':<9} TITLE")
        for rule in chosen:
            severity = rule.severity.label if rule.checked else "-"
            title = rule.title if rule.checked else f"(not checked) {rule.title}"
            print(f"{rule.id:<6} {rule.profile:<8} {severity:<9} {title}")
        return
    rule = catalog.rules[choose(rule_id, catalog.rules, "rule ID")]
    print(f"{rule.id}: {rule.title}")
    print(f"profile: {rule.profile}   severity: {rule.severity.label if rule.checked else 'not checked'}")
    print(f"source: {rule.plan_ref}")
    if rule.task:
        print(f"only with: --task {rule.task}")
    if rule.skip_conditions:
        print(f"not for condition: {', '.join(map(str, sorted(rule.skip_conditions)))}")
    print()
    print(rule.text)
    if not rule.checked:
        print(f"\nNot checked: {rule.unchecked_reason}")
        return
    bad = next((f for f in fixtures_for(rule.id) if f.is_bad), None)
    if bad is not None:
        print(f"\nExample that fails ({bad.name}):\n")
        print(bad.text.rstrip())


# The modules that add the other commands, by command name, in the order of `aifcheck --help`.
# typer builds the parameters of every command it holds at each start (14 ms of a 0.23 s run on
# an 11k-triple file), so a run holds only the command it invokes; help and unknown names get all.
COMMAND_MODULES = {"query": "query", "claims": "claims", "lint-submission": "claims",
                   "summary": "summary", "graph": "summary", "score": "score", "pool": "pool"}


def application(command: str | None = None) -> typer.Typer:
    """The command line: validate, rules and the command named ``command``, or every command
    when ``command`` is None or names none of them."""
    app = new_app(no_args_is_help=True, help=HELP)
    app.callback()(_root)
    app.command(epilog=VALIDATE_EXAMPLES)(validate)
    app.command(epilog=RULES_EXAMPLES)(rules)
    modules = dict.fromkeys(COMMAND_MODULES.values())
    if command in ("validate", "rules"):
        modules = {}
    elif command in COMMAND_MODULES:
        modules = {COMMAND_MODULES[command]: None}
    for module in modules:
        importlib.import_module(f"{__package__}.{module}").register(app)
    return app


def main() -> None:
    """Entry point. A usage error of click's (an unknown option, a bad choice) becomes one line on
    stderr and exit status 2; SIGTERM ends the run as Ctrl-C does, cleaning up on the way."""
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(128 + signal.SIGTERM))
    arguments = sys.argv[1:2]
    try:
        status = application(arguments[0] if arguments else None)(standalone_mode=False)
    except (typer.Abort, KeyboardInterrupt):
        sys.exit(130)
    except click.ClickException as exc:
        if exc.format_message():  # empty when the help was shown for a bare 'aifcheck'
            print(f"aifcheck: error: {exc.format_message()}", file=sys.stderr)
        sys.exit(exc.exit_code)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    finally:
        # The interpreter's exit runs full garbage collections over every object still alive: a
        # tenth of a validate run on an 11k-triple file, to reclaim memory the ending process gives
        # back anyway. Frozen objects are left out of them (and are still freed as usual).
        gc.freeze()
    sys.exit(status or 0)
