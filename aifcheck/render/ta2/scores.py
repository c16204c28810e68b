"""TA2 output: the score files as NIST writes them (``scores/AcrossDocumentsCoreferenceMetricV2-scores.txt``
and ``.tab``), a summary table, the scores as JSON; and the pool NIST sends to LDC.

The score table has 21 columns (ScoutEntity ... AP, ClusterID), one row per pseudo-query, then the
Summary row: ``Summary``, the run ID, ``ALL-Macro``, empty count cells and the AP; an empty AP where
no row has RelCntd > 0 (NIST's code divides by zero there). Within a query, rows come by class
(AssdEntity, string order): NIST's order there follows Python's hash seed.
"""
from __future__ import annotations

import json
import os
import shutil
import time
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from aifcheck.render.output import new_folder, write_file
from aifcheck.render.score_table import Column, cell, score_table
from aifcheck.score.ta2.scores import PLAN, TA2Scores

if TYPE_CHECKING:  # the pool's modules (and tarfile, gzip) are imported by the pool's writers alone
    from aifcheck.pipeline.ta2.pool import Pool

METRIC = "AcrossDocumentsCoreferenceMetricV2"
_COUNTS = (("submitted", "Sub"), ("valid", "Valid"), ("invalid", "Invld"), ("not_pooled", "NtMtPlgCrt"), ("pooled", "MtPlgCrt"),
           ("assessed", "Assd"), ("not_assessed", "NtAssd"), ("correct", "Crct"), ("inexact", "Inexct"), ("incorrect", "Incrct"),
           ("right", "Right"), ("wrong", "Wrong"), ("ignored", "Ignrd"))
COLUMNS = (
    Column("entity_id", "ScoutEntity", "s", "L"),
    Column("run_id", "RunID", "s", "L"),
    Column("query_id", "QueryID", "s", "L"),
    Column("fqec", "AssdEntity", "s", "L"),
    Column("rel", "Rel", "d", "R", "0.2f"),
    Column("rel_counted", "RelCntd", "d", "R", "0.2f"),
    *(Column(name, header, "d", "R", "0.2f") for name, header in _COUNTS),
    Column("ap", "AP", "6.4f", "R"),
    Column("cluster", "ClusterID", "s", "L"),
)
SUMMARY = ("Summary", "ALL-Macro")


def score_table_text(scores: TA2Scores, separator: str) -> str:
    """The score file: ``separator`` "pretty" (the .txt) or "tab" (the .tab)."""
    lines = []
    for row in scores.rows:
        values: dict[str, object] = {"entity_id": row.entity_id, "run_id": scores.run_id, "query_id": row.query_id, "fqec": row.fqec,
                                     "rel": row.rel, "rel_counted": row.rel_counted, "ap": row.ap, "cluster": str(row.cluster)}
        values.update({name: getattr(row.counts, name) for name, _ in _COUNTS})
        lines.append({c.name: cell(c, values[c.name]) for c in COLUMNS})
    summary = {c.name: "" for c in COLUMNS}
    summary.update(entity_id=SUMMARY[0], run_id=scores.run_id, query_id=SUMMARY[1], ap="" if scores.summary is None else scores.summary)
    lines.append({c.name: cell(c, summary[c.name], summary=True) for c in COLUMNS})
    return score_table(COLUMNS, lines, separator)


def score_files(scores: TA2Scores) -> dict[str, str]:
    """The files of OUT, by path relative to OUT."""
    return {f"scores/{METRIC}-scores.{suffix}": score_table_text(scores, separator) for suffix, separator in (("txt", "pretty"), ("tab", "tab"))}


def summary_text(scores: TA2Scores) -> str:
    """The table on stdout: every pseudo-query's AP and cluster, then the summary value."""
    columns = (Column("query_id", "QueryID", "s"), Column("entity_id", "Entity", "s"), Column("fqec", "Class", "s"),
               Column("rel_counted", "RelCntd", "s", "R"), Column("ap", "AP", "s", "R"), Column("cluster", "Cluster", "s", ""))
    rows = [{"query_id": r.query_id, "entity_id": r.entity_id, "fqec": r.fqec, "rel_counted": str(r.rel_counted),
             "ap": format(r.ap, "6.4f").strip(), "cluster": "-" if r.cluster is None else r.cluster} for r in scores.rows]
    value = "-" if scores.summary is None else format(scores.summary, "6.4f").strip()
    if scores.mode == PLAN:
        label = f"MAP (the plan: sum of AP / {scores.denominator}, the sum over queries of min(C, G))"
    else:
        label = "ALL-Macro (NIST: the mean AP of the rows with RelCntd > 0)"
    return score_table(columns, rows, "pretty") + f"{label}: {value}\n"


