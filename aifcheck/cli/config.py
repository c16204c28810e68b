"""Settings from ``[tool.aifcheck]`` in pyproject.toml: the defaults of the command line's options.

The file is the nearest pyproject.toml with a ``[tool.aifcheck]`` table, from the current folder
upward (or the one ``--config`` names). Keys are the long names of the command's options
(``max-violations``): each command takes its own options, checked as the command line checks
them; a flag given on the command line wins over the file. A key the command does not know, or a
value of the wrong kind, is refused: a setting that silently does nothing is worse than none.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

import click

from aifcheck.choices import did_you_mean
from aifcheck.errors import InputError, UsageError
from aifcheck.loading.paths import read_bytes


def find_config(start: Path) -> tuple[Path, Any] | None:
    """The nearest pyproject.toml at or above ``start`` that has a [tool.aifcheck] table: its path
    and that table (parsed once: read_config takes it as it is)."""
    for folder in (start, *start.parents):
        candidate = folder / "pyproject.toml"
        if not candidate.is_file():
            continue
        data = _bytes(candidate)
        # a file that never names aifcheck has no table of its: not parsed (nor tomllib imported)
        if b"aifcheck" in data and "aifcheck" in (tool := _parse(candidate, data).get("tool", {})):
            return candidate, tool["aifcheck"]
    return None


def read_config(path: Path, table: Any, params: Iterable[click.Parameter]) -> dict[str, Any]:
    """The settings of a configuration file for a command whose options are ``params``, keyed by
    parameter name; ``table`` is its [tool.aifcheck] table when find_config has read it already.
    A key is an option's long name; its value is checked as the option checks a value given on the
    command line."""
    if table is None:
        table = _parse(path, _bytes(path)).get("tool", {}).get("aifcheck")
    if table is None:
        raise UsageError(f"{path}: no [tool.aifcheck] table")
    if not isinstance(table, dict):  # tool.aifcheck = 3
        raise UsageError(f"{path}: [tool.aifcheck] must be a table of settings")
    options = {
        name[2:]: param
        for param in params
        if isinstance(param, click.Option) and param.name not in NOT_SETTINGS
        for name in param.opts
        if name.startswith("--")
    }
    settings: dict[str, Any] = {}
    for key, value in table.items():
        if key not in options:
            raise UsageError(f"{path}: [tool.aifcheck] has no setting '{key}'{did_you_mean(key, options)}")
        param = options[key]
        if not _accepts(param, value):
            raise UsageError(f"{path}: [tool.aifcheck] {key} must be {_kind(param)}")
        settings[param.name] = str(value) if isinstance(value, int) and param.type is click.STRING else value
    return settings


NOT_SETTINGS = {"config", "no_config", "output", "help"}  # what belongs to one run, not to a project


def _accepts(param: click.Option, value: Any) -> bool:
    if param.multiple:
        return isinstance(value, list) and all(isinstance(v, str) for v in value)
    if param.is_flag:
        return isinstance(value, bool)
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        return False
    if isinstance(value, int) and param.type is click.STRING:
        return True  # a size given as a number of bytes
    if hasattr(param.type, "names"):
        return isinstance(value, str)  # a name: checked by the option itself, which suggests the nearest
    try:
        param.type.convert(value, param, None)
    except click.BadParameter:
        return False
    return True


def _kind(param: click.Option) -> str:
    if param.multiple:
        return "a list of strings"
    if param.is_flag:
        return "true or false"
    if param.type is click.INT:
        return "a whole number"
    if param.type is click.FLOAT:
        return "a number"
    names = getattr(param.type, "names", None)
    return f"one of {', '.join(names())}" if names else "a string"


def _bytes(path: Path) -> bytes:
    return read_bytes(path, "the configuration")


def _parse(path: Path, data: bytes) -> dict[str, Any]:
    """The TOML of a file's bytes; InputError naming the file when they are not TOML."""
    import tomllib

    try:
        return tomllib.loads(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise InputError(str(path), f"not valid TOML: not UTF-8 ({exc.reason} at byte {exc.start})") from None
    except tomllib.TOMLDecodeError as exc:
        raise InputError(str(path), f"not valid TOML: {exc}") from None
