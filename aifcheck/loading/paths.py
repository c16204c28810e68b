"""The files that command-line arguments name: files, folders (searched for RDF files) and globs."""
from __future__ import annotations

import glob
import os
import stat
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


def read_bytes(path: str | os.PathLike, what: str = "") -> bytes:
    """A file's bytes; InputError naming it when it cannot be read or is not a regular file (a
    folder, a FIFO or a device, which would block or never end). ``what`` says what the file was
    to be ("the topics file"), for the message."""
    name = os.fspath(path)
    try:
        # not blocking: opening a FIFO that no one writes would wait for ever
        descriptor = os.open(name, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as exc:
        raise InputError(name, f"cannot read{f' {what}' if what else ''}: {exc.strerror or exc}") from None
    with os.fdopen(descriptor, "rb") as file:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            raise InputError(name, f"not a regular file{f' ({what})' if what else ''}: a folder, a FIFO or a device")
        try:
            return file.read()
        except OSError as exc:
            raise InputError(name, f"cannot read{f' {what}' if what else ''}: {exc.strerror or exc}") from None


def read_text(path: str | os.PathLike, what: str = "", universal: bool = False) -> str:
    """A UTF-8 text file's text (``universal``: with \\r\\n and \\r read as \\n, as Python's text
    files read them); InputError naming the file, and the line of a byte that is not UTF-8."""
    data = read_bytes(path, what)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise InputError(os.fspath(path), f"not UTF-8 text: byte 0x{data[exc.start]:02x} ({exc.reason})", line) from None
    return text.replace("\r\n", "\n").replace("\r", "\n") if universal else text
