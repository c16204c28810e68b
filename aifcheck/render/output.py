"""Writing output: files whole or not at all, so that a run killed while writing leaves no half
file behind, and a place that cannot be written is one OutputError; JSON documents in few writes."""

from __future__ import annotations

import errno
import hashlib
import json
import os
import shutil
import stat
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any, TextIO

from aifcheck.errors import OutputError, UsageError
from aifcheck.loading.paths import alive


def write_atomically(target: Path, text: str) -> None:
    """Write ``text`` to ``target`` through a temporary file beside it, renamed when complete. A
    device (``-o /dev/null``) is written to as it is: it is no file to replace."""
    target = _through_link(target)
    if _is_device(target):
        _write_device(target, text)
        return
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        if target.is_dir():
            raise UsageError(f"-o {target}: a folder, not a file")
        with replaced(target) as partial:
            partial.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise OutputError(f"cannot write {target}: {exc.strerror or exc}") from None


@contextmanager
def replaced(target: Path) -> Iterator[Path]:
    """A temporary path beside ``target`` (with its suffix, which some writers go by), renamed to
    ``target`` when the block ends without an error, else removed."""
    partial = _beside(target, f"{os.getpid()}.partial{target.suffix}")
    try:
        yield partial
        os.replace(partial, target)
    finally:
        with suppress(OSError):  # the clean-up meets what stopped the write (no folder, a name too long)
            partial.unlink(missing_ok=True)


def _beside(target: Path, tag: str) -> Path:
    """A hidden name beside ``target`` for its temporary file or lock: ``.NAME.TAG``, or a digest
    of NAME when that would be longer than a file name may be."""
    name = f".{target.name}.{tag}"
    if len(name.encode("utf-8", "surrogateescape")) > 255:
        name = f".aifcheck-{hashlib.sha1(target.name.encode('utf-8', 'surrogateescape')).hexdigest()[:16]}.{tag}"
    return target.with_name(name)


def _through_link(target: Path) -> Path:
    """Where a symbolic link ``target`` points (written there, as a shell's ``>`` does); an
    OutputError for a loop."""
    if not target.is_symlink():
        return target
    try:
        os.stat(target)
    except FileNotFoundError:
        pass  # a link to a file yet to be made
    except OSError as exc:
        raise OutputError(f"cannot write {target}: {exc.strerror or exc}") from None
    return Path(os.path.realpath(target))


def _is_device(target: Path) -> bool:
    try:
        return stat.S_ISCHR(os.stat(target).st_mode)
    except OSError:
        return False


def _write_device(target: Path, text: str) -> None:
    try:
        with open(target, "w", encoding="utf-8") as file:
            file.write(text)
    except OSError as exc:
        raise OutputError(f"cannot write {target}: {exc.strerror or exc}") from None


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
    """A UsageError when ``target`` is a file, a symbolic link, the root, a folder holding one of
    the ``inputs``, or a folder that holds files and ``force`` is not set: a run that cannot write
    its output should not compute it first."""
    try:
        if target.is_symlink():
            raise UsageError(f"-o {target}: a symbolic link: give the folder itself")
        if target.exists() and not target.is_dir():
            raise UsageError(f"-o {target}: not a folder")
        whole = target.resolve()
        if whole.parent == whole:
            raise UsageError(f"-o {target}: the root folder cannot be replaced")
        refuse_input_as_output(target, inputs, folder=True)
        if target.is_dir() and any(target.iterdir()) and not force:
            raise UsageError(f"-o {target}: exists and is not empty (--force replaces it)")
    except OSError as exc:
        raise OutputError(f"cannot write {target}: {exc.strerror or exc}") from None
    except RuntimeError:  # a symbolic link loop on the way: the writer says so
        pass


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
    """A file of a folder being written (by new_folder): its parents made, its text as it is."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8", newline="")


@contextmanager
def new_folder(target: Path, force: bool = False, inputs: Iterable[str | os.PathLike] = ()) -> Iterator[Path]:
    """A folder to write a run's output into, put in ``target``'s place once the run is complete:
    a run that fails or is interrupted leaves ``target`` as it was and no partial folder behind.
    ``target`` must not exist, or be an empty folder; with ``force`` one that holds files is
    replaced, unless it holds one of the ``inputs``. A second run on the same ``target`` is refused while the first one works."""
    check_new_folder(target, force, inputs)
    parent = target.absolute().parent
    try:
        parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"cannot write under {parent}: {exc.strerror or exc}") from None
    lock = _beside(parent / target.name, "lock")
    partial = _beside(parent / target.name, f"partial-{os.getpid()}")
    _take(lock, target)
    try:
        check_new_folder(target, force)  # again: a run that held the lock meanwhile may have filled it
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
        try:
            if target.is_dir():
                shutil.rmtree(target) if force else target.rmdir()
            os.replace(partial, target)
        except OSError as exc:
            raise OutputError(f"cannot write {target}: {exc.strerror or exc}") from None
    finally:
        shutil.rmtree(partial, ignore_errors=True)
        lock.unlink(missing_ok=True)


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
