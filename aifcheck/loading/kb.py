"""The one loader: an RDF file into a knowledge base (KB) on pyoxigraph, and where its nodes are.

Every command takes a KB: validation (both executors), the query tables, claim frames and the
submission checks. A file is parsed by pyoxigraph, optionally gzipped, with line marks (see below)
or with the parser its name asks for (Turtle when it names none); that parser's verdict is the only
one (a file it refuses is a syntax error, located at line and column). Blank node labels are kept
as written, so that findings name the nodes the file names.

The store is in memory when the file's estimated peak fits comfortably in the memory the machine
has available, on disk otherwise (see choose_store); a caller may force either.

A KB answers ``line_of(node)`` for any node, as aifcheck.lines defines it: a Turtle-family file is
parsed with line marks (aifcheck.marking), which the KB keeps as text beside the store (queries
never see them) and reads when a line is first asked for.

Hostile input is bounded: a file is streamed (never held whole) past ``STREAM_BYTES``, a .gz file
that expands like a decompression bomb is refused (see Limits), a token too long for the parser is
one clear error, and what would crash the parser or hold it too long (RDF 1.2 triple terms, XML
entities, deeply nested XML) is refused before parsing.
"""

from __future__ import annotations

import codecs
import io
import os
import re
import shutil
import sys
import zlib
from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack, suppress
from dataclasses import dataclass, field
from itertools import chain, islice
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import pyoxigraph as ox

if TYPE_CHECKING:
    from tempfile import TemporaryDirectory

from aifcheck.choices import choose
from aifcheck.errors import InputError, UsageError, printable
from aifcheck.loading.lines import LineIndex, Term
from aifcheck.loading.marking import BLOCK_CHARS, MarkedStream
from aifcheck.loading.paths import STDIN, alive, open_regular

T = TypeVar("T")

Progress = Callable[[int, int], None]  # (bytes read, file size)

STREAM_BYTES = 64 * 1024 * 1024  # larger files are streamed, not read whole (nor kept for their lines)

# Where a file's triples go. In memory, 1M triples take about 0.8 GB at the peak of loading and
# checking; AIF text takes about 40 bytes a triple (NIST's TA1 KBs: 44). A file goes in memory when
# that estimate fits in half the memory available, so that the rest of the run (and other
# processes, or --jobs) keep room; on disk otherwise. Where the available memory cannot be read,
# files over FALLBACK_DISK_BYTES (about 4M triples) go on disk.
STORES = ("auto", "memory", "disk")
MEMORY_PER_TRIPLE = 800
TEXT_BYTES_PER_TRIPLE = 40
MEMORY_SHARE = 0.5
FALLBACK_DISK_BYTES = 160 * 1024 * 1024
_PROGRESS_STEP = 4 * 1024 * 1024  # bytes between two progress reports
TRANSACTION_QUADS = 2_500_000  # quads an in-memory store takes in one transaction (see _fill)
_MAX_TOKEN = 16 * 1024 * 1024  # pyoxigraph's parser holds no longer literal or IRI
_GZIP_MAGIC = b"\x1f\x8b"

# The parser of each file name ending (after .gz); any other ending is read as Turtle. Only the
# Turtle family can be marked for lines (aifcheck.marking): findings in other formats have none.
FORMATS = {
    ".ttl": ox.RdfFormat.TURTLE,
    ".nt": ox.RdfFormat.N_TRIPLES,
    ".n3": ox.RdfFormat.N3,
    ".trig": ox.RdfFormat.TRIG,
    ".nq": ox.RdfFormat.N_QUADS,
    ".jsonld": ox.RdfFormat.JSON_LD,
    ".rdf": ox.RdfFormat.RDF_XML,
    ".owl": ox.RdfFormat.RDF_XML,
}
# The same parsers by the names a user gives them (--input-format): for a file whose name says
# nothing or says it wrong, and for standard input
INPUT_FORMATS = {
    "turtle": ox.RdfFormat.TURTLE,
    "ntriples": ox.RdfFormat.N_TRIPLES,
    "n3": ox.RdfFormat.N3,
    "trig": ox.RdfFormat.TRIG,
    "nquads": ox.RdfFormat.N_QUADS,
    "jsonld": ox.RdfFormat.JSON_LD,
    "rdfxml": ox.RdfFormat.RDF_XML,
}
_MARKABLE = (ox.RdfFormat.TURTLE, ox.RdfFormat.N_TRIPLES, ox.RdfFormat.N3)
_QUADS = (ox.RdfFormat.TRIG, ox.RdfFormat.N_QUADS)  # AIF is one graph: named graphs are refused


