"""The hand-made hostile inputs of issue 21 (and of what the harness found since), each with the
outcome the README promises: an exit code, and a phrase of the one-line message."""

from __future__ import annotations

import gzip
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

HEAD = b"@prefix ex: <http://example.org/> .\n"
GOOD = HEAD + b'ex:a ex:b "fine" .\n'
MiB = 1024 * 1024


@dataclass(frozen=True)
class Hostile:
    """One hostile file: its name, how to write it, and what a run must say of it."""

    name: str  # the file name (its ending chooses the parser)
    write: Callable[[Path], None]  # writes the file at the given path
    exit_code: int | frozenset[int]  # validate's exit code on this file alone (a set: any of them)
    phrase: str = ""  # in the file's one-line message (when unreadable)

    def make(self, folder: Path) -> Path:
        path = folder / self.name
        self.write(path)
        return path


def _bytes(data: bytes) -> Callable[[Path], None]:
    return lambda path: path.write_bytes(data)


def _triple(obj: bytes) -> Callable[[Path], None]:
    return _bytes(HEAD + b"ex:a ex:b " + obj + b" .\n")


def write_long_literal(path: Path, size: int = 17 * MiB) -> None:
    """One literal of ``size`` bytes (the issue's: 17 MB, past pyoxigraph's 16 MiB buffer)."""
    with open(path, "wb") as out:
        out.write(HEAD + b'ex:a ex:b "')
        chunk = b"x" * MiB
        for _ in range(size // MiB):
            out.write(chunk)
        out.write(b'" .\n')


def bomb_block(period: int = 28_400) -> bytes:
    """400 distinct triples, about ``period`` bytes together. Repeated, they compress about 89 to 1
    under deflate's 32 KiB window (the issue's 24 MB .gz of 2 GiB) and about 17 to 1 above it."""
    line = b'<http://example.org/e%04d> <http://example.org/p> "%s%04d" .\n'
    width = max(period // 400 - len(line % (0, b"", 0)), 1)
    return b"".join(line % (i, b"v" * width, i) for i in range(400))


def write_bomb(path: Path, expanded: int, period: int = 28_400) -> None:
    """A .gz file of ``bomb_block(period)`` repeated to ``expanded`` bytes, written as it is compressed."""
    block = bomb_block(period)
    packer = zlib.compressobj(6, zlib.DEFLATED, 31)  # 31: gzip framing
    with open(path, "wb") as out:
        for _ in range(expanded // len(block)):
            out.write(packer.compress(block))
        out.write(packer.flush())


def write_lol(path: Path, levels: int = 8) -> None:
    """RDF/XML whose internal entities nest ``levels`` deep, ten uses each ("billion laughs"): a
    733-byte file whose one literal expands to 3 * 10**levels bytes."""
    lines = [b'<?xml version="1.0"?>', b"<!DOCTYPE rdf:RDF [", b'<!ENTITY l0 "lollollollollollollollollollol">']
    lines += [b'<!ENTITY l%d "%s">' % (i, b"&l%d;" % (i - 1) * 10) for i in range(1, levels + 1)]
    lines += [
        b"]>",
        b'<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:ex="http://example.org/">',
        b'<rdf:Description rdf:about="http://example.org/a"><ex:p>&l%d;</ex:p></rdf:Description>' % levels,
        b"</rdf:RDF>",
    ]
    path.write_bytes(b"\n".join(lines) + b"\n")


def nested_triple_terms(depth: int) -> bytes:
    """A triple whose object is a triple term (RDF 1.2 ``<<( s p o )>>``) nested ``depth`` deep."""
    return HEAD + b"ex:a ex:b " + b"<<( ex:a ex:b " * depth + b"ex:c" + b" )>>" * depth + b" .\n"


def nested_rdf_xml(depth: int) -> bytes:
    """RDF/XML with ``depth`` nested node elements, one triple each."""
    return (
        b'<?xml version="1.0"?><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:ex="http://example.org/">'
        + b"<rdf:Description><ex:p>" * depth
        + b"x"
        + b"</ex:p></rdf:Description>" * depth
        + b"</rdf:RDF>"
    )


AIDA_HEAD = (
    b"@prefix aida: <https://raw.githubusercontent.com/NextCenturyCorporation/AIDA-Interchange-Format/master/"
    b"java/src/main/resources/com/ncc/aif/ontologies/InterchangeOntology#> .\n" + HEAD
)


def triple_term_object() -> bytes:
    """An RDF 1.2 triple term where AIF's rules read a node (the object of aida:confidence)."""
    return AIDA_HEAD + b"ex:a aida:confidence <<( ex:s ex:p ex:o )>> .\n"


def long_list(items: int) -> bytes:
    """A finding on a [ ] node (A2: a confidence value that is not a double) in a file that also
    holds an RDF list of ``items`` items (RDF list nodes have no line of their own)."""
    return (
        AIDA_HEAD
        + b'ex:a aida:confidence [ a aida:Confidence ; aida:confidenceValue "high" ] .\n'
        + b"ex:b ex:p ("
        + b" ex:o" * items
        + b" ) .\n"
    )


def _utf16(data: bytes, codec: str) -> Callable[[Path], None]:
    return _bytes(data.decode("utf-8").encode(codec))


ANY = frozenset({0, 1})  # read, and judged by the rules: either verdict is right
HOSTILE: tuple[Hostile, ...] = (
    Hostile("iri-space.ttl", _triple(b"<http://example.org/a b>"), 3, "Invalid IRI code point ' '"),
    Hostile("iri-control.ttl", _triple(b"<http://example.org/a\x01b>"), 3, "Invalid IRI code point '\\x01'"),
    Hostile("iri-brace.ttl", _triple(b"<http://example.org/{x}>"), 3, "Invalid IRI code point '{'"),
    Hostile("iri-bar.ttl", _triple(b"<http://example.org/a|b>"), 3, "Invalid IRI code point '|'"),
    Hostile(
        "iri-relative.ttl", _bytes(b"<relative> <http://example.org/p> <other> .\n"), ANY
    ),  # resolved against the file
    Hostile("iri-relative.nt", _bytes(b"<relative> <http://example.org/p> <other> .\n"), 3, "syntax error"),
    Hostile("bnode-predicate.ttl", _bytes(HEAD + b"ex:a _:b ex:c .\n"), 3, "is not a valid predicate"),
    Hostile("literal-predicate.ttl", _bytes(HEAD + b'ex:a "p" ex:c .\n'), 3, "is not a valid predicate"),
    Hostile("literal-subject.ttl", _bytes(HEAD + b'"s" ex:b ex:c .\n'), 3, "is not a valid subject"),
    Hostile("nul-in-literal.ttl", _triple(b'"a\x00b"'), 3, "NUL character"),
    Hostile("escaped-nul.ttl", _triple(b'"a\\u0000b"'), ANY),  # an escape is allowed: the literal holds U+0000
    Hostile("utf16-bom.ttl", _utf16(GOOD, "utf-16"), 3, "UTF-16"),
    Hostile("utf16-le.ttl", _utf16(GOOD, "utf-16-le"), 3, "UTF-16"),
    Hostile("utf16-be.ttl", _utf16(GOOD, "utf-16-be"), 3, "UTF-16"),
    Hostile("utf32.ttl", _utf16(GOOD, "utf-32"), 3, "UTF-32"),
    Hostile("latin1.ttl", _triple(b'"caf\xe9"'), 3, "not UTF-8"),
    Hostile("binary.ttl", _bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256))), 3, "binary"),
    Hostile("empty.ttl", _bytes(b""), 3, "empty"),
    Hostile("prefixes-only.ttl", _bytes(HEAD), 3, "no RDF triples"),
    Hostile("turtle-in.nt", _bytes(GOOD), 3, "name it .ttl"),
    Hostile(
        "named-graph.trig", _bytes(b"<http://e/g> { <http://e/a> <http://e/b> <http://e/c> . }\n"), 3, "Named graphs"
    ),
    Hostile(
        "remote-context.jsonld",
        _bytes(b'{"@context": "http://127.0.0.1:9/c.jsonld", "@id": "http://e/a", "http://e/p": "v"}'),
        3,
        "remote context",
    ),
    Hostile(
        "external-entity.rdf",
        _bytes(
            b'<?xml version="1.0"?>\n<!DOCTYPE r [<!ENTITY e SYSTEM "file:///etc/hostname">]>\n'
            b'<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:ex="http://e/">'
            b'<rdf:Description rdf:about="http://e/a"><ex:p>&e;</ex:p></rdf:Description></rdf:RDF>\n'
        ),
        3,
        "XML entity declarations",
    ),
    Hostile("entity-bomb.rdf", write_lol, 3, "XML entity declarations (<!ENTITY) are not accepted"),
    Hostile("deep.rdf", lambda path: path.write_bytes(nested_rdf_xml(20_000)), 3, "XML elements nested more than"),
    Hostile("triple-term.ttl", lambda path: path.write_bytes(triple_term_object()), 3, "RDF 1.2 triple terms"),
    Hostile(
        "nested-triple-terms.nt", lambda path: path.write_bytes(nested_triple_terms(20_000)), 3, "RDF 1.2 triple terms"
    ),
    Hostile("not-gzip.ttl.gz", _bytes(GOOD), 3, "named .gz but not gzip"),
    Hostile("truncated.ttl.gz", _bytes(gzip.compress(GOOD * 50, mtime=0)[:40]), 3, "truncated gzip data"),
    Hostile("gzip-in-gzip.ttl.gz", _bytes(gzip.compress(gzip.compress(GOOD, mtime=0), mtime=0)), 3, "binary"),
    Hostile("deep-blank-nodes.ttl", _triple(b"[ ex:p " * 20000 + b"ex:o" + b" ]" * 20000), ANY),
    Hostile("deep-collections.ttl", _triple(b"(" * 20000 + b"ex:o" + b")" * 20000), ANY),
    Hostile(
        "deep-json.jsonld",
        _bytes(b'{"@id": "http://e/a", "http://e/p": ' + b"[" * 70000 + b'"x"' + b"]" * 70000 + b"}"),
        3,
        "syntax error",
    ),
    Hostile("long-literal-17mb.ttl", write_long_literal, 3, "longer than 16 MiB"),
    Hostile("bomb-80mb.ttl.gz", lambda path: write_bomb(path, 80 * MiB), 3, "decompression bomb"),
)
