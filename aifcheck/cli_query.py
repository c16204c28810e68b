"""The ``aifcheck query`` command: a thin layer over aifcheck.query.

    aifcheck query PATH... --table NAME [-o FILE]           one table as TSV (stdout by default)
    aifcheck query PATH... --task ta1|ta2|ta3 --nist-layout -o DIR
    aifcheck query PATH... --sparql FILE.rq [-o FILE]       a user's SELECT query
TA2 tables take their entry points from --kb-id, --name or --entry-points.

Errors print one line to stderr: a usage error exits 2 at once; an unreadable file exits 3
after the other files have been processed.
"""
from __future__ import annotations

import enum
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer

from .errors import InputError, UsageError
from .kb import KB, load_kb
from .paths import discover
from .query import (
    EntryPoints,
    Table,
    check_user_query,
    parameters,
    run_sparql,
    run_table,
    write_nist_layout,
)
from .report import ExitStatus


class Task(str, enum.Enum):
    ta1 = "ta1"
    ta2 = "ta2"
    ta3 = "ta3"


def register(app: typer.Typer) -> None:
    """Add the ``query`` command to aifcheck's typer app."""
    app.command("query", no_args_is_help=True)(query)


def query(
    paths: Annotated[list[str], typer.Argument(help="KB files (.ttl, .nt, .gz), folders or globs.")],
    table: Annotated[str | None, typer.Option(help="One NIST table, e.g. AIDA_P3_TA1_CM_A0001.")] = None,
    task: Annotated[Task | None, typer.Option(help="All tables of a task (with --nist-layout).")] = None,
    nist_layout: Annotated[
        bool, typer.Option("--nist-layout", help="Write DIR/<input file>/<TABLE>.rq.tsv as NIST does.")
    ] = False,
    sparql: Annotated[Path | None, typer.Option(help="Run this SELECT query (.rq) instead.")] = None,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Output file (or DIR).")] = None,
    kb_id: Annotated[list[str], typer.Option("--kb-id", help="TA2 entry point: a KB ID.")] = [],  # noqa: B006 (typer reads defaults)
    name: Annotated[list[str], typer.Option("--name", help="TA2 entry point: a name string.")] = [],  # noqa: B006
    entry_points: Annotated[
        Path | None, typer.Option(help="TA2 entry points: lines 'kb_id<TAB>VALUE' or 'name<TAB>VALUE'.")
    ] = None,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="With --nist-layout: inputs in N processes.")] = 1,
) -> None:
    """Print NIST's evaluation tables (or a SELECT query's results) for AIF knowledge graphs."""
    try:
        status = _run(paths, table, task, nist_layout, sparql, output, kb_id, name, entry_points, jobs)
    except UsageError as exc:
        typer.echo(f"aifcheck: error: {exc}", err=True)
        status = ExitStatus.USAGE
    except InputError as exc:
        typer.echo(str(exc), err=True)
        status = ExitStatus.UNREADABLE
    raise typer.Exit(int(status))


def _run(
    paths: list[str],
    table: str | None,
    task: Task | None,
    nist_layout: bool,
    sparql: Path | None,
    output: Path | None,
    kb_id: list[str],
    name: list[str],
    entry_points: Path | None,
    jobs: int = 1,
) -> ExitStatus:
    if sum(x is not None for x in (table, task, sparql)) != 1:
        raise UsageError("give exactly one of --table, --task or --sparql")
    if (task is not None or nist_layout) and not (task is not None and nist_layout and output):
        raise UsageError("--task and --nist-layout go together, with -o DIR")
    points = EntryPoints.read(entry_points) if entry_points else EntryPoints()
    points = EntryPoints(points.kb_id + tuple(kb_id), points.name + tuple(name))
    files, problems = discover(paths)
    if task is not None:
        try:
            problems += write_nist_layout(files, task.value, output, points, jobs=max(1, jobs)).errors
        except OSError as exc:
            raise UsageError(f"cannot write under {output}: {exc.strerror or exc}") from None
    else:
        tables = _tables(files, table, sparql, points, problems)
        _write(tables, output)
    for problem in problems:
        typer.echo(str(problem), err=True)
    return ExitStatus.UNREADABLE if problems else ExitStatus.VALID


def _tables(
    files: list[str], table: str | None, sparql: Path | None, points: EntryPoints, problems: list[InputError]
) -> list[Table]:
    """One table per readable file; files that cannot be read are added to ``problems``."""
    run = _runner(table, sparql, points)
    tables = []
    for path in files:
        try:
            with load_kb(path) as kb:
                tables.append(run(kb))
        except InputError as exc:
            problems.append(exc)
    return tables


def _runner(table: str | None, sparql: Path | None, points: EntryPoints) -> Callable[[KB], Table]:
    """What to run on each store, checked before any file is read (usage errors come first)."""
    if sparql is not None:
        try:
            text = sparql.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise UsageError(f"cannot read {sparql}: {exc}") from None
        check_user_query(text, sparql.name)
        return lambda kb: run_sparql(kb, text, sparql.name)
    kinds = parameters(table)  # an unknown table is a usage error here
    params = {var: points.get(kind) for var, kind in kinds.items()}
    missing = sorted(f"--{kind.replace('_', '-')}" for var, kind in kinds.items() if not params[var])
    if missing:
        raise UsageError(f"table {table} needs an entry point: give {' or '.join(missing)} or --entry-points")
    return lambda kb: run_table(kb, table, **params)


def _write(tables: list[Table], output: Path | None) -> None:
    """The tables of all files under one header (each file's rows together, in file order)."""
    if not tables:
        return
    text = tables[0].to_tsv() + "".join(t.to_tsv().split("\n", 1)[1] for t in tables[1:])
    if output is None:
        sys.stdout.write(text)
        return
    try:
        output.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"cannot write {output}: {exc.strerror or exc}") from None

