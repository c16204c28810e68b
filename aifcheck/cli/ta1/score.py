"""``aifcheck score ta1``: a thin layer over aifcheck.score.ta1.score_ta1.

Prints the headline metrics (ALL-Macro, per language) on stdout and one line per notice on
stderr. Exit codes as ``validate``: 0 scored, 1 scored but NIST's stages logged errors (rows
dropped as invalid, or nothing to score), 2 usage error, 3 an input NIST's pipeline cannot read.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from aifcheck.cli.common import (
    FILE_TIMEOUT,
    FORCE,
    JOBS,
    SCHEDULER,
    SHIP_FILES,
    check_inputs,
    check_run_id,
    error,
    note,
    warn,
)
from aifcheck.cli.explain import EXPLAIN
from aifcheck.cli.progress import ProgressBar
from aifcheck.cli.stats import CI, CI_SEED, intervals_beside
from aifcheck.errors import ExitStatus


def register(score: typer.Typer) -> None:
    """Add this scorer's commands to the ``score`` group."""
    score.command("ta1", no_args_is_help=True, epilog=EXAMPLES)(ta1)


EXAMPLES = (
    "Examples:\n"
    "\n"
    "  aifcheck score ta1 run/ --gold gold/ --aux AUX-data/ --run-id my-run -o scores/\n"
    "\n"
    "  aifcheck score ta1 run/ --gold gold/ --aux AUX-data/ -o scores/ --iou-threshold"
    " eng:text:0.5,eng:image:0.3 --extra-similarities kgtk.tsv\n"
)


