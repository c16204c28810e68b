r"""NIST's SPARQL stage: each table of ``queries/`` run on a KB and printed as NIST's SPARQL tool
prints it. NIST's later stages (clean, validate, the TA1 scorer) read these printed cells, so this
module is the one place that knows NIST's printing rules; aifcheck.render.tables writes the tables.

Values print as SPARQL's TSV form of each term, where a plain string drops its quotes whenever its
text alone reads back as that string:

- an IRI as ``<iri>``, a blank node as ``_:id``; an unbound variable as an empty cell;
- a valid xsd:double, xsd:decimal or xsd:integer in its canonical form, unquoted (``1.0E0``);
- a plain string (xsd:string) as its bare text (``Q215627``), unless the text reads as a number
  (``"1.0"``, ``"01"``, ``"9999"``) or holds a character that TSV escapes: a double quote, a
  backslash, a tab, a newline or a carriage return. Then it is quoted, with those characters
  escaped as ``\"``, ``\\``, ``\t``, ``\n``, ``\r``
  (``"Romanoff claims Covid-19 was \"Chinese-specific\" ..."``);
- a language-tagged string quoted with its tag (``"Москва"@ru``), and a literal of any other
  datatype quoted with it (``"2020"^^<http://www.w3.org/2001/XMLSchema#gYear>``), both escaped
  the same way.

Rows come sorted by their printed cells, unless the query's ``# Order:`` header says otherwise
(aifcheck.extract.query.order_keys); a SELECT DISTINCT prints each row once, a plain SELECT (NIST's
CM table) a row per solution, so that rows NIST prints twice are printed twice.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from functools import cache, partial
from pathlib import Path

from aifcheck.errors import InputError, UsageError
from aifcheck.extract.query import (
    TAG,
    EntryPoints,
    Table,
    check_query_set,
    hidden_columns,
    is_distinct,
    order_keys,
    orders_by_line,
    parameters,
    query_text,
    table_names,
)
from aifcheck.extract.query import run_sparql as run_user_query
from aifcheck.extract.query import run_table as run_query
from aifcheck.loading.kb import KB, load_kb
from aifcheck.loading.rdf import BlankNode, Literal, NamedNode
from aifcheck.loading.tsv import TABLE_SUFFIX, TsvTable
from aifcheck.names import folder_condition
from aifcheck.spread.parallel import Spread, map_files

_XSD = "http://www.w3.org/2001/XMLSchema#"
_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")


def run_table(kb: KB, name: str, *, query_set: str = TAG, **params: str | Sequence[str]) -> TsvTable:
    """One of NIST's tables of a KB, as NIST's SPARQL stage prints it (see aifcheck.extract.query.run_table)."""
    return printed(kb, run_query(kb, name, query_set=query_set, **params))


def printed(kb: KB, table: Table) -> TsvTable:
    """A table of queries/ in NIST's printed form and order (``kb`` tells the lines an order may need)."""
    text = query_text(table.name, table.query_set)
    once = dict.fromkeys if is_distinct(text) else list
    hidden = hidden_columns(text)
    shown = [i for i, c in enumerate(table.columns) if c not in hidden]
    keys = order_keys(text)
    position = {c: i for i, c in enumerate(table.columns)}
    # each distinct term printed once: rows repeat their documents, types and clusters, and
    # printing them again was most of a small table's time
    cell = cache(format_term)
    rows = table.rows
    cells = [tuple(cell(row[i]) for i in shown) for row in rows]
    columns = tuple(table.columns[i] for i in shown)
    if not keys:
        return _file(table.name, columns, tuple(sorted(once(cells))))

    def order(index: int) -> tuple:
        row = rows[index]
        return (
            tuple(
                (kb.line_of(row[position[var]]) or 0) if by_line else cell(row[position[var]]) for var, by_line in keys
            )
            + cells[index]
        )

    return _file(table.name, columns, tuple(once(cells[i] for i in sorted(range(len(rows)), key=order))))


def run_sparql(kb: KB, text: str, name: str = "query", max_rows: int | None = 0) -> TsvTable:
    """A user's SELECT query (see aifcheck.extract.query.run_sparql), its rows printed and sorted."""
    table = run_user_query(kb, text, name, max_rows)
    return _file(
        table.name, table.columns, tuple(sorted(tuple(format_term(term) for term in row) for row in table.rows))
    )


def _file(name: str, columns: Sequence[str], rows: tuple[tuple[str, ...], ...]) -> TsvTable:
    """The file NIST's SPARQL stage prints of a table: ``<name>.rq.tsv``, a header of ``?column`` names."""
    return TsvTable.numbered(f"{name}{TABLE_SUFFIX}", tuple(f"?{c}" for c in columns), rows)


