"""Hostile input for every command (issue 36): a seeded campaign over the inputs, outputs and
surroundings of ``score ta1``, ``score ta3``, ``score crux-*``, ``claims``, ``summary``, ``graph``,
``query`` (``--table``, ``--sparql``, ``--nist-layout``), ``lint-submission`` and ``validate``.

    python tests/fuzz/commands.py --cases 200                      # the CI sample (seed 36)
    python tests/fuzz/commands.py --cases 10000 --seed 36 --jobs 2  # the long mode: prints the table
    python tests/fuzz/commands.py --seed 36 --case 1234 --keep      # one case: its recipe, its folder

A case is one command on NIST-shaped fixtures with one thing made hostile: a file it reads
(bytes or cells edited, a cell of 200 KB, a byte that is not UTF-8, emptied; or the file made a
FIFO, a folder, a link to nothing, a link loop, a link to /dev/zero, unreadable, missing, its
folder unreadable), its output (-o onto a file, FILE/sub, a read-only folder, a link loop, a
300-character name, its own input, a full disk, a folder in use by a twin run), its standard
output (/dev/full, closed) or its life (SIGINT or SIGTERM at a random moment). ``case(seed,
index)`` is a pure function. The files a command reads are the ones it opens on the pristine
fixtures (an audit hook lists them), so that every hostile file is one the command reads.

Each case runs in a fork of this process (aifcheck imported once: a case costs its command, not
Python's start), through ``aifcheck.cli.main`` as the installed command runs it, in a session of
its own, its address space capped at 2 GB, without root's power over permissions when this process
is root (see drop_file_powers). What must hold (oracle): no traceback or internal error, no hang (--timeout), no death by
signal, an exit status of README's table; every stderr line one clean line of at most 2,000
characters; an error about a hostile file names it (and its line for an edit of its cells); a
hostile file that is no readable file never passes in silence (exit 0 with no line naming it);
inputs unchanged; an output complete after a success and left as it was after a failure, with no
temporary file or lock left beside it.
"""
from __future__ import annotations

import sys
from pathlib import Path

if __name__ == "__main__":  # run as a script: import the package from tests/, not this file's folder
    sys.path[0] = str(Path(__file__).resolve().parents[1])

import argparse
import os
import random
import re
import resource
import shutil
import signal
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from helpers import FIXTURES, ROOT, SHARED_DATA, TEST_DATA

SEED = 36  # the number
GiB = 1024**3
TIMEOUT = 60.0  # seconds a case may take (score ta1 on the trimmed fixture takes about one)
SCORE_FIXTURES = ROOT / "tests" / "score" / "fixtures"
PACKAGE_DATA = ROOT / "aifcheck" / "pipeline" / "ta1" / "data"


# --- the fixtures: pristine inputs of every command, made once per campaign ----------------------


def _copy(source: Path, target: Path) -> None:
    if source.is_dir():
        shutil.copytree(source, target)
    else:
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)


TA1_DOCUMENTS = ("L0C04960U", "L0C0499MZ")  # NIST's example run: both core documents


def make_base(base: Path) -> None:
    """Every command's inputs under ``base`` (readable by all, as the cases may run as nobody)."""
    example = SHARED_DATA / "ta1-scoring" / "example-task1-run" / "SPARQL-output"
    if example.is_dir():
        for document in TA1_DOCUMENTS:
            _copy(example / f"{document}.ttl", base / "ta1" / "run" / f"{document}.ttl")
            _copy(SHARED_DATA / "ta1-gold-tsv" / f"{document}.ttl", base / "ta1" / "gold" / f"{document}.ttl")
            _copy(SHARED_DATA / "task1-run" / f"{document}.ttl", base / "ta1kb" / "run" / f"{document}.ttl")
        aux = SHARED_DATA / "ta1-scoring" / "AUX-data"
        for name in sorted(p.name for p in aux.iterdir() if not p.name.endswith((".xlsx", "coredocs.txt"))):
            _copy(aux / name, base / "ta1" / "aux" / name)
        # the core documents: the run's two and none else (a core document the run lacks costs a
        # scoring from its gold, of which the fixture keeps only these two)
        (base / "ta1" / "aux" / "LDC2021E11.coredocs-xx.txt").write_text("root_id\n" + "".join(f"{d}\n" for d in TA1_DOCUMENTS))
        _copy(PACKAGE_DATA / "similarity.tsv", base / "ta1" / "similarity.tsv")
        _copy(PACKAGE_DATA / "taggable_types.txt", base / "ta1" / "taggable.txt")
    _copy(SCORE_FIXTURES / "ta3" / "T1", base / "ta3")
    shutil.rmtree(base / "ta3" / "nist", ignore_errors=True)
    for name in ("system.tab", "gold.tab", "system-relations.tab", "gold-relations.tab"):
        _copy(SCORE_FIXTURES / "crux" / name, base / "crux" / name)
    _copy(TEST_DATA / "submission", base / "sub")
    _copy(ROOT / "examples" / "valid" / "document-kb.ttl", base / "kb" / "kb.ttl")
    _copy(TEST_DATA / "submission" / "run" / "CLQRYA0001.000001" / "CLDOCA0001.000001.ttl", base / "kb" / "frame.ttl")
    (base / "q.rq").write_text("PREFIX aida: <https://raw.githubusercontent.com/NextCenturyCorporation/AIDA-Interchange-Format/"
                               "master/java/src/main/resources/com/ncc/aif/ontologies/InterchangeOntology#>\n"
                               "SELECT ?s ?type WHERE { ?s a ?type . OPTIONAL { ?s aida:system ?x } } ORDER BY ?s\n")
    for path in [base, *base.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)
        if os.getuid() == 0:  # owned by another user: a case (root without its powers) can read it, not change it
            os.chown(path, 65534, 65534)


