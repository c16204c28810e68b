"""--scheduler: files checked on the workers of a Dask cluster give the report --jobs 1 gives, in
the same order, even when a worker dies in the middle of the run; a file that kills its workers or
hangs is tried once more, then reported as unreadable, and the run goes on.

A LocalCluster of 2 worker processes on localhost stands for a real one (`dask scheduler`,
`dask worker ADDRESS`); its workers start in this process's folder, so the inputs are given
relative to another one, which the workers can reach only through the absolute paths sent them.
"""

from __future__ import annotations

import gzip
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import FIXTURES, ROOT, TEST_DATA, installed

from aifcheck.render.tables import write_nist_layout
from aifcheck.spread import cluster
from aifcheck.spread.parallel import Spread
from aifcheck.validation.report import FileError, FileReport
from aifcheck.validation.run import Options, validate_file, validate_paths

SLOW_TRIPLES = 60_000  # a document that takes seconds to check: time to kill its worker


@pytest.fixture(scope="module")
def distributed():
    module = pytest.importorskip("distributed", reason="Dask is not installed: pip install 'aifcheck[cluster]'")
    import cloudpickle

    cloudpickle.register_pickle_by_value(sys.modules[__name__])  # the workers cannot import this test module
    return module


@pytest.fixture(scope="module")
def scheduler(distributed):
    """The address of a local cluster of 2 single-threaded worker processes, each under a nanny
    that restarts it when it dies (as `dask worker` does)."""
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as local:
        yield local.scheduler_address


@pytest.fixture
def watcher(distributed, scheduler):
    """A client of the test's own, to see and kill the workers; all workers are back after each test."""
    with distributed.Client(scheduler, set_as_default=False) as client:
        client.wait_for_workers(2, timeout=60)
        yield client
        client.wait_for_workers(2, timeout=60)


@pytest.fixture(scope="module")
def inputs(tmp_path_factory) -> Path:
    """A folder of valid, invalid and broken files: every way a file can come out of a run."""
    folder = tmp_path_factory.mktemp("cluster") / "inputs"
    shutil.copytree(ROOT / "examples", folder / "examples")
    shutil.copytree(FIXTURES / "N4", folder / "N4")
    (folder / "broken.ttl").write_text("@prefix ex: <http://e/> .\nex:a ex:b ex:c ex:d .\n", encoding="utf-8")
    (folder / "empty.ttl").write_bytes(b"")
    (folder / "n4.ttl.gz").write_bytes(gzip.compress((FIXTURES / "N4" / "bad.ttl").read_bytes()))
    # findings on relative IRIs, which resolve against the file's own IRI wherever a worker reads it
    text = (FIXTURES / "N4" / "bad.ttl").read_text(encoding="utf-8")
    (folder / "relative.ttl").write_text(re.sub(r"@prefix ex: <[^>]*>", "@prefix ex: <#>", text), encoding="utf-8")
    return folder


def relative(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder.parent)) for p in folder.rglob("*") if p.is_file())


def without_times(reports: list[FileReport]) -> list[FileReport]:
    for report in reports:
        report.seconds = 0.0
    return reports


def findings(proc: subprocess.CompletedProcess) -> tuple[int, list[str]]:
    """The exit status and the lines of a validate run, but the summary's time."""
    lines = proc.stdout.splitlines()
    return proc.returncode, [*lines[:-1], lines[-1].rsplit(" (", 1)[0]]


@pytest.mark.parametrize("ship_files", [False, True], ids=["shared paths", "shipped bytes"])
def test_the_report_is_the_one_of_jobs_1(scheduler, inputs: Path, monkeypatch, ship_files: bool) -> None:
    monkeypatch.chdir(inputs.parent)
    files = relative(inputs)
    alone = validate_paths(files, Options(min_severity="info"))
    spread = validate_paths(files, Options(min_severity="info", scheduler=scheduler, ship_files=ship_files))
    assert [f.file for f in spread.files] == files
    assert without_times(spread.files) == without_times(alone.files)
    assert {f.file for f in alone.files if not f.readable} == {"inputs/broken.ttl", "inputs/empty.ttl"}
    relative_iris = next(f for f in spread.files if f.file == "inputs/relative.ttl").violations
    assert relative_iris and relative_iris[0].focus == f"<{(inputs / 'relative.ttl').as_uri()}#cluster-1>"
    assert any(f.violations for f in alone.files) and spread.exit_status == alone.exit_status


@pytest.mark.parametrize("ship_files", [[], ["--ship-files"]], ids=["shared paths", "shipped bytes"])
def test_the_installed_command_prints_what_jobs_1_prints(scheduler, inputs: Path, ship_files: list[str]) -> None:
    alone = installed("validate", "inputs", "--severity", "info", cwd=inputs.parent)
    spread = installed(
        "validate", "inputs", "--severity", "info", "--scheduler", scheduler, *ship_files, cwd=inputs.parent
    )
    assert findings(spread) == findings(alone) and alone.returncode == 1
    assert "inputs/broken.ttl:2:16: syntax error" in spread.stdout


