"""The aifcheck command line: a thin layer over the library (parse options, call, render, exit)."""
from __future__ import annotations

import functools
import os
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from .catalog import Severity, load_catalog
from .cli_claims import register as register_claims
from .cli_query import register as register_query
from .errors import AifcheckError, OutputError, UsageError
from .fixture import fixtures_for
from .render import EXTENSIONS, get_renderer
from .render.text import summary_line
from .report import ExitStatus, FileReport, Report
from .validate import Options, validate_paths

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="Validate and query AIDA Interchange Format (AIF) knowledge graphs in NIST-restricted AIF.",
)


def user_errors(command):
    """Our own errors become one line on stderr: usage errors exit 2, unreadable input 3."""

    @functools.wraps(command)
    def run(*args, **kwargs):
        try:
            return command(*args, **kwargs)
        except UsageError as exc:
            print(f"aifcheck: error: {exc}", file=sys.stderr)
            raise typer.Exit(ExitStatus.USAGE) from None
        except AifcheckError as exc:
            print(f"aifcheck: error: {exc}", file=sys.stderr)
            raise typer.Exit(ExitStatus.UNREADABLE) from None

    return run


@app.command()
@user_errors
def validate(
    paths: Annotated[list[str], typer.Argument(help="Files (.ttl, .nt, optionally .gz), directories or globs.")],
    profile: Annotated[str, typer.Option(help="Rule profile: aif, nist or ta3.")] = "nist",
    output_format: Annotated[
        Optional[str], typer.Option("--format", help="text, json, sarif or github (github when GITHUB_ACTIONS is set).")
    ] = None,
    output: Annotated[Optional[Path], typer.Option("--output", "-o", help="Write one report file per input here.")] = None,
    max_violations: Annotated[
        Optional[int], typer.Option(help="Show at most N findings per file; stop checking it after N errors.")
    ] = None,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Files checked in parallel processes.")] = 1,
    select: Annotated[Optional[list[str]], typer.Option(help="Only these rule IDs; N13 means N13 and N13a-d.")] = None,
    ignore: Annotated[Optional[list[str]], typer.Option(help="Skip these rule IDs.")] = None,
    severity: Annotated[str, typer.Option(help="Lowest severity shown: error, warning or info.")] = "warning",
    strict: Annotated[bool, typer.Option(help="Warnings fail the run too.")] = False,
    task: Annotated[Optional[str], typer.Option(help="Task-only rules: ta2 enables N16b.")] = None,
    condition: Annotated[Optional[int], typer.Option(help="TA3 condition 5, 6 or 7 (profile ta3).")] = None,
    engine: Annotated[str, typer.Option(help="fast (compiled SPARQL) or reference (pySHACL).")] = "fast",
) -> None:
    """Check RDF files against the rules of a profile and report every violation with its rule ID."""
    fmt = output_format or ("github" if os.environ.get("GITHUB_ACTIONS") else "text")
    render = get_renderer(fmt)
    options = Options(
        profile=profile,
        select=frozenset(select) if select else None,
        ignore=frozenset(ignore or ()),
        min_severity=Severity.parse(severity),
        strict=strict,
        max_violations=max_violations,
        task=task,
        condition=condition,
        engine=engine,
        jobs=jobs,
    )
    if output is not None:
        _prepare_folder(output)
    progress = _ProgressBar() if sys.stderr.isatty() else None
    report = validate_paths(paths, options, progress=progress, file_progress=progress.within if progress else None)
    if progress is not None:
        progress.close()
    catalog = load_catalog()
    if output is None:
        render(report, catalog, sys.stdout)
    else:
        _write_per_file(report, catalog, render, EXTENSIONS[fmt], output)
        print(summary_line(report))
    raise typer.Exit(int(report.exit_status))


def _prepare_folder(folder: Path) -> None:
    """The -o folder, made now: a run that cannot write its reports should not check first."""
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"-o {folder}: not a folder (reports are written one per input under a folder)")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"cannot write under {folder}: {exc.strerror or exc}") from None
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OutputError(f"cannot write under {folder}: permission denied")


def _write_per_file(report: Report, catalog, render, extension: str, folder: Path) -> None:
    """One report per input, at the input's path mirrored under the folder (names never collide)."""
    for problem in report.input_errors:
        print(problem.message, file=sys.stderr)
    for file_report in report.files:
        single = Report(report.profile, files=[file_report], seconds=file_report.seconds, strict=report.strict)
        source = Path(file_report.file)
        relative = source.relative_to(source.anchor) if source.is_absolute() else source
        target = folder / relative.parent / (relative.name + extension)
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            with target.open("w", encoding="utf-8") as out:
                render(single, catalog, out)
        except OSError as exc:
            raise OutputError(f"cannot write {target}: {exc.strerror or exc}") from None


class _ProgressBar:
    """One line on stderr, shown only on a terminal: files done in a run of several files, and
    reading and checking inside a large file."""

    width = 30
    large_file = 32 * 1024 * 1024  # bytes; smaller files are done before a bar would help

    def __init__(self) -> None:
        self.shown = False
        self.sized: tuple[str, bool] = ("", False)  # (path, whether it is large), asked once per file

    def __call__(self, file_report: FileReport, done: int, total: int) -> None:
        if total >= 2:
            self._draw(done, total, f"{done}/{total} {Path(file_report.file).name[:40]}")

    def within(self, path: str, phase: str, done: int, total: int) -> None:
        if self.sized[0] != path:
            self.sized = (path, os.path.getsize(path) >= self.large_file)
        if self.sized[1]:
            self._draw(done, total, f"{phase} {Path(path).name[:40]}")

    def _draw(self, done: int, total: int, label: str) -> None:
        filled = self.width * done // max(total, 1)
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (self.width - filled)}] {label:<50}")
        sys.stderr.flush()
        self.shown = True

    def close(self) -> None:
        if self.shown:
            sys.stderr.write("\r" + " " * (self.width + 53) + "\r")
            sys.stderr.flush()


@app.command()
@user_errors
def rules(
    rule_id: Annotated[Optional[str], typer.Argument(help="Show one rule in full, with its failing fixture.")] = None,
    profile: Annotated[Optional[str], typer.Option(help="List only the rules a profile runs.")] = None,
) -> None:
    """List the rule catalogue, or show one rule: its text, plan reference and failing example."""
    catalog = load_catalog()
    if rule_id is None:
        chosen = catalog.rules_for(profile) if profile else list(catalog.rules.values())
        print(f"{'ID':<6} {'PROFILE':<8} {'SEVERITY':<9} TITLE")
        for rule in chosen:
            severity = rule.severity.label if rule.checked else "-"
            title = rule.title if rule.checked else f"(not checked) {rule.title}"
            print(f"{rule.id:<6} {rule.profile:<8} {severity:<9} {title}")
        return
    rule = catalog.get(rule_id)
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


register_query(app)
register_claims(app)


def main() -> None:
    """Entry point: a usage error of any kind becomes one line on stderr and exit status 2."""
    try:
        status = app(standalone_mode=False)
    except typer.Abort:
        sys.exit(130)
    except Exception as exc:  # click's usage errors (typer may ship its own click): duck-typed
        format_message = getattr(exc, "format_message", None)
        if format_message is None:
            raise
        if format_message():  # empty when the help was shown for a bare 'aifcheck'
            print(f"aifcheck: error: {format_message()}", file=sys.stderr)
        sys.exit(getattr(exc, "exit_code", ExitStatus.USAGE))
    sys.exit(status or 0)
