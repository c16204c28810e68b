"""Per-file work in this process, in local processes (``--jobs``) or on the workers of a Dask
cluster (``--scheduler``). Results come in the files' order, each as soon as it and every file
before it are done, so that the output never depends on how the work was spread; a file whose
process dies is reported alone, and the other files go on."""

from __future__ import annotations

import os
import signal
import weakref
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

from aifcheck.errors import UsageError

T = TypeVar("T")

CRASHED = "the process checking this file crashed: the file cannot be read"


@dataclass(frozen=True)
class Spread:
    """How files are spread: over ``jobs`` local processes, or over the workers of the Dask
    scheduler at ``scheduler`` (see aifcheck.cluster for ``ship_files`` and ``file_timeout``)."""

    jobs: int = 1
    scheduler: str | None = None
    ship_files: bool = False
    file_timeout: float | None = None

    @property
    def on_cluster(self) -> bool:
        return self.scheduler is not None or self.ship_files or self.file_timeout is not None

    def in_processes(self, files: int) -> bool:
        """Whether ``files`` files leave this process."""
        return self.on_cluster or (self.jobs > 1 and files > 1)

    def check(self) -> None:
        """Usage errors of the options, before any file is read."""
        if self.jobs < 1:
            raise UsageError("--jobs must be at least 1")
        if self.on_cluster:
            from aifcheck.spread import cluster

            cluster.check_options(self.scheduler, self.ship_files, self.file_timeout, self.jobs)

    def threads(self) -> int:
        """Threads one file may use for its own work: a cluster worker runs one file per core;
        local processes share this machine's cores."""
        return 1 if self.on_cluster else max(1, (os.cpu_count() or 1) // self.jobs)


IN_THIS_PROCESS = Spread()  # every file here, one after the other (the default)


def map_files(
    function: Callable[..., T],
    files: Sequence[str],
    lost: Callable[[str, str], T],
    spread: Spread,
    args: Sequence[tuple] | None = None,
) -> Iterator[T]:
    """``function(file, *args[i])`` for every file, spread as ``spread`` says; a file that no process
    could finish becomes ``lost(file, reason)``. ``function`` and the arguments must be picklable
    (a module-level function or a partial of one) when the files leave this process."""
    spread.check()
    extra = list(args) if args is not None else [()] * len(files)
    if spread.on_cluster:
        from aifcheck.spread import cluster

        yield from cluster.map_files(
            function, files, extra, lost, spread.scheduler, spread.ship_files, spread.file_timeout
        )
    elif spread.in_processes(len(files)):
        # imported here: a run of one file, the commonest, has no use for them
        from concurrent.futures.process import BrokenProcessPool

        with workers(spread.jobs) as pool:
            with signals_held():  # the workers are forked at the first submit
                futures = [pool.submit(function, path, *more) for path, more in zip(files, extra, strict=True)]
            for path, more, future in zip(files, extra, futures, strict=True):
                try:
                    yield future.result()
                except BrokenProcessPool:
                    # a process died (a crash in a parser): every file it left unfinished is run
                    # again in a process of its own, so that only the culprit is lost
                    yield _alone(function, path, more, lost)
    else:
        for path, more in zip(files, extra, strict=True):
            yield function(path, *more)


@contextmanager
def workers(jobs: int) -> Iterator[ProcessPoolExecutor]:
    """A pool of ``jobs`` worker processes. A run stopped (Ctrl-C, SIGTERM, an error) kills them at
    once and drops the files queued: the pool's own ending would first finish every file given."""
    from concurrent.futures import ProcessPoolExecutor

    pool = ProcessPoolExecutor(max_workers=jobs, initializer=die_with_parent, initargs=(os.getpid(),))
    _LIVE.add(pool)
    try:
        yield pool
    except BaseException:
        _kill(pool)
        raise
    finally:
        _LIVE.discard(pool)
    pool.shutdown(wait=True)


_LIVE: weakref.WeakSet = weakref.WeakSet()  # the pools at work now


def stop_workers() -> None:
    """Kill the workers of every pool still at work: an interrupt that comes while the files' results
    are being used leaves the pool's generator suspended, its workers alive, and the interpreter's
    exit waiting for its thread (aifcheck.cli.main calls this as a run ends)."""
    for pool in list(_LIVE):
        _kill(pool)


def _kill(pool: ProcessPoolExecutor) -> None:
    """The pool's workers killed, its queued files dropped (through the pool's private handles, its
    only ones on its processes and pipes)."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        with suppress(OSError, ValueError, AttributeError):  # (one already gone)
            process.kill()
            process.join()
    # the pool's thread may be reading a result that a killed worker left half-written: with this
    # process's own end of the result pipe closed too, it reads the pipe's end instead of waiting
    # for ever (and the interpreter's exit, which joins that thread, with it)
    with suppress(OSError, AttributeError):
        pool._result_queue._writer.close()


def _alone(function: Callable[..., T], path: str, args: tuple, lost: Callable[[str, str], T]) -> T:
    from concurrent.futures.process import BrokenProcessPool

    with workers(1) as pool:
        try:
            with signals_held():
                future = pool.submit(function, path, *args)
            return future.result()
        except BrokenProcessPool:
            return lost(path, CRASHED)


_HELD = {signal.SIGINT, signal.SIGTERM}


@contextmanager
def signals_held() -> Iterator[None]:
    """SIGINT and SIGTERM held back while worker processes are forked: Python runs its at-fork
    handlers (logging's) in the parent, where an interrupt is printed as an ignored exception and
    lost (the run goes on); held, it comes once the fork is done."""
    if not hasattr(signal, "pthread_sigmask"):  # Windows: no fork either
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def die_with_parent(parent: int) -> None:
    """Make this worker process end when ``parent`` does, even killed outright (SIGKILL leaves its
    workers no message): Linux's parent-death signal; elsewhere nothing is done. A terminal's
    Ctrl-C, which reaches every process of the group, is the parent's to answer (it kills its
    workers): a worker ignores it, and prints no traceback of its own. The signals its parent held
    while forking it are let through again."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _HELD)
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):  # not Linux (no prctl)
        return
    if os.getppid() != parent:  # the parent died before the signal was asked for
        os._exit(1)


_PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>
