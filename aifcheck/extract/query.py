r"""NIST's evaluation tables, reproduced with the SPARQL files of ``queries/`` on pyoxigraph.

Each ``queries/<NAME>.rq`` is one table; NIST writes it as ``<NAME>.rq.tsv``. Values print as
NIST's SPARQL tool prints them: SPARQL's TSV form of each term, where a plain string drops its
quotes whenever its text alone reads back as that string:

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
"""
from __future__ import annotations

import importlib.resources
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from functools import cache, partial
from pathlib import Path

import pyoxigraph

from ..choices import did_you_mean
from ..errors import InputError, UsageError
from ..loading.kb import KB, load_kb
from ..spread.parallel import Spread, map_files

TASKS = ("ta1", "ta2", "ta3")
NIST_PREFIX = "AIDA_P3_"
_XSD = "http://www.w3.org/2001/XMLSchema#"
_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")
_PARAMETER = re.compile(r"^#\s*Parameter:\s*\?(\w+)\s+(\w+)", re.MULTILINE)
# SERVICE as a keyword: not part of a prefixed name, a variable or a longer word.
_SERVICE = re.compile(r"(?<![\w:?$])SERVICE(?![\w:])", re.IGNORECASE)
# The keywords of SPARQL Update, which a SELECT query never holds.
_UPDATE = re.compile(r"(?<![\w:?$])(INSERT|DELETE|LOAD|CLEAR|CREATE|DROP|COPY|MOVE|ADD)(?![\w:])", re.IGNORECASE)
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
    """The query of a table (or of one of aifcheck's own queries), named in any case."""
    files = _query_files()
    return files[table_name(name)]


def table_name(name: str) -> str:
    """The table a user means (case aside, with or without .rq); UsageError with the nearest names."""
    files = _query_files()
    stem = name.removesuffix(".rq")
    if stem in files:
        return stem
    by_fold = {n.casefold(): n for n in files}
    if stem.casefold() in by_fold:
        return by_fold[stem.casefold()]
    raise UsageError(f"unknown table '{name}'{did_you_mean(stem, table_names())}; known tables: {', '.join(table_names())}")


def parameters(name: str) -> dict[str, str]:
    """The variables a table needs bound, from its ``# Parameter: ?VAR KIND`` header lines."""
    return dict(_PARAMETER.findall(query_text(name)))


def orders_by_line(name: str) -> bool:
    """Whether a table's rows follow the lines of the file (a line() key in its "# Order:" header)."""
    return any(by_line for _, by_line in _order_keys(query_text(name)))


def run_table(kb: KB, name: str, **params: str | Sequence[str]) -> Table:
    """Run one table's query. A parameter given several values is run once per value.

    Values are bound as RDF string literals through pyoxigraph's substitutions, never pasted
    into the query text.
    """
    name = table_name(name)
    text = query_text(name)
    needed = parameters(name)
    unknown = set(params) - set(needed)
    if unknown:
        raise UsageError(f"table {name} takes no parameter {', '.join(sorted(unknown))}")
    missing = [var for var in needed if not params.get(var)]
    if missing:
        raise UsageError(f"table {name} needs a value for {', '.join('?' + m for m in missing)}")
    solutions: list[tuple] = []
    for binding in _bindings(params):
        columns, found = _select(kb, text, binding, name)
        solutions.extend(found)
    return _table(kb, name, text, columns, solutions)


# A table's rows come in NIST's order: sorted, unless its query says otherwise in a header line
#   # Order: ?var line(?other) ...
# (by ?var's printed value, then by the line where ?other is written, as GraphDB returns rows in
# the order the file gave their statements when NIST's query sorts on fewer columns than it
# prints; rows that tie on every key stay sorted). "# Hidden: ?other" keeps a variable the order
# needs out of the printed columns.
_ORDER = re.compile(r"^#\s*Order:\s*(.+)$", re.MULTILINE)
_HIDDEN = re.compile(r"^#\s*Hidden:\s*(.+)$", re.MULTILINE)
_ORDER_KEY = re.compile(r"line\(\?(\w+)\)|\?(\w+)")


@cache
def _order_keys(text: str) -> tuple[tuple[str, bool], ...]:
    """The "# Order:" keys of a query: (variable, whether by the line where it is written)."""
    return tuple((m[1] or m[2], bool(m[1])) for line in _ORDER.findall(text) for m in _ORDER_KEY.finditer(line))


def _table(kb: KB, name: str, text: str, columns: tuple[str, ...], solutions: list[tuple]) -> Table:
    hidden = {m[2] for line in _HIDDEN.findall(text) for m in _ORDER_KEY.finditer(line)}
    shown = [i for i, c in enumerate(columns) if c not in hidden]
    keys = _order_keys(text)
    position = {c: i for i, c in enumerate(columns)}
    # each distinct term printed once: rows repeat their documents, types and clusters, and
    # printing them again was most of a small table's time
    cell = cache(format_term)
    printed = [tuple(cell(solution[i]) for i in shown) for solution in solutions]
    if not keys:
        return Table(name, tuple(columns[i] for i in shown), tuple(sorted(set(printed))))

    def order(index: int) -> tuple:
        solution = solutions[index]
        return tuple(
            (kb.line_of(solution[position[var]]) or 0) if by_line else cell(solution[position[var]])
            for var, by_line in keys
        ) + printed[index]

    rows = dict.fromkeys(printed[i] for i in sorted(range(len(solutions)), key=order))  # (distinct, in order)
    return Table(name, tuple(columns[i] for i in shown), tuple(rows))