@dataclass(eq=False)
class KB:
    """One parsed file: its triples in a pyoxigraph store, and where each node is written."""

    path: str
    store: ox.Store
    prefixes: dict[str, str] = field(default_factory=dict)  # as the file declares them
    base: str | None = None  # the IRI relative IRIs were resolved against
    marks: str | None = field(default=None, repr=False)  # its text's line marks (see aifcheck.marking), if known
    _folder: str | None = field(default=None, repr=False)  # an on-disk store's temporary folder
    _temporary: TemporaryDirectory | None = field(default=None, repr=False)  # that removes it
    _lines: LineIndex | None = field(default=None, repr=False)
    # a finding asks for its focus's line several times (its line, its message, its node's text)
    _found: dict[Term, int | None] = field(default_factory=dict, repr=False)
    _triples: int | None = field(default=None, repr=False)

    def __len__(self) -> int:
        """Its triples: counted once (pyoxigraph counts by a scan of the store, and a run asks
        several times; the store does not change once loaded)."""
        if self._triples is None:
            self._triples = len(self.store)
        return self._triples

    @property
    def marked(self) -> bool:
        """Whether the lines of its nodes are known."""
        return self.marks is not None

    @property
    def on_disk(self) -> bool:
        """Whether its store is on disk (in a temporary folder) rather than in memory."""
        return self._folder is not None

    def line_of(self, node: Term | None) -> int | None:
        """The line where ``node`` is written (see aifcheck.lines), or None when it is not known."""
        if node is None or self.marks is None:
            return None
        if node not in self._found:
            if self._lines is None:
                self._lines = LineIndex(self.store, self.marks, self.base)
            self._found[node] = self._lines.line_of(node)
        return self._found[node]

    def close(self) -> None:
        """Drop the store (and delete it, when it is on disk)."""
        self.store = ox.Store()
        self._lines, self.marks, self._triples = None, None, None
        self._found.clear()
        if self._temporary is not None:
            self._temporary.cleanup()
            self._folder, self._temporary = None, None

    def __enter__(self) -> KB:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()


@dataclass(frozen=True)
class Limits:
    """How much a file may hold once gunzipped. By default a .gz file that has grown past
    ``bomb_after`` bytes to more than ``bomb_ratio`` times the compressed bytes read is refused as
    a decompression bomb (AIF compresses about 19 to 1); a ``max_size`` the user gives replaces
    that test with a plain limit on the size of any file, gunzipped or not."""

    max_size: int | None = None
    bomb_ratio: int = 64
    bomb_after: int = 64 * 1024 * 1024


class HeldFile(str):
    """A file's path that also holds the file's content, read on another machine (a cluster worker
    receives it so), and the IRI the file has there, which its relative IRIs resolve against. It
    goes where the path goes: load_kb parses the content held as it would parse the file itself
    (same messages, same lines), so any per-file function runs unchanged on a machine that does not
    see the files (aifcheck.spread.cluster)."""

    data: bytes
    base: str

    def __new__(cls, path: str, data: bytes, base: str) -> HeldFile:
        held = super().__new__(cls, path)
        held.data, held.base = data, base
        return held

    def __reduce__(self):
        return (HeldFile, (str(self), self.data, self.base))


