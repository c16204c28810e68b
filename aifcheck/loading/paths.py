"""The files that command-line arguments name: files, folders (searched for RDF files) and globs."""
from __future__ import annotations

import glob
import os
from pathlib import Path

from ..errors import InputError

# what a folder is searched for (aifcheck.kb.FORMATS parses each); a file named on the command
# line is read whatever its name
RDF_SUFFIXES = tuple(
    f"{name}{gz}" for name in (".ttl", ".nt", ".n3", ".trig", ".nq", ".jsonld", ".rdf", ".owl") for gz in ("", ".gz")
)
STDIN = "-"  # the argument that names standard input


def is_rdf_file(path: Path) -> bool:
    return path.name.lower().endswith(RDF_SUFFIXES)


def discover(args: list[str]) -> tuple[list[str], list[InputError]]:
    """Expand files, directories (recursively, RDF files only) and globs, in a stable order.

    Problems with an argument (missing path, empty directory, glob matching nothing) are
    returned as errors so that the remaining arguments are still checked.
    """
    files: list[str] = []
    problems: list[InputError] = []
    for arg in args:
        if arg == STDIN:
            files.append(arg)
        elif glob.has_magic(arg) and not os.path.exists(arg):
            matches = sorted(glob.glob(arg, recursive=True))
            if not matches:
                problems.append(InputError(arg, "no file matches this pattern"))
            for match in matches:
                _add_path(Path(match), files, problems, explicit=False)
        else:
            _add_path(Path(arg), files, problems, explicit=True)
    seen: set[str] = set()
    unique = [f for f in files if not (f in seen or seen.add(f))]
    return unique, problems


def _add_path(path: Path, files: list[str], problems: list[InputError], explicit: bool) -> None:
    if path.is_dir():
        found = sorted(str(p) for p in path.rglob("*") if p.is_file() and is_rdf_file(p))
        if not found:
            problems.append(InputError(str(path), "folder holds no RDF file (.ttl, .nt, .n3, .trig, .nq, .jsonld, .rdf, .owl; .gz allowed)"))
        files.extend(found)
    elif path.is_file():
        if explicit or is_rdf_file(path):
            files.append(str(path))
    elif not path.exists():
        problems.append(InputError(str(path), "no such file or directory"))
    else:
        problems.append(InputError(str(path), "not a regular file"))


def alive(pid: int) -> bool:
    """Whether the process that owns a temporary path (named by its pid) still runs."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True