# --- the commands ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Command:
    """One command line on the fixtures: its arguments (``{out}`` stands for its output), the
    fixture folders it reads (linked into each case's folder, or copied when made hostile), and
    its output: a new folder (``folder``), a file, or stdout only (None)."""

    name: str
    args: tuple[str, ...]
    reads: tuple[str, ...]
    output: str | None = None  # "folder" | "file" | "scores" (score ta3's OUT/scores) | "layout" (query --nist-layout)
    out_name: str = "out"
    needs_shared: bool = False
    stdout_ok: tuple[int, ...] = (0,)  # the exit statuses of the pristine run

    def argv(self, out: str) -> list[str]:
        return [a.replace("{out}", out) for a in self.args]


TA1_ARGS = ("score", "ta1", "ta1/run", "--gold", "ta1/gold", "--aux", "ta1/aux", "--type-similarity", "ta1/similarity.tsv",
            "--taggable-types", "ta1/taggable.txt", "--run-id", "fuzz", "-o", "{out}")
TA3_ARGS = ("score", "ta3", "ta3/RUN1", "--queries-to-score", "ta3/queries_to_score.tab", "--claim-mappings",
            "ta3/claim-mappings.tab", "--assessments", "ta3/LDC", "-o", "{out}")
COMMANDS = (
    Command("score ta1", TA1_ARGS, ("ta1",), "folder", needs_shared=True, stdout_ok=(0, 1)),
    Command("score ta1 (KBs)", ("score", "ta1", "ta1kb/run", *TA1_ARGS[3:]), ("ta1", "ta1kb"), "folder", needs_shared=True,
            stdout_ok=(0, 1)),
    Command("score ta3", TA3_ARGS, ("ta3",), "scores"),
    Command("score crux-claims", ("score", "crux-claims", "crux/system.tab", "--gold", "crux/gold.tab", "--format", "json"), ("crux",)),
    Command("score crux-relations", ("score", "crux-relations", "crux/system-relations.tab", "--gold", "crux/gold-relations.tab"), ("crux",)),
    Command("claims", ("claims", "kb/frame.ttl", "kb/kb.ttl", "-o", "{out}"), ("kb",), "file", "claims.tsv"),
    Command("summary", ("summary", "kb"), ("kb",)),
    Command("graph", ("graph", "kb/frame.ttl", "-o", "{out}"), ("kb",), "file", "frame.dot"),
    Command("query --table", ("query", "--table", "AIDA_P3_TA1_CM_A0001", "kb", "-o", "{out}"), ("kb",), "file", "table.tsv"),
    Command("query --sparql", ("query", "--sparql", "q.rq", "kb/kb.ttl"), ("kb", "q.rq")),
    Command("query --nist-layout", ("query", "--task", "ta1", "--nist-layout", "-o", "{out}", "kb/kb.ttl"), ("kb",), "layout"),
    Command("lint-submission", ("lint-submission", "sub/run", "--condition", "5", "--queries", "sub/queries", "--format", "json"),
            ("sub",), stdout_ok=(0, 1)),
    Command("validate", ("validate", "kb", "-o", "{out}"), ("kb",), "layout", stdout_ok=(0, 1)),
)
PARALLEL = ("score ta1", "score ta1 (KBs)", "validate", "query --nist-layout")  # commands with --jobs
WEIGHTS = {"score ta1": 3, "score ta1 (KBs)": 1, "score ta3": 3, "score crux-claims": 2, "score crux-relations": 2,
           "claims": 2, "summary": 1, "graph": 1, "query --table": 1, "query --sparql": 2, "query --nist-layout": 1,
           "lint-submission": 2, "validate": 1}


# --- the cases --------------------------------------------------------------------------------

CONTENT = ("flip bytes", "insert special", "delete range", "line edit", "truncate", "duplicate line", "drop line",
           "add tab", "drop tab", "empty cell", "long cell", "not UTF-8", "CRLF", "BOM", "empty file", "huge number",
           "control characters")
