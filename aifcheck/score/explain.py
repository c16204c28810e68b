"""Why a score row has its value: the items that made it, and the steps that add them up.

An :class:`Explanation` belongs to one row of a scorer's table (its ``row``: the row's key, as the
score file prints it). Its ``items`` are what the scorer counted: an aligned pair and its
similarity, a miss (a gold cluster, mention, argument or time with no match), a false alarm (a
system cluster, mention, argument or time with no match), a ranked cluster or claim and its
assessment. Each item carries the numbers the formula reads and where it comes from: the KB file
and line of a system object, the gold or assessment row of a gold one.

Its ``steps`` are the formula, as the docs state it (docs/explain.md): named expressions in a small
arithmetic language, each reading the items and the steps before it; the row's columns are steps.
:func:`recompute` evaluates them from the explanation alone, so a test can check every score row of
NIST's files against its explanation: an explanation that does not add up to NIST's number is a
bug in the explanation, never a reason to change the number.

The language: numbers, names of earlier steps, ``+ - * /``, comparisons, ``and or not``,
``X if C else Y``, ``min(...)``, ``max(...)``, ``log2(x)``, and over the items of a kind: ``count("kind")``,
``total("kind", "expr")`` (the sum of ``expr`` over them, added in their order, as NIST adds),
``mean("kind", "expr")``, ``most("kind", "expr")`` (the greatest, 0 without items) and
``group_mean("kind", "expr", "name")`` (the mean over the items' groups of equal value ``name``, in
order of first appearance, of each group's mean), where ``expr`` reads an item's values by name.
"""

from __future__ import annotations

import ast
import json
import math
import operator
import os
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

from aifcheck.errors import InputError, UsageError
from aifcheck.loading.paths import read_text

Value = float | int | str | bool | None


class Source(NamedTuple):
    """Source an item comes from: ``side`` is "system" (the submission: a KB file and line, or a row
    of a SPARQL table) or "gold" (a gold table row, an assessment row); ``what`` names the object.
    (A tuple, as Item: a run's explanations hold hundreds of thousands.)"""

    side: str
    what: str
    file: str
    line: int | None = None

    def __str__(self) -> str:
        return f"{self.file}:{self.line}" if self.line is not None else self.file


class Item(NamedTuple):
    """One thing a score row counted. ``kind`` says how it counted (``pair``, ``miss``,
    ``false-alarm``, ``rank``, ...); ``label`` names it for a person; ``values`` are the numbers
    (and the facts) the steps read; ``where`` the source of each side."""

    kind: str
    label: str
    values: tuple[tuple[str, Value], ...] = ()
    where: tuple[Source, ...] = ()

    def value(self, name: str) -> Value:
        for key, found in self.values:
            if key == name:
                return found
        raise KeyError(name)


class MadeItems(Sequence[Item]):
    """Items made each time they are read, from what a scorer keeps anyway (a TA2 run's rows and
    judgements). A run's TA2 explanations hold 10^5 ranked rows: made at once, they would stay in
    memory as long as the explanations do, and the garbage collector would visit each; made as
    they are written or recomputed, each is gone as soon as it is read."""

    __slots__ = ("_make",)

    def __init__(self, make: Callable[[], Iterable[Item]]) -> None:
        self._make = make

    def __iter__(self) -> Iterator[Item]:
        return iter(self._make())

    def __len__(self) -> int:
        return sum(1 for _ in self._make())

    def __getitem__(self, index):  # type: ignore[override]
        return tuple(self._make())[index]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and tuple(self) == tuple(other)

    def __hash__(self) -> int:
        return hash(tuple(self))


@dataclass(frozen=True)
class Explanation:
    """One score row explained: ``row`` its key, column by column as the score file prints it;
    ``values`` the row's values as scored; ``steps`` (name, expression) in order; ``items``."""

    task: str
    metric: str
    row: tuple[tuple[str, str], ...]
    values: tuple[tuple[str, Value], ...]
    steps: tuple[tuple[str, str], ...]
    items: Sequence[Item] = ()  # a tuple, or MadeItems
    notes: tuple[str, ...] = field(default=())  # what the formula alone does not say (NIST's quirks met)