def ta1(
    run: Annotated[
        Path,
        typer.Argument(
            help="A folder of document KBs (<doc>.ttl) or in NIST's SPARQL-output layout (<doc>.ttl/*.rq.tsv)."
        ),
    ],
    gold: Annotated[
        Path, typer.Option("--gold", help="NIST's gold tables: <doc>.ttl/AIDA_P3_TA1_{CM,AM,TM}_A0001.rq.tsv.")
    ],
    aux: Annotated[
        Path,
        typer.Option("--aux", help="NIST's AUX-data folder (coredocs-xx, parent_children, boundaries, encodings)."),
    ],
    output: Annotated[Path, typer.Option("--output", "-o", help="Write NIST's output layout into this new folder.")],
    type_similarity: Annotated[
        Path | None,
        typer.Option(
            "--type-similarity",
            help="DWD type similarities 'q1 q2 similarity', NIST's cache of the KGTK service (none given: two "
            "different types have similarity 0).",
        ),
    ] = None,
    taggable_types: Annotated[
        Path | None,
        typer.Option(
            "--taggable-types", help="Taggable DWD types, the tagset's, one qnode a line (none given: every type)."
        ),
    ] = None,
    extra_similarities: Annotated[
        Path | None,
        typer.Option(
            "--extra-similarities",
            help="More type pairs, as the KGTK similarity service answers them (columns q1, q2 and one per similarity "
            "type): for the pairs --type-similarity lacks, the mean of --similarity-types.",
        ),
    ] = None,
    overlay: Annotated[
        Path | None,
        typer.Option(
            "--overlay",
            help="A DWD overlay (JSON, as NIST's xpo_v5.1a.json): its synonyms have similarity 1, its near "
            "neighbours at least --near-neighbour-similarity, and a synonym of a taggable type is evaluable.",
        ),
    ] = None,
    alpha: Annotated[
        float,
        typer.Option("--alpha", help="A type more similar than this to a taggable type is evaluable (NIST's ALPHA)."),
    ] = 0.9,
    iou_threshold: Annotated[
        list[str] | None,
        typer.Option(
            "--iou-threshold",
            metavar="LANG:MODALITY:VALUE",
            help="A mention pair's IoU below this counts as 0, per document language (eng, rus, spa, ukr) and "
            "modality (image, text, video); repeat or separate with commas; the others keep 0.1 "
            "(NIST's IOU_THRESHOLDS).",
        ),
    ] = None,
    min_type_similarity: Annotated[
        float,
        typer.Option(
            "--min-type-similarity",
            help="A smaller TypeSim of two clusters counts as 0 in the alignment (NIST's MIN_TYPE_SIMILARITY).",
        ),
    ] = 0.3,
    near_neighbour_similarity: Annotated[
        float,
        typer.Option(
            "--near-neighbour-similarity",
            help="The similarity of near neighbours of --overlay, at least (NIST's NN_SIMILARITY_VALUE).",
        ),
    ] = 0.9,
    similarity_types: Annotated[
        str,
        typer.Option(
            "--similarity-types",
            help="The KGTK similarity types of --extra-similarities whose mean is a pair's similarity: class, "
            "complex, jc, text, topsim, transe (NIST's SIMILARITY_TYPES).",
        ),
    ] = "class,jc",
    run_id: Annotated[
        str | None, typer.Option("--run-id", help="The run ID in the score tables (default: the RUN folder's name).")
    ] = None,
    plan: Annotated[
        bool, typer.Option("--plan", help="Compute the metrics as plan §4 defines them, not as NIST's code does.")
    ] = False,
    force: Annotated[bool, FORCE] = False,
    jobs: Annotated[int, JOBS] = 1,
    scheduler: Annotated[str | None, SCHEDULER] = None,
    ship_files: Annotated[bool, SHIP_FILES] = False,
    file_timeout: Annotated[float | None, FILE_TIMEOUT] = None,
    ci: Annotated[bool, CI] = False,
    ci_seed: Annotated[int | None, CI_SEED] = None,
    explain: Annotated[bool, EXPLAIN] = False,
) -> None:
    """Score a TA1 run as NIST's pipeline does: its scores, alignment and results.json, byte for byte."""
    from aifcheck.render.explain import write_explanations
    from aifcheck.render.output import check_new_folder, new_folder
    from aifcheck.render.ta1.scores import (
        NistLayout,
        headline_table,
        missing_documents_warning,
        score_tables,
        unscored_pairs_warning,
    )
    from aifcheck.score.allocations import kept_until_exit
    from aifcheck.score.ta1 import TA1Settings, score_ta1
    from aifcheck.spread.parallel import Spread

    spread = Spread(jobs, scheduler, ship_files, file_timeout)
    check_run_id(run_id, run.resolve().name)
    settings = TA1Settings(
        alpha,
        TA1Settings.parse_iou_thresholds(iou_threshold or ()),
        min_type_similarity,
        near_neighbour_similarity,
        TA1Settings.parse_similarity_types([similarity_types]),
    )
    inputs = [run, gold, aux, type_similarity, taggable_types, extra_similarities, overlay]
    check_new_folder(output, force, inputs)  # before the inputs are read (new_folder checks it again)
    check_inputs(files=[type_similarity, taggable_types, extra_similarities, overlay], folders=[run, gold, aux])
    with new_folder(output, force, inputs) as folder, ProgressBar.on_terminal(0) as bar, kept_until_exit():
        layout = NistLayout(folder)
        scores = score_ta1(
            run,
            gold,
            aux,
            type_similarity,
            taggable_types,
            run_id,
            plan,
            progress=bar.stage,
            spread=spread,
            on_document=layout.document,
            settings=settings,
            extra_similarities=extra_similarities,
            overlay=overlay,
            explain=explain,
        )
        layout.run(scores)
        if explain:
            write_explanations(folder, "ta1", scores.explanations)
        if ci and scores.metrics:
            intervals_beside(folder, score_tables(scores, output), ci_seed)
    note(scores.notices)
    warn(warning for warning in (missing_documents_warning(scores), unscored_pairs_warning(scores)) if warning)
    typer.echo(headline_table(scores), nl=False)
    if scores.stopped:
        error(f"{scores.stopped}: nothing scored ({output / 'results.json'}: FatalError Yes)")
        raise typer.Exit(int(ExitStatus.UNREADABLE))
    if scores.errors:
        note([f"{scores.errors} error(s) logged by NIST's stages: see {output / 'logs'}"])
    raise typer.Exit(int(ExitStatus.VIOLATIONS if scores.errors else ExitStatus.VALID))
