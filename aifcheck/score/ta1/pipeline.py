"""``score_ta1``: NIST's TA1 pipeline after its SPARQL stage, on aifcheck's objects.

Stages as NIST's driver runs them: select the KBs, clean, validate, align and filter, score,
results.json. Each stage's output is also written in NIST's layout when an output folder is given.
"""
from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import NoReturn

from ...errors import InputError, UsageError
from ...parallel import Spread, map_files
from .align import DocumentAlignment, Parameters, align_document
from .aux import Aux, load_aux
from .clean import clean_text
from .events import EventLog, Where
from .filter import filter_document
from .metrics import argument, coreference, frame, negation, temporal, type_metric
from .metrics.common import Inputs, MetricScores
from .responses import DocumentResponses, build
from .results import results, results_json
from .select import TURTLE, Selection, kb_tables, raw_tables, select
from .similarity import TypeSimilarity, load_similarity
from .tables import Document, FILE_NAMES, parse_table, read_document, read_layout, write_document
from .validate import validate_documents

Progress = Callable[[str, int, int], None]  # (stage, done, total)
METRICS = ("ArgumentMetricV3A1", "ArgumentMetricV3A2", "ArgumentMetricV3B1", "ArgumentMetricV3B2", "ArgumentMetricV3C1",
           "ArgumentMetricV3C2", "CoreferenceMetric", "FrameMetric", "TemporalMetric", "NegationMetricV1", "NegationMetricV2", "TypeMetricV4")


@dataclass(frozen=True)
class TA1Scores:
    """What ``score_ta1`` computed: the twelve metrics' tables and the entries of results.json."""

    run_id: str
    documents: tuple[str, ...]  # the documents scored
    metrics: Mapping[str, MetricScores]  # by NIST's metric name, in NIST's order
    results: Mapping[str, object]  # results.json's entries
    errors: int  # log lines holding ERROR (results.json's "Errors")
    notices: tuple[str, ...]  # one line each: skipped documents, types the similarity table lacks
    plan: bool = False

    def headline(self, metric: str, language: str = "ALL") -> object:
        """A metric's reported ALL-Macro value (a 4-decimal string, or 0 without a row)."""
        key = {"FrameMetric": "FrameMetric_{}S", "CoreferenceMetric": "CoreferenceMetric_{}F1", "TypeMetricV4": "TypeMetricV4_{}S",
               "TemporalMetric": "TemporalMetric_{}S", "NegationMetricV2": "NegationMetricV2_{}F1",
               "ArgumentMetricV3A2": "ArgumentMetricV3A2_{}TRFscore"}[metric]
        return self.results[key.format("" if language == "ALL" else f"{language}_")]


