"""Hostile input (issue 21's findings, one test each): one loader gives one verdict in every
command, memory stays bounded, temporary stores never outlive a run, an unreadable file never
conforms, and every message says what is wrong in one clean line. The fuzzing harness (tests/fuzz)
covers the rest."""

from __future__ import annotations

import faulthandler
import gzip
import os
import re
import resource
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from helpers import FIXTURES, installed

import aifcheck
from aifcheck.errors import InputError
from aifcheck.loading.kb import load_kb

HEAD = "@prefix ex: <http://example.org/> .\n"
GOOD = FIXTURES / "N4" / "good.ttl"
SECONDS = re.compile(r"\(\d+\.\d+ s\)")


def run(*args, cwd: Path | None = None, limit_memory: bool = False, **kwargs) -> subprocess.CompletedProcess:
    def two_gigabytes() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (2 * 1024**3, 2 * 1024**3))

    return installed(*args, cwd=cwd, timeout=600, preexec_fn=two_gigabytes if limit_memory else None, **kwargs)


def assert_clean(proc: subprocess.CompletedProcess) -> None:
    assert "Traceback" not in proc.stdout + proc.stderr and "Error:" not in proc.stderr


REFUSED = [  # (statement, column, pyoxigraph's reason): files rdflib used to accept
    ("ex:a ex:b <http://x y> .", 11, "Invalid IRI code point ' '"),
    ("ex:a ex:b <http://x\x01y> .", 11, "Invalid IRI code point '\\x01'"),
    ("ex:a ex:b <http://x{y> .", 11, "Invalid IRI code point '{'"),
    ("ex:a ex:b <http://x|y> .", 11, "Invalid IRI code point '|'"),
    ("ex:a _:b ex:c .", 6, "_:b is not a valid predicate"),
    ('ex:a "lit" ex:c .', 6, '"lit" is not a valid predicate'),
    ('"lit" ex:b ex:c .', 1, '"lit" is not a valid subject'),
]


def test_one_loader_one_verdict_in_every_command(tmp_path: Path) -> None:
    files = []
    for number, (statement, column, reason) in enumerate(REFUSED):
        path = tmp_path / f"bad{number}.ttl"
        path.write_text(HEAD + statement + "\n", encoding="utf-8")
        files.append((path, f"{path}:2:{column}: syntax error: {reason}"))
    paths = [path for path, _ in files]
    for engine in ("fast", "reference"):
        proc = run("validate", *paths, GOOD, "--engine", engine, "--profile", "aif")  # (the verdict is the loader's)
        assert proc.returncode == 3, proc.stdout
        assert (
            f"{len(paths) + 1} files: 1 valid, 0 invalid, {len(paths)} unreadable" in proc.stdout
        )  # the good one checked
        for _, where in files:
            assert any(line.startswith(where) for line in proc.stdout.splitlines()), (engine, where, proc.stdout)
        assert_clean(proc)
    for command in (["claims"], ["query", "--table", "AIDA_P3_TA1_CM_A0001"], ["summary"]):
        proc = run(*command, *paths)
        assert proc.returncode == 3, (command, proc.stderr)
        for _, where in files:
            assert any(line.startswith(where) for line in proc.stderr.splitlines()), (command, where, proc.stderr)
        assert_clean(proc)


def test_a_literal_over_16_mib_is_one_line_in_bounded_memory(tmp_path: Path) -> None:
    big = tmp_path / "big.ttl"
    big.write_text(HEAD + 'ex:a ex:b "' + "x" * (17 * 1024 * 1024) + '" .\n', encoding="utf-8")
    proc = run("validate", big, GOOD, limit_memory=True)
    assert proc.returncode == 3 and f"{big}:2: a literal or IRI longer than 16 MiB" in proc.stdout
    assert_clean(proc)


