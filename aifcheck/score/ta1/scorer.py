"""``score_ta1``: NIST's TA1 pipeline after its SPARQL stage, on aifcheck's objects.

Stages as NIST's driver runs them: select the KBs, clean, validate, align and filter, score,
results.json. Every stage but the summaries works on one document at a time, so each document goes
through all of them in one task (aifcheck.score.ta1.document), spread over processes or a Dask
cluster; the run then puts the documents' logs, notices and score rows together in NIST's order.
What NIST's stages write of each document is handed, as values, to ``on_document`` as the
documents are done (aifcheck.render.ta1.scores writes NIST's layout from them and from the TA1Scores).
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import NoReturn

from aifcheck.errors import InputError, UsageError
from aifcheck.pipeline.shared.events import EventLog
from aifcheck.pipeline.ta1.select import TURTLE, KbSelection, gold_folder, kb_tables, run_folder, select
from aifcheck.pipeline.ta1.settings import TA1Settings
from aifcheck.pipeline.ta1.similarity import TypeSimilarity
from aifcheck.pipeline.ta1.tables import FILE_NAMES, read_layout
from aifcheck.score.allocations import cyclic_gc_paused
from aifcheck.score.explain import Explanation
from aifcheck.score.ta1.document import READ_GOLD, RUN_ORDER, DocumentOutcome, DocumentOutputs, Setting, score_document
from aifcheck.score.ta1.explain import explain_summaries
from aifcheck.score.ta1.metrics import METRICS
from aifcheck.score.ta1.metrics.common import MetricScores
from aifcheck.score.ta1.results import TA1Results, headline_key, results
from aifcheck.spread.parallel import Spread, map_files

Progress = Callable[[str, int, int], None]  # (stage, done, total)
NO_SPREAD = Spread()  # one process
NIST_SETTINGS = TA1Settings()  # NIST's Makefile's parameters


@dataclass(frozen=True)
class TA1Scores:
    """What ``score_ta1`` computed: the twelve metrics' tables, the entries of results.json and the
    stages' logs."""

    run_id: str
    documents: tuple[str, ...]  # the documents scored
    metrics: Mapping[str, MetricScores]  # by NIST's metric name, in the order NIST's scorer runs them
    results: TA1Results  # results.json's entries, as values
    errors: int  # log lines holding ERROR (results.json's "Errors")
    notices: tuple[str, ...]  # one line each: skipped documents, types the similarity table lacks
    logs: Mapping[str, EventLog]  # NIST's logs/<name>.log
    plan: bool = False
    stopped: str | None = None  # why NIST's driver stops before its score files (results.json's FatalError), one line
    # the type pairs NIST's filter stage would have asked the KGTK service for, which no table,
    # synonym or near neighbour gave a value: scored 0, in order of their core documents
    unscored_pairs: tuple[tuple[str, str], ...] = ()
    explanations: tuple[Explanation, ...] = ()  # every score row explained (``explain``), metric by metric
    missing: tuple[str, ...] = ()  # the core documents the run lacks, in NIST's order
    core: int = 0  # the core documents NIST scores

    def headline(self, metric: str, language: str = "ALL") -> float | None:
        """A metric's reported ALL-Macro value (None without a row: results.json's 0)."""
        return self.results.values[headline_key(metric, language)]


