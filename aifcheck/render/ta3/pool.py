"""NIST's TA3 pool on disk, byte for byte as generate_pool.py writes it (its files joined line by
line, without a final newline), and the summary printed after pooling."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from aifcheck.pipeline.ta3.pool import MAPPING_COLUMNS, TA3Pool
from aifcheck.pipeline.ta3.qcf import QCF_RUN
from aifcheck.render.output import new_folder, write_file
from aifcheck.render.ta3.pipeline import write_stages

RUNS = "runs"  # the pool's folder of the runs it made

SEPARATOR = "--------------"
_BLOCK_HEADER = "condition\tquery\trun_id\trank\trun_claim_id\tclaim_relations"


def claim_mappings_text(pool: TA3Pool) -> str:
    rows = sorted("\t".join(m.cells()) for m in pool.mappings)
    return "\n".join(["\t".join(MAPPING_COLUMNS), *rows])


def human_readable_text(pool: TA3Pool) -> str:
    """A block per pool claim that has a template: its run claims, NIST's sentence, its readable KEs."""
    lines: list[str] = []
    for uid in sorted(pool.claims):
        claim = pool.claims[uid]
        sentence = claim.human_readable
        if sentence is None:
            continue
        lines += [SEPARATOR, f"claim: {uid}", "\n", _BLOCK_HEADER]
        lines += [
            "\t".join((m.condition, m.query_id, m.run_id, m.rank, m.run_claim_id, m.claim_relations))
            for m in pool.mappings
            if m.pool_claim_uid == uid
        ]
        lines += ["\n", sentence, "\n", claim.readable, "\n"]
    return "\n".join(lines)


def write_pool(pool: TA3Pool, target: Path, force: bool = False, inputs: Iterable[str | os.PathLike] = ()) -> None:
    """The pool's files; with the query claim frames' run the pool made, that run's stages too, in
    ``runs/query_claim_frames/`` (the folder its mapping rows name)."""
    with new_folder(target, force, inputs) as out:
        if pool.query_claim_frames is not None:
            write_stages(pool.query_claim_frames, out / RUNS / QCF_RUN)
        for uid in pool.new:
            claim = pool.claims[uid]
            write_file(out / "pool" / f"{uid}-outer-claim.tab", claim.outer_text(uid))
            write_file(out / "pool" / f"{uid}-raw-kes.tab", claim.edges_text(uid))
            write_file(out / "pool" / f"{uid}-readable-kes.txt", claim.readable)
        write_file(out / "claim-mappings.tab", claim_mappings_text(pool))
        write_file(out / "human-readable-format.tab", human_readable_text(pool))


def summary(pool: TA3Pool, target: str, previous: bool = False) -> str:
    """What was pooled; ``previous``: whether earlier pools were given (which hold the claims not new)."""
    runs = len({m.run_id for m in pool.mappings})
    frames = sum(m.run_id == QCF_RUN for m in pool.mappings)
    made = (
        f"the query claim frames' run ({frames} frame(s)): {target}/{RUNS}/{QCF_RUN}\n"
        if pool.query_claim_frames is not None
        else ""
    )
    new = f"{len(pool.new)} new (the others are in a previous pool)" if previous else f"{len(pool.new)} new"
    return (
        f"pooled {len(pool.mappings)} run claim(s) of {runs} run(s) into {len(pool.claims)} pool claim(s), "
        f"{new}\n{made}wrote {target}\n"
    )