def scores_json(scores: TA2Scores) -> str:
    """The scores for other tools: ``map`` (NIST's ALL-Macro, or the plan's MAP; null where NIST
    divides by zero) and every scored query's pseudo-queries (an empty list when it has none)."""
    queries: dict[str, dict[str, object]] = {q: {"entity_id": e, "pseudo_queries": []} for q, e in scores.queries.items()}
    for row in scores.rows:
        queries[row.query_id]["pseudo_queries"].append({
            "class": row.fqec, "cluster": row.cluster, "ap": row.ap, "rel": row.rel, "rel_counted": row.rel_counted,
            "counts": {name: getattr(row.counts, name) for name, _ in _COUNTS},
        })
    document = {"run_id": scores.run_id, "mode": scores.mode, "map": scores.summary, "denominator": scores.denominator,
                "queries": queries, "warnings": list(scores.warnings), "notes": list(scores.notes), "errors": scores.errors}
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def write_scores(scores: TA2Scores, out: str | os.PathLike, force: bool = False, inputs: Iterable[str | os.PathLike] = ()) -> None:
    """OUT/scores/AcrossDocumentsCoreferenceMetricV2-scores.txt and .tab, OUT written whole."""
    with new_folder(Path(out), force, inputs) as folder:
        for name, text in score_files(scores).items():
            write_file(folder / name, text)


# ------------------------------------------------------------------------------------------
# The pool
# ------------------------------------------------------------------------------------------


def pool_texts(pool: Pool) -> dict[str, str]:
    """The pool's files by path relative to the pool folder, in NIST's layout: pool.txt, the
    table of the runs pooled, the kits and their language map under task2_pool_<batch>/, and each
    run's pooled rows under runs/<run_id>/SPARQL-POOLED-<BATCH>-output/."""
    from aifcheck.pipeline.ta2.pool import POOL_HEADER

    package = f"task2_pool_{pool.batch.lower()}"
    texts = {"pool.txt": "\t".join(POOL_HEADER) + "\n" + "".join(line.text() for line in pool.lines)}
    texts["runs_to_pool.txt"] = "run_id\n" + "".join(f"{run.run_id}\n" for run in pool.runs)
    for kit in pool.kits:
        texts[f"{package}/kits/{kit.name}"] = "".join(line.text() for line in kit.lines)
    texts[f"{package}/{package}.klm"] = "".join(f"{kit.name}\t{kit.languages}\n" for kit in pool.kits)
    for run in pool.runs:
        for pooled in run.files:
            name = f"runs/{run.run_id}/SPARQL-POOLED-{pool.batch}-output/{pooled.name}"
            texts[name] = f"{pooled.header}\n" + "".join(row.text() for row in pooled.rows)
    return texts


def package_name(pool: Pool, data: bytes, when: int) -> str:
    """NIST's name of the LDC package: task2_pool_<batch>_<YYYYMMDDhhmm>_<md5>.tgz.txt."""
    import hashlib

    stamp = time.strftime("%Y%m%d%H%M", time.localtime(when))
    return f"task2_pool_{pool.batch.lower()}_{stamp}_{hashlib.md5(data).hexdigest()}.tgz.txt"


def package(folder: Path, name: str, when: int) -> bytes:
    """A gzipped tar of ``folder/name``, as NIST's ``tar -zcf`` makes it, in memory: entries
    sorted, owner and group left out, every time ``when``, so that its md5 depends on the kits alone."""
    import gzip
    import io
    import tarfile

    buffer = io.BytesIO()
    with gzip.GzipFile(fileobj=buffer, mode="wb", mtime=when) as zipped, tarfile.open(fileobj=zipped, mode="w") as tar:
        for path in [folder / name, *sorted((folder / name).rglob("*"))]:
            info = tar.gettarinfo(str(path), arcname=str(path.relative_to(folder)))
            info.uid = info.gid = 0
            info.uname = info.gname = ""
            info.mtime = when
            if path.is_file():
                with open(path, "rb") as handle:
                    tar.addfile(info, handle)
            else:
                tar.addfile(info)
    return buffer.getvalue()


def write_pool(pool: Pool, queries_file: str | os.PathLike, out: str | os.PathLike, force: bool = False) -> str:
    """Write the pool folder whole (see pool_texts), with a copy of the queries table and the LDC
    package (the kits' folder as a .tgz.txt named with its md5, where NIST's code calls macOS's
    ``md5``); returns the package's name."""
    with new_folder(Path(out), force, (queries_file,)) as folder:
        for name, text in pool_texts(pool).items():
            write_file(folder / name, text)
        shutil.copyfile(queries_file, folder / Path(queries_file).name)
        minute = int(time.time()) // 60 * 60
        data = package(folder, f"task2_pool_{pool.batch.lower()}", minute)
        name = package_name(pool, data, minute)
        (folder / name).write_bytes(data)
    return name


def pool_summary(pool: Pool) -> str:
    """The table on stdout: each query's pooled mentions and kits, then the totals."""
    columns = (Column("query_id", "QueryID", "s"), Column("descriptor", "Descriptor", "s"),
               Column("lines", "Mentions", "s", "R"), Column("kits", "Kits", "s", "R"))
    rows: dict[str, dict[str, str]] = {}
    for kit in pool.kits:
        row = rows.setdefault(kit.lines[0].query_id, {"query_id": kit.lines[0].query_id, "descriptor": kit.lines[0].descriptor, "lines": "0", "kits": "0"})
        row["lines"] = str(int(row["lines"]) + len(kit.lines))
        row["kits"] = str(int(row["kits"]) + 1)
    return (score_table(columns, list(rows.values()), "pretty")
            + f"{len(pool.lines)} mentions in {len(pool.kits)} kits from {len(pool.runs)} run(s)\n")
