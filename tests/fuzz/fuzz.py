"""The fuzzing campaign, and its command line.

    python tests/fuzz/fuzz.py --cases 10000 --seed 7 --jobs 2   # a campaign: prints the table
    python tests/fuzz/fuzz.py --seed 7 --case 1234 --write DIR  # one case: its recipe, its file
    python tests/fuzz/fuzz.py --large                           # the full-size bomb, the 17 MB literal

Cases go in batches (50 by default). A worker process runs each case of its batch through the
API (oracle.check_api), then the whole batch through the installed command: ``validate --format
json`` (with --jobs 2 on every other batch), ``validate -o``, ``claims``, ``query``, and
``lint-submission`` on a copy of the fixture submission that holds the batch (its ranking file
edited too). Each batch takes the next profile of nist, ta3, aif. The parent
process watches the workers: a case that does not end within --timeout seconds is a hang, a worker
that dies is a crash, and a new worker goes on with the rest of the batch. Everything is written
under a temporary folder, removed at the end unless --keep is given. The exit status is 1 when
anything is wrong, else 0.
"""

from __future__ import annotations

import sys
from pathlib import Path

if __name__ == "__main__":  # run as a script: import the package from tests/, not this file as "fuzz"
    sys.path[0] = str(Path(__file__).resolve().parents[1])

import argparse
import json
import multiprocessing
import os
import random
import resource
import shutil
import signal
import tempfile
import time
from collections import defaultdict
from dataclasses import asdict, dataclass, field
from multiprocessing.connection import Connection, wait

from helpers import TEST_DATA

from aifcheck.loading.paths import RDF_SUFFIXES
from fuzz import hostile
from fuzz.corpus import describe
from fuzz.mutate import case, delete_range, flip_bytes, insert_special, line_edit, truncate
from fuzz.oracle import (
    RUNNING,
    TABLES,
    TRACEBACK,
    Problem,
    Run,
    Snapshot,
    Verdict,
    check_api,
    check_claims_json,
    check_lint,
    check_query,
    check_reports,
    check_validate_json,
    kill_group,
    limit_memory,
    run_command,
)

GiB = 1024**3
KINDS = (  # the table's rows: (problem kind, label)
    ("traceback", "tracebacks"),
    ("hang", "hangs"),
    ("crash", "crashed processes (signal)"),
    ("exit code", "wrong exit codes"),
    ("lost", "files lost (or reported twice)"),
    ("unreadable valid", "unreadable files counted valid"),
    ("verdict", "verdicts that differ (API, loader, command)"),
    ("leak", "messages with internal text"),
    ("unclean", "messages with control or line-break characters"),
    ("rule error", "rules that failed on a file"),
    ("line", "findings on a line the file lacks"),
    ("table", "malformed query tables"),
    ("stderr", "stray stderr lines"),
    ("output", "-o wrote or changed what it must not"),
    ("memory", "commands that ran out of memory (2 GB limit)"),
)


@dataclass(frozen=True)
class Settings:
    seed: int
    cases: int
    batch: int = 50
    timeout: float = 60.0  # seconds one case (or one command on a batch, times 4) may take
    memory_limit: int = 2 * GiB  # address space of each worker and command (RLIMIT_AS)
    shared: bool = True  # mutate ../shared/data/m54 files too, when present
    cli: bool = True  # run each batch through the command too
    first: int = 0  # the first case (a multiple of batch): --start, to run again the batch that showed a problem
    keep: bool = False  # keep each batch's files (else removed once the batch is checked)


@dataclass
class Outcome:
    """What a campaign found."""

    problems: list[tuple[int | None, Problem]] = field(default_factory=list)  # (case, problem)
    api_runs: int = 0
    cli_runs: int = 0
    peak_rss_kb: int = 0
    peak_case: str = ""
    slowest: float = 0.0
    slowest_case: int | None = None
    seconds: float = 0.0

    def count(self, kind: str) -> int:
        return sum(p.kind == kind for _, p in self.problems)

    def memory(self, rss_kb: int, where: str) -> None:
        if rss_kb > self.peak_rss_kb:
            self.peak_rss_kb, self.peak_case = rss_kb, where


# --- the worker --------------------------------------------------------------------------------

PROFILES = ("nist", "ta3", "aif")  # one per batch, in turn: every file goes through every profile's rules


