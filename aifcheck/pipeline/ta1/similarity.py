"""DWD type similarity (NIST's DWDTypeSim) from tables, and the evaluable-type test.

NIST's filter stage takes a pair's similarity from the DWD overlay (synonyms 1; near neighbours
at least the near-neighbour value), else from its cache of the KGTK similarity service, else from
that service (the mean of the similarity types asked for). That cache, the overlay and the tagset's
types are inputs of the evaluation that are not public, and aifcheck ships none of them: the
similarity comes from a table ``q1 q2 similarity`` given by the user (``--type-similarity``; a
reconstruction that reproduces NIST's example run sits beside NIST's files), pairs the table lacks
from an optional file of the service's answers (``--extra-similarities``), and synonyms and near
neighbours from an optional overlay. Identical qnodes have similarity 1; a pair none of them has, 0
(where NIST asks the service). Without a list of taggable types, every type is taggable.
While a document is scored (``missing_pairs``), the pairs without a value that its alignment, filter
and metrics read are recorded: the pairs whose value NIST's service may give and aifcheck takes as 0.
"""

from __future__ import annotations

import json
import math
import os
import statistics
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import cached_property

from aifcheck.errors import InputError
from aifcheck.loading.paths import read_text
from aifcheck.loading.tsv import TypedColumn, number, read_table
from aifcheck.pipeline.ta1.settings import NIST_SETTINGS, TA1Settings

_COMPLAINT = "{column} {text} {reason}"
_SIMILARITY = TypedColumn("similarity", number, _COMPLAINT)  # the similarity table's values


# The pairs without a value read while a document is scored: a context variable, as Dask's threads
# score documents side by side with the tables of one process.
_MISSING: ContextVar[set[tuple[str, str]] | None] = ContextVar("missing_pairs", default=None)


@contextmanager
def missing_pairs() -> Iterator[set[tuple[str, str]]]:
    """The pairs (q1, q2) of distinct qnodes without a value that ``similarity`` and ``evaluable``
    read in this block: those a score reads, and NIST asks the KGTK service for."""
    found: set[tuple[str, str]] = set()
    token = _MISSING.set(found)
    try:
        yield found
    finally:
        _MISSING.reset(token)


@dataclass
class TypeSimilarity:
    path: str | None  # None: no table given (every two different types have no value)
    pairs: dict[tuple[str, str], float]
    taggable: frozenset[str] | None  # None: no list given, every type is taggable
    taggable_path: str | None
    alpha: float = 0.9
    inclusive: bool = False  # the plan's "DWDTypeSim >= alpha" instead of NIST's ">"
    synonyms: frozenset[tuple[str, str]] = frozenset()  # the overlay's, both ways
    _evaluable: dict[str, bool] = field(default_factory=dict, repr=False)
    _unvalued: dict[str, tuple[tuple[str, str], ...]] = field(default_factory=dict, repr=False)  # not evaluable
    _known: frozenset[str] = field(default=frozenset(), repr=False)

    def __post_init__(self) -> None:
        self._known = frozenset(q for pair in self.pairs for q in pair) | (self.taggable or frozenset())

    def similarity(self, q1: str, q2: str) -> float:
        if q1 == q2:
            return 1.0
        found = self.pairs.get((q1, q2))
        if found is None:
            missing = _MISSING.get()
            if missing is not None:
                missing.add((q1, q2))
            return 0.0
        return found

    @cached_property
    def neighbours(self) -> dict[str, list[tuple[str, float]]]:
        """q1 -> the (q2, similarity) pairs of the table: the pairs among a few types, by look-up."""
        found: dict[str, list[tuple[str, float]]] = {}
        for (q1, q2), value in self.pairs.items():
            found.setdefault(q1, []).append((q2, value))
        return found

    def knows(self, qnode: str) -> bool:
        return qnode in self._known

    def evaluable(self, qnode: str) -> bool:
        """A taggable type or its synonym, or one more similar than alpha to a taggable type (NIST:
        strictly). A type found not evaluable has read its pairs with every taggable type: those
        without a value are recorded (a type found evaluable stays so, whatever their values)."""
        if self.taggable is None:
            return True
        found = self._evaluable.get(qnode)
        if found is None:
            if qnode in self.taggable or any((qnode, t) in self.synonyms for t in self.taggable):
                found = True
            elif self.inclusive:
                found = any(self.pairs.get((qnode, t), 0.0) >= self.alpha for t in self.taggable)
            else:
                found = any(self.pairs.get((qnode, t), 0.0) > self.alpha for t in self.taggable)
            self._evaluable[qnode] = found
            if not found:
                self._unvalued[qnode] = tuple((qnode, t) for t in self.taggable if (qnode, t) not in self.pairs)
        missing = _MISSING.get()
        if not found and missing is not None:
            missing.update(self._unvalued[qnode])
        return found


