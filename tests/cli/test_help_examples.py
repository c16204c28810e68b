"""Every example that ``--help`` shows can be copied and run (issue 43 §6): printed whole on one line at
any terminal width, naming its own command, with options the command knows and every required
parameter given."""

from __future__ import annotations

import shlex
import subprocess
import sys

import click
import pytest
import typer

from aifcheck.cli import application

COMMAND = typer.main.get_command(application())


def _leaves(group: click.Group, prefix: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], click.Command]]:
    found = []
    for name, command in group.commands.items():
        if isinstance(command, click.Group):
            found += _leaves(command, (*prefix, name))
        else:
            found.append(((*prefix, name), command))
    return found


def _examples(help_text: str) -> list[str]:
    """The lines of the help after its "Example:" or "Examples:" heading, blank ones left out."""
    lines = help_text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip() in ("Example:", "Examples:"))
    return [line.strip() for line in lines[start + 1 :] if line.strip()]


def _parse(command: click.Command, example: str) -> dict:
    """The parameters that click reads from the example's words (the shell's words before any ``&&``,
    comments left out); click raises a UsageError for an unknown option or a missing value."""
    words = shlex.split(example.split("&&")[0], comments=True)
    parser = command.make_parser(click.Context(command))
    values, extra, _ = parser.parse_args(words)
    assert not extra, f"{example}: words left over: {extra}"
    return values


@pytest.mark.parametrize(
    ("path", "command"), _leaves(COMMAND), ids=lambda value: " ".join(value) if isinstance(value, tuple) else ""
)
@pytest.mark.parametrize("columns", ["40", "80", "200"])
def test_every_example_in_help_is_one_whole_command(
    path: tuple[str, ...], command: click.Command, columns: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", columns)
    shown = subprocess.run(
        [sys.executable, "-m", "aifcheck", *path, "--help"], capture_output=True, text=True, timeout=120, check=True
    ).stdout
    examples = _examples(shown)
    assert examples, shown
    prefix = f"aifcheck {' '.join(path)}"
    for example in examples:
        assert example == prefix or example.startswith(prefix + " "), f"a line that is not a command: {example!r}"
        values = _parse(command, example.removeprefix(prefix))
        missing = [p.name for p in command.params if p.required and p.name not in values]
        assert not missing, f"{example}: lacks {missing}"
