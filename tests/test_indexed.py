"""The fast load path: marked text parses to the same graph, lines are exact, blocks and disk agree."""
from __future__ import annotations

import importlib
import threading
from pathlib import Path

import pyoxigraph as ox
import pytest
import rdflib
from helpers import ROOT
from rdflib.compare import isomorphic

from aifcheck import indexed
from aifcheck.errors import InputError
from aifcheck.indexed import LINES_GRAPH, load_indexed, mark_lines

validation = importlib.import_module("aifcheck.validate")  # (aifcheck.validate is also the function)

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


def _data_graph(store: ox.Store) -> rdflib.Graph:
    graph = rdflib.Graph()
    triples = store.quads_for_pattern(None, None, None, ox.DefaultGraph())
    return graph.parse(data=ox.serialize(triples, format=ox.RdfFormat.N_QUADS).decode(), format="nt")


@pytest.mark.parametrize("lines", [True, False])
def test_marked_text_parses_to_the_same_graph(tmp_path: Path, lines: bool) -> None:
    path = tmp_path / "tricky.ttl"
    path.write_text(TRICKY, encoding="utf-8")
    loaded = load_indexed(path, lines=lines)
    assert loaded is not None and loaded.located == lines
    assert isomorphic(_data_graph(loaded.store), rdflib.Graph().parse(data=TRICKY, format="turtle"))
    assert len(loaded) == len(rdflib.Graph().parse(data=TRICKY, format="turtle"))


def test_lines_are_where_nodes_start(tmp_path: Path) -> None:
    path = tmp_path / "tricky.ttl"
    path.write_text(TRICKY, encoding="utf-8")
    loaded = load_indexed(path)
    assert loaded.line_of(rdflib.URIRef("http://example.org/a")) == 4
    assert loaded.line_of(rdflib.URIRef("http://example.org/b")) == 11
    assert loaded.line_of(rdflib.URIRef("http://example.org/c")) == 12
    labelled = next(loaded.store.quads_for_pattern(None, ox.NamedNode("http://example.org/p"), None)).subject
    assert loaded.line_of(rdflib.BNode(labelled.value)) == 10  # the store renames labels: found by its triple
    blank_lines = sorted(int(q.object.value) for q in loaded.store.quads_for_pattern(None, None, None, LINES_GRAPH)
                         if isinstance(q.subject, ox.BlankNode) and q.subject != labelled)
    assert blank_lines == [5, 7]  # the nested [ on line 5, the [] statement on line 7
    assert loaded.line_of(rdflib.URIRef("http://example.org/Inner")) == 5  # only an object: the line of its subject


def test_marks_never_land_in_strings_or_comments() -> None:
    marked = mark_lines(TRICKY)
    assert '"a string . with [ a dot"' in marked
    assert "# a comment with a . and a [ in it" in marked
    assert '"""a long string\nthat spans . lines [ too"""' in marked


def _kb(statements: int) -> str:
    head = "@prefix ex: <http://example.org/> .\n"
    body = "".join(f'ex:s{i} ex:p "text {i} . [" ;\n    ex:q [ ex:r {i} ] .\n' for i in range(statements))
    # one labelled blank node used in the first and the last block: it must stay one node
    return head + body + "_:shared ex:first ex:s0 .\nex:s1 ex:last _:shared .\n"


@pytest.fixture
def small_blocks(monkeypatch) -> None:
    monkeypatch.setattr(indexed, "STREAM_BYTES", 0)
    monkeypatch.setattr(indexed, "BLOCK_CHARS", 300)
    monkeypatch.setattr(indexed, "_CUT_MARGIN", 60)


def test_block_by_block_loading_gives_the_same_triples_and_lines(tmp_path: Path, small_blocks) -> None:
    path = tmp_path / "kb.ttl"
    path.write_text(_kb(200), encoding="utf-8")
    loaded = load_indexed(path)
    assert len(loaded) == 200 * 3 + 2
    for i in (0, 57, 199):
        assert loaded.line_of(rdflib.URIRef(f"http://example.org/s{i}")) == 2 + 2 * i
    assert isomorphic(_data_graph(loaded.store), rdflib.Graph().parse(path, format="turtle"))


