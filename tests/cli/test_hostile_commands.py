"""Hostile input for every command (issue 36), one test per class of the issue, through the
installed command: no traceback, no hang, no silent loss, no half-written output. Where
permissions matter the command runs as ``nobody`` (setpriv), skipped with the reason when that is
not possible. tests/fuzz/commands.py runs the same classes as a seeded campaign."""

from __future__ import annotations

import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers import FIXTURES, ROOT, SCORE_TA3, SHARED_DATA, TAGGABLE_TYPES, TEST_DATA, TYPE_SIMILARITY

import aifcheck as aifcheck_api

GOOD = FIXTURES / "N4" / "good.ttl"
DOCUMENT_KB = ROOT / "examples" / "valid" / "document-kb.ttl"
FRAME = TEST_DATA / "submission" / "run" / "CLQRYA0001.000001" / "CLDOCA0001.000001.ttl"
TA3 = ROOT / "tests" / "score" / "fixtures" / "ta3" / "T1"
CRUX = ROOT / "tests" / "score" / "fixtures" / "crux"
NOBODY = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]


def aifcheck(
    *args: object,
    cwd: Path | None = None,
    user: list[str] | None = None,
    timeout: float = 120,
    limits: dict[int, int] | None = None,
    **kwargs,
) -> subprocess.CompletedProcess:
    """The installed command (as ``user``, a setpriv prefix, when given), its output as text."""

    def limit() -> None:
        for which, value in (limits or {}).items():
            resource.setrlimit(which, (value, value))

    return subprocess.run(
        [*(user or []), sys.executable, "-m", "aifcheck", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=cwd,
        preexec_fn=limit if limits else None,
        **kwargs,
    )


def one_line(proc: subprocess.CompletedProcess, status: int | tuple[int, ...]) -> str:
    """The run's only stderr line, after checking its exit status and that no traceback came."""
    statuses = (status,) if isinstance(status, int) else status
    assert proc.returncode in statuses, (proc.returncode, proc.stderr[-3000:])
    assert "Traceback" not in proc.stdout + proc.stderr
    lines = [line for line in proc.stderr.splitlines() if not line.startswith(("note:", "aifcheck: warning:"))]
    assert len(lines) == 1, proc.stderr[-3000:]
    return lines[0]


@pytest.fixture
def open_folder() -> Iterator[Path]:
    """A folder that another user may enter and write (pytest's are the owner's alone)."""
    folder = Path(tempfile.mkdtemp(prefix="aifcheck-hostile-"))
    folder.chmod(0o777)
    yield folder
    for path in [folder, *folder.rglob("*")]:
        if not path.is_symlink():
            path.chmod(0o777)
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="module")
def as_nobody() -> list[str]:
    """The setpriv prefix that runs a command as nobody, or a skip saying why it cannot."""
    if os.getuid() != 0:
        return []  # not root: permission bits apply already
    if shutil.which("setpriv") is None:
        pytest.skip("setpriv is not installed: the permission tests need to run the command as another user")
    probe = subprocess.run(
        [*NOBODY, sys.executable, "-m", "aifcheck", "--version"], capture_output=True, text=True, cwd="/"
    )
    if probe.returncode != 0:
        pytest.skip(
            f"nobody cannot run aifcheck here (its files are not readable by others): {probe.stderr.strip()[-200:]}"
        )
    return NOBODY


def _share(folder: Path) -> None:
    for path in [folder, *folder.rglob("*")]:
        if not path.is_symlink():
            path.chmod(0o777 if path.is_dir() else 0o666)


@pytest.fixture
def ta1_inputs(open_folder: Path) -> Path:
    """NIST's example TA1 run (SPARQL layout), its gold and AUX data, reduced to its two core
    documents, copied where another user may read them."""
    example = SHARED_DATA / "ta1-scoring" / "example-task1-run" / "SPARQL-output"
    if not example.is_dir():
        pytest.skip(f"NIST's example TA1 run not found at {example}")
    documents = ("L0C04960U", "L0C0499MZ")
    for document in documents:
        shutil.copytree(example / f"{document}.ttl", open_folder / "run" / f"{document}.ttl")
        shutil.copytree(SHARED_DATA / "ta1-gold-tsv" / f"{document}.ttl", open_folder / "gold" / f"{document}.ttl")
    aux = SHARED_DATA / "ta1-scoring" / "AUX-data"
    (open_folder / "aux").mkdir()
    for path in aux.iterdir():
        if not path.name.endswith((".xlsx", "coredocs.txt")):
            shutil.copyfile(path, open_folder / "aux" / path.name)
    (open_folder / "aux" / "LDC2021E11.coredocs-xx.txt").write_text("root_id\n" + "".join(f"{d}\n" for d in documents))
    shutil.copyfile(TYPE_SIMILARITY, open_folder / "similarity.tsv")
    shutil.copyfile(TAGGABLE_TYPES, open_folder / "taggable.txt")
    _share(open_folder)
    return open_folder