def score_ta1(
    run: str | os.PathLike,
    gold: str | os.PathLike,
    aux: str | os.PathLike,
    type_similarity: str | os.PathLike | None = None,
    taggable_types: str | os.PathLike | None = None,
    run_id: str | None = None,
    output: str | os.PathLike | None = None,
    plan: bool = False,
    progress: Progress | None = None,
    spread: Spread = Spread(),
) -> TA1Scores:
    """Score a TA1 run as NIST's pipeline does (``plan``: as plan §4 defines the metrics).

    ``run``: a folder of document KBs or in NIST's SPARQL-output layout; ``gold``: NIST's gold
    tables (``<doc>.ttl/<table>.rq.tsv``); ``aux``: NIST's AUX-data folder; the two type tables
    default to the ones aifcheck ships. ``output``, when given, receives NIST's output layout.
    ``spread`` runs the KBs' queries in processes or on a Dask cluster.
    Raises UsageError (bad options) or InputError (a file that cannot be read or that stops
    NIST's pipeline), each one located line.
    """
    run, gold = Path(run), Path(gold)
    spread.check()
    if not gold.is_dir():
        raise UsageError(f"--gold: {gold} is not a folder")
    out = Path(output) if output is not None else None
    if out is not None and out.exists() and any(out.iterdir()):
        raise UsageError(f"-o: {out} exists and is not empty (NIST's stages write into new folders)")
    aux_data = load_aux(aux)
    types = load_similarity(type_similarity, taggable_types, inclusive=plan)
    parameters = Parameters(strict_min_type_similarity=plan)
    run_id = run_id or run.resolve().name
    selection = select(run, aux_data)
    logs = {name: EventLog(program) for name, program in (("run", "run_task1_evaluation_pipeline.py"), ("validate-responses", "validate_responses.py"),
                                                         ("filter-responses", "filter_responses.py"), ("score-responses", "score_submission.py"))}
    notices = [f"{run / (d + '.ttl')}: not a core document ({Path(aux_data.core_file).name}): not scored" for d in selection.not_core]
    notices += [f"{run / (d + '.ttl')}: the AIF validator's report marks this KB invalid: not scored" for d in selection.invalid]
    logs["run"].record("KB_STATS", selection.total, selection.total - len(selection.invalid), len(selection.invalid))
    scored = [d for d in selection.documents if aux_data.is_core(d)]
    if not scored:
        logs["run"].record("NOTHING_TO_SCORE")
        return _finish(run_id, (), {}, logs, notices, out, plan)

    system_documents = _clean(selection, out, progress, spread)
    validate_documents(system_documents, aux_data, logs["validate-responses"])
    gold_documents = _gold(gold, aux_data, scored)
    gold_log = EventLog("validate_responses.py")
    validate_documents(gold_documents, aux_data, gold_log)
    for name in ("filter-responses", "score-responses"):  # NIST re-reads (and re-checks) the gold in both stages
        logs[name].extend(gold_log)
    gold_responses = {d.id: build(d, aux_data) for d in gold_documents}
    valid_responses = {d.id: build(d, aux_data) for d in system_documents if aux_data.is_core(d.id)}
    notices += _unknown_types(gold_documents + system_documents, types)

    alignments: dict[str, DocumentAlignment] = {}
    passed: dict[int, bool] = {}
    for number, document in enumerate(aux_data.core, 1):
        if progress:
            progress("align", number, len(aux_data.core))
        if document in valid_responses and document in gold_responses:
            found = align_document(gold_responses[document], valid_responses[document], types, parameters, similarity_lines=out is not None)
            if found is not None:
                alignments[document] = found
                if out is not None:  # written now: a run's rows, quadratic in its clusters, may not fit in memory
                    _write_similarities(out, found)
    for document in system_documents:
        if aux_data.is_core(document.id):
            passed.update(filter_document(document, alignments.get(document.id), types, logs["filter-responses"], whole_clusters=plan))
    filtered = {d.id: build(d, aux_data, keep=lambda row: passed.get(id(row), False)) for d in system_documents if aux_data.is_core(d.id)}

    inputs = Inputs(run_id, aux_data, gold_responses, filtered, alignments, logs["score-responses"], types, plan)
    metrics = _score(inputs)
    if out is not None:
        _write(out, system_documents, passed, alignments, gold_responses, valid_responses, aux_data, metrics, run_id)
    return _finish(run_id, tuple(scored), metrics, logs, notices, out, plan)


def _clean(selection: Selection, out: Path | None, progress: Progress | None, spread: Spread) -> list[Document]:
    if selection.kind == TURTLE:  # the KBs' queries, the costly part, spread as asked
        paths = [str(selection.sources[d]) for d in selection.documents]
        found: Iterable[dict[str, tuple[str, str]]] = map_files(kb_tables, paths, _unscorable, spread)
    else:
        found = (raw_tables(selection, d) for d in selection.documents)
    documents = []
    for number, (document, raw) in enumerate(zip(selection.documents, found), 1):
        if progress:
            progress("read", number, len(selection.documents))
        tables = {}
        for kind, (path, text) in raw.items():
            clean = clean_text(text)
            where = path
            if out is not None:
                target = out / "SPARQL-CLEAN-output" / f"{document}.ttl" / FILE_NAMES[kind]
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(clean, encoding="utf-8")
                where = str(target)
            tables[kind] = parse_table(kind, document, where, clean)
        documents.append(Document(document, tables))
    return documents


def _unscorable(path: str, reason: str) -> NoReturn:
    raise InputError(path, reason)


def _gold(gold: Path, aux: Aux, documents: list[str]) -> list[Document]:
    """The gold tables of the core documents (NIST's gold holds every core document)."""
    found = read_layout(gold, aux.core)
    missing = [d for d in documents if d not in found or len(found[d]) < len(FILE_NAMES)]
    if missing:
        first = gold / f"{missing[0]}.ttl"
        raise UsageError(f"--gold: {first}: missing or incomplete (expected {', '.join(FILE_NAMES.values())}); the gold must hold every document scored") from None
    return [read_document(d, found[d]) for d in aux.core if d in found]


def _unknown_types(documents: list[Document], types: TypeSimilarity) -> list[str]:
    notices = []
    seen: set[str] = set()
    for document in documents:
        for row in document.rows("CM"):
            qnode = row["type"]
            if row.valid and qnode not in seen and not types.knows(qnode):
                seen.add(qnode)
                notices.append(f"{Where(row.path, row.line)}: type {qnode} is not in the type similarity table {types.path}: its similarity to other types is taken as 0")
    return notices


