"""Benchmark: `aifcheck score ta3` against NIST's own TA3 scorer, on a run generated here.

The run has 3 conditions x 20 queries x 100 ranked claims (seeded), with its LDC package
(every pool claim's outer-claim.tab and sidecars, cross_claim_relations.tab), claim-mappings.tab
and queries_to_score. aifcheck scores it through its Python API and through the installed
command. NIST's scorer (python/score_submission.py task3 at a0b379b) runs in its own virtualenv
(--nist-python, default /work/nist-venv/bin/python) on the same kind of run converted to the
layout its docker writes (ARF-output/, SPARQL-AUGMENTED-output/), at the smaller sizes of
--nist-sizes: its time grows with the cube of a list's length (3 x 3 x 20 takes it some 30 s),
so the full size is scored by aifcheck alone. Where both run, the table says whether their
8 metrics' score files are byte for byte the same.

    python benchmarks/bench_score_ta3.py [--queries 20] [--claims 100] [--repeat 3] [--seed 7]

This module also holds the NIST driver that tests/score/fixtures/ta3/build.py uses to record
NIST's own output for every fixture (``nist_scores``): it runs NIST's unmodified code once per
metric, so that a metric that crashes does not hide the others.
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import os
import platform
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
import timeit
from dataclasses import dataclass
from pathlib import Path

from aifcheck.pipeline.ta3.pool import MAPPING_COLUMNS

ROOT = Path(__file__).resolve().parents[1]
NIST_PYTHON_DIR = ROOT.parent / "shared" / "reference" / "nist-aida" / "python"
NIST_PYTHON = Path("/work/nist-venv/bin/python")
METRICS = (
    "NDCGScorerV1",
    "NDCGScorerV2",
    "F1ScorerV1A",
    "F1ScorerV1B",
    "F1ScorerV1C",
    "F1ScorerV2A",
    "F1ScorerV2B",
    "F1ScorerV2C",
)
ALL_METRICS = "all"

# Runs NIST's score_submission.main with ScoresManager limited to the metrics named in argv[1]
# (comma-separated, or "all"); the other arguments are score_submission's own.
_DRIVER = """
import sys
sys.path.insert(0, {nist!r})
import score_submission
from aida.scores_manager import ScoresManager
chosen = sys.argv[1]
if chosen != "all":
    every = ScoresManager.task_metrics["task3"]
    ScoresManager.task_metrics["task3"] = {{m: every[m] for m in chosen.split(",")}}
score_submission.main(sys.argv[2:])
"""


# ------------------------------------------------------------------------------------------
# NIST's scorer on a run in the team layout
# ------------------------------------------------------------------------------------------


def nist_layout(run: Path, responses: Path) -> None:
    """The run (Condition5|6|7/<query>/<query>.ranking.tsv) as NIST's docker leaves it for the
    scorer: rankings under SPARQL-AUGMENTED-output, and per ranked claim an ARF outer claim
    with its two sidecars (the scorer opens them; their content is not used for scoring)."""
    for ranking in sorted(run.glob("Condition[567]/*/*ranking.tsv")):
        condition, query = ranking.parent.parent.name, ranking.parent.name
        target = responses / "SPARQL-AUGMENTED-output" / condition / query
        target.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(ranking, target / ranking.name)
        arf = responses / "ARF-output" / condition / query
        arf.mkdir(parents=True, exist_ok=True)
        for line in ranking.read_text(encoding="utf-8").splitlines():
            claim = line.split("\t")[1]
            (arf / f"{claim}-outer-claim.tab").write_text(
                "claim_id\tcomponent_type\tid\tfieldname\tvalue\tcorrectness\n", encoding="utf-8"
            )
            (arf / f"{claim}-raw-kes.tab").write_text("ClaimID\tJustificationNum\n", encoding="utf-8")
            (arf / f"{claim}-readable-kes.txt").write_text("", encoding="utf-8")


@dataclass(frozen=True)
class NistRun:
    returncode: int
    message: str  # NIST's last line of output when it failed
    seconds: float


def nist_scores(
    run: Path,
    queries_to_score: Path,
    claim_mappings: Path,
    assessments: Path,
    run_id: str,
    scores: Path,
    metrics: str = ALL_METRICS,
    python: Path = NIST_PYTHON,
) -> NistRun:
    """Run NIST's scorer; its score files land in ``scores`` (which must not exist)."""
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        responses = work / "responses"
        nist_layout(run, responses)
        aux = []
        for name in (
            "encodings",
            "core_documents",
            "parent_children",
            "sentence_boundaries",
            "image_boundaries",
            "keyframe_boundaries",
            "video_boundaries",
        ):
            (work / name).write_text("", encoding="utf-8")  # Task 3 only checks that they exist
            aux.append(str(work / name))
        for folder in ("queries", "query_claim_frames"):
            (work / folder).mkdir()
        log_specs = NIST_PYTHON_DIR / "input" / "aux_data" / "log_specifications.txt"
        args = [
            str(python),
            "-c",
            _DRIVER.format(nist=str(NIST_PYTHON_DIR)),
            metrics,
            "task3",
            "-l",
            str(work / "log.txt"),
            str(log_specs),
            *aux,
            str(work / "queries"),
            str(queries_to_score),
            str(work / "query_claim_frames"),
            str(claim_mappings),
            str(assessments),
            str(responses),
            run_id,
            str(work / "assessments_wc"),
            str(scores),
        ]
        start = time.perf_counter()
        done = subprocess.run(args, cwd=work, capture_output=True, text=True)
        seconds = time.perf_counter() - start
        lines = [line for line in (done.stderr + done.stdout).splitlines() if line.strip()]
        failure = next((line for line in lines if "Critical error" in line or "Error" in line), "")
        message = failure or (lines[-1] if lines else "")
    return NistRun(done.returncode, message.strip() if done.returncode else "", seconds)


