"""The README's promises: its first two commands, CI running its test command, and every
console example printing what the README says it prints."""
from __future__ import annotations

import re
import shlex
import subprocess
import sys

import pytest
from helpers import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"```(\w+)\n(.*?)```", README, re.S)
CONSOLE = [body for lang, body in BLOCKS if lang == "console"]
SECONDS = re.compile(r"\(\d+\.\d+ s\)")


def test_readme_opens_with_install_run_and_test_commands() -> None:
    assert [body.strip() for _, body in BLOCKS[:2]] == [
        "pip install . && aifcheck validate examples/",
        "pip install -e '.[test]' && python -m pytest",
    ]


def test_ci_runs_the_readme_test_command() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert BLOCKS[1][1].strip() in ci.splitlines()


@pytest.mark.parametrize("block", CONSOLE, ids=[b.splitlines()[0][2:40] for b in CONSOLE])
def test_console_example_prints_what_the_readme_shows(block: str) -> None:
    command, *expected = block.rstrip("\n").splitlines()
    args = shlex.split(command.removeprefix("$ "))
    assert args[0] == "aifcheck"
    proc = subprocess.run([sys.executable, "-m", "aifcheck", *args[1:]], cwd=ROOT, capture_output=True, text=True)
    assert "Traceback" not in proc.stderr
    actual = SECONDS.sub("(… s)", proc.stdout.rstrip("\n")).splitlines()
    assert actual == [SECONDS.sub("(… s)", line) for line in expected]
