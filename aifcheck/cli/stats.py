"""The ``aifcheck score ci``, ``compare`` and ``report`` commands: thin layers over
aifcheck.score.ci, aifcheck.score.compare and aifcheck.score.report.

    aifcheck score ci SCORES.tab --score COLUMN [--key COL,...] [--summary COL:VALUE,...]
                      [--document COLUMN] [--run COLUMN] [--macro] [--sizes 0.7,0.8,0.9,0.95]
                      [--replications N] [--seed N] -o PRETTY_FILE --tab TAB_FILE
    aifcheck score compare OUT_A OUT_B [--format text|json] [--tab FILE]
    aifcheck score report OUT_DIR... -o report.html

Notes (the seed and stream drawn, NIST's quirks that changed a number) go to stderr.
"""

from __future__ import annotations

import enum
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from aifcheck.cli.common import REPLICATIONS_RANGE, SEED_RANGE, check_given_once, note, warn
from aifcheck.errors import UsageError

if TYPE_CHECKING:
    from aifcheck.loading.tsv import TsvTable

CI_EXAMPLES = (
    "Examples:\n"
    "\n"
    "  aifcheck score ci out/scores/FrameMetric-scores.tab --score AvgEdgeScore --macro -o"
    " FrameMetric-ci.txt --tab FrameMetric-ci.tab\n"
    "\n"
    "  aifcheck score ci scores.tab --score F1 --key RunID,Language,Metatype --summary"
    " DocID:ALL-Macro,DocID:ALL-Micro --document DocID --seed 1 -o ci.txt --tab ci.tab\n"
)
COMPARE_EXAMPLES = """Example:

  aifcheck score compare out-baseline/ out-new/ --format json
"""
REPORT_EXAMPLES = """Example:

  aifcheck score report out-baseline/ out-new/ -o report.html
"""


class CompareFormat(enum.StrEnum):
    text = "text"
    json = "json"


def register(score: typer.Typer) -> None:
    """Add the statistics commands to the ``score`` group."""
    score.command("ci", no_args_is_help=True, epilog=CI_EXAMPLES)(ci)
    score.command("compare", no_args_is_help=True, epilog=COMPARE_EXAMPLES)(compare)
    score.command("report", no_args_is_help=True, epilog=REPORT_EXAMPLES)(report)


def _sizes(text: str) -> tuple[float, ...]:
    try:
        sizes = tuple(float(part) for part in text.split(","))
    except ValueError:
        raise UsageError(f"--sizes {text}: give sizes such as 0.7,0.8,0.9,0.95") from None
    if len(set(sizes)) != len(sizes):
        raise UsageError(f"--sizes {text}: a size is given twice")
    return sizes


def _columns(text: str, option: str) -> tuple[str, ...]:
    columns = tuple(text.split(","))
    if not all(columns):
        raise UsageError(f"{option} {text!r}: give column names, comma-separated")
    return columns


def _summary(text: str) -> tuple[tuple[str, str], ...]:
    pairs = []
    for element in text.split(","):
        column, colon, value = element.partition(":")
        if not colon or not column:
            raise UsageError(f"--summary {text}: {element!r} is not COLUMN:VALUE")
        pairs.append((column, value))
    return tuple(pairs)


SEED = typer.Option(
    "--seed",
    click_type=SEED_RANGE,
    help="Seed, 0 to 2^32-1: the output is NIST's tool's with -s N (arch 4.19's stream). "
    "Default: a fixed seed in aifcheck's faster stream, printed on stderr.",
)
REPLICATIONS = "Bootstrap replications and randomization trials (at most 10,000,000)."


