"""Errors that reach the user as one located line, never as a traceback."""

from __future__ import annotations

import codecs
import enum


class ExitStatus(enum.IntEnum):
    """Process exit codes of every command (README's table). Violations, or rows NIST's stages
    dropped (1), win over unreadable input (3)."""

    VALID = 0
    VIOLATIONS = 1
    USAGE = 2
    UNREADABLE = 3


class AifcheckError(Exception):
    """Base of every error aifcheck reports to its user: one line, whatever it quotes (a value
    taken from a file may hold line breaks, or be megabytes long)."""

    def __str__(self) -> str:
        return cut(printable(super().__str__()))


class UsageError(AifcheckError):
    """Bad options or arguments: unknown profile, rule ID, format, missing path (exit 2)."""


class OutputError(AifcheckError):
    """A place aifcheck cannot write its output to (exit 3)."""


class InputError(AifcheckError):
    """A file that cannot be read as RDF (exit 3).

    Rendered as ``FILE:LINE:COL: message`` with the position parts left out when unknown, and
    control characters escaped: the message often quotes the file, which must not forge lines.
    """

    def __init__(self, path: str, message: str, line: int | None = None, column: int | None = None):
        super().__init__(message)
        self.path = path
        self.message = message
        self.line = line
        self.column = column

    def __reduce__(self):  # as it travels back from a worker process, whole
        return (type(self), (self.path, self.message, self.line, self.column))

    def __str__(self) -> str:
        where = self.path
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        return f"{printable(where)}: {cut(printable(self.message))}"


def printable(text: str) -> str:
    """Control and line-break characters (ESC, CR, LF, U+2028...) shown as escapes, so that text
    taken from a file stays one clean line and cannot drive a terminal; a byte of a file name that
    is not UTF-8 shown as ``\\xff``."""
    if text.isprintable():  # nearly always: skip the walk character by character
        return text
    return "".join(ch if ch.isprintable() else _escaped(ch) for ch in text)


def _escaped(ch: str) -> str:
    code = ord(ch)
    if 0xDC80 <= code <= 0xDCFF:  # a byte that is not UTF-8, as Python holds it (surrogateescape)
        return f"\\x{code - 0xDC00:02x}"
    return f"\\x{code:02x}" if code < 256 else f"\\u{code:04x}"


LONGEST = 1000  # characters of a message shown: a 50 MB cell quoted in an error is cut to this


def cut(text: str, longest: int = LONGEST) -> str:
    """``text``, its middle cut when it is longer than ``longest`` (both ends kept: the start
    says where, the end often says what is wrong)."""
    if len(text) <= longest:
        return text
    keep = (longest - 40) // 2
    return f"{text[:keep]}... [{len(text) - 2 * keep} characters cut] ...{text[-keep:]}"


def _escape(exc: UnicodeError) -> tuple[str, int]:
    """A character UTF-8 cannot encode (a lone surrogate), escaped as printable does."""
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    return "".join(_escaped(ch) for ch in exc.object[exc.start : exc.end]), exc.end


ESCAPE = "aifcheck.escape"  # the error handler of every text aifcheck writes (files, standard output)
codecs.register_error(ESCAPE, _escape)