# F1 from the steps precision and recall (0 where both are 0)
F1 = ("f1", "2 * precision * recall / (precision + recall) if precision + recall else 0")
# P, R and F1 from the steps tp, fp and fn (0 for 0/0)
COUNTS_PRF = (("precision", "tp / (tp + fp) if tp + fp else 0"), ("recall", "tp / (tp + fn) if tp + fn else 0"), F1)


class FormulaError(ValueError):
    """A step that is not in the explanation's language, or reads what is not there."""


_BINARY: dict[type, Callable[[object, object], object]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
}
_COMPARE: dict[type, Callable[[object, object], bool]] = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
}


def evaluate(expression: str, names: Mapping[str, Value], items: Iterable[Item] = ()) -> Value:
    """The value of one expression of the language, over ``names`` and ``items``."""
    return _Evaluator(names, tuple(items)).run(_parsed(expression))


@lru_cache(maxsize=4096)  # a run's rows share a few formulas, read for every row
def _parsed(expression: str) -> ast.expr:
    try:
        return ast.parse(expression, mode="eval").body
    except SyntaxError as exc:
        raise FormulaError(f"not an expression: {expression!r}") from exc


def _added(values: Iterable[Value]) -> Value:
    total = 0  # added one by one from 0, as NIST adds
    for value in values:
        total += value
    return total


@dataclass
class _Evaluator:
    names: Mapping[str, Value]
    items: tuple[Item, ...]

    def run(self, node: ast.expr) -> Value:
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float, str, bool)):
            return node.value
        if isinstance(node, ast.Name):
            if node.id not in self.names:
                raise FormulaError(f"unknown name {node.id!r}")
            return self.names[node.id]
        if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
            return _BINARY[type(node.op)](self.run(node.left), self.run(node.right))
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.Not)):
            found = self.run(node.operand)
            return -found if isinstance(node.op, ast.USub) else not found
        if isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in _COMPARE:
            return _COMPARE[type(node.ops[0])](self.run(node.left), self.run(node.comparators[0]))
        if isinstance(node, ast.BoolOp):
            values = [self.run(v) for v in node.values]
            return all(values) if isinstance(node.op, ast.And) else any(values)
        if isinstance(node, ast.IfExp):
            return self.run(node.body) if self.run(node.test) else self.run(node.orelse)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.keywords:
            return self._call(node.func.id, [self.run(a) for a in node.args])
        raise FormulaError(f"not in the explanation's language: {ast.unparse(node)!r}")

    def _call(self, name: str, args: list[Value]) -> Value:
        if name in ("min", "max"):
            return (min if name == "min" else max)(args)
        if name == "log2" and len(args) == 1:
            return math.log2(args[0])
        if name not in ("count", "total", "mean", "most", "group_mean") or not args or not isinstance(args[0], str):
            raise FormulaError(f"unknown function {name!r}")
        chosen = [item for item in self.items if item.kind == args[0]]
        if name == "count":
            return len(chosen)
        if name == "group_mean":  # the mean over groups (by a value) of their means
            if len(args) != 3 or not isinstance(args[1], str):
                raise FormulaError("group_mean(kind, expression, name) takes three strings")
            groups: dict[Value, list[Item]] = {}
            for item in chosen:
                groups.setdefault(item.value(str(args[2])), []).append(item)
            means = [self._aggregate("mean", args[1], group) for group in groups.values()]
            return _added(means) / len(means) if means else 0
        if len(args) != 2 or not isinstance(args[1], str):
            raise FormulaError(f"{name}(kind, expression) takes two strings")
        return self._aggregate(name, args[1], chosen)

    def _aggregate(self, name: str, expression: str, chosen: list[Item]) -> Value:
        """total, mean or most of ``expression`` over the items ``chosen``."""
        tree = _parsed(expression)
        values = [_Evaluator({**self.names, **dict(item.values)}, ()).run(tree) for item in chosen]
        if name == "total":
            return _added(values)
        if name == "mean":
            return _added(values) / len(values) if values else 0
        return max(values, default=0)


