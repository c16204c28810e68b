"""Writing output: files whole or not at all, so that a run killed while writing leaves no half
file behind, and a place that cannot be written is one OutputError; JSON documents in few writes."""

from __future__ import annotations

import errno
import hashlib
import json
import os
import shutil
import stat
import sys
import tempfile
import time
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from aifcheck.errors import ESCAPE, OutputError, UsageError
from aifcheck.loading.paths import alive, read_under, was_read
from aifcheck.spread.parallel import signals_held


@dataclass(frozen=True)
class FileOutput:
    """A file the user named for an output, and the option that named it (for the messages)."""

    path: Path
    option: str = "-o"


def write_atomically(target: Path, text: str, option: str = "-o") -> None:
    """Write ``text`` to the file ``target`` (see write_files)."""
    write_files({FileOutput(Path(target), option): text})


def write_files(texts: Mapping[FileOutput, str]) -> None:
    """Write each text to its file, all whole or none: each regular file through a temporary file
    beside it, renamed once every text is written; a device or FIFO the user named (``-o
    /dev/stdout``, ``-o /dev/null``, a pipe) written into, never replaced; a symbolic link written
    through (the link kept, as a shell's ``>`` does). Refused (see check_files): a folder, a file
    this run read, two outputs that are one file."""
    targets = check_files(texts)
    partials: list[tuple[Path, Path]] = []
    current = next(iter(texts)).path if texts else Path()
    try:
        for (output, text), (real, kind) in zip(texts.items(), targets, strict=True):
            current = output.path
            if kind == FILE:
                real.parent.mkdir(parents=True, exist_ok=True)
                partials.append((_beside(real, f"{os.getpid()}.partial{real.suffix}"), real))
                _write_text(partials[-1][0], text)
        for (output, text), (real, kind) in zip(texts.items(), targets, strict=True):
            current = output.path
            if kind == DEVICE:
                _into_device(output.path, real, text.encode("utf-8", ESCAPE))
        for partial, real in partials:
            os.replace(partial, real)
    except OSError as exc:
        raise OutputError(f"cannot write {current}: {exc.strerror or exc}") from None
    finally:
        for partial, _ in partials:
            with suppress(OSError):  # gone once renamed, or never made
                partial.unlink(missing_ok=True)


FILE, DEVICE = "file", "device"


def check_files(
    outputs: Iterable[FileOutput], inputs: Iterable[str | os.PathLike | None] = ()
) -> list[tuple[Path, str]]:
    """Where each output goes and how: (its real path, FILE or DEVICE). Before the work and again
    when writing: a UsageError for a folder, an input (one of ``inputs``, or a file this run has
    read), a socket, or a second output onto the same file; an OutputError for a place that cannot
    be written (under a file, a loop of links, a read-only file)."""
    found: list[tuple[Path, str]] = []
    seen: dict[Path, FileOutput] = {}
    given = [g for g in inputs if g is not None and g != "-"]
    for output in outputs:
        real, kind = _file_target(output)
        first = seen.setdefault(real, output)
        if first is not output and real != Path(os.devnull):  # (what is discarded twice is discarded)
            raise UsageError(
                f"{output.option} {output.path}: the same file as {first.option} {first.path}: give two files"
            )
        for name in given:
            with suppress(OSError, ValueError):
                if os.path.realpath(name) == str(real) or (kind == FILE and real.exists() and real.samefile(name)):
                    raise UsageError(
                        f"{output.option} {output.path}: is the input {name}, which the output would replace"
                    )
        found.append((real, kind))
    return found


# the names of standard output, written to as printed wherever it is sent (a terminal, a pipe, a file)
STANDARD_OUTPUT = ("/dev/stdout", "/dev/fd/1", "/proc/self/fd/1")


