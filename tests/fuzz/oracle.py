"""What a run must do with any file, checked through the API and through the installed command.

- no traceback (an exception other than aifcheck's own, in the API; "Traceback" on either stream
  of the command), and no process killed by a signal;
- the README's exit codes: 0 valid, 1 violations (wins over 3), 2 usage error, 3 unreadable;
- every input file reported exactly once, and an unreadable file never counted as valid;
- one loader, one verdict: validate, load_kb, claims and load agree on whether a file is readable
  and with the same message;
- messages one line, naming the file, free of internal exception text (LEAKS), and findings
  free of control and line-break characters (a file's literal must not reach the terminal raw);
- findings located on a line the file has; query tables with one cell per column in every row;
- for the command campaign (commands.py, issue 43): one answer per class of mistake, whatever the
  command (MISTAKES), the form of a stderr line (FORM), and what a run changed around it (entry,
  tree: types and bytes, links not followed; tsv_shapes: the shape of its tables).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import resource
import signal
import subprocess
import sys
import time
import traceback
import unicodedata
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import aifcheck
from aifcheck.errors import InputError
from aifcheck.extract.query import table_names
from aifcheck.loading.kb import load_kb
from aifcheck.loading.tsv import TsvTable as Table
from aifcheck.pipeline.shared.sparql import run_table
from aifcheck.render.tables import stage_text

# Text that only an internal error writes: Python exception names and messages, reprs, Rust panics.
LEAKS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("traceback", re.compile(r"Traceback \(most recent call last\)|^\s+File \"[^\"]+\", line \d+", re.M)),
    ("exception name", re.compile(r"\b[A-Z]\w*(Error|Exception|Warning)\b(?!\))|\bBadGzipFile\b")),
    (
        "python message",
        re.compile(
            r"index out of range|'\w+' object (is not|has no)|has no attribute '|is not an instance of|NoneType"
            r"|unhashable type"
            r"|unsupported operand|not subscriptable|referenced before assignment|takes \d+ positional"
            r"|object of type|invalid literal for int\(\)|could not convert string|codec can't|expected str, bytes"
            r"|Not a gzipped file|Error -\d+ while decompressing|CRC check failed|Incorrect length of data produced"
        ),
    ),
    ("python repr", re.compile(r"\(b['\"]|\bb'\\x|object at 0x[0-9a-f]+|<built-in |\[Errno \d+\]")),
    ("rust panic", re.compile(r"panicked at|called `(Option|Result)::unwrap|RUST_BACKTRACE")),
)
# The traceback of the command line (typer prints its own boxed one)
TRACEBACK = re.compile(r"Traceback \(most recent call last\)|─ Traceback |^\w+(Error|Exception): ", re.M)
WARNING = "aifcheck: warning: "
TABLES = tuple(table_names("ta1") + table_names("ta3"))  # TA2's tables need entry points


@dataclass(frozen=True)
class Problem:
    """One thing a run did wrong."""

    kind: str  # one of fuzz.KINDS: traceback, hang, crash, exit code, lost, leak, unclean, ...
    where: str  # "api validate", "cli claims", ...
    subject: str  # the file (or batch) concerned
    detail: str

    def signature(self) -> str:
        """The problem without its file and the path that met it: what makes two cases one bug."""
        detail = re.sub(r"\S*case\d{5}\S*", "FILE", self.detail)
        detail = re.sub(r"'[^']*'|\"[^\"]*\"|<[^<>]*>", "…", detail)  # what the file holds, quoted
        detail = re.sub(r"\b0x[0-9a-f]+|\d+", "N", detail)
        return f"{self.kind}: {detail[:160]}"


@dataclass(frozen=True)
class Verdict:
    """What the API says of one file, to compare the command's output with."""

    state: str  # valid, invalid, unreadable
    message: str | None = None  # the unreadable file's message
    claims: int | None = None  # claims read (None when claims raised InputError)
    claims_error: str | None = None


def clean(text: str) -> bool:
    """One line a terminal shows as it is: no line break (\\n, \\r, U+2028...) nor control
    character but tab (an ESC starts a terminal escape sequence)."""
    return not any(unicodedata.category(ch) in ("Cc", "Zl", "Zp") and ch != "\t" for ch in text)


def leaks(text: str) -> list[str]:
    return [name for name, pattern in LEAKS if pattern.search(text)]


