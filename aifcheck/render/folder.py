"""An output folder written whole or not at all: its files go into a temporary folder beside it,
renamed into place when complete."""
from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ..errors import OutputError, UsageError


def check_target(target: Path, force: bool) -> None:
    """A UsageError when ``target`` is a file, or a folder that is not empty and ``force`` is not set."""
    if target.exists() and not target.is_dir():
        raise UsageError(f"-o {target}: not a folder")
    if target.is_dir() and any(target.iterdir()) and not force:
        raise UsageError(f"-o {target}: the folder is not empty (--force replaces it)")


@contextmanager
def folder_written(target: Path, force: bool) -> Iterator[Path]:
    """Yield a temporary folder beside ``target``; when the block ends without an error, it
    becomes ``target`` (replacing an empty one, or any one with ``force``)."""
    check_target(target, force)
    partial = target.with_name(f".{target.name}.{os.getpid()}.partial")
    try:
        shutil.rmtree(partial, ignore_errors=True)
        partial.mkdir(parents=True)
        yield partial
        if target.is_dir():
            shutil.rmtree(target)
        os.replace(partial, target)
    except OSError as exc:
        raise OutputError(f"cannot write {target}: {exc.strerror or exc}") from None
    finally:
        shutil.rmtree(partial, ignore_errors=True)


def write_text(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8", newline="")
