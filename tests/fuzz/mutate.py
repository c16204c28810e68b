"""A seeded mutator of real RDF files.

``case(seed, index)`` is a pure function: case 1234 of seed 7 is the same bytes on every machine
that has the same corpus (random.Random seeded with a string hashes it with SHA-512, not with
Python's per-process hash). A case is one seed file with one to three edits to its text, then,
sometimes, a change of encoding, a gzip wrapping or a different file name ending.
"""

from __future__ import annotations

import gzip
import random
import re
import zlib
from collections.abc import Callable
from dataclasses import dataclass

import pyoxigraph as ox

from fuzz.corpus import Seed, seeds

Corpus = tuple[Seed, ...]
Edit = Callable[[random.Random, bytes, Corpus], tuple[bytes, str]]

# Turtle tokens, roughly: IRIs, literals with their tag or type, blank nodes, prefixed names,
# punctuation. A name starts only where a word does, so that a long run of letters costs no
# quadratic search.
_TOKEN = re.compile(
    rb'<[^<>\s]*>|"(?:[^"\\\n]|\\.)*"(?:\^\^\S+|@[A-Za-z0-9-]+)?|_:[\w.-]+|(?<![\w.-])[A-Za-z][\w.-]*:[\w.-]*|[.;,\[\]()]'
)
_IRI = re.compile(rb"<[^<>\s]*>|(?<![\w\"])[A-Za-z][\w-]*:[A-Za-z_][\w.-]*")
_LITERAL = re.compile(rb'"(?:[^"\\\n]|\\.)*"(?:\^\^\S+|@[A-Za-z0-9-]+)?')
_NUMBER = re.compile(rb"(?<![\w.])-?\d+(\.\d+)?([eE][+-]?\d+)?(?![\w])")
_END_DOT = re.compile(rb"\s\.[ \t]*(\r?\n|$)")
# a statement's first two terms at the start of a line: subject and predicate
_TRIPLE_START = re.compile(
    rb"^(<[^<>\s]*>|[A-Za-z][\w-]*:[\w.-]*|_:[\w.-]+)([ \t]+)(<[^<>\s]*>|[A-Za-z][\w-]*:[\w.-]*|a)(?=\s)", re.M
)

