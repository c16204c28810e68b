"""The TA2 pool NIST sends to LDC for assessment, from one or more runs (NIST's ``generate_pool.py
task2`` and Task2Pool; research/ta2-scoring.md §2.4).

Per run and per response file whose query is in the queries table (others are skipped, a note):
the query's top C clusters and, in each, its top K documents' rows (aifcheck.pipeline.ta2.ranking).
The pool of a query is the union over the runs of those rows' spans, less the spans of that query
in earlier pools. Every row of a pooled query must describe the query's entry point: its
``?query_link_target`` equal to it and its ``?link_target`` equal to that (a part of a ``|``-list
entry point is accepted here, where NIST's pooler stops; any other mismatch stops aifcheck too).

The pool lines come sorted by query, document, element, then the four coordinates as numbers;
response IDs count per query from 1, or on from the largest of the earlier pools; each query's
lines are cut into kits of at most ``kit_size`` lines; a kit's languages are those of its
documents, a language given as a list in the AUX data (``eng,rus``) split into its languages.
Each run's pooled rows are kept to be written back as NIST's SPARQL-POOLED output.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from aifcheck.errors import InputError, UsageError
from aifcheck.loading.tsv import read_table
from aifcheck.pipeline.shared.auxdata import Aux
from aifcheck.pipeline.ta2.queries import Query
from aifcheck.pipeline.ta2.ranking import select
from aifcheck.pipeline.ta2.responses import LoadedResponses, Response, load_run

POOL_HEADER = (
    "QUERY_ID",
    "DESCRIPTOR",
    "RESPONSE_ID",
    "MENTION_SOURCE",
    "DOCUMENT_ID",
    "MENTION_SPAN",
    "CORRECTNESS",
    "MENTION_TYPE",
    "FQEC",
)
UNFILLED = "NIL"  # CORRECTNESS, MENTION_TYPE and FQEC, which LDC fills


@dataclass(frozen=True)
class PoolLine:
    query_id: str
    descriptor: str  # the query's entry point
    response_id: int
    source: str  # the element's modality, upper-cased: TEXT, IMAGE, VIDEO
    document: str
    mention: str  # ELT:(x1,y1)-(x2,y2), the key frame ID for key frames


@dataclass(frozen=True)
class Kit:
    name: str  # <BATCH>_<query_id>_<n>.tab
    lines: tuple[PoolLine, ...]
    languages: str  # its documents' languages, sorted and comma-joined, or N/A


@dataclass(frozen=True)
class PooledFile:
    name: str  # the response file's name
    header: tuple[str, ...]  # its header's cells
    rows: tuple[Response, ...]  # its pooled rows, in file order


@dataclass(frozen=True)
class RunPool:
    run_id: str
    files: tuple[PooledFile, ...]


@dataclass(frozen=True)
class TA2Pool:
    batch: str
    lines: tuple[PoolLine, ...]
    kits: tuple[Kit, ...]
    runs: tuple[RunPool, ...]
    notes: tuple[str, ...]
    errors: int  # rows dropped or invalid, files skipped in the runs (exit status 1)


def pool_ta2(
    runs: Sequence[str | os.PathLike],
    queries: Mapping[str, Query],
    aux: Aux,
    previous: Sequence[str | os.PathLike] = (),
    batch: str = "BATCH1",
    kit_size: int = 200,
) -> TA2Pool:
    """The pool of ``runs`` (each a folder holding SPARQL-VALID-output, its name the run ID) for
    ``queries``; ``aux`` is NIST's AUX data (aifcheck.pipeline.shared.auxdata.load_aux with TA2_CORE); ``previous``
    are folders of earlier pools (each with its pool.txt)."""
    if kit_size < 1:
        raise UsageError(f"--kit-size {kit_size}: a kit holds at least one line")
    names = [Path(run).name for run in runs]
    if len(set(names)) != len(names):
        raise UsageError(
            f"two runs share a folder name (the run ID): {', '.join(sorted({n for n in names if names.count(n) > 1}))}"
        )
    pooled_before, last_ids = _previous_pools(previous)
    pool: dict[str, dict[str, _Pooled]] = {}  # query -> pooled span's text -> (the row, where it was first pooled)
    notes: list[str] = []
    seen: dict[str, list[str]] = {}  # what to note, by kind: one line each
    errors = 0
    run_pools = []
    for run, run_id in zip(runs, names, strict=True):
        files = load_run(run, aux, queries, every_file=True)
        errors += sum(f.errors for f in files.values())
        pooled_files = []
        for found in files.values():
            if found.skipped:
                notes.append(f"{found.path}: skipped, {found.skipped}")
                continue
            query = queries.get(found.query_id)
            if query is None:
                notes.append(f"{found.path}: query {found.query_id} is not in the queries table, not pooled")
                pooled_files.append(PooledFile(os.path.basename(found.path), found.header, ()))
                continue
            pooled_files.append(
                _pool_file(
                    found, query, pool.setdefault(query.query_id, {}), pooled_before.get(query.query_id, set()), seen
                )
            )
        run_pools.append(RunPool(run_id, tuple(pooled_files)))
    lines = _lines(pool, queries, aux, last_ids)
    kits = _kits(lines, aux, batch, kit_size, seen)
    for kind, found in seen.items():
        notes.append(f"{len(found)} {kind}; first: {found[0]}")
    return TA2Pool(batch, tuple(lines), tuple(kits), tuple(run_pools), tuple(notes), errors)


def _previous_pools(folders: Sequence[str | os.PathLike]) -> tuple[dict[str, set[str]], dict[str, int]]:
    """The spans of each query in earlier pools, and each query's largest response ID there."""
    spans: dict[str, set[str]] = {}
    last: dict[str, int] = {}
    for folder in folders:
        path = Path(folder) / "pool.txt"
        if not path.is_file():
            raise UsageError(f"--previous-pool {folder}: no pool.txt there")
        columns = ("QUERY_ID", "DOCUMENT_ID", "MENTION_SPAN", "RESPONSE_ID")
        for number, (query_id, document, mention, text) in read_table(path, columns).cells(columns):
            spans.setdefault(query_id, set()).add(f"{document}:{mention}")
            try:
                response_id = int(text)
            except ValueError:
                raise InputError(str(path), f"RESPONSE_ID {text!r} is not an integer", number) from None
            last[query_id] = max(last.get(query_id, response_id), response_id)
    return spans, last