def _file_target(output: FileOutput) -> tuple[Path, str]:
    path, option = output.path, output.option
    if str(path) in STANDARD_OUTPUT:
        return path, DEVICE
    try:
        status = os.stat(path)  # through a link: where the text goes
    except FileNotFoundError:
        status = None
    except NotADirectoryError:  # a path through a file: which one
        _check_ancestors(Path(os.path.abspath(path)), str(path))
        raise OutputError(f"cannot write {path}: Not a directory") from None
    except (OSError, ValueError) as exc:  # a loop of links, a name too long
        raise OutputError(f"cannot write {path}: {getattr(exc, 'strerror', None) or exc}") from None
    real = Path(os.path.realpath(path))
    if status is None:
        _check_ancestors(real, str(path))
        return real, FILE
    if stat.S_ISDIR(status.st_mode):
        raise UsageError(f"{option} {path}: a folder, not a file")
    if stat.S_ISCHR(status.st_mode) or stat.S_ISFIFO(status.st_mode):
        return real, DEVICE
    if not stat.S_ISREG(status.st_mode):
        raise UsageError(f"{option} {path}: not a file, a device or a FIFO")
    _check_replaceable(path, real, option)
    return real, FILE


def _check_replaceable(path: Path, real: Path, option: str) -> None:
    """A regular file an output would replace: not one this run read, and one that can be."""
    if was_read(real):
        raise UsageError(f"{option} {path}: is an input of this run, which the output would replace")
    if not os.access(real, os.W_OK):
        raise OutputError(f"cannot write {path}: Permission denied")
    if not os.access(real.parent, os.W_OK | os.X_OK) or _is_system(real):
        raise OutputError(f"cannot write {path}: {real.parent} takes no new file (it is read-only)")


def _is_system(path: Path) -> bool:
    """A file of a kernel's file system (/proc, /sys): no file can be made beside it."""
    return path.parts[1:2] in (("proc",), ("sys",))


def _check_ancestors(real: Path, written: str) -> None:
    """A new file's or folder's folder: made when missing, but not under a file (``written``: what
    the message says cannot be written)."""
    parent = next((p for p in real.parents if os.path.lexists(p)), None)
    if parent is not None and not parent.is_dir():
        raise OutputError(f"cannot write {written}: Not a directory ({parent} is a file)")


def _write_text(path: Path, text: str) -> None:
    """A text as UTF-8, a name's byte that is not UTF-8 written as an escape (\\xff)."""
    with open(path, "w", encoding="utf-8", errors=ESCAPE, newline="") as file:
        file.write(text)


def _into_device(given: Path, real: Path, data: bytes) -> None:
    """``data`` into a device or FIFO; into standard output as printed (wherever it is sent: a
    file it is sent to is not opened again, from its start)."""
    if str(given) not in STANDARD_OUTPUT:
        _write_device(real, data)
        return
    sys.stdout.flush()
    with os.fdopen(os.dup(1), "wb") as out:
        out.write(data)


def _write_device(target: Path, data: bytes) -> None:
    """Into a character device or a FIFO: a FIFO that no process reads is an error, not a wait
    without end (opening it to write would block)."""
    try:
        descriptor = os.open(target, os.O_WRONLY | os.O_NONBLOCK)
    except OSError as exc:
        if exc.errno == errno.ENXIO:
            raise OutputError(f"cannot write {target}: a FIFO that no process reads") from None
        raise
    os.set_blocking(descriptor, True)
    with os.fdopen(descriptor, "wb") as file:
        file.write(data)


@contextmanager
def replaced(target: Path, option: str = "-o") -> Iterator[Path]:
    """A temporary path for a program that writes ``target`` itself (with its suffix, which some
    writers go by), put in ``target``'s place when the block ends without an error (copied into
    a device or FIFO, renamed over a file), else removed."""
    ((real, kind),) = check_files([FileOutput(Path(target), option)])
    scratch = Path(tempfile.mkdtemp(prefix=".aifcheck-")) if kind == DEVICE else None
    partial = (scratch / f"out{real.suffix}") if scratch else _beside(real, f"{os.getpid()}.partial{real.suffix}")
    try:
        real.parent.mkdir(parents=True, exist_ok=True)
        yield partial
        if kind == DEVICE:
            _into_device(Path(target), real, partial.read_bytes())
        else:
            os.replace(partial, real)
    finally:
        with suppress(OSError):  # the clean-up meets what stopped the write (no folder, a name too long)
            partial.unlink(missing_ok=True)
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)


def _beside(target: Path, tag: str) -> Path:
    """A hidden name beside ``target`` for its temporary file or lock: ``.NAME.TAG``, or a digest
    of NAME when that would be longer than a file name may be."""
    name = f".{target.name}.{tag}"
    if len(name.encode("utf-8", "surrogateescape")) > 255:
        name = f".aifcheck-{hashlib.sha1(target.name.encode('utf-8', 'surrogateescape')).hexdigest()[:16]}.{tag}"
    return target.with_name(name)


