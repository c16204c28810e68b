"""Score files of any task read into typed values: the tables NIST's scorers write
(``scores/<Metric>-scores.tab`` of TA1, TA2 and TA3) and CRUX's claim scores (aifcheck's JSON or
text output), each with its layout (which rows are summaries, which column names the document or
query) and its headline metrics as per-document or per-query units.

A table is read as NIST's file handler reads it (``generate_confidence_intervals.py`` reads its
input this way): the header's trailing whitespace removed, then split at tabs; each other line
split at most (columns - 1) times, every cell stripped; a line with fewer cells than the header
(a blank line included) is an error naming the line.
"""

from __future__ import annotations

import fnmatch
import json
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from aifcheck.errors import InputError
from aifcheck.loading.paths import read_text, regular_files
from aifcheck.loading.tsv import TsvRow, TsvTable, fit_cells

ALL = "ALL"  # a key cell of a summary row that stands for every value of its column
ALL_MACRO = "ALL-Macro"
ALL_MICRO = "ALL-Micro"
_ROUNDING = 1.5e-4  # a mean of 4-decimal cells against the 4-decimal mean of the unrounded values


def metric_name(table: TsvTable) -> str:
    """A score table's metric: its file's name without ``-scores.tab`` (or its extension)."""
    stem = Path(table.path).name
    for suffix in ("-scores.tab", "-scores.txt", ".tab", ".json", ".txt"):
        if stem.endswith(suffix):
            return stem[: -len(suffix)]
    return stem


def read_table(path: str | os.PathLike) -> TsvTable:
    """A tab-separated score table (header line first), read as NIST's file handler reads it."""
    # universal newlines, as NIST's reader iterates over a file opened in text mode
    return _table(str(path), read_text(path, universal=True).split("\n"))


def _table(name: str, lines: list[str]) -> TsvTable:
    if lines and lines[-1] == "":
        lines.pop()  # the newline that ends the last line
    if not lines or not lines[0].strip():
        raise InputError(name, "empty: expected a header line naming the columns", 1)
    columns = tuple(cell.strip() for cell in lines[0].rstrip().split("\t"))
    width = len(columns)
    rows = []
    for number, line in enumerate(lines[1:], 2):
        cells = fit_cells(line.split("\t"), width)
        if len(cells) < width:
            raise InputError(
                name, f"{len(cells)} cell{'s' if len(cells) != 1 else ''}, the header has {width} columns", number
            )
        rows.append(TsvRow(number, cells))
    return TsvTable(name, columns, tuple(rows))


# CRUX claim scores, as `aifcheck score crux-claims` prints them (render/crux.py)
CRUX_COLUMNS = ("document", "TP", "FP", "FN", "precision", "recall", "F1", "accuracy")
_CRUX_JSON = {
    "TP": "true_positives",
    "FP": "false_positives",
    "FN": "false_negatives",
    "precision": "precision",
    "recall": "recall",
    "F1": "f1",
    "accuracy": "accuracy",
}


def _crux_json(name: str, text: str) -> TsvTable:
    try:
        document = json.loads(text)
    except ValueError as exc:
        raise InputError(name, f"not JSON: {exc}") from None
    if isinstance(document, dict) and "macro_f1" in document:
        raise InputError(name, "CRUX relation scores have no per-document rows: nothing to resample")
    if not (isinstance(document, dict) and isinstance(document.get("documents"), dict)):
        raise InputError(
            name, "not a score file: expected CRUX claim scores (aifcheck score crux-claims --format json)"
        )

    def cells(label: str, values: object) -> tuple[str, ...]:
        if not isinstance(values, dict):
            raise InputError(name, f"document {label!r}: expected an object of scores")
        return (label, *(str(values.get(key, "")) for key in _CRUX_JSON.values()))

    rows = [TsvRow(None, cells(uid, values)) for uid, values in document["documents"].items()]
    rows.append(TsvRow(None, cells(ALL, document)))
    return TsvTable(name, CRUX_COLUMNS, tuple(rows))


