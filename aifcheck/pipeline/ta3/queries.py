"""What NIST's TA3 validator reads besides the run and LDC's AUX data (aifcheck.pipeline.shared.auxdata):
the user queries (``--user-queries DIR``, NIST's ``/data/user-queries``): one folder per condition,
each with ``topics.tsv`` (no header line; ``topic_id topic subtopic claim_template`` in Conditions 5
and 6, ``topic_id topic`` in Condition 7), and in Condition 5 a folder ``Query_Claim_Frames`` of
``<query claim frame ID>.ttl`` files (NIST reads their names only when validating).

A file NIST would stop on (a short row, a missing column, a missing file) is an InputError naming
the file and, where there is one, the line.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from aifcheck.errors import InputError, UsageError
from aifcheck.loading.paths import read_text
from aifcheck.loading.tsv import fit_cells
from aifcheck.pipeline.shared.tables import text_lines

TOPIC_COLUMNS = {
    "Condition5": ("topic_id", "topic", "subtopic", "claim_template"),
    "Condition6": ("topic_id", "topic", "subtopic", "claim_template"),
    "Condition7": ("topic_id", "topic"),
}
QUERY_CLAIM_FRAMES = "Query_Claim_Frames"


@dataclass(frozen=True)
class Condition:
    name: str
    topics: dict[str, tuple[dict[str, str], ...]]  # topic ID -> its rows, column -> cell
    query_claim_frames: frozenset[str] | None  # None: the condition has no Query_Claim_Frames folder

    @property
    def query_ids(self) -> frozenset[str]:
        """The IDs a query folder may have: query claim frames where there are any, else topics
        (NIST's validator asks whether the set of frames is empty; its check of the run's folders
        only whether the folder exists: ``folder_ids``)."""
        return self.query_claim_frames if self.query_claim_frames else frozenset(self.topics)

    @property
    def folder_ids(self) -> frozenset[str]:
        return self.query_claim_frames if self.query_claim_frames is not None else frozenset(self.topics)

    @property
    def folder_kind(self) -> str:
        return "query_claim_frame" if self.query_claim_frames is not None else "topic"

    def rows(self) -> list[dict[str, str]]:
        return [row for rows in self.topics.values() for row in rows]


@dataclass(frozen=True)
class UserQueries:
    path: str
    conditions: dict[str, Condition]


def read_user_queries(path: str | os.PathLike) -> UserQueries:
    root = Path(path)
    if not root.is_dir():
        raise UsageError(f"--user-queries {path}: not a folder")
    conditions = {}
    for item in sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith(".")):
        topics_file = next((p for p in sorted(item.iterdir()) if p.is_file() and p.name.endswith("topics.tsv")), None)
        if topics_file is None:
            raise InputError(str(item), "no topics.tsv: NIST's validator needs one in every condition folder")
        if item.name not in TOPIC_COLUMNS:
            raise InputError(
                str(item), f"unknown condition '{item.name}' (expected Condition5, Condition6 or Condition7)"
            )
        frames_folder = item / QUERY_CLAIM_FRAMES
        frames = None
        if frames_folder.is_dir():
            frames = frozenset(
                p.name.replace(".ttl", "") for p in frames_folder.iterdir() if p.is_file() and p.name.endswith(".ttl")
            )
        conditions[item.name] = Condition(item.name, _topics(topics_file, TOPIC_COLUMNS[item.name]), frames)
    return UserQueries(str(root), conditions)


def _topics(path: Path, columns: tuple[str, ...]) -> dict[str, tuple[dict[str, str], ...]]:
    topics: dict[str, list[dict[str, str]]] = {}
    for number, line in enumerate(text_lines(_read(path)), 1):
        cells = fit_cells(line.split("\t"), len(columns))
        if len(cells) < len(columns):
            raise InputError(str(path), f"{len(cells)} columns, expected {len(columns)} ({' '.join(columns)})", number)
        row = dict(zip(columns, cells, strict=True))
        topics.setdefault(row["topic_id"], []).append(row)
    return {k: tuple(v) for k, v in topics.items()}


def _read(path: Path) -> str:
    return read_text(path, universal=True)
