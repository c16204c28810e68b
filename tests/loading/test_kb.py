"""The one loader: a file's triples in a pyoxigraph store, exactly; one verdict on what parses."""

from __future__ import annotations

import gzip
import tempfile
from pathlib import Path

import pyoxigraph as ox
import pytest
import rdflib
from rdflib.compare import isomorphic

from aifcheck.errors import InputError
from aifcheck.loading import kb as kb_module
from aifcheck.loading.kb import load_kb

TRICKY = '''@prefix ex: <http://example.org/> .
PREFIX aida: <http://example.org/aida#>
# a comment with a . and a [ in it
ex:a ex:says "a string . with [ a dot" ;   # trailing comment .
    ex:nested [ a ex:Inner ; ex:value 1.5 ] .

[] a aida:Statement ;
    ex:text """a long string
that spans . lines [ too""" .
_:label ex:p ex:a .
<http://example.org/b> ex:q ( ex:x ex:y ) .
ex:c ex:r 'single . quoted' .
'''


def as_rdflib(store: ox.Store) -> rdflib.Graph:
    text = ox.serialize(store.quads_for_pattern(None, None, None, ox.DefaultGraph()), format=ox.RdfFormat.N_QUADS)
    return rdflib.Graph().parse(data=text.decode(), format="nt")


@pytest.fixture
def tricky(tmp_path: Path) -> Path:
    path = tmp_path / "tricky.ttl"
    path.write_text(TRICKY, encoding="utf-8")
    return path


def test_the_store_holds_the_files_triples(tricky: Path) -> None:
    with load_kb(tricky) as kb:
        expected = rdflib.Graph().parse(tricky, format="turtle")
        assert isomorphic(as_rdflib(kb.store), expected) and len(kb) == len(expected)
        assert kb.prefixes == {"ex": "http://example.org/", "aida": "http://example.org/aida#"}


def test_without_lines_the_store_holds_the_same_triples_and_no_marks(tricky: Path) -> None:
    with load_kb(tricky) as marked, load_kb(tricky, lines=False) as plain:
        assert isomorphic(as_rdflib(plain.store), as_rdflib(marked.store)) and len(plain) == len(marked)
        assert len(marked.store) == len(plain.store) == len(plain)  # the marks are kept out of the store
        assert plain.marks is None and marked.marks is not None
        node = ox.NamedNode("http://example.org/c")
        assert marked.line_of(node) == 12 and plain.line_of(node) is None


def test_a_file_loaded_in_several_transactions_is_the_same(tricky: Path, tmp_path: Path, monkeypatch) -> None:
    with load_kb(tricky) as whole:
        expected = as_rdflib(whole.store)
    monkeypatch.setattr(kb_module, "TRANSACTION_QUADS", 2)
    with load_kb(tricky) as pieces, load_kb(tricky, lines=False) as plain:
        assert isomorphic(as_rdflib(pieces.store), expected) and isomorphic(as_rdflib(plain.store), expected)
        assert pieces.line_of(ox.NamedNode("http://example.org/c")) == 12
    bad = tmp_path / "bad.ttl"
    bad.write_text(
        "@prefix ex: <http://example.org/> .\nex:a ex:b ex:c , ex:d , ex:e .\nex:f ex:g .\n", encoding="utf-8"
    )
    with pytest.raises(InputError) as raised:  # in the second transaction
        load_kb(bad)
    assert raised.value.line == 3


def test_blank_node_labels_are_kept_as_written(tricky: Path) -> None:
    # a labelled node is then the same node in the store and in the text (aifcheck.loading.lines)
    with load_kb(tricky) as kb:
        assert any(True for _ in kb.store.quads_for_pattern(ox.BlankNode("label"), None, None))