KINDS = ("FIFO", "folder", "dangling link", "link loop", "/dev/zero", "unreadable", "missing", "folder unreadable")
OUTPUTS = ("onto a file", "FILE/sub", "read-only folder", "link loop", "long name", "onto its input", "full disk",
           "not empty", "twin run")
STDOUTS = ("/dev/full", "closed")
SIGNALS = ("SIGINT", "SIGTERM")
SPARQL = ("deep parentheses", "deep groups", "cross product", "update", "service", "junk")


@dataclass(frozen=True)
class Case:
    index: int
    command: Command
    kind: str  # content | kind | output | stdout | signal
    how: str
    target: str | None = None  # the input made hostile (relative to the case folder)
    seed: int = SEED

    def describe(self) -> str:
        return f"case {self.index}: {self.command.name}: {self.kind} {self.how}" + (f" on {self.target}" if self.target else "")


def case(seed: int, index: int, reads: dict[str, list[str]]) -> Case:
    """Case ``index`` of ``seed``; ``reads``: the files each command reads (see audit)."""
    rng = random.Random(f"{seed}/{index}")
    commands = [c for c in COMMANDS if c.name in reads]
    command = rng.choices(commands, weights=[WEIGHTS[c.name] for c in commands])[0]
    files = reads[command.name]
    roll = rng.random()
    if command.output is not None and roll < 0.14:
        how = rng.choice(OUTPUTS if command.output in ("folder", "scores") else [o for o in OUTPUTS if o not in ("not empty", "twin run")])
        return Case(index, command, "output", how, seed=seed)
    if roll < 0.18:
        return Case(index, command, "stdout", rng.choice(STDOUTS), seed=seed)
    if roll < 0.22:
        return Case(index, command, "signal", rng.choice(SIGNALS), seed=seed)
    target = rng.choice(files)
    if roll < 0.40:
        return Case(index, command, "kind", rng.choice(KINDS), target, seed)
    if target.endswith(".rq") and rng.random() < 0.5:
        return Case(index, command, "sparql", rng.choice(SPARQL), target, seed)
    return Case(index, command, "content", rng.choice(CONTENT), target, seed)


# --- making a case's folder --------------------------------------------------------------------

_CELL = re.compile(rb"[^\t\n]+")


