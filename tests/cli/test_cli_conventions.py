"""What a user of ruff or check-jsonschema expects of a linter's command line: version and help,
choices, configuration from pyproject.toml, quiet and statistics, standard input, findings as each
file is done, colour on a terminal only, reports under -o, every RDF format by its name."""

from __future__ import annotations

import gzip
import json
import os
import pty
import re
import select
import shlex
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import click
import pytest
import typer
from helpers import FIXTURES, ROOT, SCORE_TA2W, SCORE_TA3, SHARED_DATA, TEST_DATA, installed
from typer.testing import CliRunner

from aifcheck import __version__
from aifcheck.cli import COMMANDS, application
from aifcheck.cli.progress import ProgressBar
from aifcheck.names import AIDA

app = application()

BAD = FIXTURES / "N4" / "bad.ttl"  # N4 and A5 errors
GOOD = FIXTURES / "N4" / "good.ttl"
runner = CliRunner()


def test_version_and_short_help() -> None:
    for flag in ("--version", "-V"):
        proc = installed(flag)
        assert proc.returncode == 0 and proc.stdout == f"aifcheck {__version__}\n"
    assert runner.invoke(app, ["-h"]).output == runner.invoke(app, ["--help"]).output
    assert "--install-completion" in runner.invoke(app, ["--help"], env={"COLUMNS": "200"}).output


def _commands(group: click.Group, prefix: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], click.Command]]:
    found = []
    for name, command in group.commands.items():
        found.append(((*prefix, name), command))
        if isinstance(command, click.Group):
            found += _commands(command, (*prefix, name))
    return found


@pytest.mark.parametrize(
    ("path", "command"),
    [(p, c) for p, c in _commands(typer.main.get_command(app)) if not isinstance(c, click.Group)],
    ids=lambda value: " ".join(value) if isinstance(value, tuple) else "",
)
def test_every_command_shows_an_example_of_itself(path: tuple[str, ...], command: click.Command) -> None:
    text = runner.invoke(app, [*path, "-h"], env={"COLUMNS": "200"}).output
    assert "Example" in text and f"aifcheck {' '.join(path)} " in text, text


ALL_COMMANDS = _commands(typer.main.get_command(app))


@pytest.mark.parametrize("path", [p for p, _ in ALL_COMMANDS], ids=" ".join)
def test_a_run_that_builds_only_its_command_shows_the_same_help(path: tuple[str, ...]) -> None:
    """The installed command builds only the command it invokes (aifcheck.cli.application)."""
    whole = runner.invoke(app, [*path, "--help"], env={"COLUMNS": "200"})
    alone = runner.invoke(application(path[0]), [*path, "--help"], env={"COLUMNS": "200"})
    assert whole.exit_code == alone.exit_code == 0 and alone.output == whole.output
    assert [p for p, _ in _commands(typer.main.get_command(application(path[0]))) if p[0] == path[0]] == [
        p for p, _ in ALL_COMMANDS if p[0] == path[0]
    ]


def test_every_command_is_in_the_table_of_the_modules_that_add_them() -> None:
    top = [p[0] for p, _ in ALL_COMMANDS if len(p) == 1]
    assert top == [*COMMANDS], "COMMANDS must follow `aifcheck --help`'s order"
    assert len(_commands(typer.main.get_command(application("validate")))) == 2  # validate and rules only
    proc = installed("valdate", GOOD)  # a typo reaches the whole app, which suggests the command
    assert proc.returncode == 2 and "No such command 'valdate'" in proc.stderr


def test_settings_come_from_the_nearest_pyproject_and_flags_win(tmp_path: Path) -> None:
    project = tmp_path / "project"
    (project / "sub").mkdir(parents=True)
    (project / "pyproject.toml").write_text('[tool.aifcheck]\nselect = ["A5"]\nseverity = "info"\n', encoding="utf-8")
    from_config = installed("validate", BAD, cwd=project / "sub")  # found upward from the current folder
    assert {line.split()[1] for line in from_config.stdout.splitlines()[:-1]} == {"A5"}
    flag_wins = installed("validate", BAD, "--select", "N4", cwd=project / "sub")
    assert {line.split()[1] for line in flag_wins.stdout.splitlines()[:-1]} == {"N4"}
    ignored = installed("validate", BAD, "--no-config", cwd=project)
    assert {line.split()[1] for line in ignored.stdout.splitlines()[:-1]} == {"A5", "N4"}
    elsewhere = installed("validate", BAD, "--config", project / "pyproject.toml", cwd=tmp_path)
    assert {line.split()[1] for line in elsewhere.stdout.splitlines()[:-1]} == {"A5"}


@pytest.mark.parametrize(
    ("setting", "message"),
    [
        ('selct = ["A5"]', "[tool.aifcheck] has no setting 'selct' (did you mean select?)"),
        ('jobs = "two"', "[tool.aifcheck] jobs must be a whole number"),
        ('profile = "nope"', "Invalid value for '--profile': 'nope' is not one of 'aif', 'nist', 'ta3'."),
    ],
)
def test_a_wrong_setting_is_refused(tmp_path: Path, setting: str, message: str) -> None:
    (tmp_path / "pyproject.toml").write_text(f"[tool.aifcheck]\n{setting}\n", encoding="utf-8")
    proc = installed("validate", GOOD, cwd=tmp_path)
    assert proc.returncode == 2 and message in proc.stderr and proc.stderr.count("\n") == 1, proc.stderr


def test_an_aifcheck_key_that_is_not_a_table_is_refused(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool]\naifcheck = 3\n", encoding="utf-8")
    proc = installed("validate", GOOD, cwd=tmp_path)
    assert proc.returncode == 2 and "[tool.aifcheck] must be a table of settings" in proc.stderr, proc.stderr
    assert proc.stderr.count("\n") == 1, proc.stderr


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"[tool.aifcheck]\nstrict = tru\n", "pyproject.toml: not valid TOML: Invalid value (at line 2, column 10)"),
        (
            b"# aifcheck \xff\n[tool.aifcheck]\n",
            "pyproject.toml: not valid TOML: not UTF-8 (invalid start byte at byte 11)",
        ),
    ],
)
def test_a_configuration_that_is_not_toml_is_one_line(tmp_path: Path, content: bytes, message: str) -> None:
    (tmp_path / "pyproject.toml").write_bytes(content)
    proc = installed("validate", GOOD, cwd=tmp_path)
    assert proc.returncode == 3 and message in proc.stderr and proc.stderr.count("\n") == 1, proc.stderr


