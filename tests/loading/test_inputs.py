"""Bad input never ends in a traceback: one located line, the right exit code, other files checked."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from helpers import FIXTURES

from aifcheck.errors import InputError
from aifcheck.loading.kb import load_kb

AIDA = "https://raw.githubusercontent.com/NextCenturyCorporation/AIDA-Interchange-Format/master/java/src/main/resources/com/ncc/aif/ontologies/InterchangeOntology#"
HEAD = f"@prefix aida: <{AIDA}> .\n@prefix ex: <http://example.org/kb#> .\n"
GOOD = FIXTURES / "N4" / "good.ttl"


def aifcheck(*args) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "aifcheck", "validate", *map(str, args)], capture_output=True, text=True, timeout=600
    )


def assert_no_traceback(proc: subprocess.CompletedProcess) -> None:
    assert "Traceback" not in proc.stdout + proc.stderr


@pytest.mark.parametrize(
    ("content", "message", "position"),
    [
        (b"", "empty file: no RDF triples", None),
        (b"@prefix ex: <http://e/> .\n", "no RDF triples in file", None),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "binary file", None),
        (b'@prefix ex: <http://e/> .\nex:a ex:b "caf\xe9" .\n', "not UTF-8 (byte 0xe9)", ":2:15:"),
        (b"@prefix ex: <http://e/> .\nex:a ex:b ex:c ex:d .\n", "syntax error", ":2:16:"),
        (b'@prefix ex: <http://e/> .\nex:a ex:b "open string .\n', "syntax error", ":2:"),
    ],
    ids=["empty", "prefixes-only", "binary", "latin-1", "extra-term", "unterminated-string"],
)
def test_unreadable_file_is_one_located_line(tmp_path: Path, content: bytes, message: str, position) -> None:
    path = tmp_path / "input.ttl"
    path.write_bytes(content)
    with pytest.raises(InputError) as caught:
        load_kb(path)
    line = str(caught.value)
    assert line.startswith(str(path)) and message in line and "\n" not in line
    if position:
        assert line.startswith(f"{path}{position}")
    proc = aifcheck(path, GOOD)
    assert proc.returncode == 3
    assert_no_traceback(proc)
    assert proc.stdout.splitlines()[0] == line
    assert "2 files: 1 valid, 0 invalid, 1 unreadable" in proc.stdout


def test_not_a_gzip_file(tmp_path: Path) -> None:
    path = tmp_path / "kb.ttl.gz"
    path.write_text("plain text")
    proc = aifcheck(path)
    assert proc.returncode == 3 and "named .gz but not gzip data" in proc.stdout


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda d: d / "missing.ttl", "no such file or directory"),
        (lambda d: (d / "empty").mkdir() or d / "empty", "folder holds no RDF file"),
        (lambda d: f"{d}/*.nothing", "no file matches this pattern"),
    ],
    ids=["missing", "empty-dir", "glob"],
)
def test_path_problems_still_check_the_rest(tmp_path: Path, make, message: str) -> None:
    proc = aifcheck(make(tmp_path), GOOD)
    assert proc.returncode == 3
    assert_no_traceback(proc)
    assert message in proc.stdout and "1 valid" in proc.stdout


def test_huge_literal(tmp_path: Path) -> None:
    path = tmp_path / "big.ttl"
    path.write_text(HEAD + f'ex:e a aida:Entity ; aida:hasName "{"x" * 10_000_000}" .\n')
    proc = aifcheck(path, "--profile", "aif")
    assert_no_traceback(proc)
    assert proc.returncode in (0, 1)
    assert len(proc.stdout) < 20_000  # messages never echo the whole literal


def test_deeply_nested_blank_nodes(tmp_path: Path) -> None:
    depth = 3000
    path = tmp_path / "deep.ttl"
    path.write_text(HEAD + "ex:a ex:p " + "[ ex:p " * depth + "ex:z" + " ]" * depth + " .\n")
    assert len(load_kb(path)) == depth + 1
    much_deeper = tmp_path / "deeper.ttl"
    much_deeper.write_text(HEAD + "ex:a ex:p " + "[ ex:p " * 200_000 + "ex:z" + " ]" * 200_000 + " .\n")
    for engine in ("fast", "reference"):  # one loader (pyoxigraph's, with no depth limit): one verdict
        proc = aifcheck(much_deeper, "--engine", engine)
        assert proc.returncode == 0 and "1 file: 1 valid" in proc.stdout, (engine, proc.stdout, proc.stderr)
        assert_no_traceback(proc)


def test_hundred_thousand_findings_are_bounded(tmp_path: Path) -> None:
    path = tmp_path / "many.ttl"
    path.write_text(HEAD + "".join(f"ex:c{i} a aida:SameAsCluster .\n" for i in range(100_000)))
    proc = aifcheck(path, "--select", "N4", "--max-violations", "10", "--all-findings")
    assert proc.returncode == 1
    assert_no_traceback(proc)
    findings = [line for line in proc.stdout.splitlines() if " N4 error " in line]
    assert len(findings) == 10
    assert findings[0].startswith(f"{path}:3: N4 error ex:c0:")
    assert "checking stopped at 10 findings (--max-violations)" in proc.stdout


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_ill_typed_literals_are_findings_not_tracebacks(engine: str) -> None:
    # rdflib logs a traceback for "high"^^xsd:double while parsing; the user sees only the A2 finding
    proc = aifcheck("--engine", engine, FIXTURES / "A2" / "bad-2.ttl")
    assert proc.returncode == 1
    assert proc.stderr == ""
    assert '"high"^^xsd:double, which is not a number' in proc.stdout
