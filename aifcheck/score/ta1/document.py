"""One document through NIST's TA1 stages: the unit of work that ``score_ta1`` spreads over local
processes or a Dask cluster.

From a document's tables (queried from its KB, or read from NIST's SPARQL-output layout) and its
gold tables, a task cleans, validates, builds, aligns, filters and scores that document. It returns
what the run needs to put the documents together (the events of each stage's log, the notices, and
the metric rows) and, when asked, what NIST writes of the document (DocumentOutputs). NIST runs
each stage over every document before the next stage; a task runs them all for one document, so it
returns the first error it meets with its stage, and the run reports the error NIST's order would
meet first.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path

from aifcheck.errors import InputError
from aifcheck.extract.model import KnowledgeGraph
from aifcheck.pipeline.shared.auxdata import Aux, load_aux
from aifcheck.pipeline.shared.clean import clean_cells
from aifcheck.pipeline.shared.events import Event, EventLog, Where
from aifcheck.pipeline.ta1.align import DocumentAlignment, SimilarityBlock, align_document
from aifcheck.pipeline.ta1.filter import filter_document
from aifcheck.pipeline.ta1.locate import KbLines, kb_tables_and_lines
from aifcheck.pipeline.ta1.screen import validate_documents
from aifcheck.pipeline.ta1.select import kb_tables
from aifcheck.pipeline.ta1.settings import NIST_SETTINGS, TA1Settings
from aifcheck.pipeline.ta1.similarity import TypeSimilarity, load_similarity, missing_pairs
from aifcheck.pipeline.ta1.tables import (
    FILE_NAMES,
    Cells,
    Document,
    document_rows,
    read_cells,
    read_document,
    read_layout,
)
from aifcheck.score.explain import Explanation
from aifcheck.score.ta1.explain import GOLD, SYSTEM, Locator, Sides, explain_metric
from aifcheck.score.ta1.metrics import METRICS
from aifcheck.score.ta1.metrics.common import NONE, Inputs, MetricScores
from aifcheck.score.ta1.responses import build

# The stages whose errors stop NIST's pipeline, in its order. Each runs over every document before
# the next one starts: over the run's documents in their order (RUN_ORDER), or over the core
# documents in the order of the AUX data's list (the others).
READ, VALIDATE, READ_GOLD, VALIDATE_GOLD, BUILD_GOLD, BUILD, SCORE = range(7)
RUN_ORDER = frozenset({READ, VALIDATE, BUILD})


@dataclass(frozen=True)
class Setting:
    """What every document's stages share. A task carries these paths, and each process reads the
    tables behind them once (``loaded``), again only when their files change (``stamp``: a Dask
    worker outlives a run). ``outputs``: keep what NIST writes of each document."""

    gold: str
    aux: str
    type_similarity: str | None
    taggable_types: str | None
    plan: bool
    outputs: bool
    settings: TA1Settings = NIST_SETTINGS
    extra_similarities: str | None = None
    overlay: str | None = None
    stamp: str = ""
    explain: bool = False  # explain every score row (aifcheck.score.ta1.explain)

    @classmethod
    def of(
        cls,
        gold: Path,
        aux: Path,
        type_similarity: str | os.PathLike | None,
        taggable_types: str | os.PathLike | None,
        plan: bool,
        outputs: bool,
        settings: TA1Settings = NIST_SETTINGS,
        extra_similarities: str | os.PathLike | None = None,
        overlay: str | os.PathLike | None = None,
        explain: bool = False,
    ) -> Setting:
        tables = (type_similarity, taggable_types, extra_similarities, overlay)
        files = [*(sorted(aux.iterdir()) if aux.is_dir() else []), *(Path(p) for p in tables if p)]
        stats = [(f, f.stat()) for f in files if f.is_file()]
        stamp = ";".join(f"{f}:{found.st_size}:{found.st_mtime_ns}" for f, found in stats)
        similarity, taggable, extra, overlay = (str(p) if p else None for p in tables)
        return cls(str(gold), str(aux), similarity, taggable, plan, outputs, settings, extra, overlay, stamp, explain)

    def loaded(self) -> tuple[Aux, TypeSimilarity]:
        return _loaded(
            self.aux,
            self.type_similarity,
            self.taggable_types,
            self.plan,
            self.settings,
            self.extra_similarities,
            self.overlay,
            self.stamp,
        )


@lru_cache(maxsize=1)
def _loaded(
    aux: str,
    type_similarity: str | None,
    taggable_types: str | None,
    plan: bool,
    settings: TA1Settings,
    extra: str | None,
    overlay: str | None,
    stamp: str,
) -> tuple[Aux, TypeSimilarity]:
    return load_aux(aux), load_similarity(type_similarity, taggable_types, settings, plan, extra, overlay)


Rows = Mapping[str, Cells]  # kind -> a table's rows
Raw = Mapping[str, tuple[str, Cells]]  # kind -> (where, the table's lines as cells: queried, or read from its file)


@dataclass(frozen=True)
class DocumentOutputs:
    """What NIST's stages write of one document of the run (aifcheck.render.ta1.scores writes it)."""

    document: str
    clean: Rows  # SPARQL-CLEAN-output: every line of each table (the header too), as cells
    valid: Rows | None = None  # SPARQL-VALID-output: the rows that passed validation
    filtered: Rows | None = None  # SPARQL-FILTERED-output: the rows that passed the filter
    # alignment/cluster: (metatype, system cluster, gold cluster, similarity), "None" for no cluster
    clusters: tuple[tuple[str, str, str, float], ...] | None = None
    # alignment/mention: (metatype, system cluster, gold cluster, system mention, gold mention, IoU)
    mentions: tuple[tuple[str, str, str, str, str, float], ...] = ()
    similarities: tuple[SimilarityBlock, ...] = ()  # similarities/<doc>.tab, when aligned


