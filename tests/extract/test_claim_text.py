"""A claim's text is the file's text: quotes and backslashes as written, in the objects and in
every output format (the model is built from typed rows, not from NIST's printed cells)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from helpers import TEST_DATA

import aifcheck

FRAME = TEST_DATA / "submission" / "run" / "CLQRYA0001.000001" / "CLDOCA0001.000001.ttl"
DESCRIPTION = 'He said "hi" then left'
TOPIC = 'Back\\slash "topic"'  # the Turtle below escapes both


@pytest.fixture(scope="module")
def frame(tmp_path_factory) -> Path:
    text = FRAME.read_text(encoding="utf-8")
    text = text.replace('"Dr. Vega says that pets transmit COVID-19"', '"He said \\"hi\\" then left"')
    text = text.replace('aida:topic "Transmitting the virus"', 'aida:topic "Back\\\\slash \\"topic\\""')
    text = text.replace('aida:componentName "pets"', 'aida:componentName "pets\\tand \\"cats\\""')
    path = tmp_path_factory.mktemp("claim") / "frame.ttl"
    path.write_text(text, encoding="utf-8")
    return path


def _run(*args: object) -> subprocess.CompletedProcess:
    return subprocess.run(["aifcheck", *map(str, args)], capture_output=True, text=True, check=False)


def test_the_api_gives_the_text_as_written(frame: Path) -> None:
    (claim,) = aifcheck.claims(frame)
    assert claim.description == DESCRIPTION
    assert claim.topic == TOPIC
    assert claim.x_variable is not None and claim.x_variable.name == 'pets\tand "cats"'


def test_json_holds_the_text_exactly(frame: Path) -> None:
    result = _run("claims", "--format", "json", frame)
    assert result.returncode == 0, result.stderr
    (claim,) = json.loads(result.stdout)
    assert (claim["description"], claim["topic"], claim["x_variable"]["name"]) == (
        DESCRIPTION,
        TOPIC,
        'pets\tand "cats"',
    )


def test_tsv_holds_the_text_with_only_its_line_breakers_escaped(frame: Path) -> None:
    result = _run("claims", "--format", "tsv", frame)
    assert result.returncode == 0, result.stderr
    header, row = result.stdout.splitlines()
    cells = dict(zip(header.split("\t"), row.split("\t"), strict=True))
    assert cells["description"] == DESCRIPTION
    assert cells["topic"] == TOPIC
    assert cells["x_variable"] == 'pets\\tand "cats"'  # a tab would split the column


def test_crux_holds_the_text_with_only_its_line_breakers_escaped(frame: Path) -> None:
    result = _run("claims", "--format", "crux", frame)
    assert result.returncode == 0, result.stderr
    (row,) = result.stdout.splitlines()
    cells = row.split("\t")
    assert len(cells) == 12
    assert cells[2] == TOPIC and cells[4] == 'pets\\tand "cats"'