def read_each(files: Iterable[str], read: Callable[[KB], T]) -> tuple[list[T], list[InputError]]:
    """``read(kb)`` of every file that can be loaded, in order, and the errors of those that cannot:
    one bad file costs only itself."""
    found, problems = [], []
    for path in files:
        try:
            with load_kb(path) as kb:
                found.append(read(kb))
        except InputError as exc:
            problems.append(exc)
    return found, problems


def load_kb(
    path: str | os.PathLike,
    progress: Progress | None = None,
    limits: Limits = Limits(),
    store: str = "auto",
    on_store: Callable[[str], None] | None = None,
    lines: bool = True,
    input_format: str | None = None,
) -> KB:
    """Parse one file into a KB. Raises InputError (located, for syntax errors) when it cannot.
    ``store`` is auto, memory or disk (see choose_store); ``on_store`` hears the one chosen
    ("memory" or "disk") before the file is parsed. ``lines=False`` leaves out the line marks
    (KB.line_of then knows no node): for callers that locate nothing, a fifth less loading.
    ``input_format`` (a name of INPUT_FORMATS) is the parser, whatever the file's name says."""
    held = path if isinstance(path, HeldFile) else None
    path = str(path)
    if store not in STORES:
        raise UsageError(f"unknown store '{store}' (choose {', '.join(STORES)})")
    rdf_format = INPUT_FORMATS[choose(input_format, INPUT_FORMATS, "input format")] if input_format else format_of(path)
    held_data = held.data if held else None
    with ExitStack() as opened:
        content = opened.enter_context(_Content(path, limits, progress, held_data))
        # chosen before reading, so that progress reports name the store (standard input, of
        # unknown size, counts as empty: in memory unless a store is forced)
        chosen = choose_store(content.expanded_size(), store)
        if on_store is not None:
            on_store(chosen)
        head = content.read_up_to(STREAM_BYTES + 1)
        text = _decode(path, head) if len(head) <= STREAM_BYTES else None
        if text is None:
            _check_start(path, head)
        _refuse_hostile(path, rdf_format, text, head)
        folder = _disk_folder() if chosen == "disk" else None
        base = held.base if held else Path(path).resolve().as_uri()
        streams = [_Prefixed(head, content)]

        def stream() -> io.RawIOBase:
            """The content from its start: what was read already, then the file read again."""
            return streams.pop() if streams else opened.enter_context(_Content(path, limits, progress, held_data))

        def plain() -> str | io.RawIOBase:
            return text if text is not None and progress is None else stream()

        def chunks() -> Iterable[str]:
            return _pieces(text, content.size, progress) if text is not None else _decoded(path, stream())

        # standard input cannot be read twice, as text the marks cannot follow needs: marked only
        # while its text is kept
        marking = lines and rdf_format in _MARKABLE and (text is not None or path != STDIN)
        kb = KB(
            path,
            ox.Store(folder.name) if folder else ox.Store(),
            base=base,
            _folder=folder.name if folder else None,
            _temporary=folder,
        )
        _parse(kb, rdf_format, marking, plain, chunks, text)
    return kb


def _parse(
    kb: KB,
    rdf_format: ox.RdfFormat,
    marking: bool,
    plain: Callable[[], str | io.RawIOBase],
    chunks: Callable[[], Iterable[str]],
    text: str | None,
) -> None:
    """The file's triples into the KB (see load_kb); the KB closed and an InputError (located) when
    the file holds none, or what RDF text must not hold."""
    path = kb.path
    try:
        _fill_all(kb, rdf_format, marking, plain, chunks)
        if len(kb) == 0:
            raise InputError(path, "no RDF triples in file")
        if (text is None or rdf_format not in _SCANNED) and kb.store.query(_ANY_TRIPLE_TERM):
            raise InputError(path, _TRIPLE_TERMS)
    except SyntaxError as exc:
        kb.close()
        raise InputError(path, _syntax_message(exc, text, rdf_format), exc.lineno, exc.offset) from None
    except MemoryError:  # pyoxigraph's "Reached the buffer maximal size"
        kb.close()
        raise InputError(
            path, "a literal or IRI longer than 16 MiB, more than the parser can hold", _long_line(text)
        ) from None
    except BaseException:
        kb.close()
        raise