def crash_text(exc: BaseException) -> str:
    """An exception as one line: its type, message and the deepest aifcheck frame that raised it."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f"{os.sep}aifcheck{os.sep}" in f.filename]
    at = f" at {Path(frames[-1].filename).name}:{frames[-1].lineno}" if frames else ""
    message = str(exc).splitlines()[0][:200] if str(exc) else ""
    return f"{type(exc).__name__}: {message}{at}"


def _message_problems(message: str, path: str, where: str) -> list[Problem]:
    """An unreadable file's message: one line that starts with the file's name, no internals."""
    found = []
    if not clean(message):
        found.append(Problem("unclean", where, path, f"a control or line-break character in: {message[:200]!r}"))
    if not message.startswith(path):
        found.append(Problem("leak", where, path, f"message does not name the file: {message[:200]!r}"))
    names = leaks(message)
    if names:
        found.append(Problem("leak", where, path, f"{', '.join(names)}: {message[len(path) :][:200]}"))
    return found


def _line_count(path: str) -> int | None:
    try:
        data = Path(path).read_bytes()
    except OSError:
        return None
    return None if path.endswith(".gz") else data.count(b"\n") + 1


def table_problems(table: Table, where: str, subject: str) -> list[Problem]:
    """Every row has one cell per column, and no cell breaks the TSV's lines or columns."""
    lines = stage_text(table).split("\n")[:-1]
    bad = [i for i, line in enumerate(lines) if line.count("\t") != len(table.columns) - 1]
    if len(lines) != len(table.rows) + 1 or bad:
        return [
            Problem(
                "table",
                where,
                subject,
                f"{table.name}: {len(lines)} lines for {len(table.rows)} rows, bad lines {bad[:5]}",
            )
        ]
    return []


def check_api(path: str, profile: str, table: str) -> tuple[Verdict, list[Problem]]:
    """Run one file through aifcheck.validate, load_kb + run_table, aifcheck.claims and
    aifcheck.load, in this process; what they must do is in the module docstring."""
    state, message = "unreadable", None
    try:
        report = aifcheck.validate(path, profile=profile)
    except BaseException as exc:  # noqa: BLE001 (anything is a crash here, even a Rust panic)
        return Verdict("crashed"), [_crash("api validate", path, exc)]
    problems = _report_problems(report, path)
    if len(report.files) == 1:
        one = report.files[0]
        state = "unreadable" if one.error else "invalid" if report.failed else "valid"
        message = one.error.message if one.error else None
    problems += _load_kb_problems(path, table, message)
    claims, claims_error, found = _claims_problems(path, message)
    problems += found + _load_problems(path, message)
    return Verdict(state, message, claims, claims_error), problems


def _crash(where: str, path: str, exc: BaseException) -> Problem:
    """What escaped an API call, as a problem (an interrupt stops the campaign instead)."""
    if isinstance(exc, KeyboardInterrupt):
        raise exc
    return Problem("traceback", where, path, crash_text(exc))


def _load_kb_problems(path: str, table: str, message: str | None) -> list[Problem]:
    """load_kb and run_table: a table's problems, or a verdict on the file other than validate's ``message``."""
    problems: list[Problem] = []
    loaded = None
    try:
        with load_kb(path) as kb:
            loaded = ""
            problems += table_problems(run_table(kb, table), "api run_table", path)
    except InputError as exc:
        loaded = str(exc)
    except BaseException as exc:  # noqa: BLE001
        problems.append(_crash("api load_kb/run_table", path, exc))
    if loaded is not None and (loaded or None) != message:
        detail = f"validate says {message!r}, load_kb says {loaded or 'readable'!r}"
        problems.append(Problem("verdict", "api load_kb", path, detail))
    return problems


def _claims_problems(path: str, message: str | None) -> tuple[int | None, str | None, list[Problem]]:
    """aifcheck.claims: how many claims it read, or its error, and its problems (a message, or a
    verdict other than validate's ``message``)."""
    problems: list[Problem] = []
    claims, claims_error = None, None
    try:
        claims = len(aifcheck.claims(path))
    except InputError as exc:
        claims_error = str(exc)
        problems += _message_problems(claims_error, path, "api claims")
    except BaseException as exc:  # noqa: BLE001
        problems.append(_crash("api claims", path, exc))
    if message is not None and claims_error != message and (claims is not None or claims_error is not None):
        detail = f"validate says {message!r}, claims {claims_error or f'read {claims} claims'!r}"
        problems.append(Problem("verdict", "api claims", path, detail))
    return claims, claims_error, problems