def test_a_pyproject_that_never_names_aifcheck_is_not_read_as_a_configuration(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_bytes(b"[tool.other]\nstrict = tru\n")  # not even TOML: never parsed
    proc = installed("validate", GOOD, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr


def test_config_and_no_config_together_are_refused(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.aifcheck]\nstrict = true\n", encoding="utf-8")
    proc = installed("validate", GOOD, "--config", tmp_path / "pyproject.toml", "--no-config")
    assert proc.returncode == 2 and "give --config or --no-config, not both" in proc.stderr


def test_quiet_prints_the_summary_only_and_statistics_count_per_rule() -> None:
    quiet = installed("validate", BAD, GOOD, "--quiet")
    assert quiet.returncode == 1 and quiet.stdout.splitlines()[0].startswith("2 files: 1 valid, 1 invalid")
    assert len(quiet.stdout.splitlines()) == 1
    stats = installed("validate", BAD, BAD.with_name("bad-2.ttl"), "--statistics", "--severity", "info")
    counts = {line.split()[1]: int(line.split()[0]) for line in stats.stdout.splitlines()[:-1]}
    shown = installed("validate", BAD, BAD.with_name("bad-2.ttl"), "--severity", "info").stdout.splitlines()[:-1]
    assert counts == {rule: sum(f" {rule} " in line for line in shown) for rule in counts} and sum(
        counts.values()
    ) == len(shown)


def test_standard_input_is_a_file_named_dash() -> None:
    proc = installed("validate", "-", input=BAD.read_text(encoding="utf-8"))
    assert proc.returncode == 1 and all(line.startswith("-:") for line in proc.stdout.splitlines()[:-1])
    assert {line.split()[1] for line in proc.stdout.splitlines()[:-1]} == {"A5", "N4"}


def test_findings_are_printed_as_each_file_is_done() -> None:
    # the second input, standard input, is not there yet: the first file's findings must be
    child = subprocess.Popen(
        [sys.executable, "-m", "aifcheck", "validate", str(BAD), "-"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        ready, _, _ = select.select([child.stdout], [], [], 60)
        assert ready, "nothing printed before the last input came"
        first = child.stdout.readline()
        assert first.startswith(f"{BAD}:") and " error " in first
    finally:
        out, _ = child.communicate(GOOD.read_text(encoding="utf-8"), timeout=60)
    assert out.rstrip().endswith(")") and "2 files: 1 valid, 1 invalid" in out


def _on_a_terminal(*args: str, env: dict[str, str]) -> str:
    main, side = pty.openpty()
    proc = subprocess.run(
        [sys.executable, "-m", "aifcheck", *args],
        stdout=side,
        stderr=subprocess.DEVNULL,
        timeout=300,
        env={**os.environ, **env},
    )
    os.close(side)
    assert proc.returncode == 1
    return _drain(main).decode()


def _drain(main: int) -> bytes:
    """All a pseudo-terminal's program wrote, once it has ended; the terminal closed."""
    chunks = []
    while select.select([main], [], [], 0.5)[0]:
        try:
            data = os.read(main, 65536)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    os.close(main)
    return b"".join(chunks)


def test_colour_on_a_terminal_only() -> None:
    coloured = _on_a_terminal("validate", str(BAD), env={"TERM": "xterm"})
    assert "\033[31;1merror\033[0m" in coloured and "\033[1mN4\033[0m" in coloured
    assert "\033[" not in _on_a_terminal("validate", str(BAD), env={"TERM": "xterm", "NO_COLOR": "1"})
    assert "\033[" not in installed("validate", BAD).stdout  # piped


def test_the_progress_bar_stays_silent_on_a_dumb_terminal(monkeypatch) -> None:
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    monkeypatch.setenv("TERM", "dumb")
    assert not ProgressBar.on_terminal(10).active
    monkeypatch.setenv("TERM", "xterm")
    assert ProgressBar.on_terminal(10).active


def test_reports_go_under_the_folder_relative_to_the_inputs(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    for folder in ("a", "b"):
        (tmp_path / folder / "kb.ttl").write_text(BAD.read_text(encoding="utf-8"), encoding="utf-8")
    out = tmp_path / "out"
    proc = installed(
        "validate", (tmp_path / "a" / "kb.ttl").resolve(), tmp_path / "b" / "kb.ttl", "-o", out, "--format", "json"
    )
    assert proc.returncode == 1 and not proc.stderr
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()) == [
        "a/kb.ttl.json",
        "b/kb.ttl.json",
    ]
    single = installed("validate", (tmp_path / "a" / "kb.ttl").resolve(), "-o", tmp_path / "one")
    assert single.returncode == 1 and [p.name for p in (tmp_path / "one").iterdir()] == [
        "kb.ttl.txt"
    ]  # not the whole absolute path again


def test_a_report_never_replaces_an_input(tmp_path: Path) -> None:
    kb = tmp_path / "k.ttl"
    kb.write_text(BAD.read_text(encoding="utf-8"), encoding="utf-8")
    other = tmp_path / "k.ttl.txt"
    other.write_text(GOOD.read_text(encoding="utf-8"), encoding="utf-8")
    proc = installed("validate", "-o", ".", "k.ttl", "k.ttl.txt", cwd=tmp_path)
    assert proc.returncode == 2 and "the report of k.ttl would replace the input k.ttl.txt" in proc.stderr
    assert other.read_text(encoding="utf-8") == GOOD.read_text(encoding="utf-8")


def test_an_input_given_with_dot_dot_is_reported_inside_the_folder(tmp_path: Path) -> None:
    (tmp_path / "work").mkdir()
    (tmp_path / "kb.ttl").write_text(GOOD.read_text(encoding="utf-8"), encoding="utf-8")
    proc = installed("validate", "../kb.ttl", "-o", "reports", cwd=tmp_path / "work")
    assert proc.returncode == 0
    assert [p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*.txt")] == ["work/reports/kb.ttl.txt"]
    assert not list(tmp_path.rglob(".*.partial"))  # written whole


@pytest.mark.parametrize(
    ("name", "content"),
    [
        (
            "kb.jsonld",
            f'{{"@id": "http://example.org/c", "@type": "{AIDA}SameAsCluster"}}',
        ),
        (
            "kb.rdf",
            '<?xml version="1.0"?><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" '
            f'xmlns:aida="{AIDA}"><aida:SameAsCluster rdf:about="http://example.org/c"/></rdf:RDF>',
        ),
        (
            "kb.trig",
            f"@prefix aida: <{AIDA}> .\n{{ <http://example.org/c> a aida:SameAsCluster . }}\n",
        ),
        (
            "kb.n3",
            f"@prefix aida: <{AIDA}> .\n<http://example.org/c> a aida:SameAsCluster .\n",
        ),
    ],
)
def test_every_rdf_format_is_read_by_its_name(tmp_path: Path, name: str, content: str) -> None:
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    proc = installed("validate", path, "--select", "N4", "--format", "json")
    (finding,) = [v for f in json.loads(proc.stdout)["files"] for v in f["violations"]]
    assert (finding["rule_id"], finding["focus"]) == ("N4", "<http://example.org/c>")  # a cluster without prototype
    gz = tmp_path / f"{name}.gz"
    gz.write_bytes(gzip.compress(content.encode()))
    assert installed("validate", gz, "--select", "N4").returncode == 1


def test_named_graphs_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "kb.trig"
    path.write_text("<http://example.org/g> { <http://example.org/a> <http://example.org/b> <http://example.org/c> }\n")
    proc = installed("validate", path)
    assert proc.returncode == 3 and proc.stdout.startswith(f"{path}: syntax error: Named graphs are not allowed")
    assert "give its triples in the default graph" in proc.stdout


def test_folders_are_not_counted_as_files(tmp_path: Path) -> None:
    run = tmp_path / "run"
    (run / "not-a-query").mkdir(parents=True)  # S2: a folder without its ranking file
    proc = installed("lint-submission", run, "--condition", "5")
    assert proc.returncode == 1 and f"{run / 'not-a-query'}: S2 error" in proc.stdout
    assert proc.stdout.splitlines()[-1].startswith("0 files: ")


def test_condition_comes_from_the_folder_names(shared_data: Path) -> None:
    # Condition 7 claim frames have no subtopic, template or X variable: without the condition
    # taken from their folder, T2d-f would fire on every one
    proc = installed("validate", "--profile", "ta3", shared_data / "task3-run")
    assert proc.returncode == 0, proc.stdout[-2000:]
    forced = installed("validate", "--profile", "ta3", "--condition", "5", shared_data / "task3-run" / "Condition7")
    assert forced.returncode == 1 and " T2d error " in forced.stdout


def test_readme_examples_of_the_cli_run_from_the_repository() -> None:
    assert installed("validate", "examples/", cwd=ROOT).returncode == 1


def test_on_a_terminal_with_a_progress_bar_a_finding_is_one_line_however_narrow(tmp_path: Path) -> None:
    """stdout and stderr on one narrow terminal, several files (so the bar shows): each finding is
    one line, whole (FILE:LINE stays clickable), however long."""
    files = []
    for i in range(3):
        files.append(tmp_path / f"kb-with-a-long-name-to-make-the-line-long-{i}.ttl")
        files[-1].write_text(BAD.read_text(encoding="utf-8"), encoding="utf-8")
    main, side = pty.openpty()
    import fcntl
    import struct
    import termios

    fcntl.ioctl(side, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 40, 0, 0))  # 40 columns
    proc = subprocess.run(
        [sys.executable, "-m", "aifcheck", "validate", *map(str, files)],
        stdout=side,
        stderr=side,
        timeout=300,
        env={**os.environ, "TERM": "xterm", "NO_COLOR": "1", "COLUMNS": "40"},
    )
    os.close(side)
    data = _drain(main)
    assert proc.returncode == 1
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", data.decode(errors="replace"))  # the bar's own codes
    findings = [line for line in text.replace("\r", "\n").splitlines() if " N4 error " in line]
    assert findings and all(line.startswith(str(tmp_path)) and line.rstrip().endswith(")") for line in findings), (
        findings
    )


@pytest.mark.parametrize(
    "command",
    [
        ("pipeline", "ta2", "{out}/run", "--queries", "{out}/q.tsv", "--aux", "{out}"),
        ("pipeline", "ta3", "{out}/run", "--user-queries", "{out}", "--aux", "{out}"),
        ("pool", "ta2", "{out}/run", "--queries-to-score", "{out}/q.tsv", "--aux", "{out}"),
        ("pool", "ta3", "{out}/run", "--queries-to-score", "{out}/q.tsv"),
        ("score", "ta2", "{out}/run", "--queries-to-score", "{out}/q.tsv", "--assessments", "{out}", "--aux", "{out}"),
        ("score", "ta1", "{out}/run", "--gold", "{out}", "--aux", "{out}"),
    ],
    ids=lambda command: " ".join(command[:2]),
)
def test_force_never_replaces_a_folder_that_holds_an_input(tmp_path: Path, command: tuple[str, ...]) -> None:
    out = tmp_path / "out"
    (out / "run").mkdir(parents=True)
    (out / "run" / "task2_kb.ttl").write_text("", encoding="utf-8")
    (out / "q.tsv").write_text("query_id\n", encoding="utf-8")
    proc = installed(*(part.format(out=out) for part in command), "-o", out, "--force")
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.startswith(f"aifcheck: error: -o {out}: holds the input ") and proc.stderr.count("\n") == 1
    assert sorted(p.name for p in out.iterdir()) == ["q.tsv", "run"]


# --- One convention for every command (issue 43): the same mistake, the same answer ----------------

TA3_T1 = ROOT / "tests" / "score" / "fixtures" / "ta3" / "T1"
SCORE_FIXTURES = ROOT / "tests" / "score" / "fixtures"
# every stderr line: aifcheck's own of one of three kinds, or a FILE[:LINE[:COL]]: line of validate,
# claims, query and summary, which go on with their other inputs
FORM = re.compile(r"aifcheck: (error|warning|note): |(?!aifcheck:)[^\s:]*[./][^\s:]*(:\d+){0,2}: ")
TA2_QUERIES = (
    "query_id\tentity_id\tentrypoint_type\tentrypoint\tclusters\tdocuments\n"
    "AIDA_P3_TA2_P0002\tE2\tname\tCOVID-19\t1\t3\n"
)
POOL3_QUERIES = (
    "query_id\tcondition\ttopic_id\tdepth\nT301\tCondition6\tT301\tontopic:5\nC303\tCondition7\tC303\tontopic:5\n"
)


def _copy(source: Path, target: Path) -> None:
    if source.is_dir():
        shutil.copytree(source, target, ignore=shutil.ignore_patterns("nist", "*.xlsx"))
    else:
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)


@pytest.fixture(scope="module")
def base(tmp_path_factory) -> Path:
    """Small inputs of every command, in one folder (NIST's example data from ../shared/data)."""
    if not (SHARED_DATA / "task3-run").is_dir():
        pytest.skip(f"NIST's example data not found at {SHARED_DATA}")
    root = tmp_path_factory.mktemp("base")
    _copy(ROOT / "examples" / "valid" / "document-kb.ttl", root / "kb" / "kb.ttl")
    _copy(TEST_DATA / "submission" / "run" / "CLQRYA0001.000001" / "CLDOCA0001.000001.ttl", root / "kb" / "frame.ttl")
    _copy(SCORE_FIXTURES / "ci" / "toy.tab", root / "ci" / "scores.tab")
    for name in ("system.tab", "gold.tab", "system-relations.tab", "gold-relations.tab"):
        _copy(SCORE_FIXTURES / "crux" / name, root / "crux" / name)
    _copy(TA3_T1, root / "ta3")
    for run in ("A", "B"):
        _copy(TA3_T1 / "nist", root / "runs" / run / "scores")
    _copy(SHARED_DATA / "ta1-scoring" / "AUX-data", root / "aux")
    for name in ("runW", "queries_to_score.tab", "LDC"):
        _copy(SCORE_FIXTURES / "ta2" / "W1" / name, root / "ta2w" / name)
    _copy(SHARED_DATA / "task2-run" / "task2_kb.ttl", root / "ta2kb" / "run" / "task2_kb.ttl")
    (root / "ta2kb" / "queries.tsv").write_text(TA2_QUERIES, encoding="utf-8")
    _copy(SCORE_FIXTURES / "ta2" / "pool", root / "pool2")
    _copy(SHARED_DATA / "task3-run", root / "p3" / "run")
    _copy(SHARED_DATA / "user-queries", root / "p3" / "user-queries")
    made = installed(*P3_ARGS, "-o", "pool3/runs/system", cwd=root)
    assert made.returncode == 0, made.stderr  # (NIST's validator at the tag takes every example frame)
    (root / "pool3" / "queries.tab").write_text(POOL3_QUERIES, encoding="utf-8")
    return root


# the arguments of a command on the base's inputs, but its output's
POOL2_ARGS = ("pool", "ta2", "pool2/runs/runA", "--queries-to-score", "pool2/queries.tab", "--aux", "aux")
P3_ARGS = ("pipeline", "ta3", "p3/run", "--user-queries", "p3/user-queries", "--aux", "aux")


@dataclass(frozen=True)
class Convention:
    """A command on the base's inputs: its arguments (``{out}`` its output), the inputs it reads
    (the base's folders), one file it reads, and its output: a "file", a "folder" or none."""

    args: tuple[str, ...]
    reads: tuple[str, ...]
    read: str
    output: str | None = None
    out: str = "out"  # the output's name (a picture's and a page's name says what it is)
    named: str = ""  # an input the command line names, if not ``read`` (a file a folder holds may be absent)
    holds: bool = True  # -o onto a folder of the inputs is refused (score ta3 writes OUT/scores beside them)


CONVENTIONS = {
    "claims": Convention(("claims", "kb/frame.ttl", "-o", "{out}"), ("kb",), "kb/frame.ttl", "file"),
    "query --table": Convention(
        ("query", "kb/kb.ttl", "--table", "AIDA_P3_TA1_CM_A0001", "-o", "{out}"), ("kb",), "kb/kb.ttl", "file"
    ),
    "query --nist-layout": Convention(
        ("query", "kb/kb.ttl", "--task", "ta1", "--nist-layout", "-o", "{out}"), ("kb",), "kb/kb.ttl", "folder"
    ),
    "summary": Convention(("summary", "kb/kb.ttl"), ("kb",), "kb/kb.ttl"),
    "graph": Convention(("graph", "kb/kb.ttl", "-o", "{out}"), ("kb",), "kb/kb.ttl", "file", "out.dot"),
    "score ci": Convention(
        ("score", "ci", "ci/scores.tab", "-o", "{out}", "--tab", "ci.tab", "--replications", "500"),
        ("ci",),
        "ci/scores.tab",
        "file",
    ),
    "score compare": Convention(
        ("score", "compare", "runs/A", "runs/B", "--replications", "500", "--tab", "{out}"),
        ("runs",),
        "runs/B/scores/F1ScorerV1A-scores.tab",
        "file",
        named="runs/B",
    ),
    "score report": Convention(
        ("score", "report", "runs/A", "runs/B", "--replications", "500", "-o", "{out}"),
        ("runs",),
        "runs/A/scores/NDCGScorerV1-scores.tab",
        "file",
        "out.html",
        named="runs/A",
    ),
    "score crux-claims": Convention(
        ("score", "crux-claims", "crux/system.tab", "--gold", "crux/gold.tab"), ("crux",), "crux/gold.tab"
    ),
    "score crux-relations": Convention(
        ("score", "crux-relations", "crux/system-relations.tab", "--gold", "crux/gold-relations.tab"),
        ("crux",),
        "crux/system-relations.tab",
    ),
    "score ta2": Convention(
        (*SCORE_TA2W, "-o", "{out}"),
        ("ta2w", "aux"),
        "ta2w/LDC/data/TA2/kit1.tab",
        "folder",
        named="ta2w/queries_to_score.tab",
    ),
    "score ta3": Convention((*SCORE_TA3, "-o", "{out}"), ("ta3",), "ta3/queries_to_score.tab", "folder", holds=False),
    "pipeline ta2": Convention(
        ("pipeline", "ta2", "ta2kb/run", "--queries", "ta2kb/queries.tsv", "--aux", "aux", "-o", "{out}"),
        ("ta2kb", "aux"),
        "ta2kb/queries.tsv",
        "folder",
    ),
    "pipeline ta3": Convention(
        (*P3_ARGS, "-o", "{out}"),
        ("p3", "aux"),
        "p3/run/Condition6/T301/T301.ranking.tsv",
        "folder",
        named="p3/user-queries",
    ),
    "pool ta2": Convention(
        (*POOL2_ARGS, "-o", "{out}"),
        ("pool2", "aux"),
        "pool2/queries.tab",
        "folder",
    ),
    "pool ta3": Convention(
        ("pool", "ta3", "pool3/runs/system", "--queries-to-score", "pool3/queries.tab", "-o", "{out}"),
        ("pool3",),
        "pool3/queries.tab",
        "folder",
    ),
}


def _case(base: Path, folder: Path, convention: Convention) -> Path:
    """A fresh copy of what the command reads, in ``folder``."""
    for name in convention.reads:
        _copy(base / name, folder / name)
    return folder


def _run(convention: Convention, folder: Path, out: str | None = None) -> subprocess.CompletedProcess:
    args = [a.replace("{out}", out or convention.out) for a in convention.args]
    proc = installed(*args, cwd=folder)
    assert "Traceback" not in proc.stderr + proc.stdout, proc.stderr[-2000:]
    bad = [line for line in proc.stderr.splitlines() if not FORM.match(line) or len(line) > 2000]
    assert not bad, bad[:3]  # every line one of the forms, one clean line
    return proc


def _refused(proc: subprocess.CompletedProcess, status: int, words: str) -> None:
    assert proc.returncode == status and re.search(words, proc.stderr), (proc.returncode, proc.stderr[-2000:])


@pytest.mark.parametrize("name", sorted(CONVENTIONS))
def test_every_command_answers_a_mistake_as_validate_does(base: Path, tmp_path: Path, name: str) -> None:
    """The table of docs/commands.md ("Mistakes"), command by command, on the installed command:
    a missing input, a FIFO, a byte that is not UTF-8 (exit 3, validate's words, the file named
    and its line and column); -o onto an input, and -o of the wrong kind (exit 2); every stderr
    line of a form of the table."""
    convention = CONVENTIONS[name]
    pristine = _run(convention, _case(base, tmp_path / "pristine", convention))
    assert pristine.returncode in (0, 1), pristine.stderr[-2000:]

    folder = _case(base, tmp_path / "missing", convention)
    named = convention.named or convention.read
    shutil.rmtree(folder / named) if (folder / named).is_dir() else (folder / named).unlink()
    _refused(_run(convention, folder), 3, re.escape(f"{named}: no such file or directory"))

    folder = _case(base, tmp_path / "fifo", convention)
    (folder / convention.read).unlink()
    os.mkfifo(folder / convention.read)
    _refused(_run(convention, folder), 3, re.escape(f"{convention.read}: not a regular file"))

    folder = _case(base, tmp_path / "byte", convention)
    lines = (folder / convention.read).read_bytes().split(b"\n")
    (folder / convention.read).write_bytes(b"\n".join([lines[0], b"\xff" + lines[1], *lines[2:]]))
    _refused(_run(convention, folder), 3, re.escape(f"{convention.read}:2:1: not UTF-8 (byte 0xff)"))

    if convention.output is None:
        return
    folder = _case(base, tmp_path / "onto", convention)
    before = (folder / convention.read).read_bytes()
    _refused(_run(convention, folder, convention.read), 2, r"^aifcheck: error: (-o|--tab) .*(input|not a folder)")
    if convention.output == "folder" and convention.holds:
        _refused(_run(convention, folder, convention.reads[0]), 2, r"^aifcheck: error: -o .*holds the input")
    assert (folder / convention.read).read_bytes() == before

    folder = _case(base, tmp_path / "kind", convention)
    if convention.output == "file":  # a folder where a file is written
        (folder / "afolder").mkdir()
        _refused(_run(convention, folder, "afolder"), 2, r"^aifcheck: error: (-o|--tab) afolder: a folder, not a file")
    else:  # a file where a folder is written
        (folder / "afile").write_text("keep me\n", encoding="utf-8")
        _refused(_run(convention, folder, "afile"), 2, r"^aifcheck: error: -o afile: not a folder")
        assert (folder / "afile").read_text(encoding="utf-8") == "keep me\n"


def _in(base: Path, folder: Path, *names: str) -> Path:
    """A fresh copy of the base's folders ``names`` in ``folder``."""
    for name in names:
        _copy(base / name, folder / name)
    return folder


def test_a_link_a_fifo_or_a_device_named_for_a_file_is_written_into_never_replaced(base: Path, tmp_path: Path) -> None:
    folder = _in(base, tmp_path, "ci", "kb")
    (folder / "kept.txt").write_text("old\n", encoding="utf-8")
    (folder / "link.txt").symlink_to("kept.txt")
    os.mkfifo(folder / "pipe.tab")
    reader = subprocess.Popen(["cat", "pipe.tab"], cwd=folder, stdout=subprocess.PIPE)  # a program reading a pipe
    proc = installed(
        "score", "ci", "ci/scores.tab", "-o", "link.txt", "--tab", "pipe.tab", "--replications", "500", cwd=folder
    )
    piped = reader.communicate(timeout=60)[0]
    assert proc.returncode == 0, proc.stderr
    assert (folder / "link.txt").is_symlink() and (folder / "kept.txt").read_text(encoding="utf-8").startswith("RunID")
    assert (folder / "pipe.tab").is_fifo() and piped.startswith(b"RunID\tLanguage")
    for device in ("/dev/null", "/dev/stdout"):
        shown = installed("claims", "kb/frame.ttl", "-o", device, cwd=folder)
        assert shown.returncode == 0 and Path("/dev/null").is_char_device(), shown.stderr
    assert shown.stdout.startswith("document_id\tclaim_id")  # -o /dev/stdout prints it
    lonely = tmp_path / "lonely.tab"
    os.mkfifo(lonely)  # no program reads it: an error, not a wait for ever
    proc = installed("claims", "kb/frame.ttl", "-o", lonely, cwd=folder)
    assert proc.returncode == 3 and "a FIFO that no process reads" in proc.stderr and lonely.is_fifo(), proc.stderr


@pytest.mark.parametrize(
    ("names", "args", "words"),
    [
        (
            ("ta2kb", "aux"),
            ("pipeline", "ta2", "ta2kb/run", "--queries", "ta2kb/queries.tsv", "--aux", "aux", "-o", "aux"),
            "-o aux: is the input aux",
        ),
        (
            ("ta2kb", "aux"),
            ("pipeline", "ta2", "ta2kb/run", "--queries", "ta2kb/queries.tsv", "--aux", "aux", "-o", "ta2kb"),
            "-o ta2kb: holds the input",
        ),
        (
            ("ta2w", "aux"),
            (*SCORE_TA2W, "-o", "ta2w/runW/SPARQL-VALID-output"),
            "-o ta2w/runW/SPARQL-VALID-output: inside the input ta2w/runW",
        ),
        (
            ("ta2w", "aux"),
            (*SCORE_TA2W, "-o", "ta2w/LDC/data"),
            "-o ta2w/LDC/data: inside the input ta2w/LDC",
        ),
        (
            ("p3", "aux"),
            (*P3_ARGS, "-o", "p3/run/Condition5"),
            "-o p3/run/Condition5: inside the input p3/run",
        ),
        (
            ("pool2", "aux"),
            (*POOL2_ARGS, "-p", "pool2/previous", "-o", "pool2/previous"),
            "-o pool2/previous: is the input pool2/previous",
        ),
    ],
    ids=[
        "pipeline ta2 -o AUX",
        "pipeline ta2 -o the queries' folder",
        "score ta2 -o RUN/SPARQL-VALID-output",
        "score ta2 -o LDC/data",
        "pipeline ta3 -o RUN/Condition5",
        "pool ta2 -o the previous pool",
    ],
)
def test_force_never_deletes_an_input(
    base: Path, tmp_path: Path, names: tuple[str, ...], args: tuple, words: str
) -> None:
    folder = _in(base, tmp_path, *names)
    before = sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))
    proc = installed(*args, "--force", cwd=folder)
    assert proc.returncode == 2 and proc.stderr == f"aifcheck: error: {proc.stderr[17:]}", proc.stderr
    assert words in proc.stderr and proc.stderr.count("\n") == 1, proc.stderr
    assert sorted(str(p.relative_to(folder)) for p in folder.rglob("*")) == before


def test_two_outputs_on_one_file_or_on_an_input_are_refused(base: Path, tmp_path: Path) -> None:
    folder = _in(base, tmp_path, "ci")
    ci = ("score", "ci", "ci/scores.tab", "--replications", "500")
    same = installed(*ci, "-o", "x.txt", "--tab", "x.txt", cwd=folder)
    assert (
        same.returncode == 2
        and "--tab x.txt: the same file as -o x.txt" in same.stderr
        and not (folder / "x.txt").exists()
    )
    onto = installed(*ci, "-o", "ci/scores.tab", "--tab", "x.tab", cwd=folder)
    assert onto.returncode == 2 and "-o ci/scores.tab: is the input ci/scores.tab" in onto.stderr
    assert (folder / "ci" / "scores.tab").read_bytes() == (base / "ci" / "scores.tab").read_bytes()
    pdf = installed("score", "report", base / "runs" / "A", base / "runs" / "B", "-o", "r.pdf", cwd=folder)
    assert pdf.returncode == 2 and "-o r.pdf: the report is an HTML page: name it .html" in pdf.stderr


ALIASES = {"-b": "--batch"}  # how a message names a short option


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("-b", "x/../../escaped/B"),
        ("-b", "a\tb"),
        ("-b", "a\nb"),
        ("-b", ".."),
        ("--run-id", "a\tb"),
        ("--run-id", "a/b"),
    ],
)
def test_an_id_that_would_name_files_or_split_table_cells_is_refused(
    base: Path, tmp_path: Path, option: str, value: str
) -> None:
    folder = _in(base, tmp_path / "j1" / "j2", "pool2", "aux", "ta2w")
    args = (*POOL2_ARGS, "-o", "out") if option == "-b" else (*SCORE_TA2W, "-o", "out")
    proc = installed(*args, option, value, cwd=folder)
    assert proc.returncode == 2 and proc.stderr.startswith(f"aifcheck: error: {ALIASES.get(option, option)} "), (
        proc.stderr
    )
    assert proc.stderr.count("\n") == 1 and not (folder / "out").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["j1"]  # nothing written beside


