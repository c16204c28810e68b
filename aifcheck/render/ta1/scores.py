"""What NIST's TA1 pipeline writes, from what ``score_ta1`` computed: per document the
SPARQL-CLEAN, -VALID and -FILTERED tables, the alignment and the similarities; per run the twelve
metrics' score tables, the logs and results.json; and the headline table ``score ta1`` prints."""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping
from pathlib import Path

import numpy as np

from aifcheck.errors import ESCAPE, cut, printable
from aifcheck.loading.tsv import TsvTable
from aifcheck.pipeline.ta1.align import SimilarityBlock
from aifcheck.pipeline.ta1.tables import FILE_NAMES, HEADER_CELLS, Cells
from aifcheck.render.logs import log_text
from aifcheck.render.score_table import cell, score_table, tab_table
from aifcheck.score.ta1.document import DocumentOutputs
from aifcheck.score.ta1.metrics import HEADLINE, METRICS
from aifcheck.score.ta1.metrics.common import MetricScores
from aifcheck.score.ta1.results import LANGUAGES, TA1Results
from aifcheck.score.ta1.scorer import TA1Scores
from aifcheck.score.table import Column

_SIMILARITY_HEADER = "metatype\tsystem_or_gold1\tcluster1\tsystem_or_gold2\tcluster2\ttype_similarity\tsimilarity\n"


class NistLayout:
    """NIST's output folder of a TA1 run: ``document`` as each document is done, then ``run``."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def document(self, outputs: DocumentOutputs) -> None:
        name = f"{outputs.document}.ttl"
        _write_lines(self.folder / "SPARQL-CLEAN-output" / name, outputs.clean, header=False)
        for stage, rows in (("SPARQL-VALID-output", outputs.valid), ("SPARQL-FILTERED-output", outputs.filtered)):
            if rows is not None:
                _write_lines(self.folder / stage / name, rows, header=True)
        if outputs.clusters is None:  # not aligned: NIST writes no alignment and no similarities
            return
        _write(
            self.folder / "similarities" / f"{outputs.document}.tab",
            [_SIMILARITY_HEADER, *_similarity_lines(outputs.similarities)],
        )
        clusters = [
            "metatype\tsystem_cluster\tgold_cluster\tsimilarity\n",
            *("\t".join(map(str, row)) + "\n" for row in outputs.clusters),
        ]
        mentions = [
            "metatype\tsystem_cluster\tgold_cluster\tsystem_mention\tgold_mention\tsimilarity\n",
            *("\t".join(map(str, row)) + "\n" for row in outputs.mentions),
        ]
        _write(self.folder / "alignment" / "cluster" / f"{outputs.document}.tab", clusters)
        _write(self.folder / "alignment" / "mention" / f"{outputs.document}.tab", mentions)

    def run(self, scores: TA1Scores) -> None:
        if scores.metrics:
            for folder in ("alignment/cluster", "alignment/mention", "similarities", "scores"):
                (self.folder / folder).mkdir(parents=True, exist_ok=True)
            for name, metric in scores.metrics.items():
                cells = metric_cells(metric, scores.run_id)  # formatted once for both tables
                _write(self.folder / "scores" / f"{name}-scores.txt", [score_table(metric.columns, cells, "pretty")])
                _write(self.folder / "scores" / f"{name}-scores.tab", [score_table(metric.columns, cells, "tab")])
        for name, log in scores.logs.items():
            _write(self.folder / "logs" / f"{name}.log", [log_text(log)])
        entries = results_entries(scores.results)
        _write(self.folder / "results.json", [json.dumps({"scores": [entries]}, indent=4, sort_keys=True)])


def results_entries(results: TA1Results) -> dict[str, object]:
    """results.json's entries as NIST's driver writes them: each value as its score file prints it
    (4 decimals, a string), the integer 0 where no row matches."""
    entries: dict[str, object] = {key: reported(value) for key, value in results.values.items()}
    entries.update(
        {
            "Errors": results.errors,
            "ErrorStats": dict(results.error_stats),
            "FatalError": "Yes" if results.fatal else "No",
            "RunID": results.run_id,
            "Total": reported(results.total),
        }
    )
    return entries


def reported(value: float | None) -> str | int:
    """A value of results.json: as NIST's score file prints it, or the integer 0 without a row."""
    return 0 if value is None else format(value, "6.4f").strip()


def score_tables(scores: TA1Scores, out: str | os.PathLike) -> tuple[TsvTable, ...]:
    """The ``OUT/scores/<Metric>-scores.tab`` tables as values."""
    return tuple(
        tab_table(Path(out) / "scores" / f"{name}-scores.tab", metric.columns, metric_cells(metric, scores.run_id))
        for name, metric in scores.metrics.items()
    )