def _load_problems(path: str, message: str | None) -> list[Problem]:
    """aifcheck.load: its message's problems, or a verdict other than validate's ``message``."""
    try:
        aifcheck.load(path)
    except InputError as exc:
        problems = _message_problems(str(exc), path, "api load")
        if message is not None and str(exc) != message:
            problems.append(Problem("verdict", "api load", path, f"validate says {message!r}, load says {str(exc)!r}"))
        return problems
    except BaseException as exc:  # noqa: BLE001
        return [_crash("api load", path, exc)]
    if message is not None:
        return [Problem("verdict", "api load", path, f"validate says {message!r}, load reads it")]
    return []


def _report_problems(report, path: str) -> list[Problem]:
    where = "api validate"
    files = [f.file for f in report.files]
    if files != [path]:
        return [Problem("lost", where, path, f"report lists {files} for one input")]
    one = report.files[0]
    problems = []
    if one.error is not None:
        if report.conforms or report.exit_status != 3:
            problems.append(
                Problem(
                    "unreadable valid",
                    where,
                    path,
                    f"conforms={report.conforms}, exit_status={int(report.exit_status)}",
                )
            )
        problems += _message_problems(one.error.message, path, where)
        return problems
    failed = bool(one.rule_errors) or any(v.severity.label == "error" for v in one.violations)
    if int(report.exit_status) != (1 if failed else 0) or report.conforms == failed:
        problems.append(
            Problem(
                "exit code",
                where,
                path,
                f"exit_status={int(report.exit_status)} conforms={report.conforms}, failed={failed}",
            )
        )
    for error in one.rule_errors:
        problems.append(Problem("rule error", where, path, f"{error.rule_id}: {error.message[len(path) :][:200]}"))
    lines = _line_count(path)
    for v in one.violations:
        if lines is not None and not 0 <= v.line <= lines:
            problems.append(Problem("line", where, path, f"{v.rule_id} on line {v.line} of a {lines}-line file"))
        if leaks(v.message):
            problems.append(
                Problem("leak", where, path, f"{', '.join(leaks(v.message))} in {v.rule_id}: {v.message[:200]}")
            )
        if not clean(v.message):
            problems.append(
                Problem(
                    "unclean", where, path, f"a control or line-break character in {v.rule_id}: {v.message[:200]!r}"
                )
            )
    return problems


# --- the installed command ---------------------------------------------------------------------


@dataclass(frozen=True)
class Run:
    """One run of the command: what it printed, how it ended, and its peak memory."""

    args: tuple[str, ...]
    returncode: int | None  # None: killed after the timeout; negative: killed by that signal
    stdout: str
    stderr: str
    seconds: float
    max_rss_kb: int

    @property
    def command(self) -> str:
        return " ".join(self.args)


def limit_memory(limit: int) -> None:
    """Cap this process's address space (RLIMIT_AS), as the issue's memory tests ask."""
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def run_command(args: Sequence[str], cwd: Path, timeout: float, memory_limit: int | None = None) -> Run:
    """``python -m aifcheck ARGS`` in ``cwd``; killed after ``timeout`` seconds, its address
    space capped at ``memory_limit`` bytes. Output goes to files (no pipe to fill) and the
    process is waited for with wait4, for its own peak memory."""
    full = (sys.executable, "-m", "aifcheck", *args)
    out_path, err_path = cwd / ".fuzz-stdout", cwd / ".fuzz-stderr"
    limit = (lambda: limit_memory(memory_limit)) if memory_limit else None
    started = time.perf_counter()
    with open(out_path, "wb") as out, open(err_path, "wb") as err:
        proc = subprocess.Popen(
            full, cwd=cwd, stdout=out, stderr=err, stdin=subprocess.DEVNULL, preexec_fn=limit, start_new_session=True
        )
    RUNNING.add(proc.pid)
    status, usage = None, None
    while status is None:
        pid, raw, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            status = os.waitstatus_to_exitcode(raw)
        elif time.perf_counter() - started > timeout:
            break
        else:
            time.sleep(0.005)
    kill_group(proc.pid)  # what is left of it (--jobs workers), after a timeout or a crash
    if status is None:
        _, raw, usage = os.wait4(proc.pid, 0)
    RUNNING.discard(proc.pid)
    proc.returncode = status if status is not None else -9  # so that Popen does not wait again
    seconds = time.perf_counter() - started
    stdout = out_path.read_text(encoding="utf-8", errors="replace")
    stderr = err_path.read_text(encoding="utf-8", errors="replace")
    out_path.unlink()
    err_path.unlink()
    return Run(tuple(args), status, stdout, stderr, seconds, usage.ru_maxrss if usage else 0)