@pytest.fixture(scope="module")
def bomb(tmp_path_factory) -> Path:
    """400 distinct triples repeated to 96 MiB, gzipped to well under 1 MiB (a ratio far over 64:1)."""
    path = tmp_path_factory.mktemp("bomb") / "bomb.ttl.gz"
    block = "".join(
        f"<http://example.org/s{i}> <http://example.org/p> <http://example.org/o{i}> .\n" for i in range(400)
    )
    with gzip.open(path, "wt", compresslevel=9, encoding="utf-8") as out:
        for _ in range(96 * 1024 * 1024 // len(block)):
            out.write(block)
    return path


def test_a_decompression_bomb_is_refused_in_bounded_memory(bomb: Path) -> None:
    proc = run("validate", bomb, GOOD, limit_memory=True)
    assert proc.returncode == 3 and f"{bomb}: expands more than 64 times (a decompression bomb?)" in proc.stdout
    assert "give --max-size" in proc.stdout and "1 valid" in proc.stdout
    assert_clean(proc)
    capped = run("validate", bomb, "--max-size", "10M", limit_memory=True)
    assert capped.returncode == 3 and "expands to more than --max-size 10.0 MiB" in capped.stdout


def test_max_size_limits_plain_files_too(tmp_path: Path) -> None:
    proc = run("validate", GOOD, "--max-size", "1K")
    assert proc.returncode == 3 and f"{GOOD}: " in proc.stdout and "more than --max-size 1.0 KiB" in proc.stdout
    assert run("validate", GOOD, "--max-size", "lots").returncode == 2


def test_on_disk_stores_are_removed_even_after_a_killed_run(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    dead = tmp_path / "aifcheck-store-999999999-left"  # no such process: a run killed outright
    dead.mkdir()
    alive = tmp_path / f"aifcheck-store-{os.getppid()}-busy"  # another run, still going
    alive.mkdir()
    with load_kb(GOOD, store="disk") as kb:
        assert Path(kb._folder).is_dir() and not dead.exists() and alive.exists()
    assert not list(tmp_path.glob(f"aifcheck-store-{os.getpid()}-*"))


def test_a_run_ended_by_sigterm_removes_its_store(tmp_path: Path) -> None:
    code = (
        "import os, signal, sys, tempfile\n"
        f"tempfile.tempdir = {str(tmp_path)!r}\n"
        "import aifcheck.loading.kb as kb\n"
        f"store = kb.load_kb({str(GOOD)!r}, store='disk')\n"
        "signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # as aifcheck's command line does\n"
        "os.kill(os.getpid(), signal.SIGTERM)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 143 and not list(tmp_path.glob("aifcheck-store-*"))


def test_an_unreadable_file_never_conforms(tmp_path: Path) -> None:
    broken = tmp_path / "broken.ttl"
    broken.write_text(HEAD + "ex:a ex:b .\n", encoding="utf-8")
    report = aifcheck.validate(broken)
    assert not report.conforms and report.exit_status == aifcheck.ExitStatus.UNREADABLE
    assert not aifcheck.validate([broken, GOOD]).conforms and aifcheck.validate(GOOD).conforms


def test_the_same_input_gives_the_same_bytes(tmp_path: Path) -> None:
    # blank nodes alike on one line (the focus text and the line tie): ordered by the message too
    kb = tmp_path / "kb.ttl"
    kb.write_text(
        HEAD + "[ ex:p 1 ] . [ ex:p 2 ] . [ a <https://raw.githubusercontent.com/NextCenturyCorporation/"
        "AIDA-Interchange-Format/master/java/src/main/resources/com/ncc/aif/ontologies/InterchangeOntology#"
        "Confidence> ] .\n",
        encoding="utf-8",
    )
    outputs = {
        SECONDS.sub("", run("validate", kb, FIXTURES / "N4" / "bad.ttl", "--severity", "info", *jobs).stdout)
        for jobs in ([], [], ["--jobs", "2"])
    }
    assert len(outputs) == 1


@pytest.mark.parametrize(
    ("content", "name", "message"),
    [
        (
            (HEAD + "ex:a ex:b ex:c .\n").encode("utf-16"),
            "kb.ttl",
            ": UTF-16 text: RDF files must be UTF-8 (convert it, e.g. with iconv)",
        ),
        (
            (HEAD + 'ex:a ex:b "x\x00y" .\n').encode(),
            "kb.ttl",
            ":2:13: a NUL character (byte 0x00), which RDF text cannot hold",
        ),
        (
            (HEAD + "ex:a ex:b ex:c ; ex:d ex:e .\n").encode(),
            "kb.nt",
            "(the file is Turtle, not N-Triples: name it .ttl)",
        ),
    ],
)
def test_messages_say_what_the_file_is(tmp_path: Path, content: bytes, name: str, message: str) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(InputError) as raised:
        load_kb(path)
    assert str(raised.value).startswith(str(path)) and message in str(raised.value)


def test_an_update_is_refused_by_name(tmp_path: Path) -> None:
    query = tmp_path / "update.rq"
    query.write_text("DELETE WHERE { ?s ?p ?o }", encoding="utf-8")
    proc = run("query", GOOD, "--sparql", query)
    assert proc.returncode == 2 and "SPARQL updates (DELETE) are not allowed" in proc.stderr


def test_a_crashed_worker_costs_only_its_own_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """--jobs 2: a process that dies (a parser's crash, faked here: the pool's processes are forked,
    so they inherit the patch) loses its file only, reported unreadable; the others are checked."""
    from aifcheck.validation import run as validation

    crash = tmp_path / "crash.ttl"
    crash.write_text(GOOD.read_text(encoding="utf-8"), encoding="utf-8")
    real_load = validation.load_kb

    def load(path, *args, **kwargs):
        if path == str(crash):
            faulthandler.disable()  # the crash is meant: no "Fatal Python error" dump in the test output
            os.kill(os.getpid(), signal.SIGSEGV)
        return real_load(path, *args, **kwargs)

    monkeypatch.setattr(validation, "load_kb", load)
    other = tmp_path / "other.ttl"
    other.write_text(GOOD.read_text(encoding="utf-8"), encoding="utf-8")
    files = [str(GOOD), str(crash), str(other)]
    report = aifcheck.validate(files, jobs=2)
    assert [f.file for f in report.files] == files and report.exit_status == 3
    assert [f.error is None for f in report.files] == [True, False, True]
    assert report.files[1].error.message == f"{crash}: the process checking this file crashed: the file cannot be read"
