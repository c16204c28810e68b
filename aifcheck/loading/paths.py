"""The files that command-line arguments name: files, folders (searched for RDF files) and globs."""

from __future__ import annotations

import errno
import fnmatch
import glob
import os
import stat
from collections.abc import Callable
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
        problems.append(_unlisted(str(folder), exc))
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


def _unlisted(folder: str, exc: OSError) -> InputError:
    """A folder a walk cannot list, named with a trailing separator: the line reads as validate's
    on a file (``PATH: message``), even for a folder named without a dot or separator (``kb/``)."""
    name = folder if folder.endswith(os.sep) else folder + os.sep
    return InputError(name, f"cannot read this folder: {exc.strerror or exc}")


def _glob(pattern: str, problems: list[InputError]) -> list[str]:
    """What ``pattern`` matches, as glob.glob(recursive=True) finds it (``**`` for any number of
    folders, names starting with a dot matched only by a pattern that does), but following each
    real folder once under a ``**`` (glob follows a link to a folder above without end), and
    telling of a folder it cannot read."""
    walk = _Glob([part for part in pattern.split(os.sep) if part], problems)
    walk.expand(os.sep if pattern.startswith(os.sep) else "", 0)
    return list(dict.fromkeys(walk.found))


class _Glob:
    """One pattern's walk (see _glob): the parts of the pattern, what it found, the folders a
    ``**`` went through (by part and real folder), each folder's entries read once."""

    def __init__(self, parts: list[str], problems: list[InputError]) -> None:
        self.parts, self.problems = parts, problems
        self.found: list[str] = []
        self.seen: set[tuple[int, int, int]] = set()
        self._names: dict[str, list[os.DirEntry]] = {}

    def names(self, base: str) -> list[os.DirEntry]:
        if base not in self._names:
            try:
                with os.scandir(base or ".") as scan:
                    self._names[base] = sorted(scan, key=lambda e: e.name)
            except (NotADirectoryError, FileNotFoundError):
                self._names[base] = []
            except OSError as exc:
                self.problems.append(_unlisted(base or ".", exc))
                self._names[base] = []
        return self._names[base]

    @staticmethod
    def is_dir(entry: os.DirEntry) -> bool:
        try:
            return entry.is_dir()
        except OSError:
            return False

    @staticmethod
    def join(base: str, name: str) -> str:
        return os.path.join(base, name) if base else name

    def expand(self, base: str, index: int) -> None:
        if index == len(self.parts):
            if base and os.path.lexists(base):
                self.found.append(base)
            return
        part = self.parts[index]
        if part == "**":
            self._any_depth(base, index)
        elif glob.has_magic(part):
            last = index == len(self.parts) - 1
            for entry in self.names(base):
                hidden_ok = part.startswith(".") or not entry.name.startswith(".")
                if hidden_ok and fnmatch.fnmatchcase(entry.name, part) and (last or self.is_dir(entry)):
                    self.expand(self.join(base, entry.name), index + 1)
        else:
            self.expand(self.join(base, part), index + 1)

    def _any_depth(self, base: str, index: int) -> None:
        """``**`` at ``index``: nothing, or any folders below ``base`` (each real folder once)."""
        try:
            status = os.stat(base or ".")
        except OSError:
            return
        key = (index, status.st_dev, status.st_ino)
        if key in self.seen:
            return
        self.seen.add(key)
        self.expand(base, index + 1)
        last = index == len(self.parts) - 1
        for entry in self.names(base):
            if entry.name.startswith("."):
                continue
            if self.is_dir(entry):
                self.expand(self.join(base, entry.name), index)
            elif last:
                self.found.append(self.join(base, entry.name))


def entries(folder: str | os.PathLike, what: str = "") -> list[Path]:
    """What a folder holds, sorted; InputError naming it when it cannot be read (``what`` says
    what the folder was to be, for the message)."""
    try:
        with os.scandir(folder) as scan:
            found = sorted(Path(entry.path) for entry in scan)
    except OSError as exc:
        raise _cannot_read(os.fspath(folder), exc, what, folder=True) from None
    _remember(folder)
    return found


def input_folder(path: str | os.PathLike, what: str = "") -> Path:
    """``path``, a folder that can be listed; InputError naming it when it is missing, no folder (a
    file, a FIFO, a link to nothing) or cannot be read: a folder an input was to be in is never
    taken as an empty one."""
    name = os.fspath(path)
    try:
        is_dir = os.path.isdir(name)
    except (OSError, ValueError):  # a name too long, a NUL in it
        is_dir = False
    if not is_dir:
        try:
            os.stat(name)
        except OSError as exc:
            raise _cannot_read(name, exc, what) from None
        raise InputError(name, f"not a folder{f' ({what})' if what else ''}")
    entries(name, what)
    return Path(name)


def missing(path: str | os.PathLike) -> bool:
    """Whether ``path`` is known not to be there (not even a link to nothing). A path that cannot be
    looked at (a folder above it without permission) is not known missing: its reader says why."""
    try:
        os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):
        return True
    except (OSError, ValueError):
        return False
    return False


