"""Benchmark: NIST's TA1 tables on the five TA1 KBs, aifcheck (pyoxigraph) vs rdflib's SPARQL engine.

Both engines run the same queries/*.rq files. Prints one table measured in this run, with a
ratio column (rdflib time / aifcheck time) and the row counts of both engines as a cross-check.
aifcheck's cells are the best of --repeat runs; rdflib runs once (its queries take minutes, so
warm-up is negligible there).

    python benchmarks/bench_queries.py [--data ../shared/data/m54/task1-run] [--repeat 5]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

import rdflib

from aifcheck.extract.query import query_text, table_names
from aifcheck.loading.kb import load_kb, read_text
from aifcheck.pipeline.shared.sparql import run_table

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "m54" / "task1-run"


def best_of(repeat: int, work: Callable[[], object]) -> tuple[float, object]:
    """The fastest of ``repeat`` runs, in seconds, and the last result."""
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        result = work()
        best = min(best, time.perf_counter() - start)
    return best, result


def measure(path: Path, tables: list[str], repeat: int) -> dict[str, float | int]:
    load_ox, kb = best_of(repeat, lambda: load_kb(path))
    query_ox, ours = best_of(repeat, lambda: sum(len(run_table(kb, t).rows) for t in tables))
    load_rdflib, graph = best_of(1, lambda: rdflib.Graph().parse(data=read_text(str(path)), format="turtle"))
    query_rdflib, theirs = best_of(1, lambda: sum(len(list(graph.query(query_text(t)))) for t in tables))
    return {
        "triples": len(kb),
        "load_ox": load_ox,
        "query_ox": query_ox,
        "rows_ox": ours,
        "load_rdflib": load_rdflib,
        "query_rdflib": query_rdflib,
        "rows_rdflib": theirs,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="folder of TA1 KBs (*.ttl)")
    parser.add_argument("--repeat", type=int, default=5, help="aifcheck runs per cell (the best is kept)")
    args = parser.parse_args()
    kbs = sorted(args.data.glob("*.ttl"))
    if not kbs:
        print(f"no .ttl files in {args.data}", file=sys.stderr)
        return 2
    tables = table_names("ta1")
    print(f"TA1 tables: {', '.join(tables)}; times in ms (aifcheck: best of {args.repeat}; rdflib: 1 run)")
    header = ("KB", "triples", "load ox", "query ox", "load rdflib", "query rdflib", "query ratio", "rows ox/rdflib")
    print("| " + " | ".join(header) + " |")
    print("|" + "|".join("---" for _ in header) + "|")
    totals = dict.fromkeys(("load_ox", "query_ox", "load_rdflib", "query_rdflib"), 0.0)
    for kb in kbs:
        m = measure(kb, tables, args.repeat)
        for key in totals:
            totals[key] += m[key]
        print(
            f"| {kb.name} | {m['triples']} | {m['load_ox'] * 1e3:.1f} | {m['query_ox'] * 1e3:.1f} | "
            f"{m['load_rdflib'] * 1e3:.1f} | {m['query_rdflib'] * 1e3:.1f} | "
            f"{m['query_rdflib'] / m['query_ox']:.0f}x | {m['rows_ox']}/{m['rows_rdflib']} |"
        )
    print(
        f"| total | | {totals['load_ox'] * 1e3:.1f} | {totals['query_ox'] * 1e3:.1f} | "
        f"{totals['load_rdflib'] * 1e3:.1f} | {totals['query_rdflib'] * 1e3:.1f} | "
        f"{totals['query_rdflib'] / totals['query_ox']:.0f}x | |"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
