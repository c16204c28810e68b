"""The two executors, and the two load paths, find the same things.

- fast executor vs reference executor (pySHACL), on the same rdflib load: the same set of
  (rule ID, focus node);
- the fast load path (pyoxigraph, aifcheck.indexed) vs the rdflib load path, both with the fast
  executor: the same findings and lines; a blank node's line may differ, as rdflib places some
  `[]` a few lines late, but the fast path's line must be the one where the node's `[` (or `_:label`) is.

On every rule fixture and on every RDF file of ../shared/data, with the profile, task and
condition the file is meant for.
"""
from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest
from helpers import SHARED_DATA

from aifcheck.catalog import Severity, load_catalog
from aifcheck.fixture import fixtures_for
from aifcheck.indexed import load_indexed
from aifcheck.parsing import load, parse_text
from aifcheck.validate import Options, check_loaded

CATALOG = load_catalog()
FIXTURES = [fixture for rule in CATALOG.rules.values() if rule.kind == "shape" for fixture in fixtures_for(rule.id)]


def _data_files() -> list[tuple[Path, Options]]:
    kbs = sorted(SHARED_DATA.glob("task1-run/*.ttl")) + sorted(SHARED_DATA.glob("task2-run/*.ttl"))
    cases = [(kb, Options(profile="nist", min_severity=Severity.INFO)) for kb in kbs]
    for condition in (5, 6, 7):
        for frame in sorted(SHARED_DATA.glob(f"task3-run/Condition{condition}/*/*.ttl")):
            cases.append((frame, Options(profile="ta3", condition=condition, min_severity=Severity.INFO)))
    for frame in sorted(SHARED_DATA.glob("user-queries/Condition5/Query_Claim_Frames/*.ttl")):
        cases.append((frame, Options(profile="ta3", condition=5, min_severity=Severity.INFO)))
    return cases


DATA = _data_files()


def _both(loaded, options: Options) -> dict[str, set[tuple[str, str]]]:
    found = {}
    for engine in ("fast", "reference"):
        report = check_loaded(loaded, replace(options, engine=engine))
        assert not report.rule_errors, (engine, report.rule_errors)
        found[engine] = {(v.rule_id, v.focus) for v in report.violations}
    return found


@pytest.mark.parametrize("fixture", FIXTURES, ids=lambda f: f"{f.rule_id}/{f.name}")
def test_fixture_same_findings(fixture) -> None:
    rule = CATALOG.rules[fixture.rule_id]
    options = Options(profile=rule.profile, min_severity=Severity.INFO, task=fixture.task, condition=fixture.condition)
    found = _both(parse_text(f"{fixture.rule_id}/{fixture.name}", fixture.text), options)
    assert found["fast"] == found["reference"], (
        f"fast only {sorted(found['fast'] - found['reference'])}, "
        f"reference only {sorted(found['reference'] - found['fast'])}"
    )


@pytest.mark.skipif(not DATA, reason=f"NIST evaluation data not found at {SHARED_DATA}")
@pytest.mark.parametrize(("path", "options"), DATA, ids=[str(p.relative_to(SHARED_DATA)) for p, _ in DATA])
def test_real_file_same_findings(path: Path, options: Options) -> None:
    found = _both(load(path), options)
    assert found["fast"] == found["reference"], (
        f"fast only {sorted(found['fast'] - found['reference'])[:20]}, "
        f"reference only {sorted(found['reference'] - found['fast'])[:20]}"
    )


def _by_load_path(path: Path, options: Options) -> None:
    text = path.read_text(encoding="utf-8").splitlines()
    rdflib_path = check_loaded(load(path), options).violations
    indexed = load_indexed(path)
    assert indexed is not None, "pyoxigraph could not parse a file rdflib parses"
    fast_path = check_loaded(indexed, options).violations

    def key(v) -> tuple[str, str, str]:
        return v.rule_id, re.sub(r"\(line \d+\)", "", v.focus), re.sub(r"\(line \d+\)", "", v.message)

    assert sorted(map(key, fast_path)) == sorted(map(key, rdflib_path))
    lines = {key(v): v.line for v in rdflib_path if not v.focus.startswith("[]")}
    for v in fast_path:
        if v.focus.startswith("[]"):
            assert "[" in text[v.line - 1] or "_:" in text[v.line - 1], (v.rule_id, v.line, text[v.line - 1])
        else:
            assert v.line == lines[key(v)], (v.rule_id, v.focus)


@pytest.mark.parametrize("fixture", FIXTURES, ids=lambda f: f"{f.rule_id}/{f.name}")
def test_fixture_same_findings_on_both_load_paths(fixture, tmp_path: Path) -> None:
    rule = CATALOG.rules[fixture.rule_id]
    path = tmp_path / fixture.name
    path.write_text(fixture.text, encoding="utf-8")
    _by_load_path(path, Options(profile=rule.profile, min_severity=Severity.INFO, task=fixture.task, condition=fixture.condition))


@pytest.mark.skipif(not DATA, reason=f"NIST evaluation data not found at {SHARED_DATA}")
@pytest.mark.parametrize(("path", "options"), DATA, ids=[str(p.relative_to(SHARED_DATA)) for p, _ in DATA])
def test_real_file_same_findings_on_both_load_paths(path: Path, options: Options) -> None:
    _by_load_path(path, options)
