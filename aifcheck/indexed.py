"""One file parsed straight into pyoxigraph, with the line each node starts on: the fast load path.

pyoxigraph's parser does not report positions, so the text is marked before it is parsed: one
regular-expression pass finds the statements (skipping strings, IRIs and comments), and after each
statement adds a TriG statement giving its subject's line in a named graph of its own,
``<urn:aifcheck:lines> { subject <urn:aifcheck:line> N }``. A ``[ ]`` blank node has no name to
give there, so each one is rewritten as a labelled blank node whose properties become a statement
of their own (the triples are the same). The rules query the default graph and never see the
line triples; a node's line is one look-up in their graph. No rdflib Graph is built and no per-node
index is held in Python, so memory stays with the store.

The marked text is loaded by pyoxigraph in one call (no Python object per triple) from a stream
of blocks, each repeating the prefixes seen before it, marked as the parser asks for them. Above
``PARALLEL_BYTES`` a forked child marks the blocks while this process parses them: marking is
Python and parsing Rust, so on two cores they overlap. Above ``DISK_BYTES`` the store lives on
disk in a temporary folder and is filled by pyoxigraph's bulk loader.

A node that is never a subject (nor a ``[`` blank node) takes the line of the first statement
that mentions it as an object. Files this path cannot read (syntax errors) go through the rdflib
loader, whose messages are located to the column.
"""
from __future__ import annotations

import gzip
import io
import multiprocessing
import os
import queue
import re
import secrets
import shutil
import signal
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from urllib.parse import urljoin

import pyoxigraph as ox
from rdflib.term import BNode, Node, URIRef

from .errors import InputError
from .parsing import read_text

LINE = ox.NamedNode("urn:aifcheck:line")
LINES_GRAPH = ox.NamedNode("urn:aifcheck:lines")
BLOCK_CHARS = 4 * 1024 * 1024  # text marked at a time
STREAM_BYTES = 64 * 1024 * 1024  # larger files are streamed instead of read whole
PARALLEL_BYTES = 8 * 1024 * 1024  # larger files are marked in a child process (fork costs ~10 ms)
_AHEAD = 4  # blocks the marking child may have marked before the parser reads them
DISK_BYTES = 160 * 1024 * 1024  # larger files (about 4M triples and up) get an on-disk store: in memory, 1M triples take 0.8 GB
# A block is cut only at a statement that ends this far before the block's end, so that a string
# cut in two by the block boundary (and the "." inside it) cannot be taken for a statement end.
_CUT_MARGIN = 1024 * 1024

# A statement's text up to its next "[" or its final ".", matched by one call in C: strings,
# IRIs and comments (which may hide a "." or a "[") are skipped whole, and a "." ends the
# statement only when a space, a comment or the end of the text follows it.
_BODY = re.compile(
    r"""(?:[^"'<#\[\]{}.]+"""
    r'|"""(?:[^"\\]|\\.|"(?!""))*"""'
    r"|'''(?:[^'\\]|\\.|'(?!''))*'''"
    r'|"(?:[^"\\\n]|\\.)*"'
    r"|'(?:[^'\\\n]|\\.)*'"
    r"|<[^>\s]*>"
    r"|#[^\n]*"
    r"|\.(?![\s#]|\Z))*"
)
_SPACE = re.compile(r"(?:\s|#[^\n]*)*")
_SPARQL_DIRECTIVE = re.compile(r"(?i:PREFIX\s+[^\s:]*:\s*<[^>]*>|BASE\s*<[^>]*>)")
_PREFIX_DECLARATION = re.compile(r"(?i:@?PREFIX)\s+([^\s:]*):\s*<([^>]*)>")
_SUBJECT = re.compile(r"<[^>\s]*>|[^\s<\"\[(;,]+")

Progress = Callable[[int, int], None]  # (bytes read, file size)


@dataclass
class _MarkState:
    """What marking carries from one block to the next."""

    line: int = 1  # the line of the block's first character
    directives: list[str] = field(default_factory=list)  # prefix and base declarations seen so far
    braces: bool = False  # a "{" or "}" outside strings: not Turtle
    labels: int = 0  # blank node labels given to "[ ]" lists so far
    # a random part keeps the labels apart from the file's own
    label_prefix: str = field(default_factory=lambda: f"_:aifc{secrets.token_hex(6)}n")

    def new_label(self) -> str:
        self.labels += 1
        return f"{self.label_prefix}{self.labels}"


