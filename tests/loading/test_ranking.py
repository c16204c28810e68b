"""The one reader of TA3 ranking files (aifcheck.loading.ranking): lines as Python's text mode reads
them, and each NIST script's reading of a line."""

from __future__ import annotations

import pytest

from aifcheck.loading.ranking import named_columns, ranking_lines, ranking_width


@pytest.mark.parametrize(
    ("text", "lines"),
    [
        ("", []),
        ("a\n", ["a\n"]),
        ("a\nb", ["a\n", "b"]),  # a last line without an ending still counts
        ("a\r\nb\r\n\n", ["a\n", "b\n", "\n"]),
        ("a\rb\r", ["a\n", "b\n"]),
        ("a\x0cb\u2028c\n", ["a\x0cb\u2028c\n"]),  # no line break for text mode, unlike str.splitlines
    ],
)
def test_lines_as_text_mode_reads_them(text: str, lines: list[str]) -> None:
    found = ranking_lines(text)
    assert [line.text for line in found] == lines
    assert [line.number for line in found] == list(range(1, len(lines) + 1))


def test_each_script_reads_a_line_its_way() -> None:
    (line,) = ranking_lines(" Q1\tC1\t 1 \tsupporting \n")
    assert line.stripped == ["Q1", "C1", " 1 ", "supporting"]  # NIST's driver and pooler: the line stripped
    assert line.cells == [" Q1", "C1", " 1 ", "supporting "]  # NIST's scorer: cells stripped one by one
    assert not line.blank
    assert ranking_lines(" \t\n")[0].blank


def test_the_width_of_each_condition_comes_from_the_registry() -> None:
    assert [ranking_width(c) for c in (5, 6, 7)] == [4, 3, 3]
    assert [ranking_width(f"Condition{c}") for c in (5, 6, 7)] == [4, 3, 3]
    assert ranking_width("condition5") == 3  # NIST's driver compares the folder's name exactly
    assert named_columns(4) == "query, claim, rank, relation"