def test_standard_input_travels_to_the_workers(scheduler, inputs: Path) -> None:
    text = (FIXTURES / "N4" / "bad.ttl").read_text(encoding="utf-8")
    alone = installed("validate", "inputs/N4/good.ttl", "-", input=text, cwd=inputs.parent)
    spread = installed("validate", "inputs/N4/good.ttl", "-", "--scheduler", scheduler, input=text, cwd=inputs.parent)
    assert findings(spread) == findings(alone) and spread.stdout.startswith("-:")


def test_the_query_tables_are_the_ones_of_jobs_1(scheduler, inputs: Path, tmp_path: Path) -> None:
    every = relative(inputs)
    readable = [f for f in every if not f.endswith(("broken.ttl", "empty.ttl"))]
    layout = ("query", "--task", "ta1", "--nist-layout", "-o")
    alone = installed(*layout, tmp_path / "alone", *readable, cwd=inputs.parent)
    failed = installed(*layout, tmp_path / "failed", *every, cwd=inputs.parent)
    assert alone.returncode == 0 and failed.returncode == 3, (alone.stderr, failed.stderr)
    for name, extra in (("shared", []), ("shipped", ["--ship-files"])):
        out = tmp_path / name
        spread = installed(*layout, out, *readable, "--scheduler", scheduler, *extra, cwd=inputs.parent)
        assert spread.returncode == 0, spread.stderr
        tables = sorted(p.relative_to(out) for p in out.rglob("*.tsv"))
        assert (
            tables == sorted(p.relative_to(tmp_path / "alone") for p in (tmp_path / "alone").rglob("*.tsv")) and tables
        )
        assert all((out / t).read_bytes() == (tmp_path / "alone" / t).read_bytes() for t in tables)
        # a file that cannot be read: the same errors, and nothing written (a stage's output is whole)
        broken = installed(
            *layout, tmp_path / f"{name}-failed", *every, "--scheduler", scheduler, *extra, cwd=inputs.parent
        )
        assert (broken.returncode, broken.stderr) == (3, failed.stderr)
        assert not (tmp_path / f"{name}-failed").exists() and not (tmp_path / "failed").exists()


@pytest.mark.parametrize("spread", [["--jobs", "2"], ["--scheduler"]], ids=["jobs 2", "cluster"])
def test_a_submission_is_linted_as_with_jobs_1(scheduler, spread: list[str]) -> None:
    submission = TEST_DATA / "submission"
    args = ["lint-submission", submission / "run", "--condition", "5", "--queries", submission / "queries"]
    alone = installed(*args, cwd=ROOT)
    spread_args = [*spread, scheduler] if spread == ["--scheduler"] else spread
    spread_run = installed(*args, *spread_args, cwd=ROOT)
    assert findings(spread_run) == findings(alone) and alone.returncode == 0 and "5 files" in alone.stdout


@pytest.mark.parametrize(
    "spread", [["--jobs", "2"], ["--scheduler"], ["--ship-files", "--scheduler"]], ids=["jobs 2", "cluster", "shipped"]
)
def test_a_ta1_run_scores_as_with_jobs_1(scheduler, shared_data: Path, tmp_path: Path, spread: list[str]) -> None:
    # shared: the workers run every stage of each document; shipped: they query the KBs, the rest runs here
    args = [
        "score",
        "ta1",
        shared_data / "task1-run",
        "--gold",
        shared_data / "ta1-gold-tsv",
        "--aux",
        shared_data / "ta1-scoring" / "AUX-data",
    ]
    alone = installed(*args, "-o", tmp_path / "alone", cwd=ROOT)
    spread_args = [*spread, scheduler] if "--scheduler" in spread else spread
    spread_run = installed(*args, "-o", tmp_path / "spread", *spread_args, cwd=ROOT)
    assert (spread_run.returncode, spread_run.stdout) == (
        alone.returncode,
        alone.stdout,
    ) and "FrameMetric" in alone.stdout
    files = sorted(p.relative_to(tmp_path / "alone") for p in (tmp_path / "alone").rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(tmp_path / "spread") for p in (tmp_path / "spread").rglob("*") if p.is_file())
    assert len([f for f in files if f.parts[0] == "scores"]) == 24 and any(f.parts[0] == "similarities" for f in files)
    for name in files:  # every file NIST writes, the logs without their times
        alone, spread_file = ((tmp_path / side / name).read_text() for side in ("alone", "spread"))
        if name.parts[0] == "logs":
            alone, spread_file = (re.sub(r"^\S+ \S+ [AP]M - ", "", text, flags=re.M) for text in (alone, spread_file))
        assert spread_file == alone.replace(str(tmp_path / "alone"), str(tmp_path / "spread")), name