@pytest.mark.parametrize("name", ["a\tb", "a\nb", "a\udcffb"], ids=["tab", "newline", "byte 0xff"])
def test_a_run_folder_whose_name_cannot_be_a_run_id_is_refused(base: Path, tmp_path: Path, name: str) -> None:
    folder = _in(base, tmp_path, "pool2", "aux", "ta3")
    (folder / "pool2" / "runs" / "runA").rename(folder / "pool2" / "runs" / name)
    pooled = installed(
        "pool",
        "ta2",
        f"pool2/runs/{name}",
        "--queries-to-score",
        "pool2/queries.tab",
        "--aux",
        "aux",
        "-o",
        "out",
        cwd=folder,
    )
    assert pooled.returncode == 2 and "its folder's name, the run ID" in pooled.stderr, pooled.stderr
    (folder / "ta3" / "RUN1").rename(folder / "ta3" / name)
    scored = installed(*[a.replace("ta3/RUN1", f"ta3/{name}") for a in SCORE_TA3], "-o", "out", cwd=folder)
    assert scored.returncode == 2 and "the run folder's name; give --run-id" in scored.stderr, scored.stderr
    assert all(line.isprintable() for line in (pooled.stderr + scored.stderr).splitlines())
    assert not (folder / "out").exists()


def test_score_report_takes_each_run_once(base: Path, tmp_path: Path) -> None:
    """Issue 43 (case 3141): one run given twice is refused; two runs of one folder name in two places
    are two runs, which the report tells apart (a pool, whose run ID is the name, refuses them)."""
    folder = _in(base, tmp_path, "runs")
    _copy(folder / "runs" / "A", folder / "other" / "A")
    proc = installed("score", "report", "runs/A", "runs/A", "--replications", "500", "-o", "r.html", cwd=folder)
    assert proc.returncode == 2 and "runs/A: given twice (as runs/A): give each run once" in proc.stderr, proc.stderr
    assert not (folder / "r.html").exists()
    proc = installed("score", "report", "runs/A", "other/A", "--replications", "500", "-o", "r.html", cwd=folder)
    assert proc.returncode == 0 and (folder / "r.html").is_file(), proc.stderr