TA1 = ("score", "ta1", "run", "--gold", "gold", "--aux", "aux", "--type-similarity", "similarity.tsv")
TA1 += ("--taggable-types", "taggable.txt")


@pytest.fixture
def ta3_inputs(open_folder: Path) -> Path:
    shutil.copytree(TA3, open_folder / "ta3", ignore=shutil.ignore_patterns("nist"))
    _share(open_folder)
    return open_folder


RANKING = "ta3/RUN1/Condition6/T100/T100.ranking.tsv"


def _kb(folder: Path, name: str = "k.ttl", source: Path = DOCUMENT_KB) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source, path)
    return path


def _leftovers(folder: Path) -> list[str]:
    return [p.name for p in folder.rglob("*") if ".partial" in p.name or p.name.endswith(".lock")]


# --- 1. output paths ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("output", "status", "words"),
    [
        ("afile", 2, "not a folder"),
        ("/dev/null", 2, "not a folder"),
        ("loop", 2, "a symbolic link"),
        ("o" * 300, 3, "File name too long"),
        ("afile/sub", 3, "cannot write under"),
    ],
)
def test_score_ta1_output_paths(ta1_inputs: Path, output: str, status: int, words: str) -> None:
    (ta1_inputs / "afile").write_text("keep me\n")
    os.symlink("loop", ta1_inputs / "loop")
    line = one_line(aifcheck(*TA1, "-o", output, cwd=ta1_inputs), status)
    assert line.startswith("aifcheck: error: ") and words in line
    assert (ta1_inputs / "afile").read_text() == "keep me\n" and not _leftovers(ta1_inputs)


def test_score_ta1_into_a_read_only_folder(ta1_inputs: Path, as_nobody: list[str]) -> None:
    (ta1_inputs / "ro").mkdir()
    (ta1_inputs / "ro").chmod(0o555)
    line = one_line(aifcheck(*TA1, "-o", "ro/out", cwd=ta1_inputs, user=as_nobody), 3)
    assert line.startswith("aifcheck: error: cannot write under") and "Permission denied" in line
    assert not (ta1_inputs / "ro" / "out").exists()


@pytest.mark.parametrize("command", ["ta3", "claims", "query", "graph"])
def test_output_under_a_file(ta3_inputs: Path, command: str) -> None:
    """-o FILE/x: one line, exit 3 (the atomic writer's clean-up used to raise a second error)."""
    folder = ta3_inputs
    (folder / "afile").write_text("keep me\n")
    _kb(folder)
    args = {
        "ta3": [*SCORE_TA3, "-o", "afile/x"],
        "claims": ["claims", "k.ttl", "-o", "afile/x"],
        "query": ["query", "k.ttl", "--table", "AIDA_P3_TA1_CM_A0001", "-o", "afile/x"],
        "graph": ["graph", "k.ttl", "-o", "afile/x.dot"],
    }[command]
    line = one_line(aifcheck(*args, cwd=folder), 3)
    assert line.startswith("aifcheck: error: cannot write") and (folder / "afile").read_text() == "keep me\n"


@pytest.mark.parametrize(
    ("command", "stdout"),
    [("validate", "closed"), ("summary", "/dev/full"), ("claims", "/dev/full"), ("query", "closed")],
)
def test_standard_output_that_cannot_be_written(tmp_path: Path, command: str, stdout: str) -> None:
    _kb(tmp_path, source=FRAME)
    args = {
        "validate": ["validate", "k.ttl"],
        "summary": ["summary", "k.ttl"],
        "claims": ["claims", "k.ttl"],
        "query": ["query", "k.ttl", "--table", "AIDA_P3_TA1_CM_A0001"],
    }[command]
    command = [sys.executable, "-m", "aifcheck", *args]
    closed = stdout == "closed"  # the shell closes it (>&-); else /dev/full, where every write fails
    with open("/dev/full", "w") as full:
        proc = subprocess.run(
            " ".join(command) + " >&-" if closed else command,
            shell=closed,
            cwd=tmp_path,
            stdout=None if closed else full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
        )
    proc.stdout = ""
    line = one_line(proc, 3)
    reason = "it is closed" if stdout == "closed" else "No space left on device"
    assert line == f"aifcheck: error: cannot write standard output: {reason}"


# --- 2. input folders ----------------------------------------------------------------------------


