"""Files in an older AIF namespace (2018, 2019: NIST's M9 and M18 runs, GAIA's) and RDF with no AIF
at all get one line saying so, on the installed command, in every profile (issue 43 §6); messages
about their terms never read as the checked namespace's."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import TEST_DATA

from aifcheck.names import AIDA

LEGACY = TEST_DATA / "legacy-aif"
OLDER = {
    "2018": "https://tac.nist.gov/tracks/SM-KBP/2018/ontologies/InterchangeOntology#",
    "2019": "https://tac.nist.gov/tracks/SM-KBP/2019/ontologies/InterchangeOntology#",
}


def _aifcheck(*args: object) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "aifcheck", *map(str, args)], capture_output=True, text=True, timeout=300
    )


def _older(tmp_path: Path, year: str, name: str = "entities.ttl") -> Path:
    """A Phase 1-2 style file of tests/data/legacy-aif with its aida: namespace that of ``year``."""
    path = tmp_path / f"{year}-{name}"
    path.write_text((LEGACY / name).read_text().replace(AIDA, OLDER[year]))
    return path


@pytest.mark.parametrize("year", sorted(OLDER))
@pytest.mark.parametrize("profile", ["aif", "nist"])
def test_a_file_in_an_older_namespace_says_so_in_one_line(tmp_path: Path, year: str, profile: str) -> None:
    path = _older(tmp_path, year)
    done = _aifcheck("validate", "--profile", profile, "--all-findings", path)
    notes = [line for line in done.stdout.splitlines() if ": note: " in line]
    assert len(notes) == 1 and notes[0].startswith(f"{path}: note: it uses the AIF namespace of {year} (NIST's M")
    assert f"<{OLDER[year]}>, not the one checked (<{AIDA}>): its terms are not checked" in notes[0]
    # no message names an older term by the checked namespace's prefix (aida:confidence)
    for line in done.stdout.splitlines():
        if " O10 error " in line:
            assert f"has <{OLDER[year]}" in line and "has aida:" not in line, line


def test_the_same_file_in_the_checked_namespace_gets_no_note() -> None:
    done = _aifcheck("validate", "--profile", "aif", LEGACY / "entities.ttl")
    assert done.returncode == 0 and "note:" not in done.stdout, done.stdout


@pytest.mark.parametrize("profile", ["aif", "nist", "ta3"])
def test_rdf_without_aif_says_so(tmp_path: Path, profile: str) -> None:
    path = tmp_path / "plain.ttl"
    path.write_text("@prefix ex: <http://example.org/> .\nex:a ex:b ex:c .\n")
    done = _aifcheck("validate", "--profile", profile, path)
    assert done.returncode == 0
    assert done.stdout.splitlines()[0].startswith(f"{path}: note: it holds no AIF: no core term"), done.stdout


def test_the_note_is_in_json_too(tmp_path: Path) -> None:
    found = json.loads(_aifcheck("validate", "--format", "json", _older(tmp_path, "2019")).stdout)
    assert any("AIF namespace of 2019" in note for note in found["files"][0]["notes"]), found["files"][0]