# what a mutated IRI may become: the IRIs that pyoxigraph refuses (space, control
# character, braces, bar), relative and odd ones it accepts
HOSTILE_IRIS = (
    b"<http://example.org/a b>",
    b"<http://example.org/a\x01b>",
    b"<http://example.org/{x}>",
    b"<http://example.org/a|b>",
    b"<relative>",
    b"<>",
    b"<#fragment>",
    b"<../../etc/passwd>",
    b"<http://example.org/\\u0020>",
    b"<http://example.org/\\u0000>",
    b"<http://[::1>",
    b"<http://example.org/caf\xc3\xa9>",
    b"<file:///etc/passwd>",
    b"<urn:x:\xe2\x80\xae>",
    b'<http://example.org/a"b>',
    b"<http://example.org/a^b>",
    b"<http://example.org/a`b>",
    b"<http://example.org/a\\b>",
    b"<http://example.org/%zz>",
    b"<HTTP://EXAMPLE.ORG:99999/>",
    b"undeclared:name",
    b"_:b0",
    b"[]",
    b"a",
    b"ex:",
    b":",
)
# literals that do not fit their datatype (or odd ones that do)
ILL_TYPED = (
    b'"abc"^^xsd:double',
    b'"1.0"^^xsd:integer',
    b'"NaN"^^xsd:double',
    b'"1e999"^^xsd:double',
    b'"-0"^^xsd:decimal',
    b'"2020-02-30"^^xsd:date',
    b'"99999999999999999999999999"^^xsd:integer',
    b'""^^xsd:double',
    b'" 1.0 "^^xsd:double',
    b'"x"^^<urn:unknown-type>',
    b'"1"^^xsd:gYear',
    b'"true"^^xsd:double',
    b'"INF"^^xsd:double',
    b'"0x10"^^xsd:int',
    b'"-5"^^xsd:nonNegativeInteger',
    b'"1.0"^^xsd:boolean',
    b'"2021-13-01T25:61:61Z"^^xsd:dateTime',
    b'"--13"^^xsd:gMonth',
    b'"---32"^^xsd:gDay',
    b'"1"^^undeclared:type',
    b'"x"@',
    b'"x"@en-',
    b'"x"@123456789',
    b'"x"^^xsd:string@en',
    b"'single'",
    b'"""multi\nline"""',
    b"'''a'''",
    b'"\\uD800"',
    b'"\\U00110000"',
    b'"\\u0000"',
    b'"a\\qb"',
    b'"\xe2\x80\xa8"',
    b'"\xf0\x9f\x92\xa9"',
    b"1.0",
    b"-0",
    b"1e309",
    b"true",
    b"99999999999999999999999999999999999999",
    b"+.5e-0",
)
NUMBERS = (
    b"1e309",
    b"-0",
    b"0",
    b"-1",
    b"99999999999999999999",
    b"NaN",
    b"0x1F",
    b"1.0.0",
    b"-1e-400",
    b"4294967296",
    b"1.",
    b".5",
)
# bytes worth inserting: Turtle's punctuation, quotes, NUL, invalid or odd UTF-8
SPECIALS = (
    b"\x00",
    b"\xff",
    b"\xc3",
    b"\xed\xa0\x80",
    b"\xc0\xaf",
    b'"',
    b"'",
    b"<",
    b">",
    b"{",
    b"}",
    b"|",
    b"\\",
    b"\n",
    b"\r",
    b"\t",
    b".",
    b";",
    b",",
    b"[",
    b"]",
    b"(",
    b")",
    b"#",
    b"@",
    b"_:",
    b"^^",
    b"\x7f",
    b"\xe2\x80\xa8",
    b"\xef\xbb\xbf",
    b'"""',
    b"@prefix",
    b"@base",
    b"PREFIX",
    b" a ",
    b"\x1b[31m",
)
PREFIX_LINES = (
    b"@prefix aida: <http://wrong.example/> .\n",
    b"@base <relative/> .\n",
    b"@base <> .\n",
    b"PREFIX x: <urn:x:>\n",
    b"@prefix : <> .\n",
    b"@prefix rdf: <urn:not-rdf#> .\n",
    b"@prefix xsd: <http://www.w3.org/2001/XMLSchema> .\n",
    b"@prefix bad <urn:x> .\n",
    b"@prefix x: <http://example.org/a b> .\n",
    b"BASE <http://example.org/base/>\n",
)


@dataclass(frozen=True)
class Case:
    """One generated file, and how it was made."""

    index: int
    seed: str  # the corpus file it started from
    recipe: tuple[str, ...]  # the edits, in order
    data: bytes
    suffix: str  # the file name ending (.ttl, .nt, .ttl.gz, ...)

    @property
    def file_name(self) -> str:
        return f"case{self.index:05d}{self.suffix}"

    def describe(self) -> str:
        return (
            f"case {self.index}: {self.seed} + {' + '.join(self.recipe)} -> {self.file_name} ({len(self.data)} bytes)"
        )


def _pos(rng: random.Random, data: bytes) -> int:
    return rng.randrange(len(data) + 1)


def _pick(rng: random.Random, pattern: re.Pattern[bytes], data: bytes) -> re.Match[bytes] | None:
    found = list(pattern.finditer(data))
    return rng.choice(found) if found else None


def _lines(data: bytes) -> list[bytes]:
    return data.splitlines(keepends=True) or [b""]


# --- edits of the text: each returns the new bytes and a short description ------------------


def flip_bytes(rng: random.Random, data: bytes, _corpus: Corpus) -> tuple[bytes, str]:
    out = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        if out:
            out[rng.randrange(len(out))] = rng.randrange(256)
    return bytes(out), "flip bytes"


def insert_special(rng: random.Random, data: bytes, _corpus: Corpus) -> tuple[bytes, str]:
    token, at = rng.choice(SPECIALS), _pos(rng, data)
    return data[:at] + token + data[at:], f"insert {token!r} at {at}"


def delete_range(rng: random.Random, data: bytes, _corpus: Corpus) -> tuple[bytes, str]:
    at = _pos(rng, data)
    size = rng.randint(1, 32)
    return data[:at] + data[at + size :], f"delete {size} bytes at {at}"


