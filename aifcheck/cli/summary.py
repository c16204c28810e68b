"""``aifcheck summary`` and ``aifcheck graph``: what is inside a KB, counted and drawn."""

from __future__ import annotations

import sys
from dataclasses import asdict
from pathlib import Path
from typing import Annotated

import typer

from aifcheck.cli.common import GRAPH_VIEW, TABLE_FORMAT
from aifcheck.errors import ExitStatus, UsageError
from aifcheck.loading.paths import discover
from aifcheck.render import GRAPH_DETAIL_LIMIT

SUMMARY_EXAMPLES = """Examples:

  aifcheck summary kb.ttl

  aifcheck summary run/ --top 5 --format json
"""


GRAPH_EXAMPLES = """Examples:

  aifcheck graph claim-frame.ttl -o claim.png

  aifcheck graph kb.ttl -o kb.png --view clusters

  aifcheck graph kb.ttl -o event.png --focus ldc:cluster-E1 --depth 2

  aifcheck graph claim-frame.ttl -o claim.svg --focus CLAIM-ID

  aifcheck graph kb.ttl -o kb.dot && dot -Tsvg kb.dot > kb.svg
"""


def register(app: typer.Typer) -> None:
    app.command("summary", no_args_is_help=True, epilog=SUMMARY_EXAMPLES)(summary)
    app.command("graph", no_args_is_help=True, epilog=GRAPH_EXAMPLES)(graph)


def summary(
    paths: Annotated[list[str], typer.Argument(help="KB files, folders or globs (- for standard input).")],
    output_format: Annotated[str, typer.Option("--format", click_type=TABLE_FORMAT, help="text or json.")] = "text",
    top: Annotated[int, typer.Option(help="How many of the most used types to list.")] = 10,
) -> None:
    """Count what is inside each KB: clusters by metatype, members, mentions per document and
    modality, edges, types, LDC times and claims (and their total, for several files)."""
    from aifcheck.extract.summary import summarize, total
    from aifcheck.loading.kb import read_each
    from aifcheck.render.output import write_json
    from aifcheck.render.summary import render

    files, problems = discover(paths)
    found, unreadable = read_each(files, summarize)
    problems += unreadable
    shown = [*found, total(found)] if len(found) > 1 else found
    if output_format == "json":
        write_json([asdict(s) for s in shown], sys.stdout)
    else:
        render(shown, sys.stdout, max(top, 0))
    for problem in problems:
        print(str(problem), file=sys.stderr)
    raise typer.Exit(int(ExitStatus.UNREADABLE if problems else ExitStatus.VALID))


def graph(
    path: Annotated[str, typer.Argument(help="One KB or claim frame file (- for standard input).")],
    output: Annotated[
        Path, typer.Option("--output", "-o", help="The picture: .png or .svg (needs aifcheck[plot]), or .dot.")
    ],
    focus: Annotated[
        str | None,
        typer.Option(
            help="Draw only the neighbourhood of this cluster or claim: an IRI, a prefixed name the file "
            "declares, or a claim ID."
        ),
    ] = None,
    depth: Annotated[
        int | None, typer.Option(help="With --focus: how many edges away from it to draw (default 1).")
    ] = None,
    view: Annotated[
        str | None,
        typer.Option(
            click_type=GRAPH_VIEW,
            help="clusters (one node per cluster and claim) or mentions (also each mention and claim component); "
            f"default: mentions up to {GRAPH_DETAIL_LIMIT} clusters and claims, else clusters.",
        ),
    ] = None,
) -> None:
    """Draw a KB's clusters (by metatype, with handle and types) and argument edges (with roles);
    for a claim frame, also the claim, its components and the KEs it is about. A large KB is drawn
    one node per cluster, within one screen; --focus draws the neighbourhood of one node."""
    from aifcheck.extract.claims import read_claims
    from aifcheck.extract.kg import build_kg
    from aifcheck.loading.kb import load_kb
    from aifcheck.render.graph import select, summary_line, title
    from aifcheck.render.graph_draw import check_target, write_graph

    if depth is not None and focus is None:
        raise UsageError("--depth counts the steps from --focus: give --focus too")
    depth = 1 if depth is None else depth
    if depth < 0:
        raise UsageError(f"--depth {depth}: give 0 or more")
    check_target(output, [path])
    with load_kb(path) as kb:
        kg, claims, prefixes = build_kg(kb), read_claims(kb), kb.prefixes
    drawn, drawn_view = select(kg, claims, view, focus, depth, prefixes)
    write_graph(drawn, output, title(Path(path).name, drawn_view, focus, depth))
    print(summary_line(output, drawn, drawn_view, view is not None, focus, depth))
