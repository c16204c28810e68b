"""A file whose bytes say it is not what its name says: one line that says what it looks like and
how to read it; --input-format reads any file, and standard input, with the parser named."""

from __future__ import annotations

import gzip
import subprocess
import zipfile
from pathlib import Path

import pytest
from helpers import ROOT

GOOD = ROOT / "examples" / "valid" / "document-kb.ttl"
JSON_LD = '{"@context": {"ex": "http://example.org/"}, "@id": "ex:a", "ex:b": "c"}\n'
RDF_XML = '<?xml version="1.0"?>\n<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"/>\n'


def _validate(*args: object, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["aifcheck", "validate", *map(str, args)], capture_output=True, text=True, input=stdin, check=False
    )


def _zip(path: Path) -> None:
    with zipfile.ZipFile(path, "w") as archive:
        archive.write(GOOD, "kb.ttl")


@pytest.mark.parametrize(
    ("name", "write", "says"),
    [
        (
            "gzip.ttl",
            lambda p: p.write_bytes(gzip.compress(GOOD.read_bytes())),
            "gzip data in a file whose name does not end in .gz",
        ),
        ("zip.ttl", _zip, "a zip archive: unzip it"),
        (
            "jsonld.ttl",
            lambda p: p.write_text(JSON_LD),
            "looks like JSON-LD: name it .jsonld, or give --input-format jsonld",
        ),
        (
            "rdfxml.ttl",
            lambda p: p.write_text(RDF_XML),
            "looks like RDF/XML: name it .rdf, or give --input-format rdfxml",
        ),
    ],
)
def test_a_file_that_is_not_what_its_name_says_is_told_what_it_looks_like(
    tmp_path: Path, name: str, write, says: str
) -> None:
    path = tmp_path / name
    write(path)
    proc = _validate(path)
    assert proc.returncode == 3
    (line,) = [line for line in proc.stdout.splitlines() if line.startswith(str(path))]
    assert says in line and "Traceback" not in proc.stderr


def test_input_format_reads_a_file_and_standard_input_whatever_their_names(tmp_path: Path) -> None:
    path = tmp_path / "kb.ttl"
    path.write_text(JSON_LD)
    assert _validate("--input-format", "jsonld", path).returncode == 0
    assert _validate("--input-format", "JSONLD", "-", stdin=JSON_LD).returncode == 0  # any case, as the other names
    assert _validate("-", stdin=JSON_LD).returncode == 3  # standard input is Turtle unless told
    proc = _validate("--input-format", "yaml", path)
    assert proc.returncode == 2 and "Invalid value for '--input-format'" in proc.stderr
