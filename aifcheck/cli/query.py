"""The ``aifcheck query`` command: a thin layer over aifcheck.extract.query and aifcheck.pipeline.shared.sparql.

    aifcheck query PATH... --table NAME [-o FILE]           one table as TSV (stdout by default)
    aifcheck query PATH... --task ta1|ta2|ta3 --nist-layout -o DIR
    aifcheck query PATH... --sparql FILE.rq [-o FILE]       a user's SELECT query
TA2 tables take their entry points from --kb-id, --name or --entry-points.

A usage error exits 2 at once; an unreadable input is one line on stderr and exit 3 once the
other inputs are done.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from aifcheck.cli.common import FILE_TIMEOUT, FORCE, JOBS, QUERY_SET, SCHEDULER, SHIP_FILES
from aifcheck.errors import ExitStatus, InputError, UsageError
from aifcheck.loading.paths import discover, read_text
from aifcheck.names import TASKS
from aifcheck.render.output import FileOutput, check_files

if TYPE_CHECKING:  # the query engine (pyoxigraph) is imported when the command runs
    from aifcheck.extract.query import EntryPoints
    from aifcheck.loading.kb import KB
    from aifcheck.loading.tsv import TsvTable
    from aifcheck.spread.parallel import Spread


EXAMPLES = """Examples:

  aifcheck query kb.ttl --table AIDA_P3_TA1_CM_A0001

  aifcheck query run/ --task ta1 --nist-layout -o SPARQL-output/

  aifcheck query kb.ttl --sparql my-query.rq
"""


def register(app: typer.Typer) -> None:
    """Add the ``query`` command to aifcheck's typer app."""
    app.command("query", no_args_is_help=True, epilog=EXAMPLES)(query)


def query(
    paths: Annotated[list[str], typer.Argument(help="KB files (.ttl, .nt, .gz), folders or globs.")],
    table: Annotated[str | None, typer.Option(help="One NIST table, e.g. AIDA_P3_TA1_CM_A0001.")] = None,
    task: Annotated[
        str | None, typer.Option(help=f"All tables of a task ({', '.join(TASKS)}; with --nist-layout).")
    ] = None,
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
    max_rows: Annotated[
        int,
        typer.Option(
            help="With --sparql: stop with an error past this many rows (default: 3 million cells' worth, "
            "a million rows of 3 columns)."
        ),
    ] = 0,
    query_set: Annotated[str, QUERY_SET] = "tag",
    jobs: Annotated[int, JOBS] = 1,
    scheduler: Annotated[str | None, SCHEDULER] = None,
    ship_files: Annotated[bool, SHIP_FILES] = False,
    file_timeout: Annotated[float | None, FILE_TIMEOUT] = None,
    force: Annotated[bool, FORCE] = False,
) -> None:
    """Print NIST's evaluation tables (or a SELECT query's results) for AIF knowledge graphs."""
    from aifcheck.spread.parallel import Spread

    spread = Spread(jobs, scheduler, ship_files, file_timeout)
    spread.check()
    if not nist_layout and spread.on_cluster:
        raise UsageError("--scheduler, --ship-files and --file-timeout go with --nist-layout")
    if max_rows < 0:
        raise UsageError("--max-rows must be at least 1 (0: the default)")
    raise typer.Exit(
        int(
            _run(
                paths,
                table,
                task,
                nist_layout,
                sparql,
                output,
                kb_id,
                name,
                entry_points,
                spread,
                max_rows,
                force,
                query_set,
            )
        )
    )