def recompute(explanation: Explanation) -> dict[str, Value]:
    """Every step's value, from the explanation alone (its items and its steps)."""
    names: dict[str, Value] = {}
    items = tuple(explanation.items)  # made once for every step
    for name, expression in explanation.steps:
        names[name] = evaluate(expression, names, items)
    return names


def relocated(root: str | os.PathLike, writing: bool) -> Callable[[str], str]:
    """How the JSON Lines under the folder ``root`` name a file: relative to ``root`` (so that they
    read the same from any folder, and with the folder moved together with the run's files).
    ``writing``: a path as given (from the current folder) to its name in the records; else a
    name in the records to a path from the current folder (an absolute name stays as it is)."""
    base = os.path.abspath(root)
    done: dict[str, str] = {}

    def place(file: str) -> str:
        if file not in done:
            if writing:
                done[file] = os.path.relpath(os.path.abspath(file), base)
            else:
                done[file] = file if os.path.isabs(file) else os.path.relpath(os.path.join(base, file))
        return done[file]

    return place


def row_record(explanation: Explanation) -> dict[str, object]:
    """A row's JSON Lines record (docs/explain.md gives the format): its key, values and steps;
    one record per item follows it (item_fields, with the row's task, metric and key)."""
    return {
        "record": "row",
        "task": explanation.task,
        "metric": explanation.metric,
        "row": dict(explanation.row),
        "values": dict(explanation.values),
        "steps": [list(step) for step in explanation.steps],
        "notes": list(explanation.notes),
    }


def item_fields(item: Item, place: Callable[[str], str] = str) -> dict[str, object]:
    """An item's fields as its JSON Lines record holds them."""
    where = [{"side": w.side, "what": w.what, "file": place(w.file), "line": w.line} for w in item.where]
    return {"kind": item.kind, "label": item.label, "values": dict(item.values), "where": where}


def from_records(records: Iterable[Mapping[str, object]], place: Callable[[str], str] = str) -> list[Explanation]:
    """The explanations of JSON Lines records (a row's, then its items', in order); FormulaError
    naming the record (its line) when one is not an explanation's. ``place``: the path of a file
    the records name (aifcheck.score.explain.relocated)."""
    found: list[Explanation] = []
    items: list[Item] = []

    def close() -> None:
        if found:
            found[-1] = Explanation(**{**found[-1].__dict__, "items": tuple(items)})

    for number, record in enumerate(records, 1):
        try:
            if record["record"] == "row":
                close()
                items = []
                found.append(
                    Explanation(
                        str(record["task"]),
                        str(record["metric"]),
                        tuple((str(k), str(v)) for k, v in dict(record["row"]).items()),
                        tuple(dict(record["values"]).items()),
                        tuple((str(n), str(_checked(e))) for n, e in record["steps"]),
                        notes=tuple(record.get("notes", ())),
                    )
                )
            elif record["record"] == "item" and found:
                where = tuple(Source(w["side"], w["what"], place(w["file"]), w["line"]) for w in record["where"])
                items.append(
                    Item(str(record["kind"]), str(record["label"]), tuple(dict(record["values"]).items()), where)
                )
            else:
                raise KeyError("record")
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise FormulaError(f"line {number}: not a record of an explanation ({exc})") from None
    close()
    return found


def _checked(expression: object) -> object:
    """A step's expression, once it is known to parse (FormulaError if not): a damaged file is
    refused where it is read, not where a step is recomputed."""
    _parsed(str(expression))
    return expression


FOLDER = "explain"  # beside NIST's folders in a score command's output


