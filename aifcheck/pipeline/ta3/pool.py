"""NIST's TA3 pool (``generate_pool.py task3``, aida/task3_pool.py): the claims of several runs to
be assessed, each once, and the claim mappings ``aifcheck score ta3 --claim-mappings`` reads.

Each run is the output of NIST's TA3 docker (``aifcheck pipeline ta3``); its ID is its folder's
name. For every query of ``queries_to_score`` (``query_id``, ``condition``, ``depth`` as
``ontopic:N,supporting:N,...``) that the run's ARF-output has, the ranking of
SPARQL-VALID-output is read in rank order, and a claim enters the pool while any list it belongs to
has depth left (Condition 5: ontopic, its relation and the lists that relation is part of:
supporting -> nonrefuting, refuting -> nonsupporting, related -> both; Conditions 6 and 7:
ontopic); each of those lists then has one less.

A pool claim is named by the MD5 of its normalised content: its ARF outer claim with each component
type's members de-duplicated, sorted by the MD5 of their rows and renumbered, and its raw KEs sorted
and renumbered, the claim ID replaced by ``xxxxxxxxxxx``; claims with the same content share one
name. The pool holds ``pool/<uid>-outer-claim.tab``, ``-raw-kes.tab``, ``-readable-kes.txt`` of
every claim not in a previous pool (``--previous-pool DIR``), ``claim-mappings.tab`` (a row per run
claim, sorted) and ``human-readable-format.tab``. Where NIST's code stops (a missing file, a short
row, a rank given twice, a depth without one of the query's lists) this is an InputError naming the
file and line.

NIST's scorer reads each Condition 5 query's claim frame from the pool, as the claim of run
``query_claim_frames`` (aifcheck.pipeline.ta3.qcf). Given that run's stages (``query_claim_frames``,
the frames of the user queries through ``pipeline_ta3``), the pool pools it after the runs, as
NIST's evaluation pooled it beside them; where the pool then maps no query claim frame of a
Condition 5 query, it says so in one warning.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from aifcheck.errors import InputError, UsageError
from aifcheck.loading.paths import read_text
from aifcheck.loading.ranking import RANKING_SUFFIX, RankingLine, ranking_rows, ranking_width, read_ranking
from aifcheck.loading.tsv import check_unique, fit_cells
from aifcheck.pipeline.shared.tables import ended_lines
from aifcheck.pipeline.ta3.qcf import QCF_CONDITION, QCF_RUN
from aifcheck.pipeline.ta3.run import ARF, VALID, PipelineTA3

PLACEHOLDER = "xxxxxxxxxxx"
COMPONENT_ORDER = (
    "claimTopic",
    "claimSubtopic",
    "claimDescription",
    "claimTemplate",
    "claimDocument",
    "claimEpistemic",
    "claimSentiment",
    "claimer",
    "claimerAffiliation",
    "claimMedium",
    "claimLocation",
    "xVariable",
    "date",
)
RELATION_ORDER = ("ontopic", "supporting", "refuting", "related", "nonrefuting", "nonsupporting")
EXPANDED = {"refuting": ("nonsupporting",), "supporting": ("nonrefuting",), "related": ("nonsupporting", "nonrefuting")}
MAPPING_COLUMNS = (
    "pool_claim_uid",
    "condition",
    "query_id",
    "claim_relations",
    "rank",
    "run_claim_id",
    "run_id",
    "runs_directory",
    "in_previous_pools",
)
POLARITY = {
    "EpistemicTrueCertain": "TRUE",
    "EpistemicTrueUncertain": "TRUE",
    "EpistemicFalseCertain": "FALSE",
    "EpistemicFalseUncertain": "FALSE",
    "EpistemicUnknown": "UNKNOWN",
}
_OUTER_COLUMNS = ("claim_id", "component_type", "id", "fieldname", "value", "correctness")

# component type -> member index -> field name -> value -> (field name, value, correctness)
Components = dict[str, dict[int, dict[str, dict[str, tuple[str, str, str]]]]]
Depth = tuple[str, int, str]  # a query's depth: (queries file, line, ontopic:N,supporting:N,...)


@dataclass(frozen=True)
class PoolClaim:
    """A run claim's ARF files, read as NIST's pool reads them."""

    outer_header: tuple[str, ...]  # each header's cells as NIST prints them back
    components: Components
    edges_header: tuple[str, ...]
    edges: tuple[dict[str, str], ...]
    readable: str

    def outer_text(self, claim_id: str) -> str:
        lines = ["\t".join(self.outer_header)]
        for kind in sorted(self.components, key=COMPONENT_ORDER.index):
            members = {
                _md5("\n".join(sorted(lines_))): lines_ for lines_ in map(_member_lines, self.components[kind].values())
            }
            for number, md5 in enumerate(sorted(members), 1):
                lines += [f"{claim_id}\t{kind}\t{number}\t{line}" for line in members[md5]]
        return "\n".join(lines)

    def edges_text(self, claim_id: str) -> str:
        columns = [c.strip() for c in self.edges_header]
        keyed = [c for c in columns if c not in ("ClaimID", "JustificationNum")]
        rows = sorted(self.edges, key=lambda edge: "\t".join(edge[c] for c in keyed))
        numbered = ({**edge, "ClaimID": claim_id, "JustificationNum": str(i)} for i, edge in enumerate(rows, 1))
        return "\n".join(["\t".join(self.edges_header), *("\t".join(edge[c] for c in columns) for edge in numbered)])

    @property
    def uid(self) -> str:
        return _md5(f"{self.outer_text(PLACEHOLDER)}\n{self.edges_text(PLACEHOLDER)}")

    def values(self, kind: str, field: str) -> list[str]:
        """The values of one field of a component type, member by member (a member without it has none)."""
        return [value for member in self.components.get(kind, {}).values() for value in member.get(field, {})]

    @property
    def human_readable(self) -> str | None:
        """NIST's sentence for the claim (None without a template): each x or X of the template is
        the X variable, in angle brackets."""
        template = ",".join(self.values("claimTemplate", "value"))
        if not template:
            return None
        x = f"<{','.join(self.values('xVariable', 'name'))}>"
        template = template.replace("x", "\0").replace("X", "\0").replace("\0", x)
        place, medium, date, claimer = (
            ",".join(self.values(k, f))
            for k, f in (("claimLocation", "name"), ("claimMedium", "name"), ("date", "range"), ("claimer", "name"))
        )
        polarity = POLARITY.get(",".join(self.values("claimEpistemic", "polarity")))
        return (
            f"At <{place}> place using <{medium}> medium during <{date}> date, <{claimer}> claims it is "
            f"<{polarity}> that {template}"
        )


@dataclass(frozen=True)
class ClaimMapping:
    pool_claim_uid: str
    condition: str
    query_id: str
    claim_relations: str
    rank: str
    run_claim_id: str
    run_id: str
    runs_directory: str
    in_previous_pools: str

    def cells(self) -> tuple[str, ...]:
        return tuple(getattr(self, c) for c in MAPPING_COLUMNS)


@dataclass(frozen=True)
class TA3Pool:
    claims: dict[str, PoolClaim]  # uid -> the first run claim of that content
    new: tuple[str, ...]  # the uids not in a previous pool: their files are written
    mappings: tuple[ClaimMapping, ...]  # in the order the runs were read
    query_claim_frames: PipelineTA3 | None = None  # the query claim frames' run, when the pool made it
    warnings: tuple[str, ...] = ()


class _Folder:
    """A run as NIST's docker wrote it: RUN/ARF-output and RUN/SPARQL-VALID-output."""

    def __init__(self, run: str | os.PathLike):
        self.path = Path(run)
        self.run_id, self.directory = self.path.name, os.path.dirname(str(run)) or "."
        self.arf = self.path / ARF
        if not self.arf.is_dir():
            raise UsageError(f"{run}: no ARF-output folder (expected the output of aifcheck pipeline ta3)")

    def queries(self) -> list[tuple[str, str]]:
        return [
            (condition, query)
            for condition in sorted(p.name for p in self.arf.iterdir() if p.is_dir())
            for query in sorted(p.name for p in (self.arf / condition).iterdir() if p.is_dir())
        ]

    def ranking(self, condition: str, query: str) -> tuple[str, tuple[RankingLine, ...]]:
        path = self.path / VALID / condition / query / f"{query}{RANKING_SUFFIX}"
        return str(path), read_ranking(path)

    def claim(self, condition: str, query: str, claim_id: str) -> PoolClaim:
        folder = self.arf / condition / query
        outer, kes = folder / f"{claim_id}-outer-claim.tab", folder / f"{claim_id}-raw-kes.tab"
        readable = _read(folder / f"{claim_id}-readable-kes.txt")
        return _claim(str(outer), _read(outer), str(kes), _read(kes), readable)