def _last_line(text: str) -> str:
    return next((line.strip() for line in reversed(text.splitlines()) if line.strip()), "")[:200]


RUNNING: set[int] = set()  # the commands running now (each the leader of its process group)


def kill_group(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):  # it ended by itself
        os.killpg(pid, signal.SIGKILL)


def _run_problems(run: Run, where: str, allowed: Iterable[int] = (0, 1, 3)) -> list[Problem]:
    subject = f"{len(run.args)} arguments"
    if run.returncode is None:
        return [Problem("hang", where, subject, f"no end after {run.seconds:.0f} s: {run.command[:200]}")]
    problems = []
    if _OUT_OF_MEMORY.search(run.stderr):
        problems.append(Problem("memory", where, subject, _OUT_OF_MEMORY.search(run.stderr)[0]))
    if run.returncode < 0:
        problems.append(Problem("crash", where, subject, f"killed by signal {-run.returncode}"))
    elif run.returncode not in allowed:
        problems.append(Problem("exit code", where, subject, f"exit {run.returncode}: {_last_line(run.stderr)}"))
    if TRACEBACK.search(run.stdout + run.stderr):
        tail = [line for line in run.stderr.splitlines() if line.strip()][-1:] or ["(traceback on stdout)"]
        frames = _FRAME.findall(run.stderr)
        at = f" at {Path(frames[-1][0] or frames[-1][2]).name}:{frames[-1][1] or frames[-1][3]}" if frames else ""
        problems.append(Problem("traceback", where, subject, tail[0][:200] + at))
    return problems


# what a process that reached its memory limit says: Rust's allocator, or Python
_OUT_OF_MEMORY = re.compile(r"memory allocation of \d+ bytes failed|MemoryError")
# a frame of aifcheck's code in a traceback: plain (File "...", line N) or typer's (.../x.py:N in f)
_FRAME = re.compile(r'File "([^"]*/aifcheck/[^"]+\.py)", line (\d+)|(\S*/aifcheck/[\w/]+\.py):(\d+) in ')


def _json_report(run: Run, where: str, subject: str) -> tuple[dict | None, list[Problem]]:
    """A command's JSON report (None when it crashed, hung or printed none), and its run's problems."""
    problems = _run_problems(run, where)
    if run.returncode is None or run.returncode < 0:
        return None, problems
    try:
        return json.loads(run.stdout), problems
    except ValueError:
        detail = f"no JSON report (exit {run.returncode}): {_last_line(run.stderr)}"
        return None, [*problems, Problem("lost", where, subject, detail)]


def check_validate_json(run: Run, files: Sequence[str], verdicts: dict[str, Verdict] | None = None) -> list[Problem]:
    """``validate --format json FILES``: every file once, exit code from the report, the API's verdicts."""
    where = "cli validate"
    document, problems = _json_report(run, where, f"{len(files)} files")
    if document is None:
        return problems
    if run.stderr.strip():
        problems.append(Problem("stderr", where, f"{len(files)} files", run.stderr.strip().splitlines()[0][:200]))
    reported = Counter(f["file"] for f in document["files"])
    for path in files:
        if reported[path] != 1:
            problems.append(Problem("lost", where, path, f"reported {reported[path]} times"))
    for path in set(reported) - set(files):
        problems.append(Problem("lost", where, path, "reported but never given"))
    states = []
    for entry in document["files"]:
        state, found = _entry_problems(entry, (verdicts or {}).get(entry["file"]), where)
        states.append(state)
        problems += found
    failed, unreadable = "invalid" in states, "unreadable" in states
    want = 1 if failed else 3 if unreadable or document["input_errors"] else 0
    if run.returncode != want:
        problems.append(
            Problem("exit code", where, f"{len(files)} files", f"exit {run.returncode}, the report says {want}")
        )
    summary = document["summary"]
    if summary["files"] != len(files) or summary["valid"] + summary["invalid"] + summary["unreadable"] != len(files):
        problems.append(Problem("lost", where, f"{len(files)} files", f"summary {summary} for {len(files)} inputs"))
    return problems