def _crux_text(name: str, lines: list[str]) -> TsvTable:
    """The first table of the text output (per document, then ALL), up to its blank line."""
    rows = []
    for number, line in enumerate(lines[1:], 2):
        if not line.strip():
            break
        cells = tuple(line.split())
        if len(cells) != len(CRUX_COLUMNS):
            raise InputError(
                name, f"{len(cells)} cells, expected {len(CRUX_COLUMNS)} ({' '.join(CRUX_COLUMNS)})", number
            )
        rows.append(TsvRow(number, cells))
    return TsvTable(name, CRUX_COLUMNS, tuple(rows))


def read_score_file(path: str | os.PathLike) -> TsvTable:
    """Any score file aifcheck writes: a NIST score table (``.tab``, tab-separated), or CRUX's
    claim scores as JSON or text."""
    name = str(path)
    text = read_text(path, universal=True)
    if text.lstrip().startswith("{"):
        return _crux_json(name, text)
    lines = text.split("\n")
    if "\t" not in lines[0] and tuple(lines[0].split()) == CRUX_COLUMNS:
        return _crux_text(name, lines)
    return _table(name, lines)


@dataclass(frozen=True)
class Layout:
    """How a task's score table is read: NIST's settings for its confidence intervals (key,
    summary rows, the document or query column, whether samples are per-document means) and
    which summary rows and column are its headline."""

    task: str
    key: tuple[str, ...]
    summary: tuple[tuple[str, str], ...]  # (column, value): a summary row matches one value per column
    unit: str  # the column naming the document or query
    unit_name: str  # "document" or "query"
    run: str | None
    macro: bool  # the headline is a mean of per-unit means (else a mean of rows, or a ratio of counts)
    headline_rows: tuple[tuple[str, str], ...]  # the summary rows that are headlines
    exclude_zero: str | None = None  # data rows whose cell here is 0 are not part of the headline
    counts: bool = False  # CRUX: units pool their TP, FP, FN

    def headline_column(self, table: TsvTable) -> str:
        if self.task == "ta2":
            return "AP"
        if self.task == "crux-claims":
            return "F1"
        return table.columns[-1]


TA1 = Layout(
    "ta1",
    ("RunID", "Language", "Metatype"),
    (("DocID", ALL_MACRO), ("DocID", ALL_MICRO)),
    "DocID",
    "document",
    "RunID",
    True,
    (("DocID", ALL_MACRO),),
)
TA2 = Layout(
    "ta2",
    ("RunID",),
    (("QueryID", ALL_MACRO),),
    "QueryID",
    "query",
    "RunID",
    False,
    (("QueryID", ALL_MACRO),),
    exclude_zero="RelCntd",
)
TA3 = Layout(
    "ta3",
    ("Condition", "ClaimRelation", "RunID"),
    (("QueryID", ALL_MACRO),),
    "QueryID",
    "query",
    "RunID",
    True,
    (("QueryID", ALL_MACRO),),
    exclude_zero="GT",
)
CRUX_CLAIMS = Layout(
    "crux-claims",
    ("document",),
    (("document", ALL),),
    "document",
    "document",
    None,
    False,
    (("document", ALL),),
    counts=True,
)


def layout_of(table: TsvTable) -> Layout | None:
    """The layout of a table aifcheck (or NIST) writes, recognised by its columns; None if unknown."""
    columns = table.columns
    if columns[:4] == ("DocID", "RunID", "Language", "Metatype"):
        return TA1
    if columns[:4] == ("Condition", "QueryID", "ClaimRelation", "RunID"):
        return TA3
    if {"ScoutEntity", "RunID", "QueryID", "RelCntd", "AP"} <= set(columns):
        return TA2
    if columns == CRUX_COLUMNS:
        return CRUX_CLAIMS
    return None


def summary_matcher(table: TsvTable, summary: tuple[tuple[str, str], ...]):
    """row -> whether it is a summary row: for each column of ``summary``, its cell is one of the
    values given for that column (a column the table lacks matches no row, as in NIST's tool)."""
    wanted: dict[str, set[str]] = {}
    for column, value in summary:
        wanted.setdefault(column, set()).add(value)
    getters = [(table.getter(column), values) for column, values in wanted.items()]
    return lambda row: all(get(row) in values for get, values in getters)