@dataclass
class DocumentOutcome:
    """What one document's stages give the run."""

    document: str
    error: tuple[int, int, Exception] | None = None  # (stage, metric index, error) of the first error met
    logs: dict[str, list[Event]] = field(default_factory=dict)  # "validate", "gold", "filter", and each metric's name
    unknown_types: dict[str, list[tuple[str, str]]] = field(default_factory=dict)  # "gold" | "system" -> (type, where)
    # the type pairs without a value that the alignment, the filter or a metric read (scored 0 here,
    # where NIST asks the KGTK service)
    unscored_pairs: list[tuple[str, str]] = field(default_factory=list)
    scores: dict[str, MetricScores] = field(default_factory=dict)  # metric name -> this document's scores
    outputs: DocumentOutputs | None = None  # what NIST writes of a document of the run, when asked
    explanations: dict[str, list[Explanation]] = field(default_factory=dict)  # metric name -> its rows explained


def score_document(
    setting: Setting, path: str, document: str, submitted: bool, raw: Raw | None = None
) -> DocumentOutcome:
    """The stages of one document: ``path`` is its KB (or its folder of tables) when ``submitted``,
    else its gold folder; ``raw`` its tables already queried (kind -> (where, table)), if they were."""
    outcome = DocumentOutcome(document)
    stage = READ
    try:
        aux, types = setting.loaded()
        system = kb_lines = None
        if submitted:
            system, clean, kb_lines = _read_system(path, document, raw, setting.explain)
            if setting.outputs:
                outcome.outputs = DocumentOutputs(document, clean)
            stage = VALIDATE
            outcome.logs["validate"] = _validate(system, aux)
            outcome.unknown_types["system"] = _unknown_types(system, types)
        stage = READ_GOLD
        core = aux.is_core(document)
        gold = _read_gold(setting, document, complete=submitted) if core else None
        if not core or (submitted and gold is None):  # not scored, or the gold lacks it (the run says so)
            if not core and outcome.outputs is not None and system is not None:
                nothing = dict.fromkeys(system.tables, ())
                outcome.outputs = replace(outcome.outputs, valid=nothing, filtered=nothing)
            return outcome
        gold_responses = None
        if gold is not None:
            stage = VALIDATE_GOLD
            outcome.logs["gold"] = _validate(gold, aux)
            outcome.unknown_types["gold"] = _unknown_types(gold, types)
            stage = BUILD_GOLD
            gold_responses = build(gold)
        with missing_pairs() as missing:
            stage = BUILD
            alignment = filtered = valid = None
            passed: dict[int, bool] = {}
            if system is not None and gold_responses is not None:
                valid = build(system)
                alignment, filtered, passed = _align_and_filter(
                    setting, system, valid, gold_responses, aux, types, outcome
                )
            stage = SCORE
            where = None
            if setting.explain:
                located = Locator.of(SYSTEM, system, lambda row: passed.get(id(row), False))
                where = Sides(
                    Locator.of(GOLD, gold, lambda row: row.valid),
                    located.in_kb(kb_lines) if submitted and kb_lines is not None else located,
                )
            _score(setting, document, aux, types, gold_responses, filtered, alignment, outcome, gold, where)
        outcome.unscored_pairs = sorted(missing)
    except InputError as exc:
        outcome.error = (stage, 0, exc)
    return outcome


def _read_system(
    path: str, document: str, raw: Raw | None, lines: bool = False
) -> tuple[Document, Rows, KbLines | None]:
    """The document's tables, cleaned as NIST's SPARQL-CLEAN stage does, what that stage writes,
    and (``lines``, of a KB) the lines of their objects in the KB: from the tables queried (no
    printing and reading back), or from the lines of NIST's files."""
    kb_lines = None
    if raw is None and lines and not Path(path).is_dir():
        raw, kb_lines = kb_tables_and_lines(path)
    elif raw is None:
        raw = _raw_tables(path, document)
    tables, clean = {}, {}
    for kind, (where, lines) in raw.items():
        clean[kind] = rows = tuple(map(clean_cells, lines))
        tables[kind] = document_rows(kind, document, where, rows)
    return Document(document, tables), clean, kb_lines