def _entry_problems(entry: dict, expected: Verdict | None, where: str) -> tuple[str, list[Problem]]:
    """A file's entry of validate's JSON report: its state (unreadable, invalid or valid), and
    its problems (its message's; a state other than the API's ``expected``)."""
    path = entry["file"]
    problems = []
    if entry["error"] is not None:
        problems += _message_problems(entry["error"], path, where)
        state = "unreadable"
    elif entry["rule_errors"] or any(v["severity"] == "error" for v in entry["violations"]):
        state = "invalid"
    else:
        state = "valid"
    if (
        expected is not None
        and expected.state != "crashed"
        and (expected.state, expected.message) != (state, entry["error"])
    ):
        detail = f"API: {expected.state} {expected.message or ''}; command: {state} {entry['error'] or ''}"
        problems.append(Problem("verdict", where, path, detail))
    return state, problems


def _stderr_files(run: Run, files: Sequence[str], where: str) -> tuple[Counter, list[Problem]]:
    """The files that the stderr lines of claims or query name (FILE[:LINE[:COL]]: message)."""
    named: Counter = Counter()
    problems = []
    by_length = sorted(files, key=len, reverse=True)
    for line in run.stderr.splitlines():
        if line.startswith(WARNING):  # a readable file that holds nothing to print (claims)
            if not any(line.startswith(f"{WARNING}{f}:") for f in files):
                problems.append(
                    Problem("stderr", where, f"{len(files)} files", f"a warning that names no input: {line[:200]}")
                )
            continue
        path = next((f for f in by_length if line.startswith(f + ":")), None)
        if path is None:
            problems.append(
                Problem("stderr", where, f"{len(files)} files", f"a line that names no input: {line[:200]}")
            )
            continue
        named[path] += 1
        problems += _message_problems(line, path, where)
    return named, problems


def _named_on_stderr(
    run: Run, files: Sequence[str], verdicts: dict[str, Verdict], where: str, says_unreadable
) -> list[Problem]:
    """What claims and query share: one stderr line for each file the API cannot read
    (``says_unreadable(verdict)``), and exit 3 exactly when there is one."""
    named, problems = _stderr_files(run, files, where)
    for path in files:
        verdict = verdicts.get(path)
        if verdict is not None and verdict.state != "crashed" and named[path] != says_unreadable(verdict):
            problems.append(
                Problem(
                    "lost",
                    where,
                    path,
                    f"named {named[path]} times on stderr; API: {verdict.claims_error or verdict.state}",
                )
            )
    want = 3 if named else 0
    if run.returncode != want:
        problems.append(Problem("exit code", where, f"{len(files)} files", f"exit {run.returncode}, expected {want}"))
    return problems


def check_claims_json(run: Run, files: Sequence[str], verdicts: dict[str, Verdict]) -> list[Problem]:
    """``claims --format json FILES``: one stderr line per unreadable file, as the API says, exit 3
    then; as many claims as the API reads."""
    where = "cli claims"
    problems = _run_problems(run, where)
    if run.returncode is None or run.returncode < 0:
        return problems
    problems += _named_on_stderr(run, files, verdicts, where, lambda v: v.claims_error is not None)
    try:
        rows = json.loads(run.stdout) if run.stdout.strip() else []
    except ValueError:
        return [*problems, Problem("lost", where, f"{len(files)} files", "stdout is not JSON")]
    known = [verdicts.get(path) for path in files]
    if any(v is None or v.state == "crashed" for v in known):
        return problems  # the API did not read every file: no total to compare with
    expected = sum(v.claims or 0 for v in known)
    if len(rows) != expected:
        problems.append(
            Problem("lost", where, f"{len(files)} files", f"{len(rows)} claims printed, the API reads {expected}")
        )
    return problems


def check_query(run: Run, files: Sequence[str], verdicts: dict[str, Verdict]) -> list[Problem]:
    """``query --table T FILES``: one stderr line per unreadable file, a well-formed TSV."""
    where = "cli query"
    problems = _run_problems(run, where)
    if run.returncode is None or run.returncode < 0:
        return problems
    problems += _named_on_stderr(run, files, verdicts, where, lambda v: v.state == "unreadable")
    lines = run.stdout.split("\n")[:-1]
    if lines:
        tabs = lines[0].count("\t")
        bad = [i for i, line in enumerate(lines) if line.count("\t") != tabs]
        if bad:
            problems.append(
                Problem("table", where, f"{len(files)} files", f"TSV lines {bad[:5]} have another number of cells")
            )
    return problems