def test_pool_ta3_pools_a_run_once(base: Path, tmp_path: Path) -> None:
    folder = _in(base, tmp_path, "pool3")
    _copy(folder / "pool3" / "runs" / "system", folder / "other" / "system")
    pool = ("pool", "ta3", "--queries-to-score", "pool3/queries.tab", "-o", "out")
    for runs in (("pool3/runs/system", "pool3/runs/system"), ("pool3/runs/system", "other/system")):
        proc = installed(*pool, *runs, cwd=folder)
        assert proc.returncode == 2 and "two runs share a folder name (the run ID): system" in proc.stderr
    alone = installed(*pool, "pool3/runs/system", cwd=folder)
    assert alone.returncode == 0 and "previous pool" not in alone.stdout, alone.stderr  # (none was given)


@pytest.mark.skipif(os.getuid() == 0 and shutil.which("capsh") is None, reason="needs capsh to drop root's powers")
def test_a_folder_that_cannot_be_read_is_never_taken_as_empty(base: Path, tmp_path: Path) -> None:
    folder = _in(base, tmp_path, "ta2w", "aux", "p3")
    (folder / "ta2w" / "LDC" / "data" / "TA2").chmod(0)
    (folder / "p3" / "run" / "Condition6").chmod(0)
    try:
        scored = _unprivileged(*SCORE_TA2W, "-o", "out", cwd=folder)
        ran = _unprivileged(*P3_ARGS, "-o", "out2", cwd=folder)
    finally:
        (folder / "ta2w" / "LDC" / "data" / "TA2").chmod(0o755)
        (folder / "p3" / "run" / "Condition6").chmod(0o755)
    assert scored.returncode == 3 and "ta2w/LDC/data/TA2: cannot read this folder: Permission denied" in scored.stderr
    assert ran.returncode == 3 and "p3/run/Condition6: cannot read this folder: Permission denied" in ran.stderr
    assert not (folder / "out").exists() and not (folder / "out2").exists()