def _edit(how: str, data: bytes, rng: random.Random) -> bytes:
    """``data`` with one edit of its bytes, lines or cells."""
    from fuzz.mutate import delete_range, flip_bytes, insert_special, line_edit, truncate

    lines = data.split(b"\n")
    at = rng.randrange(len(lines))
    if how in ("flip bytes", "insert special", "delete range", "line edit", "truncate"):
        edit = {"flip bytes": flip_bytes, "insert special": insert_special, "delete range": delete_range,
                "line edit": line_edit, "truncate": truncate}[how]
        return edit(rng, data, ())[0]
    if how == "duplicate line":
        lines.insert(rng.randrange(len(lines) + 1), lines[at])
    elif how == "drop line":
        del lines[at]
    elif how == "add tab":
        cut = rng.randrange(len(lines[at]) + 1)
        lines[at] = lines[at][:cut] + b"\t" + lines[at][cut:]
    elif how == "drop tab":
        lines[at] = lines[at].replace(b"\t", b" ", 1)
    elif how in ("empty cell", "long cell", "huge number", "control characters"):
        cells = list(_CELL.finditer(lines[at]))
        if cells:
            cell = rng.choice(cells)
            new = {"empty cell": b"", "long cell": b"x" * 200_000, "huge number": b"9" * 400,
                   "control characters": b"\x1b[2J\x00\x07\x0c\xe2\x80\xa8"}[how]
            lines[at] = lines[at][: cell.start()] + new + lines[at][cell.end():]
    elif how == "not UTF-8":
        cut = rng.randrange(len(lines[at]) + 1)
        lines[at] = lines[at][:cut] + rng.choice((b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xc0\xaf")) + lines[at][cut:]
    elif how == "CRLF":
        return data.replace(b"\n", b"\r\n")
    elif how == "BOM":
        return b"\xef\xbb\xbf" + data
    elif how == "empty file":
        return b""
    return b"\n".join(lines)


def _sparql(how: str) -> bytes:
    text = {
        "deep parentheses": "SELECT * WHERE { ?s ?p ?o FILTER(" + "(" * 5000 + "1" + ")" * 5000 + ") }",
        "deep groups": "SELECT * WHERE " + "{ " * 3000 + "?s ?p ?o " + "} " * 3000,
        "cross product": "SELECT * WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . ?j ?k ?l . ?m ?n ?o }",
        "update": "INSERT DATA { <urn:a> <urn:b> <urn:c> }",
        "service": "SELECT * WHERE { SERVICE <http://127.0.0.1:9/sparql> { ?s ?p ?o } }",
        "junk": "SELECT ?s WHERE { ?s ?p ",
    }[how]
    return text.encode()


def _top(path: str) -> str:
    return path.split("/", 1)[0]


def prepare(case: Case, base: Path, folder: Path) -> tuple[list[str], dict]:
    """The case's folder (fixtures linked, or copied where made hostile) and its argv; ``extra``
    says how to run it (stdout, file size limit, signal, twin)."""
    rng = random.Random(f"{case.seed}/{case.index}/prepare")
    folder.mkdir(parents=True)
    for name in case.command.reads:
        if case.target is not None and _top(case.target) == name:
            _copy(base / name, folder / name)
        else:
            os.symlink(base / name, folder / name)
    out = case.command.out_name
    extra: dict = {}
    if case.kind in ("content", "sparql"):
        path = folder / case.target
        path.write_bytes(_sparql(case.how) if case.kind == "sparql" else _edit(case.how, path.read_bytes(), rng))
    elif case.kind == "kind":
        path = folder / case.target
        if case.how == "folder unreadable":
            extra["mode"] = 0o300 if rng.random() < 0.5 else 0o600  # no listing, or no entry (execute)
            path.parent.chmod(extra["mode"])
        elif case.how == "unreadable":
            path.chmod(0)
        else:
            path.unlink()
            if case.how == "FIFO":
                os.mkfifo(path)
            elif case.how == "folder":
                path.mkdir()
            elif case.how == "dangling link":
                os.symlink("nothing-here", path)
            elif case.how == "link loop":
                os.symlink(path.name, path)
            elif case.how == "/dev/zero":
                os.symlink("/dev/zero", path)
    elif case.kind == "output":
        if case.how == "onto a file":
            (folder / out).write_bytes(b"keep me\n")
        elif case.how == "FILE/sub":
            (folder / "afile").write_bytes(b"keep me\n")
            out = "afile/sub"
        elif case.how == "read-only folder":
            (folder / "ro").mkdir()
            (folder / "ro").chmod(0o555)
            out = "ro/out"
        elif case.how == "link loop":
            os.symlink(out, folder / out)
        elif case.how == "long name":
            out = "o" * 300
        elif case.how == "onto its input":
            out = next(a for a in case.command.args if a.split("/")[0] in case.command.reads)
        elif case.how == "full disk":
            extra["fsize"] = rng.choice((0, 512, 4096, 65536, 1 << 20))
        elif case.how == "not empty":
            (folder / out).mkdir()
            (folder / out / "keep.txt").write_bytes(b"keep me\n")
        elif case.how == "twin run":
            extra["twin"] = True
    elif case.kind == "stdout":
        extra["stdout"] = case.how
    elif case.kind == "signal":
        extra["signal"] = (getattr(signal, case.how), rng.uniform(0.05, 2.0))
    for path in [folder, *(p for p in folder.rglob("*") if not p.is_symlink() and p.is_dir())]:
        if path.stat().st_mode & 0o777 == 0o755:
            path.chmod(0o777)  # the case's own folders, writable by nobody (not those made read-only)
    extra["out"] = out
    argv = case.command.argv(out)
    if case.command.name in PARALLEL and rng.random() < 0.25:
        argv += ["--jobs", "2"]  # the documents or files in worker processes
    return argv, extra


# --- running one command in a fork ---------------------------------------------------------------


@dataclass
class Run:
    status: int | None  # None: killed after the timeout; negative: killed by that signal
    stdout: str
    stderr: str
    seconds: float


def _child(argv: list[str], folder: Path, log: Path, stdout: str | None, fsize: int | None, audit: list | None = None) -> None:
    """In the fork: the command's surroundings (its stdout and stderr into ``log``), then aifcheck's entry point."""
    code = 1
    try:
        os.setsid()
        os.chdir(folder)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        out = os.open(log / ".fuzz-stdout", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o666)
        err = os.open(log / ".fuzz-stderr", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o666)
        if stdout == "/dev/full":
            os.dup2(os.open("/dev/full", os.O_WRONLY), 1)
        elif stdout == "closed":
            os.close(1)
        else:
            os.dup2(out, 1)
        os.dup2(err, 2)
        # streams on the descriptors as Python makes them at start (a test runner's capture replaced them)
        sys.stdout = open(1, "w", encoding="utf-8", closefd=False) if stdout != "closed" else None  # noqa: SIM115
        sys.stderr = open(2, "w", buffering=1, encoding="utf-8", errors="backslashreplace", closefd=False)  # noqa: SIM115
        sys.stdin = open(0, encoding="utf-8", closefd=False)  # noqa: SIM115
        resource.setrlimit(resource.RLIMIT_AS, (2 * GiB, 2 * GiB))
        if fsize is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
        if os.getuid() == 0 and audit is None:
            drop_file_powers()
        for number in (signal.SIGINT, signal.SIGTERM, signal.SIGCHLD):
            signal.signal(number, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        if audit is not None:
            sys.addaudithook(lambda event, args: audit.append(args[0]) if event == "open" and isinstance(args[0], str) else None)
        sys.argv = ["aifcheck", *argv]
        from aifcheck.cli import main

        main()
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except BaseException:  # noqa: BLE001 - what escaped the entry point: a traceback, as a user sees it
        import traceback

        traceback.print_exc()
        code = 1
    finally:
        # a signal that comes now must not take this fork back into the campaign's loop
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
        if audit is not None:
            with open(folder / ".fuzz-audit", "w", encoding="utf-8") as file:
                file.write("\n".join(sorted(set(audit))))
        try:
            sys.stdout.flush()
        except BaseException:  # noqa: BLE001
            pass
        os._exit(code)


def drop_file_powers() -> None:
    """This process, root, made to obey files' permission bits as their owner (root) does without
    CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH and CAP_FOWNER: a chmod 000 file or folder cannot be
    read, a read-only folder cannot be written. (Becoming nobody would do as much, but a fork of
    this process keeps its interpreter's paths, which nobody may not read.)"""
    import ctypes

    class Header(ctypes.Structure):
        _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]

    class Data(ctypes.Structure):
        _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32), ("inheritable", ctypes.c_uint32)]

    libc = ctypes.CDLL(None, use_errno=True)
    header, data = Header(0x20080522, 0), (Data * 2)()  # _LINUX_CAPABILITY_VERSION_3: two 32-bit words
    if libc.capget(ctypes.byref(header), data) != 0:
        raise OSError(ctypes.get_errno(), "capget")
    keep = ~((1 << 1) | (1 << 2) | (1 << 3)) & 0xFFFFFFFF  # CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER
    data[0].effective &= keep
    data[0].permitted &= keep
    data[0].inheritable &= keep
    if libc.capset(ctypes.byref(header), data) != 0:
        raise OSError(ctypes.get_errno(), "capset")


