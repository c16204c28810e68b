"""Every rule fires with its ID on its bad fixtures and stays silent on its good ones, through the
path users run: the public API (aifcheck.validate, from the file) at every severity, and the
installed command for every bad fixture.

Parametrised from the catalogue (not from a glob); a rule without fixtures fails in
test_catalog.py. The reference executor is held to the same findings in test_differential.py.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest
import rdflib
from helpers import FIXTURES

import aifcheck
from aifcheck.validation import run as validation
from aifcheck.validation.catalog import Severity
from aifcheck.validation.fixtures import Fixture, fixtures_for
from aifcheck.validation.shapes import load_catalog

CATALOG = load_catalog()
FIXTURES_OF_RULES = [
    fixture for rule in CATALOG.rules.values() if rule.kind == "shape" for fixture in fixtures_for(rule.id)
]
CASES = [
    pytest.param(fixture, severity, id=f"{fixture.rule_id}/{fixture.name}/{severity.label}")
    for fixture in FIXTURES_OF_RULES
    for severity in Severity
]


def path_of(fixture: Fixture) -> Path:
    return FIXTURES / fixture.rule_id / fixture.name


def options_of(fixture: Fixture, severity: Severity = Severity.INFO) -> dict:
    rule = CATALOG.rules[fixture.rule_id]
    return {"profile": rule.profile, "min_severity": severity, "task": fixture.task, "condition": fixture.condition}


def shown(report) -> list[tuple[str, str, str]]:
    return [(v.rule_id, v.focus, v.message) for v in report.violations]


@pytest.mark.parametrize(("fixture", "severity"), CASES)
def test_fixture(fixture: Fixture, severity: Severity) -> None:
    report = aifcheck.validate(path_of(fixture), **options_of(fixture, severity))
    (file_report,) = report.files
    assert file_report.readable and not file_report.rule_errors, (file_report.error, file_report.rule_errors)
    fired = {v.rule_id for v in report.violations}
    if not fixture.is_bad:
        assert fired == set(), shown(report)
        return
    expected = {r for r in {fixture.rule_id} | fixture.also if CATALOG.rules[r].severity >= severity}
    assert fired == expected, shown(report)
    if fixture.rule_id in expected:
        assert fixture.expect, "a bad fixture must name at least one expected focus node"
        focus = {v.focus for v in report.violations if v.rule_id == fixture.rule_id}
        assert set(fixture.expect) <= focus, f"expected focus {fixture.expect}, got {sorted(focus)}"
        assert all(v.line > 0 for v in report.violations), [(v.rule_id, v.line) for v in report.violations]


def test_every_checked_rule_has_cases() -> None:
    covered = {fixture.rule_id for fixture in FIXTURES_OF_RULES}
    checked = {rule.id for rule in CATALOG.rules.values() if rule.kind == "shape"}
    assert covered == checked, sorted(checked - covered)


def test_expected_focus_nodes_are_iris_in_the_fixture() -> None:
    for fixture in FIXTURES_OF_RULES:
        graph = rdflib.Graph().parse(data=fixture.text, format="turtle")
        nodes = {n.n3() for triple in graph for n in triple}
        for focus in fixture.expect:
            assert focus in nodes, f"{fixture.rule_id}/{fixture.name}: {focus} does not occur in the file"


def _installed_command() -> str:
    command = Path(sys.executable).parent / "aifcheck"
    if not command.exists():
        pytest.skip(f"the aifcheck command is not installed beside {sys.executable}")
    return str(command)


def test_every_bad_fixture_fires_its_rule_through_the_installed_command() -> None:
    # one process per set of options, all its bad fixtures at once, as a user would run them
    groups: dict[tuple, list[Fixture]] = defaultdict(list)
    for fixture in FIXTURES_OF_RULES:
        if fixture.is_bad:
            groups[tuple(sorted(options_of(fixture).items(), key=str))].append(fixture)
    command = _installed_command()
    silent = []
    for key, fixtures in groups.items():
        options = dict(key)
        args = [command, "validate", "--profile", options["profile"], "--severity", "info"]
        args += ["--task", options["task"]] if options["task"] else []
        args += ["--condition", str(options["condition"])] if options["condition"] else []
        proc = subprocess.run(args + [str(path_of(f)) for f in fixtures], capture_output=True, text=True, timeout=300)
        assert proc.returncode in (0, 1) and "Traceback" not in proc.stderr, proc.stderr  # (warnings alone pass)
        for fixture in fixtures:
            prefix = f"{path_of(fixture)}:"
            if not any(line.startswith(prefix) and f" {fixture.rule_id} " in line for line in proc.stdout.splitlines()):
                silent.append(f"{fixture.rule_id}/{fixture.name}")
    assert not silent, silent


def test_fast_executor_lists_items_sorted_even_when_an_item_holds_the_separator(tmp_path: Path) -> None:
    # The items of a message list are sorted so that a message is the same from run to run;
    # an item that holds ", " must stay whole.
    path = tmp_path / "list.ttl"
    path.write_text(
        """@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .
@prefix ex: <http://example.org/> .
ex:statement a rdf:Statement ; rdf:subject ex:s ; rdf:predicate ex:p ; rdf:object "c" , "b, a" .
""",
        encoding="utf-8",
    )
    report = aifcheck.validate(path, profile="aif", select=["A1"])
    messages = [v.message for v in report.violations if " values of " in v.message]
    assert len(messages) == 1 and messages[0].endswith(
        'values of <http://www.w3.org/1999/02/22-rdf-syntax-ns#object>: "b, a", "c"'
    ), messages


@pytest.mark.parametrize(
    "fixture", [pytest.param(f, id=f"{f.rule_id}/{f.name}") for f in FIXTURES_OF_RULES if f.is_bad]
)
def test_queries_run_here_or_on_threads_give_the_same_findings(fixture: Fixture) -> None:
    options = validation.Options(**options_of(fixture))
    reports = [validation.validate_file(str(path_of(fixture)), options, threads=threads) for threads in (1, 3)]
    assert reports[0].violations and reports[0].violations == reports[1].violations


def test_jobs_give_the_findings_of_one_process() -> None:
    paths = [path_of(f) for f in FIXTURES_OF_RULES if f.rule_id.startswith("N") and f.is_bad and not f.task]
    one, two = (aifcheck.validate(paths, min_severity="info", jobs=jobs) for jobs in (1, min(2, os.cpu_count() or 1)))
    assert one.violations and one.violations == two.violations