def regular_files(folder: str | os.PathLike, wanted: Callable[[str], bool], what: str = "") -> list[Path]:
    """The files of ``folder`` whose names are ``wanted``, sorted; a wanted name that is no regular
    file (a folder, a FIFO, a device, a link to nothing) and a folder that cannot be read are an
    InputError naming them, never skipped: a file left out in silence changes a result."""
    found = []
    for path in entries(folder, what):
        if not wanted(path.name):
            continue
        try:
            status = os.stat(path)
        except OSError as exc:
            raise _cannot_read(os.fspath(path), exc, what) from None
        if not stat.S_ISREG(status.st_mode):
            raise InputError(os.fspath(path), f"not a regular file{f' ({what})' if what else ''}")
        found.append(path)
    return found


def _cannot_read(name: str, exc: OSError, what: str = "", folder: bool = False) -> InputError:
    """The error of a path that cannot be opened, in validate's words."""
    where = f" ({what})" if what else ""
    if exc.errno in (errno.ENOENT, errno.ELOOP) and os.path.islink(name):
        return InputError(name, f"a symbolic link to nothing (or a loop of links){where}")
    if exc.errno == errno.ENOENT:
        return InputError(name, f"no such file or directory{where}")
    if exc.errno == errno.ENOTDIR and not folder:
        return InputError(name, f"no such file or directory (a file is on its path){where}")
    return InputError(name, f"cannot read{' this folder' if folder else ''}: {exc.strerror or exc}{where}")


# What this run has read (device, inode) and where (real paths): an output must never replace one
# of them (aifcheck.render.output asks was_read and read_under).
_READ: dict[tuple[int, int], str] = {}


def _remember(path: str | os.PathLike, status: os.stat_result | None = None) -> None:
    try:
        status = status or os.stat(path)
        _READ[(status.st_dev, status.st_ino)] = os.path.realpath(path)
    except (OSError, ValueError):
        pass


def was_read(path: str | os.PathLike) -> bool:
    """Whether this run read the file (or listed the folder) ``path`` is."""
    try:
        status = os.stat(path)
    except (OSError, ValueError):
        return False
    return (status.st_dev, status.st_ino) in _READ


def read_under(folder: str | os.PathLike) -> str | None:
    """A file or folder this run read inside ``folder`` (or ``folder`` itself), if any."""
    try:
        root = os.path.realpath(folder)
    except (OSError, ValueError):
        return None
    inside = root.rstrip(os.sep) + os.sep
    return next((path for path in _READ.values() if path == root or path.startswith(inside)), None)


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
    """A regular file opened to read its bytes; InputError naming it, in validate's words, when it
    cannot be opened or is not a regular file (a folder, a FIFO or a device, which would block or
    never end). ``what`` says what the file was to be ("the topics file"), for the message."""
    name = os.fspath(path)
    try:
        # not blocking: opening a FIFO that no one writes would wait for ever
        descriptor = os.open(name, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as exc:
        raise _cannot_read(name, exc, what) from None
    except ValueError:  # a NUL in the name
        raise InputError(name, "no such file or directory") from None
    status = os.fstat(descriptor)
    if not stat.S_ISREG(status.st_mode):  # (os.fdopen refuses a folder with an error of its own)
        os.close(descriptor)
        raise InputError(name, f"not a regular file{f' ({what})' if what else ''}")
    _remember(name, status)
    return os.fdopen(descriptor, "rb")


def read_bytes(path: str | os.PathLike, what: str = "") -> bytes:
    """A regular file's bytes; InputError naming it when it cannot be read (see open_regular)."""
    with open_regular(path, what) as file:
        try:
            return file.read()
        except OSError as exc:
            raise _cannot_read(os.fspath(path), exc, what) from None


BOM = "\ufeff"  # a UTF-8 byte-order mark: read as nothing, as validate reads it


def read_text(path: str | os.PathLike, what: str = "", universal: bool = False) -> str:
    """A UTF-8 text file's text, without a byte-order mark (``universal``: with \\r\\n and \\r
    read as \\n, as Python's text files read them); InputError naming the file, and the line and
    column of a byte that is not UTF-8 or of a NUL (binary data, which no text holds)."""
    data = read_bytes(path, what)
    name = os.fspath(path)
    nul = data.find(b"\x00")
    if nul >= 0:
        start = data[:4096]
        if start.count(b"\x00") * 4 > len(start):
            raise InputError(name, f"binary file, not text{f' ({what})' if what else ''}")
        raise InputError(name, "binary data (a NUL byte, 0x00), which text cannot hold", *position(data, nul))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(
            name, f"not UTF-8 (byte 0x{data[exc.start]:02x}); text files must be UTF-8", *position(data, exc.start)
        ) from None
    text = text.removeprefix(BOM)
    return text.replace("\r\n", "\n").replace("\r", "\n") if universal else text


def position(data: bytes | str, offset: int) -> tuple[int, int]:
    """(line, column) of an offset in a file's bytes or text, both from 1."""
    newline = b"\n" if isinstance(data, bytes) else "\n"
    return data.count(newline, 0, offset) + 1, offset - (data.rfind(newline, 0, offset) + 1) + 1
