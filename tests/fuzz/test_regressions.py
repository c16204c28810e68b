"""What the fuzzing harness found, each minimised to a small input, as the tests it must pass.

A test is marked xfail(strict=True) while the product has the bug: the suite stays green, and a
fix makes the test pass, which strict mode reports, so that the mark is removed with the fix (and
the bug's entry in KNOWN, which lets the seeded runs of test_fuzz.py pass meanwhile). The tests
without the mark are bugs fixed since, kept as regression tests.
"""

from __future__ import annotations

import gzip
import re
from collections.abc import Callable
from pathlib import Path

import pytest

import aifcheck
from aifcheck.errors import InputError
from fuzz.hostile import (
    AIDA_HEAD,
    GOOD,
    HEAD,
    long_list,
    nested_rdf_xml,
    nested_triple_terms,
    triple_term_object,
    write_lol,
)
from fuzz.oracle import LEAKS, Problem, check_validate_json, clean, leaks, run_command

GiB = 1024**3
SUBMISSION_FRAME = (
    Path(__file__).parents[1] / "data" / "submission" / "run" / "CLQRYA0001.000001" / "CLDOCA0001.000001.ttl"
)


def known(problem: Problem, recipe: str) -> str | None:
    """The name of the known bug a problem of the seeded runs is (None when it is new): the
    problem's text, or the recipe of the case it came from, tells."""
    text = f"{problem.kind}: {problem.detail}"
    for name, pattern, made_by in KNOWN:
        if re.search(pattern, text) and (made_by is None or re.search(made_by, recipe)):
            return name
    return None


# what a run that a known bug ended shows besides the bug itself (put on the case by fuzz._cli_batch)
CONSEQUENCES = ("crash", "memory", "hang", "traceback", "lost", "exit code")


def unknown(
    problems: list[tuple[int | None, Problem]], recipe: Callable[[int], str]
) -> list[tuple[int | None, Problem]]:
    """The problems that are no known bug, nor what a known bug of their case brought about."""
    recipes = {i: recipe(i) for i in {i for i, _ in problems if i is not None}}
    buggy = {i for i, p in problems if i is not None and known(p, recipes[i])}
    return [
        (i, p) for i, p in problems if not known(p, recipes.get(i, "")) and not (i in buggy and p.kind in CONSEQUENCES)
    ]


# (bug, pattern of the problem, pattern of the recipe of the case that shows it); one test below each
KNOWN: tuple[tuple[str, str, str | None], ...] = ()  # none open: each bug found has been fixed


def _validate(folder: Path, *args: str, timeout: float = 60, memory_limit: int | None = 2 * GiB):
    return run_command(("validate", "--format", "json", *args), folder, timeout, memory_limit)


def _good(folder: Path) -> str:
    (folder / "good.ttl").write_bytes(GOOD)
    return "good.ttl"


def test_triple_term_is_not_a_traceback(tmp_path: Path) -> None:
    # 3 lines: `ex:a aida:confidence <<( ex:s ex:p ex:o )>> .` ('pyoxigraph.Triple' object has no attribute 'value')
    (tmp_path / "triple-term.ttl").write_bytes(triple_term_object())
    run = _validate(tmp_path, "triple-term.ttl", _good(tmp_path))
    assert check_validate_json(run, ["triple-term.ttl", "good.ttl"]) == [] and run.returncode == 3
    report = aifcheck.validate(tmp_path / "triple-term.ttl")
    assert report.exit_status == 3
    # line 3, column 22: where `<<(` starts (HEAD and AIDA_HEAD take the first two lines)
    assert (
        report.files[0].error.message
        == f"{tmp_path / 'triple-term.ttl'}:3:22: RDF 1.2 triple terms (<< ... >>) are not AIF, which is RDF 1.1"
    )


def test_nested_triple_terms_do_not_crash_the_run(tmp_path: Path) -> None:
    (tmp_path / "nested.ttl").write_bytes(nested_triple_terms(20_000))
    files = ["nested.ttl", _good(tmp_path)]
    for jobs in ("1", "2"):  # --jobs 2: BrokenProcessPool traceback instead
        run = _validate(tmp_path, "--jobs", jobs, *files)
        assert check_validate_json(run, files) == [] and run.returncode == 3


def test_xml_entity_bomb_is_refused(tmp_path: Path) -> None:
    write_lol(tmp_path / "lol.rdf", levels=8)
    files = ["lol.rdf", _good(tmp_path)]
    run = _validate(tmp_path, *files)
    assert check_validate_json(run, files) == [] and run.returncode == 3
    assert run.max_rss_kb * 1024 < 2 * GiB


def test_deep_rdf_xml_is_read_quickly(tmp_path: Path) -> None:
    (tmp_path / "deep.rdf").write_bytes(nested_rdf_xml(20_000))
    run = _validate(tmp_path, "deep.rdf", timeout=3)
    assert run.returncode == 3 and "XML elements nested more than 1000 deep" in run.stdout