@cyclic_gc_paused()  # (aifcheck.score.allocations: 10^5 small objects, no cycle)
def score_ta1(
    run: str | os.PathLike,
    gold: str | os.PathLike,
    aux: str | os.PathLike,
    type_similarity: str | os.PathLike | None = None,
    taggable_types: str | os.PathLike | None = None,
    run_id: str | None = None,
    plan: bool = False,
    progress: Progress | None = None,
    spread: Spread = NO_SPREAD,
    on_document: Callable[[DocumentOutputs], None] | None = None,
    settings: TA1Settings = NIST_SETTINGS,
    extra_similarities: str | os.PathLike | None = None,
    overlay: str | os.PathLike | None = None,
    explain: bool = False,
) -> TA1Scores:
    """Score a TA1 run as NIST's pipeline does (``plan``: as plan §4 defines the metrics).

    ``run``: a folder of document KBs or in NIST's SPARQL-output layout; ``gold``: NIST's gold
    tables (``<doc>.ttl/<table>.rq.tsv``); ``aux``: NIST's AUX-data folder; the two type tables
    default to the ones aifcheck ships. ``on_document``, when given, hears what NIST's stages
    write of each document of the run, as it is done. ``spread`` runs the documents in processes
    or on a Dask cluster. ``settings``: the parameters of NIST's filter stage (NIST's by default);
    ``extra_similarities``: a file of the KGTK similarity service's answers for pairs the type
    similarity table lacks; ``overlay``: a DWD overlay (JSON) for synonyms and near neighbours.
    ``explain``: explain every score row (TA1Scores.explanations; aifcheck.score.ta1.explain).
    Raises UsageError (bad options) or InputError (a file that cannot be
    read or that stops NIST's pipeline), each one located line.
    """
    spread.check()
    run_id = run_id or Path(run).resolve().name
    (run, run_note), (gold, gold_note) = run_folder(Path(run)), gold_folder(Path(gold))
    setting = Setting.of(
        gold,
        Path(aux),
        type_similarity,
        taggable_types,
        plan,
        on_document is not None,
        settings,
        extra_similarities,
        overlay,
        explain,
    )
    aux_data, types = setting.loaded()
    selection = select(run, aux_data)
    run_log = EventLog("run_task1_evaluation_pipeline.py")
    notices = [note for note in (run_note, gold_note) if note]
    notices += _idle_settings(settings, extra_similarities, overlay)
    notices += _skipped(run, selection, Path(aux_data.core_file).name)
    stopped = _stops_early(run, selection, Path(aux_data.core_file).name, run_log)
    if stopped is not None:
        return _finish(run_id, (), {}, {"run": run_log}, notices, plan, stopped)
    logs = {
        "run": run_log,
        **{
            name: EventLog(program)
            for name, program in (
                ("validate-responses", "validate_responses.py"),
                ("filter-responses", "filter_responses.py"),
                ("score-responses", "score_submission.py"),
            )
        },
    }
    scored = list(selection.documents)
    submitted = scored
    others = [d for d in aux_data.core if d not in selection.sources]
    # a core document the run lacks is scored from its gold folder (or, lacking that too, from
    # nothing: the gold folder names it, a path every worker can read)
    paths = [str(selection.sources[d]) for d in submitted] + [
        str(gold / f"{d}.ttl" if (gold / f"{d}.ttl").is_dir() else gold) for d in others
    ]
    documents = submitted + others
    outcomes: dict[str, DocumentOutcome] = {}
    for number, outcome in enumerate(
        _run_documents(setting, selection.kind, paths, documents, len(submitted), spread), 1
    ):
        if progress:
            progress("documents", number, len(documents))
        if on_document is not None and outcome.outputs is not None and outcome.error is None:
            on_document(outcome.outputs)
        outcomes[outcome.document] = replace(outcome, outputs=None)  # what is written need not be kept
    _raise_first_error(outcomes, submitted, aux_data.core, _missing_gold(gold, aux_data.core, scored))

    for document in submitted:
        logs["validate-responses"].extend(outcomes[document].logs.get("validate", ()))
    gold_log = EventLog("validate_responses.py")
    for document in aux_data.core:
        gold_log.extend(outcomes[document].logs.get("gold", ()))
    logs["filter-responses"].extend(gold_log.events)  # NIST re-reads (and re-checks) the gold in both stages
    for document in submitted:
        logs["filter-responses"].extend(outcomes[document].logs.get("filter", ()))
    logs["score-responses"].extend(gold_log.events)
    for metric in METRICS:
        for document in aux_data.core:
            logs["score-responses"].extend(outcomes[document].logs.get(metric.name, ()))
    notices += _absent_tables(types)
    notices += _unknown_types([outcomes[d] for d in aux_data.core], [outcomes[d] for d in submitted], types.path)
    metrics = {
        m.name: MetricScores.combine(
            [outcomes[d].scores[m.name] for d in aux_data.core if m.name in outcomes[d].scores]
        )
        for m in METRICS
    }
    unscored = dict.fromkeys(pair for d in aux_data.core for pair in outcomes[d].unscored_pairs)
    explanations = tuple(
        e
        for m in METRICS
        for e in (
            *(e for d in aux_data.core for e in outcomes[d].explanations.get(m.name, ())),
            *(explain_summaries(m.name, metrics[m.name]) if explain else ()),
        )
    )
    return replace(
        _finish(run_id, tuple(scored), metrics, logs, notices, plan),
        unscored_pairs=tuple(unscored),
        explanations=explanations,
        missing=tuple(others),
        core=len(aux_data.core),
    )


def _skipped(run: Path, selection: KbSelection, core_file: str) -> list[str]:
    """A notice for each KB NIST's driver leaves out: not a core document, or marked invalid."""
    return [f"{run / (d + '.ttl')}: not a core document ({core_file}): not scored" for d in selection.not_core] + [
        f"{run / (d + '.ttl')}: the AIF validator's report marks this KB invalid: not scored" for d in selection.invalid
    ]


def _stops_early(run: Path, selection: KbSelection, core_file: str, run_log: EventLog) -> str | None:
    """Why NIST's driver stops before its later stages, logged as it logs it; None when it does not.
    It then writes results.json from run.log alone (its later stages never ran, or stopped before
    they logged): no score file, every metric 0, FatalError "Yes"."""
    if selection.missing is not None:
        run_log.record("MISSING_OPEN_PERFORMER_FILE", *selection.missing)
        return f"{selection.missing[0]}: no {selection.missing[1]}: NIST's driver stops on it"
    if selection.kind == TURTLE:
        run_log.record("KB_STATS", selection.total, selection.valid, selection.reports)
    if selection.valid == 0:
        run_log.record("NOTHING_TO_SCORE")
        return f"{run}: no valid KB: nothing to score (NIST's NOTHING_TO_SCORE)"
    if selection.kind == TURTLE and not selection.documents:
        return f"{run}: no valid KB of a core document ({core_file}): NIST's stages after its SPARQL stage stop"
    return None