def check_user_query(text: str, name: str = "query") -> None:
    """Refuse SERVICE (a federated query) and updates: aifcheck only reads the files it is given."""
    keywords = _NOT_KEYWORDS.sub(" ", text)
    if _SERVICE.search(keywords):
        raise UsageError(f"{name}: SERVICE is not allowed: aifcheck queries only the given files")
    update = _UPDATE.search(keywords)
    if update:
        raise UsageError(f"{name}: SPARQL updates ({update[0].upper()}) are not allowed: aifcheck only reads the given files")


def run_sparql(kb: KB, text: str, name: str = "query") -> Table:
    """Run a user's SELECT query; SERVICE is refused (see check_user_query)."""
    check_user_query(text, name)
    columns, solutions = _select(kb, text, {}, name)
    return Table(name, columns, tuple(sorted(tuple(format_term(term) for term in s) for s in solutions)))


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


def write_nist_layout(
    inputs: Sequence[str | os.PathLike],
    task: str,
    outdir: str | os.PathLike,
    entry_points: EntryPoints | None = None,
    spread: Spread = Spread(),
) -> LayoutResult:
    """Write every table of ``task`` for every input as ``DIR/<input file name>/<TABLE>.rq.tsv``.

    A claim frame in a TA3 run laid out as NIST's (``.../ConditionN/<query>/<frame>.ttl``) goes
    where NIST puts its tables, ``DIR/ConditionN/<query>/<frame>.ttl/``. When two other inputs
    share a file name, each input's folder path, taken relative to the folder that holds all
    inputs, is mirrored under DIR. TA2 tables run once per entry point of their kind, and need one.
    An unreadable input is reported in the result and the others are still written.
    ``spread`` runs the inputs in processes or on a Dask cluster (aifcheck.parallel).
    """
    names = tuple(table_names(task))
    entry_points = entry_points or EntryPoints()
    if task == "ta2" and not (entry_points.kb_id or entry_points.name):
        raise UsageError("the TA2 tables need entry points: give --kb-id, --name or --entry-points")
    folders = _output_folders(inputs, Path(outdir), nested=task == "ta3")
    paths = [str(p) for p in inputs]
    result = LayoutResult()
    # the tables come back as text and are written here: a cluster's workers may not see DIR
    found = map_files(partial(_tables_text, names=names, entry_points=entry_points), paths, InputError, spread)
    for folder, outcome in zip(folders, found):
        if isinstance(outcome, InputError):
            result.errors.append(outcome)
            continue
        folder.mkdir(parents=True, exist_ok=True)
        for name, text in outcome.items():
            (folder / name).write_text(text, encoding="utf-8")
            result.written.append(folder / name)
    return result


def _tables_text(path: str, names: tuple[str, ...], entry_points: EntryPoints) -> dict[str, str] | InputError:
    """The text of every table of ``names`` that its entry points allow, by file name."""
    try:
        kb = load_kb(path, lines=any(orders_by_line(name) for name in names))
    except InputError as exc:
        return exc
    texts = {}
    with kb:
        for name in names:
            params = {var: entry_points.get(kind) for var, kind in parameters(name).items()}
            if all(params.values()):
                texts[f"{name}.rq.tsv"] = run_table(kb, name, **params).to_tsv()
    return texts


def _output_folders(inputs: Sequence[str | os.PathLike], outdir: Path, nested: bool = False) -> list[Path]:
    paths = [Path(p).resolve() for p in inputs]
    folders = [outdir / _from_condition(p) if nested and _from_condition(p) else None for p in paths]
    rest = [p for p, folder in zip(paths, folders) if folder is None]
    if len({p.name for p in rest}) == len(rest):
        flat = iter(outdir / p.name for p in rest)
    else:
        root = Path(os.path.commonpath([p.parent for p in rest]))
        flat = iter(outdir / p.parent.relative_to(root) / p.name for p in rest)
    return [folder if folder is not None else next(flat) for folder in folders]


_CONDITION = re.compile(r"^Condition[567]$", re.IGNORECASE)


def _from_condition(path: Path) -> Path | None:
    """ConditionN/<query>/<frame>.ttl, the end of a claim frame's path in a TA3 run (None when not in one)."""
    parts = path.parts
    for i in range(len(parts) - 3, -1, -1):
        if _CONDITION.match(parts[i]):
            return Path(*parts[i:])
    return None


def _bindings(params: Mapping[str, str | Sequence[str]]) -> Iterable[dict[str, str]]:
    # One run per combination (tables take at most one parameter: one run per value).
    combos: list[dict[str, str]] = [{}]
    for var, values in params.items():
        values = [values] if isinstance(values, str) else list(values)
        combos = [{**combo, var: value} for combo in combos for value in values]
    return combos


def _select(kb: KB, text: str, binding: Mapping[str, str], name: str = "query") -> tuple[tuple[str, ...], list[tuple]]:
    """The query's columns and its solutions, as terms (None where a variable is unbound)."""
    substitutions = {pyoxigraph.Variable(k): pyoxigraph.Literal(v) for k, v in binding.items()}
    try:
        solutions = kb.store.query(text, substitutions=substitutions)
    except SyntaxError as exc:
        raise UsageError(f"{name}: SPARQL syntax error: {exc.msg or exc}") from None
    if not isinstance(solutions, pyoxigraph.QuerySolutions):
        raise UsageError(f"{name}: only SELECT queries make a table")
    columns = tuple(v.value for v in solutions.variables)
    return columns, [tuple(solution) for solution in solutions]  # (None where unbound)


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
