"""A TA3 run's ranked lists, as NIST's TA3 scorer reads them.

Two layouts are accepted:
- as a team submits it (plan §6.2): ``RUN/Condition5|6|7/<query>/<query>.ranking.tsv`` with the
  ranked claim frames ``<claim>.ttl`` beside it;
- as NIST's evaluation docker leaves it for the scorer: ``RUN/SPARQL-AUGMENTED-output/...`` for the
  rankings and ``RUN/ARF-output/<condition>/<query>/<claim>-outer-claim.tab`` for the frames.

The query is the folder's name, as for NIST (column 1 of a ranking line is not read). A ranking
line is ``query, claim frame ID, rank, relation`` in Condition 5 and ``topic, claim frame ID,
rank`` in Conditions 6 and 7. The scorer reads no claim frame: it only requires each ranked one
to be there (NIST stops on one that is not). What the plan forbids and NIST would either stop on
or read in an order it does not define is an InputError: a wrong number of columns, a rank that
is not a number, two lines for one claim frame, two claim frames with one rank. A Condition 5
relation other than supporting, refuting or related puts the claim in no list, as for NIST,
with a warning.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from pathlib import Path

from aifcheck.errors import InputError, UsageError
from aifcheck.loading.paths import entries
from aifcheck.loading.ranking import RANKING_SUFFIX, RankingLine, named_columns, ranking_width, read_ranking
from aifcheck.names import CONDITION_FOLDERS

TAGS = ("supporting", "refuting", "related")
ONTOPIC = "ontopic"
NIST_RANKINGS = "SPARQL-AUGMENTED-output"
NIST_FRAMES = "ARF-output"
DOCKER_STAGES = (
    "SPARQL-output",
    "SPARQL-CLEAN-output",
    "SPARQL-MERGED-output",
    "SPARQL-VALID-output",
    NIST_RANKINGS,
    NIST_FRAMES,
)


@dataclass(frozen=True)
class Ranked:
    claim_id: str
    rank: Decimal
    tag: str  # Condition 5: the run's relation to the query claim frame; else "ontopic"
    path: str
    line: int


@dataclass(frozen=True)
class Run:
    rankings: dict[tuple[str, str], tuple[Ranked, ...]]  # (condition, query) -> claims by rank
    warnings: tuple[str, ...]


def read_run(path: str | os.PathLike) -> Run:
    root = Path(path)
    if not root.is_dir():
        raise InputError(str(root), "not a folder: expected a TA3 run (Condition5|6|7/<query>/<query>.ranking.tsv)")
    if root.name in DOCKER_STAGES and (root.parent / NIST_RANKINGS).is_dir():
        # a stage's folder of NIST's docker output: the run is the folder above it (its name the run ID)
        raise UsageError(f"{root}: a stage's folder of NIST's docker output: give the run, {root.parent}")
    nist = (root / NIST_RANKINGS).is_dir()
    rankings_root = root / NIST_RANKINGS if nist else root
    folders = [rankings_root / c for c in CONDITION_FOLDERS if (rankings_root / c).is_dir()]
    if not folders:
        raise InputError(str(root), "no Condition5, Condition6 or Condition7 folder: not a TA3 run")
    rankings: dict[tuple[str, str], tuple[Ranked, ...]] = {}
    warnings: list[str] = []
    for folder in folders:
        for query in [p for p in entries(folder) if p.is_dir()]:
            frames = root / NIST_FRAMES / folder.name / query.name if nist else query
            ranked = _read_query(folder.name, query, frames, nist, warnings)
            if ranked is not None:
                rankings[folder.name, query.name] = ranked
    return Run(rankings, tuple(warnings))


def _read_query(
    condition: str, folder: Path, frames: Path, nist: bool, warnings: list[str]
) -> tuple[Ranked, ...] | None:
    # every entry named as a ranking file: one that is no file (a FIFO, a folder, a link to nothing) is refused
    files = [p for p in entries(folder) if p.name.endswith(RANKING_SUFFIX.removeprefix("."))]
    if not files:
        warnings.append(f"{folder}: no {folder.name}.ranking.tsv: the query is scored as a run that ranks no claim")
        return None
    present = set(os.listdir(frames)) if frames.is_dir() else set()
    width = ranking_width(condition)
    seen: dict[str, Ranked] = {}
    by_rank: dict[Decimal, Ranked] = {}
    for path in files:
        for ranking_line in read_ranking(path):
            if ranking_line.blank:
                continue
            here = _ranked(path, ranking_line, condition, width)
            claim_id, rank, tag, line = here.claim_id, here.rank, here.tag, here.line
            if claim_id in seen:
                first = seen[claim_id]
                raise InputError(str(path), f"{claim_id} is ranked twice (also at {first.path}:{first.line})", line)
            if rank in by_rank:
                raise InputError(
                    str(path),
                    f"rank {ranking_line.cells[2].strip()} is given to {claim_id} and to {by_rank[rank].claim_id} "
                    f"(line {by_rank[rank].line}): the plan forbids ties",
                    line,
                )
            frame = f"{claim_id}-outer-claim.tab" if nist else f"{claim_id}.ttl"
            if frame not in present:
                raise InputError(str(path), f"{claim_id} is ranked but {frames / frame} does not exist", line)
            if width == 4 and tag not in TAGS:
                warnings.append(
                    f"{path}:{line}: relation '{tag}' of {claim_id} is none of {', '.join(TAGS)}: "
                    "the claim is in no ranked list (as for NIST)"
                )
            seen[claim_id] = by_rank[rank] = here
    return tuple(sorted(seen.values(), key=lambda r: r.rank))


def _ranked(path: Path, ranking_line: RankingLine, condition: str, width: int) -> Ranked:
    """A ranking line as NIST's scorer reads it: its cells stripped, the rank a finite number."""
    cells, line = ranking_line.cells, ranking_line.number
    if len(cells) != width:
        raise InputError(
            str(path), f"{len(cells)} columns, expected {width} ({condition}: {named_columns(width)})", line
        )
    claim_id, rank_text = cells[1].strip(), cells[2].strip()
    tag = cells[3].strip() if width == 4 else ONTOPIC
    return Ranked(claim_id, _rank(rank_text, claim_id, path, line), tag, str(path), line)


def _rank(text: str, claim_id: str, path: Path, line: int) -> Decimal:
    """A rank: any finite number (ranks sort by value)."""
    try:
        rank = Decimal(text)
    except InvalidOperation:
        rank = None
    if rank is None or not rank.is_finite():
        raise InputError(str(path), f"rank '{text}' of {claim_id} is not a number", line)
    return rank