def _unprivileged(*args: object, cwd: Path) -> subprocess.CompletedProcess:
    """The installed command without root's power over permissions (root: a chmod 0 means nothing to it)."""
    command = shlex.join([sys.executable, "-m", "aifcheck", *map(str, args)])
    if os.getuid() != 0:
        return subprocess.run(["sh", "-c", command], capture_output=True, text=True, timeout=300, cwd=cwd)
    drop = ["capsh", "--drop=cap_dac_override,cap_dac_read_search,cap_fowner", "--", "-c", command]
    return subprocess.run(drop, capture_output=True, text=True, timeout=300, cwd=cwd)


def test_a_response_or_kit_that_is_no_file_is_an_error_not_a_zero(base: Path, tmp_path: Path) -> None:
    folder = _in(base, tmp_path, "ta2w", "aux")
    response = folder / "ta2w" / "runW" / "SPARQL-VALID-output" / "W1Q1.rq.tsv"
    response.unlink()
    response.symlink_to("nothing-here")
    args = (*SCORE_TA2W, "-o", "out")
    proc = installed(*args, cwd=folder)
    assert proc.returncode == 3 and "W1Q1.rq.tsv: a symbolic link to nothing" in proc.stderr, proc.stderr


@pytest.mark.parametrize("command", ["pipeline ta2", "score ta2", "score ta3", "pool ta2", "pool ta3"])
def test_a_query_given_twice_is_refused_naming_both_lines(base: Path, tmp_path: Path, command: str) -> None:
    convention = CONVENTIONS[command]
    folder = _case(base, tmp_path, convention)
    table = folder / {"score ta2": "ta2w/queries_to_score.tab"}.get(command, convention.read)
    lines = table.read_text(encoding="utf-8").splitlines()
    table.write_text("\n".join([*lines, lines[1].rsplit("\t", 1)[0] + "\t7"]) + "\n", encoding="utf-8")
    proc = _run(convention, folder)
    assert proc.returncode == 3, proc.stderr
    assert f"{table.relative_to(folder)}:{len(lines) + 1}: " in proc.stderr and "is also on line 2" in proc.stderr


