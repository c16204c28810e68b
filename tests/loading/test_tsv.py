"""One table type (aifcheck.loading.tsv): NIST's tolerance for over-long rows, and cells read as
their column's type with a message naming the file, the line and the column."""

from __future__ import annotations

from pathlib import Path

import pytest

from aifcheck.errors import InputError
from aifcheck.loading.tsv import TsvTable, TypedColumn, fit_cells, number, read_table, score
from aifcheck.pipeline.ta1.tables import HEADER_CELLS, confidence, document_rows, read_cells


def test_an_over_long_row_keeps_its_further_tabs_in_the_last_cell() -> None:
    assert fit_cells([" a ", "b", " c", "d "], 3) == ("a", "b", "c\td")
    assert fit_cells(["a", "b"], 3) == ("a", "b")  # too few: the reader says so


def test_a_table_read_from_a_file_is_the_table_printed_in_memory(tmp_path: Path) -> None:
    path = tmp_path / "t.tsv"
    path.write_text("x\ty\n 1 \t2\t3\n\n4\t5\n", encoding="utf-8")
    read = read_table(path, ("x", "y"))
    printed = TsvTable.printed(str(path), ("x ", "y"), ((" 1 ", "2\t3"), ("4", "5")))
    assert [row.cells for row in read.rows] == [row.cells for row in printed.rows] == [("1", "2\t3"), ("4", "5")]
    assert read.columns == printed.columns and [row.line for row in read.rows] == [2, 4]  # a blank line skipped


def test_a_cell_is_read_as_its_column_s_type_or_named_with_its_line(tmp_path: Path) -> None:
    path = tmp_path / "t.tsv"
    path.write_text("q\tvalue\nA\t0.5\nB\tmany\nC\t1e200\n", encoding="utf-8")
    table = read_table(path, ("q", "value"))
    column = TypedColumn("value", number)
    assert table.value(table.rows[0], column) == 0.5 and table.rows[0].cells[1] == "0.5"
    with pytest.raises(InputError, match=r"t.tsv:3: value: 'many' is not a number"):
        table.value(table.rows[1], column)
    assert table.value(table.rows[2], column) == 1e200
    with pytest.raises(InputError, match=r"t.tsv:4: value: '1e200' is no score \(at most 1e\+100 in size\)"):
        table.value(table.rows[2], TypedColumn("value", score))


def test_a_ta1_row_reads_its_typed_columns(tmp_path: Path) -> None:
    header = "\t".join(HEADER_CELLS["CM"])
    path = tmp_path / "cm.tsv"
    path.write_text(f'{header}\nc1\tEntity\tQ1\tD:E:(1,0)-(2,0)\tNotNegated\t"0.5"\tx\t1\n', encoding="utf-8")
    (row,) = document_rows("CM", "D", str(path), read_cells(path))
    assert row.value("type_statement_confidence") == 0.5 == confidence('"0.5"')
    assert row.value("mention_span").element == "E" and row["mention_span"] == "D:E:(1,0)-(2,0)"
    with pytest.raises(InputError, match=r"cm.tsv:2: cluster_membership_confidence 'x' is not a number; NIST's"):
        row.value("cluster_membership_confidence")