def line_edit(rng: random.Random, data: bytes, _corpus: Corpus) -> tuple[bytes, str]:
    lines = _lines(data)
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    kind = rng.choice(("delete", "duplicate", "swap", "shuffle", "comment out"))
    if kind == "delete":
        del lines[i]
    elif kind == "duplicate":
        lines.insert(j, lines[i])
    elif kind == "swap":
        lines[i], lines[j] = lines[j], lines[i]
    elif kind == "shuffle":
        block = lines[i : i + 10]
        rng.shuffle(block)
        lines[i : i + 10] = block
    else:
        lines[i] = b"#" + lines[i]
    return b"".join(lines), f"{kind} line {i + 1}"


def token_edit(rng: random.Random, data: bytes, _corpus: Corpus) -> tuple[bytes, str]:
    tokens = list(_TOKEN.finditer(data))
    if len(tokens) < 2:
        return data, "no token"
    target = rng.choice(tokens)
    if rng.random() < 0.3:
        return data[: target.start()] + data[target.end() :], f"delete token {target[0][:40]!r}"
    other = rng.choice(tokens)[0]
    return data[: target.start()] + other + data[target.end() :], f"token {target[0][:40]!r} -> {other[:40]!r}"


def iri_edit(rng: random.Random, data: bytes, _corpus: Corpus) -> tuple[bytes, str]:
    found = list(_IRI.finditer(data))
    if not found:
        return data, "no IRI"
    target = rng.choice(found)
    if rng.random() < 0.3 and len(found) > 1:  # swap two IRIs
        other = rng.choice(found)
        a, b = sorted((target, other), key=lambda m: m.start())
        if a.end() <= b.start():
            return data[: a.start()] + b[0] + data[a.end() : b.start()] + a[0] + data[b.end() :], "swap two IRIs"
    new = rng.choice(HOSTILE_IRIS)
    return data[: target.start()] + new + data[target.end() :], f"IRI {target[0][:40]!r} -> {new!r}"


def position_edit(rng: random.Random, data: bytes, _corpus: Corpus) -> tuple[bytes, str]:
    """A blank node or a literal as predicate, a literal as subject (syntax pyoxigraph refuses)."""
    found = _pick(rng, _TRIPLE_START, data)
    if found is None:
        return data, "no statement"
    if rng.random() < 0.5:
        new = rng.choice((b"_:b0", b"[]", b'"literal"', b"1", b"<>"))
        out = data[: found.start(3)] + new + data[found.end(3) :]
        return out, f"predicate -> {new!r}"
    new = rng.choice((b'"literal"', b"42", b"true", b"<<", b"()"))
    return data[: found.start(1)] + new + data[found.end(1) :], f"subject -> {new!r}"


def literal_edit(rng: random.Random, data: bytes, _corpus: Corpus) -> tuple[bytes, str]:
    found = _pick(rng, _LITERAL, data) or _pick(rng, _NUMBER, data)
    if found is None:
        return data, "no literal"
    new = rng.choice(ILL_TYPED + NUMBERS)
    return data[: found.start()] + new + data[found.end() :], f"literal {found[0][:40]!r} -> {new!r}"


def drop_dot(rng: random.Random, data: bytes, _corpus: Corpus) -> tuple[bytes, str]:
    found = _pick(rng, _END_DOT, data)
    if found is None:
        return data, "no dot"
    return data[: found.start()] + found[1] + data[found.end() :], "drop a statement's dot"


def truncate(rng: random.Random, data: bytes, _corpus: Corpus) -> tuple[bytes, str]:
    at = rng.randrange(len(data)) if data else 0
    return data[:at], f"truncate at {at}"


