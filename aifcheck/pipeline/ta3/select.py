"""NIST's TA3 docker before its SPARQL stage: which claim frames of a run are queried, and the
ranking files it queries them with.

A run is ``RUN/ConditionN/<query>/<query>.ranking.tsv`` with the ranked claim frames
``<claim>.ttl`` beside it; a ``<claim>-report.txt`` beside a frame marks it invalid (NIST's
submission check writes one), and it is ignored. As NIST's driver does:
- each ranking line ``query, claim, rank[, relation]`` is read (relation "related" when there are
  three columns); a claim listed twice keeps its place and takes its later line;
- ``--depth Condition5:N,...`` keeps, per condition, query (column 1) and relation, the N claims of
  lowest rank (all of them without a depth); two claims of one rank and relation leave only the
  later one, as NIST's table of ranks keeps one claim per rank;
- the frames kept are the ones queried, and each ranking file keeps its kept lines, byte for byte;
- the folders kept must be conditions of the user queries, query claim frames (Condition 5) or
  topics, and hold only frames and ``<query>.ranking.tsv``.
Where NIST's driver stops (a file at another depth, a rank that is not a number, a line too short
for its condition, a folder the user queries do not know) this is an InputError naming the file
and line; where it stops on a frame that no ranking lists, the frame is left out with a warning.
"""

from __future__ import annotations

import os
import re
import sys
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from aifcheck.errors import InputError, UsageError, cut
from aifcheck.loading.ranking import RANKING_SUFFIX, named_columns, ranking_width, read_ranking
from aifcheck.pipeline.shared.tables import TextFile
from aifcheck.pipeline.ta3.queries import UserQueries

_DEPTH = re.compile(r"^(Condition[567]):(\d+)$")


@dataclass(frozen=True)
class FrameFile:
    """A claim frame to query: ConditionN/<query>/<name>."""

    condition: str
    query: str
    name: str
    path: str  # where it is in the run

    @property
    def folder(self) -> str:
        return f"{self.condition}/{self.query}/{self.name}"


@dataclass(frozen=True)
class FrameSelection:
    frames: tuple[FrameFile, ...]  # by condition, query, file name
    rankings: tuple[TextFile, ...]  # the kept lines of each ranking file, at its place in the run
    messages: tuple[str, ...]  # NIST's run.log lines for each frame: Copying, Skipping, Ignoring invalid KB
    warnings: tuple[str, ...]


@dataclass
class _Ranked:
    relation: str
    path: str
    line: int
    text: str  # the line as NIST writes it back (Python's text mode: "\n" ends it)
    rank: int
    pooled: bool = False


def parse_depth(text: str | None) -> dict[str, int]:
    """``Condition5:N,Condition6:N,Condition7:N`` (any of them, in any order) -> depth per condition."""
    if not text:
        return {}
    depths: dict[str, int] = {}
    for item in text.split(","):
        match = _DEPTH.match(item.strip())
        if not match:
            raise UsageError(f"--depth {cut(text, 80)}: '{cut(item, 80)}' is not ConditionN:DEPTH (N 5, 6 or 7)")
        if match[1] in depths:
            raise UsageError(f"--depth {cut(text, 80)}: {match[1]} is given twice")
        # a depth beyond any ranking (more digits than a number holds) keeps every line
        depths[match[1]] = int(match[2]) if len(match[2]) <= _DIGITS else sys.maxsize
    return depths


_DIGITS = 18  # of a depth read as it is (a 64-bit integer)


def select_frames(run: str | os.PathLike, queries: UserQueries, depth: dict[str, int] | None = None) -> FrameSelection:
    root = Path(run)
    if not root.is_dir():
        raise UsageError(f"{run}: not a folder (expected a TA3 run: Condition5|6|7/<query>/<query>.ranking.tsv)")
    frames, ranks = _walk(root)
    warnings: list[str] = []
    _pool(ranks, depth or {}, warnings)
    kept: list[FrameFile] = []
    messages = []
    for path, valid in frames.items():
        shown = path.replace(str(root), "", 1)
        if not valid:
            messages.append(f"Ignoring invalid KB: {shown}")
            continue
        condition, query, name = _place(root, path)
        ranked = ranks.get(condition, {}).get(query, {}).get(name.removesuffix(".ttl"))
        if ranked is None:
            warnings.append(
                f"{path}: no ranking line of {condition}/{query} names this claim frame: left out "
                "(NIST's docker stops on it)"
            )
        if ranked is not None and ranked.pooled:
            messages.append(f"Copying {shown}")
            kept.append(FrameFile(condition, query, name, path))
        else:
            messages.append(f"Skipping {shown}")
    rankings = _kept_rankings(root, ranks)
    _verify(root, queries, kept, rankings)
    kept.sort(key=lambda f: (f.condition, f.query, f.name))
    return FrameSelection(tuple(kept), rankings, tuple(messages), tuple(warnings))