def _run(
    paths: list[str],
    table: str | None,
    task: str | None,
    nist_layout: bool,
    sparql: Path | None,
    output: Path | None,
    kb_id: list[str],
    name: list[str],
    entry_points: Path | None,
    spread: Spread,
    max_rows: int = 0,
    force: bool = False,
    query_set: str = "tag",
) -> ExitStatus:
    from aifcheck.extract.query import EntryPoints

    if sum(x is not None for x in (table, task, sparql)) != 1:
        raise UsageError("give exactly one of --table, --task or --sparql")
    if (task is not None or nist_layout) and not (task is not None and nist_layout and output):
        raise UsageError("--task and --nist-layout go together, with -o DIR")
    points = EntryPoints.read(entry_points) if entry_points else EntryPoints()
    points = EntryPoints(points.kb_id + tuple(kb_id), points.name + tuple(name))
    files, problems = discover(paths)
    if task is not None:
        problems += _nist_layout(files, task, output, force, points, spread, query_set) if not problems else []
    else:
        if output is not None:
            check_files([FileOutput(output)], files)  # before the work
        tables = _tables(files, table, sparql, points, problems, max_rows, query_set)
        _write(tables, output)
    for problem in problems:
        typer.echo(str(problem), err=True)
    return ExitStatus.UNREADABLE if problems else ExitStatus.VALID


class _UnreadableInputError(Exception):
    """The tables of a NIST layout left unwritten: an input could not be read."""

    def __init__(self, errors: list[InputError]) -> None:
        super().__init__("an input cannot be read")
        self.errors = errors


def _nist_layout(
    files: list[str], task: str, output: Path, force: bool, points: EntryPoints, spread: Spread, query_set: str
) -> list[InputError]:
    """Every table of ``task`` for every input under ``output`` (a new or empty folder, or with
    ``force`` one that holds no input), written whole: nothing when an input cannot be read (its
    errors are returned)."""
    from aifcheck.render.output import new_folder
    from aifcheck.render.tables import write_nist_layout

    try:
        with new_folder(output, force, files) as folder:
            errors = write_nist_layout(files, task, folder, points, spread, query_set).errors
            if errors:
                raise _UnreadableInputError(errors)
    except _UnreadableInputError as unwritten:
        return unwritten.errors
    return []


def _tables(
    files: list[str],
    table: str | None,
    sparql: Path | None,
    points: EntryPoints,
    problems: list[InputError],
    max_rows: int,
    query_set: str,
) -> list[TsvTable]:
    """One table per readable file; files that cannot be read are added to ``problems``."""
    from aifcheck.loading.kb import read_each

    tables, unreadable = read_each(files, _runner(table, sparql, points, max_rows, query_set))
    problems += unreadable
    return tables


def _runner(
    table: str | None, sparql: Path | None, points: EntryPoints, max_rows: int, query_set: str
) -> Callable[[KB], TsvTable]:
    """What to run on each store, checked before any file is read (usage errors come first)."""
    from aifcheck.extract.query import check_user_query, parameters
    from aifcheck.pipeline.shared.sparql import run_sparql, run_table

    if sparql is not None:
        text = read_text(sparql, "the SPARQL query", universal=True)
        if not text.strip():  # an unreadable input, as validate takes an empty file (not a query's syntax error)
            raise InputError(str(sparql), "empty file (the SPARQL query)")
        check_user_query(text, sparql.name)
        return lambda kb: run_sparql(kb, text, sparql.name, max_rows)
    kinds = parameters(table)  # an unknown table is a usage error here
    params = {var: points.get(kind) for var, kind in kinds.items()}
    missing = sorted(f"--{kind.replace('_', '-')}" for var, kind in kinds.items() if not params[var])
    if missing:
        raise UsageError(f"table {table} needs an entry point: give {' or '.join(missing)} or --entry-points")
    return lambda kb: run_table(kb, table, query_set=query_set, **params)


def _write(tables: list[TsvTable], output: Path | None) -> None:
    """The tables of all files under one header (each file's rows together, in file order)."""
    from aifcheck.render.tables import joined_tsv

    if not tables:
        return
    text = joined_tsv(tables)
    if output is None:
        sys.stdout.write(text)
    else:
        from aifcheck.render.output import write_atomically

        write_atomically(output, text)
