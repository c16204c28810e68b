"""Line marks taken from Turtle text: how aifcheck learns where each node is.

pyoxigraph's parser does not report positions, so a Turtle-family file's text is marked as it is
parsed (aifcheck.kb, aifcheck.lines): one regular-expression pass finds the statements (skipping
strings, IRIs and comments) and writes, for each, a Turtle statement giving its subject's line,
``subject <urn:aifcheck:line> N .``, into a text of marks of its own. The marks text repeats the
file's prefix and base declarations where the file makes them, so that pyoxigraph reads each
subject as the file's parser does; it is parsed only when a line is asked for (aifcheck.lines), so
that a file without findings never parses it, and the rule queries never see it. A ``[ ]`` blank
node has no name to give there, so each one is rewritten as a labelled blank node whose properties
become a statement of their own (the triples are the same).

The text is rewritten block by block (each block repeats the prefixes seen before it), so that a
file of any size streams through the parser.

Braces have no place in Turtle outside strings, IRIs and comments, so marking stops at the first one
and says so (MarkedStream.braces); the file is then parsed as written, which judges it.
"""

from __future__ import annotations

import io
import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

LINE = "<urn:aifcheck:line>"  # the predicate of the marks
BLOCK_CHARS = 4 * 1024 * 1024  # text marked at a time
# A block is cut only at a statement that ends this far before the block's end, so that a string
# cut in two by the block boundary (and the "." inside it) cannot be taken for a statement end.
_CUT_MARGIN = 1024 * 1024

