"""The line of a node, defined once (aifcheck.loading.lines) for every finding of both executors."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pyoxigraph as ox
import pytest
from helpers import FIXTURES, ROOT, SHARED_DATA
from test_kb import TRICKY

from aifcheck.errors import InputError
from aifcheck.loading.kb import KB, load_kb
from aifcheck.loading.marking import mark_lines

EX = "http://example.org/"


def kb_of(tmp_path: Path, text: str, name: str = "kb.ttl") -> KB:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return load_kb(path)


def blank(kb: KB, predicate: str, obj: ox.NamedNode | ox.Literal | None = None) -> ox.BlankNode:
    """The blank subject of the triple with this predicate (and object)."""
    (quad,) = list(kb.store.quads_for_pattern(None, ox.NamedNode(predicate), obj))
    assert isinstance(quad.subject, ox.BlankNode)
    return quad.subject


def test_subjects_blank_nodes_and_objects_on_a_tricky_file(tmp_path: Path) -> None:
    kb = kb_of(tmp_path, TRICKY)
    assert kb.line_of(ox.NamedNode(EX + "a")) == 4  # its subject block starts there
    assert kb.line_of(ox.NamedNode(EX + "b")) == 11
    assert kb.line_of(ox.NamedNode(EX + "c")) == 12
    assert kb.line_of(ox.BlankNode("label")) == 10  # a labelled node: the same in the store and the text
    assert kb.line_of(blank(kb, EX + "value")) == 5  # the [ on line 5
    assert kb.line_of(blank(kb, EX + "text")) == 7  # the [] statement
    assert kb.line_of(ox.NamedNode(EX + "Inner")) == 5  # only an object: the statement that mentions it
    (first,) = [q.subject for q in kb.store.quads_for_pattern(None, ox.NamedNode(RDF_FIRST), ox.NamedNode(EX + "x"))]
    assert kb.line_of(first) == 11  # an RDF list's node: the statement that holds the list
    assert kb.line_of(ox.NamedNode(EX + "nowhere")) is None


RDF_FIRST = "http://www.w3.org/1999/02/22-rdf-syntax-ns#first"


def test_blank_nodes_alike_but_for_where_they_hang_get_their_own_lines(tmp_path: Path) -> None:
    text = f"""@prefix ex: <{EX}> .
ex:s1 ex:j [ a ex:J ; ex:v 1 ] .
ex:s2 ex:j [ a ex:J ; ex:v 1 ] .
ex:s3 ex:j [ ex:v 1 ] ,
    [ ex:v 2 ] .
ex:s4 ex:j [ ex:k [ ex:v 1 ] ;
    ex:m [ ex:v 1 ] ] .
"""
    kb = kb_of(tmp_path, text)
    lines = [kb.line_of(q.object) for q in kb.store.quads_for_pattern(None, ox.NamedNode(EX + "j"), None)]
    assert sorted(lines) == [2, 3, 4, 5, 6]
    inner = {
        kb.line_of(q.object) for p in ("k", "m") for q in kb.store.quads_for_pattern(None, ox.NamedNode(EX + p), None)
    }
    assert inner == {6, 7}


def test_blank_statements_told_apart_by_what_they_hold(tmp_path: Path) -> None:
    text = f"""@prefix ex: <{EX}> .
[] a ex:Statement ; ex:o "x" .

[] a ex:Statement ;
   ex:o "y" .
