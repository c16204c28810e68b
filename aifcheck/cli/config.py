"""Settings from ``[tool.aifcheck]`` in pyproject.toml: the defaults of the command line's options.

The file is the nearest pyproject.toml with a ``[tool.aifcheck]`` table, from the current folder
upward (or the one ``--config`` names). Keys are the long option names (``max-violations``);
a flag given on the command line wins over the file. A key aifcheck does not know, or a value of
the wrong kind, is refused: a setting that silently does nothing is worse than none.
"""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..choices import did_you_mean
from ..errors import InputError, UsageError


def _strings(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


# key -> (the option's parameter name, a test of the value's kind, the kind in words)
KEYS: dict[str, tuple[str, Callable[[Any], bool], str]] = {
    "profile": ("profile", lambda v: isinstance(v, str), "a string"),
    "select": ("select", _strings, "a list of rule IDs"),
    "ignore": ("ignore", _strings, "a list of rule IDs"),
    "severity": ("severity", lambda v: isinstance(v, str), "a string"),
    "strict": ("strict", lambda v: isinstance(v, bool), "true or false"),
    "jobs": ("jobs", lambda v: isinstance(v, int) and not isinstance(v, bool), "a whole number"),
    "engine": ("engine", lambda v: isinstance(v, str), "a string"),
    "format": ("output_format", lambda v: isinstance(v, str), "a string"),
    "max-violations": ("max_violations", lambda v: isinstance(v, int) and not isinstance(v, bool), "a whole number"),
    "max-size": ("max_size", lambda v: isinstance(v, (str, int)) and not isinstance(v, bool), "a size such as \"4G\""),
    "store": ("store", lambda v: isinstance(v, str), "auto, memory or disk"),
    "task": ("task", lambda v: isinstance(v, str), "a string"),
    "condition": ("condition", lambda v: isinstance(v, int) and not isinstance(v, bool), "5, 6 or 7"),
    "quiet": ("quiet", lambda v: isinstance(v, bool), "true or false"),
    "statistics": ("statistics", lambda v: isinstance(v, bool), "true or false"),
}


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


def read_config(path: Path, table: Any = None) -> dict[str, Any]:
    """The settings of a configuration file, keyed by option parameter name; ``table`` is its
    [tool.aifcheck] table when find_config has read it already."""
    if table is None:
        table = _parse(path, _bytes(path)).get("tool", {}).get("aifcheck")
    if table is None:
        raise UsageError(f"{path}: no [tool.aifcheck] table")
    if not isinstance(table, dict):  # tool.aifcheck = 3
        raise UsageError(f"{path}: [tool.aifcheck] must be a table of settings")
    settings: dict[str, Any] = {}
    for key, value in table.items():
        if key not in KEYS:
            raise UsageError(f"{path}: [tool.aifcheck] has no setting '{key}'{did_you_mean(key, KEYS)}")
        name, accepts, kind = KEYS[key]
        if not accepts(value):
            raise UsageError(f"{path}: [tool.aifcheck] {key} must be {kind}")
        settings[name] = str(value) if key == "max-size" else value
    return settings


def _bytes(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as exc:
        raise InputError(str(path), f"cannot read: {exc.strerror or exc}") from None


def _parse(path: Path, data: bytes) -> dict[str, Any]:
    """The TOML of a file's bytes; InputError naming the file when they are not TOML."""
    import tomllib

    try:
        return tomllib.loads(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise InputError(str(path), f"not valid TOML: not UTF-8 ({exc.reason} at byte {exc.start})") from None
    except tomllib.TOMLDecodeError as exc:
        raise InputError(str(path), f"not valid TOML: {exc}") from None
