"""The files that command-line arguments name: files, folders (searched for RDF files) and globs."""

from __future__ import annotations

import fnmatch
import glob
import os
import stat
from functools import cache
from pathlib import Path
from typing import BinaryIO

from aifcheck.errors import InputError

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
    returned as errors so that the remaining arguments are still checked; so is what a walk
    meets and cannot read (a folder without permission, a FIFO or a dangling link with an RDF
    file's name), never skipped in silence. A walk follows links to folders, and goes through
    each real folder once (a link to a folder above it would make it endless).
    """
    files: list[str] = []
    problems: list[InputError] = []
    for arg in args:
        if arg == STDIN:
            files.append(arg)
        elif glob.has_magic(arg) and not os.path.lexists(arg):
            matches = sorted(_glob(arg, problems))
            if not matches:
                problems.append(InputError(arg, "no file matches this pattern"))
            for match in matches:
                _add_path(Path(match), files, problems, explicit=False)
        else:
            _add_path(Path(arg), files, problems, explicit=True)
    seen: set[str] = set()
    unique = [f for f in files if not (f in seen or seen.add(f))]
    told: set[str] = set()  # a folder met by two arguments, or twice by a glob, is told of once
    return unique, [p for p in problems if not (str(p) in told or told.add(str(p)))]


def _add_path(path: Path, files: list[str], problems: list[InputError], explicit: bool) -> None:
    try:
        is_dir, is_file, exists = path.is_dir(), path.is_file(), os.path.lexists(path)
    except OSError as exc:  # a name too long
        problems.append(InputError(str(path), f"cannot read: {exc.strerror or exc}"))
        return
    if is_dir:
        found: list[str] = []
        _walk(path, found, problems, set())
        if not found and not any(p.path == str(path) or p.path.startswith(f"{path}{os.sep}") for p in problems):
            problems.append(
                InputError(
                    str(path), "folder holds no RDF file (.ttl, .nt, .n3, .trig, .nq, .jsonld, .rdf, .owl; .gz allowed)"
                )
            )
        files.extend(sorted(found))
    elif is_file:
        if explicit or is_rdf_file(path):
            files.append(str(path))
    elif not exists:
        problems.append(InputError(str(path), "no such file or directory"))
    elif path.is_symlink() and not os.path.exists(path):
        problems.append(InputError(str(path), "a symbolic link to nothing (or a loop of links)"))
    elif explicit or is_rdf_file(path):
        problems.append(InputError(str(path), "not a regular file"))


def _walk(folder: Path, found: list[str], problems: list[InputError], seen: set[tuple[int, int]]) -> None:
    """The RDF files under ``folder`` into ``found``; what cannot be read into ``problems``."""
    try:
        status = os.stat(folder)
        if (status.st_dev, status.st_ino) in seen:
            return
        seen.add((status.st_dev, status.st_ino))
        with os.scandir(folder) as scan:
            entries = sorted(scan, key=lambda e: e.name)
    except OSError as exc:
        problems.append(InputError(str(folder), f"cannot read this folder: {exc.strerror or exc}"))
        return
    for entry in entries:
        path = Path(entry.path)
        try:
            is_dir = entry.is_dir()
        except OSError:
            is_dir = False
        if is_dir:
            _walk(path, found, problems, seen)
        elif is_rdf_file(path):
            _add_path(path, found, problems, explicit=False)


def _glob(pattern: str, problems: list[InputError]) -> list[str]:
    """What ``pattern`` matches, as glob.glob(recursive=True) finds it (``**`` for any number of
    folders, names starting with a dot matched only by a pattern that does), but following each
    real folder once under a ``**`` (glob follows a link to a folder above without end), and
    telling of a folder it cannot read."""
    absolute = pattern.startswith(os.sep)
    parts = [part for part in pattern.split(os.sep) if part]
    found: list[str] = []
    seen: set[tuple[int, int, int]] = set()

    @cache
    def names(base: str) -> list[os.DirEntry]:
        try:
            with os.scandir(base or ".") as scan:
                return sorted(scan, key=lambda e: e.name)
        except NotADirectoryError:
            return []
        except FileNotFoundError:
            return []
        except OSError as exc:
            problems.append(InputError(base or ".", f"cannot read this folder: {exc.strerror or exc}"))
            return []

    def is_dir(entry: os.DirEntry) -> bool:
        try:
            return entry.is_dir()
        except OSError:
            return False

    def expand(base: str, index: int) -> None:
        if index == len(parts):
            if base and os.path.lexists(base):
                found.append(base)
            return
        part, last = parts[index], index == len(parts) - 1
        join = (lambda name: os.path.join(base, name)) if base else (lambda name: name)
        if part == "**":
            try:
                status = os.stat(base or ".")
            except OSError:
                return
            key = (index, status.st_dev, status.st_ino)
            if key in seen:
                return
            seen.add(key)
            expand(base, index + 1)
            for entry in names(base):
                if entry.name.startswith("."):
                    continue
                if is_dir(entry):
                    expand(join(entry.name), index)
                elif last:
                    found.append(join(entry.name))
        elif glob.has_magic(part):
            for entry in names(base):
                if (part.startswith(".") or not entry.name.startswith(".")) and fnmatch.fnmatchcase(entry.name, part):
                    if last or is_dir(entry):
                        expand(join(entry.name), index + 1)
        else:
            expand(join(part), index + 1)

    expand(os.sep if absolute else "", 0)
    return list(dict.fromkeys(found))


def entries(folder: str | os.PathLike, what: str = "") -> list[Path]:
    """What a folder holds, sorted; InputError naming it when it cannot be read (``what`` says
    what the folder was to be, for the message)."""
    try:
        with os.scandir(folder) as scan:
            return sorted(Path(entry.path) for entry in scan)
    except OSError as exc:
        raise InputError(
            os.fspath(folder), f"cannot read this folder{f' ({what})' if what else ''}: {exc.strerror or exc}"
        ) from None


def alive(pid: int) -> bool:
    """Whether the process that owns a temporary path (named by its pid) still runs."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True


def open_regular(path: str | os.PathLike, what: str = "") -> BinaryIO:
    """A regular file opened to read its bytes; InputError naming it when it cannot be opened or
    is not a regular file (a folder, a FIFO or a device, which would block or never end). ``what``
    says what the file was to be ("the topics file"), for the message."""
    name = os.fspath(path)
    try:
        # not blocking: opening a FIFO that no one writes would wait for ever
        descriptor = os.open(name, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as exc:
        raise InputError(name, f"cannot read{f' {what}' if what else ''}: {exc.strerror or exc}") from None
    if not stat.S_ISREG(os.fstat(descriptor).st_mode):  # (os.fdopen refuses a folder with an error of its own)
        os.close(descriptor)
        raise InputError(name, f"not a regular file{f' ({what})' if what else ''}: a folder, a FIFO or a device")
    return os.fdopen(descriptor, "rb")


def read_bytes(path: str | os.PathLike, what: str = "") -> bytes:
    """A regular file's bytes; InputError naming it when it cannot be read (see open_regular)."""
    with open_regular(path, what) as file:
        try:
            return file.read()
        except OSError as exc:
            raise InputError(
                os.fspath(path), f"cannot read{f' {what}' if what else ''}: {exc.strerror or exc}"
            ) from None


def read_text(path: str | os.PathLike, what: str = "", universal: bool = False) -> str:
    """A UTF-8 text file's text (``universal``: with \\r\\n and \\r read as \\n, as Python's text
    files read them); InputError naming the file, and the line of a byte that is not UTF-8."""
    data = read_bytes(path, what)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise InputError(
            os.fspath(path), f"not UTF-8 text: byte 0x{data[exc.start]:02x} ({exc.reason})", line
        ) from None
    return text.replace("\r\n", "\n").replace("\r", "\n") if universal else text