def _fill_all(
    kb: KB,
    rdf_format: ox.RdfFormat,
    marking: bool,
    plain: Callable[[], str | io.RawIOBase],
    chunks: Callable[[], Iterable[str]],
) -> None:
    """The file's triples into the KB, with the line marks when ``marking``."""
    if not marking or rdf_format == ox.RdfFormat.N_TRIPLES:
        # N-Triples is judged by its own parser (Turtle, which reads the rewritten text,
        # accepts more); it has no [ ] nodes to rewrite, so only its marks are taken
        _fill(kb, plain(), rdf_format)
    if marking:
        kb.marks = _fill_marked(kb, chunks(), parse=rdf_format != ox.RdfFormat.N_TRIPLES)
        if kb.marks is None and rdf_format != ox.RdfFormat.N_TRIPLES:
            # text the marks cannot follow (N3 beyond Turtle, or not RDF): as written
            kb.store.clear()
            _fill(kb, plain(), rdf_format)


def _fill(kb: KB, source: str | io.RawIOBase, rdf_format: ox.RdfFormat) -> None:
    """Parse into the KB's store (its default graph: AIF is one graph)."""
    parser = ox.parse(
        source, format=rdf_format, base_iri=kb.base, rename_blank_nodes=False, without_named_graphs=rdf_format in _QUADS
    )
    if kb.on_disk:
        kb.store.bulk_extend(parser)
        # the bulk loader leaves many small sorted files; compacting them costs far less than it
        # saves the rule queries
        kb.store.optimize()
    else:
        # a transaction keeps a log of what it adds until it ends: transactions of a bounded size
        # keep the peak of a large file's loading down, for a little more time
        while (first := next(parser, None)) is not None:
            kb.store.extend(chain((first,), islice(parser, TRANSACTION_QUADS - 1)))
    kb.prefixes = dict(parser.prefixes)


def _fill_marked(kb: KB, chunks: Iterable[str], parse: bool) -> str | None:
    """The text's line marks (see aifcheck.marking), its rewritten text parsed into the KB when
    ``parse``; None when the marks cannot be trusted."""
    marked = MarkedStream(chunks)
    if parse:
        try:
            _fill(kb, marked, ox.RdfFormat.TURTLE)
        except SyntaxError:
            return None
    else:
        block = bytearray(BLOCK_CHARS)
        while marked.readinto(block):
            pass
    return None if marked.braces else marked.marks