def test_long_list_does_not_slow_the_lines(tmp_path: Path) -> None:
    # found at 44ff4a0 + the working tree of the day (10,000 items, 50 KB: 33 s; 20,000 nested
    # lists: 169 s); fixed since by the rewrite of lines.py, which keeps every walked node's line
    (tmp_path / "list.ttl").write_bytes(long_list(20_000))
    run = _validate(tmp_path, "list.ttl", timeout=10)
    assert run.returncode == 1 and '"rule_id": "A2"' in run.stdout


GZIP_CASES = {
    "not-gzip.ttl.gz": GOOD,  # Not a gzipped file (b'@p')
    "crc.ttl.gz": gzip.compress(GOOD, mtime=0)[:-8]
    + b"\0\0\0\0"
    + gzip.compress(GOOD, mtime=0)[-4:],  # CRC check failed 0x0 != 0x...
    "size.ttl.gz": gzip.compress(GOOD, mtime=0)[:-4] + b"\x05\0\0\0",  # Incorrect length of data produced
    "trailing.ttl.gz": gzip.compress(GOOD, mtime=0) + b"garbage",  # Not a gzipped file (b'ga')
}


@pytest.mark.parametrize("name", sorted(GZIP_CASES))
def test_gzip_messages_are_plain(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_bytes(GZIP_CASES[name])
    report = aifcheck.validate(path)
    message = report.files[0].error.message
    assert "gzip" in message and not [n for n, pattern in LEAKS if pattern.search(message)], message


@pytest.mark.parametrize("edit", ["document IRI", "confidence not a number", "date not a number"])
def test_load_raises_input_error(tmp_path: Path, edit: str) -> None:
    text = (Path(__file__).parents[2] / "examples" / "valid" / "document-kb.ttl").read_text(encoding="utf-8")
    text = {
        # ValueError: not a span: 'http://example.org/DOC1:DOC1-EL1:(20,0)-(25,0)' (model.py)
        "document IRI": lambda t: t.replace(
            'aida:sourceDocument "DOC1"', "aida:sourceDocument <http://example.org/DOC1>"
        ),
        # ValueError: could not convert string to float: '"high"^^<...#double>' (extract.py _number)
        "confidence not a number": lambda t: t.replace('"1.0"^^xsd:double', '"high"^^xsd:double', 1),
        # ValueError: invalid literal for int() with base 10: '2020x' (extract.py ldc_time)
        "date not a number": lambda t: re.sub(r'aida:year "(\d+)"', r'aida:year "\1x"', t, count=1),
    }[edit](text)
    path = tmp_path / "kb.ttl"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as caught:
        aifcheck.load(path)
    assert caught.value.line is not None and str(caught.value).startswith(f"{path}:{caught.value.line}: ")
    assert not leaks(str(caught.value))


def test_stdin_and_a_file_named_stdin_keep_their_reports(tmp_path: Path) -> None:
    import subprocess
    import sys

    (tmp_path / "stdin").write_bytes(GOOD)
    proc = subprocess.run(
        [sys.executable, "-m", "aifcheck", "validate", "-o", "out", "-", "stdin"],
        input=HEAD + b"ex:a ex:b ex:c .\n",
        cwd=tmp_path,
        capture_output=True,
        timeout=60,
    )
    # refused before any file is read: the two reports would be one file
    assert proc.returncode == 2 and not (tmp_path / "out" / "stdin.txt").exists()
    assert proc.stderr.decode() == (
        "aifcheck: error: -o out: stdin and standard input would both report to out/stdin.txt: give them in two runs\n"
    )


ESCAPES = '"\\u001B[2J\\u001B[31mhigh\\u2028line two\\r\\nthree"'  # Turtle escapes: ESC, U+2028, CR, LF


def test_findings_are_one_clean_line(tmp_path: Path) -> None:
    # ex:a aida:confidence [ a aida:Confidence ; aida:confidenceValue "\u001B[2J...\r\nthree" ] .
    text = (
        AIDA_HEAD + b"ex:a aida:confidence [ a aida:Confidence ; aida:confidenceValue " + ESCAPES.encode() + b" ] .\n"
    )
    (tmp_path / "escapes.ttl").write_bytes(text)
    run = run_command(("validate", "escapes.ttl"), tmp_path, 60)
    assert run.returncode == 1
    assert [clean(line) for line in run.stdout.split("\n")] == [True] * 3  # A2's finding, the summary, ""


def test_claims_message_is_one_clean_line(tmp_path: Path) -> None:
    frame = SUBMISSION_FRAME.read_text(encoding="utf-8")
    path = tmp_path / "frame.ttl"
    path.write_text(
        frame.replace('aida:year "2020"^^xsd:gYear', 'aida:year "20\\u2028\\u001b[2J20"', 1), encoding="utf-8"
    )
    with pytest.raises(InputError) as caught:
        aifcheck.claims(path)
    assert "is not a number" in str(caught.value) and clean(str(caught.value))


def test_ta3_graph_table_on_a_large_kb(shared_data: Path, tmp_path: Path) -> None:
    # found taking 18 s on this 10k-triple TA1 KB of NIST's (155 s on two of them together);
    # fixed since by the rewrite of the TA3 graph tables in queries/
    kb = shared_data / "task1-run" / "L0C04936H.ttl"
    run = run_command(("query", "--table", "AIDA_P3_TA3_GR_0001A", str(kb)), tmp_path, 5)
    assert run.returncode == 0