def load_similarity(
    similarity_path: str | os.PathLike | None,
    taggable_path: str | os.PathLike | None,
    settings: TA1Settings = NIST_SETTINGS,
    inclusive: bool = False,
    extra_path: str | os.PathLike | None = None,
    overlay_path: str | os.PathLike | None = None,
) -> TypeSimilarity:
    """The tables (none when a path is None), with the pairs of ``extra_path`` the similarity table
    lacks, and the synonyms and near neighbours of ``overlay_path``, folded into one table as NIST's
    ``Similarity`` looks them up; InputError naming the file and line of a bad value."""
    similarity_path = str(similarity_path) if similarity_path else None
    taggable_path = str(taggable_path) if taggable_path else None
    pairs = _read_pairs(similarity_path) if similarity_path else {}
    if extra_path is not None:
        for pair, value in load_extra_similarities(extra_path, settings.similarity_types).items():
            pairs.setdefault(pair, value)  # NIST asks the service only for pairs its cache lacks
    synonyms: frozenset[tuple[str, str]] = frozenset()
    if overlay_path is not None:
        synonyms, near = load_overlay(overlay_path)
        for pair in near - synonyms:
            pairs[pair] = max(pairs.get(pair, 0.0), settings.near_neighbour_similarity)
        pairs.update(dict.fromkeys(synonyms, 1.0))
    taggable = _read_taggable(taggable_path) if taggable_path else None
    return TypeSimilarity(similarity_path, pairs, taggable, taggable_path, settings.alpha, inclusive, synonyms)


def _read_pairs(path: str) -> dict[tuple[str, str], float]:
    table = read_table(path, ["q1", "q2", "similarity"])
    q1, q2 = table.getter("q1"), table.getter("q2")
    return {(q1(row), q2(row)): table.value(row, _SIMILARITY) for row in table.rows}


def _read_taggable(path: str) -> frozenset[str]:
    lines = read_text(path, "the taggable types", universal=True).splitlines()
    taggable = frozenset(line.strip() for line in lines if line.strip())
    if not taggable:
        raise InputError(path, "no taggable type (expected one qnode a line)")
    return taggable


def load_extra_similarities(path: str | os.PathLike, similarity_types: tuple[str, ...]) -> dict[tuple[str, str], float]:
    """(q1, q2) -> similarity from a file of the KGTK similarity service's answers, as NIST's
    filter stage reads them: columns q1, q2 and one per similarity type; a pair's value is the mean
    of its values of ``similarity_types`` (an empty cell counts 0)."""
    table = read_table(path, ["q1", "q2", *similarity_types])
    found = {}
    columns = [TypedColumn(kind, _service_value, _COMPLAINT) for kind in similarity_types]
    q1, q2 = table.getter("q1"), table.getter("q2")
    for row in table.rows:
        values = [table.value(row, column) for column in columns]
        if not q1(row) or not q2(row):
            raise InputError(str(path), "a pair needs both q1 and q2", row.line)
        found[q1(row), q2(row)] = statistics.mean(values)  # NIST's mean: exactly rounded, as sum()/len() is not
    return found


def _service_value(text: str) -> float:
    """A value of the similarity service as NIST's filter reads it: an empty cell counts 0."""
    value = number(text) if text else 0.0
    if not math.isfinite(value):
        raise ValueError("is not a finite number")
    return value


def load_overlay(path: str | os.PathLike) -> tuple[frozenset[tuple[str, str]], frozenset[tuple[str, str]]]:
    """The synonym and near-neighbour pairs (both ways) of a DWD overlay (JSON), as NIST's filter
    stage reads them: a node's ``similar_nodes`` whose ``similarity_type`` holds SS or NN, and a
    relation's ``related_qnodes`` (synonyms)."""
    path = str(path)
    try:
        data = json.loads(read_text(path, "the DWD overlay"))
    except json.JSONDecodeError as exc:
        raise InputError(path, f"not JSON: {exc.msg}", exc.lineno, exc.colno) from None
    synonyms, near = set(), set()
    for metatype in ("events", "relations", "entities"):
        nodes = data.get(metatype) if isinstance(data, dict) else None
        if not isinstance(nodes, dict):
            raise InputError(path, f"no '{metatype}' object of DWD nodes (expected NIST's DWD overlay)")
        for key, node in nodes.items():
            qnode = node.get("wd_node") if isinstance(node, dict) else None
            if not isinstance(qnode, str):
                raise InputError(path, f"{metatype} node {key!r} has no wd_node")
            similar = [
                (s.get("wd_node"), s.get("similarity_type") or "")
                for s in node.get("similar_nodes") or []
                if isinstance(s, dict)
            ]
            related = (
                [(s.get("wd_node"), "SS") for s in node.get("related_qnodes") or [] if isinstance(s, dict)]
                if metatype == "relations"
                else []
            )
            for other, kind in similar + related:
                if isinstance(other, str):
                    for found, code in ((synonyms, "SS"), (near, "NN")):
                        if code in kind:
                            found.update({(qnode, other), (other, qnode)})
    return frozenset(synonyms), frozenset(near)
