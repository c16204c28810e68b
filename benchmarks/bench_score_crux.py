"""Benchmark: `aifcheck score crux-claims` and `crux-relations` on 10,000-line files generated here.

CRUX published no scorer, so the baselines are measured in the same run:
- *floor*: reading the two files with the csv module, which any scorer has to do;
- *one matching per document* (claims): weights computed pair by pair in Python for every
  (system, gold) pair of a document and one scipy linear_sum_assignment per document, the
  direct reading of the plan's "maximal bipartite matching"; aifcheck matches per (document,
  topic, template, X) block instead, where the weights are non-zero (research §3.2). Both give
  the same TP and matched weight (checked here).

    python benchmarks/bench_score_crux.py [--claims 10000] [--documents 250] [--repeat 3] [--seed 7]
"""

from __future__ import annotations

import argparse
import csv
import datetime
import os
import platform
import random
import sys
import tempfile
import timeit
from pathlib import Path

import numpy as np
from bench_score_ta3 import command_times  # benchmarks/, this script's folder, is on sys.path
from scipy.optimize import linear_sum_assignment

from aifcheck.score.crux.claims import WEIGHTS, comparison_keys, read_claim_file, score_claims
from aifcheck.score.crux.relations import score_relations

EPISTEMIC = ("true-certain", "true-uncertain", "false-certain", "false-uncertain", "unknown")
SENTIMENT = ("negative", "positive", "mixed", "neutral-unknown")
LABELS = ("identical", "support", "refute", "related", "supported_by", "refuted_by")


def _claim(rng: random.Random, document: int, number: int) -> list[str]:
    topic = rng.randrange(3)
    return [
        f"DOC{document:04d}",
        f"CL{document:04d}.{number:04d}",
        f"topic {topic}",
        f"template {topic}.{rng.randrange(4)}",
        f"x {rng.randrange(12)}",
        f"claimer {rng.randrange(8)}",
        rng.choice(EPISTEMIC),
        rng.choice(("EMPTY_NA", "WHO", "CDC;WHO", "Mayo Clinic")),
        rng.choice(SENTIMENT),
        rng.choice(("EMPTY_NA", "on 2020-04-04Txx:xx:xx", "before 2020-03-xxTxx:xx:xx")),
        rng.choice(("EMPTY_NA", "Geneva", "Loudoun County")),
        rng.choice(("EMPTY_NA", "CNN", "Twitter")),
    ]