def _pieces(text: str, size: int, progress: Progress | None) -> Iterator[str]:
    """A held text, in blocks when progress is to be told between them."""
    if progress is None:
        yield text
        return
    for start in range(0, len(text), BLOCK_CHARS):
        yield text[start : start + BLOCK_CHARS]
        progress(size * min(len(text), start + BLOCK_CHARS) // len(text), size)


def _decoded(path: str, stream: io.RawIOBase) -> Iterator[str]:
    """A streamed file's text, block by block: UTF-8, as RDF text must be (a byte-order mark dropped)."""
    decoder = codecs.getincrementaldecoder("utf-8-sig")()
    lines = 1
    while True:
        data = stream.read(_PROGRESS_STEP)  # (progress is told as each piece is read)
        try:
            text = decoder.decode(data, final=not data)
        except UnicodeDecodeError as exc:
            raise _not_utf8(path, exc.object, exc.start, lines) from None
        lines += text.count("\n")
        yield text
        if not data:
            return


# AIF is RDF 1.1: an RDF 1.2 triple term (``<<( s p o )>>``, or ``<< s p o >>`` which reifies
# one) is refused before parsing, since 20,000 nested ones overflow the parser's stack. In the text
# formats that is a scan for ``<<`` outside strings, IRIs and comments; in the other formats, and
# in files too large to hold, a query of the parsed store.
_SCANNED = (ox.RdfFormat.TURTLE, ox.RdfFormat.N_TRIPLES, ox.RdfFormat.N3, ox.RdfFormat.TRIG, ox.RdfFormat.N_QUADS)
_TRIPLE_TERMS = "RDF 1.2 triple terms (<< ... >>) are not AIF, which is RDF 1.1"
_ANY_TRIPLE_TERM = "ASK { ?s ?p ?o FILTER(isTRIPLE(?o)) }"
_TOKENS = re.compile(
    r'''"""(?:[^"\\]++|\\.|"(?!""))*+"""|'\'\'(?:[^'\\]++|\\.|'(?!''))*+'\'\''''
    r"""|"(?:[^"\\\n\r]++|\\.)*+"|'(?:[^'\\\n\r]++|\\.)*+'|<[^<>\s]*+>|\#[^\n\r]*+|(<<)""",
    re.S,
)
# RDF/XML: internal entities expand without limit (a few hundred bytes can make gigabytes), and the
# parser takes time quadratic in the nesting depth; AIF needs neither.
MAX_XML_DEPTH = 1000


def _refuse_hostile(path: str, rdf_format: ox.RdfFormat, text: str | None, head: bytes) -> None:
    """Refuse, before parsing, what would crash the parser or take it too long (see above)."""
    if rdf_format in _SCANNED and text is not None and "<<" in text:
        found = next((m for m in _TOKENS.finditer(text) if m[1]), None)
        if found is not None:
            raise InputError(path, _TRIPLE_TERMS, *_position(text, found.start()))
    elif rdf_format == ox.RdfFormat.RDF_XML:
        # declarations come before the root element: the start of the file tells
        entity = head.find(b"<!ENTITY")
        if entity >= 0:
            message = "XML entity declarations (<!ENTITY) are not accepted in RDF/XML"
            raise InputError(path, message, *_position(head, entity))
        if text is not None:
            _check_xml_depth(path, text)


def _check_xml_depth(path: str, text: str) -> None:
    from xml.parsers import expat  # RDF/XML only: not imported by every run

    depth = 0

    def start(*_args: object) -> None:
        nonlocal depth
        depth += 1
        if depth > MAX_XML_DEPTH:
            line, column = parser.CurrentLineNumber, parser.CurrentColumnNumber + 1
            raise InputError(path, f"XML elements nested more than {MAX_XML_DEPTH} deep: not AIF", line, column)

    def end(*_args: object) -> None:
        nonlocal depth
        depth -= 1

    parser = expat.ParserCreate()
    parser.StartElementHandler, parser.EndElementHandler = start, end
    with suppress(expat.ExpatError):  # not well-formed: the RDF/XML parser says where, in its words
        parser.Parse(text, True)


def choose_store(expanded_size: int, store: str = "auto") -> str:
    """ "memory" or "disk" for a file of ``expanded_size`` bytes (gunzipped): the one forced, or by
    the estimate above against the memory available now."""
    if store != "auto":
        return store
    available = available_memory()
    if available is None:
        return "disk" if expanded_size > FALLBACK_DISK_BYTES else "memory"
    peak = expanded_size / TEXT_BYTES_PER_TRIPLE * MEMORY_PER_TRIPLE
    return "memory" if peak <= MEMORY_SHARE * available else "disk"


def available_memory() -> int | None:
    """Bytes of memory available to new processes: MemAvailable on Linux (which counts the page
    cache that can be dropped), free pages where the system tells them, else None."""
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):
        return None


_BY_SUFFIX = {".jsonld": ox.RdfFormat.JSON_LD, ".rdf": ox.RdfFormat.RDF_XML}


def _looks_like(text: str | None, rdf_format: ox.RdfFormat) -> tuple[str, str] | None:
    """(what, the file name ending that reads it) for a file that another parser reads: JSON-LD or
    RDF/XML given to a Turtle-family parser."""
    if text is None or rdf_format in (ox.RdfFormat.JSON_LD, ox.RdfFormat.RDF_XML):
        return None
    start = text.lstrip("\ufeff \t\r\n")[:200]
    if start[:1] in "{[" and start[:1] and ('"@context"' in text[:100_000] or '"@id"' in text[:100_000]):
        return "JSON-LD", ".jsonld"
    if start.startswith(("<?xml", "<rdf:RDF")):
        return "RDF/XML", ".rdf"
    return None


