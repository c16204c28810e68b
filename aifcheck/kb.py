"""The one loader: an RDF file into a knowledge base (KB) on pyoxigraph, and where its nodes are.

Every command takes a KB: validation (both executors), the query tables, claim frames and the
submission checks. A file is parsed once, by pyoxigraph, from Turtle or N-Triples (N-Triples is
a subset of Turtle), optionally gzipped; its verdict is the only one (a file pyoxigraph refuses is
a syntax error, located at line and column). Blank node labels are kept as written, so that a
node is the same in the store and in a second parse of the text (aifcheck.lines).

A KB answers ``line_of(node)`` for any node, as aifcheck.lines defines it: lazily, since most
files have no finding. Small files keep their text for that; larger ones are read again.
"""
from __future__ import annotations

import gzip
import io
import os
import shutil
import tempfile
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pyoxigraph as ox

from .errors import InputError
from .lines import LineIndex, Term
from .marking import BLOCK_CHARS, marked_stream

Progress = Callable[[int, int], None]  # (bytes read, file size)

STREAM_BYTES = 64 * 1024 * 1024  # larger files are streamed, not read whole (nor kept for their lines)
# larger files (about 4M triples and up) get an on-disk store: in memory, 1M triples take 0.8 GB
DISK_BYTES = 160 * 1024 * 1024
_PROGRESS_STEP = 4 * 1024 * 1024  # bytes between two progress reports


@dataclass(eq=False)
class KB:
    """One parsed file: its triples in a pyoxigraph store, and the way back to its text."""

    path: str
    store: ox.Store
    prefixes: dict[str, str] = field(default_factory=dict)  # as the file declares them
    base: str | None = None  # the IRI relative IRIs were resolved against
    _text: str | None = field(default=None, repr=False)  # kept for small files, for their lines
    _folder: str | None = field(default=None, repr=False)  # an on-disk store's temporary folder
    _lines: LineIndex | None = field(default=None, repr=False)

    def __len__(self) -> int:
        return len(self.store)

    def line_of(self, node: Term | None) -> int | None:
        """The line where ``node`` is written (see aifcheck.lines), or None when it is not."""
        if node is None:
            return None
        if self._lines is None:
            self._lines = self._index()
        return self._lines.line_of(node)

    def _index(self) -> LineIndex:
        marked = ox.Store()
        if self.base is not None:  # (a KB not read from a file has no lines to tell)
            chunks = [self._text] if self._text is not None else _text_chunks(self.path)
            stream = marked_stream(chunks)
            marked.extend(ox.parse(stream, format=ox.RdfFormat.TRIG, base_iri=self.base, rename_blank_nodes=False))
        return LineIndex(marked, self.store)

    def close(self) -> None:
        """Drop the store (and delete it, when it is on disk)."""
        self.store = ox.Store()
        self._lines = None
        if self._folder is not None:
            shutil.rmtree(self._folder, ignore_errors=True)
            self._folder = None

    def __enter__(self) -> KB:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()


def load_kb(path: str | os.PathLike, progress: Progress | None = None) -> KB:
    """Parse one file into a KB. Raises InputError (located, for syntax errors) when it cannot."""
    path = str(path)
    try:
        size = os.path.getsize(path)
    except OSError as exc:
        raise InputError(path, f"cannot read: {exc.strerror or exc}") from None
    base = Path(path).resolve().as_uri()
    text = read_text(path) if size <= STREAM_BYTES else None
    folder = tempfile.mkdtemp(prefix="aifcheck-store-") if size > DISK_BYTES else None
    store = ox.Store(folder) if folder else ox.Store()
    kb = KB(path, store, base=base, _text=text, _folder=folder)
    try:
        source = _source(path, text, size, progress)
        parser = ox.parse(source, format=ox.RdfFormat.TURTLE, base_iri=base, rename_blank_nodes=False)
        if folder is None:
            store.extend(parser)
        else:
            store.bulk_extend(parser)
            # the bulk loader leaves many small sorted files; compacting them makes the rule queries
            # faster (1M triples on disk: 34 s instead of 48 s, for 1 s)
            store.optimize()
        kb.prefixes = dict(parser.prefixes)
        if len(store) == 0:
            raise InputError(path, "no RDF triples in file")
    except SyntaxError as exc:
        kb.close()
        raise InputError(path, f"syntax error: {_reason(exc)}", exc.lineno, exc.offset) from None
    except (InputError, OSError, EOFError, zlib.error) as exc:
        kb.close()
        raise exc if isinstance(exc, InputError) else InputError(path, f"cannot read: {exc}") from None
    return kb


def _source(path: str, text: str | None, size: int, progress: Progress | None) -> str | io.RawIOBase:
    """What the parser reads: the text, or the file as a stream; counted when progress is asked for."""
    if text is not None and progress is None:
        return text
    raw = io.BytesIO(text.encode("utf-8")) if text is not None else _open(path)
    return _Counting(raw, size, progress) if progress is not None else raw


def _open(path: str):
    return gzip.open(path, "rb") if path.lower().endswith(".gz") else open(path, "rb")


def _text_chunks(path: str) -> Iterator[str]:
    """A large file's text, block by block, each ending on a whole UTF-8 character."""
    with _open(path) as raw:
        while data := raw.read(BLOCK_CHARS):
            while data[-1] & 0xC0 == 0x80 and (more := raw.read(1)):
                data += more
            yield data.decode("utf-8", errors="replace")


class _Counting(io.RawIOBase):
    """A binary stream that tells how much of the file has been read."""

    def __init__(self, raw, size: int, progress: Progress) -> None:
        self._raw, self._size, self._progress = raw, size, progress
        self._read = self._told = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        count = self._raw.readinto(buffer)
        self._read += count
        if self._read - self._told >= _PROGRESS_STEP or count == 0:
            self._told = self._read
            self._progress(min(self._read, self._size), self._size)
        return count

    def close(self) -> None:
        self._raw.close()
        super().close()


def read_text(path: str) -> str:
    """The file's text: gunzipped when it ends in .gz, decoded as UTF-8 (Turtle's only encoding)."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise InputError(path, f"cannot read: {exc.strerror or exc}") from None
    if path.lower().endswith(".gz"):
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError, zlib.error) as exc:
            raise InputError(path, f"not a valid gzip file: {exc}") from None
    if not data.strip():
        raise InputError(path, "empty file: no RDF triples")
    if b"\x00" in data[:8192]:
        raise InputError(path, "binary file, not Turtle or N-Triples")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise InputError(
            path, f"not UTF-8 (byte 0x{data[exc.start]:02x}); Turtle files must be UTF-8", line, column
        ) from None
    return text.removeprefix("\ufeff")


def _reason(exc: SyntaxError) -> str:
    # pyoxigraph starts its message with the position, which InputError prints already
    message = exc.msg or str(exc)
    return message.split(": ", 1)[1] if message.startswith("Parser error") and ": " in message else message
