"""NIST's AUX data for TA1 and TA2: core documents, documents and their elements, element boundaries.

The files are found in the AUX folder by their suffix, as NIST's docker mounts them
(``*coredocs-xx.txt``, ``*parent_children.tsv``, ``*sentence_boundaries.txt``,
``*image_boundaries.txt``, ``*keyframe_boundaries.txt``, ``*video_boundaries.txt``,
``encoding_modality.txt``). TA1 takes the core documents of ``*coredocs-xx.txt``, TA2 those of
the package's full list ``*.coredocs.txt`` (``TA2_CORE``).
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from ...errors import InputError, UsageError
from ...extract.model import Span
from ..tsv import read_table

SUFFIXES = {
    "core": "coredocs-xx.txt",
    "parent_children": "parent_children.tsv",
    "text": "sentence_boundaries.txt",
    "image": "image_boundaries.txt",
    "keyframe": "keyframe_boundaries.txt",
    "video": "video_boundaries.txt",
    "encodings": "encoding_modality.txt",
}
TA2_CORE = ".coredocs.txt"


@dataclass(frozen=True)
class Boundary:
    """A document element's extent: (start_x, start_y)-(end_x, end_y), each coordinate kept as
    NIST keeps it (the file's text, or 0) since corrected spans are printed from it."""

    start_x: str | int
    start_y: str | int
    end_x: str | int
    end_y: str | int

    def __str__(self) -> str:
        return f"({self.start_x},{self.start_y})-({self.end_x},{self.end_y})"

    @cached_property
    def corners(self) -> tuple[float, float, float, float]:
        return float(self.start_x), float(self.start_y), float(self.end_x), float(self.end_y)

    def floats(self) -> tuple[float, float, float, float]:
        return self.corners


@dataclass
class Element:
    id: str
    modality: str | None = None
    language: str = ""
    documents: list[str] = field(default_factory=list)


@dataclass
class Aux:
    """The AUX tables the TA1 stages read."""

    folder: str
    core: list[str]  # core documents, in the file's order
    documents: dict[str, list[str]]  # document -> its elements, in the file's order
    elements: dict[str, Element]
    boundaries: dict[str, dict[str, Boundary]]  # "text" | "image" | "keyframe" | "video" -> id -> boundary
    core_file: str
    parent_children_file: str

    def is_core(self, document: str) -> bool:
        return document in self._core_set

    def __post_init__(self) -> None:
        self._core_set = set(self.core)
        self._languages: dict[str, str | None] = {}
        self._children = {document: frozenset(elements) for document, elements in self.documents.items()}

    def children(self, document: str) -> frozenset[str]:
        return self._children.get(document, frozenset())

    def modality(self, span: Span) -> str | None:
        """The modality of a span's document element (text, image, video...), as NIST's scorer
        reads it; None for an element the AUX data lacks."""
        element = self.elements.get(span.element)
        return element.modality if element is not None else None

    def boundary(self, span: Span) -> Boundary | None:
        """The extent of a span's key frame, or else of its document element (None when unknown)."""
        kind = "keyframe" if span.keyframe else self.modality(span)
        found = self.boundaries.get(kind) if kind is not None else None
        return found.get(span.keyframe or span.element) if found is not None else None

    def language(self, document: str) -> str | None:
        """The document's language: that of its elements (N/A aside). NIST stops on a document
        with two."""
        if document not in self._languages:
            found = {self.elements[e].language for e in self.documents.get(document, ())} - {"N/A"}
            if len(found) > 1:
                raise InputError(self.parent_children_file, f"document {document} has elements in several languages ({', '.join(sorted(found))}); NIST's scorer stops on it")
            self._languages[document] = found.pop() if found else None
        return self._languages[document]


def find_aux_files(folder: str | os.PathLike, core_suffix: str = SUFFIXES["core"]) -> dict[str, str]:
    """The AUX files by role (``core_suffix``: that of the core documents' file); UsageError when
    the folder is missing, InputError naming the suffix when a file is missing or ambiguous."""
    folder = Path(folder)
    if not folder.is_dir():
        raise UsageError(f"--aux: {folder} is not a folder")
    names = sorted(p.name for p in folder.iterdir() if p.is_file())
    found = {}
    for role, suffix in {**SUFFIXES, "core": core_suffix}.items():
        matches = [n for n in names if n.endswith(suffix)]
        if len(matches) != 1:
            what = "no file" if not matches else f"{len(matches)} files ({', '.join(matches)})"
            who = "NIST's TA1 scorer needs" if core_suffix == SUFFIXES["core"] else "NIST's TA2 stages need"
            raise InputError(str(folder), f"{what} ending in {suffix!r}: {who} exactly one")
        found[role] = str(folder / matches[0])
    return found


_NAME_MAX = 255  # bytes of a file name (Linux, macOS)


def load_aux(folder: str | os.PathLike, core_suffix: str = SUFFIXES["core"]) -> Aux:
    """The AUX tables; ``core_suffix`` is the suffix of the core documents' file (TA2: ``TA2_CORE``)."""
    files = find_aux_files(folder, core_suffix)
    core = []
    for line, r in read_table(files["core"], ["root_id"]).records():
        if len(f"{r['root_id']}.ttl".encode("utf-8", "surrogateescape")) > _NAME_MAX:  # its files are <doc>.ttl/...
            raise InputError(files["core"], f"a document ID of {len(r['root_id']):,} characters: longer than a file name may be", line)
        core.append(r["root_id"])
    modality_of = {r["encoding"]: r["modality"] for _, r in read_table(files["encodings"], ["encoding", "modality"]).records()}
    documents: dict[str, list[str]] = {}
    elements: dict[str, Element] = {}
    for _, r in read_table(files["parent_children"], ["doceid", "detype", "docid", "lang_manual"]).records():
        element = elements.get(r["doceid"])
        if element is None:
            element = elements[r["doceid"]] = Element(r["doceid"])
        element.modality = modality_of.get(r["detype"])  # the last row of an element wins, as in NIST's
        element.language = r["lang_manual"].upper()
        if r["docid"] not in element.documents:
            element.documents.append(r["docid"])
    for element in elements.values():
        for document in element.documents:
            documents.setdefault(document, []).append(element.id)
    boundaries = {
        "text": _text_boundaries(files["text"]),
        "image": _box_boundaries(files["image"], "image_filename", "wxh", strip_extension=True),
        "keyframe": _box_boundaries(files["keyframe"], "keyframeid", "wxh", strip_extension=False),
        "video": _video_boundaries(files["video"]),
    }
    return Aux(str(folder), core, documents, elements, boundaries, files["core"], files["parent_children"])


def _text_boundaries(path: str) -> dict[str, Boundary]:
    """Each element's first and last character: the extent of its sentences (kept as written)."""
    table = read_table(path, ["doceid", "start_char", "end_char"])
    element, start, end = (table.columns.index(c) for c in ("doceid", "start_char", "end_char"))
    extent: dict[str, list] = {}
    for line, cells in table.rows:
        try:
            first, last = int(cells[start]), int(cells[end])
        except ValueError:
            raise InputError(path, "start_char and end_char must be integers", line) from None
        known = extent.get(cells[element])
        if known is None:
            extent[cells[element]] = [first, cells[start], last, cells[end]]
            continue
        if first < known[0]:
            known[0:2] = first, cells[start]
        if last > known[2]:
            known[2:4] = last, cells[end]
    return {e: Boundary(s, 0, x, 0) for e, (_, s, _, x) in extent.items()}


def _box_boundaries(path: str, key: str, size: str, strip_extension: bool) -> dict[str, Boundary]:
    found = {}
    for line, r in read_table(path, [key, size]).records():
        width, _, height = r[size].partition("x") if r[size] else (0, "x", 0)
        if r[size] and not (width and height):
            raise InputError(path, f"{size} {r[size]!r} is not WIDTHxHEIGHT", line)
        element = os.path.splitext(r[key])[0] if strip_extension else r[key]
        found[element] = Boundary(0, 0, width, height)
    return found


def _video_boundaries(path: str) -> dict[str, Boundary]:
    return {os.path.splitext(r["video_filename"])[0]: Boundary(0, 0, r["length"] or 0, 0) for _, r in read_table(path, ["video_filename", "length"]).records()}
