"""The validate and rules commands, through typer's CliRunner and the installed entry point."""

from __future__ import annotations

import gzip
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import FIXTURES
from typer.testing import CliRunner

from aifcheck import __version__
from aifcheck.cli import application

app = application()

GOOD = FIXTURES / "N4" / "good.ttl"
BAD = FIXTURES / "N4" / "bad.ttl"
runner = CliRunner()
# where BAD's cluster with two prototypes is declared (the fixture's header may grow)
CLUSTER_LINE = next(i for i, line in enumerate(BAD.read_text().splitlines(), 1) if line.startswith("ex:cluster-1 "))


def run(*args: str):
    return runner.invoke(app, [str(a) for a in args])


def run_installed(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "aifcheck", *map(str, args)], capture_output=True, text=True, timeout=300
    )


def test_valid_file_exits_0_with_summary() -> None:
    result = run("validate", GOOD)
    assert result.exit_code == 0, result.output
    assert "1 file: 1 valid, 0 invalid, 0 unreadable; 0 errors" in result.output


def test_violation_is_located_and_tagged() -> None:
    result = run("validate", BAD)
    assert result.exit_code == 1
    lines = [line for line in result.output.splitlines() if " N4 error " in line]
    assert lines, result.output
    assert lines[0].startswith(f"{BAD}:{CLUSTER_LINE}: N4 error ex:cluster-1: cluster ex:cluster-1 has 2 prototypes")
    assert lines[0].endswith("(plan §2.4.1 item 4)")


def test_output_is_deterministic() -> None:
    assert run("validate", BAD, GOOD).output.splitlines()[:-1] == run("validate", GOOD, BAD).output.splitlines()[:-1]


def test_violations_win_over_unreadable(tmp_path: Path) -> None:
    broken = tmp_path / "broken.ttl"
    broken.write_text("@prefix ex: <http://e/> .\nex:a ex:b ex:c ex:d .\n")
    result = run("validate", broken, BAD)
    assert result.exit_code == 1
    assert f"{broken}:2:16: syntax error" in result.output
    assert " N4 error " in result.output  # the other file is still checked


def test_unreadable_alone_exits_3(tmp_path: Path) -> None:
    broken = tmp_path / "broken.ttl"
    broken.write_text("@prefix ex: <http://e/> .\nex:a ex:b .\n")
    result = run("validate", broken, GOOD)
    assert result.exit_code == 3
    assert result.output.count("syntax error") == 1


def test_select_family_and_ignore() -> None:
    assert run("validate", BAD, "--ignore", "N4", "--ignore", "A").exit_code == 0
    assert run("validate", BAD, "--select", "N4").exit_code == 1
    assert run("validate", BAD, "--select", "N13").exit_code == 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--select", "N99"], "unknown rule ID 'N99'"),
        (["--ignore", "X1"], "unknown rule ID 'X1'"),
        (["--max-violations", "0"], "--max-violations must be at least 1"),
        (["--task", "ta9"], "unknown task 'ta9'"),
        # options that would check nothing
        (["--select", "T2a"], "--select T2a: rule T2a belongs to profile 'ta3', not to 'nist' (use --profile ta3)"),
        (["--profile", "aif", "--select", "N15"], "--select N15: rule N15 belongs to profile 'nist', not to 'aif'"),
        (["--select", "N8"], "--select N8: rule N8 is not checked"),
        (["--ignore", "S1"], "--ignore S1: rule S1 checks a TA3 submission folder"),
        (["--select", "N16b"], "--select N16b: rule N16b runs only with --task ta2"),
        (["--select", "N12a", "--severity", "error"], "--select N12a: rule N12a is a warning, below --severity error"),
        (
            ["--profile", "ta3", "--condition", "7", "--select", "T2d"],
            "--select T2d: rule T2d does not apply to condition 7",
        ),
        (["--select", "N13", "--ignore", "N13"], "these options leave no rule to run"),
        (["-j", "0"], "--jobs must be at least 1"),
        (["-j", "-1"], "--jobs must be at least 1"),
    ],
)
def test_usage_errors_exit_2_with_one_line(args: list[str], message: str) -> None:
    result = run("validate", GOOD, *args)
    assert result.exit_code == 2
    assert result.output.startswith(f"aifcheck: error: {message}") and result.output.count("\n") == 1, result.output


