"""Standard streams that cannot be written: closed (``>&-``), on a full disk, or a pipe whose reader
has left. Such a run ends with one line on stderr and exit 3 (a pipe's reader that left is no error
to tell: exit 141, as a shell reports a process ended by SIGPIPE), never a traceback, and never by
writing into a file the run opened in the closed stream's place."""

from __future__ import annotations

import errno
import os
import sys
from contextlib import suppress
from typing import Any

from aifcheck.errors import ESCAPE

BROKEN_PIPE = 141  # 128 + SIGPIPE: what `yes | head -1` reports for yes


class Closed(BaseException):
    """Standard output could not be written. A BaseException, as KeyboardInterrupt is, so that no
    handler of the library takes it for a file's error: it ends the run (its clean-ups run) in main."""

    def __init__(self, reason: str, code: int | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.code = code


class _Guarded:
    """sys.stdout, whose write errors become Closed; after the first one, writes are dropped."""

    def __init__(self, stream: Any | None) -> None:
        self._stream = stream
        self.failed = False

    def __getattr__(self, name: str) -> Any:
        if self._stream is None:
            raise Closed("it is closed")
        return getattr(self._stream, name)

    def write(self, text: str) -> int:
        return self._call("write", text)

    def writelines(self, lines) -> None:
        self._call("writelines", lines)

    def flush(self) -> None:
        self._call("flush")

    def isatty(self) -> bool:
        return self._stream is not None and self._stream.isatty()

    def _call(self, name: str, *args: Any) -> Any:
        if self.failed:
            return 0
        if self._stream is None:
            self._fail(Closed("it is closed"))
        try:
            return getattr(self._stream, name)(*args)
        except OSError as exc:
            self._fail(Closed(exc.strerror or str(exc), exc.errno))

    def _fail(self, closed: Closed) -> None:
        self.failed = True
        _to_null(1)  # what is still buffered goes nowhere at exit, instead of a second error
        raise closed


def _to_null(fd: int) -> None:
    null = os.open(os.devnull, os.O_RDWR)
    if null != fd:
        os.dup2(null, fd)
        os.close(null)


def _is_open(fd: int) -> bool:
    try:
        os.fstat(fd)
    except OSError:
        return False
    return True


def guard() -> None:
    """Standard streams made safe: a closed one is given /dev/null's descriptor (so that no file
    the run opens takes its number), and writes to standard output go through _Guarded."""
    closed = [fd for fd in (0, 1, 2) if not _is_open(fd)]
    for fd in closed:
        _to_null(fd)
    if 2 in closed:
        sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 - for the rest of the run
    if 0 in closed:
        sys.stdin = open(os.devnull, encoding="utf-8")  # noqa: SIM115
    for stream in (sys.stdout, sys.stderr):
        with suppress(AttributeError, ValueError):  # (a stream replaced by one that cannot be)
            # a file name's byte that is not UTF-8 is shown as \xff, never a UnicodeEncodeError
            stream.reconfigure(errors=ESCAPE)
    if not isinstance(sys.stdout, _Guarded):
        sys.stdout = _Guarded(None if 1 in closed else sys.stdout)


def flush() -> None:
    """Standard output written out now (raises Closed), not in the interpreter's exit where an error is a traceback."""
    sys.stdout.flush()


def discard() -> None:
    """What standard output still holds is dropped (the run ends with an error)."""
    if isinstance(sys.stdout, _Guarded):
        sys.stdout.failed = True
    _to_null(1)


def report(closed: Closed) -> int:
    """The exit status of a run whose standard output failed, after its one line."""
    discard()
    if closed.code == errno.EPIPE:
        return BROKEN_PIPE
    with suppress(OSError, ValueError):  # stderr cannot be written either: the exit status tells
        print(f"aifcheck: error: cannot write standard output: {closed.reason}", file=sys.stderr, flush=True)
    return 3