def ci(
    scores: Annotated[Path, typer.Argument(help="A score table (TA1, TA2, TA3 .tab; CRUX claims .json or text).")],
    output: Annotated[Path, typer.Option("--output", "-o", help="NIST's pretty (space-aligned) file.")],
    tab: Annotated[Path, typer.Option("--tab", help="NIST's tab-separated file.")],
    score: Annotated[
        str | None, typer.Option("--score", help="The score column (default: the task's headline column).")
    ] = None,
    key: Annotated[
        str | None,
        typer.Option(
            "--key",
            help="Key columns, comma-separated: one interval set per distinct key of the summary rows "
            "(default for TA1: RunID,Language,Metatype).",
        ),
    ] = None,
    summary: Annotated[
        str | None,
        typer.Option(
            "--summary", help="Summary rows as COLUMN:VALUE,... (default for TA1: DocID:ALL-Macro,DocID:ALL-Micro)."
        ),
    ] = None,
    document: Annotated[
        str | None,
        typer.Option("--document", help="The document (or query) column, for --macro (default for TA1: DocID)."),
    ] = None,
    run: Annotated[
        str | None, typer.Option("--run", help="The run column (accepted and never read, as in NIST's tool).")
    ] = None,
    macro: Annotated[bool, typer.Option("--macro", help="Sample the per-document means instead of the rows.")] = False,
    sizes: Annotated[str, typer.Option("--sizes", help="Interval sizes, comma-separated.")] = "0.7,0.8,0.9,0.95",
    replications: Annotated[
        int | None,
        typer.Option(
            "--replications",
            click_type=REPLICATIONS_RANGE,
            help="Replications per interval (default: NIST's 100,000; 10,000,000 at size 0.99, the most).",
        ),
    ] = None,
    seed: Annotated[int | None, SEED] = None,
) -> None:
    """Bootstrap confidence intervals of a score table, as NIST's generate_confidence_intervals.py computes them."""
    from aifcheck.render.ci import write_ci_files
    from aifcheck.render.output import FileOutput, check_files
    from aifcheck.score.ci import CIOptions, nist_intervals
    from aifcheck.score.scorefiles import layout_of, read_score_file

    check_files([FileOutput(output, "-o"), FileOutput(tab, "--tab")], [scores])  # before the work
    table = read_score_file(scores)
    layout = layout_of(table)

    def default(value, name: str, of_layout):
        if value is not None:
            return value
        if layout is None:
            raise UsageError(f"{scores}: not a score table of a known task: give {name}")
        return of_layout

    options = CIOptions(
        score=default(score, "--score", layout and layout.headline_column(table)),
        key=_columns(default(key, "--key", layout and ",".join(layout.key)), "--key"),
        summary=_summary(default(summary, "--summary", layout and ",".join(f"{c}:{v}" for c, v in layout.summary))),
        document=document if document is not None else layout.unit if layout else None,
        run=run,
        macro=macro,
        sizes=_sizes(sizes),
        replications=replications,
        seed=seed,
    )
    result = nist_intervals(table, options)
    warn(result.warnings)
    note([result.stream.describe()])
    write_ci_files(result, output, tab)


def compare(
    run_a: Annotated[
        Path, typer.Argument(help="Run A: a folder score ta1|ta2|ta3 wrote (or NIST's scores folder, or a score file).")
    ],
    run_b: Annotated[Path, typer.Argument(help="Run B, scored on the same documents or queries.")],
    output_format: Annotated[CompareFormat, typer.Option("--format", help="text or json.")] = CompareFormat.text,
    tab: Annotated[Path | None, typer.Option("--tab", help="Also write the table as a tab-separated file.")] = None,
    size: Annotated[float, typer.Option("--size", help="Size of the difference's interval.")] = 0.95,
    replications: Annotated[
        int, typer.Option("--replications", click_type=REPLICATIONS_RANGE, help=REPLICATIONS)
    ] = 100_000,
    seed: Annotated[
        int | None, typer.Option("--seed", click_type=SEED_RANGE, help="Seed, 0 to 2^32-1 (default: a fixed one).")
    ] = None,
) -> None:
    """Compare two scored runs metric by metric: difference, paired-bootstrap interval, p-value."""
    from aifcheck.render.compare import comparison_json, comparison_text, write_comparison_tab
    from aifcheck.render.explain import moves_json, moves_text
    from aifcheck.render.output import FileOutput, check_files
    from aifcheck.score.compare import compare_runs
    from aifcheck.score.explain import explained_run
    from aifcheck.score.moved import moves
    from aifcheck.score.scorefiles import read_scores

    if not 0 < size < 1:
        raise UsageError(f"--size {size}: give a number between 0 and 1")
    a, b = read_scores(run_a), read_scores(run_b)
    if tab is not None:  # before the work; once the score files are read, one of which it must not be
        check_files([FileOutput(tab, "--tab")], [run_a, run_b])
    _refuse_nothing_in_common(a, b)
    comparison = compare_runs(a, b, size=size, replications=replications, seed=seed)
    warn(comparison.warnings)
    if tab is not None:
        write_comparison_tab(comparison, tab)
    first, second = explained_run(run_a), explained_run(run_b)
    moved = moves(first, second) if first and second else None  # where both runs were scored with --explain
    if output_format is CompareFormat.json:
        sys.stdout.write(comparison_json(comparison, moves_json(moved) if moved is not None else None))
    else:
        sys.stdout.write(comparison_text(comparison) + moves_text(moved or []))