def format_of(path: str) -> ox.RdfFormat:
    """The parser for a file, by its name."""
    name = path.lower().removesuffix(".gz")
    return next((f for suffix, f in FORMATS.items() if name.endswith(suffix)), ox.RdfFormat.TURTLE)


def read_text(path: str, limits: Limits = Limits()) -> str:
    """A file's text, gunzipped and checked as a KB's text is (for baselines that parse it themselves)."""
    with _Content(str(path), limits, None) as content:
        return _decode(str(path), content.read())


def _syntax_message(exc: SyntaxError, text: str | None, rdf_format: ox.RdfFormat) -> str:
    message = f"syntax error: {printable(_reason(exc))}"
    looks = _looks_like(text, rdf_format)
    if looks is not None:
        name, suffix = looks
        option = next(k for k, v in INPUT_FORMATS.items() if v == _BY_SUFFIX[suffix])
        message += f" (the file looks like {name}: name it {suffix}, or give --input-format {option})"
    elif rdf_format == ox.RdfFormat.N_TRIPLES and text is not None and _parses(text, ox.RdfFormat.TURTLE):
        message += " (the file is Turtle, not N-Triples: name it .ttl)"
    elif rdf_format in _QUADS and "named graph" in message.lower():
        message += " (an AIF file is one graph: give its triples in the default graph)"
    return message


def _reason(exc: SyntaxError) -> str:
    # pyoxigraph starts its message with the position, which InputError prints already
    message = exc.msg or str(exc)
    return message.split(": ", 1)[1] if message.startswith("Parser error") and ": " in message else message


def _parses(text: str, rdf_format: ox.RdfFormat) -> bool:
    try:
        for _ in ox.parse(text, format=rdf_format, base_iri="file:///"):
            pass
    except SyntaxError:
        return False
    return True


def _long_line(text: str | None) -> int | None:
    """The first line long enough to hold a token the parser cannot (None when not known)."""
    if text is None:
        return None
    return next((number for number, line in enumerate(text.split("\n"), 1) if len(line) > _MAX_TOKEN), None)