def test_a_query_given_twice_is_refused_by_the_readers_too(tmp_path: Path) -> None:
    # the check is where the tables are read: a library caller gets the command's line
    from aifcheck.errors import InputError
    from aifcheck.pipeline.ta2.queries import read_queries
    from aifcheck.score.ta3.package import read_queries as read_queries_to_score

    ta2 = tmp_path / "ta2.tsv"
    ta2.write_text(
        "query_id\tentity_id\tentrypoint_type\tentrypoint\tclusters\tdocuments\n"
        "Q1\tE1\tkbid\tE1\t1\t2\nQ1\tE2\tkbid\tE2\t1\t2\n"
    )
    ta3 = tmp_path / "ta3.tab"
    ta3.write_text("query_id\tcondition\ttopic_id\tdepth\nQ\tCondition6\tT\tontopic:5\nQ\tCondition6\tT\tontopic:9\n")
    for read, path in ((read_queries, ta2), (read_queries_to_score, ta3)):
        with pytest.raises(InputError, match=r"query_id Q1? is also on line 2: give each once") as raised:
            read(path)
        assert (raised.value.path, raised.value.line) == (str(path), 3)


def test_what_is_no_score_table_is_refused(base: Path, tmp_path: Path) -> None:
    folder = _in(base, tmp_path, "runs")
    nul = folder / "runs" / "B" / "scores" / "F1ScorerV1A-scores.tab"
    nul.write_bytes(b"\0" * 2000)
    for command in (("compare", "runs/A", "runs/B"), ("report", "runs/A", "runs/B", "-o", "r.html")):
        proc = installed("score", *command, "--replications", "500", cwd=folder)
        assert proc.returncode == 3 and "F1ScorerV1A-scores.tab: binary file, not text" in proc.stderr, proc.stderr
    huge = folder / "runs" / "A" / "scores" / "NDCGScorerV1-scores.tab"
    lines = huge.read_text(encoding="utf-8").splitlines()
    huge.write_text("\n".join([lines[0], lines[1].rsplit("\t", 1)[0] + "\t1e200", *lines[2:]]) + "\n", encoding="utf-8")
    proc = installed("score", "ci", huge, "-o", "x.txt", "--tab", "x.tab", cwd=folder)
    assert proc.returncode == 3 and f"{huge}:2: " in proc.stderr and "'1e200' is no score" in proc.stderr, proc.stderr
    tasks = folder / "runs" / "T" / "scores"
    _copy(SCORE_FIXTURES / "ci" / "toy.tab", tasks / "TypeMetricV4-scores.tab")  # a TA1 table beside TA3 runs
    proc = installed("score", "compare", base / "runs" / "A", tasks.parent, cwd=folder)
    assert proc.returncode == 2 and "have no metric in common (ta3 scores; ta1 scores)" in proc.stderr, proc.stderr


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (("score", "compare", "runs/A", "runs/B", "--seed", "-1"), "--seed"),
        (("score", "report", "runs/A", "runs/B", "-o", "r.html", "--seed", str(2**32)), "--seed"),
        (("score", "ci", "ci/scores.tab", "-o", "x", "--tab", "y", "--seed", str(2**32)), "--seed"),
        (("score", "compare", "runs/A", "runs/B", "--replications", str(10**19)), "--replications"),
        (("score", "ci", "ci/scores.tab", "-o", "x", "--tab", "y", "--replications", str(10**9)), "--replications"),
        (("score", "ci", "ci/scores.tab", "-o", "x", "--tab", "y", "--key", ""), "--key"),
        (("score", "ci", "ci/scores.tab", "-o", "x", "--tab", "y", "--score", ""), "--score"),  # issue 43, case 8262
        ((*SCORE_TA3, "-o", "out", "--ci", "--ci-seed", "-1"), "--ci-seed"),
        (
            (*P3_ARGS, "-o", "out", "--depth", "Condition5:1,Condition5:2"),
            "--depth",
        ),
        (
            (*POOL2_ARGS, "-o", "out", "--kit-size", "0"),
            "--kit-size",
        ),
    ],
    ids=lambda value: value if isinstance(value, str) else " ".join(value[:2]),
)
def test_a_bad_value_is_a_usage_error_naming_its_option(base: Path, tmp_path: Path, args: tuple, option: str) -> None:
    folder = _in(base, tmp_path, "runs", "ci", "ta3", "p3", "aux", "pool2")
    started = time.perf_counter()
    proc = installed(*args, cwd=folder)
    assert proc.returncode == 2 and proc.stderr.startswith("aifcheck: error: ") and option in proc.stderr, proc.stderr
    assert proc.stderr.count("\n") == 1 and time.perf_counter() - started < 60
    assert not (folder / "out").exists()


