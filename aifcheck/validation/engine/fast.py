"""The fast executor: each rule's SPARQL constraints run as one whole-graph query on pyoxigraph
(aifcheck.validation.engine.compile compiles them), on all cores."""

from __future__ import annotations

import os
import pickle
import signal
import sys
import threading
from collections.abc import Callable, Generator, Iterator, Sequence
from contextlib import suppress
from typing import Any, BinaryIO, TypeVar

from aifcheck.loading.kb import KB
from aifcheck.spread.parallel import die_with_parent, signals_held
from aifcheck.validation.catalog import Catalog, Constraint, Rule
from aifcheck.validation.engine.base import RawResult, RuleFailure, fill_message
from aifcheck.validation.engine.compile import UNIT_SEPARATOR, Queries, load_queries

T = TypeVar("T")
R = TypeVar("R")

# A small file's queries spend a good part of their time being parsed and planned, with the GIL
# held: on threads they overlap poorly. Copies of the process made by fork run them side by side
# and send their results back pickled. Only where fork is safe: Linux, an in-memory store (an
# on-disk one has threads of its own), no other thread in this process. Larger files evaluate
# longer, and threads overlap as well (benchmarks/bench_validate.py); they also report progress
# query by query.
FORK_LIMIT = 50_000  # quads


def _can_fork(kb: KB) -> bool:
    return (
        sys.platform.startswith("linux") and not kb.on_disk and len(kb) <= FORK_LIMIT and threading.active_count() == 1
    )


_TICKET = 4  # bytes: the index of a check, claimed whole by one read of the pipe that holds them


def _in_forks(
    solve: Callable[[T], R], checks: list[T], processes: int, order: Sequence[int] | None = None
) -> Generator[R, None, None]:
    """``solve(check)`` for every check, yielded in the order of ``checks``. This process and
    ``processes - 1`` forked copies of it claim the checks one at a time from a pipe that holds
    their indexes in ``order`` (by default the checks' own), so that whichever is free takes the
    next and all finish together. A check that no copy reports (a copy that failed or could not be
    made, or more checks than the pipe holds) is solved here."""
    try:
        tickets, write = os.pipe()
    except OSError:  # no file descriptor to spare
        yield from map(solve, checks)
        return
    children: list[tuple[int, BinaryIO]] = []
    reaped: set[int] = set()
    try:
        os.set_blocking(write, False)  # what a full pipe cannot take is left unclaimed
        with suppress(BlockingIOError):
            os.write(write, b"".join(i.to_bytes(_TICKET, "little") for i in (order or range(len(checks)))))
        os.close(write)
        _fork_copies(solve, checks, tickets, processes - 1, children)
        outcomes = {i: solve(checks[i]) for i in _claimed(tickets)}
        for pid, pipe in children:
            try:
                found = pickle.load(pipe)
            except (EOFError, OSError, pickle.UnpicklingError):
                found = []  # its checks are solved here
            pipe.close()
            os.waitpid(pid, 0)
            reaped.add(pid)
            outcomes.update(found)
        for index, check in enumerate(checks):
            yield outcomes[index] if index in outcomes else solve(check)
    finally:  # stopped early, or failed: no copy outlives the run
        os.close(tickets)
        for pid, pipe in children:
            pipe.close()
            if pid not in reaped:
                # (reaped already when an interrupt came between its wait and the note of it)
                with suppress(ProcessLookupError, ChildProcessError):
                    os.kill(pid, signal.SIGKILL)
                    os.waitpid(pid, 0)


def _fork_copies(
    solve: Callable[[T], R], checks: list[T], tickets: int, copies: int, children: list[tuple[int, BinaryIO]]
) -> None:
    """Up to ``copies`` forked copies of this process, each claiming checks from ``tickets`` and
    sending what it solved through its pipe; each added to ``children`` as it is made."""
    parent = os.getpid()
    for _ in range(copies):
        try:
            read, send = os.pipe()
        except OSError:
            return
        try:
            with signals_held():
                pid = os.fork()
        except OSError:  # no process to spare
            os.close(read)
            os.close(send)
            return
        if pid == 0:  # the copy: what it solved into the pipe, then gone without the parent's clean-up
            try:
                die_with_parent(parent)
                os.close(read)
                with os.fdopen(send, "wb") as pipe:
                    pickle.dump(
                        [(i, solve(checks[i])) for i in _claimed(tickets)], pipe, protocol=pickle.HIGHEST_PROTOCOL
                    )
            finally:
                os._exit(0)
        os.close(send)
        children.append((pid, os.fdopen(read, "rb")))