@pytest.mark.parametrize(
    ("option", "value", "choices"),
    [
        ("--profile", "nope", "'aif', 'nist', 'ta3'"),
        ("--profile", "submission", "'aif', 'nist', 'ta3'"),  # its rules check folders: lint-submission
        ("--severity", "loud", "'error', 'warning', 'info'"),
        ("--format", "xml", "'text', 'json', 'sarif', 'github'"),
        ("--engine", "turbo", "'fast', 'reference'"),
    ],
)
def test_a_choice_is_refused_with_the_list_in_one_line(option: str, value: str, choices: str) -> None:
    proc = run_installed("validate", GOOD, option, value)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr == f"aifcheck: error: Invalid value for '{option}': '{value}' is not one of {choices}.\n"


def test_the_help_lists_each_options_choices() -> None:
    text = runner.invoke(app, ["validate", "--help"], env={"COLUMNS": "200"}).output
    for choices in ("aif|nist|ta3", "text|json|sarif|github", "error|warning|info", "fast|reference"):
        assert choices in text, choices


def test_an_output_folder_that_is_a_file_or_cannot_be_written(tmp_path: Path) -> None:
    a_file = tmp_path / "report.txt"
    a_file.write_text("kept")
    result = run("validate", GOOD, "-o", a_file)
    assert (
        result.exit_code == 2
        and result.output
        == f"aifcheck: error: -o {a_file}: not a folder (reports are written one per input under a folder)\n"
    )
    assert a_file.read_text() == "kept"
    proc = run_installed("validate", GOOD, "-o", a_file / "reports")  # a folder inside a file cannot be made
    assert proc.returncode == 3 and proc.stdout == "" and "Traceback" not in proc.stderr
    assert proc.stderr == f"aifcheck: error: cannot write under {a_file / 'reports'}: Not a directory\n"


def test_unknown_option_is_one_line_from_the_installed_command() -> None:
    proc = run_installed("validate", "--frobnicate", GOOD)
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "No such option" in proc.stderr and "--frobnicate" in proc.stderr
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize("fmt", ["json", "sarif"])
def test_machine_formats_parse(fmt: str) -> None:
    result = run("validate", BAD, "--format", fmt)
    document = json.loads(result.output)
    if fmt == "json":
        found = [v for f in document["files"] for v in f["violations"] if v["rule_id"] == "N4"]
        assert found and found[0]["focus"] == "<http://example.org/kb#cluster-1>"
        # the layout scripts read: every field of a finding, in this order, the severity by name
        assert list(found[0]) == ["file", "line", "rule_id", "focus", "severity", "message", "plan_ref", "value"]
        assert found[0]["severity"] == "error" and found[0]["line"] == CLUSTER_LINE
    else:
        run_ = document["runs"][0]
        assert any(
            r["ruleId"] == "N4" and r["locations"][0]["physicalLocation"]["region"]["startLine"] == CLUSTER_LINE
            for r in run_["results"]
        )
        assert {r["id"] for r in run_["tool"]["driver"]["rules"]} >= {"N4"}


def test_json_documents_are_written_in_few_writes() -> None:
    # json.dump writes each of its chunks alone (a system call each on an unbuffered stdout)
    from aifcheck.render.output import write_json

    class Writes(io.StringIO):
        calls = 0

        def write(self, text: str) -> int:
            Writes.calls += 1
            return super().write(text)

    document = {"files": [{"violations": [{"line": n, "message": f"m\u00e9 {n}", "value": None} for n in range(5000)]}]}
    out = Writes()
    write_json(document, out)
    assert out.getvalue() == json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    assert Writes.calls <= 10


def test_github_format_is_chosen_on_actions(monkeypatch) -> None:
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    result = run("validate", BAD)
    assert f"::error file={BAD},line={CLUSTER_LINE},title=N4 error::" in result.output