def start(argv: list[str], folder: Path, stdout: str | None = None, fsize: int | None = None, audit: bool = False,
          log: Path | None = None) -> int:
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        try:
            _child(argv, folder, log or folder, stdout, fsize, [] if audit else None)
        finally:
            os._exit(1)  # (never reached but by a signal in _child's last lines)
    return pid


def finish(pid: int, log: Path, started: float, timeout: float, kill: tuple[int, float] | None = None) -> Run:
    """Wait for the command (sending it ``kill``'s signal after its delay), its group killed after ``timeout``."""
    status = None
    sent = False
    while status is None:
        done, raw = os.waitpid(pid, os.WNOHANG)
        if done:
            status = os.waitstatus_to_exitcode(raw)
            break
        elapsed = time.monotonic() - started
        if kill is not None and not sent and elapsed > kill[1]:
            os.kill(pid, kill[0])  # the command alone, as a terminal's Ctrl-C or a kill does
            sent = True
        if elapsed > timeout:
            break
        time.sleep(0.01)
    _kill_group(pid)
    if status is None:
        os.waitpid(pid, 0)
    out = (log / ".fuzz-stdout").read_text(encoding="utf-8", errors="replace") if (log / ".fuzz-stdout").exists() else ""
    err = (log / ".fuzz-stderr").read_text(encoding="utf-8", errors="replace") if (log / ".fuzz-stderr").exists() else ""
    return Run(status, out, err, time.monotonic() - started)


def _kill_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def audit(base: Path, work: Path) -> dict[str, list[str]]:
    """The files each command opens on the pristine fixtures (relative to a case folder): the
    inputs a case may make hostile. Commands whose fixtures are absent are left out."""
    reads: dict[str, list[str]] = {}
    for number, command in enumerate(COMMANDS):
        if command.needs_shared and not (base / "ta1").is_dir():
            continue
        folder = work / f"audit{number}"
        prepare(Case(-1, command, "pristine", ""), base, folder)
        pid = start(command.argv(command.out_name), folder, audit=True)
        run = finish(pid, folder, time.monotonic(), 300)
        if run.status not in command.stdout_ok:
            raise RuntimeError(f"{command.name} fails on the pristine fixtures (exit {run.status}): {run.stderr[-2000:]}")
        opened = (folder / ".fuzz-audit").read_text(encoding="utf-8").split("\n")
        found = set()
        for name in opened:
            path = Path(name) if os.path.isabs(name) else folder / name
            for top in command.reads:
                root = base / top
                try:
                    relative = path.resolve().relative_to(root.resolve())
                except ValueError:
                    continue
                if path.resolve().is_file():
                    found.add(f"{top}/{relative.as_posix()}" if relative.parts else top)
        reads[command.name] = sorted(found)
        PRISTINE[command.name] = _result(run, folder, command.out_name if command.output == "file" else None)
        shutil.rmtree(folder, ignore_errors=True)
    return reads


PRISTINE: dict[str, tuple[str, bytes | None]] = {}  # command -> what its pristine run gives (see _result)