def mark_lines(text: str) -> str:
    """The text with a line triple on every statement subject and every ``[``."""
    return "".join(marked_blocks([text]))


def marked_blocks(chunks: Iterable[str], state: _MarkState | None = None) -> Iterator[str]:
    """The marked text of consecutive chunks, cut into blocks that each parse on their own."""
    state = state if state is not None else _MarkState()
    buffer, start = "", 0  # buffer[start:] is still to be marked
    for chunk in chunks:
        buffer = buffer[start:] + chunk
        start = 0
        while len(buffer) - _CUT_MARGIN >= start + BLOCK_CHARS:
            prelude = "".join(state.directives)
            marked, used = _mark(buffer, start, start + BLOCK_CHARS, state)
            if used == start:  # a first statement longer than a block
                marked, used = _mark(buffer, start, len(buffer) - _CUT_MARGIN, state)
                if used == start:
                    break  # still longer than the buffer: read on
            yield prelude + marked
            start = used
    prelude = "".join(state.directives)
    yield prelude + _mark(buffer, start, len(buffer), state)[0]


def _mark(text: str, start: int, limit: int, state: _MarkState) -> tuple[str, int]:
    """Mark the statements of ``text`` from ``start`` that end by ``limit``: (marked text, where
    the marked statements end)."""
    pieces: list[str] = []
    kept = start  # text[start:kept] is already in pieces
    line, counted = state.line, start  # `line` is the line of offset `counted`
    position = _statement_start(text, start)
    used = position
    while position < len(text):
        directive = _SPARQL_DIRECTIVE.match(text, position) if text[position] in "PpBb" else None
        if directive:  # SPARQL-style PREFIX and BASE have no final "."
            state.directives.append(directive[0] + "\n")
            position = used = _statement_start(text, directive.end())
            continue
        body = position  # where the statement's text is kept as written, or rewritten
        if text.startswith("[]", position):  # a blank subject ("[] a rdf:Statement ; ..."): named
            subject, body = state.new_label(), position + 2
        else:
            subject = None if text[position] in "@[(" else _SUBJECT.match(text, position)
            subject = subject and subject[0]
        if subject:
            line += text.count("\n", counted, position)
            counted = position
            subject_line = line
        lists = None  # the statement's "[ ]" lists, when it has some
        end = None
        scan = _BODY.match(text, body).end()
        while scan < len(text):
            char = text[scan]
            if char == ".":
                end = scan + 1
                break
            if char == "[":
                line += text.count("\n", counted, scan)
                counted = scan
                lists = lists or _Lists(text, body)
                lists.open(scan, state.new_label(), line)
            elif char == "]" and lists and lists.opened:
                lists.close(scan)
            elif char in "{}":  # TriG's graph blocks, which the parser (reading TriG) would accept
                state.braces = True
            # after a "[" or "]", or a quote or "<" that opens nothing (the parser will judge it)
            scan = _BODY.match(text, scan + 1).end()
        terminated = end is not None
        if end is None and limit == len(text):
            end = len(text)  # unterminated last statement: the parser will say what is wrong
        if end is None or end > limit:
            break
        if body != position:
            pieces += (text[kept:position], subject, " ")  # "[]a" is "[] a"
            kept = body
        if lists is None or lists.opened or not terminated:  # (unbalanced: left for the parser to report)
            pieces.append(text[kept:end])
        else:
            pieces += (text[kept:body], lists.statement(end))
        if subject:
            pieces.append(" " + _line_triple(subject, subject_line))
        pieces.append("\n")
        if lists is not None:
            pieces += lists.extracted
        if text[position] == "@":
            state.directives.append(text[position:end] + "\n")
        kept = end
        position = used = _statement_start(text, end)
    pieces.append(text[kept:used])
    state.line += text.count("\n", start, used)
    return "".join(pieces), used