INVALID_POOLED = "invalid row(s) take pooling places, as in NIST's pooler"
PART_OF_ENTRYPOINT = (
    "row(s) link to a part of a |-list entry point: pooled (NIST's pooler stops: UNEXPECTED_ENTRYPOINT_DESCRIPTOR)"
)
NO_LANGUAGE = "pooled document(s) without a language (kit languages N/A)"
LANGUAGE_LIST = (
    "pooled document(s) whose language is a list in the AUX data (eng,rus): each of its languages is its kit's, "
    "as NIST's pooler splits the list (and warns)"
)


_Pooled = tuple[Response, str]


def _pool_file(
    found: LoadedResponses, query: Query, pool: dict[str, _Pooled], before: set[str], seen: dict[str, list[str]]
) -> PooledFile:
    rows = found.rows
    for row in rows:
        _check_descriptor(found.path, row, query, seen)
    pooled: set[int] = set()
    for cluster in select(rows, query.clusters, query.documents):
        for index in cluster.pooled:
            pooled.add(index)
            where = f"{found.path}:{rows[index].line}"
            if not rows[index].valid:
                seen.setdefault(INVALID_POOLED, []).append(where)
            if rows[index].span_text not in before:
                pool.setdefault(rows[index].span_text, (rows[index], where))
    return PooledFile(os.path.basename(found.path), found.header, tuple(rows[i] for i in sorted(pooled)))


def _check_descriptor(path: str, row: Response, query: Query, seen: dict[str, list[str]]) -> None:
    entrypoint = query.entrypoint
    if "REFKB" in entrypoint:
        agrees = row.link_target in row.query_link_target
    else:
        agrees = row.link_target == row.query_link_target
    if row.query_link_target == entrypoint and not agrees and row.link_target in entrypoint.split("|"):
        seen.setdefault(PART_OF_ENTRYPOINT, []).append(f"{path}:{row.line}")
        return
    if row.query_link_target != entrypoint or not agrees:
        raise InputError(
            path,
            f"?query_link_target {row.query_link_target!r} and ?link_target {row.link_target!r} do not describe "
            f"query {query.query_id}'s entry point {entrypoint!r} (NIST's pooler stops on it)",
            row.line,
        )


def _lines(
    pool: Mapping[str, Mapping[str, _Pooled]], queries: Mapping[str, Query], aux: Aux, last_ids: Mapping[str, int]
) -> list[PoolLine]:
    keyed = []
    for query_id, spans in pool.items():
        for text, (row, where) in spans.items():
            path, _, number = where.rpartition(":")
            span = row.span
            if span is None or text.count(":") != 2:
                raise InputError(
                    path,
                    f"pooled span {text!r} is not DOC:ELT:(x1,y1)-(x2,y2) with numbers (NIST's pooler stops on it)",
                    int(number),
                )
            modality = aux.modalities.get(span.element)
            if modality is None:
                raise InputError(
                    path,
                    f"pooled span {text}: element {span.element} has no known modality (NIST's pooler stops on it)",
                    int(number),
                )
            mention = text.partition(":")[2]
            key = (query_id, span.document, span.element, span.start, span.top, span.end, span.bottom)
            keyed.append((key, (query_id, queries[query_id].entrypoint, modality.upper(), span.document, mention)))
    keyed.sort(key=lambda item: item[0])
    lines = []
    next_id = dict(last_ids)
    for _, (query_id, descriptor, source, document, mention) in keyed:
        next_id[query_id] = next_id.get(query_id, 0) + 1
        lines.append(PoolLine(query_id, descriptor, next_id[query_id], source, document, mention))
    return lines


def _kits(lines: list[PoolLine], aux: Aux, batch: str, size: int, seen: dict[str, list[str]]) -> list[Kit]:
    by_query: dict[str, list[PoolLine]] = {}
    for line in lines:
        by_query.setdefault(line.query_id, []).append(line)
    kits = []
    for query_id, query_lines in by_query.items():
        for start in range(0, len(query_lines), size):
            chunk = tuple(query_lines[start : start + size])
            languages = set()
            for line in chunk:
                language = aux.language(line.document)
                if language is None:
                    missing = seen.setdefault(NO_LANGUAGE, [])
                    if line.document not in missing:
                        missing.append(line.document)
                else:
                    if "," in language:
                        listed = seen.setdefault(LANGUAGE_LIST, [])
                        if line.document not in listed:
                            listed.append(line.document)
                    languages.update(language.split(","))
            kits.append(Kit(f"{batch}_{query_id}_{start // size + 1}.tab", chunk, ",".join(sorted(languages)) or "N/A"))
    return kits
