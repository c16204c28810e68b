"""NIST's AUX data, as its TA1 and TA2 stages, scorers and pooler read it: the core documents, the
documents and their elements, each element's modality and language, and each element's extent.

The files are found in the AUX folder by the end of their names, as NIST's dockers name them
(``<package>.parent_children.tsv``, ``.sentence_boundaries.txt``, ``.image_boundaries.txt``,
``.keyframe_boundaries.txt``, ``.video_boundaries.txt``, and ``encoding_modality.txt``). The core
documents are those of ``<package>.coredocs-xx.txt`` for TA1 (``TA1_CORE``) and of the package's
full list ``<package>.coredocs.txt`` for TA2 (``TA2_CORE``).

What NIST keeps: an element's modality is that of its type (``detype``) in the encodings table and
its language the upper-cased ``lang_manual``, both from its last row; a text element's extent runs
from its earliest sentence start to its latest sentence end (x; y is 0); an image or key frame's is
(0,0)-(width,height), a video's (0,0)-(length,0); coordinates stay as written, since a corrected
span is printed from them.
"""

from __future__ import annotations

import marshal
import os
import sys
import zlib
from contextlib import suppress
from dataclasses import dataclass, fields
from functools import lru_cache
from pathlib import Path

from aifcheck.errors import InputError
from aifcheck.extract.model import Span
from aifcheck.loading.paths import entries, input_folder
from aifcheck.loading.tsv import read_table
from aifcheck.names import longer_than_a_file_name

TA1_CORE = ".coredocs-xx.txt"
TA2_CORE = ".coredocs.txt"
SUFFIXES = {
    "encodings": "encoding_modality.txt",
    "parent_children": ".parent_children.tsv",
    "text": ".sentence_boundaries.txt",
    "image": ".image_boundaries.txt",
    "keyframe": ".keyframe_boundaries.txt",
    "video": ".video_boundaries.txt",
}
KINDS = ("text", "image", "keyframe", "video")  # the kinds of element NIST's AUX data has extents of


@dataclass(frozen=True)
class Boundary:
    """An element's extent, or a span: (start_x, start_y)-(end_x, end_y), each coordinate kept as
    NIST keeps it (the file's text, or 0) since corrected spans are printed from it."""

    start_x: str | int
    start_y: str | int
    end_x: str | int
    end_y: str | int

    def __str__(self) -> str:
        return f"({self.start_x},{self.start_y})-({self.end_x},{self.end_y})"

    def floats(self) -> tuple[float, float, float, float]:
        """The coordinates as numbers (ValueError for one that is not)."""
        return float(self.start_x), float(self.start_y), float(self.end_x), float(self.end_y)


@dataclass(frozen=True)
class Aux:
    """The AUX tables. Its fields are plain values, so that the tables of a folder's state can be
    kept in a cache file (see ``load_aux``)."""

    folder: str
    core: tuple[str, ...]  # core documents, in the file's order
    documents: dict[str, tuple[str, ...]]  # document -> its elements, in the order they first appear
    modalities: dict[str, str | None]  # element -> image, text, video, ... (None: an unknown type)
    languages: dict[str, str]  # element -> its language, upper-cased (N/A: none)
    # kind (KINDS) -> element or key frame -> extent (start_x, start_y, end_x, end_y); each table
    # kept as marshal's bytes until a span needs it (most runs need one or two of them)
    packed: dict[str, bytes]
    core_file: str  # the files, to name in messages
    parent_children_file: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "_core_set", frozenset(self.core))
        object.__setattr__(self, "_children", {})
        object.__setattr__(self, "_extents", {})
        object.__setattr__(self, "_languages", {})

    def is_core(self, document: str) -> bool:
        return document in self._core_set

    def children(self, document: str) -> frozenset[str]:
        found = self._children.get(document)
        if found is None:
            found = self._children[document] = frozenset(self.documents.get(document, ()))
        return found

    def extents(self, kind: str) -> dict[str, tuple]:
        """The extents of ``kind`` (text, image, keyframe, video; none of another)."""
        found = self._extents.get(kind)
        if found is None:
            found = self._extents[kind] = marshal.loads(self.packed[kind]) if kind in self.packed else {}
        return found

    def extent(self, kind: str, element: str) -> Boundary | None:
        """The extent of an element (or key frame) of ``kind``; None when the AUX data has none."""
        found = self.extents(kind).get(element)
        return Boundary(*found) if found is not None else None

    def modality(self, span: Span) -> str | None:
        """The modality of a span's document element (text, image, video...), as NIST's scorer
        reads it; None for an element the AUX data lacks."""
        return self.modalities.get(span.element)

    def boundary(self, span: Span) -> Boundary | None:
        """The extent of a span's key frame, or else of its document element (None when unknown)."""
        kind = "keyframe" if span.keyframe else self.modality(span)
        return self.extent(kind, span.keyframe or span.element) if kind is not None else None

    def language(self, document: str) -> str | None:
        """The document's language: that of its elements (N/A aside); None when it has none. NIST
        stops on a document with two."""
        if document not in self._languages:
            found = {self.languages[e] for e in self.documents.get(document, ())} - {"N/A"}
            if len(found) > 1:
                raise InputError(
                    self.parent_children_file,
                    f"document {document} has elements in several languages ({', '.join(sorted(found))}); "
                    "NIST's code stops on it",
                )
            self._languages[document] = found.pop() if found else None
        return self._languages[document]


