"""The Condition 5 query claim frames as NIST's evaluation pooled them: a run of their own, whose
ID is ``query_claim_frames``.

NIST's scorer finds a query's claim frame in the claim mappings by that run ID, with the query ID
as the run claim ID (research/ta3-crux-scoring.md §2.1); ``score_submission.py task3`` describes
the run as "the output of NIST evaluation docker when applied to query claim frames represented as
a Condition5 run". As a Condition 5 run, each frame of the user queries'
``Condition5/Query_Claim_Frames/<query>.ttl`` is ranked first for itself:
``Condition5/<query>/<query>.ranking.tsv`` holds ``<query> <query> 1 related``. NIST's code names
no relation for that line; only the pool reads it (a claim tagged related belongs to the ontopic,
related, non-refuting and non-supporting lists, so the frame, at rank 1, is pooled whenever one of
them has depth), and NIST's docker reads a Condition 5 line without a relation as related too.

``query_claim_frames(ids)`` is the run's selection of frames and ranking lines, which
``pipeline_ta3`` takes in place of a run folder: the frames are read where the user queries hold
them, and nothing is written.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from aifcheck.errors import InputError
from aifcheck.loading.ranking import RANKING_SUFFIX
from aifcheck.pipeline.shared.tables import TextFile
from aifcheck.pipeline.ta3.queries import QUERY_CLAIM_FRAMES, UserQueries
from aifcheck.pipeline.ta3.select import FrameFile, FrameSelection

QCF_RUN = "query_claim_frames"
QCF_CONDITION = "Condition5"
QCF_RELATION = "related"


def query_claim_frames(query_ids: Iterable[str]) -> Callable[[UserQueries], FrameSelection]:
    """What selects the query claim frames of ``query_ids`` (Condition 5 queries) from the user
    queries, each ranked first for itself. InputError for a query whose frame is not there."""
    wanted = sorted(set(query_ids))

    def select(queries: UserQueries) -> FrameSelection:
        condition = queries.conditions.get(QCF_CONDITION)
        known = condition.query_claim_frames if condition is not None else None
        folder = Path(queries.path) / QCF_CONDITION / QUERY_CLAIM_FRAMES
        frames, rankings, messages = [], [], []
        for query in wanted:
            path = folder / f"{query}.ttl"
            if not known or query not in known:
                raise InputError(str(path), f"missing: the query claim frame of Condition 5 query {query}")
            frames.append(FrameFile(QCF_CONDITION, query, path.name, str(path)))
            ranking = f"{QCF_CONDITION}/{query}/{query}{RANKING_SUFFIX}"
            rankings.append(TextFile(ranking, f"{query}\t{query}\t1\t{QCF_RELATION}\n"))
            messages.append(f"Copying /{QCF_CONDITION}/{query}/{path.name}")
        return FrameSelection(tuple(frames), tuple(rankings), tuple(messages), ())

    return select