def _run_documents(
    setting: Setting, kind: str, paths: list[str], documents: list[str], submitted: int, spread: Spread
) -> Iterable[DocumentOutcome]:
    """Each document's outcome, in order: the first ``submitted`` are the run's, from their KB or
    folder of tables, the others core documents the run lacks, from their gold."""
    flags = [(document, number < submitted) for number, document in enumerate(documents)]
    if not spread.ship_files:
        return map_files(partial(score_document, setting), paths, _unscorable, spread, args=flags)
    # the workers share no folder with this process: they query the KBs shipped to them, and the
    # documents' other stages, which read the gold and AUX data, run here
    raws = iter(map_files(kb_tables, paths[:submitted], _unscorable, spread)) if kind == TURTLE else None
    return (
        score_document(setting, path, document, own, next(raws) if raws is not None and own else None)
        for path, (document, own) in zip(paths, flags, strict=True)
    )


def _idle_settings(settings: TA1Settings, extra_similarities: object, overlay: object) -> list[str]:
    """A notice for each setting changed that changes nothing without its file."""
    nist = TA1Settings()
    idle = (
        (
            "--near-neighbour-similarity",
            settings.near_neighbour_similarity != nist.near_neighbour_similarity,
            "--overlay",
            overlay,
        ),
        (
            "--similarity-types",
            settings.similarity_types != nist.similarity_types,
            "--extra-similarities",
            extra_similarities,
        ),
    )
    return [
        f"{option} changes nothing without {needs}"
        for option, changed, needs, given in idle
        if changed and given is None
    ]


def _unscorable(path: str, reason: str) -> NoReturn:
    raise InputError(path, reason)


def _missing_gold(gold: Path, core: list[str], scored: list[str]) -> UsageError | None:
    """The usage error of a scored document whose gold tables are missing (NIST's gold holds every core document)."""
    found = read_layout(gold, core)
    missing = [d for d in scored if d not in found or len(found[d]) < len(FILE_NAMES)]
    if not missing:
        return None
    first = gold / f"{missing[0]}.ttl"
    return UsageError(
        f"--gold: {first}: missing or incomplete (expected {', '.join(FILE_NAMES.values())}); "
        "the gold must hold every document scored"
    )


def _raise_first_error(
    outcomes: Mapping[str, DocumentOutcome], submitted: list[str], core: list[str], missing_gold: UsageError | None
) -> None:
    """The error NIST's pipeline meets first: it runs each stage over every document (the run's
    KBs, or the core documents) before the next stage, and checks the gold after reading the KBs."""
    position = {True: {d: n for n, d in enumerate(submitted)}, False: {d: n for n, d in enumerate(core)}}
    found = sorted(
        (stage, metric, position[stage in RUN_ORDER][document], error)
        for document, outcome in outcomes.items()
        if outcome.error is not None
        for stage, metric, error in [outcome.error]
    )
    if found and found[0][0] < READ_GOLD:
        raise found[0][3]
    if missing_gold is not None:
        raise missing_gold
    if found:
        raise found[0][3]


def _absent_tables(types: TypeSimilarity) -> list[str]:
    """What scoring without NIST's tables does (each a table of the evaluation that aifcheck does not ship)."""
    notices = []
    if types.path is None:
        notices.append(
            "no --type-similarity: every two different types have similarity 0 (NIST's filter stage reads its "
            "cache of the KGTK similarity service)"
        )
    if types.taggable is None:
        notices.append("no --taggable-types: every type is taggable (NIST's filter stage reads the tagset's types)")
    return notices


def _unknown_types(gold: list[DocumentOutcome], system: list[DocumentOutcome], table: str | None) -> list[str]:
    """One notice per type the similarity table lacks, at its first row: the gold's, then the run's
    (none without a table: _absent_tables says it once)."""
    notices: list[str] = []
    if table is None:
        return notices
    seen: set[str] = set()
    for outcomes, side in ((gold, "gold"), (system, "system")):
        for outcome in outcomes:
            for qnode, where in outcome.unknown_types.get(side, ()):
                if qnode not in seen:
                    seen.add(qnode)
                    notices.append(
                        f"{where}: type {qnode} is not in the type similarity table {table}: "
                        "its similarity to other types is taken as 0"
                    )
    return notices


def _finish(
    run_id: str,
    documents: tuple[str, ...],
    metrics: dict[str, MetricScores],
    logs: dict[str, EventLog],
    notices: list[str],
    plan: bool,
    stopped: str | None = None,
) -> TA1Scores:
    errors = [name for log in logs.values() for name in log.error_classes()]
    entries = results(run_id, metrics, len(errors), Counter(errors), fatal=len(metrics) < len(METRICS))
    return TA1Scores(run_id, documents, metrics, entries, len(errors), tuple(notices), logs, plan, stopped)