def _result(run: Run, folder: Path, out: str | None) -> tuple[str, bytes | None]:
    """What a run gives its user: its stdout, and its output file."""
    try:
        data = (folder / out).read_bytes() if out is not None else None
    except OSError:
        data = None
    return _BLANK.sub("_:b", run.stdout), data


_BLANK = re.compile(r"_:\w+")  # a blank node's label differs from run to run


# --- the oracle ----------------------------------------------------------------------------------

PROBLEMS = (  # (kind, label) in the table's order
    ("traceback", "tracebacks"),
    ("internal", "internal errors (exit 70)"),
    ("hang", "hangs"),
    ("crash", "deaths by signal"),
    ("exit code", "exit statuses outside README's table"),
    ("silent", "hostile files passed in silence (exit 0, not named)"),
    ("wrong file", "errors naming another file, or none"),
    ("no line", "errors on an edited table without its line"),
    ("message", "stderr lines unclean or over 2,000 characters"),
    ("input changed", "inputs changed"),
    ("broken output", "outputs half-written, changed by a failed run, or missing after a success"),
    ("leftover", "temporary files or locks left behind"),
    ("twin", "two runs both writing one output folder"),
)
STATUSES = {0, 1, 2, 3}
TRACEBACK = re.compile(r"Traceback \(most recent call last\)|^\w+(Error|Exception): ", re.M)
WHOLE_FILE = ("empty", "has no component", "no taggable type", "not UTF-8", "not a regular file", "cannot read", "holds no", "no such file", "expected a header",
              "the header", "not a folder", "no column", "missing", "a symbolic link", "not NIST's")


@dataclass(frozen=True)
class Problem:
    kind: str
    case: int
    detail: str


def check(case: Case, run: Run, folder: Path, extra: dict, before: dict[str, bytes | None], twin: Run | None = None) -> list[Problem]:
    found: list[Problem] = []

    def problem(kind: str, detail: str) -> None:
        found.append(Problem(kind, case.index, detail[:300]))

    if run.status is None:
        problem("hang", f"no end after {run.seconds:.0f} s")
        return found
    if run.status < 0:
        problem("crash", f"killed by signal {-run.status}")
    allowed = set(STATUSES)
    if case.kind == "signal":
        allowed |= {130, 143}
    if case.kind == "stdout" and case.how == "closed":
        allowed |= {141}
    if run.status >= 0 and run.status not in allowed:
        problem("internal" if run.status == 70 else "exit code", f"exit {run.status}: {_last(run.stderr)}")
    if TRACEBACK.search(run.stderr) or "Traceback" in run.stdout:
        problem("traceback", _last(run.stderr))
    lines = [line for line in run.stderr.split("\n") if line]
    for line in lines:
        if len(line) > 2000 or not line.isprintable():
            problem("message", f"{len(line)} characters: {line[:200]!r}")
    errors = [line for line in lines if not line.startswith(("note:", "aifcheck: warning:"))]
    hostile = case.target is not None and case.kind in ("content", "kind")
    if hostile:
        names = {Path(case.target).name, Path(case.target).parent.name}
        named = [line for line in lines if any(name and name in line for name in names)]
        # a loss shows in what the user gets: the pristine run's stdout and output, or others
        same = PRISTINE.get(case.command.name) == _result(run, folder, extra["out"] if case.command.output == "file" else None)
        # what a walk does not meet (a file gone) or meets empty (a folder of the file's name) is no loss
        unmet = case.how in ("missing", "folder") and case.target not in case.command.args
        if case.kind == "kind" and run.status == 0 and not named and not same and not unmet:
            problem("silent", f"{case.how} {case.target}: exit 0, no line names it, and the result differs from the pristine run's")
        if run.status == 3 and errors and not any(any(n in line for n in names) for line in errors):
            problem("wrong file", f"{case.target}: {errors[0][:200]}")
        if case.kind == "content" and run.status == 3 and case.target.endswith((".tsv", ".tab", ".txt")):
            for line in errors:
                mentioned = re.match(r"(?:aifcheck: error: )?\S*" + re.escape(Path(case.target).name) + r"(:\d+)?: ", line)  # located in it
                if mentioned and not mentioned[1] and not any(w in line for w in WHOLE_FILE):
                    problem("no line", line[:200])
    after = _snapshot(folder, case.command.reads)
    changed = [name for name, data in before.items() if after.get(name) != data and case.kind != "output"]
    if changed and not (case.kind == "output" and case.how == "onto its input"):
        problem("input changed", f"{len(changed)} inputs, {changed[0]}")
    if case.kind == "output" and case.how == "onto its input" and [n for n, d in before.items() if after.get(n) != d]:
        problem("input changed", "the output replaced an input")
    found += _check_output(case, run, folder, extra)
    if twin is not None:
        if twin.status == 0 and run.status == 0 and case.command.output == "folder":  # (score ta3 replaces OUT/scores whole: both may)
            problem("twin", "both runs exited 0 on one output folder")
        if twin.status is None or (twin.status is not None and twin.status < 0) or TRACEBACK.search(twin.stderr):
            problem("traceback" if twin.status else "hang", f"the twin run: exit {twin.status}: {_last(twin.stderr)}")
    return found


