"""The SPARQL files of ``queries/`` run on a KB, as typed rows.

Each ``queries/<NAME>.rq`` is one of NIST's tables (``AIDA_P3_*``) or one of aifcheck's own
extractions (``aifcheck_*``). Running one gives a :class:`Table`: its columns and its solutions
as RDF terms (pyoxigraph's NamedNode, BlankNode and Literal, with datatype and language), None
where a variable is unbound. The domain model (aifcheck.extract.model) is built from these rows;
NIST's printed form of the same rows is aifcheck.pipeline.shared.sparql's, so the two never disagree.

A query's header comments say what it needs: ``# Parameter: ?VAR KIND`` (a value to bind),
``# Order: ...`` (how NIST's tool orders the printed rows) and ``# Hidden: ...`` (columns that
are not printed: one the order needs, or one the model reads beside NIST's).
NIST's tables come in query sets (aifcheck.queries.QUERY_SETS): the tag's by default.
"""

from __future__ import annotations

import importlib.resources
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import islice

import pyoxigraph

from aifcheck.choices import choose, did_you_mean
from aifcheck.errors import UsageError
from aifcheck.loading.kb import KB
from aifcheck.loading.lines import Term
from aifcheck.loading.paths import read_text
from aifcheck.names import check_task
from aifcheck.queries import QUERY_SETS

NIST_PREFIX = "AIDA_P3_"
TAG = QUERY_SETS[0]  # the default query set
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
    """A query's result: its column names (without '?') and its solutions, as terms: distinct ones
    for a SELECT DISTINCT, every one for a plain SELECT (as NIST's CM table prints them)."""

    name: str
    columns: tuple[str, ...]
    rows: tuple[tuple[Term | None, ...], ...]
    query_set: str = TAG

    def records(self) -> list[dict[str, Term | None]]:
        return [dict(zip(self.columns, row, strict=True)) for row in self.rows]

    def distinct(self) -> Table:
        """The table with each row once (the model reads a mention once however often NIST prints it)."""
        return Table(self.name, self.columns, tuple(dict.fromkeys(self.rows)), self.query_set)


def value(term: Term | None) -> str:
    """A term as the model holds it: an IRI's text, a literal's value, a blank node as ``_:id``
    (so that it cannot pass for an IRI); "" when the variable is unbound."""
    if term is None:
        return ""
    return f"_:{term.value}" if isinstance(term, pyoxigraph.BlankNode) else term.value


@dataclass(frozen=True)
class EntryPoints:
    """TA2 query entry points: KB IDs (table P0001) and name strings (table P0002)."""

    kb_id: tuple[str, ...] = ()
    name: tuple[str, ...] = ()

    @classmethod
    def read(cls, path: str | os.PathLike) -> EntryPoints:
        """Read a file of ``kb_id<TAB>VALUE`` or ``name<TAB>VALUE`` lines (``#`` starts a comment)."""
        lines = read_text(path, "the entry points", universal=True).splitlines()
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


def table_names(task: str | None = None) -> list[str]:
    """NIST's tables (all, or those of one task), sorted; aifcheck's own queries are not tables."""
    names = sorted(n for n in _query_files() if n.startswith(NIST_PREFIX))
    if task is None:
        return names
    check_task(task)
    return [n for n in names if n.startswith(f"{NIST_PREFIX}{task.upper()}_")]


def query_text(name: str, query_set: str = TAG) -> str:
    """The query of a table (or of one of aifcheck's own queries), named in any case, in a query set."""
    return _query_files(check_query_set(query_set))[table_name(name)]


def check_query_set(name: str) -> str:
    """The query set a user names, in any case (UsageError with the nearest names when unknown)."""
    return choose(name, QUERY_SETS, "query set")