def _raw_tables(path: str, document: str) -> Raw:
    """kind -> (path to name in messages, table or text) of a document's tables before cleaning:
    queried from its KB, or read from its folder in NIST's SPARQL-output layout."""
    if Path(path).is_dir():
        files = read_layout(Path(path).parent, [document])[document]
        return {table: (str(file), read_cells(file)) for table, file in files.items()}
    return kb_tables(path)


def _read_gold(setting: Setting, document: str, complete: bool) -> Document | None:
    """The document's gold tables (all of them when ``complete``), or None."""
    folder = Path(setting.gold) / f"{document}.ttl"
    files = {kind: folder / name for kind, name in FILE_NAMES.items() if (folder / name).is_file()}
    if not folder.is_dir() or (complete and len(files) < len(FILE_NAMES)):
        return None
    return read_document(document, files)


def _validate(document: Document, aux: Aux) -> list[Event]:
    log = EventLog("")
    validate_documents([document], aux, log)
    return log.events


def _unknown_types(document: Document, types: TypeSimilarity) -> list[tuple[str, str]]:
    """The valid rows' types the similarity table lacks, each once, with the first row naming it."""
    found: dict[str, str] = {}
    for row in document.rows("CM"):
        if row.valid and row["type"] not in found and not types.knows(row["type"]):
            found[row["type"]] = str(Where(row.path, row.line))
    return list(found.items())


def _align_and_filter(
    setting: Setting,
    system: Document,
    valid: KnowledgeGraph,
    gold: KnowledgeGraph,
    aux: Aux,
    types: TypeSimilarity,
    outcome: DocumentOutcome,
) -> tuple[DocumentAlignment | None, KnowledgeGraph, dict[int, bool]]:
    """The alignment of the document's valid responses with the gold, the responses that pass NIST's
    filter and which rows passed (by id); with what NIST writes of them (alignment, similarities,
    VALID and FILTERED tables)."""
    alignment = align_document(
        gold, valid, types, aux, setting.settings, strict=setting.plan, similarities=setting.outputs
    )
    log = EventLog("")
    passed = filter_document(system, alignment, types, log, whole_clusters=setting.plan)
    outcome.logs["filter"] = log.events
    filtered = build(system, keep=lambda row: passed.get(id(row), False))
    if outcome.outputs is not None:  # after the builds, which complete the dates of TM rows as NIST writes them
        outcome.outputs = replace(
            outcome.outputs,
            valid=_kept(system, lambda row: row.valid),
            filtered=_kept(system, lambda row: passed.get(id(row), False)),
            **(_alignment_rows(alignment, gold, valid) if alignment is not None else {}),
        )
    return alignment, filtered, passed


def _score(
    setting: Setting,
    document: str,
    aux: Aux,
    types: TypeSimilarity,
    gold: KnowledgeGraph | None,
    system: KnowledgeGraph | None,
    alignment: DocumentAlignment | None,
    outcome: DocumentOutcome,
    gold_tables: Document | None,
    where: Sides | None = None,
) -> None:
    """Each metric's rows for this document (and the events each logs)."""
    time_rows: dict[str, list[tuple[str, int]]] = {}
    for row in gold_tables.rows("TM") if gold_tables is not None else ():
        if row.valid:  # the rows the gold's LDCTimes were built from
            time_rows.setdefault(row["cluster"], []).append((row.path, row.line))
    inputs = Inputs(
        "",
        aux,
        {document: gold} if gold is not None else {},
        {document: system} if system is not None else {},
        {document: alignment} if alignment is not None else {},
        EventLog(""),
        types,
        setting.plan,
        only=document,
        gold_time_rows={document: time_rows},
    )
    for index, metric in enumerate(METRICS):
        log = EventLog("")
        try:
            outcome.scores[metric.name] = metric.score(replace(inputs, log=log))
        except InputError as exc:
            outcome.error = (SCORE, index, exc)
            return
        outcome.logs[metric.name] = log.events
        if where is not None:
            outcome.explanations[metric.name] = explain_metric(metric.name, inputs, outcome.scores[metric.name], where)


def _kept(system: Document, keep) -> Rows:
    return {kind: tuple(tuple(row.cells) for row in rows if keep(row)) for kind, rows in system.tables.items()}


def _alignment_rows(alignment: DocumentAlignment, gold: KnowledgeGraph, system: KnowledgeGraph) -> dict[str, object]:
    """The rows of alignment/cluster and alignment/mention, and the similarity values."""
    clusters, mentions = [], []
    for gold_id, (system_id, similarity) in alignment.gold_to_system.items():
        metatype = gold.cluster(gold_id).metatype
        clusters.append((metatype, system_id, gold_id, similarity))
        mentions += [(metatype, system_id, gold_id, s, g, v) for g, s, v in alignment.mentions[gold_id]]
    clusters += [(gold.cluster(c).metatype, NONE, c, 0) for c in alignment.unaligned_gold]
    clusters += [(system.cluster(c).metatype, c, NONE, 0) for c in alignment.unaligned_system]
    return {"clusters": tuple(clusters), "mentions": tuple(mentions), "similarities": tuple(alignment.similarities)}