def test_a_core_document_with_neither_kb_nor_gold_scores_as_with_jobs_1(
    scheduler, shared_data: Path, tmp_path: Path
) -> None:
    # its task gets the gold folder as its path: a folder every worker can read, as its own is missing
    gold = tmp_path / "gold"
    shutil.copytree(shared_data / "ta1-gold-tsv", gold)
    submitted = {p.stem for p in (shared_data / "task1-run").glob("*.ttl")}
    gone = next(p for p in sorted(gold.iterdir()) if p.stem not in submitted)
    shutil.rmtree(gone)
    args = [
        "score",
        "ta1",
        shared_data / "task1-run",
        "--gold",
        gold,
        "--aux",
        shared_data / "ta1-scoring" / "AUX-data",
    ]
    alone = installed(*args, "-o", tmp_path / "alone", cwd=ROOT)
    spread = installed(*args, "-o", tmp_path / "spread", "--scheduler", scheduler, cwd=ROOT)
    assert (spread.returncode, spread.stdout) == (alone.returncode, alone.stdout) and "FrameMetric" in alone.stdout, (
        spread.stderr
    )
    coreference = Path("scores") / "CoreferenceMetric-scores.tab"
    assert gone.stem in (tmp_path / "alone" / coreference).read_text()  # scored, at 0
    assert (tmp_path / "spread" / coreference).read_text() == (tmp_path / "alone" / coreference).read_text()