def huge_token(rng: random.Random, data: bytes, _corpus: Corpus) -> tuple[bytes, str]:
    """A long literal, IRI, prefixed name, comment or line (up to 2 MiB; the 17 MB literal is a
    hostile input of its own, too slow for every case)."""
    size = rng.choice((4096, 65536, 1 << 20, 2 << 20))
    kind = rng.choice(("literal", "IRI", "name", "comment", "triples"))
    filler = {
        "literal": lambda: b'"' + b"x" * size + b'"',
        "IRI": lambda: b"<http://example.org/" + b"a" * size + b">",
        "name": lambda: b"ex:" + b"n" * size,
        "comment": lambda: b"#" + b"c" * size + b"\n",
        "triples": lambda: b"<urn:s> <urn:p> <urn:o> . " * (size // 25) + b"\n",
    }[kind]()
    found = _pick(rng, _LITERAL, data) if kind == "literal" else _pick(rng, _IRI, data)
    if found is not None and kind in ("literal", "IRI", "name"):
        return data[: found.start()] + filler + data[found.end() :], f"{size}-byte {kind}"
    at = data.rfind(b"\n", 0, _pos(rng, data)) + 1
    return data[:at] + filler + data[at:], f"{size}-byte {kind} at line start"


def deep_nesting(rng: random.Random, data: bytes, _corpus: Corpus) -> tuple[bytes, str]:
    depth = rng.choice((50, 1000, 20000))
    kind = rng.choice(("blank nodes", "collections", "triple terms"))
    inner = {
        "blank nodes": b"[ <urn:p> " * depth + b"<urn:o>" + b" ]" * depth,
        "collections": b"(" * depth + b"<urn:o>" + b")" * depth,
        "triple terms": b"<<( <urn:s> <urn:p> " * depth + b"<urn:o>" + b" )>>" * depth,  # RDF 1.2
    }[kind]
    found = _pick(rng, _LITERAL, data) or _pick(rng, _IRI, data)
    if found is None:
        return data + b"\n<urn:s> <urn:p> " + inner + b" .\n", f"{depth} nested {kind} appended"
    return data[: found.start()] + inner + data[found.end() :], f"{depth} nested {kind}"


def escape_edit(rng: random.Random, data: bytes, _corpus: Corpus) -> tuple[bytes, str]:
    """Escapes that decode to what the text may not hold: NUL, a lone surrogate, past U+10FFFF."""
    escape = rng.choice((b"\\u0000", b"\\uD800", b"\\U00110000", b"\\u0020", b"\\U0001F4A9", b"\\u00", b"\\x41", b"\\"))
    found = _pick(rng, _LITERAL, data) or _pick(rng, _IRI, data)
    if found is None:
        return data, "no literal"
    at = found.start() + 1
    return data[:at] + escape + data[at:], f"escape {escape!r} in {found[0][:30]!r}"


def nul_in_literal(rng: random.Random, data: bytes, _corpus: Corpus) -> tuple[bytes, str]:
    found = _pick(rng, _LITERAL, data)
    at = found.start() + 1 if found else _pos(rng, data)
    return data[:at] + b"\x00" + data[at:], f"NUL at {at}"


def prefix_edit(rng: random.Random, data: bytes, _corpus: Corpus) -> tuple[bytes, str]:
    line = rng.choice(PREFIX_LINES)
    lines = _lines(data)
    at = rng.randrange(len(lines) + 1)
    lines.insert(at, line)
    return b"".join(lines), f"insert {line.strip()!r} at line {at + 1}"


def splice(rng: random.Random, data: bytes, corpus: Corpus) -> tuple[bytes, str]:
    """Lines of another corpus file, inserted at a line start."""
    other = _lines(rng.choice(corpus).data)
    start = rng.randrange(len(other))
    chunk = b"".join(other[start : start + rng.randint(1, 40)])
    lines = _lines(data)
    at = rng.randrange(len(lines) + 1)
    lines.insert(at, chunk)
    count = chunk.count(b"\n")
    return b"".join(lines), f"splice {count} lines at line {at + 1}"


def line_endings(rng: random.Random, data: bytes, _corpus: Corpus) -> tuple[bytes, str]:
    ending = rng.choice((b"\r\n", b"\r", b"\x0b", b"\x85"))
    return data.replace(b"\n", ending), f"line endings {ending!r}"


_XML_TEXT_END = re.compile(rb"(?<=[^\s>])</")  # the end of a property element's text


def xml_entities(rng: random.Random, data: bytes, _corpus: Corpus) -> tuple[bytes, str]:
    """RDF/XML: internal entities nested ``levels`` deep, ten uses each, one use in a literal
    (8 levels expand to 3 GB: "billion laughs"); or an external entity."""
    end = data.find(b"?>") + 2
    element = data.find(b"<rdf:RDF")
    if end < 2 or element < 0:
        return data, "not RDF/XML"
    if rng.random() < 0.2:
        declarations, use, what = b'<!ENTITY e SYSTEM "file:///etc/hostname">', b"&e;", "external entity"
    else:
        levels = rng.choice((1, 3, 5, 8))
        parts = [b'<!ENTITY l0 "lollollollollollollollollollol">'] + [
            b'<!ENTITY l%d "%s">' % (i, b"&l%d;" % (i - 1) * 10) for i in range(1, levels + 1)
        ]
        declarations, use, what = b"".join(parts), b"&l%d;" % levels, f"entities nested {levels} deep"
    text = data[:end] + b"\n<!DOCTYPE rdf:RDF [" + declarations + b"]>" + data[end:]
    literal = _XML_TEXT_END.search(text, element)
    if literal is None:
        return data, "no literal"
    return text[: literal.start()] + use + text[literal.start() :], what


def xml_nesting(rng: random.Random, data: bytes, _corpus: Corpus) -> tuple[bytes, str]:
    """RDF/XML: node elements nested ``depth`` deep inside the first property element."""
    depth = rng.choice((100, 2000, 10000))
    at = data.find(b"</rdf:RDF>")
    if at < 0:
        return data, "not RDF/XML"
    inner = b"<rdf:Description><ex:p xmlns:ex='urn:ex:'>" * depth + b"x" + b"</ex:p></rdf:Description>" * depth
    return data[:at] + inner + data[at:], f"{depth} nested node elements"


def json_edit(rng: random.Random, data: bytes, _corpus: Corpus) -> tuple[bytes, str]:
    """JSON-LD: a remote or odd @context, a named graph, deep arrays, a huge number."""
    if not data.startswith(b"["):
        return data, "not JSON-LD"
    kind = rng.choice(("remote context", "null context", "named graph", "deep arrays", "huge number", "base"))
    tail = {
        "remote context": b'{"@context": "http://127.0.0.1:9/context.jsonld", "@id": "urn:a", "p": "v"}',
        "null context": b'{"@context": null, "@id": "urn:a", "urn:p": {"@value": "v", "@language": "not a tag!"}}',
        "named graph": b'{"@id": "urn:g", "@graph": [{"@id": "urn:a", "urn:p": "v"}]}',
        "deep arrays": b'{"@id": "urn:a", "urn:p": ' + b"[" * 5000 + b'"v"' + b"]" * 5000 + b"}",
        "huge number": b'{"@id": "urn:a", "urn:p": 1' + b"0" * 5000 + b"e99999}",
        "base": b'{"@context": {"@base": "not an IRI at all"}, "@id": "relative", "urn:p": "v"}',
    }[kind]
    return data[:1] + tail + b"," + data[1:], kind


EDITS: tuple[tuple[Edit, int], ...] = (  # (edit, weight)
    (flip_bytes, 6),
    (insert_special, 8),
    (delete_range, 6),
    (line_edit, 10),
    (token_edit, 10),
    (iri_edit, 10),
    (position_edit, 6),
    (literal_edit, 10),
    (drop_dot, 6),
    (truncate, 5),
    (huge_token, 2),
    (deep_nesting, 2),
    (escape_edit, 4),
    (nul_in_literal, 2),
    (prefix_edit, 4),
    (splice, 5),
    (line_endings, 2),
)


FORMAT_EDITS: dict[str, tuple[Edit, ...]] = {".rdf": (xml_entities, xml_nesting), ".jsonld": (json_edit,)}

# --- changes of the whole file: other RDF formats, encoding, gzip, name ------------------------

REFORMATS = (
    (ox.RdfFormat.N_TRIPLES, ".nt"),
    (ox.RdfFormat.RDF_XML, ".rdf"),
    (ox.RdfFormat.JSON_LD, ".jsonld"),
    (ox.RdfFormat.TRIG, ".trig"),
    (ox.RdfFormat.N_QUADS, ".nq"),
    (ox.RdfFormat.N3, ".n3"),
)
# the labels pyoxigraph makes up for anonymous blank nodes: a random 128-bit number in hex
_SERIALIZED_BNODE = re.compile(rb"(?<=_:)[0-9a-f]{20,32}(?![\w-])|(?<=nodeID=\")[0-9a-f]{20,32}(?=\")")


def reformat(rng: random.Random, data: bytes) -> tuple[bytes, str] | None:
    """The file in another RDF format (None when it does not parse as Turtle), with its blank
    nodes relabelled in order of appearance, so that a case is the same bytes on every run."""
    rdf_format, suffix = rng.choice(REFORMATS)
    try:
        triples = list(ox.parse(data, format=ox.RdfFormat.TURTLE, base_iri="http://example.org/base/"))
    except (SyntaxError, ValueError):
        return None
    labels: dict[bytes, bytes] = {}
    text = ox.serialize(triples, format=rdf_format)
    return _SERIALIZED_BNODE.sub(lambda m: labels.setdefault(m[0], b"b%d" % len(labels)), text), suffix


def encode(rng: random.Random, data: bytes) -> tuple[bytes, str]:
    codec = rng.choice(("utf-16", "utf-16-le", "utf-16-be", "utf-32", "latin-1", "cp1252", "utf-8-sig"))
    text = data.decode("utf-8", errors="replace")
    return text.encode(codec, errors="replace"), f"encode {codec}"


def wrap_gzip(rng: random.Random, data: bytes) -> tuple[bytes, str]:
    packed = gzip.compress(data, mtime=0)
    kind = rng.choice(
        (
            "gzip",
            "gzip",
            "truncated gzip",
            "corrupt gzip",
            "trailing garbage",
            "lying size",
            "double gzip",
            "raw deflate",
            "not gzip",
            "two members",
        )
    )
    if kind == "truncated gzip":
        packed = packed[: rng.randrange(len(packed))]
    elif kind == "corrupt gzip":
        at = rng.randrange(10, len(packed)) if len(packed) > 10 else 0
        packed = packed[:at] + bytes([packed[at] ^ 0x55]) + packed[at + 1 :]
    elif kind == "trailing garbage":
        packed += b"garbage\x00\xff"
    elif kind == "lying size":
        packed = packed[:-4] + (rng.randrange(1 << 32)).to_bytes(4, "little")
    elif kind == "double gzip":
        packed = gzip.compress(packed, mtime=0)
    elif kind == "raw deflate":
        packed = zlib.compress(data)
    elif kind == "not gzip":
        packed = data
    elif kind == "two members":
        packed += gzip.compress(data[: len(data) // 2], mtime=0)
    return packed, kind


SUFFIXES = (".nt", ".n3", ".trig", ".nq", ".jsonld", ".rdf", ".owl", ".TTL", "", ".txt", ".ttl.bak")


def case(seed: int, index: int, shared: bool = True) -> Case:
    """Case ``index`` of ``seed``: always the same bytes for the same corpus."""
    rng = random.Random(f"aifcheck-fuzz/{seed}/{index}")
    corpus = seeds(shared)
    origin = rng.choice(corpus)
    data, recipe, suffix = origin.data, [], ".ttl"
    if rng.random() < 0.15 and (converted := reformat(rng, data)) is not None:
        data, suffix = converted
        recipe.append(f"as {suffix}")
    edits, weights = zip(*EDITS, strict=True)
    special = FORMAT_EDITS.get(suffix, ())
    if special:  # that format's own edits, as likely as all the others together
        edits, weights = edits + special, weights + (sum(weights) // len(special),) * len(special)
    for edit in rng.choices(edits, weights, k=rng.choice((1, 1, 1, 2, 2, 3))):
        data, what = edit(rng, data, corpus)
        recipe.append(what)
    roll = rng.random()
    if roll < 0.06:
        data, what = encode(rng, data)
        recipe.append(what)
    elif roll < 0.16:
        data, what = wrap_gzip(rng, data)
        recipe.append(what)
        suffix += ".gz"
    elif roll < 0.24 and suffix == ".ttl":
        suffix = rng.choice(SUFFIXES)
        recipe.append(f"named {suffix or '(no ending)'}")
    return Case(index, origin.name, tuple(recipe), data, suffix)
