"""What every aifcheck command shares: one way to report a user's mistake, the choices its options
take, settings from pyproject.toml, sizes, and reports written under ``-o``."""
from __future__ import annotations

import enum
import os
import re
import sys
from pathlib import Path

import click
import typer
import typer.core
import typer.main
from typer.core import TyperGroup

from .config import find_config, read_config
from ..errors import AifcheckError, OutputError, UsageError
from ..validation.report import ExitStatus


# typer's rich help imports rich.markdown and markdown-it: 0.17 s on every --help, more than a
# whole small run takes; click's own help says the same in plain text
typer.core.HAS_RICH = typer.main.HAS_RICH = False


class AifcheckGroup(TyperGroup):
    """The command group: an AifcheckError from any command becomes one line on stderr and its exit
    status (2 for a usage error, 3 for input that cannot be read or output that cannot be written)."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except UsageError as exc:
            click.echo(f"aifcheck: error: {exc}", err=True)
            raise click.exceptions.Exit(ExitStatus.USAGE) from None
        except AifcheckError as exc:
            click.echo(f"aifcheck: error: {exc}", err=True)
            raise click.exceptions.Exit(ExitStatus.UNREADABLE) from None


def new_app(**settings) -> typer.Typer:
    """A typer app (or sub-app) with aifcheck's conventions: -h, one error path, plain tracebacks."""
    return typer.Typer(
        cls=AifcheckGroup,
        context_settings={"help_option_names": ["-h", "--help"]},
        pretty_exceptions_show_locals=False,
        **settings,
    )


class ProfileName(str, enum.Enum):
    aif = "aif"
    nist = "nist"
    ta3 = "ta3"


class OutputFormat(str, enum.Enum):
    text = "text"
    json = "json"
    sarif = "sarif"
    github = "github"


class SeverityName(str, enum.Enum):
    error = "error"
    warning = "warning"
    info = "info"


class EngineName(str, enum.Enum):
    fast = "fast"
    reference = "reference"


class StoreName(str, enum.Enum):
    auto = "auto"
    memory = "memory"
    disk = "disk"


def format_name(chosen: OutputFormat | None) -> str:
    """The format asked for, or github on GitHub Actions, or text."""
    if chosen is not None:
        return chosen.value
    return "github" if os.environ.get("GITHUB_ACTIONS") else "text"


_SIZE = re.compile(r"(\d+(?:\.\d+)?)\s*([kmgt]?)i?b?", re.IGNORECASE)
_UNITS = {"": 1, "k": 1024, "m": 1024**2, "g": 1024**3, "t": 1024**4}


def parse_size(text: str | None) -> int | None:
    """"4G", "500M", "1.5GiB" or a number of bytes."""
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
        settings = read_config(*found)
        names = {p.name for p in ctx.command.params}
        ctx.default_map = {k: v for k, v in settings.items() if k in names}
    return value


def _no_config(ctx: click.Context, _param: click.Parameter, value: bool) -> bool:
    if value and not ctx.resilient_parsing:
        if ctx.meta.get("aifcheck.config") is not None:
            raise UsageError("give --config or --no-config, not both")
        ctx.meta["aifcheck.no_config"] = True
        ctx.default_map = None
    return value


CONFIG = typer.Option(
    "--config", is_eager=True, callback=_use_config, dir_okay=False,
    help="Settings from this pyproject.toml ([tool.aifcheck]) instead of the nearest one.",
)
NO_CONFIG = typer.Option(
    "--no-config", is_eager=True, callback=_no_config, help="Ignore any pyproject.toml settings."
)


# --jobs and the Dask options: the same on every command that reads many files (aifcheck.parallel)
JOBS = typer.Option("--jobs", "-j", help="Files checked in N parallel processes.")
SCHEDULER = typer.Option(help="Files checked on the workers of this Dask scheduler (tcp://HOST:8786); needs aifcheck[cluster].")
SHIP_FILES = typer.Option("--ship-files", help="With --scheduler: send the files' bytes to the workers, which need not see them.")
FILE_TIMEOUT = typer.Option(help="With --scheduler: seconds a file may take on a worker, then it is tried once more (default 3600).")


def color_enabled(stream) -> bool:
    """Colour on a terminal, unless NO_COLOR is set (https://no-color.org) or TERM is dumb."""
    return stream.isatty() and "NO_COLOR" not in os.environ and os.environ.get("TERM") != "dumb"


def fail(status: ExitStatus) -> None:
    """End the command with this exit status."""
    raise typer.Exit(int(status))


def stderr_line(text: str) -> None:
    print(text, file=sys.stderr)


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
