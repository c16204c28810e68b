"""NIST's evaluation tables, reproduced with the SPARQL files of ``queries/`` on pyoxigraph.

Each ``queries/<NAME>.rq`` is one table; NIST writes it as ``<NAME>.rq.tsv``. Values print as
NIST's pipeline (GraphDB's SPARQL TSV, with the quotes of plain strings dropped) prints them:

- an IRI as ``<iri>``; an unbound variable as an empty cell;
- an xsd:double, xsd:decimal or xsd:integer in its canonical form, unquoted (``1.0E0``);
- any other literal as its text, unquoted, unless the text reads as a number: then it keeps its
  quotes so that it stays a string (``"1.0"``, ``"01"``, ``"9999"``).
"""
from __future__ import annotations

import importlib.resources
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from functools import cache
from pathlib import Path

import pyoxigraph

from .errors import InputError, UsageError
from .kb import KB, load_kb

TASKS = ("ta1", "ta2", "ta3")
NIST_PREFIX = "AIDA_P3_"
_XSD = "http://www.w3.org/2001/XMLSchema#"
_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")
_PARAMETER = re.compile(r"^#\s*Parameter:\s*\?(\w+)\s+(\w+)", re.MULTILINE)
# SERVICE as a keyword: not part of a prefixed name, a variable or a longer word.
_SERVICE = re.compile(r"(?<![\w:?$])SERVICE(?![\w:])", re.IGNORECASE)
# Comments, IRIs and string literals: blanked out before looking for the keyword.
_NOT_KEYWORDS = re.compile(
    r'#[^\n]*|<[^<>"{}|^`\\\s]*>'
    r'|"""[\s\S]*?"""|\'\'\'[\s\S]*?\'\'\''
    r'|"(\\.|[^"\\\n])*"|\'(\\.|[^\'\\\n])*\''
)


@dataclass(frozen=True)
class Table:
    """A query result as NIST prints it: column names (without '?') and rows of printed cells."""

    name: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]

    def to_tsv(self) -> str:
        lines = ["\t".join(f"?{c}" for c in self.columns), *("\t".join(row) for row in self.rows)]
        return "\n".join(lines) + "\n"

    def records(self) -> list[dict[str, str]]:
        return [dict(zip(self.columns, row)) for row in self.rows]


@dataclass(frozen=True)
class EntryPoints:
    """TA2 query entry points: KB IDs (table P0001) and name strings (table P0002)."""

    kb_id: tuple[str, ...] = ()
    name: tuple[str, ...] = ()

    @classmethod
    def read(cls, path: str | os.PathLike) -> EntryPoints:
        """Read a file of ``kb_id<TAB>VALUE`` or ``name<TAB>VALUE`` lines (``#`` starts a comment)."""
        try:
            lines = Path(path).read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as exc:
            raise InputError(str(path), f"cannot read entry points: {exc}") from None
        found: dict[str, list[str]] = {"kb_id": [], "name": []}
        for number, line in enumerate(lines, 1):
            if not line.strip() or line.startswith("#"):
                continue
            kind, _, value = line.partition("\t")
            if kind not in found or not value:
                raise UsageError(f"{path}:{number}: expected 'kb_id<TAB>VALUE' or 'name<TAB>VALUE'")
            found[kind].append(value)
        return cls(tuple(found["kb_id"]), tuple(found["name"]))

    def get(self, kind: str) -> tuple[str, ...]:
        return getattr(self, kind)


@dataclass
class LayoutResult:
    """What write_nist_layout wrote, and the inputs it could not read."""

    written: list[Path] = field(default_factory=list)
    errors: list[InputError] = field(default_factory=list)


def table_names(task: str | None = None) -> list[str]:
    """NIST's tables (all, or those of one task), sorted; aifcheck's own queries are not tables."""
    names = sorted(n for n in _query_files() if n.startswith(NIST_PREFIX))
    if task is None:
        return names
    if task not in TASKS:
        raise UsageError(f"unknown task {task!r}; choose one of {', '.join(TASKS)}")
    return [n for n in names if n.startswith(f"{NIST_PREFIX}{task.upper()}_")]


def query_text(name: str) -> str:
    files = _query_files()
    if name.removesuffix(".rq") not in files:
        raise UsageError(f"unknown table {name!r}; known tables: {', '.join(table_names())}")
    return files[name.removesuffix(".rq")]


def parameters(name: str) -> dict[str, str]:
    """The variables a table needs bound, from its ``# Parameter: ?VAR KIND`` header lines."""
    return dict(_PARAMETER.findall(query_text(name)))


def run_table(kb: KB, name: str, **params: str | Sequence[str]) -> Table:
    """Run one table's query. A parameter given several values is run once per value.

    Values are bound as RDF string literals through pyoxigraph's substitutions, never pasted
    into the query text.
    """
    name = name.removesuffix(".rq")
    text = query_text(name)
    needed = parameters(name)
    unknown = set(params) - set(needed)
    if unknown:
        raise UsageError(f"table {name} takes no parameter {', '.join(sorted(unknown))}")
    missing = [var for var in needed if not params.get(var)]
    if missing:
        raise UsageError(f"table {name} needs a value for {', '.join('?' + m for m in missing)}")
    rows: list[tuple[str, ...]] = []
    for binding in _bindings(params):
        columns, found = _select(kb, text, binding, name)
        rows.extend(found)
    return Table(name, columns, tuple(sorted(rows)))


