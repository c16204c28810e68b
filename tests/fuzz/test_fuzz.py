"""The harness in CI: a fixed seed's mutated files through the API and the command, and the
hand-made hostile inputs of issue 21, each with the outcome the README promises."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import aifcheck
from aifcheck.errors import InputError
from aifcheck.loading.kb import load_kb
from fuzz.fuzz import Settings, campaign, table
from fuzz.hostile import GOOD, HEAD, HOSTILE, MiB
from fuzz.mutate import case
from fuzz.oracle import (
    TABLES,
    Snapshot,
    check_api,
    check_claims_json,
    check_query,
    check_reports,
    check_validate_json,
    leaks,
    run_command,
)
from fuzz.test_regressions import known, unknown

SEED = 21  # the number
CASES = 200  # four batches of 50: two workers, each two batches


def test_seeded_cases(tmp_path: Path) -> None:
    """200 mutated files, each through the API and, in batches of 50, through validate (--jobs 1
    and 2), validate -o, claims and query: nothing wrong but the known bugs of test_regressions."""
    settings = Settings(SEED, CASES, timeout=30)
    outcome = campaign(settings, jobs=2, root=tmp_path)
    stopped = sum(p.kind in ("crash", "hang") and p.where == "api" for _, p in outcome.problems)
    assert outcome.api_runs + stopped == CASES  # every case ran, or is counted as what stopped it
    outcome.problems = unknown(outcome.problems, lambda i: case(SEED, i).describe())
    assert not outcome.problems, table(settings, outcome, 2)


# The big ones are in test_memory.py, under a memory limit.
SMALL = [h for h in HOSTILE if h.name not in ("long-literal-17mb.ttl", "bomb-80mb.ttl.gz")]


@pytest.mark.parametrize("hostile", SMALL, ids=[h.name for h in SMALL])
def test_hostile_input_through_the_api(tmp_path: Path, hostile) -> None:
    path = str(hostile.make(tmp_path))
    verdict, problems = check_api(path, "nist", TABLES[0])
    assert _new(problems) == []
    if hostile.exit_code == 3:
        assert verdict.state == "unreadable" and hostile.phrase in verdict.message
        report = aifcheck.validate(path)
        assert not report.conforms and report.exit_status == 3
        with pytest.raises(InputError):
            load_kb(path)
    else:
        assert verdict.state in ("valid", "invalid")


def test_hostile_inputs_in_one_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """All of them in one run of each command: every file reported once, with its own verdict."""
    files = [h.make(tmp_path).name for h in SMALL]
    monkeypatch.chdir(tmp_path)  # so that the API names the files as the command does
    verdicts = {name: check_api(name, "nist", TABLES[0])[0] for name in files}
    run = run_command(("validate", "--format", "json", "--", *files), tmp_path, 120)
    assert _new(check_validate_json(run, files, verdicts)) == []
    assert run.returncode == 3  # unreadable files, and no violations: none of them is AIF
    states = {f["file"]: f["error"] for f in json.loads(run.stdout)["files"]}
    for hostile in SMALL:
        if hostile.exit_code == 3:
            assert hostile.phrase in states[hostile.name]
    assert (
        _new(
            check_claims_json(run_command(("claims", "--format", "json", "--", *files), tmp_path, 120), files, verdicts)
        )
        == []
    )
    assert (
        _new(check_query(run_command(("query", "--table", TABLES[0], "--", *files), tmp_path, 120), files, verdicts))
        == []
    )


def _new(problems: list) -> list:
    """The problems that are not known bugs (see test_regressions.KNOWN)."""
    return [p for p in problems if not known(p, "")]


def _kb(folder: Path, name: str = "k.ttl") -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(GOOD)
    return path


def test_output_never_replaces_an_input(tmp_path: Path) -> None:
    """`-o . k.ttl k.ttl.txt`: the report of k.ttl would be k.ttl.txt, an input: a usage error."""
    _kb(tmp_path)
    (tmp_path / "k.ttl.txt").write_bytes(b"keep me\n")
    run = run_command(("validate", "-o", ".", "k.ttl", "k.ttl.txt"), tmp_path, 60)
    assert run.returncode == 2 and run.stderr.startswith("aifcheck: error: -o .:") and run.stderr.count("\n") == 1
    assert (tmp_path / "k.ttl.txt").read_bytes() == b"keep me\n"


def test_output_onto_an_existing_file(tmp_path: Path) -> None:
    _kb(tmp_path)
    (tmp_path / "out").write_bytes(b"keep me\n")
    run = run_command(("validate", "-o", "out", "k.ttl"), tmp_path, 60)
    assert run.returncode == 2 and "not a folder" in run.stderr and "Traceback" not in run.stderr
    assert (tmp_path / "out").read_bytes() == b"keep me\n"


@pytest.mark.parametrize(
    ("cwd", "inputs", "reports"),
    [
        # inputs given with ..: reports mirror the inputs' common folder, all inside out/
        ("a", ("../b/k.ttl", "k.ttl"), ("out/a/k.ttl.txt", "out/b/k.ttl.txt")),
        # two inputs with one name in different folders: two reports
        (".", ("a/k.ttl", "b/k.ttl"), ("out/a/k.ttl.txt", "out/b/k.ttl.txt")),
        (".", ("a/k.ttl", "a/sub/k.ttl", "b/k.ttl"), ("out/a/k.ttl.txt", "out/a/sub/k.ttl.txt", "out/b/k.ttl.txt")),
    ],
    ids=["dot-dot", "same-name", "nested"],
)
def test_output_mirrors_the_inputs(tmp_path: Path, cwd: str, inputs: tuple[str, ...], reports: tuple[str, ...]) -> None:
    for name in ("a/k.ttl", "a/sub/k.ttl", "b/k.ttl"):
        _kb(tmp_path, name)
    before = Snapshot.of(tmp_path)
    out = "../out" if cwd == "a" else "out"
    run = run_command(("validate", "-o", out, *inputs), tmp_path / cwd, 60)
    assert run.returncode == 0 and "Traceback" not in run.stdout + run.stderr
    written = sorted(name for name in Snapshot.of(tmp_path).files if name not in before.files)
    assert written == sorted(reports)
    assert check_reports(run, [str((tmp_path / cwd / i).resolve()) for i in inputs], tmp_path, "out", before, 0) == []


@pytest.mark.parametrize(
    "query",
    [
        "INSERT DATA { <urn:a> <urn:b> <urn:c> }",
        "prefix x: <urn:x:>\n# a comment\ninsert { ?s x:p 1 } where { ?s ?p ?o }",
        "DELETE WHERE { ?s ?p ?o }",
        "LOAD <http://127.0.0.1:9/data.ttl>",
        "CLEAR ALL",
        "DROP GRAPH <urn:g>",
        "WITH <urn:g> DELETE { ?s ?p ?o } WHERE { ?s ?p ?o }",
        "SELECT * WHERE { SERVICE <http://127.0.0.1:9/sparql> { ?s ?p ?o } }",
        "SELECT * WHERE { service silent <http://127.0.0.1:9/sparql> { ?s ?p ?o } }",
    ],
    ids=[
        "insert-data",
        "insert-lower",
        "delete-where",
        "load",
        "clear",
        "drop",
        "with-delete",
        "service",
        "service-silent",
    ],
)
def test_sparql_updates_and_service_are_refused(tmp_path: Path, query: str) -> None:
    kb = _kb(tmp_path)
    (tmp_path / "q.rq").write_text(query, encoding="utf-8")
    run = run_command(("query", "k.ttl", "--sparql", "q.rq"), tmp_path, 60)
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.startswith("aifcheck: error: q.rq: ") and run.stderr.count("\n") == 1
    assert "not allowed" in run.stderr and not leaks(run.stderr)
    assert kb.read_bytes() == GOOD


def test_update_words_inside_a_select_are_not_an_update(tmp_path: Path) -> None:
    _kb(tmp_path)
    (tmp_path / "q.rq").write_text('SELECT ?s WHERE { ?s ?p "INSERT DATA" } # DELETE', encoding="utf-8")
    run = run_command(("query", "k.ttl", "--sparql", "q.rq"), tmp_path, 60)
    assert run.returncode == 0 and run.stdout == "?s\n"


def test_long_literal_under_the_limit_is_read(tmp_path: Path) -> None:
    """A literal of 4 MiB (a quarter of the parser's buffer) is an ordinary value."""
    path = tmp_path / "long.ttl"
    path.write_bytes(HEAD + b'ex:a ex:b "' + b"x" * (4 * MiB) + b'" .\n')
    report = aifcheck.validate(path)
    assert report.files[0].error is None and report.files[0].triples == 1