def read_explanations(source: str | os.PathLike) -> list[Explanation]:
    """The explanations a score command wrote with ``--explain``: ``source`` is its output folder
    (every ``explain/*.jsonl``) or one such file. InputError naming the file and line of a line
    that is no record; UsageError when there is no explanation."""
    source = Path(source)
    files = sorted((source / FOLDER).glob("*.jsonl")) if source.is_dir() else [source]
    if not files:
        raise UsageError(f"{source}: no {FOLDER}/*.jsonl: score the run with --explain")
    found = []
    for path in files:
        records = []
        for number, line in enumerate(read_text(path, "an explanation").splitlines(), 1):
            try:
                records.append(json.loads(line))
            except json.JSONDecodeError as exc:
                raise InputError(str(path), f"not a JSON record: {exc.msg}", number) from None
        try:
            found += from_records(records, relocated(path.parent.parent, writing=False))
        except FormulaError as exc:
            raise InputError(str(path), str(exc)) from None
    return found


def row_name(metric: str, row: tuple[tuple[str, str], ...]) -> str:
    """A row as ``score explain`` names it: ``METRIC:VALUE...``, the values of its key (see select_rows)."""
    return ":".join([metric, *(v for _, v in row if v)])


def select_rows(explanations: Iterable[Explanation], row: str) -> list[Explanation]:
    """The explanations of the rows ``row`` names: ``METRIC[:VALUE...]``, the metric's name (any
    case) and values of the row's key (document, query, metatype, cluster...) in the key's order,
    any column left out."""
    metric, *values = row.split(":")
    return [e for e in explanations if e.metric.casefold() == metric.casefold() and _in_order(values, e.row)]


def _in_order(values: list[str], row: tuple[tuple[str, str], ...]) -> bool:
    """Whether the values name the row's key columns in their order (columns may be skipped)."""
    key = iter(v for _, v in row)
    return all(any(v == found for found in key) for v in values if v)


SUMMARY_ROWS = frozenset({"ALL-Macro", "ALL-Micro", "ALL"})


def is_summary(explanation: Explanation) -> bool:
    """Whether a row summarises others (TA1's ALL-Micro and ALL-Macro, TA2's and TA3's ALL-Macro,
    CRUX's ALL): the first or second value of its key says so."""
    return any(v in SUMMARY_ROWS for _, v in explanation.row[:2])


def explained_run(path: str | os.PathLike) -> tuple[Explanation, ...]:
    """The explanations beside a scored run (its folder, or its ``scores`` folder), none when the
    run was scored without ``--explain``."""
    root = Path(path)
    root = root.parent if root.name == "scores" else root
    if not any((root / FOLDER).glob("*.jsonl")):  # (none in a folder that is not there)
        return ()
    return tuple(read_explanations(root))


def source_lines(explanations: Iterable[Explanation], items_per_row: int) -> dict[tuple[str, int], str]:
    """The text of each line the first ``items_per_row`` items of each row name (a file that cannot
    be read, or a line past its end, is left out)."""
    wanted: dict[str, set[int]] = {}
    for explanation in explanations:
        for item in shown_items(explanation, items_per_row):
            for where in item.where:
                if where.line is not None:
                    wanted.setdefault(where.file, set()).add(where.line)
    found: dict[tuple[str, int], str] = {}
    for file, lines in wanted.items():
        try:
            text = read_text(file, universal=True).split("\n")
        except InputError:
            continue
        found |= {(file, n): text[n - 1] for n in lines if 0 < n <= len(text)}
    return found


def _problem(item: Item) -> bool:
    return "miss" in item.kind or "false-alarm" in item.kind or "uncounted" in item.kind


PER_KIND = 2  # items of one kind a report shows of a row: a few examples of each, the rest in the JSON Lines


def shown_items(explanation: Explanation, limit: int, per_kind: int = PER_KIND) -> list[Item]:
    """The first ``limit`` items a person reads, at most ``per_kind`` of a kind: misses and false
    alarms first (what lowered the score), then the others, each group in the explanation's order."""
    ordered = sorted(explanation.items, key=lambda item: not _problem(item))  # (stable: in order within each group)
    taken: dict[str, int] = {}
    found = []
    for item in ordered:
        if len(found) == limit:
            break
        if taken.get(item.kind, 0) < per_kind:
            taken[item.kind] = taken.get(item.kind, 0) + 1
            found.append(item)
    return found