def test_a_depth_beyond_any_ranking_keeps_every_line(base: Path, tmp_path: Path) -> None:
    folder = _in(base, tmp_path, "p3", "aux")
    run = ("pipeline", "ta3", "p3/run", "--user-queries", "p3/user-queries", "--aux", "aux")
    huge = installed(*run, "-o", "huge", "--depth", "Condition5:" + "9" * 4301, cwd=folder)
    plain = installed(*run, "-o", "plain", cwd=folder)
    assert huge.returncode == plain.returncode == 0, huge.stderr
    assert huge.stdout.replace("huge", "plain") == plain.stdout


def test_a_long_entry_point_is_cut_in_pipeline_ta2_s_summary(base: Path, tmp_path: Path) -> None:
    folder = _in(base, tmp_path, "ta2kb", "aux")
    table = folder / "ta2kb" / "queries.tsv"
    table.write_text(table.read_text(encoding="utf-8").replace("COVID-19", "x" * 500_000), encoding="utf-8")
    proc = installed("pipeline", "ta2", "ta2kb/run", "--queries", table, "--aux", "aux", "-o", "out", cwd=folder)
    assert proc.returncode in (0, 1), proc.stderr
    assert max(len(line) for line in proc.stdout.splitlines()) < 2000 and "characters cut" in proc.stdout


