"""A TA3 ranking file, ``<query>.ranking.tsv`` (plan §6.2): no header, one line per ranked claim
frame with the condition's columns (aifcheck.tasks.RANKING_COLUMNS).

Every reader of a ranking file (NIST's driver and pooler in aifcheck.pipeline.ta3, its scorer in
aifcheck.score.ta3, the submission check in aifcheck.validation.submission) reads its lines here,
as Python's text mode reads them (NIST's scripts do): ``\\r\\n``, ``\\r`` and ``\\n`` end a line.
What a reader makes of a line differs as NIST's scripts differ, and each reading is a method of the
line: NIST's driver and pooler strip the whole line and split it at tabs (``stripped``), its scorer
splits it at every tab and strips the cells it uses (``cells``).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from aifcheck.loading.paths import read_text
from aifcheck.names import condition_folder
from aifcheck.tasks import RANKING_COLUMNS

RANKING_SUFFIX = ".ranking.tsv"
# the columns as the readers' messages name them, by width
_NAMED = {4: "query, claim, rank, relation", 3: "topic, claim, rank"}


@dataclass(frozen=True)
class RankingLine:
    number: int
    text: str  # the line with its ending, "\n" (the last line may have none): NIST writes a kept line back so

    @property
    def stripped(self) -> list[str]:
        """The line stripped, split at tabs (NIST's docker driver and TA3 pooler)."""
        return self.text.strip().split("\t")

    @property
    def cells(self) -> list[str]:
        """The line without its ending, split at every tab; the cells keep their spaces (NIST's scorer)."""
        return self.text.removesuffix("\n").split("\t")

    @property
    def blank(self) -> bool:
        return not self.text.strip()


def ranking_lines(text: str) -> tuple[RankingLine, ...]:
    """Every line of a ranking file's text, blank ones included, numbered from 1."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    last = lines.pop()  # after the last line break: a last line without an ending, or nothing
    found = [RankingLine(number, f"{line}\n") for number, line in enumerate(lines, 1)]
    if last:
        found.append(RankingLine(len(lines) + 1, last))
    return tuple(found)


def ranking_rows(rows: Iterable[Sequence[str]]) -> tuple[RankingLine, ...]:
    """The lines of a ranking file held as rows of cells (a stage of aifcheck's own run), each the
    line NIST's scripts write of it. A reading, not output: NIST's pooler reads the file its driver
    wrote, so a row reaches it through that line (``stripped`` drops a trailing empty cell)."""
    return tuple(RankingLine(number, "\t".join(row) + "\n") for number, row in enumerate(rows, 1))


def read_ranking(path: str | os.PathLike) -> tuple[RankingLine, ...]:
    """The lines of a ranking file; InputError when it cannot be read as UTF-8 text."""
    return ranking_lines(read_text(path))


def ranking_width(condition: int | str) -> int:
    """The number of columns of a ranking line in a condition (5, or its folder name ``Condition5``).
    A folder named otherwise is read as NIST's driver reads it, as a condition without relations."""
    if isinstance(condition, str):
        condition = next((c for c in RANKING_COLUMNS if condition_folder(c) == condition), max(RANKING_COLUMNS))
    return len(RANKING_COLUMNS[condition])


def named_columns(width: int) -> str:
    """The columns of a ranking line of ``width`` columns, as messages name them."""
    return _NAMED[width]
