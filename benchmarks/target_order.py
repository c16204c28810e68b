"""Which order suits each constraint on the fast executor: targets first, or targets last?

Usage: python benchmarks/target_order.py [--profile nist] [--repeat 3] FILE [FILE ...]

For every SPARQL constraint of the profile, runs the two compilations of the fast executor on
each file (best of --repeat runs; query time only, the files are loaded once):
  first  the targets enumerated in a DISTINCT sub-select joined before the body (the default);
  last   the body first, each solution's $this then tested against the targets (FILTER EXISTS).
It prints one row per constraint with both times per file, the order the shapes ask for
(aifc:targetsLast) and the order this run suggests: "last" when it is 10% faster on the largest
file, at most 25% slower on every other one, and its body binds $this in every solution
(without that the hint would lose violations: tests/validation/test_catalog.py checks it, and
tests/validation/test_differential.py that both executors agree); totals at the end. A constraint whose body
implies its targets runs as written, with no targets joined: its row shows that one time, "implied".
"""

from __future__ import annotations

import argparse
import time
from dataclasses import replace
from pathlib import Path

from aifcheck.errors import InputError
from aifcheck.loading.kb import load_kb
from aifcheck.validation.catalog import Catalog, Constraint, Rule
from aifcheck.validation.engine.analysis import binds_this, implies_targets
from aifcheck.validation.engine.compile import compile_constraint
from aifcheck.validation.shapes import load_catalog

# a rule, the index of one of its constraints, that constraint, and whether its body implies the targets
Check = tuple[Rule, int, Constraint, bool]


def best_time(store, query: str, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        for _ in store.query(query):
            pass
        times.append(time.perf_counter() - started)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--profile", default="nist")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    catalog = load_catalog()
    prefixes = tuple(sorted(catalog.prefixes.items()))
    checks = [
        (rule, index, c, implies_targets(c.select, rule.targets, catalog.prefixes))
        for rule in catalog.rules_for(args.profile)
        for index, c in enumerate(rule.constraints)
    ]
    times, sizes = measure(args.files, checks, prefixes, args.repeat)
    print_table(args.files, checks, times, sizes, catalog)


def measure(
    files: list[Path], checks: list[Check], prefixes: tuple, repeat: int
) -> tuple[dict[tuple[str, int], list[tuple[float, float]]], list[int]]:
    """Each constraint's (targets first, targets last) times on each file, and each file's size in triples."""
    times: dict[tuple[str, int], list[tuple[float, float]]] = {}
    sizes = []
    for path in files:
        try:
            loaded = load_kb(path)
        except InputError as exc:
            raise SystemExit(str(exc)) from None
        sizes.append(len(loaded))
        for rule, index, constraint, implied in checks:
            if implied:
                query = compile_constraint(rule.targets, constraint, prefixes, implied=True)
                alone = best_time(loaded.store, query, repeat)
                times.setdefault((rule.id, index), []).append((alone, alone))
                continue
            first = compile_constraint(rule.targets, replace(constraint, targets_last=False), prefixes)
            last = compile_constraint(rule.targets, replace(constraint, targets_last=True), prefixes)
            times.setdefault((rule.id, index), []).append(
                (best_time(loaded.store, first, repeat), best_time(loaded.store, last, repeat))
            )
        loaded.close()
    return times, sizes


def print_table(
    files: list[Path],
    checks: list[Check],
    times: dict[tuple[str, int], list[tuple[float, float]]],
    sizes: list[int],
    catalog: Catalog,
) -> None:
    largest = sizes.index(max(sizes))
    print("| constraint | " + " | ".join(f"{p.name} first / last (ms)" for p in files) + " | shapes | suggested |")
    print("|---" * (len(files) + 3) + "|")
    totals = {"first": [0.0] * len(sizes), "last": [0.0] * len(sizes), "shapes": [0.0] * len(sizes)}
    for rule, index, constraint, implied in checks:
        pairs = times[(rule.id, index)]
        if implied:
            for i, (alone, _) in enumerate(pairs):
                for label in totals:
                    totals[label][i] += alone
            cells = " | ".join(f"{alone * 1000:.1f}" for alone, _ in pairs)
            print(f"| {rule.id}#{index} | {cells} | implied | implied |")
            continue
        big_first, big_last = pairs[largest]
        suggest_last = (
            binds_this(constraint.select, catalog.prefixes)
            and big_last < 0.9 * big_first
            and all(last <= 1.25 * first + 2e-4 for first, last in pairs)
        )
        for i, (first, last) in enumerate(pairs):
            totals["first"][i] += first
            totals["last"][i] += last
            totals["shapes"][i] += last if constraint.targets_last else first
        cells = " | ".join(f"{first * 1000:.1f} / {last * 1000:.1f}" for first, last in pairs)
        shapes = "last" if constraint.targets_last else "first"
        print(f"| {rule.id}#{index} | {cells} | {shapes} | {'last' if suggest_last else 'first'} |")
    for label, values in totals.items():
        print(f"| total, all {label} | " + " | ".join(f"{v * 1000:.0f}" for v in values) + " | | |")


if __name__ == "__main__":
    main()
