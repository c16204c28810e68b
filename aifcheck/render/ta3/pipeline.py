"""NIST's TA3 docker output on disk: the stage folders, ARF-output and logs/, byte for byte as
NIST's scripts write them (tables: a header line, then one line per row, each ending in a newline;
ARF files without a final newline, as NIST joins their lines), and the summary printed after a run."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from aifcheck.loading.tsv import TsvTable
from aifcheck.pipeline.ta3.run import ARF, AUGMENTED, CLEAN, MERGED, SPARQL, VALID, PipelineTA3
from aifcheck.render.logs import log_text
from aifcheck.render.output import new_folder, write_file
from aifcheck.render.tables import stage_text


def write_pipeline(
    result: PipelineTA3, target: Path, force: bool = False, inputs: Iterable[str | os.PathLike | None] = ()
) -> None:
    """Write every stage's output under ``target`` (NIST's /output), a new folder."""
    with new_folder(target, force, [i for i in inputs if i is not None]) as out:
        write_stages(result, out)


def write_stages(result: PipelineTA3, out: Path) -> None:
    """Every stage's output under ``out``, a folder being written."""
    for folder in result.sparql_folders:
        (out / SPARQL / folder).mkdir(parents=True, exist_ok=True)
    for name, files in (
        (SPARQL, result.sparql),
        (CLEAN, result.clean),
        (MERGED, result.merged),
        (VALID, result.valid),
        (AUGMENTED, result.augmented),
    ):
        (out / name).mkdir(parents=True, exist_ok=True)
        for file in files:
            write_file(out / name / file.path, stage_text(file))
    (out / ARF).mkdir(parents=True)
    for claim in result.arf:
        folder = out / ARF / claim.condition / claim.query
        write_file(folder / f"{claim.claim_id}-outer-claim.tab", claim.outer_text())
        write_file(folder / f"{claim.claim_id}-raw-kes.tab", claim.raw_kes_text())
        write_file(folder / f"{claim.claim_id}-readable-kes.txt", claim.readable_text())
    for name, log in result.logs.items():
        write_file(out / "logs" / name, log_text(log))


def summary(result: PipelineTA3, target: str) -> str:
    """What the run did, a line per stage."""
    selection = result.selection
    skipped = sum(m.startswith("Skipping ") for m in selection.messages)
    ignored = sum(m.startswith("Ignoring ") for m in selection.messages)
    lines = [
        f"select: {len(selection.frames)} claim frame(s) queried, {skipped} left out by the rankings or --depth, "
        f"{ignored} invalid (-report.txt)",
        f"{SPARQL}: {sum(isinstance(f, TsvTable) for f in result.sparql)} tables, "
        f"{len(selection.rankings)} ranking file(s)",
        f"{CLEAN}: {len(result.clean)} files",
        f"{MERGED}: {len(result.merged)} files",
        f"{VALID}: {result.valid_claims} of {result.claims} claims valid; "
        f"{result.logs['validate-responses.log'].errors} error(s) (logs/validate-responses.log)",
        "handle: "
        + (
            "missing handles filled from the LTF files"
            if result.handled
            else f"skipped (no --ltf): {AUGMENTED} is a copy of {VALID}"
        ),
        f"{ARF}: {len(result.arf)} claims",
        f"wrote {target}",
    ]
    return "\n".join(lines) + "\n"