def generate(root: Path, claims: int, documents: int, seed: int) -> dict[str, Path]:
    """Gold claim frames and relations, and a system that drops, changes and adds some."""
    rng = random.Random(seed)
    gold = [_claim(rng, rng.randrange(documents), n) for n in range(claims)]
    system = []
    for frame in gold:
        if rng.random() < 0.1:
            continue  # missed
        frame = list(frame)
        for column in rng.sample(range(4, 12), rng.randrange(3)):  # some fields differ
            frame[column] = _claim(rng, 0, 0)[column]
        system.append(frame)
    system += [_claim(rng, rng.randrange(documents), claims + n) for n in range(claims // 10)]  # spurious
    rng.shuffle(system)
    ids = [frame[1] for frame in gold]
    gold_relations = [(rng.choice(ids), rng.choice(LABELS[:4]), rng.choice(ids)) for _ in range(claims)]
    system_relations = [
        (a, rng.choice(LABELS) if rng.random() < 0.3 else label, b)
        for a, label, b in gold_relations
        if rng.random() < 0.9
    ]
    paths = {name: root / f"{name}.tab" for name in ("gold", "system", "gold_relations", "system_relations")}
    for name, rows in (
        ("gold", gold),
        ("system", system),
        ("gold_relations", gold_relations),
        ("system_relations", system_relations),
    ):
        paths[name].write_text("".join("\t".join(row) + "\n" for row in rows), encoding="utf-8")
    return paths


def floor(*paths: Path) -> None:
    for path in paths:
        with open(path, encoding="utf-8", newline="") as handle:
            list(csv.reader(handle, delimiter="\t", quoting=csv.QUOTE_NONE))


def per_document(system: Path, gold: Path) -> tuple[int, int]:
    """TP and matched weight with one assignment per document over all its frames."""
    ours, theirs = read_claim_file(system), read_claim_file(gold, gold=True)
    by_document: dict[str, tuple[list, list]] = {}
    for side, claims in enumerate((ours.claims, theirs.claims)):
        for claim in claims:
            by_document.setdefault(claim.document, ([], []))[side].append(comparison_keys(claim, frozenset()))
    pairs = total = 0
    for found, wanted in by_document.values():
        if not found or not wanted:
            continue
        weights = np.array([[_eq1(s, g) for g in wanted] for s in found], dtype=float)
        rows, columns = linear_sum_assignment(weights, maximize=True)
        matched = weights[rows, columns]
        pairs += int((matched > 0).sum())
        total += int(matched.sum())
    return pairs, total


def _eq1(system: dict, gold: dict) -> int:
    if any(system[f] != gold[f] for f in ("topic", "claim_template", "x_variable")):
        return 0
    return sum(w for f, w in WEIGHTS.items() if system[f] == gold[f])


def best(repeat: int, work) -> float:
    """The fastest of ``repeat`` runs of ``work``, in seconds."""
    return min(timeit.repeat(work, number=1, repeat=repeat))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--claims", type=int, default=10_000, help="gold claim frames and gold relations (default 10,000)"
    )
    parser.add_argument("--documents", type=int, default=250, help="documents (default 250, as CRUX 2023)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        p = generate(Path(tmp), args.claims, args.documents, args.seed)
        command = [sys.executable, "-m", "aifcheck", "score"]
        scores = score_claims(p["system"], p["gold"])
        claims_api = best(args.repeat, lambda: score_claims(p["system"], p["gold"]))
        claims_cli = min(
            command_times([*command, "crux-claims", str(p["system"]), "--gold", str(p["gold"]), "--format", "json"])
            for _ in range(args.repeat)
        )
        claims_floor = best(args.repeat, lambda: floor(p["system"], p["gold"]))
        naive = best(1, lambda: per_document(p["system"], p["gold"]))
        pairs, weight = per_document(p["system"], p["gold"])
        assert pairs == scores.true_positives and weight == round(scores.accuracy * 100 * pairs)
        relations_api = best(args.repeat, lambda: score_relations(p["system_relations"], p["gold_relations"]))
        relations_cli = min(
            command_times([*command, "crux-relations", str(p["system_relations"]), "--gold", str(p["gold_relations"])])
            for _ in range(args.repeat)
        )
        relations_floor = best(args.repeat, lambda: floor(p["system_relations"], p["gold_relations"]))
        lines = {name: len(path.read_text(encoding="utf-8").splitlines()) for name, path in p.items()}
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"{datetime.date.today()}  {platform.machine()}  {os.cpu_count()} cores  "
        f"Python {platform.python_version()}  load {load:.1f}"
    )
    print(
        "| task | lines (system / gold) | aifcheck API s | aifcheck command s (CPU s) | floor (csv read) s "
        "| one matching per document s |"
    )
    print("| --- | --- | ---: | ---: | ---: | ---: |")
    print(
        f"| crux-claims | {lines['system']} / {lines['gold']} | {claims_api:.2f} "
        f"| {claims_cli[0]:.2f} ({claims_cli[1]:.2f}) "
        f"| {claims_floor:.3f} | {naive:.2f} ({naive / claims_api:.1f}x aifcheck API) |"
    )
    print(
        f"| crux-relations | {lines['system_relations']} / {lines['gold_relations']} | {relations_api:.2f} "
        f"| {relations_cli[0]:.2f} ({relations_cli[1]:.2f}) | {relations_floor:.3f} | |"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