def _check_output(case: Case, run: Run, folder: Path, extra: dict) -> list[Problem]:
    found = []
    out = folder / extra["out"]
    kind = case.command.output
    left = [p.name for p in folder.rglob("*") if ".partial" in p.name or p.name.endswith(".lock")]
    if left:
        found.append(Problem("leftover", case.index, ", ".join(left[:3])))
    if kind is None or case.kind == "output" and case.how in ("onto a file", "FILE/sub", "onto its input", "not empty", "link loop"):
        if case.kind == "output" and case.how in ("onto a file", "FILE/sub", "not empty") and not (kind == "file" and case.how == "onto a file"):
            keep = {"onto a file": out, "FILE/sub": folder / "afile", "not empty": out / "keep.txt"}[case.how]
            if keep.read_bytes() != b"keep me\n":
                found.append(Problem("broken output", case.index, f"{keep.name} changed"))
        return found
    ok = run.status in (0, 1) and run.status is not None
    target = out / "scores" if kind == "scores" else out
    try:
        exists = target.exists()
    except OSError:
        exists = False
    if ok and not exists and not (kind == "layout" and "no RDF file" in run.stderr):
        found.append(Problem("broken output", case.index, f"exit {run.status} and no {target.name}"))
    if ok and kind == "folder" and exists and not (target / "results.json").is_file():
        found.append(Problem("broken output", case.index, "exit 0 or 1 and no results.json"))
    # (written whole, then stdout failed; or NIST's driver stops early, and aifcheck writes what it writes then)
    stopped = run.status == 3 and "FatalError Yes" in run.stderr and (target / "results.json").is_file()
    if not ok and exists and kind in ("folder", "scores") and run.status != 2 and case.kind != "stdout" and not stopped:
        found.append(Problem("broken output", case.index, f"exit {run.status} and {target.name} written"))
    return found


def _snapshot(folder: Path, reads: Iterable[str]) -> dict[str, bytes | None]:
    """The inputs' bytes (a file that cannot be read: None), by path."""
    found: dict[str, bytes | None] = {}
    for top in reads:
        root = folder / top
        for path in ([root] if not root.is_dir() or root.is_symlink() and not root.resolve().is_dir() else sorted(root.rglob("*"))):
            try:
                if path.is_file():
                    found[str(path.relative_to(folder))] = path.read_bytes()
            except OSError:
                found[str(path.relative_to(folder))] = None
    return found


def _last(text: str) -> str:
    return next((line.strip() for line in reversed(text.splitlines()) if line.strip()), "")[:300]


# --- the campaign ----------------------------------------------------------------------------


@dataclass
class Outcome:
    problems: list[Problem] = field(default_factory=list)
    runs: int = 0
    by_command: Counter = field(default_factory=Counter)
    by_status: Counter = field(default_factory=Counter)
    seconds: float = 0.0
    slowest: tuple[float, int] = (0.0, -1)
    recipes: dict[int, str] = field(default_factory=dict)  # the cases with a problem: how each was made

    def count(self, kind: str) -> int:
        return sum(p.kind == kind for p in self.problems)


def _release(folder: Path) -> None:
    """Permissions back, so that the folder can be removed."""
    for path in [folder, *folder.rglob("*")] if folder.exists() else []:
        try:
            if not path.is_symlink():
                path.chmod(0o777 if path.is_dir() else 0o666)
        except OSError:
            pass
    shutil.rmtree(folder, ignore_errors=True)