_JSON_PIECES = 8192  # the encoder's pieces joined into one write


def write_json(document: Any, out: TextIO) -> None:
    """``document`` as indented JSON (non-ASCII kept), and a newline. json.dump writes each of the
    encoder's pieces on its own, about 36 per finding: with an unbuffered stdout (PYTHONUNBUFFERED,
    which many containers set) each is a system call."""
    pieces: list[str] = []
    for piece in json.JSONEncoder(indent=2, ensure_ascii=False).iterencode(document):
        pieces.append(piece)
        if len(pieces) == _JSON_PIECES:
            out.write("".join(pieces))
            pieces.clear()
    pieces.append("\n")
    out.write("".join(pieces))


def check_new_folder(target: Path, force: bool = False, inputs: Iterable[str | os.PathLike | None] = ()) -> None:
    """A UsageError when ``target`` is a file, a symbolic link, the root, one of the ``inputs`` or
    a folder holding one, a folder inside one of them that holds files (``--force`` would delete
    the input's files), a folder holding a file this run read, or a folder that holds files and
    ``force`` is not set; an OutputError when it would be under a file. A run that cannot write its
    output should not compute it first."""
    try:
        if target.is_symlink():
            raise UsageError(f"-o {target}: a symbolic link: give the folder itself")
        if target.exists() and not target.is_dir():
            raise UsageError(f"-o {target}: not a folder")
        whole = target.resolve()
        if whole.parent == whole:
            raise UsageError(f"-o {target}: the root folder cannot be replaced")
        if not target.exists():
            _check_ancestors(whole, f"under {target}")
        given = [g for g in inputs if g is not None and g != "-"]
        refuse_input_as_output(target, given, folder=True)
        full = target.is_dir() and any(target.iterdir())
        if full and not force:
            raise UsageError(f"-o {target}: exists and is not empty (--force replaces it)")
        if full:
            _refuse_inside_an_input(target, whole, given)
            read = read_under(whole)
            if read is not None:
                raise UsageError(f"-o {target}: holds {read}, an input of this run, which the output would replace")
    except OSError as exc:
        raise OutputError(f"cannot write {target}: {exc.strerror or exc}") from None
    except RuntimeError:  # a symbolic link loop on the way: the writer says so
        pass


def check_scores_folder(out: Path, force: bool = False, inputs: Iterable[str | os.PathLike | None] = ()) -> None:
    """``OUT/scores``, the folder a scorer writes whole beside what OUT holds: OUT a folder (or to
    be made), ``OUT/scores`` as check_new_folder says."""
    if out.exists() and not out.is_dir():
        raise UsageError(f"-o {out}: not a folder")
    check_new_folder(out / "scores", force, inputs)


def _refuse_inside_an_input(target: Path, whole: Path, inputs: Iterable[str | os.PathLike]) -> None:
    """Replacing a folder inside an input folder deletes files of that input."""
    for given in inputs:
        with suppress(OSError, RuntimeError):
            if Path(given).resolve() in whole.parents:
                raise UsageError(f"-o {target}: inside the input {given}, whose files --force would delete")


def refuse_input_as_output(
    output: Path | None, inputs: Iterable[str | os.PathLike | None], folder: bool = False
) -> None:
    """A UsageError when ``-o`` names one of the inputs (or, for an output ``folder``, a folder
    holding one): the run would overwrite what it reads."""
    if output is None:
        return
    try:
        target = Path(output).resolve()
    except (OSError, RuntimeError):  # a symbolic link loop: the writer says so
        return
    for given in inputs:
        if given is None or given == "-":
            continue
        try:
            path = Path(given).resolve()
        except (OSError, RuntimeError):  # a link loop: the reader says so
            continue
        if path == target or (folder and target in path.parents):
            raise UsageError(
                f"-o {output}: {'holds' if path != target else 'is'} the input {given}, which the output would replace"
            )


