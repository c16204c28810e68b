"""NIST's AUX data as its TA2 scorer and pooler read it: the documents and their elements, each
element's modality and language, the core documents, and each element's extent.

The files are found in the AUX folder by the end of their names: ``encoding_modality.txt``,
``<package>.coredocs.txt`` (the package's full list, as NIST's TA2 docker takes it, not TA1's
``coredocs-xx.txt``), ``.parent_children.tsv``, ``.sentence_boundaries.txt``,
``.image_boundaries.txt``, ``.keyframe_boundaries.txt`` and ``.video_boundaries.txt``.

What NIST keeps: an element's modality is that of its type (``detype``) in the encodings table and
its language the upper-cased ``lang_manual``, both from its last row; a text element's extent runs
from its earliest sentence start to its latest sentence end (x; y is 0); an image or key frame's is
(0,0)-(width,height), a video's (0,0)-(length,0); coordinates stay as written, since a corrected
span is printed from them.

(aifcheck.score.ta1.aux reads the same files for TA1, above this layer and with TA1's list of core
documents; this reader is the one the pipeline can use, and reads the folder in a tenth of the time.)
"""
from __future__ import annotations

import marshal
import os
import sys
import zlib
from dataclasses import dataclass, fields
from functools import lru_cache
from pathlib import Path

from ..errors import InputError, UsageError
from .tab_lines import read_columns

ROLES = {
    "encodings": "encoding_modality.txt",
    "core": ".coredocs.txt",
    "parent_children": ".parent_children.tsv",
    "text": ".sentence_boundaries.txt",
    "image": ".image_boundaries.txt",
    "keyframe": ".keyframe_boundaries.txt",
    "video": ".video_boundaries.txt",
}


# An element's extent: (start_x, start_y, end_x, end_y) as NIST keeps them (the file's text, or 0),
# printed in a corrected span
Extent = tuple


@dataclass(frozen=True)
class Ta2Aux:
    folder: str
    core: frozenset[str]
    elements_of: dict[str, frozenset[str]]  # document -> its elements
    modality: dict[str, str | None]  # element -> image, text, video, ... (None: an unknown type)
    languages: dict[str, str]  # element -> its language, upper-cased (N/A: none)
    # text | image | keyframe | video -> element or key frame -> extent; each table kept as marshal's
    # bytes until a span needs it (most runs need one or two of them)
    packed: dict[str, bytes]
    parent_children: str  # the file, to name in messages

    def __post_init__(self) -> None:
        object.__setattr__(self, "_extents", {})

    def extents(self, kind: str) -> dict[str, Extent]:
        """The extents of ``kind`` (text, image, keyframe, video; none of another)."""
        found = self._extents.get(kind)
        if found is None:
            found = self._extents[kind] = marshal.loads(self.packed[kind]) if kind in self.packed else {}
        return found

    def is_core(self, document: str) -> bool:
        return document in self.core

    def language(self, document: str) -> str | None:
        """The document's language: that of its elements (N/A aside); None when it has none. NIST
        stops on a document with two."""
        found = {self.languages[e] for e in self.elements_of.get(document, ())} - {"N/A"}
        if len(found) > 1:
            raise InputError(self.parent_children, f"document {document} has elements in several languages ({', '.join(sorted(found))}); NIST's code stops on it")
        return found.pop() if found else None


def load_ta2_aux(folder: str | os.PathLike) -> Ta2Aux:
    """The AUX tables of ``folder``, read again only when its files change: a process reads them
    once, and keeps them in a cache file for the next ones (reading the folder takes longer than
    scoring a small run; see ``cache_file``)."""
    folder = Path(folder)
    if not folder.is_dir():
        raise UsageError(f"--aux: {folder} is not a folder")
    stamp = tuple((p.name, p.stat().st_size, p.stat().st_mtime_ns) for p in sorted(folder.iterdir()) if p.is_file())
    return _load(folder, stamp)