def check_lint(run: Run, frames: dict[str, str], verdicts: dict[str, Verdict]) -> list[Problem]:
    """``lint-submission DIR --format json``: every claim frame reported once, unreadable exactly
    when the API says so (``frames``: the path lint names each frame by -> its name in the batch)."""
    where = "cli lint-submission"
    document, problems = _json_report(run, where, f"{len(frames)} frames")
    if document is None:
        return problems
    entries = Counter(f["file"] for f in document["files"])
    errors = {f["file"]: f["error"] for f in document["files"]}
    for path, name in frames.items():
        if entries[path] != 1:
            problems.append(Problem("lost", where, name, f"reported {entries[path]} times"))
            continue
        verdict = verdicts.get(name)
        if (
            verdict is not None
            and verdict.state != "crashed"
            and (verdict.state == "unreadable") != (errors[path] is not None)
        ):
            problems.append(
                Problem("verdict", where, name, f"API: {verdict.state}; lint-submission: {errors[path] or 'readable'}")
            )
        if errors[path] is not None:
            problems += [Problem(p.kind, p.where, name, p.detail) for p in _message_problems(errors[path], path, where)]
    return problems


@dataclass
class Snapshot:
    """The files under a folder and their bytes, to tell what a run wrote or changed."""

    files: dict[str, bytes] = field(default_factory=dict)

    @classmethod
    def of(cls, folder: Path) -> Snapshot:
        return cls({p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()})


def check_reports(
    run: Run, files: Sequence[str], cwd: Path, out: str, before: Snapshot, json_exit: int | None
) -> list[Problem]:
    """``validate -o OUT FILES``: one report per input under OUT, at its path relative to the
    inputs' common folder; no input changed; nothing else written; the exit code of the JSON run."""
    where = "cli validate -o"
    problems = _run_problems(run, where)
    if run.returncode is None or run.returncode < 0:
        return problems
    after = Snapshot.of(cwd)
    changed = [name for name, data in before.files.items() if after.files.get(name) != data]
    if changed:
        problems.append(Problem("output", where, changed[0], f"{len(changed)} inputs changed or removed"))
    written = {name for name in after.files if name not in before.files}
    common = Path(os.path.commonpath([str(Path(f).parent) for f in files]))
    wanted = {(Path(out) / Path(f).relative_to(common)).as_posix() + ".txt" for f in files}
    for name in sorted(wanted - written):
        problems.append(Problem("lost", where, name, "no report written"))
    for name in sorted(written - wanted):
        problems.append(Problem("output", where, name, "written, but not a report of an input"))
    if json_exit is not None and run.returncode != json_exit:
        problems.append(
            Problem("exit code", where, f"{len(files)} files", f"exit {run.returncode}, with --format json {json_exit}")
        )
    return problems


# --- the commands' surroundings (issue 43): one mistake, one answer, whatever the command ----------


@dataclass(frozen=True)
class Expect:
    """What a command answers to one class of mistake: its exit status, and words its one line
    holds (beside the file's or option's name; ``line``: with the file's line, ``FILE:N:``)."""

    status: int
    words: str = ""  # a regular expression
    line: bool = False
    source: str = ""  # the command and case this answer was taken from (test_commands checks it still is)


