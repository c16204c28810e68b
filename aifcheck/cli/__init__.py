"""The aifcheck command line: a thin layer over the library (parse options, call, render, exit)."""

from __future__ import annotations

import gc

# A run is short and makes few reference cycles, while its imports and its loading allocate many
# objects: at the default threshold (700 allocations) the collector runs hundreds of times for
# nothing. Set before the imports below, which it pays for.
gc.set_threshold(50_000)

import errno
import importlib
import os
import signal
import sys
from contextlib import suppress
from typing import Annotated, NoReturn

import click
import typer

from aifcheck.cli import streams
from aifcheck.cli.common import new_app
from aifcheck.errors import cut, printable
from aifcheck.version import __version__

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


# Every command, by name, in the order of `aifcheck --help`, with the module of this package that
# adds it (a module adds all of its commands). typer builds the parameters of every command it holds
# at each start, so a run holds only the module of the command it invokes; help and unknown names
# get all.
COMMANDS = {
    "validate": "validate",
    "rules": "validate",
    "query": "query",
    "claims": "claims",
    "lint-submission": "claims",
    "summary": "summary",
    "graph": "summary",
    "pipeline": "pipeline",
    "pool": "pool",
    "score": "score",
}


def application(command: str | None = None) -> typer.Typer:
    """The command line: the commands of the module that adds ``command``, or every command when
    ``command`` is None or names none of them."""
    app = new_app(no_args_is_help=True, help=HELP)
    app.callback()(_root)
    modules = {COMMANDS[command]: None} if command in COMMANDS else dict.fromkeys(COMMANDS.values())
    for module in modules:
        importlib.import_module(f"{__package__}.{module}").register(app)
    return app


GROUPS = ("score", "pipeline", "pool")  # commands whose sub-command names what ran
INTERNAL = 70  # an internal error (a bug): sysexits' EX_SOFTWARE, beside the statuses of README's table


def _interrupted(number: int, _frame: object) -> None:
    """SIGINT or SIGTERM: the run stopped (130 or 143), its output left as it was; once its output
    is in place the run is done, and ends with its own status (a signal then is too late to undo it)."""
    output = sys.modules.get("aifcheck.render.output")  # (not imported here: a signal may come mid-import)
    if output is not None and output.PLACED:
        return
    if number == signal.SIGINT:
        raise KeyboardInterrupt
    sys.exit(128 + number)


def main() -> None:
    """Entry point. A usage error of click's (an unknown option, a bad choice) becomes one line on
    stderr and exit status 2; SIGTERM ends the run as Ctrl-C does, cleaning up on the way; standard
    output that cannot be written is one line and exit 3; any other exception is a bug, told in one
    line (exit 70) with how to report it (AIFCHECK_DEBUG=1 shows the traceback)."""
    output = sys.modules.get("aifcheck.render.output")
    if output is not None:  # what a process placed before this run (a test's run, a fork's parent's) is not this run's
        output.PLACED.clear()
    signal.signal(signal.SIGTERM, _interrupted)
    signal.signal(signal.SIGINT, _interrupted)
    streams.guard()
    arguments = sys.argv[1:2]
    try:
        try:
            status = application(arguments[0] if arguments else None)(standalone_mode=False)
        except click.exceptions.Exit as exc:
            status = exc.exit_code
        streams.flush()
    except (typer.Abort, KeyboardInterrupt):
        sys.exit(130)
    except click.ClickException as exc:
        if exc.format_message():  # empty when the help was shown for a bare 'aifcheck'
            _tell(f"aifcheck: error: {exc.format_message()}")
        sys.exit(exc.exit_code)
    except streams.Closed as exc:
        sys.exit(streams.report(exc))
    except OSError as exc:
        _os_error(exc)
    except MemoryError:
        _tell(f"aifcheck: error: {_command()}: out of memory (give it less input, or more memory)")
        sys.exit(3)
    except Exception as exc:  # noqa: BLE001 - a bug: one line instead of a traceback
        _internal(exc)
    finally:
        _stop_workers()
        # The interpreter's exit runs full garbage collections over every object still alive: a
        # tenth of a validate run on an 11k-triple file, to reclaim memory the ending process gives
        # back anyway. Frozen objects are left out of them (and are still freed as usual).
        gc.freeze()
    sys.exit(status or 0)


def _os_error(exc: OSError) -> NoReturn:
    """An OSError no reader or writer of aifcheck's turned into its own error: exit 3 when it names
    a file, or is a full disk; else a bug."""
    if isinstance(exc.filename, (str, bytes)):
        # a file the library met without reading it through loading.paths (a folder it could
        # not enter, say): the file's error, not a bug
        _tell(f"aifcheck: error: {cut(printable(os.fsdecode(exc.filename)))}: {exc.strerror or exc}")
    elif exc.errno in _FULL:  # a write that names no file: stderr itself, on a full disk
        _tell(f"aifcheck: error: cannot write: {exc.strerror}")
    else:
        _internal(exc)
    sys.exit(3)


def _stop_workers() -> None:
    """The workers of a pool still at work killed (an interrupt while its results were used): the
    run ends now, not when they are done (aifcheck.spread.parallel, if this run imported it)."""
    parallel = sys.modules.get("aifcheck.spread.parallel")
    if parallel is not None:
        parallel.stop_workers()


def _internal(exc: Exception) -> NoReturn:
    """A bug: one line naming the command, what went wrong and how to report it; exit 70. But an
    interrupt that Python wrapped (one that came while a class was made, in a ``__set_name__``:
    a RuntimeError caused by it) ends the run as an interrupt does."""
    if isinstance(exc.__cause__, KeyboardInterrupt):
        sys.exit(130)
    if isinstance(exc.__cause__, SystemExit):
        raise exc.__cause__
    if os.environ.get("AIFCHECK_DEBUG"):
        raise exc
    reason = cut(printable(f"{type(exc).__name__}: {exc}"), 300)
    _tell(
        f"aifcheck: internal error in {_command()}: {reason} (a bug of aifcheck {__version__}: run it again with "
        "AIFCHECK_DEBUG=1 and report the traceback, with the command and its input, on aifcheck's issue tracker)"
    )
    sys.exit(INTERNAL)


_FULL = (errno.ENOSPC, errno.EFBIG, errno.EDQUOT)


def _tell(line: str) -> None:
    """The run's last line, on stderr when it can be written (after what standard output holds,
    or without it when that cannot be written)."""
    try:
        sys.stdout.flush()
    except BaseException:  # noqa: BLE001 - streams.Closed: the rest is dropped
        streams.discard()
    with suppress(OSError, ValueError):  # stderr closed or full too: the exit status tells
        print(line, file=sys.stderr, flush=True)


def _command() -> str:
    """The command that ran, as typed: ``aifcheck score ta1``."""
    words = ["aifcheck"]
    for arg in sys.argv[1:3]:
        if arg.startswith("-") or (len(words) == 2 and words[1] not in GROUPS):
            break
        words.append(arg)
    return "`" + " ".join(words) + "`"