def cache_file(key: str) -> Path:
    """Where the tables of a state of an AUX folder are kept: $AIFCHECK_CACHE_DIR, or
    $XDG_CACHE_HOME/aifcheck, or ~/.cache/aifcheck, named by a checksum of ``key`` (the file
    holds the key itself, which decides)."""
    base = os.environ.get("AIFCHECK_CACHE_DIR") or Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "aifcheck"
    return Path(base) / f"ta2-aux-{zlib.crc32(key.encode()):08x}.marshal"


_FORMAT = 2  # the layout of the cached tuple: change it with Ta2Aux's fields


@lru_cache(maxsize=1)
def _load(folder: Path, stamp: tuple) -> Ta2Aux:
    # the folder's path, its files' names, sizes and times, and the Python that writes the cache
    # (marshal's format is its own)
    key = repr((str(folder.resolve()), stamp, sys.version_info[:2], marshal.version, _FORMAT))
    cached = cache_file(key)
    try:
        found_key, values = marshal.loads(cached.read_bytes())
        if found_key == key:
            return Ta2Aux(*values)
    except (OSError, ValueError, EOFError, TypeError):
        pass  # no cache yet, or one that cannot be used: read the folder
    found = _read(folder, stamp)
    partial = cached.with_name(f".{cached.name}.{os.getpid()}")
    try:
        cached.parent.mkdir(parents=True, exist_ok=True)
        partial.write_bytes(marshal.dumps((key, tuple(getattr(found, f.name) for f in fields(found)))))
        os.replace(partial, cached)
    except OSError:
        partial.unlink(missing_ok=True)  # a cache that cannot be written only costs time
    return found


def _read(folder: Path, stamp: tuple) -> Ta2Aux:
    files = {}
    names = [name for name, _, _ in stamp]
    for role, suffix in ROLES.items():
        matches = [n for n in names if n.endswith(suffix)]
        if len(matches) != 1:
            what = "no file" if not matches else f"{len(matches)} files ({', '.join(matches)})"
            raise InputError(str(folder), f"{what} ending in {suffix!r}: NIST's TA2 code needs exactly one")
        files[role] = str(folder / matches[0])
    modality_of = dict(cells for _, cells in read_columns(files["encodings"], ("encoding", "modality")))
    core = frozenset(cells[0] for _, cells in read_columns(files["core"], ("root_id",)))
    modality: dict[str, str | None] = {}
    languages: dict[str, str] = {}
    members: dict[str, set[str]] = {}
    for _, (element, kind, document, language) in read_columns(files["parent_children"], ("doceid", "detype", "docid", "lang_manual")):
        modality[element] = modality_of.get(kind)  # an element's last row gives its type and language
        languages[element] = language.upper()
        members.setdefault(document, set()).add(element)
    extents = {"text": _text_extents(files["text"]), "image": _boxes(files["image"], "image_filename", True),
               "keyframe": _boxes(files["keyframe"], "keyframeid", False), "video": _videos(files["video"])}
    packed = {kind: marshal.dumps(table) for kind, table in extents.items()}
    return Ta2Aux(str(folder), core, {d: frozenset(e) for d, e in members.items()}, modality, languages, packed, files["parent_children"])


def _text_extents(path: str) -> dict[str, Extent]:
    spans: dict[str, list] = {}  # element -> [first, its text, last, its text]
    for number, (element, start, end) in read_columns(path, ("doceid", "start_char", "end_char")):
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


def _boxes(path: str, key: str, strip_extension: bool) -> dict[str, Extent]:
    found = {}
    for number, (name, size) in read_columns(path, (key, "wxh")):
        parts = size.split("x") if size else [0, 0]
        if len(parts) != 2:
            raise InputError(path, f"wxh {size!r} is not WIDTHxHEIGHT", number)
        found[os.path.splitext(name)[0] if strip_extension else name] = (0, 0, *parts)
    return found


def _videos(path: str) -> dict[str, Extent]:
    return {os.path.splitext(name)[0]: (0, 0, length or 0, 0) for _, (name, length) in read_columns(path, ("video_filename", "length"))}