def test_a_folder_that_cannot_be_entered(ta1_inputs: Path, ta3_inputs: Path, as_nobody: list[str]) -> None:
    folder = ta1_inputs
    (folder / "run" / "L0C04960U.ttl").chmod(0o000)
    line = one_line(aifcheck(*TA1, "-o", "out", cwd=folder, user=as_nobody), 3)
    assert line == "aifcheck: error: run/L0C04960U.ttl: cannot read this folder: Permission denied"
    (folder / "run" / "L0C04960U.ttl").chmod(0o777)
    (folder / "ta3/RUN1/Condition6").chmod(0o000)
    line = one_line(aifcheck(*SCORE_TA3, "-o", "out3", cwd=folder, user=as_nobody), 3)
    assert "ta3/RUN1/Condition6" in line and "Permission denied" in line
    shutil.copytree(TEST_DATA / "submission", folder / "sub")
    _share(folder / "sub")
    (folder / "sub/run/CLQRYA0001.000001").chmod(0o000)
    line = one_line(
        aifcheck(
            "lint-submission", "sub/run", "--condition", "5", "--queries", "sub/queries", cwd=folder, user=as_nobody
        ),
        3,
    )
    assert "sub/run/CLQRYA0001.000001" in line and "Permission denied" in line
    assert not (folder / "out").exists() and not (folder / "out3").exists()


def test_core_document_longer_than_a_file_name(ta1_inputs: Path) -> None:
    with open(ta1_inputs / "aux" / "LDC2021E11.coredocs-xx.txt", "a") as file:
        file.write("L" * 300 + "\n")
    line = one_line(aifcheck(*TA1, "-o", "out", cwd=ta1_inputs), 3)
    assert (
        line == "aifcheck: error: aux/LDC2021E11.coredocs-xx.txt:4: a document ID of 300 characters: "
        "longer than a file name may be"
    )


# --- 3. special files ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("special", "where"),
    [
        ("fifo", "ranking"),
        ("/dev/zero", "ranking"),
        ("/dev/zero", "crux"),
        ("fifo", "sparql"),
        ("/dev/zero", "sparql"),
        ("fifo", "type-similarity"),
        ("fifo", "graph"),
    ],
)
def test_special_files_are_refused_at_once(ta3_inputs: Path, special: str, where: str) -> None:
    folder = ta3_inputs
    _kb(folder)
    path = folder / "special"
    if special == "fifo":
        os.mkfifo(path)
    else:
        os.symlink("/dev/zero", path)
    if where == "ranking":
        (folder / RANKING).unlink()
        os.symlink(path, folder / RANKING)
        args = [*SCORE_TA3, "-o", "out"]
    else:
        args = {
            "crux": ["score", "crux-claims", "special", "--gold", CRUX / "gold.tab"],
            "sparql": ["query", "k.ttl", "--sparql", "special"],
            "type-similarity": [*TA1, "-o", "out", "--type-similarity", "special"],
            "graph": ["graph", "special", "-o", "g.dot"],
        }[where]
    if where == "type-similarity" and not (SHARED_DATA / "ta1-gold-tsv").is_dir():
        pytest.skip("NIST's TA1 data absent")
    if where == "type-similarity":
        for name in ("run", "gold", "aux"):
            os.symlink(
                SHARED_DATA
                / {
                    "run": "ta1-scoring/example-task1-run/SPARQL-output",
                    "gold": "ta1-gold-tsv",
                    "aux": "ta1-scoring/AUX-data",
                }[name],
                folder / name,
            )
    line = one_line(aifcheck(*args, cwd=folder, timeout=60, limits={resource.RLIMIT_AS: 2 * 1024**3}), 3)
    assert "not a regular file" in line


# --- 4. queries that crash the engine or never end -----------------------------------------------------


@pytest.mark.parametrize(
    "query",
    [
        "SELECT * WHERE { ?s ?p ?o FILTER(" + "(" * 5000 + "1" + ")" * 5000 + ") }",
        "SELECT * WHERE " + "{ " * 3000 + "?s ?p ?o " + "} " * 3000,
    ],
    ids=["5000 parentheses", "3000 groups"],
)
def test_deep_query_is_refused_before_the_engine(tmp_path: Path, query: str) -> None:
    _kb(tmp_path)
    (tmp_path / "q.rq").write_text(query)
    assert (
        one_line(aifcheck("query", "k.ttl", "--sparql", "q.rq", cwd=tmp_path), 2)
        == "aifcheck: error: q.rq: brackets nested more than 256 deep: not a query aifcheck runs"
    )


@pytest.mark.parametrize("query", ["", " \n\n"], ids=["empty", "blank"])
def test_an_empty_query_file_is_an_unreadable_input(tmp_path: Path, query: str) -> None:
    """Issue 43 (case 6053): as validate takes an empty file (exit 3), not a syntax error (2)."""
    _kb(tmp_path)
    (tmp_path / "q.rq").write_text(query)
    line = one_line(aifcheck("query", "k.ttl", "--sparql", "q.rq", cwd=tmp_path), 3)
    assert line == "aifcheck: error: q.rq: empty file (the SPARQL query)"


