"""The campaign of tests/fuzz/commands.py in CI: 80 seeded cases over every command's inputs,
outputs, option values, folder names, standard output and signals, two at a time; nothing may go
wrong (the long mode, 10,000 cases, is run by hand: ``python tests/fuzz/commands.py --cases 10000
--jobs 2``). And the answers the campaign holds every command to (oracle.MISTAKES): each still the
one its source command gives."""

from __future__ import annotations

import os
import re
import shutil
import sys
import time
from pathlib import Path

import pytest
from helpers import ROOT

from fuzz.commands import SEED, campaign, finish, start, table
from fuzz.oracle import MISTAKES

CASES = 80  # (about 25 s on two busy cores: the new commands' cases take longer than the first ones')
FORKS = pytest.mark.skipif(
    not sys.platform.startswith("linux") or not hasattr(os, "fork"),
    reason="the campaign forks, and drops Linux capabilities",
)


@FORKS
def test_seeded_command_cases() -> None:
    outcome = campaign(SEED, CASES, jobs=2, timeout=10)
    assert outcome.runs == CASES
    assert not outcome.problems, table(outcome, SEED, CASES, 2)


KB = ROOT / "examples" / "valid" / "document-kb.ttl"


def _input(mistake: str, folder: Path) -> str:
    """A copy of the example KB made into ``mistake``; its name."""
    path = folder / "kb.ttl"
    data = KB.read_bytes()
    if mistake == "FIFO":
        os.mkfifo(path)
    elif mistake == "/dev/zero":
        path.symlink_to("/dev/zero")
    elif mistake == "dangling link":
        path.symlink_to("nothing-here")
    elif mistake == "link loop":
        path.symlink_to("kb.ttl")
    elif mistake in ("unreadable", "folder unreadable", "ancestor unreadable"):
        (folder / "in").mkdir()
        path = folder / "in" / "kb.ttl"
        path.write_bytes(data)
        (path if mistake == "unreadable" else path.parent).chmod(0)
    elif mistake != "missing":
        path.write_bytes(
            {
                "empty file": b"",
                "NUL bytes": b"\0" * len(data),
                "BOM": b"\xef\xbb\xbf" + data,
                "not UTF-8": data.replace(b"\n", b"\n# caf\xe9\n", 2),
            }[mistake]
        )
    return os.path.relpath(path, folder)


SOURCED = sorted(name for name, expect in MISTAKES.items() if expect.source.startswith(("validate", "claims")))


@FORKS
@pytest.mark.parametrize("mistake", SOURCED)
def test_each_answer_is_its_source_s(mistake: str, tmp_path: Path) -> None:
    """The command MISTAKES names as the source of an answer still gives it (run as the campaign
    runs a case: a fork, root's power over permissions dropped)."""
    folder = tmp_path / "case"
    folder.mkdir()
    folder.chmod(0o777)
    expect = MISTAKES[mistake]
    if mistake.startswith("-o"):
        shutil.copy(KB, folder / "kb.ttl")
        (folder / "afile").write_bytes(b"keep me\n")
        out = {
            "-o onto a file": "afile",
            "-o FILE/sub": "afile/sub",
            "-o /proc/version": "/proc/version",
            "-o onto its input": "kb.ttl",
        }[mistake]
        argv, named = (
            (
                ["claims", "kb.ttl", "-o", out]
                if expect.source.startswith("claims")
                else ["validate", "kb.ttl", "-o", out]
            ),
            out,
        )
    else:
        named = _input(mistake, folder)
        argv = ["validate", named]
    run = finish(start(argv, folder), folder, time.monotonic(), 60)
    for path in folder.rglob("*"):
        if not path.is_symlink():
            path.chmod(0o700)
    assert run.status == expect.status, (run.stdout, run.stderr)
    said = [line for line in (run.stdout + run.stderr).splitlines() if named in line]
    assert expect.status == 0 or said, (run.stdout, run.stderr)
    assert not expect.words or any(re.search(expect.words, line) for line in said), said
    assert not expect.line or any(re.search(re.escape(named) + r":\d+", line) for line in said), said


def test_a_result_compared_with_the_pristine_run_leaves_out_the_time(tmp_path: Path) -> None:
    """Issue 43 (case 4542): lint-submission's JSON gives the seconds it took, which differ from
    run to run: not a loss (the report's findings are compared, not its timing)."""
    from fuzz.commands import Run, _result

    def report(seconds: str, valid: int) -> Run:
        return Run(0, f'{{"summary": {{"seconds": {seconds}, "valid": {valid}}}}}\n', "", 0.1)

    assert _result(report("0.1", 5), tmp_path, None) == _result(report("0.12", 5), tmp_path, None)
    assert _result(report("0.1", 5), tmp_path, None) != _result(report("0.1", 4), tmp_path, None)