def _walk(root: Path) -> tuple[dict[str, bool], dict[str, dict[str, dict[str, _Ranked]]]]:
    """The claim frames of a run (path -> valid: no -report.txt beside it) and its ranking lines;
    a folder that cannot be read is an InputError, never a folder left out."""

    def unreadable(exc: OSError) -> None:
        raise InputError(str(exc.filename), f"cannot read this folder: {exc.strerror or exc}")

    frames: dict[str, bool] = {}
    ranks: dict[str, dict[str, dict[str, _Ranked]]] = defaultdict(lambda: defaultdict(dict))
    for folder, names, files in os.walk(root, onerror=unreadable):
        names.sort()
        for name in sorted(files):
            path = os.path.join(folder, name)
            if name.endswith("-report.txt"):
                frames[path.removesuffix("-report.txt") + ".ttl"] = False
            elif name.endswith(".ttl"):
                frames.setdefault(path, True)
            elif name.endswith(RANKING_SUFFIX):
                _read_ranking(root, path, ranks)
    return frames, ranks


def _place(root: Path, path: str) -> tuple[str, str, str]:
    parts = Path(path).relative_to(root).parts
    if len(parts) != 3:
        raise InputError(path, "not at ConditionN/<query>/<file> in the run: NIST's docker stops on it")
    return parts[0], parts[1], parts[2]


def _read_ranking(root: Path, path: str, ranks: dict[str, dict[str, dict[str, _Ranked]]]) -> None:
    condition = _place(root, path)[0]
    width = ranking_width(condition)
    for line in read_ranking(path):
        cells = line.stripped
        if cells == [""]:
            continue  # NIST's docker stops on a blank line; it holds no ranking
        if len(cells) < width:
            raise InputError(
                path, f"{len(cells)} columns, expected {width} in {condition} ({named_columns(width)})", line.number
            )
        try:
            rank = int(cells[2])
        except ValueError:
            raise InputError(path, f"rank '{cells[2]}' of {cells[1]} is not a whole number", line.number) from None
        relation = cells[3] if len(cells) > 3 else "related"
        ranks[condition][cells[0]][cells[1]] = _Ranked(relation, path, line.number, line.text, rank)


def _pool(ranks: dict[str, dict[str, dict[str, _Ranked]]], depth: dict[str, int], warnings: list[str]) -> None:
    for condition, by_query in ranks.items():
        limit = depth.get(condition)
        for claims in by_query.values():
            bins: dict[str, dict[int, tuple[str, _Ranked]]] = defaultdict(dict)
            for claim, ranked in claims.items():
                earlier = bins[ranked.relation].get(ranked.rank)
                if earlier is not None:
                    warnings.append(
                        f"{ranked.path}:{ranked.line}: rank {ranked.rank} ({ranked.relation}) is also "
                        f"{earlier[0]}'s (line {earlier[1].line}): {earlier[0]} is left out, as NIST's docker does"
                    )
                bins[ranked.relation][ranked.rank] = (claim, ranked)
            for by_rank in bins.values():
                for position, rank in enumerate(sorted(by_rank), 1):
                    by_rank[rank][1].pooled = limit is None or position <= limit


def _kept_rankings(root: Path, ranks: dict[str, dict[str, dict[str, _Ranked]]]) -> tuple[TextFile, ...]:
    lines: dict[str, list[str]] = defaultdict(list)
    for by_query in ranks.values():
        for claims in by_query.values():
            for ranked in claims.values():
                if ranked.pooled:
                    lines[ranked.path].append(ranked.text)
    return tuple(
        TextFile(Path(path).relative_to(root).as_posix(), "".join(text)) for path, text in sorted(lines.items())
    )


def _verify(root: Path, queries: UserQueries, frames: list[FrameFile], rankings: tuple[TextFile, ...]) -> None:
    """The check NIST's driver runs on the files it keeps (verify_output_directory_structure.py)."""
    kept = sorted([(f.condition, f.query, f.name) for f in frames] + [tuple(r.path.split("/")) for r in rankings])
    for condition, query, name in kept:
        where = root / condition
        if condition not in queries.conditions:
            raise InputError(
                str(where),
                f"unexpected directory '{condition}': not a condition of the user queries "
                f"({', '.join(queries.conditions)})",
            )
        known = queries.conditions[condition]
        if query not in known.folder_ids:
            raise InputError(
                str(where / query),
                f"unexpected {known.folder_kind} '{query}': {condition} of the user queries has none of that ID",
            )
        if not (name.endswith(".ttl") or name == f"{query}{RANKING_SUFFIX}"):
            raise InputError(
                str(where / query / name),
                f"unexpected file '{name}' (expected claim frames and {query}{RANKING_SUFFIX})",
            )
