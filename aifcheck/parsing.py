"""Reading RDF files: formats, compression, located syntax errors and the line index.

rdflib keeps no source positions, so the Turtle parser is driven here with a sink that
notes the line on which each node is first seen; every finding can then print FILE:LINE.
N-Triples is a subset of Turtle and goes through the same parser.
"""
from __future__ import annotations

import glob
import gzip
import logging
import os
import sys
import threading
import warnings
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import rdflib
from rdflib.plugins.parsers.notation3 import BadSyntax, RDFSink, SinkParser
from rdflib.term import BNode, Node

from .errors import InputError

RDF_SUFFIXES = (".ttl", ".nt", ".ttl.gz", ".nt.gz")


@dataclass
class LoadedGraph:
    """One parsed file: its triples and where each node first appears in it."""

    path: str
    graph: rdflib.Graph
    first_line: dict[Node, int] = field(default_factory=dict)
    located = True  # its lines are known (an IndexedStore may be loaded without them)

    def line_of(self, node: Node | None) -> int | None:
        return self.first_line.get(node) if node is not None else None

    def __len__(self) -> int:
        return len(self.graph)

    def close(self) -> None:
        """Nothing to release: the graph goes with the object (an IndexedStore may be on disk)."""

    @property
    def prefixes(self) -> dict[str, str]:
        return {prefix: str(namespace) for prefix, namespace in self.graph.namespaces()}


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
        if glob.has_magic(arg) and not os.path.exists(arg):
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
            problems.append(InputError(str(path), "directory holds no .ttl or .nt files (.gz allowed)"))
        files.extend(found)
    elif path.is_file():
        if explicit or is_rdf_file(path):
            files.append(str(path))
    elif not path.exists():
        problems.append(InputError(str(path), "no such file or directory"))
    else:
        problems.append(InputError(str(path), "not a regular file"))


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


@contextmanager
def quiet_rdflib() -> Iterator[None]:
    """Silence rdflib while inside: it logs a traceback (and warns) for every ill-typed literal
    such as "high"^^xsd:double, which the rules report, located, so the noise is only in the way."""
    logger = logging.getLogger("rdflib")
    level = logger.level
    logger.setLevel(logging.CRITICAL)
    try:
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", module=r"rdflib\.")
            yield
    finally:
        logger.setLevel(level)


class _LineIndexSink(RDFSink):
    """An rdflib sink that also records the line on which each subject (or object) first appears."""

    def __init__(self, graph: rdflib.Graph, first_line: dict[Node, int]):
        super().__init__(graph)
        self.parser: SinkParser | None = None
        self.first_line = first_line
        self.object_line: dict[Node, int] = {}

    def makeStatement(self, quadruple, why=None) -> None:  # noqa: N802 (rdflib's name)
        super().makeStatement(quadruple, why)
        formula, _, subject, obj = quadruple
        line = self.parser.lines + 1 if self.parser else 0
        self.first_line.setdefault(self.normalise(formula, subject), line)
        obj = self.normalise(formula, obj)
        if isinstance(obj, (rdflib.URIRef, BNode)):
            self.object_line.setdefault(obj, line)


def parse_text(path: str, text: str) -> LoadedGraph:
    """Parse Turtle (or N-Triples) text into a graph with its line index."""
    graph = rdflib.Graph()
    first_line: dict[Node, int] = {}
    sink = _LineIndexSink(graph, first_line)
    base = Path(path).resolve().as_uri()
    parser = SinkParser(sink, baseURI=base, turtle=True)
    sink.parser = parser
    try:
        _with_deep_stack(lambda: (parser.startDoc(), parser.feed(text), parser.endDoc()))
    except BadSyntax as exc:
        line, column = _position(text, exc._i)  # rdflib keeps the offset only privately
        raise InputError(path, f"syntax error: {exc._why}", line, column) from None
    except RecursionError:
        raise InputError(path, "syntax error: nesting too deep to parse", parser.lines + 1) from None
    except Exception as exc:  # rdflib raises many kinds; the user needs one located line
        raise InputError(path, f"cannot parse: {exc}", parser.lines + 1) from None
    if len(graph) == 0:
        raise InputError(path, "no RDF triples in file")
    for node, line in sink.object_line.items():
        first_line.setdefault(node, line)
    for prefix, namespace in parser._bindings.items():
        graph.bind(prefix or "", namespace, replace=True)
    return LoadedGraph(path, graph, first_line)


# rdflib's Turtle parser recurses once per nesting level of [ ] and ( ): give it room for
# thousands of levels in a thread with a large stack instead of failing at a few hundred.
_PARSER_STACK_BYTES = 512 * 1024 * 1024
_PARSER_RECURSION_LIMIT = 50_000


def _with_deep_stack(work: Callable[[], object]) -> None:
    outcome: list[BaseException] = []

    def run() -> None:
        try:
            work()
        except BaseException as exc:  # noqa: BLE001 - handed back to the calling thread
            outcome.append(exc)

    old_stack = threading.stack_size(_PARSER_STACK_BYTES)
    old_limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old_limit, _PARSER_RECURSION_LIMIT))
    try:
        worker = threading.Thread(target=run, name="aifcheck-parser")
        worker.start()
        worker.join()
    finally:
        threading.stack_size(old_stack)
        sys.setrecursionlimit(old_limit)
    if outcome:
        raise outcome[0]


def _position(text: str, offset: int) -> tuple[int, int]:
    offset = max(0, min(offset, len(text)))
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return line, column


def load(path: str | os.PathLike) -> LoadedGraph:
    """Read and parse one RDF file (.ttl, .nt, optionally gzipped); raises InputError."""
    path = str(path)
    return parse_text(path, read_text(path))