# Mistake class -> the answer. The input and output classes are validate's answers (and score ta1's
# where validate has no such option), which the campaign checks every other command against; the
# classes no command answered yet (a value out of range, a repeated key or run) take the README's
# usage error (2) or unreadable input (3).
MISTAKES: dict[str, Expect] = {
    "missing": Expect(3, source="validate nothere.ttl (no such file or directory)"),
    "FIFO": Expect(3, "not a regular file", source="validate fifo.ttl"),
    "/dev/zero": Expect(3, "not a regular file", source="validate link-to-dev-zero.ttl"),
    "dangling link": Expect(3, "a symbolic link to nothing", source="validate dangling.ttl"),
    "link loop": Expect(3, "a symbolic link to nothing", source="validate loop.ttl"),
    "unreadable": Expect(3, "cannot read: Permission denied", source="validate (as nobody) chmod-000.ttl"),
    "folder unreadable": Expect(3, "Permission denied", source="validate (as nobody) chmod-000-folder"),
    "ancestor unreadable": Expect(3, "Permission denied", source="validate (as nobody) chmod-000-folder"),
    "empty file": Expect(3, source="validate empty.ttl (empty file)"),
    "NUL bytes": Expect(3, "binary", source="validate nul.ttl"),
    "not UTF-8": Expect(3, "not UTF-8", line=True, source="validate latin1.ttl"),
    "BOM": Expect(0, source="validate bom.ttl: read as without the BOM"),
    "duplicate key": Expect(3, line=True),
    "option value": Expect(2),
    "same run twice": Expect(2),
    "one folder name": Expect(2),
    "other task": Expect(2),
    # -o of a folder (or of reports, validate's) onto what is no new or empty folder; -o onto an input
    "-o onto a file": Expect(2, "not a folder", source="validate -o FILE"),
    "-o /proc/version": Expect(2, "not a folder", source="validate -o /proc/version"),
    "-o FILE/sub": Expect(3, "Not a directory", source="validate -o FILE/sub"),
    "-o not empty": Expect(2, "not empty", source="score ta1 -o NONEMPTY"),
    "-o onto its input": Expect(2, "input|not a folder", source="claims KB -o KB"),
    "-o inside an input": Expect(2, "input", source="score ta2 -o RUN --force"),
    "-o = --tab": Expect(2, "--tab"),
}
# where a class is no mistake for one command: two runs of one folder name are two runs to a report
# (it tells them apart by their paths), one run ID twice to a pool
NO_MISTAKE = {("score report", "one folder name")}


def expected(command: str, mistake: str) -> Expect:
    """The answer ``command`` gives to ``mistake``."""
    return Expect(0) if (command, mistake) in NO_MISTAKE else MISTAKES[mistake]


# every line on stderr: aifcheck's own of one of three kinds, or validate's line on a file (FILE[:LINE[:COLUMN]]: ...)
FORM = re.compile(r"aifcheck: (error|warning|note): |(?!aifcheck:)[^\s:]*[./][^\s:]*(:\d+){0,2}: ")


def entry(path: Path) -> tuple[str, str | None]:
    """What a path is, not following a link: its type (f file, d folder, l link, p FIFO, c device,
    ? other or gone) and, for a file, a digest of its bytes (None unreadable), for a link, its target."""
    try:
        info = os.lstat(path)
    except OSError:
        return "?", None
    kind = {0o100000: "f", 0o040000: "d", 0o120000: "l", 0o010000: "p", 0o020000: "c"}.get(info.st_mode & 0o170000, "?")
    if kind == "l":
        return kind, os.readlink(path)
    if kind != "f":
        return kind, None
    try:
        return kind, hashlib.sha1(Path(path).read_bytes()).hexdigest()
    except OSError:
        return kind, None


def tree(root: Path, skip: Iterable[Path] = ()) -> dict[str, tuple[str, str | None]]:
    """Every path under ``root`` (links not followed; ``root`` itself followed), as ``entry``, by
    its path relative to ``root``; the paths in ``skip`` and what is under them left out."""
    left_out = {os.fsencode(p) for p in skip}
    found: dict[str, tuple[str, str | None]] = {}
    if not os.path.isdir(root):
        return {".": entry(root)} if os.path.lexists(root) else {}
    for top, folders, files in os.walk(root):
        for name in sorted(folders + files):
            path = Path(top) / name
            if os.fsencode(path) in left_out:
                if name in folders:
                    folders.remove(name)
                continue
            found[os.fsdecode(os.path.relpath(path, root))] = entry(path)
    return found


def tsv_shape(path: Path) -> frozenset[int] | None:
    """The numbers of tabs the lines of a tab-separated file have (None: not such a file)."""
    if path.suffix not in (".tab", ".tsv") or path.is_symlink() or not path.is_file():
        return None
    try:
        return frozenset(line.count(b"\t") for line in path.read_bytes().split(b"\n") if line)
    except OSError:
        return None


def tsv_shapes(folder: Path) -> dict[str, frozenset[int]]:
    """The tab-separated files under ``folder``, as tsv_shape, by path."""
    found = {}
    for path in sorted(folder.rglob("*")) if folder.is_dir() and not folder.is_symlink() else []:
        if (shape := tsv_shape(path)) is not None:
            found[os.fsdecode(path.relative_to(folder))] = shape
    return found