@dataclass(frozen=True)
class Unit:
    """A document or query of a headline: the statistic is the sum of the units' numerators
    over the sum of their denominators (a mean of units: numerator = the unit's value,
    denominator 1; a mean of rows: the unit's row sum and count; CRUX: counts)."""

    id: str
    numerator: float
    denominator: float


@dataclass(frozen=True)
class Headline:
    """One headline number of a score file, with the units it is computed from."""

    metric: str  # the file's metric name, e.g. FrameMetric
    label: str  # the metric and, where a file has several headlines, their key, e.g. "NDCGScorerV1 Condition5 ontopic"
    column: str
    key: tuple[tuple[str, str], ...]  # the summary row's key cells
    reported: float | None  # the value the file prints on the summary row (None when blank)
    line: int | None  # the summary row's line
    units: tuple[Unit, ...]
    unit_name: str
    path: str

    @property
    def value(self) -> float:
        """The statistic recomputed from the units."""
        denominator = sum(u.denominator for u in self.units)
        return sum(u.numerator for u in self.units) / denominator if denominator else 0.0

    def disagreement(self) -> str | None:
        """A warning when the summary row's value is not what its rows give (beyond the rounding
        of the rows' and its own 4 decimals): the file was edited, or its task is read wrongly."""
        if self.reported is None or not self.units or abs(self.reported - self.value) <= _ROUNDING:
            return None
        where = f"{self.path}:{self.line}" if self.line is not None else self.path
        return f"{where}: {self.label} is {self.reported:.4f} on its summary row, {self.value:.4f} from its rows"


@dataclass(frozen=True)
class MetricTable:
    """A score table with its layout (None when the columns are not those of a known task)."""

    table: TsvTable
    layout: Layout | None

    @property
    def name(self) -> str:
        return metric_name(self.table)


@dataclass(frozen=True)
class ScoreSet:
    """The score tables of one scored run: a folder (``OUT``, ``OUT/scores`` or NIST's scores
    folder) or one file."""

    path: str
    tables: tuple[MetricTable, ...]

    @property
    def name(self) -> str:
        path = Path(self.path)
        return (path.parent.name if path.name == "scores" else path.name) or str(path)

    def headlines(self) -> list[Headline]:
        return [h for t in self.tables if t.layout is not None for h in headlines(t)]


def wildcard_columns(table: TsvTable, is_summary, key_cells: Mapping[str, str]) -> list[str]:
    """The key columns whose ``ALL`` matches any value, as NIST's tool finds them: the columns
    where the summary row holds ALL, less those where a data row holds ALL too. NIST removes
    them from the list it is walking, so the column after a removed one goes unexamined for
    that row (research: confidence-intervals.md §8 quirk 1); this walk does the same."""
    columns = [name for name, value in key_cells.items() if value == ALL]
    getters = {name: table.getter(name) for name in columns}
    for row in table.rows:
        if not columns:
            break
        if is_summary(row):
            continue
        i = 0
        while i < len(columns):
            if getters[columns[i]](row) == ALL:
                del columns[i]
            i += 1  # after a removal this steps over the column that moved into place i
    return columns


def sample_rows(table: TsvTable, is_summary, key_cells: Mapping[str, str], wildcards: list[str]) -> list[TsvRow]:
    """The data rows of a key: those whose key cells equal the summary row's, a wildcard column
    matching anything; in file order."""
    fixed = [(table.getter(name), value) for name, value in key_cells.items() if name not in wildcards]
    return [row for row in table.rows if not is_summary(row) and all(get(row) == value for get, value in fixed)]


def key_cells(table: TsvTable, row: TsvRow, key: tuple[str, ...]) -> dict[str, str]:
    """A row's cells of the key columns (each column once, in key order)."""
    return {name: table.getter(name)(row) for name in dict.fromkeys(key)}


