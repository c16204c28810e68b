"""Writing output files: whole or not at all, so that a run killed while writing leaves no half
file behind, and a place that cannot be written is one OutputError."""
from __future__ import annotations

import os
from pathlib import Path

from .errors import OutputError


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
