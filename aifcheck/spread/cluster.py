"""Per-file work on the workers of a running Dask distributed cluster instead of local processes.

``--scheduler ADDRESS`` hands each file to a worker of the scheduler there; the results come back
in the files' order, each as soon as it and every file before it are done, so the output is the
same as with ``--jobs 1``. Without ``--ship-files`` a worker reads the file at its absolute path
(the workers share the files, e.g. on NFS); with it the bytes travel from here. Either way the
worker parses them under the file's own name and base IRI (aifcheck.loading.kb.HeldFile): same messages,
same lines as a local run.

A file whose worker dies while working on it, or that has no result within the file timeout, is
tried once more; a second failure reports it as unreadable (one located line) and the run goes
on. Dask (the ``cluster`` extra) is imported only here, and only when a scheduler is given.
"""

from __future__ import annotations

import logging
import os
import queue
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar

from aifcheck.errors import AifcheckError, UsageError
from aifcheck.loading.kb import HeldFile
from aifcheck.loading.paths import STDIN

T = TypeVar("T")

FILE_TIMEOUT = 3600.0  # seconds a file may take on a worker: ten times what a 10M-triple KB takes
SHIP_BUDGET = 256 * 1024 * 1024  # bytes of shipped files in flight (the scheduler holds them until run)
CONNECT_TIMEOUT = 10  # seconds to reach the scheduler
_POLL = 1.0  # seconds between two looks at the clock while no news comes
_TRIES = 2  # a file is tried once more after a failure
# rdflib and pyparsing (the reference engine) are not safe to share between threads: a worker with
# several threads checks one file at a time (start workers with --nthreads 1 and more --nworkers)
_ONE_FILE_AT_A_TIME = threading.Lock()


class ClusterError(AifcheckError):
    """The scheduler went away in the middle of a run (exit 3)."""


def check_options(
    scheduler: str | None, ship_files: bool = False, file_timeout: float | None = None, jobs: int = 1
) -> None:
    """Usage errors of the cluster options, before any file is read."""
    if scheduler is None:
        for given, option in ((ship_files, "--ship-files"), (file_timeout is not None, "--file-timeout")):
            if given:
                raise UsageError(f"{option} goes with --scheduler")
        return
    if jobs > 1:
        raise UsageError("give --jobs or --scheduler, not both: the cluster's workers set how many files run at once")
    if file_timeout is not None and not file_timeout > 0:
        raise UsageError("--file-timeout must be more than 0 seconds")


def map_files(
    function: Callable[..., T],
    files: Sequence[str],
    args: Sequence[tuple],
    lost: Callable[[str, str], T],
    scheduler: str,
    ship_files: bool = False,
    file_timeout: float | None = None,
) -> Iterator[T]:
    """``function(files[i], *args[i])`` for every file, on the workers of the Dask scheduler at
    ``scheduler``: the results in file order, each as soon as it and every file before it are done.
    A file the cluster failed twice becomes ``lost(file, reason)``. ``function`` and its arguments
    must be importable on the workers (aifcheck installed there). See check_options for the
    options' usage errors."""
    client = _connect(scheduler)
    with _dask_quiet(), client:
        run = _Run(client, function, files, args, lost, ship_files, file_timeout or FILE_TIMEOUT)
        try:
            yield from run.outcomes_in_order()
        finally:
            run.finish()


@contextmanager
def _dask_quiet() -> Iterator[None]:
    """Dask's loggers silenced: they tell of what the run reports itself (a worker gone, a file run
    again, the scheduler lost), with tracebacks."""
    names = ["distributed", *(name for name in logging.root.manager.loggerDict if name.startswith("distributed."))]
    loggers = [logging.getLogger(name) for name in names]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.CRITICAL + 1)
    try:
        yield
    finally:
        for logger, level in zip(loggers, levels, strict=True):
            logger.setLevel(level)