class _Lists:
    """A statement's blank node property lists, each rewritten as a statement of its own about a
    labelled blank node: "s p [ q o ] ." becomes "s p _:n . _:n q o ." so that the line triple of the
    node can go straight to the lines graph."""

    def __init__(self, text: str, start: int) -> None:
        self.text = text
        self.starts_with_list = text.startswith("[", start)
        self.levels: list[list[str]] = [[]]  # the rewritten text, one list per open "[" (innermost last)
        self.opened: list[str] = []  # the label of each open "["
        self.copied = start  # the text up to here is in levels
        self.extracted: list[str] = []  # the lists' statements and line triples

    def open(self, offset: int, label: str, line: int) -> None:
        self.levels[-1] += (self.text[self.copied:offset], f" {label} ")
        self.levels.append([])
        self.opened.append(label)
        self.copied = offset + 1
        self.extracted.append(_line_triple(label, line) + "\n")

    def close(self, offset: int) -> None:
        self.levels[-1].append(self.text[self.copied:offset])
        self.copied = offset + 1
        content = "".join(self.levels.pop())
        if content.strip():
            self.extracted.append(f"{self.opened[-1]} {content} .\n")
        self.opened.pop()

    def statement(self, end: int) -> str:
        """The rewritten statement (nothing when it was a list alone)."""
        self.levels[0].append(self.text[self.copied:end])
        statement = "".join(self.levels[0])
        if self.starts_with_list and len(statement.split()) == 2:
            first = statement.split()[0] + " "
            if any(extracted.startswith(first) for extracted in self.extracted):
                return ""  # "[ q o ] ." (but "[] ." stays an error)
        return statement


def _line_triple(node: str, line: int) -> str:
    """A TriG statement putting ``node``'s line in the lines graph."""
    return f"{LINES_GRAPH} {{ {node} {LINE} {line} }}"


def _statement_start(text: str, offset: int) -> int:
    return _SPACE.match(text, offset).end()


@dataclass
class IndexedStore:
    """One parsed file: its triples in a pyoxigraph store, the line triples beside them."""

    path: str
    store: ox.Store
    prefixes: dict[str, str] = field(default_factory=dict)  # as declared; only known when located
    located: bool = True  # False: loaded without its line triples, so line_of cannot answer
    _lines: dict[Node, int | None] = field(default_factory=dict, repr=False)
    _folder: str | None = field(default=None, repr=False)  # the on-disk store's temporary folder

    def __len__(self) -> int:
        return self.triples

    @cached_property
    def triples(self) -> int:
        """The file's own triples (the line triples are not counted)."""
        if not self.located:
            return len(self.store)
        marks = next(iter(self.store.query(f"SELECT (COUNT(*) AS ?n) WHERE {{ GRAPH {LINES_GRAPH} {{ ?s ?p ?o }} }}")))
        return len(self.store) - int(marks["n"].value)

    def line_of(self, node: Node | None) -> int | None:
        if node is None:
            return None
        if node not in self._lines:
            self._lines[node] = self._find_line(node)
        return self._lines[node]

    def _find_line(self, node: Node) -> int | None:
        term = _ox_term(node)
        if term is None:
            return None
        own = self._own_line(term)
        if own is not None:
            return own
        mentions = (self._own_line(q.subject) for q in self.store.quads_for_pattern(None, None, term, ox.DefaultGraph()))
        return min((line for line in mentions if line is not None), default=None)

    def _own_line(self, term) -> int | None:
        lines = [int(q.object.value) for q in self.store.quads_for_pattern(term, LINE, None, LINES_GRAPH)]
        return min(lines, default=None)

    def close(self) -> None:
        """Drop the store (and delete it, when it is on disk)."""
        del self.store
        if self._folder is not None:
            shutil.rmtree(self._folder, ignore_errors=True)


def _ox_term(node: Node):
    if isinstance(node, URIRef):
        return ox.NamedNode(str(node))
    if isinstance(node, BNode):
        return ox.BlankNode(str(node))
    return None