def _claimed(tickets: int) -> Iterator[int]:
    """The indexes this process claims, one read of the ticket pipe each, until none is left."""
    while len(ticket := os.read(tickets, _TICKET)) == _TICKET:
        yield int.from_bytes(ticket, "little")


class FastExecutor:
    name = "fast"

    def __init__(self, threads: int | None = None) -> None:
        self.threads = threads or os.cpu_count() or 1  # threads that run one file's queries
        self._queries: tuple[Catalog, Queries] | None = None

    def queries(self, catalog: Catalog) -> Queries:
        """The catalogue's compiled queries, loaded once (see aifcheck.validation.engine.compile)."""
        if self._queries is None or self._queries[0] is not catalog:
            self._queries = (catalog, load_queries(catalog))
        return self._queries[1]

    def run(
        self, kb: KB, rules: list[Rule], catalog: Catalog, progress: Callable[[int, int], None] | None = None
    ) -> Iterator[RawResult | RuleFailure]:
        store = kb.store
        queries = self.queries(catalog)
        checks = [(rule, index, constraint) for rule in rules for index, constraint in enumerate(rule.constraints)]

        def solve(check: tuple[Rule, int, Constraint]) -> tuple[list[str], list] | Exception:
            try:
                solutions = store.query(queries[check[0].id, check[1]])
                return [v.value for v in solutions.variables], [tuple(row) for row in solutions]  # (picklable)
            except (OSError, SyntaxError, ValueError, RuntimeError) as exc:
                return exc

        outcomes, pool = self._outcomes(kb, solve, checks, queries)
        try:
            for done, ((rule, index, constraint), outcome) in enumerate(zip(checks, outcomes, strict=True), start=1):
                if progress is not None:
                    progress(done, len(checks))
                if isinstance(outcome, Exception):
                    yield RuleFailure(rule.id, f"check failed: {outcome}")
                    continue
                variables, rows = outcome
                for row in rows:
                    yield self._result(rule, index, constraint, variables, row)
        finally:  # the caller may stop early (--max-violations): drop the queries not yet started
            if isinstance(outcomes, Generator):
                outcomes.close()
            if pool is not None:
                pool.shutdown(wait=True, cancel_futures=True)

    def _outcomes(self, kb: KB, solve: Callable, checks: list, queries: Queries) -> tuple[Iterator, Any]:
        """Each check's outcome, in order, and the thread pool that solves them (if any).
        pyoxigraph releases the GIL while it evaluates, so queries run on all cores at once;
        results are still yielded rule by rule, in order. On one thread they run here: handing
        queries to a pool thread costs a tenth more CPU (measured on 6k-triple documents)."""
        if self.threads > 1 and _can_fork(kb):
            # the longest queries first (the closed shapes' O10 is the longest and the slowest: a
            # query's length says roughly what it costs), so that short ones are left to even out the end
            longest = sorted(range(len(checks)), key=lambda i: -len(queries[checks[i][0].id, checks[i][1]]))
            return _in_forks(solve, checks, self.threads, longest), None
        if self.threads > 1:
            from concurrent.futures import ThreadPoolExecutor  # (with logging: imports a forked run does without)

            pool = ThreadPoolExecutor(max_workers=self.threads, thread_name_prefix="aifcheck-query")
            return pool.map(solve, checks), pool
        return map(solve, checks), None

    @staticmethod
    def _result(rule: Rule, index: int, constraint: Constraint, variables: list[str], row) -> RawResult:
        bound = {name: term for name, term in zip(variables, row, strict=True) if term is not None}
        focus = bound["this"]
        # a message shows a term by its value, a blank node by its identifier (as pySHACL does)
        texts = {k: v.value for k, v in bound.items()}
        for var, separator in constraint.lists:
            if var in texts:  # sorted, so that the message is the same from run to run
                texts[var] = separator.join(sorted(texts[var].split(UNIT_SEPARATOR)))
        message = fill_message(constraint.message, texts)
        return RawResult(rule.id, index, focus, bound.get("value", focus), message)