def campaign(seed: int = SEED, cases: int = 200, first: int = 0, jobs: int = 2, timeout: float = TIMEOUT,
             keep: bool = False, report: Callable[[int, int], None] | None = None, only: str | None = None) -> Outcome:
    """Cases ``first`` to ``first + cases - 1`` of ``seed`` (``only``: those whose recipe says it)."""
    started = time.monotonic()
    _warm()
    work = Path(tempfile.mkdtemp(prefix="aifcheck-fuzz-commands-"))
    work.chmod(0o755)
    outcome = Outcome()
    try:
        base = work / "base"
        base.mkdir()
        make_base(base)
        base.chmod(0o755)
        reads = audit(base, work)
        pending = [i for i in range(first, first + cases) if only is None or only in case(seed, i, reads).describe()]
        cases = len(pending)
        running: dict[int, tuple] = {}  # pid -> (case, folder, extra, started, before, twin pid)
        done = 0
        while pending or running:
            while pending and len(running) < jobs:
                index = pending.pop(0)
                one = case(seed, index, reads)
                folder = work / f"case{index:05d}"
                argv, extra = prepare(one, base, folder)
                before = _snapshot(folder, one.command.reads)
                pid = start(argv, folder, extra.get("stdout"), extra.get("fsize"))
                twin = None
                if extra.get("twin"):  # the same command at the same time in the same folder, its logs beside
                    (folder / ".twin").mkdir()
                    (folder / ".twin").chmod(0o777)
                    twin = start(argv, folder, log=folder / ".twin")
                running[pid] = (one, folder, extra, time.monotonic(), before, twin)
            finished = _poll(running, timeout)
            for pid in finished:
                one, folder, extra, began, before, twin = running.pop(pid)
                run = finish(pid, folder, began, timeout, extra.get("signal"))
                twin_run = finish(twin, folder / ".twin", began, timeout) if twin else None
                problems = check(one, run, folder, extra, before, twin_run)
                outcome.problems += problems
                if problems:
                    outcome.recipes[one.index] = one.describe()
                outcome.runs += 1
                outcome.by_command[one.command.name] += 1
                outcome.by_status[run.status] += 1
                outcome.slowest = max(outcome.slowest, (run.seconds, one.index))
                if not keep or not problems:
                    _release(folder)
                done += 1
                if report is not None:
                    report(done, cases)
    finally:
        if not keep:
            _release(work)
    outcome.seconds = time.monotonic() - started
    outcome.work = work  # type: ignore[attr-defined]
    return outcome


def _poll(running: dict[int, tuple], timeout: float) -> list[int]:
    """The commands that ended, or ran past the timeout (or their signal's moment: finish sends it)."""
    while True:
        ready = []
        for pid, (_one, _folder, extra, began, *_rest) in running.items():
            elapsed = time.monotonic() - began
            ended = os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None  # (left to finish to reap)
            if ended or elapsed > timeout or ("signal" in extra and elapsed > extra["signal"][1]):
                ready.append(pid)
        if ready:
            return ready
        time.sleep(0.01)


def _warm() -> None:
    """What every command imports, imported once here (each fork then starts with it)."""
    import aifcheck.cli  # noqa: F401
    from aifcheck.cli import application

    application()  # every command's module
    for module in ("aifcheck.score.ta1", "aifcheck.score.ta3.scorer", "aifcheck.score.crux.claims", "aifcheck.score.crux.relations",
                   "aifcheck.render.ta1.scores", "aifcheck.render.ta3.scores", "aifcheck.render.crux.scores", "aifcheck.render.graph",
                   "aifcheck.render.claims", "aifcheck.extract.claims", "aifcheck.extract.summary", "aifcheck.pipeline.shared.sparql",
                   "aifcheck.render.tables", "aifcheck.validation.run", "aifcheck.validation.submission"):
        __import__(module)
    from aifcheck.validation.shapes import load_catalog

    load_catalog()


def table(outcome: Outcome, seed: int, cases: int, jobs: int) -> str:
    lines = [f"aifcheck command fuzzing: seed {seed}, {cases} cases, {jobs} at a time, {outcome.seconds:.0f} s",
             "cases by command: " + ", ".join(f"{name} {n}" for name, n in sorted(outcome.by_command.items())),
             "exit statuses: " + ", ".join(f"{status} x{n}" for status, n in sorted(outcome.by_status.items(), key=lambda i: (i[0] is None, i[0] or 0))),
             f"slowest case: {outcome.slowest[1]} ({outcome.slowest[0]:.1f} s)", ""]
    width = max(len(label) for _, label in PROBLEMS)
    for kind, label in PROBLEMS:
        lines.append(f"  {label:<{width}}  {outcome.count(kind)}")
    if outcome.problems:
        lines.append("")
        for problem in outcome.problems[:60]:
            lines.append(f"  case {problem.case}: {problem.kind}: {problem.detail}")
        lines += ["", "how those cases were made:"] + [f"  {outcome.recipes[i]}" for i in sorted(outcome.recipes)][:60]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--cases", type=int, default=200)
    parser.add_argument("--start", type=int, default=0, help="the first case's index")
    parser.add_argument("--case", type=int, help="run this one case (its folder kept with --keep)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=TIMEOUT)
    parser.add_argument("--keep", action="store_true", help="keep the folders of cases with a problem (and say where)")
    parser.add_argument("--only", help="run only the cases whose recipe holds this text (e.g. 'twin run')")
    options = parser.parse_args()
    first, count = (options.case, 1) if options.case is not None else (options.start, options.cases)

    def progress(done: int, total: int) -> None:
        if done % 100 == 0 or done == total:
            print(f"  {done}/{total} cases", file=sys.stderr, flush=True)

    outcome = campaign(options.seed, count, first, options.jobs, options.timeout, options.keep, progress, options.only)
    print(table(outcome, options.seed, outcome.runs, options.jobs))
    if options.keep:
        print(f"folders of the cases with a problem: {outcome.work}")  # type: ignore[attr-defined]
    return 1 if outcome.problems else 0


if __name__ == "__main__":
    sys.exit(main())