def _chunks(path: str, size: int, progress: Progress | None) -> Iterator[str]:
    """The file's text: read whole (with read_text's checks) when small, else streamed. Handed on
    in blocks when progress is asked for, so that it follows the parser (blocks cost 4% at 1M)."""
    if size <= STREAM_BYTES:
        text = read_text(path)
        step = BLOCK_CHARS if progress is not None else len(text)
        for start in range(0, len(text), step):
            yield text[start : start + step]
            if progress is not None:
                progress(size * min(start + step, len(text)) // len(text), size)
        return
    opener = gzip.open if path.lower().endswith(".gz") else open
    read = 0
    try:
        with opener(path, "rb") as raw:
            while data := raw.read(BLOCK_CHARS):
                read += len(data)
                while data[-1] & 0xC0 == 0x80 and (more := raw.read(1)):  # end on a whole UTF-8 character
                    data += more
                yield data.decode("utf-8")
                if progress is not None:
                    progress(min(read, size), size)
    except UnicodeDecodeError as exc:
        raise InputError(path, f"not UTF-8 (byte 0x{exc.object[exc.start]:02x} near byte {read - len(exc.object) + exc.start})") from None
    except (OSError, EOFError) as exc:
        raise InputError(path, f"cannot read: {exc}") from None


def load_indexed(path: str | os.PathLike, progress: Progress | None = None, lines: bool = True) -> IndexedStore | None:
    """Parse one file into a store with its line index; None when the rdflib loader must say why
    it cannot be parsed. Raises InputError for files that cannot be read at all.

    ``lines=False`` lets a file of up to ``PARALLEL_BYTES`` be loaded as it is, without its line
    triples (``located`` False): marking is 40% of such a file's load. Larger files are
    marked by a child while they are parsed, which costs little, and always have their lines."""
    path = str(path)
    try:
        size = os.path.getsize(path)
    except OSError:
        size = 0  # read_text reports it
    folder = tempfile.mkdtemp(prefix="aifcheck-store-") if size > DISK_BYTES else None
    store = ox.Store(folder) if folder else ox.Store()
    base = Path(path).resolve().as_uri()
    if size > PARALLEL_BYTES and _can_fork():
        marking: _Marking | _MarkingChild = _MarkingChild(path, size, progress)
    else:
        marking = _Marking(path, size, progress, lines or size > PARALLEL_BYTES)
    loaded = None
    try:
        try:
            _fill(store, marking, base, on_disk=folder is not None)
        finally:
            state = marking.finish()  # raises the InputError that cut the text short, if any
        if state.braces:
            raise SyntaxError("not Turtle")
        loaded = IndexedStore(path, store, _declared_prefixes(state.directives, base), marking.lines, _folder=folder)
        if loaded.triples == 0:
            raise InputError(path, "no RDF triples in file")
    except SyntaxError:
        loaded = None  # the rdflib loader locates the error
    finally:
        if loaded is None or loaded.triples == 0:
            del store
            if folder:
                shutil.rmtree(folder, ignore_errors=True)
    return loaded


def _fill(store: ox.Store, marking: _Marking | _MarkingChild, base: str, on_disk: bool) -> None:
    """Load all blocks in one call, in Rust: one call, so that a blank node label keeps one
    meaning across blocks (pyoxigraph renames labels per call)."""
    if not on_disk:
        store.load(_BlockReader(marking.blocks()), format=marking.format, base_iri=base)
        return
    store.bulk_load(_BlockReader(marking.blocks()), format=marking.format, base_iri=base)
    # the bulk loader leaves many small sorted files; compacting them makes the rule queries
    # faster on disk (1M triples: 34 s instead of 48 s; 10M: 306 s instead of 343 s, for 14 s)
    store.optimize()


class _Marking:
    """The blocks of a file, marked here as the parser asks for them; or, without ``lines``, its
    text as it is, parsed as Turtle (which, unlike TriG, refuses braces)."""

    def __init__(self, path: str, size: int, progress: Progress | None, lines: bool = True) -> None:
        self.state = _MarkState()
        self.lines = lines
        self.format = ox.RdfFormat.TRIG if lines else ox.RdfFormat.TURTLE  # line triples are TriG statements
        chunks = _chunks(path, size, progress)
        self._blocks = marked_blocks(chunks, self.state) if lines else chunks

    def blocks(self) -> Iterator[bytes]:
        return (block.encode("utf-8") for block in self._blocks)

    def finish(self) -> _MarkState:
        return self.state


def _can_fork() -> bool:
    """Whether this process runs a single thread, counting those Python does not know of (an
    on-disk store's): forking a process that runs others can copy a lock in a held state."""
    for _ in range(5):  # the previous file's query threads may take a few ms to exit
        try:
            if len(os.listdir("/proc/self/task")) == 1:
                return True
        except OSError:
            return False  # not Linux: files are marked in this process
        time.sleep(0.01)
    return False


class _MarkingChild:
    """The marked blocks of a file, marked by a forked child and sent through a pipe."""

    format = ox.RdfFormat.TRIG
    lines = True

    def __init__(self, path: str, size: int, progress: Progress | None) -> None:
        context = multiprocessing.get_context("fork")
        self._path, self._size, self._progress = path, size, progress
        self._read = 0
        # bytes of the file the child has read, for progress (when asked for)
        self._bytes_read = context.Value("q", 0, lock=False) if progress is not None else None
        self._outcome, outcome = context.Pipe(duplex=False)
        reader, writer = os.pipe()
        self._pipe = open(reader, "rb")
        self._child = context.Process(target=_mark_in_child, args=(path, size, (reader, writer), self._bytes_read, outcome), daemon=True)
        self._child.start()
        os.close(writer)
        outcome.close()

    def blocks(self) -> Iterator[bytes]:
        while data := self._pipe.read(1024 * 1024):
            if self._progress is not None and self._bytes_read.value > self._read:
                self._read = self._bytes_read.value
                self._progress(self._read, self._size)
            yield data

    def finish(self) -> _MarkState:
        self._pipe.close()  # a child still writing (the parser stopped early) gets a broken pipe
        try:
            kind, outcome = self._outcome.recv()
        except EOFError:
            kind, outcome = "error", "marking stopped unexpectedly"
        finally:
            self._outcome.close()
            self._child.join()
        if kind == "error":
            raise InputError(self._path, outcome)
        return outcome


def _mark_in_child(path: str, size: int, pipe: tuple[int, int], bytes_read, outcome) -> None:
    reader, writer = pipe
    os.close(reader)  # else the pipe would not break when the parent stops reading
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # on Ctrl-C the parent stops reading, which stops this
    state = _MarkState()
    # a thread writes, so that marking runs up to _AHEAD blocks ahead of the parser instead of
    # waiting for it to empty the pipe after each block
    ahead: queue.Queue[bytes | None] = queue.Queue(maxsize=_AHEAD)
    stopped = threading.Event()  # the parser stopped reading (a syntax error)
    sender = threading.Thread(target=_send_blocks, args=(writer, ahead, stopped), daemon=True)
    sender.start()

    def seen(done: int, _total: int) -> None:
        bytes_read.value = done

    try:
        try:
            for block in marked_blocks(_chunks(path, size, seen if bytes_read is not None else None), state):
                if stopped.is_set():
                    break
                ahead.put(block.encode("utf-8"))
        finally:  # the end of the text, also when reading failed: the parser sees it end
            ahead.put(None)
            sender.join()
        outcome.send(("state", state))
    except InputError as exc:
        outcome.send(("error", exc.message))
    except Exception as exc:  # noqa: BLE001 - the parent reports it as the file's error, not a traceback
        outcome.send(("error", f"cannot read: {exc}"))


def _send_blocks(writer: int, blocks: queue.Queue[bytes | None], stopped: threading.Event) -> None:
    try:
        with open(writer, "wb") as pipe:
            while (block := blocks.get()) is not None:
                pipe.write(block)
    except Exception:  # noqa: BLE001 - a broken pipe: tell the marker, take what it still puts until it stops
        stopped.set()
        while blocks.get() is not None:
            pass


class _BlockReader(io.RawIOBase):
    """The marked blocks as one binary stream, read as the parser asks for more."""

    def __init__(self, blocks: Iterator[bytes]) -> None:
        self._blocks = blocks
        self._data = memoryview(b"")

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        while not self._data:
            block = next(self._blocks, None)
            if block is None:
                return 0
            self._data = memoryview(block)
        size = min(len(buffer), len(self._data))
        buffer[:size] = self._data[:size]
        self._data = self._data[size:]
        return size


def _declared_prefixes(directives: list[str], base: str) -> dict[str, str]:
    return {m[1]: urljoin(base, m[2]) for d in directives if (m := _PREFIX_DECLARATION.match(d))}