def load_aux(folder: str | os.PathLike, core_suffix: str = TA1_CORE) -> Aux:
    """The AUX tables of ``folder``, with the core documents of the file ending in ``core_suffix``
    (TA2: ``TA2_CORE``). A process reads a folder once, and keeps its tables in a cache file for the
    next ones, read again only when the folder's files change (reading the folder takes longer than
    scoring a small run; see ``cache_file``). InputError (located) for a folder that is missing or
    cannot be read, and for a file that is missing, ambiguous or cannot be read (a link to nothing,
    a FIFO: never taken for no file)."""
    folder = input_folder(folder, "--aux")
    return _load(folder, tuple(_stamp(path) for path in entries(folder, "--aux")), core_suffix)


def _stamp(path: Path) -> tuple[str, int, int]:
    """A file's name, size and time (-1 for what cannot be looked at, which its reader tells of)."""
    try:
        status = path.stat()
    except OSError:
        return path.name, -1, -1
    return path.name, status.st_size, status.st_mtime_ns


def cache_file(key: str) -> Path:
    """Where the tables of a state of an AUX folder are kept: $AIFCHECK_CACHE_DIR, or
    $XDG_CACHE_HOME/aifcheck, or ~/.cache/aifcheck, named by a checksum of ``key`` (the file
    holds the key itself, which decides)."""
    base = (
        os.environ.get("AIFCHECK_CACHE_DIR")
        or Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "aifcheck"
    )
    return Path(base) / f"aux-{zlib.crc32(key.encode()):08x}.marshal"


_FORMAT = 3  # the layout of the cached tuple: change it with Aux's fields


@lru_cache(maxsize=2)
def _load(folder: Path, stamp: tuple, core_suffix: str) -> Aux:
    # the folder's path, its files' names, sizes and times, the core documents' file, and the
    # Python that writes the cache (marshal's format is its own)
    key = repr((str(folder.resolve()), stamp, core_suffix, sys.version_info[:2], marshal.version, _FORMAT))
    cached = cache_file(key)
    try:
        found_key, values = marshal.loads(cached.read_bytes())
        if found_key == key:
            return Aux(*values)
    except (OSError, ValueError, EOFError, TypeError):
        pass  # no cache yet, or one that cannot be used: read the folder
    found = _read(folder, [name for name, _, _ in stamp], core_suffix)
    partial = cached.with_name(f".{cached.name}.{os.getpid()}")
    try:
        cached.parent.mkdir(parents=True, exist_ok=True)
        partial.write_bytes(marshal.dumps((key, tuple(getattr(found, f.name) for f in fields(found)))))
        os.replace(partial, cached)
    except OSError:  # a cache that cannot be written only costs time
        with suppress(OSError):
            partial.unlink(missing_ok=True)
    return found