def test_an_interrupt_ends_a_run_of_worker_processes_at_once(tmp_path: Path) -> None:
    files = []
    for i in range(400):  # enough that the run is still at work when interrupted
        files.append(tmp_path / f"kb{i}.ttl")
        shutil.copyfile(ROOT / "examples" / "valid" / "document-kb.ttl", files[-1])
    for signal_number, status in ((signal.SIGINT, 130), (signal.SIGTERM, 143)):
        child = subprocess.Popen(
            [sys.executable, "-m", "aifcheck", "validate", *map(str, files), "--jobs", "2"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
        time.sleep(1.5)
        sent = time.perf_counter()
        (os.killpg if signal_number == signal.SIGINT else os.kill)(
            child.pid, signal_number
        )  # a terminal's Ctrl-C: the group
        child.wait(timeout=30)
        assert child.returncode == status and time.perf_counter() - sent < 5, child.stderr.read()
        with pytest.raises(ProcessLookupError):
            os.killpg(child.pid, 0)  # no worker left
        assert b"Traceback" not in child.stderr.read()


def test_query_nist_layout_writes_a_new_folder_whole(base: Path, tmp_path: Path) -> None:
    folder = _in(base, tmp_path, "kb")
    (folder / "out").mkdir()
    (folder / "out" / "keep.txt").write_text("keep me\n", encoding="utf-8")
    layout = ("query", "kb/kb.ttl", "--task", "ta1", "--nist-layout")
    proc = installed(*layout, "-o", "out", cwd=folder)
    assert proc.returncode == 2 and "-o out: exists and is not empty (--force replaces it)" in proc.stderr
    assert sorted(p.name for p in (folder / "out").iterdir()) == ["keep.txt"]
    forced = installed(*layout, "-o", "out", "--force", cwd=folder)
    assert forced.returncode == 0 and sorted(p.name for p in (folder / "out").iterdir()) == ["kb.ttl"], forced.stderr


def test_a_submission_s_layout_errors_are_told_apart_from_its_files(tmp_path: Path) -> None:
    submission = TEST_DATA / "submission"
    shutil.copyfile(submission / "queries" / "CLQRYA0001.000001.ttl", tmp_path / "OTHER.ttl")  # a query no folder is
    proc = installed("lint-submission", submission / "run", "--condition", "5", "--queries", tmp_path)
    last = proc.stdout.splitlines()[-1]
    assert proc.returncode == 1 and re.search(
        r" valid, 0 invalid, .* errors \(\d+ in the layout of the folders\)", last
    ), last


def test_every_link_of_the_documentation_finds_its_page_and_heading() -> None:
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    broken = []
    for page in pages:
        text = re.sub(
            r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S
        )  # (a code block's # is no heading)
        for target, anchor in re.findall(r"\]\((?!https?:|mailto:)([^)#\s]*)(?:#([^)\s]+))?\)", text):
            linked = (page.parent / target).resolve() if target else page
            if not linked.exists():
                broken.append(f"{page.name}: {target}")
            elif anchor and linked.suffix == ".md" and anchor not in _anchors(linked):
                broken.append(f"{page.name}: {target}#{anchor}")
    assert not broken, broken


def _anchors(page: Path) -> set[str]:
    """The anchors GitHub gives a page's headings: lower case, punctuation but - and _ left out, spaces as -."""
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
    return {
        re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        for heading in re.findall(r"^#+ (.+)$", text, re.M)
    }