def profile_of(index: int, batch: int = 50) -> str:
    """The profile case ``index`` is checked with: its batch's."""
    return PROFILES[(index // batch) % len(PROFILES)]


def _batch_cases(settings: Settings, number: int) -> range:
    start = number * settings.batch
    return range(start, min(start + settings.batch, settings.first + settings.cases))


def _stop_commands(*_signal: object) -> None:
    """A worker told to stop takes the command it runs down with it (the command has a process
    group of its own, which killing the worker would not reach)."""
    for pid in list(RUNNING):
        kill_group(pid)
    os._exit(1)


def _work(conn: Connection, settings: Settings, root: str) -> None:
    """Run the batches the parent sends, telling it of each step (see the module docstring). Files
    are named relative to their batch's folder, the working folder, as a user names them."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    signal.signal(signal.SIGTERM, _stop_commands)
    limit_memory(settings.memory_limit)
    # what the product prints past Python (a Rust panic's backtrace) goes to a file, not over the table
    with open(Path(root) / f"worker-{os.getpid()}.stderr", "ab") as log:
        os.dup2(log.fileno(), 2)
    while True:
        message = conn.recv()
        if message is None:
            return
        number, skip = message
        folder = Path(root) / f"batch{number:05d}"
        folder.mkdir(exist_ok=True)
        os.chdir(folder)
        names: dict[int, str] = {}
        verdicts: dict[str, Verdict] = {}
        failed: dict[str, set[str]] = defaultdict(set)  # file -> the API calls that raised on it
        for index in _batch_cases(settings, number):
            generated = case(settings.seed, index, settings.shared)
            names[index] = generated.file_name
            Path(generated.file_name).write_bytes(generated.data)
            if index in skip:
                continue
            conn.send(("start", index))
            started = time.perf_counter()
            verdict, problems = check_api(
                generated.file_name, profile_of(index, settings.batch), TABLES[index % len(TABLES)]
            )
            verdicts[generated.file_name] = verdict
            failed[generated.file_name] |= {p.where for p in problems if p.kind == "traceback"}
            rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
            conn.send(("done", index, problems, rss, time.perf_counter() - started))
        problems, runs, rss = _cli_batch(conn, settings, number, folder, names, verdicts, skip, failed)
        os.chdir(root)
        if not settings.keep:
            shutil.rmtree(folder, ignore_errors=True)
        conn.send(("end", number, problems, runs, rss))


# the API call that reads a file as each command does
_API_OF = {
    "validate": "api validate",
    "lint-submission": "api validate",
    "claims": "api claims",
    "query": "api load_kb/run_table",
}


def _cli_batch(
    conn: Connection,
    settings: Settings,
    number: int,
    folder: Path,
    names: dict[int, str],
    verdicts: dict[str, Verdict],
    skip: dict[int, str],
    failed: dict[str, set[str]],
) -> tuple[list[tuple[int | None, Problem]], int, int]:
    """The batch through the command, run in its folder (hung cases left out: they were counted)."""
    if not settings.cli:
        return [], 0, 0
    files = [name for index, name in names.items() if skip.get(index) != "hang"]
    timeout = settings.timeout * 4
    runs: list[Run] = []
    found: list[Problem] = []
    stopped = [names[index] for index, state in skip.items() if state in ("crash", "hang")]

    def command(*args: str) -> Run:
        conn.send(("cli", " ".join(args[:3])))
        run = run_command(args, folder, timeout)
        runs.append(run)
        return run

    def blame(run: Run, problems: list[Problem]) -> None:
        """A run that crashed, hung or ended in a traceback lost every report of the batch: its
        problems are put on the first case that crashes, hangs or raises in the API too, if any."""
        ended = run.returncode is None or run.returncode < 0 or TRACEBACK.search(run.stdout + run.stderr)
        culprits = stopped + [name for name in files if _API_OF[run.args[0]] in failed.get(name, ())]
        found.extend(Problem(p.kind, p.where, culprits[0], p.detail) if ended and culprits else p for p in problems)

    profile = profile_of(number * settings.batch, settings.batch)
    jobs = "2" if number % 2 else "1"  # the process pool too, on every other batch
    run = command("validate", "--format", "json", "--profile", profile, "--jobs", jobs, "--", *files)
    blame(run, check_validate_json(run, files, verdicts))
    before = Snapshot.of(folder)
    report = command("validate", "--profile", profile, "-o", "reports", "--", *files)
    blame(report, check_reports(report, files, folder, "reports", before, run.returncode))
    shutil.rmtree(folder / "reports", ignore_errors=True)
    claims = command("claims", "--format", "json", "--", *files)
    blame(claims, check_claims_json(claims, files, verdicts))
    query = command("query", "--table", TABLES[number % len(TABLES)], "--", *files)
    blame(query, check_query(query, files, verdicts))
    frames = _submission(folder, files, random.Random(f"{settings.seed}/submission/{number}"))
    lint = command(
        "lint-submission", "submission/run", "--condition", "5", "--queries", "submission/queries", "--format", "json"
    )
    blame(lint, check_lint(lint, frames, verdicts))
    shutil.rmtree(folder / "submission", ignore_errors=True)
    by_name = {name: index for index, name in names.items()}
    return [(by_name.get(p.subject), p) for p in found], len(runs), max(r.max_rss_kb for r in runs)


SUBMISSION = TEST_DATA / "submission"
QUERY_FOLDER = "CLQRYA0001.000001"


def _submission(folder: Path, files: list[str], rng: random.Random) -> dict[str, str]:
    """A copy of the fixture TA3 submission with the batch's files as claim frames of its first
    query, and its ranking file edited as the cases are; returns lint's name of each frame."""
    root = folder / "submission"
    shutil.copytree(SUBMISSION, root)
    target = root / "run" / QUERY_FOLDER
    frames = {}
    for name in files:
        if Path(name).name.lower().endswith(RDF_SUFFIXES):  # lint reads RDF files only
            shutil.copy(folder / name, target / name)
            frames[f"submission/run/{QUERY_FOLDER}/{name}"] = name
    ranking = target / f"{QUERY_FOLDER}.ranking.tsv"
    data, _ = rng.choice((flip_bytes, insert_special, delete_range, line_edit, truncate))(rng, ranking.read_bytes(), ())
    ranking.write_bytes(data)
    return frames


# --- the parent --------------------------------------------------------------------------------


class _Worker:
    def __init__(self, settings: Settings, root: str) -> None:
        context = multiprocessing.get_context("fork")
        self.conn, child = context.Pipe()
        self.process = context.Process(target=_work, args=(child, settings, root), daemon=True)
        self.process.start()
        child.close()
        self.batch: int | None = None
        self.step: tuple[str, int | None] = ("idle", None)  # what it is doing: a case, or the command
        self.since = time.monotonic()
        self.skip: dict[int, str] = {}  # cases of its batch not to run again: done, hung or crashed

    def give(self, number: int) -> None:
        self.batch, self.since = number, time.monotonic()
        self.conn.send((number, self.skip))

    def stop(self) -> None:
        if self.process.is_alive():
            self.process.terminate()  # see _stop_commands
            self.process.join(timeout=5)
        if self.process.is_alive():
            self.process.kill()
        self.process.join()


def campaign(settings: Settings, jobs: int = 1, root: Path | None = None, report=None) -> Outcome:
    """Run the cases; ``report(done, total)`` hears of each batch."""
    started = time.perf_counter()
    outcome = Outcome()
    owned = root is None
    work = Path(tempfile.mkdtemp(prefix="aifcheck-fuzz-")) if owned else root
    first = settings.first // settings.batch
    batches = list(range(first, (settings.first + settings.cases + settings.batch - 1) // settings.batch))
    pending = list(reversed(batches))
    workers = [_Worker(settings, str(work)) for _ in range(min(jobs, len(batches)) or 1)]
    done = 0
    try:
        while pending or any(w.batch is not None for w in workers):
            for w in workers:
                if w.batch is None and pending:
                    w.skip = {}
                    w.give(pending.pop())
            ready = wait([w.conn for w in workers if w.batch is not None], timeout=1.0)
            for i, w in enumerate(workers):
                if w.batch is None:
                    continue
                ended, workers[i] = _tend(w, w.conn in ready, settings, str(work), outcome)
                done += ended
                if ended and report is not None:
                    report(done, len(batches))
    finally:
        for w in workers:
            if w.process.is_alive():
                w.conn.send(None)
            w.process.join(timeout=5)
            w.stop()
        if owned:
            shutil.rmtree(work, ignore_errors=True)
    outcome.seconds = time.perf_counter() - started
    return outcome


def _tend(w: _Worker, ready: bool, settings: Settings, root: str, outcome: Outcome) -> tuple[int, _Worker]:
    """A busy worker's message taken (``ready``: it has one, or its end); a worker that died or
    hung replaced. Returns 1 when the worker ended a batch, and the worker to keep."""
    if ready:
        try:
            message = w.conn.recv()
        except (EOFError, OSError):
            message = None
        if message is not None:
            return _handle(w, message, outcome), w
    limit = settings.timeout * (5 if w.step[0] == "cli" else 1)
    dead = not w.process.is_alive() or ready
    if dead or time.monotonic() - w.since > limit:
        return 0, _replace(w, settings, root, outcome, hung=not dead, limit=limit)
    return 0, w


def _handle(w: _Worker, message: tuple, outcome: Outcome) -> int:
    """Take one message of a worker; 1 when it ends a batch."""
    w.since = time.monotonic()
    kind = message[0]
    if kind == "start":
        w.step = ("case", message[1])
    elif kind == "cli":
        w.step = ("cli", None)
    elif kind == "done":
        _, index, problems, rss, seconds = message
        w.skip[index] = "done"
        outcome.api_runs += 1
        outcome.problems += [(index, p) for p in problems]
        outcome.memory(rss, f"worker, after case {index}")
        if seconds > outcome.slowest:
            outcome.slowest, outcome.slowest_case = seconds, index
    elif kind == "end":
        _, number, problems, runs, rss = message
        outcome.problems += problems
        outcome.cli_runs += runs
        outcome.memory(rss, f"command on batch {number}")
        w.batch, w.step = None, ("idle", None)
        return 1
    return 0


def _replace(w: _Worker, settings: Settings, root: str, outcome: Outcome, hung: bool, limit: float) -> _Worker:
    """A worker that hung or died: record it against what it was doing, and start a new one that
    goes on with the rest of its batch."""
    step, index = w.step
    w.stop()
    code = w.process.exitcode
    if step == "case":
        kind, detail = (
            ("hang", f"no end after {limit:.0f} s") if hung else ("crash", f"the process died ({_signal_name(code)})")
        )
        outcome.problems.append((index, Problem(kind, "api", f"case {index}", detail)))
        w.skip[index] = kind
    else:
        kind = "hang" if hung else "crash"
        outcome.problems.append(
            (None, Problem(kind, "worker", f"batch {w.batch}", f"during {step} ({_signal_name(code)})"))
        )
    fresh = _Worker(settings, root)
    if step == "case":
        fresh.skip = w.skip
        fresh.give(w.batch)
    else:  # give up on this batch's command runs
        outcome.problems.append(
            (None, Problem("lost", "worker", f"batch {w.batch}", "the command runs of this batch were not checked"))
        )
    return fresh


def _signal_name(code: int | None) -> str:
    if code is None or code >= 0:
        return f"exit {code}"
    try:
        return f"signal {signal.Signals(-code).name}"
    except ValueError:
        return f"signal {-code}"


def table(settings: Settings, outcome: Outcome, jobs: int) -> str:
    """The campaign's results as a plain table, and one line per distinct problem."""
    rows = [
        ("seed", str(settings.seed)),
        ("cases", f"{settings.cases} from case {settings.first} ({describe(settings.shared)})"),
        ("API checks", f"{outcome.api_runs} files x (validate, load_kb + table, claims, load)"),
        (
            "command runs",
            f"{outcome.cli_runs} (validate --format json, validate -o, claims, query, lint-submission;"
            f" {settings.batch} files each)",
        ),
    ]
    rows += [(label, str(outcome.count(kind))) for kind, label in KINDS]
    limit = f"limit {settings.memory_limit / GiB:.0f} GiB address space"
    peak = f"{outcome.peak_rss_kb / 1024:.0f} MB ({outcome.peak_case}; {limit})"
    rows += [
        ("peak memory (max RSS)", peak),
        ("slowest case (API)", f"{outcome.slowest:.2f} s (case {outcome.slowest_case})"),
        ("time", f"{outcome.seconds:.0f} s with --jobs {jobs}"),
    ]
    width = max(len(label) for label, _ in rows)
    lines = [f"{label:<{width}}  {value}" for label, value in rows]
    groups: dict[str, list[tuple[int | None, Problem]]] = defaultdict(list)
    for index, problem in outcome.problems:
        groups[problem.signature()].append((index, problem))
    if groups:
        lines.append("")
        lines.append(f"{len(groups)} distinct problems (cases, first case, problem [where]):")
        for signature, found in sorted(groups.items(), key=lambda item: -len(item[1])):
            cases = {index for index, _ in found}
            first = min((c for c in cases if c is not None), default="-")
            where = ", ".join(sorted({p.where for _, p in found}))
            lines.append(f"  {len(cases):5d}  case {first:>5}  {signature} [{where}]")
    return "\n".join(lines)


def problems_found(outcome: Outcome) -> bool:
    return bool(outcome.problems) or outcome.peak_rss_kb * 1024 > 2 * GiB


# --- the large inputs --------------------------------------------------------------------------


def large(root: Path, memory_limit: int) -> tuple[str, bool]:
    """The issue's full-size inputs through validate, each under the memory limit: a 2 GiB gzip bomb
    of 400 distinct triples (24 MB, 89:1), the same 2 GiB compressed 17:1 (which no ratio test
    refuses, so it is read whole), and the 17 MB literal. Returns the table, and whether all ended right."""
    inputs = (
        ("bomb-2gib-89to1.ttl.gz", lambda p: hostile.write_bomb(p, 2 * GiB), 3, "decompression bomb"),
        ("big-2gib-17to1.ttl.gz", lambda p: hostile.write_bomb(p, 2 * GiB, period=34_000), frozenset({0, 1}), ""),
        ("literal-17mb.ttl", hostile.write_long_literal, 3, "longer than 16 MiB"),
    )
    lines, right = [], True
    for name, write, want, phrase in inputs:
        path = root / name
        write(path)
        size = path.stat().st_size
        run = run_command(("validate", path.name), root, timeout=3600, memory_limit=memory_limit)
        ok = (
            run.returncode in want if isinstance(want, frozenset) else run.returncode == want
        ) and phrase in run.stdout
        ok = ok and "Traceback" not in run.stdout + run.stderr and run.max_rss_kb * 1024 < memory_limit
        right &= ok
        said = (run.stdout.strip().splitlines() or run.stderr.strip().splitlines() or [""])[0]
        lines.append(
            f"{name:<24} {size / 1e6:9.1f} MB  exit {run.returncode}  {run.seconds:7.1f} s"
            f"  peak {run.max_rss_kb / 1024:6.0f} MB  {'ok' if ok else 'WRONG'}  {said[:120]}"
        )
        path.unlink()
    return "\n".join(lines), right


# --- the command line --------------------------------------------------------------------------


def _size(text: str) -> int:
    units = {"K": 1024, "M": 1024**2, "G": GiB}
    return int(float(text[:-1]) * units[text[-1].upper()]) if text[-1:].upper() in units else int(text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python tests/fuzz/fuzz.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=1000, help="cases to run (default 1000)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--start", type=int, default=0, help="the first case (a multiple of --batch), to run one batch again"
    )
    parser.add_argument("--jobs", "-j", type=int, default=1, help="worker processes")
    parser.add_argument("--batch", type=int, default=50, help="files per command run")
    parser.add_argument(
        "--timeout", type=float, default=60.0, help="seconds a case may take (a batch's command: 4 times that)"
    )
    parser.add_argument("--memory-limit", default="2G", help="address space of each process (default 2G)")
    parser.add_argument("--no-shared", action="store_true", help="leave out ../shared/data/m54")
    parser.add_argument("--api-only", action="store_true", help="skip the command runs")
    parser.add_argument("--keep", type=Path, help="write the cases under this folder and keep them")
    parser.add_argument("--problems", type=Path, help="write every problem found to this file, one JSON object a line")
    parser.add_argument("--case", help="show case N, or cases N-M (with --write DIR: write their files there)")
    parser.add_argument("--write", type=Path, help="with --case: the folder to write the files in")
    parser.add_argument("--large", action="store_true", help="run the full-size bomb and 17 MB literal instead")
    args = parser.parse_args(argv)
    limit = _size(args.memory_limit)
    if args.case is not None:
        first, _, last = args.case.partition("-")
        for index in range(int(first), int(last or first) + 1):
            one = case(args.seed, index, not args.no_shared)
            print(f"{one.describe()} [batch {index // args.batch}: --profile {profile_of(index, args.batch)}]")
            if args.write is not None:
                args.write.mkdir(parents=True, exist_ok=True)
                (args.write / one.file_name).write_bytes(one.data)
        return 0
    if args.large:
        with tempfile.TemporaryDirectory(prefix="aifcheck-fuzz-large-") as folder:
            text, right = large(Path(folder), limit)
        print(text)
        return 0 if right else 1
    if args.start % args.batch:
        parser.error(f"--start must be a multiple of --batch ({args.batch})")
    settings = Settings(
        args.seed,
        args.cases,
        args.batch,
        args.timeout,
        limit,
        not args.no_shared,
        not args.api_only,
        args.start,
        args.keep is not None,
    )
    if args.keep is not None:
        args.keep.mkdir(parents=True, exist_ok=True)
    try:
        outcome = campaign(
            settings,
            args.jobs,
            args.keep,
            report=lambda done, total: print(f"\r{done}/{total} batches", end="", file=sys.stderr, flush=True),
        )
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    print(file=sys.stderr)
    print(table(settings, outcome, args.jobs))
    if args.problems is not None:
        with open(args.problems, "w", encoding="utf-8") as out:
            for index, problem in outcome.problems:
                out.write(json.dumps({"case": index, **asdict(problem)}, ensure_ascii=False) + "\n")
    return 1 if problems_found(outcome) else 0


if __name__ == "__main__":
    sys.exit(main())