class _Content(io.RawIOBase):
    """A file's content as the parser reads it: gunzipped, counted for progress, and refused
    past the limits."""

    def __init__(self, path: str, limits: Limits, progress: Progress | None, data: bytes | None = None) -> None:
        self.path, self._limits, self._progress, self._data = path, limits, progress, data
        try:
            if data is not None:
                self.size, self._file = len(data), io.BytesIO(data)
            elif path == STDIN:
                self.size, self._file = 0, os.fdopen(os.dup(sys.stdin.fileno()), "rb")
            else:
                self._file = open_regular(path)  # (a FIFO would block, a device never end)
                self.size = os.fstat(self._file.fileno()).st_size  # on disk (compressed, for .gz)
        except OSError as exc:
            raise InputError(path, f"cannot read: {exc.strerror or exc}") from None
        self._gzip = None
        if path.lower().endswith(".gz"):
            import gzip  # (for .gz files only: an import other runs do without)

            self._gzip = gzip.GzipFile(fileobj=self._file)
        self.read_bytes = self._told = 0
        if limits.max_size is not None and self._gzip is None and self.size > limits.max_size:
            self.close()
            raise InputError(path, f"{_size(self.size)}, more than --max-size {_size(limits.max_size)}")

    def readable(self) -> bool:
        return True

    def read_up_to(self, size: int) -> bytes:
        """The next ``size`` bytes, fewer only at the end of the file (read in pieces, so that a
        small file costs no large buffer)."""
        pieces, count = [], 0
        piece = min(size, self.size + 1) if self._gzip is None and self.size else 1024 * 1024
        while count < size and (data := self.read(min(piece, size - count))):
            pieces.append(data)
            count += len(data)
            piece = min(piece * 2, 16 * 1024 * 1024)
        return b"".join(pieces)

    def expanded_size(self) -> int:
        """The file's size once gunzipped: for a .gz file, what its trailer says (modulo 4 GiB)."""
        if self._gzip is None or self.size < 4:
            return self.size or self.read_bytes
        if self._data is not None:
            return int.from_bytes(self._data[-4:], "little")
        with open(self.path, "rb") as raw:
            raw.seek(-4, os.SEEK_END)
            return int.from_bytes(raw.read(4), "little")

    def readinto(self, buffer) -> int:
        try:
            count = (self._gzip or self._file).readinto(buffer)
        except (OSError, EOFError, zlib.error) as exc:
            raise InputError(self.path, self._read_failure(exc)) from None
        self.read_bytes += count
        if self._gzip is not None:
            self._check_growth()
        if self._progress is not None and (self.read_bytes - self._told >= _PROGRESS_STEP or count == 0):
            self._told = self.read_bytes
            self._progress(min(self._file.tell(), self.size), self.size)
        return count

    def _read_failure(self, exc: Exception) -> str:
        """Why reading failed, in plain words (Python's gzip and zlib wording means little to a user)."""
        if self._gzip is None:
            return f"cannot read: {getattr(exc, 'strerror', None) or exc}"
        if not self._starts_as_gzip():
            return "named .gz but not gzip data"
        if isinstance(exc, EOFError):
            return "truncated gzip data (it ends before its end marker)"
        import gzip  # (imported already, by the GzipFile that failed)

        if isinstance(exc, gzip.BadGzipFile) and "gzipped" in str(exc):
            return "corrupt gzip data: something that is not gzip follows it"
        if isinstance(exc, zlib.error):
            return "corrupt gzip data: it cannot be decompressed"
        return "corrupt gzip data: its checksum or length does not match its content"

    def _starts_as_gzip(self) -> bool:
        if self._data is not None:
            return self._data.startswith(_GZIP_MAGIC)
        with open(self.path, "rb") as raw:
            return raw.read(2) == _GZIP_MAGIC

    def _check_growth(self) -> None:
        limits = self._limits
        if limits.max_size is not None:
            if self.read_bytes > limits.max_size:
                raise InputError(self.path, f"expands to more than --max-size {_size(limits.max_size)}")
        elif self.read_bytes > limits.bomb_after and self.read_bytes > limits.bomb_ratio * self._file.tell():
            raise InputError(
                self.path,
                f"expands more than {limits.bomb_ratio} times (a decompression bomb?): "
                "give --max-size to read it up to that size",
            )

    def close(self) -> None:
        if self._gzip is not None:
            self._gzip.close()
        self._file.close()
        super().close()


class _Prefixed(io.RawIOBase):
    """What was read to look at the file, then the rest of it."""

    def __init__(self, head: bytes, rest: io.RawIOBase) -> None:
        self._head = memoryview(head)
        self._rest = rest

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        if self._head:
            size = min(len(buffer), len(self._head))
            buffer[:size] = self._head[:size]
            self._head = self._head[size:]
            return size
        return self._rest.readinto(buffer)


# Byte-order marks of encodings that are not UTF-8, which RDF text formats require.
_BOMS = {b"\xff\xfe\x00\x00": "UTF-32", b"\x00\x00\xfe\xff": "UTF-32", b"\xff\xfe": "UTF-16", b"\xfe\xff": "UTF-16"}


def _check_start(path: str, data: bytes) -> None:
    """What the start of a file tells: UTF-16 or UTF-32 text (RDF text is mostly ASCII, which those
    encodings write with NUL bytes), or not text at all."""
    start = data[:4096]
    if start.count(b"\x00") * 4 <= len(start):
        return  # a stray NUL is located when the text is decoded
    encoding = next((name for bom, name in _BOMS.items() if start.startswith(bom)), None)
    if encoding is None and _is_utf16(start):
        encoding = "UTF-16"
    if encoding is not None:
        raise InputError(path, f"{encoding} text: RDF files must be UTF-8 (convert it, e.g. with iconv)")
    raise InputError(path, _binary(start))