class _Stages:
    """A run as aifcheck's pipeline_ta3 returned it, not written: the query claim frames' run."""

    def __init__(self, result: PipelineTA3, run_id: str, directory: str):
        self.run_id, self.directory = run_id, directory
        self.arf = {(c.condition, c.query, c.claim_id): c for c in result.arf}
        self.valid = {file.path: file for file in result.valid}

    def queries(self) -> list[tuple[str, str]]:
        return sorted({(condition, query) for condition, query, _ in self.arf})

    def ranking(self, condition: str, query: str) -> tuple[str, tuple[RankingLine, ...]]:
        path = f"{condition}/{query}/{query}{RANKING_SUFFIX}"
        if path not in self.valid:
            raise InputError(f"{self.run_id}/{VALID}/{path}", "missing")
        return f"{self.run_id}/{VALID}/{path}", ranking_rows(row.cells for row in self.valid[path].rows)

    def claim(self, condition: str, query: str, claim_id: str) -> PoolClaim:
        where = f"{self.run_id}/{ARF}/{condition}/{query}/{claim_id}"
        found = self.arf.get((condition, query, claim_id))
        if found is None:
            raise InputError(f"{where}-outer-claim.tab", "missing")
        outer, kes = found.outer_text(), found.raw_kes_text()
        return _claim(f"{where}-outer-claim.tab", outer, f"{where}-raw-kes.tab", kes, found.readable_text())


