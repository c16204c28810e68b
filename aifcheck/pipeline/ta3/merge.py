"""NIST's merge stage (``augment_output.py merge --task task3``): in each claim frame's folder
(``ConditionN/<query>/<frame>.ttl``) the two halves of the associated-KE table,
``AIDA_P3_TA3_GR_0001A`` and ``B``, become ``AIDA_P3_TA3_GR_0001`` (A's header, A's rows, B's
rows); the CC, CT, OC and TM tables are copied; the ranking file of each query folder that has a
claim frame is copied (one whose frames all were left out is not). Headers lose their outer
whitespace."""

from __future__ import annotations

from collections.abc import Iterable

from aifcheck.errors import InputError
from aifcheck.loading.ranking import RANKING_SUFFIX
from aifcheck.loading.tsv import TsvTable

GR_HALVES = ("AIDA_P3_TA3_GR_0001A.rq.tsv", "AIDA_P3_TA3_GR_0001B.rq.tsv")
GR = "AIDA_P3_TA3_GR_0001.rq.tsv"
COPIED = tuple(f"AIDA_P3_TA3_{code}_0001.rq.tsv" for code in ("CC", "CT", "OC", "TM"))


def merge(clean: Iterable[TsvTable]) -> tuple[TsvTable, ...]:
    by_path = {table.path: table for table in clean}
    frames = sorted(
        {path.rsplit("/", 1)[0] for path in by_path if path.count("/") == 3 and path.split("/")[2].endswith(".ttl")}
    )
    merged = []
    for frame in frames:
        missing = [name for name in (*GR_HALVES, *COPIED) if f"{frame}/{name}" not in by_path]
        if missing:
            raise InputError(frame, f"no {', '.join(missing)}: NIST's merge stops on it")
        first, second = (by_path[f"{frame}/{name}"] for name in GR_HALVES)
        rows = (row.cells for row in (*first.rows, *second.rows))
        merged.append(TsvTable.numbered(f"{frame}/{GR}", first.columns, rows))
        merged.extend(by_path[f"{frame}/{name}"] for name in COPIED)
    for folder in sorted({frame.rsplit("/", 1)[0] for frame in frames}):
        ranking = by_path.get(f"{folder}/{folder.split('/')[1]}{RANKING_SUFFIX}")
        if ranking is not None:
            merged.append(ranking)
    return tuple(merged)
