"""NIST's AUX data for TA2: the tables of ``score ta1 --aux`` (aifcheck.score.ta1.aux), with the
package's full list of core documents (``<package>.coredocs.txt``) in place of TA1's
``coredocs-xx.txt``, as NIST's TA2 docker and scorer take it: with TA1's list almost every
document's rows would be dropped.
"""
from __future__ import annotations

import dataclasses
import os
from functools import lru_cache
from pathlib import Path

from ...errors import InputError, UsageError
from ..ta1.aux import Aux, load_aux
from ..tsv import read_table

CORE_SUFFIX = ".coredocs.txt"


def load_ta2_aux(folder: str | os.PathLike) -> Aux:
    """The AUX tables of ``folder``; read again only when its files change (a process that scores
    many runs reads them once)."""
    folder = Path(folder)
    if not folder.is_dir():
        raise UsageError(f"--aux: {folder} is not a folder")
    stamp = tuple((p.name, p.stat().st_size, p.stat().st_mtime_ns) for p in sorted(folder.iterdir()) if p.is_file())
    return _load(folder.resolve(), stamp)


@lru_cache(maxsize=1)
def _load(folder: Path, stamp: tuple) -> Aux:
    matches = sorted(p.name for p in folder.iterdir() if p.is_file() and p.name.endswith(CORE_SUFFIX))
    if len(matches) != 1:
        what = "no file" if not matches else f"{len(matches)} files ({', '.join(matches)})"
        raise InputError(str(folder), f"{what} ending in {CORE_SUFFIX!r}: NIST's TA2 scorer needs exactly one")
    core_file = str(folder / matches[0])
    core = [r["root_id"] for _, r in read_table(core_file, ["root_id"]).records()]
    return dataclasses.replace(load_aux(folder), core=core, core_file=core_file)