def test_gzip_and_n_triples_are_read(tmp_path: Path) -> None:
    triple = '<http://example.org/s> <http://example.org/p> "o" .\n'
    (tmp_path / "a.nt").write_text(triple, encoding="utf-8")
    (tmp_path / "b.ttl.gz").write_bytes(gzip.compress(triple.encode()))
    assert len(load_kb(tmp_path / "a.nt")) == len(load_kb(tmp_path / "b.ttl.gz")) == 1


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("ex:a ex:b .", 2),
        ("ex:a ex:p [ ex:q 1 .", 2),  # a list never closed
        ("[] .", 2),  # an empty blank node says nothing
        ("ex:g { ex:a ex:b ex:c }", 2),  # TriG, not Turtle
        ("ex:a ex:b <http://example.org/a space> .", 2),  # an IRI with a space is not an IRI
        ("ex:a ex:b ex:c .\nex:d ex:e ex:f", 4),  # the last statement has no dot: the end is unexpected
    ],
)
def test_a_syntax_error_is_located(tmp_path: Path, text: str, line: int) -> None:
    path = tmp_path / "bad.ttl"
    path.write_text(f"@prefix ex: <http://example.org/> .\n{text}\n", encoding="utf-8")
    with pytest.raises(InputError) as raised:
        load_kb(path)
    error = raised.value
    assert error.message.startswith("syntax error: ") and (error.path, error.line) == (str(path), line)
    assert error.column is not None and "Parser error" not in str(error) and "\n" not in str(error)


def _kb_text(statements: int) -> str:
    head = "@prefix ex: <http://example.org/> .\n"
    body = "".join(f'ex:s{i} ex:p "text {i} . [" ;\n    ex:q [ ex:r {i} ] .\n' for i in range(statements))
    # one labelled blank node used at the start and the end: it must stay one node
    return head + body + "_:shared ex:first ex:s0 .\nex:s1 ex:last _:shared .\n"


def test_a_large_file_is_streamed_with_progress(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(kb_module, "STREAM_BYTES", 0)
    monkeypatch.setattr(kb_module, "_PROGRESS_STEP", 1000)
    path = tmp_path / "kb.ttl"
    path.write_text(_kb_text(500), encoding="utf-8")
    seen: list[int] = []
    with load_kb(path, lambda done, total: seen.append(done)) as kb:
        assert kb.marked  # its lines are marked as it streams
        assert isomorphic(as_rdflib(kb.store), rdflib.Graph().parse(path, format="turtle"))
        assert kb.line_of(ox.NamedNode("http://example.org/s321")) == 2 + 2 * 321
    assert len(seen) > 10 and seen == sorted(seen) and seen[-1] == path.stat().st_size


def test_an_on_disk_store_holds_the_file_and_is_removed(tmp_path: Path) -> None:
    path = tmp_path / "kb.ttl"
    path.write_text(_kb_text(50), encoding="utf-8")
    kb = load_kb(path, store="disk")
    folder = Path(kb._folder)
    assert kb.on_disk
    assert folder.is_dir() and len(kb) == 50 * 3 + 2
    assert isomorphic(as_rdflib(kb.store), rdflib.Graph().parse(path, format="turtle"))
    kb.close()
    assert not folder.exists()


def test_an_on_disk_store_is_removed_when_the_file_does_not_parse(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    path = tmp_path / "bad.ttl"
    path.write_text(_kb_text(20) + "ex:a ex:b .\n", encoding="utf-8")
    with pytest.raises(InputError, match="syntax error"):
        load_kb(path, store="disk")
    assert not list(tmp_path.glob("aifcheck-store-*"))


def test_a_streamed_file_that_is_not_utf8_is_located(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(kb_module, "STREAM_BYTES", 0)
    monkeypatch.setattr(kb_module, "_PROGRESS_STEP", 1000)  # read in many pieces
    path = tmp_path / "kb.ttl"
    text = _kb_text(200).encode("utf-8")
    lines = text.split(b"\n")
    lines[301] = b'ex:z ex:p "caf\xe9" .'  # line 302, read in a later piece than the first
    path.write_bytes(b"\n".join(lines))
    with pytest.raises(InputError) as caught:
        load_kb(path)
    assert (caught.value.line, caught.value.column) == (302, 15)
    assert "not UTF-8 (byte 0xe9)" in str(caught.value)