def _score(inputs: Inputs) -> dict[str, MetricScores]:
    computed = {
        "CoreferenceMetric": coreference.score(inputs),
        "FrameMetric": frame.score(inputs),
        "TemporalMetric": temporal.score(inputs),
        "NegationMetricV1": negation.score_v1(inputs),
        "NegationMetricV2": negation.score_v2(inputs),
        "TypeMetricV4": type_metric.score(inputs),
    }
    for variant in ("A", "B", "C"):
        for justified in (True, False):
            scores = argument.score(inputs, variant, justified)
            computed[scores.name] = scores
    return {name: computed[name] for name in METRICS}


def _write(out: Path, system: list[Document], passed: dict[int, bool], alignments: dict[str, DocumentAlignment], gold: dict[str, DocumentResponses],
           valid: dict[str, DocumentResponses], aux: Aux, metrics: dict[str, MetricScores], run_id: str) -> None:
    for document in system:
        core = aux.is_core(document.id)
        write_document(out / "SPARQL-VALID-output", document, keep=lambda row: core and row.valid)
        write_document(out / "SPARQL-FILTERED-output", document, keep=lambda row: core and passed.get(id(row), False))
    for folder in ("alignment/cluster", "alignment/mention", "similarities", "scores"):
        (out / folder).mkdir(parents=True, exist_ok=True)
    for document, alignment in alignments.items():
        _write_alignment(out / "alignment", alignment, gold[document], valid[document])
    for name, scores in metrics.items():
        (out / "scores" / f"{name}-scores.txt").write_text(scores.table("pretty", run_id), encoding="utf-8")
        (out / "scores" / f"{name}-scores.tab").write_text(scores.table("tab", run_id), encoding="utf-8")


def _write_similarities(out: Path, alignment: DocumentAlignment) -> None:
    (out / "similarities").mkdir(parents=True, exist_ok=True)
    with open(out / "similarities" / f"{alignment.document}.tab", "w", encoding="utf-8") as file:
        file.write("metatype\tsystem_or_gold1\tcluster1\tsystem_or_gold2\tcluster2\ttype_similarity\tsimilarity\n")
        file.writelines(alignment.similarity_lines)
    alignment.similarity_lines.clear()


def _write_alignment(folder: Path, alignment: DocumentAlignment, gold: DocumentResponses, system: DocumentResponses) -> None:
    clusters = ["metatype\tsystem_cluster\tgold_cluster\tsimilarity\n"]
    mentions = ["metatype\tsystem_cluster\tgold_cluster\tsystem_mention\tgold_mention\tsimilarity\n"]
    for gold_id, (system_id, similarity) in alignment.gold_to_system.items():
        metatype = gold.clusters[gold_id].metatype
        clusters.append(f"{metatype}\t{system_id}\t{gold_id}\t{similarity}\n")
        mentions += [f"{metatype}\t{system_id}\t{gold_id}\t{s}\t{g}\t{v}\n" for g, s, v in alignment.mentions[gold_id]]
    clusters += [f"{gold.clusters[c].metatype}\tNone\t{c}\t0\n" for c in alignment.unaligned_gold]
    clusters += [f"{system.clusters[c].metatype}\t{c}\tNone\t0\n" for c in alignment.unaligned_system]
    (folder / "cluster" / f"{alignment.document}.tab").write_text("".join(clusters), encoding="utf-8")
    (folder / "mention" / f"{alignment.document}.tab").write_text("".join(mentions), encoding="utf-8")


def _finish(run_id: str, documents: tuple[str, ...], metrics: dict[str, MetricScores], logs: dict[str, EventLog], notices: list[str], out: Path | None, plan: bool) -> TA1Scores:
    lines = [line for log in logs.values() for line in log.text().splitlines()]
    errors = [line for line in lines if "ERROR" in line]
    stats: dict[str, int] = {}
    for line in errors:
        code = line.split(" - ")[4] if line.count(" - ") >= 4 else "ERROR"
        stats[code] = stats.get(code, 0) + 1
    entries = results(run_id, metrics, len(errors), dict(sorted(stats.items())))
    if out is not None:
        (out / "logs").mkdir(parents=True, exist_ok=True)
        for name, log in logs.items():
            log.write(out / "logs" / f"{name}.log")
        (out / "results.json").write_text(results_json(entries), encoding="utf-8")
    return TA1Scores(run_id, documents, metrics, entries, len(errors), tuple(notices), plan)