def test_large_files_go_to_a_disk_store_that_is_removed(tmp_path: Path, monkeypatch, small_blocks) -> None:
    monkeypatch.setattr(indexed, "DISK_BYTES", 0)
    path = tmp_path / "kb.ttl"
    path.write_text(_kb(50), encoding="utf-8")
    loaded = load_indexed(path)
    folder = Path(loaded._folder)
    assert folder.is_dir() and len(loaded) == 50 * 3 + 2
    assert isomorphic(_data_graph(loaded.store), rdflib.Graph().parse(path, format="turtle"))
    loaded.close()
    assert not folder.exists()


@pytest.mark.parametrize("text", [
    "ex:s ex:p [ ex:q [ ex:r 1 ] ; ex:t ( [ ex:u 2 ] [] ) ] .",  # lists inside lists and collections
    "[ ex:q 1 ] .",  # a list alone is a statement
    "[ ex:q 1 ] ex:p ex:o .",
    "[] ex:p [ ex:q ex:r ; ] , [] .",
    "( [ ex:q 1 ] ) ex:p ex:o .",
    "[]a ex:C ; ex:p []. ex:s ex:p[ex:q 1].",  # no space where none is needed
])
def test_blank_node_lists_keep_their_triples(tmp_path: Path, text: str) -> None:
    path = tmp_path / "lists.ttl"
    path.write_text(f"@prefix ex: <http://example.org/> .\n{text}\n", encoding="utf-8")
    loaded = load_indexed(path)
    assert isomorphic(_data_graph(loaded.store), rdflib.Graph().parse(path, format="turtle"))
    lines = [int(q.object.value) for q in loaded.store.quads_for_pattern(None, None, None, LINES_GRAPH)]
    assert lines and set(lines) == {2}


def test_a_statement_longer_than_a_block_is_read_whole(tmp_path: Path, small_blocks) -> None:
    path = tmp_path / "long.ttl"
    path.write_text(f'@prefix ex: <http://example.org/> .\nex:a ex:p "{"x" * 1500}" .\nex:b ex:p 1 .\n', encoding="utf-8")
    loaded = load_indexed(path)
    assert len(loaded) == 2 and loaded.line_of(rdflib.URIRef("http://example.org/b")) == 3


@pytest.mark.parametrize("text", [
    "ex:a ex:b .",
    "ex:a ex:p [ ex:q 1 .",  # a list never closed
    "[] .",  # an empty blank node says nothing
    "ex:g { ex:a ex:b ex:c }",  # TriG, which this loader parses, is not Turtle
    "{ ex:a ex:b ex:c }",
])
@pytest.mark.parametrize("lines", [True, False])
def test_a_syntax_error_is_left_to_the_rdflib_loader(tmp_path: Path, text: str, lines: bool) -> None:
    path = tmp_path / "bad.ttl"
    path.write_text(f"@prefix ex: <http://example.org/> .\n{text}\n", encoding="utf-8")
    assert load_indexed(path, lines=lines) is None


def test_only_small_files_may_be_loaded_without_their_lines(tmp_path: Path, monkeypatch) -> None:
    path = tmp_path / "kb.ttl"
    path.write_text(_kb(20), encoding="utf-8")
    monkeypatch.setattr(indexed, "PARALLEL_BYTES", path.stat().st_size - 1)
    loaded = load_indexed(path, lines=False)
    assert loaded.located and loaded.line_of(rdflib.URIRef("http://example.org/s1")) == 4


@pytest.fixture
def marked_by_a_child(monkeypatch, small_blocks) -> None:
    if not Path("/proc/self/task").is_dir():
        pytest.skip("not Linux: files are marked in this process")
    # the test process may run other threads (an earlier test's on-disk store): the child runs
    # only the marking, which takes none of their locks
    monkeypatch.setattr(indexed, "_can_fork", lambda: True)
    monkeypatch.setattr(indexed, "PARALLEL_BYTES", 0)


def test_no_marking_child_is_forked_while_other_threads_run() -> None:
    release = threading.Event()
    other = threading.Thread(target=release.wait)
    other.start()
    try:
        assert not indexed._can_fork()
    finally:
        release.set()
        other.join()