def test_a_worker_killed_mid_run_changes_nothing(scheduler, watcher, inputs: Path, tmp_path: Path) -> None:
    slow = tmp_path / "slow" / "a-slow.ttl"  # the first file: it starts at once, and runs for seconds
    slow.parent.mkdir()
    subprocess.run(
        [sys.executable, ROOT / "benchmarks" / "generate_aif.py", "--triples", str(SLOW_TRIPLES), slow],
        check=True,
        capture_output=True,
    )
    args = [slow, *relative(inputs)]
    alone = installed("validate", *args, cwd=inputs.parent)
    run = subprocess.Popen(
        [sys.executable, "-m", "aifcheck", "validate", *map(str, args), "--scheduler", scheduler],
        cwd=inputs.parent,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    worker = _worker_running(watcher, "-0-0")  # file 0, first try
    time.sleep(0.5)
    pid = watcher.run(os.getpid, workers=[worker])[worker]
    os.kill(pid, signal.SIGKILL)
    out, err = run.communicate(timeout=240)
    assert findings(subprocess.CompletedProcess(run.args, run.returncode, out, err)) == findings(alone)
    gone = [e for _, e in watcher.get_events("all") if e.get("action") == "remove-worker" and e.get("worker") == worker]
    assert any(key.endswith("-0-0") for e in gone for key in e["processing-tasks"]), "the kill missed the slow file"


def _worker_running(client, key_end: str) -> str:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        for worker, keys in client.processing().items():
            if any(str(key).endswith(key_end) for key in keys):
                return worker
        time.sleep(0.05)
    raise AssertionError(f"no worker took the task *{key_end}")


# -- failures, through the backend with stand-ins for a file that crashes or hangs its worker ----


def check_or_fail(path: str, opts: Options, doom: str, mark: str) -> FileReport:
    """validate_file, unless this file is doomed: "die" kills its worker (once, if ``mark`` names a
    file to leave behind; else every time), "hang" never ends, "slow" takes a second more; "quick"
    checks nothing (on a freshly restarted worker, only the hanging file may be slow)."""
    if doom == "die" and not (mark and os.path.exists(mark)):
        if mark:
            Path(mark).touch()
        time.sleep(0.3)  # as a crash while parsing: after the worker said it started
        os._exit(1)
    if doom in ("hang", "slow"):
        time.sleep(3600 if doom == "hang" else 1)
    return FileReport(path) if doom == "quick" else validate_file(path, opts, threads=1)


def lost(path: str, reason: str) -> FileReport:
    return FileReport(path, error=FileError(path, f"{path}: {reason}"))


def _run(
    scheduler: str, files: list[str], dooms: dict[str, str], mark: str = "", timeout: float | None = None
) -> list[FileReport]:
    args = [(Options(), dooms.get(f, ""), mark) for f in files]
    return without_times(list(cluster.map_files(check_or_fail, files, args, lost, scheduler, file_timeout=timeout)))


def test_a_file_whose_worker_dies_once_is_checked_again(scheduler, watcher, inputs: Path, tmp_path: Path) -> None:
    files = [str(p) for p in sorted((inputs / "N4").glob("*.ttl"))]
    alone = without_times([validate_file(f, Options()) for f in files])
    assert _run(scheduler, files, {files[1]: "die"}, mark=str(tmp_path / "died")) == alone
    assert (tmp_path / "died").exists()


def test_a_file_that_kills_its_worker_twice_is_unreadable_and_the_run_goes_on(scheduler, watcher, inputs: Path) -> None:
    files = [str(p) for p in sorted((inputs / "N4").glob("*.ttl"))]
    alone = without_times([validate_file(f, Options()) for f in files])
    spread = _run(scheduler, files, {files[1]: "die"})
    assert spread[:1] + spread[2:] == alone[:1] + alone[2:]
    assert spread[1].error.message.startswith(
        f"{files[1]}: the Dask worker checking it died, twice (the last was tcp://"
    )


def test_a_file_that_hangs_is_tried_again_then_unreadable(scheduler, watcher, inputs: Path) -> None:
    files = [str(p) for p in sorted((inputs / "N4").glob("*.ttl"))]
    started = time.monotonic()
    spread = _run(scheduler, files, {f: "hang" if f == files[2] else "quick" for f in files}, timeout=2)
    assert spread[:2] + spread[3:] == [FileReport(f) for f in files[:2] + files[3:]]
    assert spread[2].error.message == f"{files[2]}: no result within --file-timeout 2 s on a Dask worker, twice"
    assert time.monotonic() - started < 60  # two timeouts, and the restart of the second hung worker


def test_a_file_the_workers_cannot_see_is_unreadable(scheduler, watcher, tmp_path: Path) -> None:
    gone = tmp_path / "only-here.ttl"  # as a file on a disk the workers do not mount
    [report] = _run(scheduler, [str(gone)], {})
    expected = (
        rf"{re.escape(str(gone))}: cannot read {re.escape(str(gone))} on the Dask worker tcp://127\.0\.0\.1:\d+: "
        r"No such file or directory \(without --ship-files every worker must see the files at the same path\)"
    )
    assert re.fullmatch(expected, report.error.message), report.error.message


def test_a_scheduler_lost_mid_run_is_one_error(distributed, inputs: Path) -> None:
    files = [str(p) for p in sorted((inputs / "N4").glob("*.ttl"))]
    doomed = distributed.LocalCluster(n_workers=1, threads_per_worker=1, dashboard_address=":0")
    run = cluster.map_files(
        check_or_fail, files, [(Options(), "slow", "")] * len(files), lost, doomed.scheduler_address
    )
    next(run)  # the run is under way
    doomed.close()
    with pytest.raises(
        cluster.ClusterError, match=f"lost the Dask scheduler at {doomed.scheduler_address} in the middle of the run"
    ):
        list(run)


# -- usage -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--ship-files"], "--ship-files goes with --scheduler"),
        (["--file-timeout", "5"], "--file-timeout goes with --scheduler"),
        (["--scheduler", "tcp://127.0.0.1:8786", "--file-timeout", "0"], "--file-timeout must be more than 0 seconds"),
        (["--scheduler", "tcp://127.0.0.1:8786", "--jobs", "2"], "give --jobs or --scheduler, not both"),
        (["--scheduler", "nonsense"], "--scheduler nonsense: no Dask scheduler answers there (missing port number"),
    ],
)
def test_a_wrong_cluster_option_is_one_line_and_exit_2(args: list[str], message: str) -> None:
    proc = installed("validate", FIXTURES / "N4" / "good.ttl", *args, cwd=ROOT)
    assert proc.returncode == 2 and message in proc.stderr and proc.stderr.count("\n") == 1, proc.stderr


def test_without_dask_the_scheduler_option_is_one_line_and_exit_2(tmp_path: Path) -> None:
    fake = tmp_path / "distributed"  # shadows an installed Dask, as if it were not there
    fake.mkdir()
    (fake / "__init__.py").write_text("raise ImportError(\"No module named 'distributed'\")\n", encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    proc = installed("validate", FIXTURES / "N4" / "good.ttl", "--scheduler", "tcp://127.0.0.1:8786", cwd=ROOT, env=env)
    assert (
        proc.returncode == 2
        and proc.stderr == "aifcheck: error: --scheduler needs Dask: pip install 'aifcheck[cluster]'\n"
    )


def test_the_query_takes_the_cluster_options_with_the_nist_layout_only() -> None:
    proc = installed(
        "query", FIXTURES / "N4" / "good.ttl", "--table", "AIDA_P3_TA1_CM_A0001", "--scheduler", "tcp://x:1", cwd=ROOT
    )
    assert proc.returncode == 2 and "--scheduler, --ship-files and --file-timeout go with --nist-layout" in proc.stderr
    with pytest.raises(Exception, match="--ship-files goes with --scheduler"):
        write_nist_layout([FIXTURES / "N4" / "good.ttl"], "ta1", ROOT / "never-written", spread=Spread(ship_files=True))