# ------------------------------------------------------------------------------------------
# A generated run (seeded): 3 conditions x Q queries x N ranked claims, with its LDC package
# ------------------------------------------------------------------------------------------

RUN_ID = "BENCH1"
HEADER = "claim_id\tcomponent_type\tid\tfieldname\tvalue\tcorrectness"
EPISTEMIC = (
    "EpistemicTrueCertain",
    "EpistemicTrueUncertain",
    "EpistemicFalseCertain",
    "EpistemicFalseUncertain",
    "EpistemicUnknown",
)
RELATIONS = ("supported_by", "refuted_by", "related", "identical")


def _frame(rng: random.Random, uid: str, topic: int, default: str = "Correct") -> str:
    """An outer-claim.tab with random values; most claims have correct required fields."""

    def label(p_correct: float) -> str:
        return default if default == "NIL" or rng.random() < p_correct else rng.choice(("Incorrect", "Wrong", "N/A"))

    rows = [
        (uid, "claimTopic", 1, "value", f"topic {topic}", "--"),
        (uid, "claimTemplate", 1, "value", f"template {topic}.{rng.randrange(3)}", label(0.97)),
    ]
    epistemic = rng.choice(EPISTEMIC)
    rows += [(uid, "claimEpistemic", 1, f, epistemic, label(0.97)) for f in ("polarity", "strength")]
    if rng.random() < 0.6:
        sentiment = rng.choice(("SentimentPositive", "SentimentNegative"))
        rows.append((uid, "claimSentiment", 1, "value", sentiment, label(0.9)))
    if rng.random() < 0.5:
        day = datetime.date(2020, 1, 1) + datetime.timedelta(days=rng.randrange(365))
        rows.append((uid, "date", 1, "range", f"({day},{day})-({day},{day})", label(0.9)))
    components = {
        "xVariable": (1, 40),
        "claimer": (1, 15),
        "claimerAffiliation": (rng.randrange(4), 10),
        "claimLocation": (rng.randrange(2), 8),
        "claimMedium": (rng.randrange(2), 5),
    }
    for kind, (count, choices) in components.items():
        for number in range(1, count + 1):
            p = 0.95 if kind in ("xVariable", "claimer") else 0.8
            ec = f"EC_{kind}_{topic}_{rng.randrange(choices)}"
            rows += [
                (uid, kind, number, "name", f"name {ec}", "--"),
                (uid, kind, number, "overallAssessment", "value", label(p)),
                (uid, kind, number, "ec_similarity", "value", default if default == "NIL" else ec),
            ]
    return "\n".join([HEADER, *("\t".join(map(str, r)) for r in rows)])


