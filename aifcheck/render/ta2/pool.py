"""The TA2 pool NIST sends to LDC, on disk as NIST's ``generate_pool.py task2`` writes it, and the
table ``pool ta2`` prints."""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Iterable
from pathlib import Path

from aifcheck.pipeline.ta2.pool import POOL_HEADER, UNFILLED, PoolLine, TA2Pool
from aifcheck.pipeline.ta2.responses import Response
from aifcheck.render.output import new_folder, write_file
from aifcheck.render.score_table import Column, score_table


def pool_texts(pool: TA2Pool) -> dict[str, str]:
    """The pool's files by path relative to the pool folder, in NIST's layout: pool.txt, the
    table of the runs pooled, the kits and their language map under task2_pool_<batch>/, and each
    run's pooled rows under runs/<run_id>/SPARQL-POOLED-<BATCH>-output/."""
    package = f"task2_pool_{pool.batch.lower()}"
    texts = {"pool.txt": "\t".join(POOL_HEADER) + "\n" + "".join(map(_pool_line, pool.lines))}
    texts["runs_to_pool.txt"] = "run_id\n" + "".join(f"{run.run_id}\n" for run in pool.runs)
    for kit in pool.kits:
        texts[f"{package}/kits/{kit.name}"] = "".join(map(_pool_line, kit.lines))
    texts[f"{package}/{package}.klm"] = "".join(f"{kit.name}\t{kit.languages}\n" for kit in pool.kits)
    for run in pool.runs:
        for pooled in run.files:
            name = f"runs/{run.run_id}/SPARQL-POOLED-{pool.batch}-output/{pooled.name}"
            texts[name] = "\t".join(pooled.header) + "\n" + "".join(map(_response_line, pooled.rows))
    return texts


def _pool_line(line: PoolLine) -> str:
    """A line of pool.txt and of a kit: LDC fills its last three cells."""
    cells = (line.query_id, line.descriptor, str(line.response_id), line.source, line.document, line.mention)
    return "\t".join((*cells, UNFILLED, UNFILLED, UNFILLED)) + "\n"


def _response_line(response: Response) -> str:
    """A pooled row as NIST writes it back (stripped cells, corrections applied)."""
    cells = (response.document, response.query_link_target, response.link_target, response.cluster)
    return "\t".join((*cells, response.span_text, response.j_cv.text, response.link_cv.text)) + "\n"


def pool_folders(pool: TA2Pool) -> list[str]:
    """The folders NIST's pooler makes whatever they hold: the kits' folder (empty when nothing new
    is pooled) and each run's SPARQL-POOLED-<BATCH>-output (empty for a run without response files)."""
    package = f"task2_pool_{pool.batch.lower()}"
    return [f"{package}/kits", *(f"runs/{run.run_id}/SPARQL-POOLED-{pool.batch}-output" for run in pool.runs)]


def package_name(pool: TA2Pool, data: bytes, when: int) -> str:
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


def write_pool(
    pool: TA2Pool,
    queries_file: str | os.PathLike,
    out: str | os.PathLike,
    force: bool = False,
    inputs: Iterable[str | os.PathLike] = (),
) -> str:
    """Write the pool folder whole (see pool_texts), with a copy of the queries table and the LDC
    package (the kits' folder as a .tgz.txt named with its md5, where NIST's code calls macOS's
    ``md5``); returns the package's name."""
    with new_folder(Path(out), force, (queries_file, *inputs)) as folder:
        for name in pool_folders(pool):
            (folder / name).mkdir(parents=True)
        for name, text in pool_texts(pool).items():
            write_file(folder / name, text)
        shutil.copyfile(queries_file, folder / Path(queries_file).name)
        minute = int(time.time()) // 60 * 60
        data = package(folder, f"task2_pool_{pool.batch.lower()}", minute)
        name = package_name(pool, data, minute)
        (folder / name).write_bytes(data)
    return name


def pool_summary(pool: TA2Pool) -> str:
    """The table on stdout: each query's pooled mentions and kits, then the totals."""
    columns = (
        Column("query_id", "QueryID", "s"),
        Column("descriptor", "Descriptor", "s"),
        Column("lines", "Mentions", "s", "R"),
        Column("kits", "Kits", "s", "R"),
    )
    rows: dict[str, dict[str, str]] = {}
    for kit in pool.kits:
        row = rows.setdefault(
            kit.lines[0].query_id,
            {"query_id": kit.lines[0].query_id, "descriptor": kit.lines[0].descriptor, "lines": "0", "kits": "0"},
        )
        row["lines"] = str(int(row["lines"]) + len(kit.lines))
        row["kits"] = str(int(row["kits"]) + 1)
    return (
        score_table(columns, list(rows.values()), "pretty")
        + f"{len(pool.lines)} mentions in {len(pool.kits)} kits from {len(pool.runs)} run(s)\n"
    )