def _find_files(folder: Path, names: list[str], core_suffix: str) -> dict[str, str]:
    """The AUX files by role; InputError naming the suffix when a file is missing or ambiguous."""
    files = {}
    for role, suffix in {"core": core_suffix, **SUFFIXES}.items():
        matches = [n for n in names if n.endswith(suffix)]
        if len(matches) != 1:
            what = "no file" if not matches else f"{len(matches)} files ({', '.join(matches)})"
            who = "NIST's TA2 stages need" if core_suffix == TA2_CORE else "NIST's TA1 scorer needs"
            raise InputError(str(folder), f"{what} ending in {suffix!r}: {who} exactly one")
        files[role] = str(folder / matches[0])
    return files


def _read(folder: Path, names: list[str], core_suffix: str) -> Aux:
    files = _find_files(folder, names, core_suffix)
    core = []
    for line, (document,) in read_table(files["core"], ("root_id",)).cells(("root_id",)):
        if longer_than_a_file_name(f"{document}.ttl"):  # its files are <doc>.ttl/...
            raise InputError(
                files["core"], f"a document ID of {len(document):,} characters: longer than a file name may be", line
            )
        core.append(document)
    modality_of = dict(
        cells for _, cells in read_table(files["encodings"], ("encoding", "modality")).cells(("encoding", "modality"))
    )
    modalities: dict[str, str | None] = {}
    languages: dict[str, str] = {}
    members: dict[str, dict[str, None]] = {}  # element -> its documents, in order
    columns = ("doceid", "detype", "docid", "lang_manual")
    for _, (element, kind, document, language) in read_table(files["parent_children"], columns).cells(columns):
        modalities[element] = modality_of.get(kind)  # an element's last row gives its type and language
        languages[element] = language.upper()
        members.setdefault(element, {})[document] = None
    documents: dict[str, list[str]] = {}
    for element, of in members.items():
        for document in of:
            documents.setdefault(document, []).append(element)
    extents = {
        "text": _text_extents(files["text"]),
        "image": _boxes(files["image"], "image_filename", True),
        "keyframe": _boxes(files["keyframe"], "keyframeid", False),
        "video": _videos(files["video"]),
    }
    packed = {kind: marshal.dumps(table) for kind, table in extents.items()}
    return Aux(
        str(folder),
        tuple(core),
        {d: tuple(e) for d, e in documents.items()},
        modalities,
        languages,
        packed,
        files["core"],
        files["parent_children"],
    )


def _text_extents(path: str) -> dict[str, tuple]:
    """Each element's first and last character: the extent of its sentences (kept as written)."""
    spans: dict[str, list] = {}  # element -> [first, its text, last, its text]
    columns = ("doceid", "start_char", "end_char")
    for number, (element, start, end) in read_table(path, columns).cells(columns):
        try:
            first, last = int(start), int(end)
        except ValueError:
            raise InputError(path, "start_char and end_char must be integers", number) from None
        known = spans.get(element)
        if known is None:
            spans[element] = [first, start, last, end]
            continue
        if first < known[0]:
            known[0], known[1] = first, start
        if last > known[2]:
            known[2], known[3] = last, end
    return {e: (s, 0, x, 0) for e, (_, s, _, x) in spans.items()}


def _boxes(path: str, key: str, strip_extension: bool) -> dict[str, tuple]:
    found = {}
    for number, (name, size) in read_table(path, (key, "wxh")).cells((key, "wxh")):
        parts = size.split("x") if size else [0, 0]
        if len(parts) != 2 or (
            size and not all(parts)
        ):  # NIST's code stops on the first; aifcheck on an empty side too
            raise InputError(path, f"wxh {size!r} is not WIDTHxHEIGHT", number)
        found[os.path.splitext(name)[0] if strip_extension else name] = (0, 0, *parts)
    return found


def _videos(path: str) -> dict[str, tuple]:
    columns = ("video_filename", "length")
    return {
        os.path.splitext(name)[0]: (0, 0, length or 0, 0)
        for _, (name, length) in read_table(path, columns).cells(columns)
    }