def format_term(term: object) -> str:
    """One cell as NIST prints it (see the module docstring)."""
    if term is None:
        return ""
    if isinstance(term, NamedNode):
        return f"<{term.value}>"
    if isinstance(term, BlankNode):
        return f"_:{term.value}"
    if not isinstance(term, Literal):
        return str(term)
    datatype = term.datatype.value
    canonical = _canonical_number(term.value, datatype.removeprefix(_XSD))
    if canonical is not None:
        return canonical
    # as SPARQL's TSV writes a string: backslash first, so that the other escapes stay readable
    quoted = term.value.replace("\\", "\\\\").replace('"', '\\"')
    quoted = quoted.replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")
    if term.language:
        return f'"{quoted}"@{term.language}'
    if datatype != _XSD + "string":
        return f'"{quoted}"^^<{datatype}>'
    return f'"{quoted}"' if quoted != term.value or _NUMBER.fullmatch(term.value) else term.value


def _canonical_number(lexical: str, datatype: str) -> str | None:
    """GraphDB's canonical form of a double, decimal or integer; None for other literals."""
    if datatype not in ("double", "decimal", "integer"):
        return None
    try:
        number = Decimal(lexical.strip())
    except InvalidOperation:
        return None  # an ill-typed literal prints as the text it has
    if datatype == "integer":
        return str(int(number)) if number == number.to_integral_value() else None
    if not number.is_finite():
        return "NaN" if number.is_nan() else ("-INF" if number < 0 else "INF")
    if datatype == "decimal":
        text = f"{number.normalize():f}"
        return text if "." in text else f"{text}.0"
    if number.is_zero():
        return "-0.0E0" if number.is_signed() else "0.0E0"
    sign, digits, exponent = number.normalize().as_tuple()
    figures = "".join(map(str, digits))
    return f"{'-' if sign else ''}{figures[0]}.{figures[1:] or '0'}E{exponent + len(figures) - 1}"


@dataclass(frozen=True)
class InputTables:
    """NIST's tables of one input, and the folder of NIST's layout they go in."""

    source: str
    folder: Path
    tables: tuple[TsvTable, ...]


def nist_tables(
    inputs: Sequence[str | os.PathLike],
    task: str,
    outdir: str | os.PathLike,
    entry_points: EntryPoints | None = None,
    spread: Spread | None = None,
    query_set: str = TAG,
) -> Iterator[InputTables | InputError]:
    """Every table of ``task`` for every input, each input's tables with their folder of NIST's
    layout under ``outdir`` (``DIR/<input file name>/``), in input order; an input that cannot be
    read gives its InputError, and the others are still run.

    A claim frame in a TA3 run laid out as NIST's (``.../ConditionN/<query>/<frame>.ttl``) goes
    where NIST puts its tables, ``DIR/ConditionN/<query>/<frame>.ttl/``. When two other inputs
    share a file name, each input's folder path, taken relative to the folder that holds all
    inputs, is mirrored under DIR. TA2 tables run once per entry point of their kind, and need one.
    ``spread`` runs the inputs in processes or on a Dask cluster (aifcheck.spread.parallel; one
    after another here by default);
    ``query_set`` is one of aifcheck.extract.query.QUERY_SETS.
    """
    names = tuple(table_names(task))
    entry_points = entry_points or EntryPoints()
    if task == "ta2" and not (entry_points.kb_id or entry_points.name):
        raise UsageError("the TA2 tables need entry points: give --kb-id, --name or --entry-points")
    folders = _output_folders(inputs, Path(outdir), nested=task == "ta3")
    paths = [str(p) for p in inputs]
    task_tables = partial(_input_tables, names=names, entry_points=entry_points, query_set=check_query_set(query_set))
    found = map_files(task_tables, paths, InputError, spread or Spread())
    for path, folder, outcome in zip(paths, folders, found, strict=True):
        yield outcome if isinstance(outcome, InputError) else InputTables(path, folder, outcome)


def _input_tables(
    path: str, names: tuple[str, ...], entry_points: EntryPoints, query_set: str
) -> tuple[TsvTable, ...] | InputError:
    """Every table of ``names`` that its entry points allow."""
    try:
        kb = load_kb(path, lines=any(orders_by_line(name, query_set) for name in names))
    except InputError as exc:
        return exc
    tables = []
    with kb:
        for name in names:
            params = {var: entry_points.get(kind) for var, kind in parameters(name, query_set).items()}
            if all(params.values()):
                tables.append(run_table(kb, name, query_set=query_set, **params))
    return tuple(tables)


def _output_folders(inputs: Sequence[str | os.PathLike], outdir: Path, nested: bool = False) -> list[Path]:
    paths = [Path(p).resolve() for p in inputs]
    folders = [outdir / _from_condition(p) if nested and _from_condition(p) else None for p in paths]
    rest = [p for p, folder in zip(paths, folders, strict=True) if folder is None]
    if len({p.name for p in rest}) == len(rest):
        flat = iter(outdir / p.name for p in rest)
    else:
        root = Path(os.path.commonpath([p.parent for p in rest]))
        flat = iter(outdir / p.parent.relative_to(root) / p.name for p in rest)
    return [folder if folder is not None else next(flat) for folder in folders]


def _from_condition(path: Path) -> Path | None:
    """ConditionN/<query>/<frame>.ttl, the end of a claim frame's path in a TA3 run (None when not in one)."""
    parts = path.parts
    for i in range(len(parts) - 3, -1, -1):
        if folder_condition(parts[i]) is not None:
            return Path(*parts[i:])
    return None
