"""The fast executor's ways of running one file's queries side by side: forked copies of the
process (small in-memory files, on Linux) or threads; the same findings either way."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import FIXTURES

from aifcheck.validation.engine.fast import _in_forks

linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="fork is used on Linux only")


@linux_only
def test_the_forked_copies_claim_checks_and_the_results_come_in_order() -> None:
    parent = os.getpid()

    def solve(check: int) -> tuple[int, int]:
        time.sleep(0.03)  # long enough for every copy to claim some
        return check, os.getpid()

    found = list(_in_forks(solve, list(range(12)), 3))
    assert [check for check, _ in found] == list(range(12))
    solvers = {pid for _, pid in found}
    assert parent in solvers and len(solvers) == 3  # this process and two copies


def test_the_checks_are_claimed_in_the_order_given() -> None:
    claimed: list[int] = []
    results = list(_in_forks(lambda check: claimed.append(check) or -check, list(range(5)), 1, order=[4, 2, 0, 1, 3]))
    assert results == [0, -1, -2, -3, -4] and claimed == [4, 2, 0, 1, 3]


@linux_only
def test_what_a_copy_that_dies_claimed_is_solved_here(tmp_path: Path) -> None:
    parent = os.getpid()

    def solve(check: int) -> int:
        if os.getpid() != parent:  # a crash in a copy, on the first check it claims
            (tmp_path / str(check)).touch()
            os._exit(3)
        time.sleep(0.02)
        return check * 10

    assert list(_in_forks(solve, list(range(9)), 3)) == [check * 10 for check in range(9)]
    assert len(list(tmp_path.iterdir())) == 2  # both copies claimed a check, and died


@linux_only
def test_without_a_process_to_spare_every_check_is_solved_here(monkeypatch) -> None:
    def no_fork() -> int:
        raise BlockingIOError("Resource temporarily unavailable")

    monkeypatch.setattr(os, "fork", no_fork)
    parent = os.getpid()
    assert list(_in_forks(lambda check: (check, os.getpid()), list(range(7)), 3)) == [
        (check, parent) for check in range(7)
    ]


@linux_only
def test_no_copy_outlives_a_run_that_fails_here(tmp_path: Path) -> None:
    parent = os.getpid()

    def solve(check: int) -> int:
        if os.getpid() != parent:  # a copy: says who it is, then takes long
            (tmp_path / str(os.getpid())).touch()
            time.sleep(60)
        for _ in range(500):  # here: fails once the copy has started
            if any(tmp_path.iterdir()):
                raise RuntimeError("stopped")
            time.sleep(0.01)
        return check

    started = time.monotonic()
    with pytest.raises(RuntimeError, match="stopped"):
        list(_in_forks(solve, list(range(4)), 2))
    copies = [int(p.name) for p in tmp_path.iterdir()]
    assert len(copies) == 1 and time.monotonic() - started < 30
    with pytest.raises(ProcessLookupError):
        os.kill(copies[0], 0)  # killed and reaped, not left running nor a zombie


# in a process of its own: this one may hold threads from other tests, and then does not fork
SAME_FINDINGS = """
import sys
from aifcheck.validation.shapes import load_catalog
from aifcheck.validation.engine import fast
from aifcheck.loading.kb import load_kb
from aifcheck.validation.run import Options

catalog = load_catalog()
rules = Options().rules(catalog)
with load_kb(sys.argv[1]) as kb:
    assert fast._can_fork(kb)
    forked = list(fast.FastExecutor(2).run(kb, rules, catalog))
    fast.FORK_LIMIT = 0
    assert not fast._can_fork(kb)
    threaded = list(fast.FastExecutor(2).run(kb, rules, catalog))
assert forked == threaded and len(forked) >= 2, (forked, threaded)
print(len(forked))
"""


@linux_only
def test_forked_and_threaded_runs_find_the_same() -> None:
    proc = subprocess.run(
        [sys.executable, "-c", SAME_FINDINGS, str(FIXTURES / "N4" / "bad.ttl")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0 and int(proc.stdout) >= 2, proc.stderr
