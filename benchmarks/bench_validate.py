"""Time `aifcheck validate` against pySHACL running the same shapes, in one run.

Usage: python benchmarks/bench_validate.py [KB.ttl ...] [--repeat N]
Default input: ../shared/data/m54/task1-run/L0C0499MZ.ttl (11k triples).

Each row is a whole process (interpreter start, imports, parse, all rules of the nist
profile, report), timed as the median of N runs, except the parse-only floors. Ratios are
against pySHACL on the same shapes, measured in the same run.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_KB = ROOT.parent / "shared" / "data" / "m54" / "task1-run" / "L0C0499MZ.ttl"

FLOOR_RDFLIB = "import rdflib, sys; rdflib.Graph().parse(sys.argv[1], format='turtle')"
FLOOR_OXIGRAPH = (
    "import pyoxigraph, sys; s = pyoxigraph.Store(); s.bulk_load(path=sys.argv[1], format=pyoxigraph.RdfFormat.TURTLE)"
)


def timed(command: list[str], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        proc = subprocess.run(command, capture_output=True, text=True)
        times.append(time.perf_counter() - started)
        if proc.returncode not in (0, 1):
            raise SystemExit(f"{' '.join(command)} failed ({proc.returncode}): {proc.stderr.strip()}")
    return statistics.median(times)


def triples(kb: Path) -> int:
    import rdflib

    return len(rdflib.Graph().parse(kb, format="turtle"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kbs", nargs="*", type=Path, default=[DEFAULT_KB])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    py = sys.executable
    rows = []
    for kb in args.kbs:
        if not kb.is_file():
            raise SystemExit(f"{kb}: no such file (the default input lives in ../shared/data)")
        validate = [py, "-m", "aifcheck", "validate", str(kb), "--profile", "nist", "--severity", "info"]
        reference = timed([*validate, "--engine", "reference"], max(1, args.repeat // 2))
        measured = {
            "pySHACL, same shapes (aifcheck --engine reference)": reference,
            "aifcheck validate (fast executor)": timed(validate, args.repeat),
            "floor: rdflib parse only": timed([py, "-c", FLOOR_RDFLIB, str(kb)], args.repeat),
            "floor: pyoxigraph load only": timed([py, "-c", FLOOR_OXIGRAPH, str(kb)], args.repeat),
        }
        rows.append((kb.name, triples(kb), measured, reference))
    print(f"{'input':<16} {'triples':>8}  {'what (whole process, median)':<52} {'seconds':>8} {'vs pySHACL':>10}")
    for name, count, measured, reference in rows:
        for label, seconds in measured.items():
            print(f"{name:<16} {count:>8}  {label:<52} {seconds:>8.2f} {reference / seconds:>9.1f}x")


if __name__ == "__main__":
    main()