def test_a_child_marking_the_text_gives_the_same_triples_and_lines(tmp_path: Path, marked_by_a_child) -> None:
    path = tmp_path / "kb.ttl"
    path.write_text(_kb(300), encoding="utf-8")  # about 60 blocks
    loaded = load_indexed(path)
    assert len(loaded) == 300 * 3 + 2 and loaded.prefixes == {"ex": "http://example.org/"}
    for i in (0, 123, 299):
        assert loaded.line_of(rdflib.URIRef(f"http://example.org/s{i}")) == 2 + 2 * i
    assert isomorphic(_data_graph(loaded.store), rdflib.Graph().parse(path, format="turtle"))


def test_a_syntax_error_stops_the_marking_child(tmp_path: Path, marked_by_a_child) -> None:
    path = tmp_path / "bad.ttl"
    path.write_text("@prefix ex: <http://example.org/> .\nex:a ex:b .\n" + _kb(20000), encoding="utf-8")
    assert load_indexed(path) is None  # (a child that did not stop would hang here)


def test_a_read_error_in_the_marking_child_is_the_files_error(tmp_path: Path, marked_by_a_child) -> None:
    path = tmp_path / "latin1.ttl"
    path.write_bytes(_kb(2000).encode("utf-8") + b'ex:z ex:p "caf\xe9" .\n' + _kb(10).encode("utf-8"))
    with pytest.raises(InputError, match="not UTF-8"):
        load_indexed(path)


def test_a_marking_child_reports_progress(tmp_path: Path, marked_by_a_child) -> None:
    path = tmp_path / "kb.ttl"
    path.write_text(_kb(2000), encoding="utf-8")
    seen: list[tuple[int, int]] = []
    load_indexed(path, lambda done, total: seen.append((done, total)))
    size = path.stat().st_size
    assert seen and all(total == size and 0 < done <= size for done, total in seen)


def test_a_file_read_whole_reports_progress_block_by_block(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(indexed, "BLOCK_CHARS", 300)
    monkeypatch.setattr(indexed, "_CUT_MARGIN", 60)
    path = tmp_path / "kb.ttl"
    path.write_text(_kb(200), encoding="utf-8")  # read whole (under STREAM_BYTES), about 60 blocks
    seen: list[int] = []
    loaded = load_indexed(path, lambda done, total: seen.append(done))
    assert len(seen) > 10 and seen == sorted(seen) and seen[-1] == path.stat().st_size
    assert len(loaded) == 200 * 3 + 2 and loaded.line_of(rdflib.URIRef("http://example.org/s57")) == 2 + 2 * 57


@pytest.mark.parametrize(("example", "loads"), [
    ("valid/document-kb.ttl", [False]),  # no finding: one load, without the lines
    # loaded again, with them, at the first finding; the rules before it are not run again
    ("invalid/edge-mistakes.ttl", [False, True]),
    ("invalid/cluster-mistakes.ttl", [False, True]),
    ("invalid/value-mistakes.ttl", [False, True]),
])
def test_a_file_is_loaded_with_its_lines_only_when_it_has_findings(example: str, loads: list[bool], monkeypatch) -> None:
    path = str(ROOT / "examples" / example)
    asked: list[bool] = []

    def spy(path, progress=None, lines=True):
        asked.append(lines)
        return load_indexed(path, progress, lines)

    monkeypatch.setattr(validation, "load_indexed", spy)
    report = validation.validate_file(path, validation.Options())
    assert asked == loads
    located = validation.check_loaded(load_indexed(path), validation.Options())
    assert _shown(report) == _shown(located) and report.triples == located.triples
    assert report.prefixes == (located.prefixes if located.violations else {})  # prefixes serve to show findings


def _shown(report) -> list[tuple]:
    return [(v.line, v.rule_id, v.focus, v.message, v.value) for v in report.violations]


def test_a_finding_on_a_store_without_lines_names_the_rules_that_found_nothing_before_it() -> None:
    path = ROOT / "examples" / "invalid" / "edge-mistakes.ttl"
    options = validation.Options()
    with pytest.raises(validation.Unlocated) as raised:
        validation.check_loaded(load_indexed(path, lines=False), options)
    fired = {v.rule_id for v in validation.check_loaded(load_indexed(path), options).violations}
    order = [rule.id for rule in options.rules(validation.load_catalog())]
    first = min(order.index(rule_id) for rule_id in fired)
    assert raised.value.clean_rules == frozenset(order[:first]) and first > 0