# What the first bytes of a binary file say it is, and how to read it then
_ARCHIVES = (
    (_GZIP_MAGIC, "gzip data in a file whose name does not end in .gz: name it so (FILE.ttl.gz), or gunzip it"),
    (b"PK\x03\x04", "a zip archive: unzip it and give its RDF files"),
    (b"BZh", "bzip2 data: decompress it (bunzip2), or gzip it and name it .gz"),
    (b"\xfd7zXZ\x00", "xz data: decompress it (unxz), or gzip it and name it .gz"),
    (b"\x28\xb5\x2f\xfd", "zstd data: decompress it (unzstd), or gzip it and name it .gz"),
)


def _binary(start: bytes) -> str:
    what = next((says for magic, says in _ARCHIVES if start.startswith(magic)), None)
    return f"binary file, not RDF text: {what}" if what else "binary file, not RDF text"


def _is_utf16(data: bytes) -> bool:
    for codec in ("utf-16-le", "utf-16-be"):
        try:
            sample = data[: len(data) // 2 * 2].decode(codec)
        except UnicodeDecodeError:
            continue
        if sum(ch.isprintable() or ch in "\n\r\t" for ch in sample) > 0.95 * len(sample):
            return True
    return False


def _decode(path: str, data: bytes) -> str:
    """A whole file's text: not empty, UTF-8 (the only encoding of RDF text formats), no NUL."""
    if not data.strip():
        raise InputError(path, "empty file: no RDF triples")
    _check_start(path, data)
    nul = data.find(b"\x00")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        if nul >= 0:
            raise InputError(path, _binary(data[:16])) from None
        raise _not_utf8(path, data, exc.start) from None
    if nul >= 0:
        raise InputError(path, "a NUL character (byte 0x00), which RDF text cannot hold", *_position(data, nul))
    return text.removeprefix("\ufeff")


def _not_utf8(path: str, data: bytes, offset: int, first_line: int = 1) -> InputError:
    """The error for a byte that is not UTF-8, in ``data`` that starts on ``first_line`` (at its
    start, unless it is the first: the column is then told only from the next line on)."""
    line, column = _position(data, offset)
    known = first_line == 1 or line > 1
    message = f"not UTF-8 (byte 0x{data[offset]:02x}); RDF files must be UTF-8"
    return InputError(path, message, first_line + line - 1, column if known else None)


def _position(data: bytes | str, offset: int) -> tuple[int, int]:
    """(line, column) of an offset in a file's bytes or text."""
    newline = b"\n" if isinstance(data, bytes) else "\n"
    return data.count(newline, 0, offset) + 1, offset - (data.rfind(newline, 0, offset) + 1) + 1


def _size(count: float) -> str:
    for unit in ("bytes", "KiB", "MiB"):
        if count < 1024:
            return f"{count:.0f} {unit}" if unit == "bytes" else f"{count:.1f} {unit}"
        count /= 1024
    return f"{count:.1f} GiB"


# On-disk stores live in temporary folders named with the process that made them: removed when
# the KB is closed or the process exits (TemporaryDirectory's finalizer), and, after a process
# killed outright, by the next run.
_DISK_PREFIX = "aifcheck-store-"


def _disk_folder() -> TemporaryDirectory:
    import tempfile  # only for the few files on disk (with random, an import other runs do without)

    _sweep_stale_folders()
    return tempfile.TemporaryDirectory(prefix=f"{_DISK_PREFIX}{os.getpid()}-", ignore_cleanup_errors=True)


def _sweep_stale_folders() -> None:
    import tempfile

    for folder in Path(tempfile.gettempdir()).glob(f"{_DISK_PREFIX}*"):
        pid = folder.name.removeprefix(_DISK_PREFIX).split("-", 1)[0]
        if pid.isdigit() and not alive(int(pid)):
            shutil.rmtree(folder, ignore_errors=True)