"""
    kb = kb_of(tmp_path, text)
    assert kb.line_of(blank(kb, EX + "o", ox.Literal("x"))) == 2
    assert kb.line_of(blank(kb, EX + "o", ox.Literal("y"))) == 4


def test_identical_blank_statements_each_have_their_own_line(tmp_path: Path) -> None:
    # no rule can tell them apart, but the marks read with the file can
    kb = kb_of(tmp_path, f"@prefix ex: <{EX}> .\n[] ex:p ex:o .\n[] ex:p ex:o .\n")
    assert sorted(kb.line_of(q.subject) for q in kb.store.quads_for_pattern(None, None, None, ox.DefaultGraph())) == [
        2,
        3,
    ]


def test_a_long_rdf_list_is_located_without_deep_recursion(tmp_path: Path) -> None:
    items = " ".join(f"ex:i{i}" for i in range(5000))
    kb = kb_of(tmp_path, f"@prefix ex: <{EX}> .\nex:s ex:p (\n{items}\n) .\n")
    nodes = {q.subject for q in kb.store.quads_for_pattern(None, ox.NamedNode(RDF_FIRST), None)}
    assert len(nodes) == 5000 and {kb.line_of(n) for n in nodes} == {2}


def test_a_kb_without_text_has_no_lines() -> None:
    kb = KB("<graph>", ox.Store())
    assert kb.line_of(ox.NamedNode(EX + "a")) is None


def test_rewriting_never_touches_strings_or_comments() -> None:
    rewritten, marks = mark_lines(TRICKY)
    assert '"a string . with [ a dot"' in rewritten
    assert "# a comment with a . and a [ in it" in rewritten
    assert '"""a long string\nthat spans . lines [ too"""' in rewritten
    assert "string" not in marks and "comment" not in marks


# An independent account of where [ ] nodes are: every "[" outside strings, IRIs and comments.
_TOKEN = re.compile(r'"""[\s\S]*?"""|"(?:[^"\\\n]|\\.)*"|<[^>\s]*>|#[^\n]*|\[')


def _bracket_lines(text: str) -> Counter:
    return Counter(text.count("\n", 0, m.start()) + 1 for m in _TOKEN.finditer(text) if m[0] == "[")


def _files() -> list[Path]:
    files = sorted(FIXTURES.glob("*/*.ttl")) + sorted((ROOT / "examples").glob("*/*.ttl"))
    return files + sorted(SHARED_DATA.glob("task*-run/**/*.ttl")) + sorted(SHARED_DATA.glob("user-queries/**/*.ttl"))


@pytest.mark.parametrize("path", _files(), ids=lambda p: str(p.relative_to(p.parents[2])))
def test_every_blank_node_is_on_the_line_of_its_own_bracket(path: Path) -> None:
    # the [ ] nodes of the store and the "[" of the text, counted line by line, are one to one:
    # no two nodes are taken for one, none is lost
    text = path.read_text(encoding="utf-8")
    with load_kb(path) as kb:
        anonymous = {
            term
            for quad in kb.store.quads_for_pattern(None, None, None, ox.DefaultGraph())
            for term in (quad.subject, quad.object)
            if isinstance(term, ox.BlankNode) and f"_:{term.value}" not in text
        }
        assert Counter(kb.line_of(node) for node in anonymous) == _bracket_lines(text)


# The text is marked as TriG, which reads more than Turtle and N-Triples: each file is still judged
# by its own format, and read as written where the marks cannot follow it.
@pytest.mark.parametrize(
    ("name", "text", "outcome"),
    [
        ("graph.ttl", f"@prefix ex: <{EX}> .\nex:a ex:b ex:c .\n{{ ex:a ex:b ex:d . }}\n", "3:1: syntax error"),
        ("named.ttl", f"@prefix ex: <{EX}> .\nex:g {{ ex:a ex:b ex:d . }}\n", "2:6: syntax error"),
        ("turtle.nt", f"@prefix ex: <{EX}> .\nex:a ex:b ex:c .\n", "1:1: syntax error"),
        ("json.ttl", f'@prefix ex: <{EX}> .\nex:a ex:b "{{ \\"k\\": 1 }}" .\n', 2),
        ("labelled.nt", f"<{EX}z> <{EX}b> <{EX}c> .\n<{EX}a> <{EX}b> _:x .\n", 2),
        ("comment.ttl", f"@prefix ex: <{EX}> .\nex:z ex:b ex:c .\nex:a# a comment\n  ex:b ex:c .\n", 3),
        (
            "formula.n3",
            f"@prefix ex: <{EX}> .\n{{ ex:a ex:b ex:c }} => {{ ex:a ex:b ex:d }} .\nex:a ex:y ex:z .\n",
            None,
        ),
    ],
)
def test_each_format_is_judged_as_written(tmp_path: Path, name: str, text: str, outcome: str | int | None) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    if isinstance(outcome, str):
        with pytest.raises(InputError, match=f"^{re.escape(str(path))}:{outcome}"):
            load_kb(path)
        return
    with load_kb(path) as kb:
        assert kb.marked == (outcome is not None)  # N3 formulas have braces: read without marks
        assert kb.line_of(ox.NamedNode(EX + "a")) == outcome