def check_user_query(text: str, name: str = "query") -> None:
    """Refuse SERVICE (a federated query): aifcheck queries only the files it is given."""
    if _SERVICE.search(_NOT_KEYWORDS.sub(" ", text)):
        raise UsageError(f"{name}: SERVICE is not allowed: aifcheck queries only the given files")


def run_sparql(kb: KB, text: str, name: str = "query") -> Table:
    """Run a user's SELECT query; SERVICE is refused (see check_user_query)."""
    check_user_query(text, name)
    columns, rows = _select(kb, text, {}, name)
    return Table(name, columns, tuple(sorted(rows)))


def format_term(term: object) -> str:
    """One cell as NIST prints it (see the module docstring)."""
    if term is None:
        return ""
    if isinstance(term, pyoxigraph.NamedNode):
        return f"<{term.value}>"
    if isinstance(term, pyoxigraph.BlankNode):
        return f"_:{term.value}"
    if not isinstance(term, pyoxigraph.Literal):
        return str(term)
    canonical = _canonical_number(term.value, term.datatype.value.removeprefix(_XSD))
    if canonical is not None:
        return canonical
    text = term.value.replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")
    return f'"{text}"' if _NUMBER.fullmatch(term.value) else text


def write_nist_layout(
    inputs: Sequence[str | os.PathLike],
    task: str,
    outdir: str | os.PathLike,
    entry_points: EntryPoints | None = None,
    jobs: int = 1,
) -> LayoutResult:
    """Write every table of ``task`` for every input as ``DIR/<input file name>/<TABLE>.rq.tsv``.

    When two inputs share a file name (the same claim frame ID under two conditions), each
    input's folder path, taken relative to the folder that holds all inputs, is mirrored under
    DIR for every input, e.g. ``DIR/Condition5/<query>/<frame>.ttl/`` and
    ``DIR/Condition6/<topic>/<frame>.ttl/``, as NIST lays out its TA3 results.
    TA2 tables run once per entry point of their kind; a table with no entry point is skipped.
    An unreadable input is reported in the result and the others are still written.
    ``jobs`` > 1 spreads the inputs over that many processes.
    """
    names = tuple(table_names(task))
    entry_points = entry_points or EntryPoints()
    folders = _output_folders(inputs, Path(outdir))
    result = LayoutResult()
    count = len(folders)
    if jobs > 1 and count > 1:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            outcomes = list(pool.map(_write_tables, map(str, inputs), folders, [names] * count, [entry_points] * count, chunksize=8))
    else:
        outcomes = [_write_tables(str(p), f, names, entry_points) for p, f in zip(inputs, folders)]
    for outcome in outcomes:
        if isinstance(outcome, InputError):
            result.errors.append(outcome)
        else:
            result.written += outcome
    return result


def _write_tables(path: str, folder: Path, names: tuple[str, ...], entry_points: EntryPoints) -> list[Path] | InputError:
    try:
        kb = load_kb(path)
    except InputError as exc:
        return exc
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    with kb:
        for name in names:
            params = {var: entry_points.get(kind) for var, kind in parameters(name).items()}
            if any(not values for values in params.values()):
                continue
            target = folder / f"{name}.rq.tsv"
            target.write_text(run_table(kb, name, **params).to_tsv(), encoding="utf-8")
            written.append(target)
    return written


def _output_folders(inputs: Sequence[str | os.PathLike], outdir: Path) -> list[Path]:
    paths = [Path(p).resolve() for p in inputs]
    if len({p.name for p in paths}) == len(paths):
        return [outdir / p.name for p in paths]
    root = Path(os.path.commonpath([p.parent for p in paths]))
    return [outdir / p.parent.relative_to(root) / p.name for p in paths]


def _bindings(params: Mapping[str, str | Sequence[str]]) -> Iterable[dict[str, str]]:
    # One run per combination (tables take at most one parameter: one run per value).
    combos: list[dict[str, str]] = [{}]
    for var, values in params.items():
        values = [values] if isinstance(values, str) else list(values)
        combos = [{**combo, var: value} for combo in combos for value in values]
    return combos


def _select(
    kb: KB, text: str, binding: Mapping[str, str], name: str = "query"
) -> tuple[tuple[str, ...], list[tuple[str, ...]]]:
    substitutions = {pyoxigraph.Variable(k): pyoxigraph.Literal(v) for k, v in binding.items()}
    try:
        solutions = kb.store.query(text, substitutions=substitutions)
    except SyntaxError as exc:
        raise UsageError(f"{name}: SPARQL syntax error: {exc.msg or exc}") from None
    if not isinstance(solutions, pyoxigraph.QuerySolutions):
        raise UsageError(f"{name}: only SELECT queries make a table")
    columns = tuple(v.value for v in solutions.variables)
    rows = [tuple(format_term(solution[c]) for c in columns) for solution in solutions]
    return columns, rows


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


@cache
def _query_files() -> dict[str, str]:
    folder = importlib.resources.files("aifcheck.queries")
    return {f.name[:-3]: f.read_text(encoding="utf-8") for f in folder.iterdir() if f.name.endswith(".rq")}
