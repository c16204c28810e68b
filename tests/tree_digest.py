"""A folder's digest, to compare a stage's output with what NIST's code wrote: the SHA-256 of the
path and bytes of every file below it, in path order, logs/ aside (its lines hold times)."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path


def digest(folder: Path) -> str:
    h = hashlib.sha256()
    for root, dirs, files in sorted(os.walk(folder)):
        dirs.sort()
        for name in sorted(files):
            rel = os.path.relpath(os.path.join(root, name), folder)
            if not rel.startswith("logs"):
                h.update(rel.encode() + b"\0" + Path(root, name).read_bytes() + b"\0")
    return h.hexdigest()
