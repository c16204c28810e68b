"""DWD type similarity (NIST's DWDTypeSim) from a table, and the evaluable-type test.

NIST's filter stage reads type similarities from its cache of the KGTK similarity service (with
the DWD overlay's synonyms and near neighbours); that cache and overlay are not public, so the
similarity comes from a table ``q1 q2 similarity`` (aifcheck ships the reconstruction that
reproduces NIST's example run). Identical qnodes have similarity 1; a pair the table lacks, 0.
"""
from __future__ import annotations

import importlib.resources
import os
from dataclasses import dataclass, field
from functools import cached_property

from ...errors import InputError
from ...loading.paths import read_text
from ...loading.tsv import read_table

BUNDLED_SIMILARITY = "similarity.tsv"
BUNDLED_TAGGABLE = "taggable_types.txt"


def bundled(name: str) -> str:
    return str(importlib.resources.files("aifcheck.score.ta1") / "data" / name)


@dataclass
class TypeSimilarity:
    path: str
    pairs: dict[tuple[str, str], float]
    taggable: frozenset[str]
    taggable_path: str
    alpha: float = 0.9
    inclusive: bool = False  # the plan's "DWDTypeSim >= alpha" instead of NIST's ">"
    _evaluable: dict[str, bool] = field(default_factory=dict, repr=False)
    _known: frozenset[str] = field(default=frozenset(), repr=False)

    def __post_init__(self) -> None:
        self._known = frozenset(q for pair in self.pairs for q in pair) | self.taggable

    def similarity(self, q1: str, q2: str) -> float:
        return 1.0 if q1 == q2 else self.pairs.get((q1, q2), 0.0)

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
        """A taggable type, or one more similar than alpha to a taggable type (NIST: strictly)."""
        found = self._evaluable.get(qnode)
        if found is None:
            if qnode in self.taggable:
                found = True
            elif self.inclusive:
                found = any(self.similarity(qnode, t) >= self.alpha for t in self.taggable)
            else:
                found = any(self.similarity(qnode, t) > self.alpha for t in self.taggable)
            self._evaluable[qnode] = found
        return found


def load_similarity(similarity_path: str | os.PathLike | None, taggable_path: str | os.PathLike | None, alpha: float = 0.9, inclusive: bool = False) -> TypeSimilarity:
    """The two tables (the bundled ones when a path is None); InputError naming the file and
    line of a bad value."""
    similarity_path = str(similarity_path) if similarity_path else bundled(BUNDLED_SIMILARITY)
    taggable_path = str(taggable_path) if taggable_path else bundled(BUNDLED_TAGGABLE)
    table = read_table(similarity_path, ["q1", "q2", "similarity"])
    pairs = {}
    for line, record in table.records():
        try:
            pairs[record["q1"], record["q2"]] = float(record["similarity"])
        except ValueError:
            raise InputError(similarity_path, f"similarity {record['similarity']!r} is not a number", line) from None
    lines = read_text(taggable_path, "the taggable types", universal=True).splitlines()
    taggable = frozenset(line.strip() for line in lines if line.strip())
    if not taggable:
        raise InputError(taggable_path, "no taggable type (expected one qnode a line)")
    return TypeSimilarity(similarity_path, pairs, taggable, taggable_path, alpha, inclusive)