def pool_ta3(
    runs: list[str | os.PathLike],
    queries_to_score: str | os.PathLike,
    previous_pools: list[str | os.PathLike] | None = None,
    query_claim_frames: PipelineTA3 | None = None,
    qcf_directory: str = "runs",
) -> TA3Pool:
    """Pool ``runs`` (folders of NIST's docker output) for the queries of ``queries_to_score``.
    ``query_claim_frames``: the query claim frames' run (aifcheck.pipeline.ta3.qcf through
    pipeline_ta3), pooled last as run ``query_claim_frames`` of folder ``qcf_directory``."""
    queries = _read_queries(Path(queries_to_score))
    previous = _previous(previous_pools or [])
    sources: list[_Folder | _Stages] = [_Folder(run) for run in runs]
    if query_claim_frames is not None:
        if any(source.run_id == QCF_RUN for source in sources):
            raise UsageError(f"a run is named {QCF_RUN}, the run of the query claim frames the pool makes")
        sources.append(_Stages(query_claim_frames, QCF_RUN, qcf_directory))
    claims: dict[str, PoolClaim] = {}
    mappings = []
    for source in sources:
        for condition, query in source.queries():
            if (condition, query) not in queries:
                continue
            depth_path, line, depth = queries[condition, query]
            path, lines = source.ranking(condition, query)
            for rank, claim_id, relations in _pooled(path, lines, condition, query, (depth_path, line, depth)):
                claim = source.claim(condition, query, claim_id)
                uid = claim.uid
                claims.setdefault(uid, claim)
                ordered = ",".join(sorted(relations, key=RELATION_ORDER.index))
                mappings.append(
                    ClaimMapping(
                        uid,
                        condition,
                        query,
                        ordered,
                        str(rank),
                        claim_id,
                        source.run_id,
                        source.directory,
                        str(uid in previous),
                    )
                )
    return TA3Pool(
        claims,
        tuple(uid for uid in claims if uid not in previous),
        tuple(mappings),
        query_claim_frames,
        _without_query_claim_frames(queries, mappings),
    )


