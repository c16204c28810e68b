"""``pipeline_ta3``: NIST's TA3 evaluation docker (run_task3_evaluation_pipeline.py), stage by stage.

select (which claim frames and ranking lines, ``--depth``) -> SPARQL-output -> SPARQL-CLEAN-output
-> SPARQL-MERGED-output -> SPARQL-VALID-output -> SPARQL-AUGMENTED-output (the handle stage with
LTF files, a copy without) -> ARF-output, with NIST's log of each stage. Each stage returns values;
aifcheck.render.ta3.pipeline writes them in NIST's layout.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from aifcheck.errors import UsageError
from aifcheck.extract.query import TAG
from aifcheck.loading.tsv import TsvTable
from aifcheck.pipeline.shared.auxdata import TA2_CORE, load_aux
from aifcheck.pipeline.shared.events import EventLog
from aifcheck.pipeline.shared.tables import TextFile
from aifcheck.pipeline.ta3.arf import ArfClaim, arf
from aifcheck.pipeline.ta3.clean import clean
from aifcheck.pipeline.ta3.handle import handle
from aifcheck.pipeline.ta3.merge import GR, merge
from aifcheck.pipeline.ta3.queries import UserQueries, read_user_queries
from aifcheck.pipeline.ta3.screen import validate
from aifcheck.pipeline.ta3.select import FrameSelection, parse_depth, select_frames
from aifcheck.pipeline.ta3.sparql import Progress, sparql_output
from aifcheck.spread.parallel import IN_THIS_PROCESS, Spread

SPARQL, CLEAN, MERGED, VALID, AUGMENTED, ARF = (
    "SPARQL-output",
    "SPARQL-CLEAN-output",
    "SPARQL-MERGED-output",
    "SPARQL-VALID-output",
    "SPARQL-AUGMENTED-output",
    "ARF-output",
)
# log file -> the NIST script that writes it
LOGS = {
    "run.log": "run_task3_evaluation_pipeline.py",
    "verify-output-directory-structure.log": "verify_output_directory_structure.py",
    "clean-sparql-output.log": "clean_sparql_output.py",
    "merge-output.log": "augment_output.py",
    "validate-responses.log": "validate_responses.py",
    "augment-handle-output.log": "augment_output.py",
    "generate-arf.log": "generate_arf.py",
}


@dataclass(frozen=True)
class PipelineTA3:
    """Every stage's output, NIST's logs, and what a user should know."""

    selection: FrameSelection
    sparql: tuple[TsvTable | TextFile, ...]
    sparql_folders: tuple[str, ...]  # ConditionN/<query>: NIST makes one for each, files or not
    clean: tuple[TsvTable, ...]
    merged: tuple[TsvTable, ...]
    valid: tuple[TsvTable, ...]
    augmented: tuple[TsvTable, ...]
    handled: bool  # the handle stage ran (LTF files given); else AUGMENTED is VALID
    arf: tuple[ArfClaim, ...]
    logs: dict[str, EventLog]  # by file name
    claims: int  # claims SPARQL-MERGED-output names
    valid_claims: int
    unread: tuple[str, ...]  # files of SPARQL-MERGED-output NIST's validator does not read
    warnings: tuple[str, ...]


def pipeline_ta3(
    run: str | os.PathLike | Callable[[UserQueries], FrameSelection],
    user_queries: str | os.PathLike,
    aux: str | os.PathLike,
    depth: str | None = None,
    ltf: str | os.PathLike | None = None,
    out: str = "OUT",
    invocation: str = "",
    query_set: str = TAG,
    spread: Spread = IN_THIS_PROCESS,
    progress: Progress | None = None,
) -> PipelineTA3:
    """Run NIST's TA3 docker stages on a run: a folder, or what selects its frames and ranking
    lines from the user queries (the query claim frames: aifcheck.pipeline.ta3.qcf). ``out`` is
    where the output will be written (its paths appear in the logs, as NIST's do); ``invocation``
    is the command line the logs open with; ``query_set`` is the SPARQL stage's
    (aifcheck.extract.query.QUERY_SETS: the tag's by default); the claim frames are queried as
    ``spread`` says (``--jobs``), ``progress`` hearing of each."""
    depths = parse_depth(depth)
    queries = read_user_queries(user_queries)
    aux_data = load_aux(aux, TA2_CORE)
    if ltf is not None and not Path(ltf).is_dir():
        raise UsageError(f"--ltf {ltf}: not a folder")
    logs = {name: EventLog(program) for name, program in LOGS.items() if ltf is not None or "handle" not in name}
    cwd = os.getcwd()
    for log in logs.values():
        log.begin(invocation, cwd)
    say = logs["run.log"].info
    say("Inspecting the input directory.")
    selection = run(queries) if callable(run) else select_frames(run, queries, depths)
    for message in selection.messages:
        say(message)
    say("Verifying input directory structure.")
    sparql, folders = sparql_output(selection, query_set, spread, progress)
    _say_sparql(say, out, selection, folders)
    say("SPARQL output generated.")
    say("Cleaning SPARQL output.")
    cleaned = clean(sparql, logs["clean-sparql-output.log"], f"{out}/{SPARQL}", f"{out}/{CLEAN}")
    say("Merging SPARQL output.")
    merged = merge(cleaned)
    say("Validating SPARQL output.")
    log = logs["validate-responses.log"]
    log.info("validation started")
    validated = validate(merged, queries, aux_data, log, f"{out}/{MERGED}")
    log.info(f"validation finished (warnings:{log.warnings}, errors:{log.errors})")
    say("Replacing missing handle-span with text, if provided.")
    if ltf is not None:
        augmented = handle(validated.tables, ltf, logs["augment-handle-output.log"], f"{out}/{VALID}")
    else:
        say("no --ltf given, skipping replacing missing handle-span with text.")
        augmented = validated.tables
    say("Generating ARF output.")
    log = logs["generate-arf.log"]
    log.info("validation started")
    again = validate(augmented, queries, aux_data, log, f"{out}/{AUGMENTED}")
    claims = arf(again.claims, log)
    log.info(f"ARF generation finished (warnings:{log.warnings}, errors:{log.errors})")
    say("Done.")
    return PipelineTA3(
        selection,
        sparql,
        folders,
        cleaned,
        merged,
        validated.tables,
        augmented,
        ltf is not None,
        claims,
        logs,
        len(validated.claims),
        sum(c.valid for c in validated.claims),
        validated.unknown,
        (
            *selection.warnings,
            *_unread_warning(validated.unknown, f"{out}/logs/validate-responses.log"),
            *dict.fromkeys(validated.warnings + again.warnings),
        ),
    )


def _say_sparql(say, out: str, selection: FrameSelection, folders: tuple[str, ...]) -> None:
    """NIST's driver's lines for its SPARQL stage: a folder per condition and query, each frame queried."""
    conditions = sorted({f.split("/")[0] for f in folders})
    for c_count, condition in enumerate(conditions, 1):
        say(f"Creating directory: {out}/{SPARQL}/{condition}")
        queries = [f.split("/")[1] for f in folders if f.startswith(f"{condition}/")]
        for q_count, query in enumerate(queries, 1):
            say(f"Creating output directory: {out}/{SPARQL}/{condition}/{query}")
            frames = [f for f in selection.frames if (f.condition, f.query) == (condition, query)]
            for k_count, frame in enumerate(frames, 1):
                say(
                    f"Applying queries to {condition} ({c_count}/{len(conditions)}) {query} ({q_count}/{len(queries)}) "
                    f"{frame.name} ({k_count}/{len(frames)})."
                )


def _unread_warning(unread: tuple[str, ...], log: str) -> tuple[str, ...]:
    tables = [path for path in unread if path.endswith(GR)]
    if not tables:
        return ()
    return (
        f"NIST's validator knows no 22-column {GR.removesuffix('.rq.tsv')} table (the March 2022 queries): the KEs "
        f"of {len(tables)} claim frame(s) are left out of {VALID} and {ARF}, as NIST's code leaves them out ({log})",
    )