class _Pool:
    """The pool generate() builds as it goes: the LDC package's claim files, the claim mappings and
    each topic's pooled claims."""

    def __init__(self, rng: random.Random, run: Path, package: Path) -> None:
        self.rng, self.run, self.package = rng, run, package
        self.mappings = ["\t".join(MAPPING_COLUMNS)]  # NIST's claim-mappings.tab header
        self.by_topic: dict[int, list[str]] = {}
        # the pool claims a run claim may share content with: run claims only, as a run that ranks a
        # query claim frame's own content makes NIST's scores depend on the order it computes them in
        self.reusable: dict[int, list[str]] = {}

    def add_claim(self, uid: str, topic: int, folder: str = "system_claims", default: str = "Correct") -> None:
        claims = self.package / folder
        (claims / f"{uid}-outer-claim.tab").write_text(_frame(self.rng, uid, topic, default), encoding="utf-8")
        (claims / f"{uid}-raw-kes.tab").write_text("ClaimID\tJustificationNum\n", encoding="utf-8")
        (claims / f"{uid}-readable-kes.txt").write_text("", encoding="utf-8")
        self.by_topic.setdefault(topic, []).append(uid)

    def ranking(self, condition: str, query_id: str, q: int, topic: int, claims: int) -> None:
        """The run's ranking of ``claims`` claims for one query (empty claim files), each pooled
        unless left unassessed."""
        rng = self.rng
        folder = self.run / condition / query_id
        folder.mkdir(parents=True)
        lines = []
        for rank in range(1, claims + 1):
            claim = f"CL{condition[-1]}{q:03d}.{rank:06d}"
            tag = [rng.choice(("supporting", "refuting", "related"))] if condition == "Condition5" else []
            lines.append("\t".join([query_id, claim, str(rank), *tag]))
            (folder / f"{claim}.ttl").write_text("", encoding="utf-8")
            if rng.random() < 0.05:
                continue  # not assessed
            known = self.reusable.setdefault(topic, [])
            if known and rng.random() < 0.05:
                uid = rng.choice(known)  # the same content as a claim pooled before
            else:
                uid = f"{hashlib.md5(claim.encode()).hexdigest()}"
                self.add_claim(uid, topic)
                known.append(uid)
            self.mappings.append(f"{uid}\t{condition}\t{query_id}\tontopic\t{rank}\t{claim}\t{RUN_ID}\truns\tFalse")
        (folder / f"{query_id}.ranking.tsv").write_text("\n".join(lines) + "\n", encoding="utf-8")


def generate(root: Path, queries: int, claims: int, seed: int) -> dict[str, Path]:
    """Write the run, the LDC package and NIST's two tables under ``root``; returns their paths."""
    rng = random.Random(seed)
    run, package = root / RUN_ID, root / "LDC" / "data" / "TA3"
    for folder in ("system_claims", "ldc_claims"):
        (package / folder).mkdir(parents=True)
    lists = ("ontopic", "supporting", "refuting", "related", "nonrefuting", "nonsupporting")
    depths = ",".join(f"{r}:30" for r in lists)
    table = ["query_id\tcondition\ttopic_id\tdepth"]
    relations = ["query_claim_id\tsystem_claim_id\trelation"]
    pool = _Pool(rng, run, package)
    for q in range(queries):
        topic = q
        # Condition 7 queries share the topic ID of the others: with a topic of its own a
        # Condition 7 query has no truth, and NIST's ALL-Macro then divides by zero
        for condition, query_id, topic_id in (
            ("Condition5", f"Q{q:03d}", f"T{topic:03d}"),
            ("Condition6", f"T{topic:03d}", f"T{topic:03d}"),
            ("Condition7", f"C{q:03d}", f"T{topic:03d}"),
        ):
            table.append(f"{query_id}\t{condition}\t{topic_id}\t{depths}")
            if condition == "Condition5":
                qcf = f"qcf{q:03d}"
                pool.add_claim(qcf, topic)
                pool.mappings.append(
                    f"{qcf}\tCondition5\t{query_id}\tontopic\t1\t{query_id}\tquery_claim_frames\tq\tFalse"
                )
            pool.ranking(condition, query_id, q, topic, claims)
        for k in range(3):  # LDC's own claims: every NIL judgement counts as Correct
            uid = f"ldc{q:03d}{k}"
            pool.add_claim(uid, topic, "ldc_claims", "NIL")
            pool.mappings.append(f"{uid}\tCondition5\tQ{q:03d}\tontopic\t1\t{uid}\tLDC\tldc\tFalse")
        for uid in sorted(set(pool.by_topic[topic])):
            relations.append(f"Q{q:03d}\t{uid}\t{rng.choices(RELATIONS, (3, 2, 4, 1))[0]}")
    mappings = pool.mappings
    paths = {
        "run": run,
        "queries": root / "queries_to_score.tab",
        "mappings": root / "claim-mappings.tab",
        "assessments": root / "LDC",
    }
    paths["queries"].write_text("\n".join(table) + "\n", encoding="utf-8")
    paths["mappings"].write_text("\n".join(mappings) + "\n", encoding="utf-8")
    (package / "cross_claim_relations.tab").write_text("\n".join(relations) + "\n", encoding="utf-8")
    return paths