def _units(table: TsvTable, layout: Layout, rows: list[TsvRow], column: str) -> tuple[Unit, ...]:
    unit_of = table.getter(layout.unit)
    grouped: dict[str, list[TsvRow]] = {}
    for row in rows:
        grouped.setdefault(unit_of(row), []).append(row)
    units = []
    for unit, members in grouped.items():
        if layout.counts:
            tp, fp, fn = (sum(table.number(r, c) for r in members) for c in ("TP", "FP", "FN"))
            if column == "accuracy":
                units.append(Unit(unit, sum(table.number(r, "accuracy") * table.number(r, "TP") for r in members), tp))
            else:
                denominators = {"F1": 2 * tp + fp + fn, "precision": tp + fp, "recall": tp + fn}
                units.append(Unit(unit, 2 * tp if column == "F1" else tp, denominators[column]))
            continue
        total = 0.0
        for row in members:  # added in file order, as NIST's mean of a document does
            total += table.number(row, column)
        if layout.macro:
            units.append(Unit(unit, total / len(members), 1.0))
        else:
            units.append(Unit(unit, total, float(len(members))))
    return tuple(units)


def headline_rows(table: TsvTable, layout: Layout) -> Iterator[TsvRow]:
    """The summary rows that are headlines: ALL-Macro rows (all languages and metatypes for TA1)."""
    is_headline = summary_matcher(table, layout.headline_rows)
    return (row for row in table.rows if is_headline(row))


def headline_data(table: TsvTable, layout: Layout) -> tuple[TsvTable, object]:
    """The table without the data rows that are not part of the headline (TA2 rows with RelCntd 0,
    TA3 queries with GT 0, which NIST's ALL-Macro leaves out), and its summary matcher."""
    is_summary = summary_matcher(table, layout.summary)
    if layout.exclude_zero is None or not table.has(layout.exclude_zero):
        return table, is_summary
    kept = tuple(r for r in table.rows if is_summary(r) or table.number(r, layout.exclude_zero) != 0)
    return TsvTable(table.path, table.columns, kept), is_summary


def headlines(metric: MetricTable) -> list[Headline]:
    """The headline numbers of a table: for TA1 the ALL-Macro row of all languages and metatypes;
    for TA2 the Summary row; for TA3 the ALL-Macro row of each condition and list; for CRUX the
    pooled F1, precision, recall and accuracy."""
    table, layout = metric.table, metric.layout
    if layout is None:
        return []
    columns = ("F1", "precision", "recall", "accuracy") if layout.counts else (layout.headline_column(table),)
    table.require(layout.unit, *layout.key, *columns)
    data, is_summary = headline_data(table, layout)
    found = []
    for row in headline_rows(table, layout):
        key = tuple((k, table.getter(k)(row)) for k in layout.key)
        if layout.task == "ta1" and any(value != ALL for name, value in key if name != layout.run):
            continue
        cells = key_cells(table, row, layout.key)
        sample = sample_rows(data, is_summary, cells, wildcard_columns(data, is_summary, cells))
        for column in columns:
            cell = table.getter(column)(row)
            reported = table.number(row, column) if cell != "" else None
            label = " ".join(
                [
                    metric.name if column == layout.headline_column(table) else f"{metric.name} {column}",
                    *(value for name, value in key if name != layout.run and value != ALL),
                ]
            )
            found.append(
                Headline(
                    metric.name,
                    label,
                    column,
                    key,
                    reported,
                    row.line,
                    _units(table, layout, sample, column),
                    layout.unit_name,
                    table.path,
                )
            )
    return found


SCORE_PATTERNS = ("*-scores.tab",)


def read_scores(path: str | os.PathLike) -> ScoreSet:
    """A scored run: a folder that ``score ta1|ta2|ta3`` wrote (its ``scores/*-scores.tab``), NIST's
    scores folder of a run, or one score file."""
    root = Path(path)
    if not root.is_dir():
        table = read_score_file(root)  # (which says what else it is: missing, a FIFO, ...)
        return ScoreSet(str(root), (MetricTable(table, layout_of(table)),))
    folder = root / "scores" if (root / "scores").is_dir() else root
    files = regular_files(folder, lambda name: any(fnmatch.fnmatchcase(name, p) for p in SCORE_PATTERNS))
    if not files:
        raise InputError(str(root), "no score files (<Metric>-scores.tab) here or under scores/")
    tables = []
    for file in files:
        table = read_score_file(file)
        tables.append(MetricTable(table, layout_of(table)))
    return ScoreSet(str(root), tuple(tables))