def condition5_queries(queries_to_score: str | os.PathLike) -> list[str]:
    """The Condition 5 queries of a queries table: those with a query claim frame."""
    return [query for condition, query in _read_queries(Path(queries_to_score)) if condition == QCF_CONDITION]


def _without_query_claim_frames(queries: dict[tuple[str, str], Depth], mappings: list[ClaimMapping]) -> tuple[str, ...]:
    """One warning for the Condition 5 queries whose query claim frame the pool does not map:
    NIST's scorer, and score ta3, need it."""
    mapped = {m.query_id for m in mappings if m.run_id == QCF_RUN and m.run_claim_id == m.query_id}
    missing = [query for condition, query in queries if condition == QCF_CONDITION and query not in mapped]
    if not missing:
        return ()
    shown = ", ".join(missing[:3]) + (", ..." if len(missing) > 3 else "")
    return (
        f"the pool maps no query claim frame of {len(missing)} Condition 5 quer(ies) ({shown}): score ta3 needs "
        "them; give --user-queries and --aux to pool them as NIST did (run query_claim_frames)",
    )


def _pooled(path: str, lines: Sequence[RankingLine], condition: str, query: str, depth: Depth):
    """(rank, claim, lists) of the claims the depth lets in, in rank order."""
    left = _depth_left(depth)
    ranks = _ranks(path, lines, condition)
    for rank in sorted(ranks):
        claim_id, relations, number = ranks[rank]
        missing = sorted(relations - set(left))
        if missing:
            raise InputError(
                depth[0],
                f"the depth of {condition} {query} has no {', '.join(missing)} "
                f"({path}:{number} needs it): NIST's pool stops on it",
                depth[1],
            )
        if any(left[r] > 0 for r in relations):
            yield rank, claim_id, relations
            for r in relations:
                if left[r] > 0:
                    left[r] -= 1


def _depth_left(depth: Depth) -> dict[str, int]:
    path, line, text = depth
    left: dict[str, int] = {}
    for item in text.split(","):
        name, _, number = item.partition(":")
        if not number.strip().lstrip("+-").isdigit() or ":" in number:
            raise InputError(path, f"depth '{text}': '{item}' is not <list>:<number>", line)
        left[name] = int(number)
    return left


def _ranks(path: str, lines: Sequence[RankingLine], condition: str) -> dict[int, tuple[str, set[str], int]]:
    """rank -> (claim, the lists it is in, line) of a ranking file, as NIST's pooler reads it."""
    ranks: dict[int, tuple[str, set[str], int]] = {}
    needed = ranking_width(condition)
    for line in lines:
        cells, number = line.stripped, line.number
        if len(cells) < needed:
            raise InputError(path, f"{len(cells)} columns, expected {needed}", number)
        try:
            rank = int(cells[2])
        except ValueError:
            raise InputError(path, f"rank '{cells[2]}' is not a whole number", number) from None
        relations = {"ontopic"}
        if condition == QCF_CONDITION:
            if cells[3] not in EXPANDED:
                raise InputError(path, f"relation '{cells[3]}' is none of {', '.join(EXPANDED)}", number)
            relations |= {cells[3], *EXPANDED[cells[3]]}
        if rank in ranks:
            raise InputError(path, f"rank {rank} is also on line {ranks[rank][2]}: NIST's pool stops on it", number)
        ranks[rank] = (cells[1], relations, number)
    return ranks


