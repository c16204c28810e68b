"""The README's promises: its first two commands, CI running its test command, its length, and
every console example, of the README and of the reference pages in docs/, printing what it shows."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import ROOT, SHARED, SHARED_DATA

README = (ROOT / "README.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"```(\w+)\n(.*?)```", README, re.S)
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
SECONDS = re.compile(r"\(\d+\.\d+ s\)")
# a command that is meant to fail says so at its end (`$ aifcheck validate examples/   # exit status 1`);
# every other command must succeed, whatever its output shows
EXIT_STATUS = re.compile(r"#\s*exit status (\d+)\b")
ELISION = "..."  # a line of an expected output (indented or not) that stands for any number of lines


def console_commands(page: Path) -> list[tuple[str, list[str]]]:
    """The commands of a page's console blocks, in order: each ``$ `` line and the lines it prints."""
    commands: list[tuple[str, list[str]]] = []
    for lang, body in re.findall(r"```(\w+)\n(.*?)```", page.read_text(encoding="utf-8"), re.S):
        if lang != "console":
            continue
        for line in body.rstrip("\n").splitlines():
            if line.startswith("$ "):
                commands.append((line[2:], []))
            else:
                commands[-1][1].append(line)
    return commands


CONSOLE_PAGES = [page for page in PAGES if console_commands(page)]


def matches(actual: list[str], expected: list[str]) -> bool:
    """Whether the lines printed are the lines shown, an elision line standing for any lines."""
    if not expected:
        return not actual
    if expected[0].strip() == ELISION:
        return any(matches(actual[skip:], expected[1:]) for skip in range(len(actual) + 1))
    return bool(actual) and actual[0] == expected[0] and matches(actual[1:], expected[1:])


def expected_status(command: str) -> int:
    stated = EXIT_STATUS.search(command)
    return int(stated.group(1)) if stated else 0


@pytest.fixture
def shell_env(tmp_path: Path) -> dict[str, str]:
    """The environment a reader's shell has after `pip install .`: `aifcheck` on PATH, here the
    package under test (run by this Python, whether or not its console script is installed)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    script = bin_dir / "aifcheck"
    script.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m aifcheck "$@"\n', encoding="utf-8")
    script.chmod(0o755)
    return {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"}


@pytest.fixture
def clone(tmp_path: Path) -> Path:
    """A folder standing for a fresh clone's root (its files are the repository's, linked), with
    ../shared beside it when NIST's files are here: the examples run in it, in order."""
    folder = tmp_path / "clone"
    folder.mkdir()
    for entry in ROOT.iterdir():
        if entry.name in (".git",) or entry.name.startswith(".venv"):
            continue
        (folder / entry.name).symlink_to(entry)
    if SHARED_DATA.is_dir():
        (tmp_path / "shared").symlink_to(SHARED)
    return folder


def test_readme_opens_with_install_run_and_test_commands() -> None:
    assert [body.strip() for _, body in BLOCKS[:2]] == [
        "pip install . && aifcheck validate examples/",
        "pip install -e '.[test]' && python -m pytest",
    ]


def test_ci_runs_the_readme_test_command() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert BLOCKS[1][1].strip() in ci.splitlines()


def test_the_readme_is_short_and_its_reference_pages_are_linked() -> None:
    assert len(README.splitlines()) < 400
    linked = set(re.findall(r"\(docs/([\w-]+\.md)\)", README))
    assert linked == {p.name for p in (ROOT / "docs").glob("*.md")}, (
        "every page of docs/ is linked from the README, and only those"
    )


@pytest.mark.parametrize("page", CONSOLE_PAGES, ids=[p.relative_to(ROOT).as_posix() for p in CONSOLE_PAGES])
def test_console_examples_print_what_the_page_shows(page: Path, clone: Path, shell_env: dict[str, str]) -> None:
    """Every console example of a page, run by bash in order from a fresh clone's root as a reader
    pastes them, exits with status 0 (or the one its line states) and prints what the page shows
    (times aside)."""
    commands = console_commands(page)
    if any("../shared/data" in command for command, _ in commands) and not SHARED_DATA.is_dir():
        pytest.skip(f"NIST's evaluation files are not at {SHARED_DATA}")
    for command, expected in commands:
        proc = subprocess.run(["bash", "-c", command], cwd=clone, env=shell_env, capture_output=True, text=True)
        assert "Traceback" not in proc.stderr, command
        assert proc.returncode == expected_status(command), (
            f"{command}\n--- exit status {proc.returncode} ---\n{proc.stderr[-3000:]}"
        )
        actual = SECONDS.sub("(… s)", proc.stdout.rstrip("\n")).splitlines()
        shown = [SECONDS.sub("(… s)", line) for line in expected]
        assert matches(actual, shown), f"{command}\n--- printed ---\n" + "\n".join(actual[:60])
