"""Memory limits as tests: the issue's 17 MB literal and a gzip bomb, each through validate, claims
and query in a process whose address space is capped at 2 GB (RLIMIT_AS), end with one clean line
and exit 3, never a MemoryError or a traceback.

The bomb here has the issue's shape at a CI size: 400 distinct triples repeated to 80 MiB, 89 to 1
(the issue's is 2 GiB in 24 MB; `python tests/fuzz/fuzz.py --large` runs that one).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from fuzz.hostile import GOOD, MiB, write_bomb, write_long_literal
from fuzz.oracle import check_claims_json, check_query, check_validate_json, run_command

GiB = 1024**3
LIMIT = 2 * GiB


@pytest.fixture(scope="module")
def big_inputs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("big")
    write_long_literal(folder / "literal.ttl")
    write_bomb(folder / "bomb.ttl.gz", 80 * MiB)
    (folder / "good.ttl").write_bytes(GOOD)
    return folder


@pytest.mark.parametrize(
    ("name", "phrase"),
    [
        ("literal.ttl", "a literal or IRI longer than 16 MiB"),
        ("bomb.ttl.gz", "expands more than 64 times (a decompression bomb?)"),
    ],
)
def test_large_input_ends_with_one_clean_line(big_inputs: Path, name: str, phrase: str) -> None:
    files = [name, "good.ttl"]  # and the other file is still checked
    run = run_command(("validate", "--format", "json", *files), big_inputs, 120, LIMIT)
    assert check_validate_json(run, files) == [] and run.returncode == 3
    assert phrase in run.stdout and "MemoryError" not in run.stdout + run.stderr
    assert run.max_rss_kb * 1024 < LIMIT
    text = run_command(("validate", name), big_inputs, 120, LIMIT)
    assert text.returncode == 3 and text.stdout.splitlines()[0].startswith(f"{name}:") and phrase in text.stdout
    claims = run_command(("claims", "--format", "json", name), big_inputs, 120, LIMIT)
    assert check_claims_json(claims, [name], {}) == [] and claims.returncode == 3 and phrase in claims.stderr
    query = run_command(("query", "--table", "AIDA_P3_TA1_CM_A0001", name), big_inputs, 120, LIMIT)
    assert check_query(query, [name], {}) == [] and query.returncode == 3 and phrase in query.stderr


def test_bomb_read_with_max_size(big_inputs: Path) -> None:
    """--max-size replaces the bomb test: above the file's size it is read (in bounded memory), below it is refused."""
    run = run_command(("validate", "--format", "json", "--max-size", "100M", "bomb.ttl.gz"), big_inputs, 120, LIMIT)
    assert check_validate_json(run, ["bomb.ttl.gz"]) == [] and run.returncode in (0, 1)
    assert run.max_rss_kb * 1024 < LIMIT
    small = run_command(("validate", "--max-size", "10M", "bomb.ttl.gz"), big_inputs, 120, LIMIT)
    assert small.returncode == 3 and "expands to more than --max-size 10.0 MiB" in small.stdout