def table_name(name: str) -> str:
    """The table a user means (case aside, with or without .rq); UsageError with the nearest names."""
    files = _query_files()
    stem = name.removesuffix(".rq")
    if stem in files:
        return stem
    by_fold = {n.casefold(): n for n in files}
    if stem.casefold() in by_fold:
        return by_fold[stem.casefold()]
    raise UsageError(
        f"unknown table '{name}'{did_you_mean(stem, table_names())}; known tables: {', '.join(table_names())}"
    )


def parameters(name: str, query_set: str = TAG) -> dict[str, str]:
    """The variables a table needs bound, from its ``# Parameter: ?VAR KIND`` header lines."""
    return dict(_PARAMETER.findall(query_text(name, query_set)))


def orders_by_line(name: str, query_set: str = TAG) -> bool:
    """Whether a table's rows follow the lines of the file (a line() key in its "# Order:" header)."""
    return any(by_line for _, by_line in order_keys(query_text(name, query_set)))


def run_table(kb: KB, name: str, *, query_set: str = TAG, **params: str | Sequence[str]) -> Table:
    """Run one table's query of a query set: its solutions, in the order the engine gives them
    (each once for a SELECT DISTINCT). A parameter given several values is run once per value.

    Values are bound as RDF string literals through pyoxigraph's substitutions, never pasted
    into the query text.
    """
    name = table_name(name)
    text = query_text(name, query_set)
    needed = parameters(name, query_set)
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
    rows = tuple(dict.fromkeys(solutions)) if is_distinct(text) else tuple(solutions)
    return Table(name, columns, rows, check_query_set(query_set))


def query(path: str | os.PathLike, name: str, **params: str | Sequence[str]) -> Table:
    """One table of a KB file (see run_table); InputError when the file cannot be read."""
    from aifcheck.loading.kb import load_kb

    with load_kb(path, lines=False) as kb:
        return run_table(kb, name, **params)


# cells of a user's query result held at most by default (each a term: some 170 bytes, and as
# much again once printed): a query whose result has no end (a cross product) stops there
MAX_CELLS = 3_000_000


def run_sparql(kb: KB, text: str, name: str = "query", max_rows: int | None = 0) -> Table:
    """Run a user's SELECT query (SERVICE and updates are refused: see check_user_query); a
    UsageError when it gives more than ``max_rows`` rows (0: as many as MAX_CELLS cells make;
    None: no limit). Rows are read as they come, so that a query whose result has no end stops."""
    check_user_query(text, name)
    columns, solutions = _select(kb, text, {}, name, max_rows)
    return Table(name, columns, tuple(solutions))


# How NIST's tool orders a table's printed rows (aifcheck.pipeline.shared.sparql): sorted, unless its query
# says otherwise in a header line
#   # Order: ?var line(?other) ...
# (by ?var's printed value, then by the line where ?other is written, as GraphDB returns rows in
# the order the file gave their statements when NIST's query sorts on fewer columns than it
# prints; rows that tie on every key stay sorted). "# Hidden: ?other" keeps a variable out of the
# printed columns: one the order needs, or one the model reads (aifcheck.extract.kg).
_ORDER = re.compile(r"^#\s*Order:\s*(.+)$", re.MULTILINE)
_HIDDEN = re.compile(r"^#\s*Hidden:\s*(.+)$", re.MULTILINE)
_ORDER_KEY = re.compile(r"line\(\?(\w+)\)|\?(\w+)")
# a SELECT and its modifier (the query's own comes first, its subqueries' later)
_SELECT = re.compile(r"(?<![\w:?$])SELECT(?![\w:])\s*(DISTINCT|REDUCED)?(?![\w:])", re.IGNORECASE)


@cache
def order_keys(text: str) -> tuple[tuple[str, bool], ...]:
    """The "# Order:" keys of a query: (variable, whether by the line where it is written)."""
    return tuple((m[1] or m[2], bool(m[1])) for line in _ORDER.findall(text) for m in _ORDER_KEY.finditer(line))


