"""Writing output: files whole or not at all, so that a run killed while writing leaves no half
file behind, and a place that cannot be written is one OutputError; JSON documents in few writes."""
from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TextIO

from ..errors import OutputError, UsageError
from ..loading.paths import alive


def write_atomically(target: Path, text: str) -> None:
    """Write ``text`` to ``target`` through a temporary file beside it, renamed when complete."""
    partial = target.with_name(f".{target.name}.{os.getpid()}.partial")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        partial.write_text(text, encoding="utf-8")
        os.replace(partial, target)
    except OSError as exc:
        partial.unlink(missing_ok=True)
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


def check_new_folder(target: Path, force: bool = False, inputs: Iterable[str | os.PathLike] = ()) -> None:
    """A UsageError when ``target`` is a file, the root, a folder holding one of the ``inputs``,
    or a folder that holds files and ``force`` is not set: a run that cannot write its output
    should not compute it first."""
    target = Path(target)
    if target.exists() and not target.is_dir():
        raise UsageError(f"-o {target}: not a folder")
    whole = target.resolve()
    if whole.parent == whole:
        raise UsageError(f"-o {target}: the root folder cannot be replaced")
    inside = [str(p) for p in inputs if Path(p).resolve().is_relative_to(whole)]
    if inside:
        raise UsageError(f"-o {target}: holds the input {inside[0]}, which the output would replace")
    if target.is_dir() and any(target.iterdir()) and not force:
        raise UsageError(f"-o {target}: exists and is not empty (--force replaces it)")


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
    lock = parent / f".{target.name}.lock"
    _take(lock, target)
    partial = parent / f".{target.name}.partial-{os.getpid()}"
    try:
        shutil.rmtree(partial, ignore_errors=True)
        try:
            partial.mkdir()
        except OSError as exc:
            raise OutputError(f"cannot write under {parent}: {exc.strerror or exc}") from None
        yield partial
        try:
            if target.is_dir():
                shutil.rmtree(target) if force else target.rmdir()
            os.replace(partial, target)
        except OSError as exc:
            raise OutputError(f"cannot write {target}: {exc.strerror or exc}") from None
    finally:
        shutil.rmtree(partial, ignore_errors=True)
        lock.unlink(missing_ok=True)


def _take(lock: Path, target: Path) -> None:
    """The lock of ``target``, created or taken over from a run that is gone (its partial folder removed)."""
    for _ in range(2):
        try:
            descriptor = os.open(lock, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            owner = _owner(lock)
            if owner is not None and alive(owner):
                raise UsageError(f"-o {target}: another aifcheck run (process {owner}) is writing it") from None
            lock.unlink(missing_ok=True)
            if owner is not None:
                shutil.rmtree(lock.parent / f".{target.name}.partial-{owner}", ignore_errors=True)
            continue
        except OSError as exc:
            raise OutputError(f"cannot write under {lock.parent}: {exc.strerror or exc}") from None
        with os.fdopen(descriptor, "w") as file:
            file.write(str(os.getpid()))
        return
    raise UsageError(f"-o {target}: another aifcheck run is writing it")


def _owner(lock: Path) -> int | None:
    try:
        return int(lock.read_text().strip())
    except (OSError, ValueError):
        return None
