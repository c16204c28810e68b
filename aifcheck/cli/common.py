"""What every aifcheck command shares: one way to report a user's mistake, names chosen from the
registries that own them, the options of a validation run (validate and lint-submission), settings
from pyproject.toml, sizes, and reports written under ``-o``."""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Annotated, Any

import click
import typer
import typer.core
import typer.main
from typer.core import TyperGroup

from aifcheck.choices import choose
from aifcheck.cli.config import find_config, read_config
from aifcheck.errors import AifcheckError, ExitStatus, OutputError, UsageError, cut, printable
from aifcheck.names import CONDITIONS, check_id


class AifcheckGroup(TyperGroup):
    """The command group: an AifcheckError from any command becomes one line on stderr and its exit
    status (2 for a usage error, 3 for input that cannot be read or output that cannot be written)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for command in self.commands.values():
            for param in command.params:
                if isinstance(param.type, click.Path):
                    # a path is read by aifcheck's readers, which answer an unreadable one in their
                    # words (exit 3), not by click's check at parse time (a usage error)
                    param.type.readable = False

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except click.UsageError as exc:  # a bad option of click's parsing (a value not among the choices)
            error(exc.format_message())
            raise click.exceptions.Exit(ExitStatus.USAGE) from None
        except UsageError as exc:
            error(str(exc))
            raise click.exceptions.Exit(ExitStatus.USAGE) from None
        except AifcheckError as exc:
            error(str(exc))
            raise click.exceptions.Exit(ExitStatus.UNREADABLE) from None


class AifcheckCommand(typer.core.TyperCommand):
    """A command whose epilog (its examples) is printed as written: click rewraps an epilog to the
    terminal, cutting a command line at a hyphen (``--aux AUX-`` / ``data/``), which can then no longer
    be copied and run."""

    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        if self.epilog:
            formatter.write_paragraph()
            with formatter.indentation():
                for line in self.epilog.strip("\n").splitlines():
                    formatter.write(f"{'':>{formatter.current_indent}}{line}\n" if line.strip() else "\n")


class AifcheckTyper(typer.Typer):
    """A typer app whose commands are AifcheckCommands unless a command names its own class."""

    def command(self, name: str | None = None, *, cls: type[typer.core.TyperCommand] | None = None, **settings):
        return super().command(name, cls=cls or AifcheckCommand, **settings)


def error(text: str) -> None:
    """One line on stderr: ``aifcheck: error: ...`` (the run's last)."""
    typer.echo(f"aifcheck: error: {cut(printable(text))}", err=True)


def warn(warnings: Iterable[str]) -> None:
    """Each warning, one line on stderr: ``aifcheck: warning: ...`` (a warning never changes the
    exit status, unless --strict)."""
    for warning in warnings:
        typer.echo(f"aifcheck: warning: {cut(printable(warning))}", err=True)


def note(notes: Iterable[str]) -> None:
    """Each note, one line on stderr: ``aifcheck: note: ...`` (what was done or chosen, for the
    record: the seed drawn, the files written, NIST's quirks met)."""
    for text in notes:
        typer.echo(f"aifcheck: note: {cut(printable(text))}", err=True)


def new_app(**settings) -> typer.Typer:
    """A typer app (or sub-app) with aifcheck's conventions: -h, one error path, plain tracebacks,
    examples printed as written, and click's plain-text help (typer's rich help imports rich.markdown
    and markdown-it, more time than a whole small run takes)."""
    typer.core.HAS_RICH = typer.main.HAS_RICH = False
    return AifcheckTyper(
        cls=AifcheckGroup,
        context_settings={"help_option_names": ["-h", "--help"]},
        pretty_exceptions_show_locals=False,
        rich_markup_mode=None,
        **settings,
    )


class Named(click.ParamType):
    """A name from the registry that owns it, typed in any case, answered with the list of names
    when unknown. The registry is read only when a value or the help needs it (some are slow to
    import, and most runs never show the choices)."""

    name = "name"

    def __init__(self, what: str, names: Callable[[], Iterable[object]]) -> None:
        self.what = what
        self._names = names

    def names(self) -> list[str]:
        return [str(name) for name in self._names()]

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        names = self.names()
        try:
            return choose(str(value), names, self.what)
        except UsageError:
            self.fail(f"{str(value)!r} is not one of {', '.join(map(repr, names))}.", param, ctx)

    def get_metavar(self, param: click.Parameter, ctx: click.Context | None = None) -> str:
        return "[" + "|".join(self.names()) + "]"


def _profiles() -> list[str]:
    from aifcheck.validation.shapes import load_catalog

    return load_catalog().rdf_profiles()


def _formats() -> Iterable[str]:
    from aifcheck.render import FORMATS

    return FORMATS


def _engines() -> Iterable[str]:
    from aifcheck.validation.engine import ENGINES

    return ENGINES


def _stores() -> Iterable[str]:
    from aifcheck.loading.kb import STORES

    return STORES


def _input_formats() -> Iterable[str]:
    from aifcheck.loading.kb import INPUT_FORMATS

    return INPUT_FORMATS


def _severities() -> Iterable[str]:
    from aifcheck.validation.report import Severity

    return [s.label for s in sorted(Severity, reverse=True)]


def _table_formats() -> Iterable[str]:
    from aifcheck.render import TABLE_FORMATS

    return TABLE_FORMATS


def _query_sets() -> Iterable[str]:
    from aifcheck.queries import QUERY_SETS

    return QUERY_SETS


def _graph_views() -> Iterable[str]:
    from aifcheck.render import GRAPH_VIEWS

    return GRAPH_VIEWS


PROFILE = Named("profile", _profiles)
TABLE_FORMAT = Named("format", _table_formats)
REPORT_FORMAT = Named("format", _formats)
ENGINE = Named("engine", _engines)
STORE = Named("store", _stores)
SEVERITY = Named("severity", _severities)
INPUT_FORMAT = Named("input format", _input_formats)
CONDITION = Named("condition", lambda: CONDITIONS)
GRAPH_VIEW = Named("view", _graph_views)
# the query set of the commands that run NIST's SPARQL stage on TA3 claim frames (the sets differ in the GR tables)
QUERY_SET = typer.Option(
    "--query-set",
    click_type=Named("query set", _query_sets),
    help="NIST's queries: tag (those NIST's docker runs at AIDAED-v2022.1.1) or march-2022 (those of NIST's "
    "stored example outputs: 22-column GR tables, which NIST's validator does not read).",
)


class Bounded(click.ParamType):
    """A whole number from ``low`` to ``high``, checked when the options are read: a number out of
    range (a seed NIST's stream cannot take, replications that would never end) is a usage error
    naming the option, never an error deep in the run."""

    name = "integer"

    def __init__(self, low: int, high: int, why: str = "") -> None:
        self.low, self.high, self.why = low, high, why

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        if isinstance(value, int):
            number = value
        else:
            text = str(value).strip()
            digits = text.lstrip("+-")
            if not digits.isdigit() or not digits.isascii():
                self.fail(f"{cut(text, 60)!r} is not a whole number", param, ctx)
            # a number of more digits than int() takes is out of any range
            number = int(text) if len(digits) <= 40 else (self.high + 1 if not text.startswith("-") else self.low - 1)
        if not self.low <= number <= self.high:
            shown = str(value) if len(str(value)) <= 40 else f"{str(value)[:20]}... ({len(str(value))} digits)"
            self.fail(f"{shown}: give a whole number from {self.low:,} to {self.high:,}{self.why}", param, ctx)
        return number


KIT_SIZE = Bounded(1, 2**62, " (more than any pool holds: one kit)")
SEED_RANGE = Bounded(0, 2**32 - 1, " (the seeds NIST's stream takes)")
REPLICATIONS_RANGE = Bounded(1, 10_000_000, " (NIST's largest, at size 0.99)")


def format_name(chosen: str | None) -> str:
    """The format asked for, or github on GitHub Actions, or text."""
    if chosen is not None:
        return chosen
    return "github" if os.environ.get("GITHUB_ACTIONS") else "text"


_SIZE = re.compile(r"(\d+(?:\.\d+)?)\s*([kmgt]?)i?b?", re.IGNORECASE)
_UNITS = {"": 1, "k": 1024, "m": 1024**2, "g": 1024**3, "t": 1024**4}


def parse_size(text: str | None) -> int | None:
    """ "4G", "500M", "1.5GiB" or a number of bytes."""
    if text is None:
        return None
    match = _SIZE.fullmatch(text.strip())
    if match is None:
        raise UsageError(f"--max-size {text}: not a size (give bytes, or a number with K, M, G or T)")
    return int(float(match[1]) * _UNITS[match[2].lower()])


# --config FILE / --no-config: eager, so that the file's settings become the defaults of the
# command's other options (click's default_map) before those are read; a flag still wins.


def _use_config(ctx: click.Context, _param: click.Parameter, value: Path | None) -> Path | None:
    if ctx.resilient_parsing:
        return value
    if ctx.meta.get("aifcheck.no_config"):
        if value is not None:
            raise UsageError("give --config or --no-config, not both")
        return value
    found = (value, None) if value is not None else find_config(Path.cwd())
    ctx.meta["aifcheck.config"] = value
    if found is not None:
        ctx.default_map = read_config(*found, ctx.command.params)
    return value


def _no_config(ctx: click.Context, _param: click.Parameter, value: bool) -> bool:
    if value and not ctx.resilient_parsing:
        if ctx.meta.get("aifcheck.config") is not None:
            raise UsageError("give --config or --no-config, not both")
        ctx.meta["aifcheck.no_config"] = True
        ctx.default_map = None
    return value


CONFIG = typer.Option(
    "--config",
    is_eager=True,
    callback=_use_config,
    dir_okay=False,
    help="Settings from this pyproject.toml ([tool.aifcheck]) instead of the nearest one.",
)
NO_CONFIG = typer.Option("--no-config", is_eager=True, callback=_no_config, help="Ignore any pyproject.toml settings.")


# --jobs and the Dask options: the same on every command that reads many files (aifcheck.spread)
JOBS = typer.Option("--jobs", "-j", help="Files checked in N parallel processes.")
FORCE = typer.Option(
    "--force", help="Replace the output folder when it holds something (never one that holds an input)."
)
SCHEDULER = typer.Option(
    help="Files checked on the workers of this Dask scheduler (tcp://HOST:8786); needs aifcheck[cluster]."
)
SHIP_FILES = typer.Option(
    "--ship-files", help="With --scheduler: send the files' bytes to the workers, which need not see them."
)
FILE_TIMEOUT = typer.Option(
    help="With --scheduler: seconds a file may take on a worker, then it is tried once more (default 3600)."
)

# What validate and lint-submission share: which rules, what a run shows, how it reads its files.
Format = Annotated[
    str | None,
    typer.Option(
        "--format", click_type=REPORT_FORMAT, help="Output format (github when GITHUB_ACTIONS is set, else text)."
    ),
]
Output = Annotated[
    Path | None, typer.Option("--output", "-o", help="Write one report file per input under this folder.")
]
MaxViolations = Annotated[
    int | None, typer.Option(help="Show at most N findings per file; stop checking it after N errors.")
]
Select = Annotated[list[str] | None, typer.Option(help="Only these rule IDs; N13 means N13 and N13a-d.")]
Ignore = Annotated[list[str] | None, typer.Option(help="Skip these rule IDs.")]
SeverityOption = Annotated[str, typer.Option(click_type=SEVERITY, help="Lowest severity shown.")]
Strict = Annotated[bool, typer.Option(help="Warnings fail the run too.")]
Engine = Annotated[str, typer.Option(click_type=ENGINE, help="fast (compiled SPARQL) or reference (pySHACL).")]
MaxSize = Annotated[
    str | None,
    typer.Option(help="Largest file accepted, gunzipped (e.g. 8G); by default only decompression bombs are refused."),
]
Store = Annotated[
    str,
    typer.Option(
        click_type=STORE,
        help=(
            "Where each file's triples go: auto puts a file in memory when its estimated peak fits in half"
            " the memory available, else on disk."
        ),
    ),
]
Quiet = Annotated[bool, typer.Option("--quiet", "-q", help="Print the summary only.")]
InputFormat = Annotated[
    str | None,
    typer.Option(
        click_type=INPUT_FORMAT,
        help=(
            "Read every file (and standard input) with this parser, whatever its name says"
            " (default: by its name; Turtle for stdin)."
        ),
    ),
]
Statistics = Annotated[
    bool, typer.Option("--statistics", help="Print the number of findings per rule instead of the findings.")
]
AllFindings = Annotated[
    bool,
    typer.Option(
        "--all-findings",
        help="Text: print every finding (by default a rule's first 5 in a file, then one line counting the rest).",
    ),
]
Jobs = Annotated[int, JOBS]
Scheduler = Annotated[str | None, SCHEDULER]
ShipFiles = Annotated[bool, SHIP_FILES]
FileTimeout = Annotated[float | None, FILE_TIMEOUT]
Config = Annotated[Path | None, CONFIG]
NoConfig = Annotated[bool, NO_CONFIG]


def color_enabled(stream) -> bool:
    """Colour on a terminal, unless NO_COLOR is set (https://no-color.org) or TERM is dumb."""
    return stream.isatty() and "NO_COLOR" not in os.environ and os.environ.get("TERM") != "dumb"


def report_paths(files: list[str], folder: Path, extension: str) -> dict[str, Path]:
    """Where each input's report goes: its path relative to the folder that holds all the inputs,
    under ``folder``. So it never lands outside the folder, absolute inputs do not repeat their
    whole path, and no two inputs share a report; a report that would replace an input is refused."""
    resolved = {f: Path(f).resolve() for f in files if f != "-"}
    common = Path(os.path.commonpath([p.parent for p in resolved.values()])) if resolved else Path.cwd()
    targets = {f: folder / (p.relative_to(common).as_posix() + extension) for f, p in resolved.items()}
    if "-" in files:
        targets["-"] = folder / f"stdin{extension}"
    inputs = {p: f for f, p in resolved.items()}
    owners: dict[Path, str] = {}
    for source, target in targets.items():
        clash = inputs.get(target.resolve())
        if clash is not None:
            raise UsageError(f"-o {folder}: the report of {source} would replace the input {clash}")
        if target in owners:  # standard input beside a file named stdin: one report would be lost
            names = " and ".join("standard input" if name == "-" else name for name in (owners[target], source))
            raise UsageError(f"-o {folder}: {names} would both report to {target}: give them in two runs")
        owners[target] = source
    return targets


def check_run_id(run_id: str | None, folder_name: str) -> None:
    """The run ID a scorer takes: ``--run-id`` when given (an empty one too), else the run
    folder's name (see aifcheck.names.check_id)."""
    if run_id is not None:
        check_id(run_id, "--run-id")
    else:
        check_id(folder_name, "the run ID (the run folder's name; give --run-id)")


def check_run_names(runs: Sequence[Path]) -> None:
    """Runs pooled by their folders' names (the run IDs): each a good ID, no two the same (the
    same run twice, or two runs of one name, would be pooled as one)."""
    for run in runs:
        check_id(run.name, f"RUN {run}: its folder's name, the run ID,")
    names = [run.name for run in runs]
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise UsageError(f"two runs share a folder name (the run ID): {', '.join(twice)}: give each run once")


def check_given_once(runs: Sequence[Path]) -> None:
    """No run given twice (runs of one folder name in two places are two runs: a report tells them
    apart, a pool could not)."""
    seen: dict[Path, Path] = {}
    for run in runs:
        first = seen.setdefault(run.resolve(), run)
        if first is not run:
            raise UsageError(f"{run}: given twice (as {first}): give each run once")


def check_inputs(files: Iterable[Path | None] = (), folders: Iterable[Path | None] = ()) -> None:
    """Each input file a regular file that can be opened, each input folder one that can be
    listed, before the work: an InputError (exit 3) in validate's words naming the first that is
    not (missing, a link to nothing, a FIFO, unreadable...)."""
    from aifcheck.loading.paths import input_folder, open_regular

    for path in files:
        if path is not None:
            open_regular(path).close()
    for path in folders:
        if path is not None:
            input_folder(path)


def prepare_folder(folder: Path) -> None:
    """The -o folder, made now: a run that cannot write its reports should not check first."""
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"-o {folder}: not a folder (reports are written one per input under a folder)")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"cannot write under {folder}: {exc.strerror or exc}") from None
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OutputError(f"cannot write under {folder}: permission denied")


def validation_options(
    profile: str,
    select: list[str] | None,
    ignore: list[str] | None,
    severity: str,
    strict: bool,
    max_violations: int | None,
    engine: str,
    max_size: str | None,
    store: str,
    **spread: Any,
):
    """The Options of a validation run from the options validate and lint-submission share."""
    from aifcheck.validation.run import Options

    return Options(
        profile=profile,
        select=frozenset(select) if select else None,
        ignore=frozenset(ignore or ()),
        min_severity=severity,
        strict=strict,
        max_violations=max_violations,
        engine=engine,
        max_size=parse_size(max_size),
        store=store,
        **spread,
    )


def report_output(
    catalog, fmt: str, files: list[str], output: Path | None, quiet: bool, statistics: bool, all_findings: bool
):
    """Where a validation run's report goes (aifcheck.render.reports): stdout, or one report per
    input under -o."""
    import sys

    from aifcheck.render.reports import ReportOutput

    targets = None
    if output is not None:
        prepare_folder(output)
        targets = report_paths(files, output, ReportOutput.extension(fmt))
    return ReportOutput(
        catalog,
        fmt,
        targets=targets,
        quiet=quiet,
        statistics=statistics,
        colour=color_enabled(sys.stdout),
        all_findings=all_findings,
    )
