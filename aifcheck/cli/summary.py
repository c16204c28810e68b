"""``aifcheck summary`` and ``aifcheck graph``: what is inside a KB, counted and drawn."""
from __future__ import annotations

import sys
from dataclasses import asdict
from pathlib import Path
from typing import Annotated

import typer

from ..loading.paths import discover
from .common import TABLE_FORMAT, refuse_input_as_output
from ..validation.report import ExitStatus


SUMMARY_EXAMPLES = """Examples:

  aifcheck summary kb.ttl

  aifcheck summary run/ --top 5 --format json
"""


GRAPH_EXAMPLES = """Examples:

  aifcheck graph claim-frame.ttl -o claim.png

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
    from ..loading.kb import read_each
    from ..render.output import write_json
    from ..render.summary import render
    from ..extract.summary import summarize, total

    files, problems = discover(paths)
    found, unreadable = read_each(files, summarize)
    problems += unreadable
    shown = found + [total(found)] if len(found) > 1 else found
    if output_format == "json":
        write_json([asdict(s) for s in shown], sys.stdout)
    else:
        render(shown, sys.stdout, max(top, 0))
    for problem in problems:
        print(str(problem), file=sys.stderr)
    raise typer.Exit(int(ExitStatus.UNREADABLE if problems else ExitStatus.VALID))


def graph(
    path: Annotated[str, typer.Argument(help="One KB or claim frame file (- for standard input).")],
    output: Annotated[Path, typer.Option("--output", "-o", help="The picture: .png or .svg (needs aifcheck[plot]), or .dot.")],
) -> None:
    """Draw a KB's clusters (by metatype, with handle and types) and argument edges (with roles);
    for a claim frame, also the claim, its components and the KEs it is about."""
    from ..render.graph import build_graph, write_graph
    from ..loading.kb import load_kb

    refuse_input_as_output(output, [path])
    with load_kb(path) as kb:
        drawn = build_graph(kb)
    write_graph(drawn, output, Path(path).name)
    print(f"{output}: {drawn.number_of_nodes()} nodes, {drawn.number_of_edges()} edges")