def test_endless_result_stops_at_the_row_limit(tmp_path: Path) -> None:
    _kb(tmp_path)
    (tmp_path / "q.rq").write_text("SELECT * WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . ?j ?k ?l . ?m ?n ?o }")
    proc = aifcheck("query", "k.ttl", "--sparql", "q.rq", cwd=tmp_path, limits={resource.RLIMIT_AS: 2 * 1024**3})
    assert (
        one_line(proc, 2)
        == "aifcheck: error: q.rq: more than 200,000 rows (--max-rows): narrow the query, or give a larger --max-rows"
    )
    assert proc.stdout == ""
    few = aifcheck("query", "k.ttl", "--sparql", "q.rq", "--max-rows", "10", cwd=tmp_path)
    assert "more than 10 rows" in one_line(few, 2)
    (tmp_path / "small.rq").write_text("SELECT ?s WHERE { ?s a ?t }")
    assert aifcheck("query", "k.ttl", "--sparql", "small.rq", "--max-rows", "1000", cwd=tmp_path).returncode == 0


# --- 5. globs through link loops ---------------------------------------------------------------------


def test_glob_follows_each_real_folder_once(tmp_path: Path) -> None:
    _kb(tmp_path, "d/a.ttl", GOOD)
    _kb(tmp_path, "d/sub/b.ttl", GOOD)
    os.symlink("..", tmp_path / "d" / "sub" / "up")
    os.symlink("../sub", tmp_path / "d" / "sub" / "self")
    proc = aifcheck("validate", "--format", "json", "d/**/*.ttl", "d", cwd=tmp_path, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert sorted(f["file"] for f in json.loads(proc.stdout)["files"]) == ["d/a.ttl", "d/sub/b.ttl"]


# --- 6. silent loss ---------------------------------------------------------------------------------


@pytest.mark.parametrize("command", ["validate", "claims", "summary"])
def test_what_a_walk_cannot_read_is_reported(open_folder: Path, as_nobody: list[str], command: str) -> None:
    folder = open_folder
    _kb(folder, "d/frame.ttl", FRAME)
    _kb(folder, "d/hidden/other.ttl", FRAME)
    os.mkfifo(folder / "d" / "pipe.ttl")
    os.symlink("nothing", folder / "d" / "dangling.ttl")
    _share(folder)
    (folder / "d" / "hidden").chmod(0o000)
    proc = aifcheck(command, "d", cwd=folder, user=as_nobody, timeout=60)
    assert proc.returncode == 3 and "Traceback" not in proc.stderr
    text = proc.stdout + proc.stderr
    assert "d/hidden/: cannot read this folder: Permission denied" in text
    assert "d/pipe.ttl: not a regular file" in text and "d/dangling.ttl: a symbolic link to nothing" in text


@pytest.mark.parametrize("command", [("validate",), ("summary",), ("query", "--table", "AIDA_P3_TA1_CM_A0001")])
def test_an_unreadable_folder_reads_as_a_path(
    open_folder: Path, as_nobody: list[str], command: tuple[str, ...]
) -> None:
    """Issue 43 (cases 2865, 3449, 4256): a folder named without a dot or separator, which cannot be
    listed, is named as a folder (``kb/``), so that the line has validate's form on a file."""
    _kb(open_folder, "kb/frame.ttl", FRAME)
    _share(open_folder)
    (open_folder / "kb").chmod(0o000)
    proc = aifcheck(*command, "kb", cwd=open_folder, user=as_nobody, timeout=60)
    assert proc.returncode == 3 and "Traceback" not in proc.stderr
    assert "kb/: cannot read this folder: Permission denied" in (proc.stdout + proc.stderr).splitlines()


@pytest.mark.parametrize("kind", ["folder", "fifo"])
def test_score_ta1_run_table_that_is_no_file(ta1_inputs: Path, kind: str) -> None:
    table = ta1_inputs / "run" / "L0C04960U.ttl" / "AIDA_P3_TA1_AM_A0001.rq.tsv"
    table.unlink()
    {"folder": table.mkdir, "fifo": lambda: os.mkfifo(table)}[kind]()
    line = one_line(aifcheck(*TA1, "-o", "out", cwd=ta1_inputs, timeout=60), 3)
    assert line.startswith("aifcheck: error: run/L0C04960U.ttl/AIDA_P3_TA1_AM_A0001.rq.tsv: ")
    assert not (ta1_inputs / "out").exists()


def test_score_ta1_missing_run_table_is_told(ta1_inputs: Path) -> None:
    (ta1_inputs / "run" / "L0C04960U.ttl" / "AIDA_P3_TA1_AM_A0001.rq.tsv").unlink()
    proc = aifcheck(*TA1, "-o", "out", cwd=ta1_inputs)
    assert proc.returncode == 3  # NIST's driver stops (MISSING_OPEN_PERFORMER_FILE): its results.json, nothing scored
    assert (
        "aifcheck: error: run/L0C04960U.ttl: no AIDA_P3_TA1_AM_A0001.rq.tsv: NIST's driver stops on it: nothing scored"
        " (out/results.json: FatalError Yes)"
    ) in proc.stderr.splitlines()


def test_score_ta3_replaces_its_scores_only_with_force(ta3_inputs: Path) -> None:
    first = aifcheck(*SCORE_TA3, "-o", "out", cwd=ta3_inputs)
    assert first.returncode == 0, first.stderr
    (ta3_inputs / "out" / "scores" / "mine.txt").write_text("keep me\n")
    again = aifcheck(*SCORE_TA3, "-o", "out", cwd=ta3_inputs)
    assert (
        again.returncode == 2
        and again.stderr == "aifcheck: error: -o out/scores: exists and is not empty (--force replaces it)\n"
    )
    forced = aifcheck(*SCORE_TA3, "-o", "out", "--force", cwd=ta3_inputs)
    assert forced.returncode == 0 and not (ta3_inputs / "out" / "scores" / "mine.txt").exists()
    assert (ta3_inputs / "out" / "scores" / "NDCGScorerV1-scores.tab").is_file()


def test_score_ta3_query_without_ranking_is_told(ta3_inputs: Path) -> None:
    (ta3_inputs / RANKING).unlink()
    proc = aifcheck(*SCORE_TA3, "-o", "out", cwd=ta3_inputs)
    assert proc.returncode == 0
    assert (
        "aifcheck: warning: ta3/RUN1/Condition6/T100: no T100.ranking.tsv: "
        "the query is scored as a run that ranks no claim" in proc.stderr.splitlines()
    )


@pytest.mark.parametrize(
    ("command", "system", "what"),
    [("crux-claims", "system.tab", "claim frame"), ("crux-relations", "system-relations.tab", "relation")],
)
def test_crux_empty_gold_is_told(tmp_path: Path, command: str, system: str, what: str) -> None:
    (tmp_path / "gold.tab").write_text("")
    proc = aifcheck("score", command, CRUX / system, "--gold", "gold.tab", cwd=tmp_path)
    assert (
        proc.returncode == 0
        and f"aifcheck: warning: gold.tab: holds no {what}: every score is 0" in proc.stderr.splitlines()
    )
    score = {"crux-claims": aifcheck_api.score_crux_claims, "crux-relations": aifcheck_api.score_crux_relations}[
        command
    ]
    assert (
        f"{tmp_path / 'gold.tab'}: holds no {what}: every score is 0"
        in score(CRUX / system, tmp_path / "gold.tab").warnings
    )  # the API's value says it


# --- 7. errors that name the input and its line -------------------------------------------------------------


def test_errors_name_the_input_and_line(ta3_inputs: Path) -> None:
    folder = ta3_inputs
    ranking = folder / RANKING
    lines = ranking.read_bytes().split(b"\n")
    ranking.write_bytes(b"\n".join([lines[0], lines[1][:3] + b"\xff" + lines[1][3:], *lines[2:]]))
    line = one_line(aifcheck(*SCORE_TA3, "-o", "out", cwd=folder), 3)
    assert line == f"aifcheck: error: {RANKING}:2:4: not UTF-8 (byte 0xff); text files must be UTF-8"
    gold = folder / "gold.tab"
    rows = [row.split("\t") for row in (CRUX / "gold.tab").read_text().split("\n")]
    row = next(r for r in rows if len(r) == 12 and r[6] != "epistemic_status")
    row[6] = "y" * 2_000_000  # an epistemic status of 2 MB: quoted in the error, cut
    gold.write_text("\n".join("\t".join(r) for r in rows))
    line = one_line(aifcheck("score", "crux-claims", CRUX / "system.tab", "--gold", "gold.tab", cwd=folder), 3)
    assert line.startswith("aifcheck: error: gold.tab:") and len(line) < 1100 and "characters cut" in line


def test_ta3_missing_row_names_its_component_line(ta3_inputs: Path) -> None:
    claim = next((ta3_inputs / "ta3" / "LDC").rglob("*-outer-claim.tab"))
    text = claim.read_text().split("\n")
    dropped = next(i for i, row in enumerate(text) if "\toverallAssessment\t" in row)
    component = "\t".join(text[dropped].split("\t")[1:3])
    first = next(i for i, row in enumerate(text, 1) if "\t".join(row.split("\t")[1:3]) == component)
    claim.write_text("\n".join(text[:dropped] + text[dropped + 1 :]))
    line = one_line(aifcheck(*SCORE_TA3, "-o", "out", cwd=ta3_inputs), 3)
    assert line.startswith(f"aifcheck: error: {claim.relative_to(ta3_inputs)}:{first}: ")


# --- 8. outputs left broken ---------------------------------------------------------------------------


def test_score_ta1_run_folder_name_not_utf8(ta1_inputs: Path) -> None:
    """Issue 43 (cases 1431, 5537): a run folder whose name holds a byte that is not UTF-8 (with
    --run-id, so that the name is only a path) is scored; its logs name it with the byte escaped."""
    os.rename(ta1_inputs / "run", os.fsencode(ta1_inputs) + b"/run\xff")
    proc = aifcheck(*TA1[:2], os.fsdecode(b"run\xff"), *TA1[3:], "--run-id", "R", "-o", "out", cwd=ta1_inputs)
    assert proc.returncode in (0, 1) and "internal error" not in proc.stderr, proc.stderr[-2000:]
    logs = "".join(path.read_text(encoding="utf-8") for path in (ta1_inputs / "out" / "logs").iterdir())
    assert "run\\xff" in logs


def _start_ta1(folder: Path) -> subprocess.Popen:
    """score ta1 on the inputs in ``folder`` into out/, started in the background."""
    return subprocess.Popen(
        [sys.executable, "-m", "aifcheck", *TA1, "-o", "out"],
        cwd=folder,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


@pytest.mark.parametrize("signal_number", [signal.SIGINT, signal.SIGTERM])
def test_score_ta1_interrupted_leaves_nothing(ta1_inputs: Path, signal_number: int) -> None:
    proc = _start_ta1(ta1_inputs)
    deadline = time.monotonic() + 60
    while not list(ta1_inputs.glob(".out.partial-*")) and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)  # the run is writing
    proc.send_signal(signal_number)
    _, err = proc.communicate(timeout=120)
    if proc.returncode in (0, 1):
        pytest.skip("the run ended before the signal came")
    assert proc.returncode == {signal.SIGINT: 130, signal.SIGTERM: 143}[signal_number] and "Traceback" not in err
    assert not (ta1_inputs / "out").exists() and not _leftovers(ta1_inputs)
    assert aifcheck(*TA1, "-o", "out", cwd=ta1_inputs).returncode in (0, 1)  # and runs again


_SIGNALLED = """
import os, signal, sys
from pathlib import Path
from aifcheck.cli import _interrupted
from aifcheck.render.output import new_folder
signal.signal(signal.SIGTERM, _interrupted)
signal.signal(signal.SIGINT, _interrupted)
try:  # as aifcheck.cli.main ends an interrupted run
    with new_folder(Path("out")) as folder:
        (folder / "table.tab").write_text("a\\tb\\n")
        if sys.argv[1] == "while writing":
            os.kill(os.getpid(), int(sys.argv[2]))
except KeyboardInterrupt:
    sys.exit(130)
if sys.argv[1] == "once in place":
    os.kill(os.getpid(), int(sys.argv[2]))
print("ended")
"""


@pytest.mark.parametrize("signal_number", [signal.SIGINT, signal.SIGTERM])
@pytest.mark.parametrize("moment", ["while writing", "once in place"])
def test_a_signal_leaves_no_output_or_a_complete_one(tmp_path: Path, moment: str, signal_number: int) -> None:
    """Issue 43 (cases 4264, 7340): a signal while the output is written leaves nothing (no folder,
    lock or partial folder) and exit 130|143; one that comes once the output is in place is too late
    to undo it: the run ends as it would have (exit 0), its output whole."""
    proc = subprocess.run(
        [sys.executable, "-c", _SIGNALLED, moment, str(int(signal_number))],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert not _leftovers(tmp_path), list(tmp_path.iterdir())
    if moment == "while writing":
        assert proc.returncode == 128 + signal_number and not (tmp_path / "out").exists(), proc.stderr
    else:
        assert proc.returncode == 0 and proc.stdout == "ended\n", proc.stderr
        assert (tmp_path / "out" / "table.tab").read_text() == "a\tb\n"


def test_a_run_does_not_take_an_earlier_output_for_its_own(tmp_path: Path) -> None:
    """An output another piece of work placed in the process before the run (a test's, or that of
    the parent of a fork, as the fuzz campaign's fixtures) does not make the run's signals too late."""
    script = (
        "import sys\n"
        "from pathlib import Path\n"
        "from aifcheck.cli import main\n"
        "from aifcheck.render import output\n"
        "with output.new_folder(Path('earlier')):\n"
        "    pass\n"
        "assert output.PLACED\n"
        "sys.argv = ['aifcheck', '--version']\n"
        "try:\n"
        "    main()\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(len(output.PLACED))\n"
    )
    proc = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and proc.stdout.splitlines()[-1] == "0", proc.stderr


def test_score_ta1_on_a_full_disk(ta1_inputs: Path) -> None:
    proc = aifcheck(*TA1, "-o", "out", cwd=ta1_inputs, limits={resource.RLIMIT_FSIZE: 20_000})
    assert one_line(proc, 3).startswith("aifcheck: error: cannot write out: File too large")
    assert not (ta1_inputs / "out").exists() and not _leftovers(ta1_inputs)


def test_a_lock_another_run_has_just_made_is_not_taken(ta3_inputs: Path) -> None:
    # between making its lock and writing its pid in it, a run's lock is empty: another run must
    # not take it for a dead run's (the twin-run cases of the command campaign met it)
    lock = ta3_inputs / "out" / ".scores.lock"
    lock.parent.mkdir()
    lock.write_text("")
    refused = aifcheck(*SCORE_TA3, "-o", "out", cwd=ta3_inputs)
    assert (
        refused.returncode == 2
        and refused.stderr == "aifcheck: error: -o out/scores: another aifcheck run is writing it\n"
    )
    assert not (ta3_inputs / "out" / "scores").exists() and lock.exists()
    os.utime(lock, (time.time() - 60, time.time() - 60))  # an empty lock left long ago: a dead run's
    taken = aifcheck(*SCORE_TA3, "-o", "out", cwd=ta3_inputs)
    assert taken.returncode == 0 and (ta3_inputs / "out" / "scores").is_dir() and not lock.exists()


def test_score_ta1_second_run_and_force(ta1_inputs: Path) -> None:
    first = _start_ta1(ta1_inputs)
    second = aifcheck(*TA1, "-o", "out", cwd=ta1_inputs)
    first.communicate(timeout=120)
    assert sorted((first.returncode, second.returncode)) in ([0, 2], [1, 2])  # never both: one is refused
    assert "--force" in second.stderr or "another aifcheck run" in second.stderr or first.returncode == 2
    results = (ta1_inputs / "out" / "results.json").read_text()
    (ta1_inputs / "out" / "extra.txt").write_text("old")
    again = aifcheck(*TA1, "-o", "out", "--force", cwd=ta1_inputs)
    assert again.returncode in (0, 1) and (ta1_inputs / "out" / "results.json").read_text() == results
    assert not (ta1_inputs / "out" / "extra.txt").exists() and not _leftovers(ta1_inputs)


def test_query_nist_layout_on_a_full_disk(tmp_path: Path) -> None:
    _kb(tmp_path)
    proc = aifcheck(
        "query",
        "k.ttl",
        "--task",
        "ta1",
        "--nist-layout",
        "-o",
        "out",
        cwd=tmp_path,
        limits={resource.RLIMIT_FSIZE: 300},
    )
    assert one_line(proc, 3).startswith("aifcheck: error: cannot write")
    complete = aifcheck("query", "k.ttl", "--task", "ta1", "--nist-layout", "-o", "whole", cwd=tmp_path)
    assert complete.returncode == 0
    for path in (tmp_path / "out").rglob("*.tsv"):  # each table written whole, or not at all
        assert path.read_bytes() == (tmp_path / "whole" / path.relative_to(tmp_path / "out")).read_bytes()
    assert not _leftovers(tmp_path)


# --- 9. overwriting inputs -------------------------------------------------------------------------


@pytest.mark.parametrize("command", ["claims", "query", "graph"])
def test_output_onto_its_own_input_is_refused(tmp_path: Path, command: str) -> None:
    kb = _kb(tmp_path, source=FRAME)
    before = kb.read_bytes()
    args = {
        "claims": ["claims", "k.ttl"],
        "query": ["query", "k.ttl", "--table", "AIDA_P3_TA1_CM_A0001"],
        "graph": ["graph", "k.ttl"],
    }[command]
    line = one_line(aifcheck(*args, "-o", "k.ttl", cwd=tmp_path), 2)
    assert line == "aifcheck: error: -o k.ttl: is the input k.ttl, which the output would replace"
    assert kb.read_bytes() == before


# --- 10. workers end with their parent -------------------------------------------------------------------


def _children(pid: int) -> set[int]:
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                    found.add(int(entry.name))
            except (OSError, ValueError, IndexError):
                pass
    return found


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux's /proc to find the workers")
def test_workers_end_with_a_killed_parent(tmp_path: Path) -> None:
    for number in range(40):
        _kb(tmp_path, f"many/k{number}.ttl", DOCUMENT_KB)
    proc = subprocess.Popen(
        [sys.executable, "-m", "aifcheck", "validate", "-j", "2", "many"],
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while len(workers := _children(proc.pid)) < 2 and time.monotonic() < deadline:
        time.sleep(0.02)
    if proc.poll() is not None:
        pytest.skip("the run ended before its workers were seen")
    proc.kill()
    proc.wait()
    deadline = time.monotonic() + 10
    while (
        any(
            Path(f"/proc/{w}").exists() and "Z" not in Path(f"/proc/{w}/stat").read_text().split(")")[1][:3]
            for w in workers
        )
        and time.monotonic() < deadline
    ):
        time.sleep(0.05)
    alive = [
        w
        for w in workers
        if Path(f"/proc/{w}").exists() and "Z" not in Path(f"/proc/{w}/stat").read_text().split(")")[1][:3]
    ]
    assert not alive


# --- 11. unbounded output -----------------------------------------------------------------------------


def test_score_ta1_refuses_a_cell_that_would_pad_every_row(ta1_inputs: Path) -> None:
    table = ta1_inputs / "run" / "L0C04960U.ttl" / "AIDA_P3_TA1_CM_A0001.rq.tsv"
    lines = table.read_text().split("\n")
    cells = lines[1].split("\t")
    cells[0] = "<http://example.org/" + "a" * 1_000_000 + ">"
    lines[1] = "\t".join(cells)
    table.write_text("\n".join(lines))
    line = one_line(aifcheck(*TA1, "-o", "out", cwd=ta1_inputs, limits={resource.RLIMIT_AS: 2 * 1024**3}), 3)
    assert line.startswith(
        "aifcheck: error: run/L0C04960U.ttl/AIDA_P3_TA1_CM_A0001.rq.tsv:2: a cell of 1,000,021 characters"
    )
    assert len(line) < 400 and not (ta1_inputs / "out").exists()


# --- 12. terminal safety, run IDs, the catalogue without a cache -------------------------------------------


def test_summary_escapes_control_characters(tmp_path: Path) -> None:
    text = SHARED_DATA / "task1-run" / "L0C04960U.ttl"
    if not text.is_file():
        pytest.skip("NIST's TA1 KBs absent")
    (tmp_path / "k.ttl").write_text(
        text.read_text().replace('aida:sourceDocument "', 'aida:sourceDocument "E\\u001b[2J\\u0000', 3)
    )
    proc = aifcheck("summary", "k.ttl", cwd=tmp_path)
    assert proc.returncode == 0 and "\x1b" not in proc.stdout and "\x00" not in proc.stdout
    assert "E\\x1b[2J\\x00L0C04960U" in proc.stdout


@pytest.mark.parametrize("run_id", ["a\tb", "a\nb", ""])
def test_run_id_with_a_tab_or_line_break_is_refused(ta3_inputs: Path, run_id: str) -> None:
    line = one_line(aifcheck(*SCORE_TA3, "-o", "out", "--run-id", run_id, cwd=ta3_inputs), 2)
    assert line.startswith("aifcheck: error: --run-id ") and not (ta3_inputs / "out").exists()


def test_the_catalogue_needs_no_cache(tmp_path: Path) -> None:
    from aifcheck.validation.catalog import Built, fingerprint

    current = fingerprint()
    assert Built("catalog.json").read(current) is not None and Built("queries.json").read(current) is not None
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("")
    env = {
        **os.environ,
        "AIFCHECK_CACHE_DIR": str(blocked / "cache"),
        "XDG_CACHE_HOME": str(blocked),
        "HOME": str(blocked),
    }
    proc = aifcheck("validate", GOOD, env=env)
    assert proc.returncode == 0 and proc.stderr == "" and blocked.read_text() == ""


# --- an unexpected exception -----------------------------------------------------------------------------


def test_an_internal_error_is_one_line() -> None:
    code = (
        "import sys\nimport aifcheck.loading.paths as paths\n"
        "def broken(*_): raise ZeroDivisionError('division by zero')\n"
        "paths.discover = broken\n"
        "import aifcheck.cli.summary\naifcheck.cli.summary.discover = broken\n"
        "sys.argv = ['aifcheck', 'summary', 'x.ttl']\nfrom aifcheck.cli import main\nmain()\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    line = one_line(proc, 70)
    assert line.startswith(
        "aifcheck: internal error in `aifcheck summary`: ZeroDivisionError: division by zero (a bug of aifcheck "
    )
    assert "AIFCHECK_DEBUG=1" in line
    debug = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "AIFCHECK_DEBUG": "1"},
    )
    assert "Traceback" in debug.stderr and "ZeroDivisionError" in debug.stderr


@pytest.mark.parametrize(("interrupt", "status"), [(KeyboardInterrupt(), 130), (SystemExit(143), 143)])
def test_an_interrupt_python_wrapped_is_no_internal_error(interrupt: BaseException, status: int) -> None:
    """Issue 43 (seed 36, case 3703 under --only signal): SIGTERM while a class was made came out
    as "RuntimeError: Error calling __set_name__", caused by the interrupt: exit 143, not 70."""
    from aifcheck.cli import _internal

    wrapped = RuntimeError("Error calling __set_name__ on 'cached_property' instance '_index' in 'ScoreTable'")
    wrapped.__cause__ = interrupt
    with pytest.raises(SystemExit) as ended:
        _internal(wrapped)
    assert ended.value.code == status