def write_file(path: Path, text: str) -> None:
    """A file of a folder being written (by new_folder): its parents made, its text as it is (a
    name's byte that is not UTF-8 written as an escape)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    _write_text(path, text)


@contextmanager
def new_folder(target: Path, force: bool = False, inputs: Iterable[str | os.PathLike] = ()) -> Iterator[Path]:
    """A folder to write a run's output into, put in ``target``'s place once the run is complete:
    a run that fails or is interrupted leaves ``target`` as it was and no partial folder behind.
    ``target`` must not exist, or be an empty folder; with ``force`` one that holds files is
    replaced, unless it holds an input (see check_new_folder). A second run on the same ``target``
    is refused while the first one works."""
    inputs = list(inputs)
    check_new_folder(target, force, inputs)
    parent = target.absolute().parent
    try:
        parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"cannot write under {parent}: {exc.strerror or exc}") from None
    lock = _beside(parent / target.name, "lock")
    partial = _beside(parent / target.name, f"partial-{os.getpid()}")
    taken = False
    try:
        with signals_held():  # the lock made and known to be ours at once: an interrupt between would leave it
            _take(lock, target)
            taken = True
        check_new_folder(target, force, inputs)  # again: a run that held the lock meanwhile may have filled it
        shutil.rmtree(partial, ignore_errors=True)
        try:
            partial.mkdir()
        except OSError as exc:
            raise OutputError(f"cannot write under {parent}: {exc.strerror or exc}") from None
        try:
            yield partial
        except OSError as exc:
            if exc.errno not in _CANNOT_WRITE and not str(exc.filename or "").startswith(str(partial)):
                raise
            raise OutputError(f"cannot write {target}: {exc.strerror or exc}") from None
        check_new_folder(target, force, inputs)  # and now that the run has read all it reads
        # the output put in place and known to be at once: an interrupt comes before (nothing
        # changed) or after (the run is done: see PLACED)
        with signals_held():
            try:
                if target.is_dir():
                    shutil.rmtree(target) if force else target.rmdir()
                os.replace(partial, target)
            except OSError as exc:
                raise OutputError(f"cannot write {target}: {exc.strerror or exc}") from None
            PLACED.append(target)
    finally:
        with signals_held():  # the cleaning up done whole, whatever interrupt comes meanwhile
            shutil.rmtree(partial, ignore_errors=True)
            if taken:
                lock.unlink(missing_ok=True)


# the folders new_folder put in place in this run: once one is, an interrupt is too late to stop
# the run (aifcheck.cli.main lets it end, with its status, in a moment); main empties it as a run
# starts (a process may have run other work first: a test, the parent of a fork)
PLACED: list[Path] = []


# what a write into the partial folder meets, whichever file it was (a write's error names none)
_CANNOT_WRITE = (errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EROFS)


def _take(lock: Path, target: Path) -> None:
    """The lock of ``target``, created or taken over from a run that is gone (its partial folder removed)."""
    for _ in range(2):
        try:
            descriptor = os.open(lock, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            owner = _owner(lock)
            if owner is not None and alive(owner):
                raise UsageError(f"-o {target}: another aifcheck run (process {owner}) is writing it") from None
            if owner is None and _just_made(lock):  # another run made it and has yet to write its pid in it
                raise UsageError(f"-o {target}: another aifcheck run is writing it") from None
            lock.unlink(missing_ok=True)
            if owner is not None:
                shutil.rmtree(_beside(lock.parent / target.name, f"partial-{owner}"), ignore_errors=True)
            continue
        except OSError as exc:
            raise OutputError(f"cannot write under {lock.parent}: {exc.strerror or exc}") from None
        try:
            with os.fdopen(descriptor, "w") as file:
                file.write(str(os.getpid()))
        except BaseException as exc:  # an interrupt (or a full disk) before the lock says whose it is
            lock.unlink(missing_ok=True)
            if isinstance(exc, OSError):
                raise OutputError(f"cannot write under {lock.parent}: {exc.strerror or exc}") from None
            raise
        return
    raise UsageError(f"-o {target}: another aifcheck run is writing it")


def _just_made(lock: Path) -> bool:
    try:
        return time.time() - lock.stat().st_mtime < _LOCK_BEING_MADE
    except OSError:  # gone meanwhile: taken again in the next round
        return False


_LOCK_BEING_MADE = 10.0  # seconds an empty lock is taken to be another run's, between its creation and its pid


def _owner(lock: Path) -> int | None:
    try:
        return int(lock.read_text().strip())
    except (OSError, ValueError):
        return None