def metric_cells(scores: MetricScores, run_id: str) -> list[dict[str, str]]:
    """Each row of a metric's table (its rows, then its summaries) as NIST prints it, by column name."""
    lines = []
    for row in (*scores.rows, *scores.summaries):
        texts = {
            "document_id": row.document,
            "run_id": run_id,
            "language": str(row.language),
            "metatype": str(row.metatype),
            "gold_cluster_id": "" if row.summary else row.gold_cluster,
            "system_cluster_id": "" if row.summary else row.system_cluster,
        }
        for column in scores.columns:
            if column.name not in texts:
                texts[column.name] = cell(column, row.get(column.name), row.summary)
        lines.append(texts)
    return lines


def headline_table(scores: TA1Scores) -> str:
    """The headline metrics (their ALL-Macro values, as results.json reports them) per language."""
    columns = (Column("metric", "Metric", "s"), *(Column(language, language, "s", "R") for language in LANGUAGES))
    rows = [
        {"metric": metric, **{language: str(reported(scores.headline(metric, language))) for language in LANGUAGES}}
        for metric in HEADLINE
    ]
    return score_table(columns, rows, "pretty")


def unscored_pairs_warning(scores: TA1Scores, shown: int = 3) -> str | None:
    """The one line saying how many type pairs that the scores read were taken as 0 for want of a
    similarity (where NIST asks the KGTK service), with the first few; None when there is none."""
    pairs = scores.unscored_pairs
    if not pairs:
        return None
    first = ", ".join(f"{cut(printable(q1), 100)} {cut(printable(q2), 100)}" for q1, q2 in pairs[:shown])
    more = ", ..." if len(pairs) > shown else ""
    return (
        f"{len(pairs)} type pair(s) that the scores read have no similarity in the tables (NIST's filter stage asks "
        f"the KGTK service for them): taken as 0; add them with --extra-similarities ({first}{more})"
    )


ARGUMENT = "ArgumentMetricV3"


def missing_documents_warning(scores: TA1Scores, shown: int = 3) -> str | None:
    """The one line saying that the run lacks core documents, and what that does to each metric
    (as NIST's scorer computes them); None when it lacks none."""
    missing = scores.missing
    if not missing:
        return None
    first = ", ".join(missing[:shown]) + (", ..." if len(missing) > shown else "")
    left_out = [m.name for m in METRICS if m.submitted_only]
    zero = [m.name for m in METRICS if not m.submitted_only and not m.name.startswith(ARGUMENT)]
    return (
        f"the run lacks {len(missing)} of {scores.core} core document(s) ({first}): {', '.join(zero)} and the "
        f"{ARGUMENT} variants count each as 0 where its gold has rows; {', '.join(left_out)} average over the "
        f"{len(scores.documents)} document(s) scored only, as NIST's scorer does"
    )


def _write_lines(folder: Path, tables: Mapping[str, Cells], header: bool) -> None:
    """A document's tables in its folder of a SPARQL-*-output stage (``header``: NIST's, then the rows)."""
    for kind, rows in tables.items():
        lines = (HEADER_CELLS[kind], *rows) if header else rows
        _write(folder / FILE_NAMES[kind], ["\t".join(row) + "\n" for row in lines])


def _similarity_lines(blocks: Iterable[SimilarityBlock]) -> Iterable[str]:
    """The rows of every pair of clusters of one metatype, as NIST prints them (str of each float)."""
    text: dict[float, str] = {}

    def show(value: float) -> str:
        found = text.get(value)
        if found is None:
            found = text[value] = str(value)
        return found

    for block in blocks:
        # most pairs have TypeSim and similarity 0.0: their text is made once per column, and
        # only the other pairs are formatted (a document has hundreds of thousands of pairs)
        columns: dict[str | None, list[int]] = {}
        for j, (_, metatype) in enumerate(block.second):
            columns.setdefault(metatype, []).append(j)
        zero_text = {metatype: [f"{block.second[j][0]}\t0.0\t0.0" for j in js] for metatype, js in columns.items()}
        for i, (cluster, metatype) in enumerate(block.first):
            js = columns.get(metatype)
            if js is None:
                continue
            type_row, row = block.type_similarity[i, js], block.similarity[i, js]
            texts = zero_text[metatype].copy()
            for k in np.flatnonzero((type_row != 0) | (row != 0) | np.signbit(type_row) | np.signbit(row)).tolist():
                texts[k] = f"{block.second[js[k]][0]}\t{show(float(type_row[k]))}\t{show(float(row[k]))}"
            prefix = f"{metatype}\t{block.side1}\t{cluster}\t{block.side2}\t"
            yield prefix + ("\n" + prefix).join(texts) + "\n"


def _write(path: Path, pieces: Iterable[str]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    # a log names the run's files: a byte of their names that is not UTF-8 is written as an escape (\xff)
    with open(path, "w", encoding="utf-8", errors=ESCAPE) as file:
        file.writelines(pieces)
