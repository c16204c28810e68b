"""The README's promises: its first two commands, CI running its test command, its length, and
every console example, of the README and of the reference pages in docs/, printing what it shows."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys

import pytest
from helpers import ROOT, SHARED_DATA

README = (ROOT / "README.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"```(\w+)\n(.*?)```", README, re.S)
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
CONSOLE = [
    (page.relative_to(ROOT).as_posix(), body)
    for page in PAGES
    for lang, body in re.findall(r"```(\w+)\n(.*?)```", page.read_text(encoding="utf-8"), re.S)
    if lang == "console"
]
SECONDS = re.compile(r"\(\d+\.\d+ s\)")
SCRATCH = "/tmp/aifcheck-readme"  # where the examples write: emptied before each, as a new user's would be


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


@pytest.mark.parametrize(("page", "block"), CONSOLE, ids=[f"{p}:{b.splitlines()[0][2:40]}" for p, b in CONSOLE])
def test_console_example_prints_what_the_readme_shows(page: str, block: str) -> None:
    command, *expected = block.rstrip("\n").splitlines()
    args = shlex.split(command.removeprefix("$ "))
    assert args[0] == "aifcheck"
    if any("../shared/data" in arg for arg in args) and not SHARED_DATA.is_dir():
        pytest.skip(f"NIST's evaluation files are not at {SHARED_DATA}")
    shutil.rmtree(SCRATCH, ignore_errors=True)
    proc = subprocess.run([sys.executable, "-m", "aifcheck", *args[1:]], cwd=ROOT, capture_output=True, text=True)
    assert "Traceback" not in proc.stderr
    actual = SECONDS.sub("(… s)", proc.stdout.rstrip("\n")).splitlines()
    assert actual == [SECONDS.sub("(… s)", line) for line in expected]