def _refuse_nothing_in_common(a, b) -> None:
    """Two runs that share no headline metric (runs of two tasks) have nothing to compare."""
    labels_a, labels_b = ({h.label for h in run.headlines()} for run in (a, b))
    if not labels_a & labels_b:
        tasks = [", ".join(sorted({t.layout.task for t in run.tables if t.layout})) or "no known" for run in (a, b)]
        raise UsageError(
            f"{a.path} and {b.path} have no metric in common ({tasks[0]} scores; {tasks[1]} scores): "
            "give runs of one task"
        )


def report(
    runs: Annotated[
        list[Path],
        typer.Argument(
            help="Scored runs: folders score ta1|ta2|ta3 wrote (or NIST's scores folders, or score files); "
            "the first is the baseline."
        ),
    ],
    output: Annotated[
        Path, typer.Option("--output", "-o", help="The HTML page to write (.html; or a device: -o /dev/stdout).")
    ],
    replications: Annotated[
        int, typer.Option("--replications", click_type=REPLICATIONS_RANGE, help=REPLICATIONS)
    ] = 100_000,
    seed: Annotated[
        int | None, typer.Option("--seed", click_type=SEED_RANGE, help="Seed, 0 to 2^32-1 (default: a fixed one).")
    ] = None,
) -> None:
    """One self-contained HTML page: headline scores with intervals, distributions, comparisons."""
    from aifcheck.render.output import FILE, FileOutput, check_files
    from aifcheck.render.report_html import write_report
    from aifcheck.score.report import report_data
    from aifcheck.score.scorefiles import read_scores

    check_given_once(runs)  # runs of one name are told apart by the report
    scored = [read_scores(run) for run in runs]
    # before the work; once the score files are read, one of which it must not be
    ((_, kind),) = check_files([FileOutput(output, "-o")], runs)
    if kind == FILE and output.suffix.lower() not in (".html", ".htm"):
        raise UsageError(f"-o {output}: the report is an HTML page: name it .html")
    for other in scored[1:]:
        _refuse_nothing_in_common(scored[0], other)
    data = report_data(scored, replications=replications, seed=seed)
    warn(data.warnings)
    write_report(data, output)
    note([f"wrote {output}"])


# `score ta1|ta2|ta3 --ci`: the intervals of the headline metrics beside the scores
CI = typer.Option(
    "--ci",
    help="Also write the bootstrap confidence intervals of the headline metrics beside the scores "
    "(scores/<Metric>-ci.txt and .tab; see aifcheck score ci).",
)
CI_SEED = typer.Option(
    "--ci-seed", click_type=SEED_RANGE, help="With --ci: the seed, 0 to 2^32-1 (as score ci --seed)."
)


def intervals_beside(folder: Path, tables: Iterable[TsvTable], seed: int | None) -> None:
    """Write the intervals of the headline metrics of a scorer's tables beside its score files in
    ``folder``: from the tables in memory, the files are not read back."""
    from aifcheck.render.ci import write_folder_intervals
    from aifcheck.score.ci import table_intervals

    results = table_intervals(tables, seed=seed)
    write_folder_intervals(folder, results)
    warn(warning for result in results.values() for warning in result.warnings)
    note(sorted({result.stream.describe() for result in results.values()}))