def _connect(scheduler: str) -> Any:
    try:
        from distributed import Client
        from distributed.comm import resolve_address
    except ImportError:
        raise UsageError("--scheduler needs Dask: pip install 'aifcheck[cluster]'") from None
    try:
        # a malformed address is refused before a Client is made: one that fails to start
        # complains again when it is collected
        resolve_address(scheduler)
        return Client(scheduler, timeout=CONNECT_TIMEOUT, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        reason = " ".join(str(exc).split())
        raise UsageError(f"--scheduler {scheduler}: no Dask scheduler answers there ({reason})") from None


@dataclass(frozen=True)
class _Unreadable:
    """What a worker that cannot read a shared file sends back instead of a result."""

    reason: str


def _attempt(
    function: Callable[..., T], path: str, source: bytes | str, base: str, args: tuple, key: str, topic: str
) -> T | _Unreadable:
    """One try of ``function`` on a worker: once no other file runs on it, say that it starts (the
    file timeout counts from then), then run it on the file's content, read from the shared path or
    shipped."""
    from distributed import get_worker

    worker = get_worker()
    with _ONE_FILE_AT_A_TIME:
        worker.log_event(topic, {"key": key, "worker": worker.address})
        if isinstance(source, str) and Path(source).is_dir():  # a folder (of tables) is read by the function itself
            return function(path, *args)
        if isinstance(source, str):
            try:
                source = Path(source).read_bytes()
            except OSError as exc:
                return _Unreadable(
                    f"cannot read {source} on the Dask worker {worker.address}: {exc.strerror or exc} "
                    "(without --ship-files every worker must see the files at the same path)"
                )
        return function(HeldFile(path, source, base), *args)


def _end_if_nannied(dask_worker) -> None:
    """On a worker (by Client.run): end its process at once, if a nanny will start it afresh."""
    if dask_worker.nanny:
        os._exit(1)


@dataclass
class _Try:
    """A file on the cluster: its future, and since when a worker runs it."""

    index: int
    future: Any
    size: int  # bytes shipped with it
    worker: str | None = None
    started: float = 0.0  # time.monotonic() when its start was heard of


class _Run(Generic[T]):
    """One run's bookkeeping. News from the cluster (a try started, a future done, a worker gone)
    arrives from Dask's threads on one queue; this thread alone acts on it."""

    def __init__(self, client, function, files, args, lost, ship_files: bool, file_timeout: float) -> None:
        self.client, self.function, self.files, self.args, self.lost = client, function, files, args, lost
        self.ship_files, self.file_timeout = ship_files, file_timeout
        self.topic = f"aifcheck-{uuid.uuid4().hex}"
        self.news: queue.SimpleQueue = queue.SimpleQueue()
        self.tries: dict[str, _Try] = {}  # by key: the files on the cluster now
        self.running: dict[str, _Try] = {}  # those a worker has started
        self.failures = [0] * len(files)
        self.outcomes: dict[int, T] = {}
        self.submitted = 0
        self.shown = 0  # results handed on, in order
        self.shipped = 0  # bytes of the tries in flight
        self.restarted: set[str] = set()  # workers restarted here: their end is no file's failure
        client.subscribe_topic(self.topic, lambda event: self.news.put(("started", event[1])))
        client.subscribe_topic("all", lambda event: self.news.put(("cluster", event[1])))

    def finish(self) -> None:
        """Before the client goes: unsubscribe (the scheduler would tell it, on "all", that it went)."""
        if self.client.status == "running":
            for topic in (self.topic, "all"):
                self.client.unsubscribe_topic(topic)

    def outcomes_in_order(self) -> Iterator[T]:
        while self.shown < len(self.files):
            self._submit_more()
            self._follow_news()
            while self.shown in self.outcomes:
                yield self.outcomes.pop(self.shown)
                self.shown += 1

    # -- sending files ---------------------------------------------------------------------

    def _submit_more(self) -> None:
        while self.submitted < len(self.files) and (self.shipped < SHIP_BUDGET or not self.tries):
            if self.files[self.submitted] == STDIN and self.shown < self.submitted:
                break  # reading it waits for its writer: show the files before it first
            self._submit(self.submitted)
            self.submitted += 1

    def _submit(self, index: int) -> None:
        path = self.files[index]
        if self.ship_files or path == STDIN:  # a worker cannot read this process's standard input
            try:
                source: bytes | str = sys.stdin.buffer.read() if path == STDIN else Path(path).read_bytes()
            except OSError:  # unreadable here too: the local run says why, in its own words
                self.outcomes[index] = self.function(path, *self.args[index])
                return
        else:
            source = os.path.abspath(path)
        size = len(source) if isinstance(source, bytes) else 0
        key = f"{self.topic}-{index}-{self.failures[index]}"
        base = Path(path).resolve().as_uri()  # as load_kb resolves relative IRIs here
        future = self.client.submit(
            _attempt, self.function, path, source, base, self.args[index], key, self.topic, key=key, pure=False
        )
        self.tries[key] = _Try(index, future, size)
        self.shipped += size
        self._await(future)

    def _await(self, future) -> None:
        future.add_done_callback(lambda done: self.news.put(("done", done)))

    # -- hearing back ----------------------------------------------------------------------

    def _follow_news(self) -> None:
        """Wait for news (at most until the next file timeout), then act on all there is."""
        news = []
        try:
            news.append(self.news.get(timeout=self._until_next_timeout()))
            while True:
                news.append(self.news.get_nowait())
        except queue.Empty:
            pass
        if self.client.status != "running":  # its futures are cancelled: nothing more will come
            raise ClusterError(f"lost the Dask scheduler at {self.client.scheduler.address} in the middle of the run")
        done = []
        for kind, message in news:
            if kind == "started":
                self._started(message)
            elif kind == "cluster" and message.get("action") == "remove-worker":
                self._worker_gone(message)
            elif kind == "done":
                done.append(message)
        self._settle([future for future in done if future.key in self.tries])
        self._check_timeouts()

    def _started(self, message: dict) -> None:
        current = self.tries.get(message["key"])
        if current is not None:
            current.worker, current.started = message["worker"], time.monotonic()
            self.running[message["key"]] = current

    def _settle(self, futures: list) -> None:
        finished = [future for future in futures if future.status == "finished"]
        for future, value in zip(finished, self.client.gather(finished) if finished else [], strict=True):
            current = self._drop(future.key)
            self.outcomes[current.index] = (
                self.lost(self.files[current.index], value.reason) if isinstance(value, _Unreadable) else value
            )
        for future in futures:
            if future.status == "cancelled":  # by someone else: what this run cancels it has dropped
                self._failed(self.tries[future.key], "its task was cancelled on the cluster, twice", again=True)
            elif future.status == "error":
                self._erred(future)
            elif future.status != "finished":  # its result was lost with its worker: computed again
                self._await(future)

    def _erred(self, future) -> None:
        from distributed import KilledWorker

        error = future.exception()
        if isinstance(error, KilledWorker):  # the scheduler's own limit on retries came first
            deaths = error.allowed_failures + 1
            self._lose(self.tries[future.key], f"the Dask workers checking it died {deaths} time{'s' * (deaths > 1)}")
        elif isinstance(error, ImportError):
            raise UsageError(f"the Dask workers cannot run aifcheck ({error}): install aifcheck on every worker")
        else:
            future.result()  # a fault in aifcheck itself: raised here, with the worker's traceback

    def _worker_gone(self, message: dict) -> None:
        worker = message["worker"]
        # a worker retired on purpose, or restarted here, fails no file
        blameless = message.get("expected") or worker in self.restarted
        self.restarted.discard(worker)
        for key, current in list(self.running.items()):
            if current.worker == worker:
                del self.running[key]  # the scheduler runs it again elsewhere
                if not blameless:
                    self._failed(
                        current, f"the Dask worker checking it died, twice (the last was {worker})", again=False
                    )

    def _check_timeouts(self) -> None:
        now = time.monotonic()
        for current in [t for t in self.running.values() if now - t.started > self.file_timeout]:
            self._failed(
                current, f"no result within --file-timeout {self.file_timeout:g} s on a Dask worker, twice", again=True
            )
            self._restart(current.worker)

    def _restart(self, worker: str) -> None:
        """Stop what still runs on a worker: end its process, which its nanny starts afresh (Dask's
        polite restart waits for the stuck thread, and may leave the worker down). The files that
        shared it run again and fail nothing."""
        self.restarted.add(worker)
        try:
            self.client.run(_end_if_nannied, workers=[worker])
        except OSError:  # the worker's connection closes as it ends
            return
        self.restarted.discard(worker)  # it has no nanny: left as it is, busy

    def _until_next_timeout(self) -> float:
        if not self.running:
            return _POLL
        first = min(t.started for t in self.running.values())
        return min(_POLL, max(0.0, first + self.file_timeout - time.monotonic()) + 0.01)

    # -- failures --------------------------------------------------------------------------

    def _failed(self, current: _Try, reason: str, again: bool) -> None:
        """A try that ended without a result; ``reason`` says why when it is the last. ``again``:
        submit the file anew (else the scheduler runs it again itself)."""
        self.failures[current.index] += 1
        if self.failures[current.index] >= _TRIES:
            self._lose(current, reason)
        elif again:
            self._drop(current.future.key, cancel=True)
            self._submit(current.index)

    def _lose(self, current: _Try, reason: str) -> None:
        self._drop(current.future.key, cancel=True)
        self.outcomes[current.index] = self.lost(self.files[current.index], reason)

    def _drop(self, key: str, cancel: bool = False) -> _Try:
        current = self.tries.pop(key)
        self.running.pop(key, None)
        self.shipped -= current.size
        if cancel:
            self.client.cancel([current.future])
        return current