@cache
def is_distinct(text: str) -> bool:
    """Whether a query is a SELECT DISTINCT (or REDUCED): a plain SELECT prints a row per solution."""
    first = _SELECT.search(_NOT_KEYWORDS.sub(" ", text))
    return first is not None and first[1] is not None


@cache
def hidden_columns(text: str) -> frozenset[str]:
    """The "# Hidden:" variables of a query: in its rows, not printed."""
    return frozenset(m[2] for line in _HIDDEN.findall(text) for m in _ORDER_KEY.finditer(line))


# Brackets a user's query may nest: the engine parses and evaluates them recursively, and a query
# nested some thousands deep overflows its stack (a crash by signal, no message). Real queries nest
# a few deep.
MAX_DEPTH = 256
_BRACKETS = re.compile(r"[(){}\[\]]")


def check_user_query(text: str, name: str = "query") -> None:
    """Refuse SERVICE (a federated query), updates (aifcheck only reads the files it is given) and
    brackets nested deeper than MAX_DEPTH."""
    keywords = _NOT_KEYWORDS.sub(" ", text)
    depth = deepest = 0
    for bracket in _BRACKETS.findall(keywords):
        depth += 1 if bracket in "({[" else -1
        deepest = max(deepest, depth)
    if deepest > MAX_DEPTH:
        raise UsageError(f"{name}: brackets nested more than {MAX_DEPTH} deep: not a query aifcheck runs")
    if _SERVICE.search(keywords):
        raise UsageError(f"{name}: SERVICE is not allowed: aifcheck queries only the given files")
    update = _UPDATE.search(keywords)
    if update:
        raise UsageError(
            f"{name}: SPARQL updates ({update[0].upper()}) are not allowed: aifcheck only reads the given files"
        )


def _bindings(params: Mapping[str, str | Sequence[str]]) -> Iterable[dict[str, str]]:
    # One run per combination (tables take at most one parameter: one run per value).
    combos: list[dict[str, str]] = [{}]
    for var, values in params.items():
        values = [values] if isinstance(values, str) else list(values)
        combos = [{**combo, var: value} for combo in combos for value in values]
    return combos


def _select(
    kb: KB, text: str, binding: Mapping[str, str], name: str = "query", max_rows: int | None = None
) -> tuple[tuple[str, ...], list[tuple]]:
    """The query's columns and its solutions, as terms (None where a variable is unbound)."""
    substitutions = {pyoxigraph.Variable(k): pyoxigraph.Literal(v) for k, v in binding.items()}
    try:
        solutions = kb.store.query(text, substitutions=substitutions)
    except SyntaxError as exc:
        raise UsageError(f"{name}: SPARQL syntax error: {exc.msg or exc}") from None
    if not isinstance(solutions, pyoxigraph.QuerySolutions):
        raise UsageError(f"{name}: only SELECT queries make a table")
    columns = tuple(v.value for v in solutions.variables)
    if max_rows is None:
        return columns, [tuple(solution) for solution in solutions]  # (None where unbound)
    if max_rows == 0:  # the default: as many rows as MAX_CELLS cells make
        max_rows = MAX_CELLS // max(len(columns), 1)
    rows = [tuple(solution) for solution in islice(solutions, max_rows + 1)]
    if len(rows) > max_rows:
        raise UsageError(
            f"{name}: more than {max_rows:,} rows (--max-rows): narrow the query, or give a larger --max-rows"
        )
    return columns, rows


@cache
def _query_files(query_set: str = TAG) -> dict[str, str]:
    """The queries of a set by name: queries/, with the files of its folder in their place."""
    folder = importlib.resources.files("aifcheck.queries")
    files = {f.name[:-3]: f.read_text(encoding="utf-8") for f in folder.iterdir() if f.name.endswith(".rq")}
    if query_set != TAG:
        changed = folder.joinpath(query_set).iterdir()
        files.update({f.name[:-3]: f.read_text(encoding="utf-8") for f in changed if f.name.endswith(".rq")})
    return files