# ------------------------------------------------------------------------------------------
# The benchmark
# ------------------------------------------------------------------------------------------


def command_times(command: list[str]) -> tuple[float, float]:
    """Wall-clock and CPU (user + system) seconds of a command: on a busy machine the CPU time
    is what the command itself costs."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def measure(root: Path, queries: int, claims: int, seed: int, repeat: int, nist: Path | None) -> dict[str, object]:
    from aifcheck.render.ta3.scores import write_score_files
    from aifcheck.score.ta3.scorer import score_ta3

    paths = generate(root, queries, claims, seed)
    inputs = (paths["run"], paths["queries"], paths["mappings"], paths["assessments"])
    api = min(timeit.repeat(lambda: score_ta3(*inputs), number=1, repeat=repeat))
    ours = root / "ours"
    command = [
        sys.executable,
        "-m",
        "aifcheck",
        "score",
        "ta3",
        str(paths["run"]),
        "--queries-to-score",
        str(paths["queries"]),
        "--claim-mappings",
        str(paths["mappings"]),
        "--assessments",
        str(paths["assessments"]),
        "-o",
        str(ours),
    ]
    cli, cpu = min(command_times(command) for _ in range(repeat))
    pool = sum(1 for _ in (paths["assessments"] / "data" / "TA3").glob("*/*-outer-claim.tab"))
    row: dict[str, object] = {"run": f"3 x {queries} x {claims}", "pool": pool, "api": api, "cli": cli, "cpu": cpu}
    if nist is not None:
        done = nist_scores(*inputs, RUN_ID, root / "nist", python=nist)
        row["nist"] = done.seconds if done.returncode == 0 else f"failed: {done.message}"
        if done.returncode == 0:
            write_score_files(score_ta3(*inputs), ours)
            same = all((root / "nist" / f.name).read_bytes() == f.read_bytes() for f in (ours / "scores").iterdir())
            row["same"] = "yes (16 files)" if same else "NO"
    return row


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=20, help="queries per condition (default 20)")
    parser.add_argument("--claims", type=int, default=100, help="ranked claims per query (default 100)")
    parser.add_argument(
        "--nist-sizes",
        default="2x10,2x20,3x20",
        help="smaller runs (queries x claims) also scored by NIST's code, whose time grows "
        "with the cube of the list length (default 2x10,2x20,3x20)",
    )
    parser.add_argument("--nist-python", type=Path, default=NIST_PYTHON, help="python of NIST's virtualenv")
    parser.add_argument("--repeat", type=int, default=3, help="aifcheck runs per size; the best is reported")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    nist = args.nist_python if args.nist_python.exists() else None
    sizes = [tuple(map(int, s.split("x"))) for s in args.nist_sizes.split(",") if s] if nist else []
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for k, (queries, claims) in enumerate([*sizes, (args.queries, args.claims)]):
            big = k == len(sizes)
            rows.append(measure(Path(tmp) / str(k), queries, claims, args.seed, args.repeat, None if big else nist))
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"{datetime.date.today()}  {platform.machine()} {platform.processor() or ''}  {os.cpu_count()} cores  "
        f"Python {platform.python_version()}  load {load:.1f}"
    )
    print(
        "| run (conditions x queries x claims) | pool claims | aifcheck API s | aifcheck command s (CPU s) "
        "| NIST s | NIST / command | same files |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: | --- |")
    for row in rows:
        nist_time = row.get("nist", "not run")
        ratio = f"{nist_time / row['cli']:.0f}x" if isinstance(nist_time, float) else ""
        nist_cell = f"{nist_time:.2f}" if isinstance(nist_time, float) else nist_time
        print(
            f"| {row['run']} | {row['pool']} | {row['api']:.2f} | {row['cli']:.2f} ({row['cpu']:.2f}) "
            f"| {nist_cell} | {ratio} "
            f"| {row.get('same', '')} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