def _claim(outer_path: str, outer_text: str, kes_path: str, kes_text: str, readable: str) -> PoolClaim:
    """A run claim's three ARF files, read as NIST's pool reads them."""
    header, rows = _table(outer_path, outer_text, _OUTER_COLUMNS)
    components: Components = {}
    for number, row in rows:
        kind = row["component_type"]
        if kind not in COMPONENT_ORDER:
            raise InputError(
                outer_path, f"component type '{kind}' is none of NIST's ({', '.join(COMPONENT_ORDER)})", number
            )
        try:
            index = int(row["id"]) - 1
        except ValueError:
            raise InputError(outer_path, f"component id '{row['id']}' is not a number", number) from None
        values = components.setdefault(kind, {}).setdefault(index, {}).setdefault(row["fieldname"], {})
        if row["value"] in values:
            raise InputError(
                outer_path,
                f"{kind} {row['id']} has {row['fieldname']} '{row['value']}' twice: NIST's pool stops on it",
                number,
            )
        values[row["value"]] = (row["fieldname"], row["value"], row["correctness"])
    edges_header, edges = _table(kes_path, kes_text, ("ClaimID", "JustificationNum"))
    return PoolClaim(
        header,
        components,
        edges_header,
        tuple(row for _, row in edges),
        readable.replace("\r\n", "\n").replace("\r", "\n"),
    )


def _table(path: str, text: str, required: tuple[str, ...]) -> tuple[tuple[str, ...], list[tuple[int, dict[str, str]]]]:
    """A table read as NIST's file reader reads it: the cells of the header line without trailing whitespace,
    each row split into at most as many cells as the header has (further tabs stay in the last),
    each stripped."""
    lines = ended_lines(text)
    if not lines:
        raise InputError(path, "empty: expected a header line")
    header = tuple(lines[0].rstrip().split("\t"))
    columns = [c.strip() for c in header]
    missing = [c for c in required if c not in columns]
    if missing:
        raise InputError(path, f"the header has no column {', '.join(missing)}", 1)
    rows = []
    for number, line in enumerate(lines[1:], 2):
        cells = fit_cells(line.rstrip("\n").split("\t"), len(columns))
        if len(cells) < len(columns):
            raise InputError(
                path, f"{len(cells)} cells, the header has {len(columns)}: NIST's pool stops on it", number
            )
        rows.append((number, dict(zip(columns, cells, strict=True))))
    return header, rows


def _read_queries(path: Path) -> dict[tuple[str, str], Depth]:
    """(condition, query) -> (file, line, depth); a query given twice is refused (NIST's dict keeps the last)."""
    _, rows = _table(str(path), _read(path), ("condition", "query_id", "depth"))
    key = ("condition", "query_id")
    check_unique(str(path), key, ((number, [row[c] for c in key]) for number, row in rows))
    return {(row["condition"], row["query_id"]): (str(path), number, row["depth"]) for number, row in rows}


def _previous(folders: list[str | os.PathLike]) -> frozenset[str]:
    found = set()
    for folder in folders:
        pool = Path(folder) / "pool"
        if not pool.is_dir() and (Path(folder) / "claim-mappings.tab").is_file():
            continue  # a pool whose claims were all in earlier pools has no pool/ folder (NIST's stops on it)
        if not pool.is_dir():
            raise UsageError(f"--previous-pool {folder}: no pool/ folder (expected the output of aifcheck pool ta3)")
        found.update(p.name.split("-")[0] for p in pool.iterdir() if p.name.endswith("-outer-claim.tab"))
    return frozenset(found)


def _member_lines(member: dict[str, dict[str, tuple[str, str, str]]]) -> list[str]:
    return [line for rows in member.values() for line in sorted("\t".join(row) for row in rows.values())]


def _md5(text: str) -> str:
    return hashlib.md5(text.encode("utf-8")).hexdigest()


def _read(path: Path) -> str:
    return read_text(path)