# A statement's text up to its next "[" or its final ".", matched by one call in C: strings,
# IRIs and comments (which may hide a "." or a "[") are skipped whole, and a "." ends the
# statement only when a space, a comment or the end of the text follows it.
_BODY = re.compile(
    r"""(?:[^"'<#\[\].{}]+"""
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
_SUBJECT = re.compile(r"<[^>\s]*>|[^\s<\"\[(;,#]+")  # (a "#" starts a comment: it ends a name)


@dataclass
class _MarkState:
    """What marking carries from one block to the next."""

    line: int = 1  # the line of the block's first character
    directives: list[str] = field(default_factory=list)  # prefix and base declarations seen so far
    labels: int = 0  # blank node labels given to "[ ]" lists so far
    marks: list[str] = field(default_factory=list)  # the marks text, a piece per block
    braces: bool = False  # whether a "{" or "}" was met outside strings, IRIs and comments
    # a random part keeps the labels apart from the file's own (os.urandom: the secrets module
    # would add an import to every run)
    label_prefix: str = field(default_factory=lambda: f"_:aifc{os.urandom(6).hex()}n")

    def new_label(self) -> str:
        self.labels += 1
        return f"{self.label_prefix}{self.labels}"


def mark_lines(text: str) -> tuple[str, str]:
    """The text as it is parsed (its ``[ ]`` nodes labelled), and its marks: a line triple for every
    statement subject and every ``[``."""
    state = _MarkState()
    rewritten = "".join(marked_blocks([text], state))
    return rewritten, "".join(state.marks)


def marked_blocks(chunks: Iterable[str], state: _MarkState | None = None) -> Iterator[str]:
    """The rewritten text of consecutive chunks, cut into blocks that each parse on their own (the
    marks go to ``state.marks``)."""
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
    """Mark the statements of ``text`` from ``start`` that end by ``limit``: (rewritten text, where
    the marked statements end). Their marks are added to ``state.marks``."""
    pieces: list[str] = []
    marks: list[str] = []
    kept = start  # text[start:kept] is already in pieces
    lines = _LineCounter(text, state.line, start)
    position = _statement_start(text, start)
    used = position
    while position < len(text):
        directive = _SPARQL_DIRECTIVE.match(text, position) if text[position] in "PpBb" else None
        if directive:  # SPARQL-style PREFIX and BASE have no final "."
            state.directives.append(directive[0] + "\n")
            marks.append(directive[0] + "\n")
            position = used = _statement_start(text, directive.end())
            continue
        subject, body = _subject(text, position, state)
        subject_mark = _line_triple(subject, lines.at(position)) if subject else ""
        end, lists = _statement_end(text, body, state, lines)
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
        pieces.append("\n")
        marks.append(subject_mark)
        if lists is not None:
            pieces += lists.extracted
            marks += lists.marks
        if text[position] == "@":
            state.directives.append(text[position:end] + "\n")
            marks.append(text[position:end] + "\n")
        kept = end
        position = used = _statement_start(text, end)
    pieces.append(text[kept:used])
    state.marks.append("".join(marks))
    state.line += text.count("\n", start, used)
    return "".join(pieces), used


def _subject(text: str, position: int, state: _MarkState) -> tuple[str | None, int]:
    """The subject of the statement at ``position`` as its mark names it (None for a directive, or a
    subject that is a list or a collection) and where the rest of the statement starts. A blank
    subject ("[] a rdf:Statement ; ...") is given a label, which replaces its "[]"."""
    if text.startswith("[]", position):
        return state.new_label(), position + 2
    if text[position] in "@[(":
        return None, position
    subject = _SUBJECT.match(text, position)
    return (subject[0] if subject else None), position


def _statement_end(text: str, body: int, state: _MarkState, lines: _LineCounter) -> tuple[int | None, _Lists | None]:
    """Where the statement whose text goes on at ``body`` ends (after its final "."; None when
    ``text`` ends first), and its "[ ]" lists (None when it has none), each "[" labelled and marked."""
    lists = None
    scan = _BODY.match(text, body).end()
    while scan < len(text):
        char = text[scan]
        if char == ".":
            return scan + 1, lists
        if char in "{}":
            state.braces = True
        elif char == "[":
            lists = lists or _Lists(text, body)
            lists.open(scan, state.new_label(), lines.at(scan))
        elif char == "]" and lists and lists.opened:
            lists.close(scan)
        # after a "[" or "]", or a quote or "<" that opens nothing (the parser will judge it)
        scan = _BODY.match(text, scan + 1).end()
    return None, lists


class _LineCounter:
    """The line of an offset of a text, counted on from the offset asked before (offsets are asked
    in increasing order, so that each newline is counted once)."""

    __slots__ = ("counted", "line", "text")

    def __init__(self, text: str, line: int, offset: int) -> None:
        self.text = text
        self.line = line  # the line of offset `counted`
        self.counted = offset

    def at(self, offset: int) -> int:
        self.line += self.text.count("\n", self.counted, offset)
        self.counted = offset
        return self.line


class _Lists:
    """A statement's blank node property lists, each rewritten as a statement of its own about a
    labelled blank node: "s p [ q o ] ." becomes "s p _:n . _:n q o ." so that the line triple of the
    node can be marked."""

    def __init__(self, text: str, start: int) -> None:
        self.text = text
        self.starts_with_list = text.startswith("[", start)
        self.levels: list[list[str]] = [[]]  # the rewritten text, one list per open "[" (innermost last)
        self.opened: list[str] = []  # the label of each open "["
        self.copied = start  # the text up to here is in levels
        self.extracted: list[str] = []  # the lists' statements
        self.marks: list[str] = []  # their line triples

    def open(self, offset: int, label: str, line: int) -> None:
        self.levels[-1] += (self.text[self.copied : offset], f" {label} ")
        self.levels.append([])
        self.opened.append(label)
        self.copied = offset + 1
        self.marks.append(_line_triple(label, line))

    def close(self, offset: int) -> None:
        self.levels[-1].append(self.text[self.copied : offset])
        self.copied = offset + 1
        content = "".join(self.levels.pop())
        if content.strip():
            self.extracted.append(f"{self.opened[-1]} {content} .\n")
        self.opened.pop()

    def statement(self, end: int) -> str:
        """The rewritten statement (nothing when it was a list alone)."""
        self.levels[0].append(self.text[self.copied : end])
        statement = "".join(self.levels[0])
        if self.starts_with_list and len(statement.split()) == 2:
            first = statement.split()[0] + " "
            if any(extracted.startswith(first) for extracted in self.extracted):
                return ""  # "[ q o ] ." (but "[] ." stays an error)
        return statement


def _line_triple(node: str, line: int) -> str:
    """A Turtle statement giving ``node``'s line."""
    return f"{node} {LINE} {line} .\n"


def _statement_start(text: str, offset: int) -> int:
    return _SPACE.match(text, offset).end()


class MarkedStream(io.RawIOBase):
    """The rewritten text of consecutive chunks as one binary stream, for pyoxigraph's parser, and
    (once read to its end) their ``marks``. It ends early once a brace is met (``braces``): the
    marks cannot be trusted then."""

    def __init__(self, chunks: Iterable[str]) -> None:
        self._state = _MarkState()
        self._blocks = (block.encode("utf-8") for block in marked_blocks(chunks, self._state))
        self._data = memoryview(b"")

    @property
    def braces(self) -> bool:
        return self._state.braces

    @property
    def marks(self) -> str:
        return "".join(self._state.marks)

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        while not self._data:
            block = next(self._blocks, None)
            if block is None or self._state.braces:
                return 0
            self._data = memoryview(block)
        size = min(len(buffer), len(self._data))
        buffer[:size] = self._data[:size]
        self._data = self._data[size:]
        return size