def test_output_dir_writes_one_report_per_input(tmp_path: Path) -> None:
    result = run("validate", BAD, GOOD, "--output", tmp_path / "out", "--format", "json")
    assert result.exit_code == 1
    reports = sorted((tmp_path / "out").rglob("*.json"))
    assert [p.name for p in reports] == ["bad.ttl.json", "good.ttl.json"]
    assert json.loads(reports[1].read_text())["summary"]["valid"] == 1


def test_gzip_input(tmp_path: Path) -> None:
    packed = tmp_path / "kb.ttl.gz"
    packed.write_bytes(gzip.compress(BAD.read_bytes()))
    result = run("validate", packed)
    assert result.exit_code == 1 and f"{packed}:{CLUSTER_LINE}: N4 error" in result.output


def test_directory_and_glob(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "a.ttl").write_bytes(GOOD.read_bytes())
    (tmp_path / "notes.txt").write_text("not RDF")
    assert "1 file: 1 valid" in run("validate", tmp_path).output
    assert "1 file: 1 valid" in run("validate", f"{tmp_path}/**/*.ttl").output


def test_jobs_give_the_same_report() -> None:
    single = run("validate", BAD, GOOD, FIXTURES / "N4" / "bad-2.ttl")
    parallel = run("validate", BAD, GOOD, FIXTURES / "N4" / "bad-2.ttl", "--jobs", "2")
    assert single.output.splitlines()[:-1] == parallel.output.splitlines()[:-1]


def test_strict_fails_on_warnings_only(tmp_path: Path) -> None:
    from aifcheck import load_catalog

    warning_rules = [r for r in load_catalog().rules.values() if r.checked and r.severity.label == "warning"]
    if not warning_rules:
        pytest.skip("no warning-level rule in the catalogue yet")
    rule = warning_rules[0]
    from aifcheck.validation.fixtures import fixtures_for

    bad = next(f for f in fixtures_for(rule.id) if f.is_bad)
    if bad.also or bad.task or bad.condition:
        pytest.skip(f"{rule.id}'s fixture needs options")
    path = tmp_path / "warn.ttl"
    path.write_text(bad.text)
    args = ["validate", path, "--profile", rule.profile]
    assert run(*args).exit_code == 0
    assert run(*args, "--strict").exit_code == 1


def test_rules_lists_and_shows() -> None:
    listing = run("rules")
    assert listing.exit_code == 0 and listing.output.splitlines()[0].split() == ["ID", "PROFILE", "SEVERITY", "TITLE"]
    assert any(line.startswith("N4 ") for line in listing.output.splitlines())
    shown = run("rules", "N4")
    assert shown.exit_code == 0
    assert "plan §2.4.1 item 4" in shown.output and "Example that fails (bad.ttl)" in shown.output
    assert run("rules", "Q1").exit_code == 2


def test_the_run_is_frozen_out_of_the_exits_garbage_collections() -> None:
    """The interpreter's exit collects every object still alive, a tenth of a small file's run: the
    command line freezes them first, whatever its exit status."""
    code = (
        "import atexit, gc, sys; atexit.register(lambda: print('frozen', gc.get_freeze_count() > 1000)); "
        "sys.argv = ['aifcheck', *sys.argv[1:]]; from aifcheck.cli import main; main()"
    )
    for arguments, status in ((["validate", str(GOOD)], 0), (["validate", str(BAD)], 1), (["--no-such-option"], 2)):
        done = subprocess.run([sys.executable, "-c", code, *arguments], capture_output=True, text=True)
        assert done.returncode == status
        assert done.stdout.splitlines()[-1] == "frozen True"


def test_version_is_answered_without_the_command_line_libraries() -> None:
    """`aifcheck --version` says what the full command line says, without importing typer or the
    rules (a script or an editor asks it often: it must be instant)."""
    code = (
        "import sys; sys.argv = ['aifcheck', '--version']; from aifcheck.__main__ import main; main(); "
        "print(sorted({'typer', 'pyoxigraph', 'rdflib'} & set(sys.modules)))"
    )
    fast = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.splitlines()
    full = CliRunner().invoke(app, ["--version"])
    assert fast == [f"aifcheck {__version__}", "[]"]
    assert full.stdout.strip() == fast[0]
