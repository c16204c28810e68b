"""``aifcheck pool ta3 --user-queries --aux`` on the example evaluation's TA3 runs, against what
NIST's generate_pool.py task3 wrote for the same runs and the query claim frames' run
(fixtures/ta3_pool: its README has the command): the pool claims and the human-readable file
byte for byte, the claim mappings but for their runs_directory column (NIST's single input folder;
aifcheck's each run's own: the stages' folder, and the pool's runs/ for the run it made)."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path

from helpers import ROOT
from tree_digest import digest

EXAMPLE = ROOT / "example-evaluation" / "ta3"
NIST = Path(__file__).parent / "fixtures" / "ta3_pool"


def aifcheck(*args: object, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "aifcheck", *map(str, args)], capture_output=True, text=True, cwd=cwd, timeout=600
    )


def test_the_example_s_pool_is_nist_s(tmp_path: Path) -> None:
    user = ("--user-queries", EXAMPLE / "user-queries", "--aux", EXAMPLE / "AUX-data")
    for run in ("run1", "run2"):
        done = aifcheck("pipeline", "ta3", EXAMPLE / run, *user, "-o", f"stages/{run}", cwd=tmp_path)
        assert done.returncode == 0, done.stderr
    done = aifcheck(
        "pool",
        "ta3",
        "stages/run1",
        "stages/run2",
        "--queries-to-score",
        EXAMPLE / "queries.tab",
        *user,
        "-o",
        "pool",
        cwd=tmp_path,
    )
    assert done.returncode == 0 and done.stderr == "", done.stderr
    pool = tmp_path / "pool"
    expected = dict(line.split("\t") for line in (NIST / "digests.tsv").read_text(encoding="utf-8").splitlines())
    assert digest(pool / "pool") == expected["pool/"]
    readable = hashlib.sha256((pool / "human-readable-format.tab").read_bytes()).hexdigest()
    assert readable == expected["human-readable-format.tab"]

    def cells(path: Path) -> list[list[str]]:
        return [line.split("\t") for line in path.read_text(encoding="utf-8").split("\n")]

    ours, theirs = cells(pool / "claim-mappings.tab"), cells(NIST / "claim-mappings.tab")
    assert [row[:7] + row[8:] for row in ours] == [row[:7] + row[8:] for row in theirs]
    directories = {row[6]: row[7] for row in ours[1:]}
    assert directories == {"run1": "stages", "run2": "stages", "query_claim_frames": "pool/runs"}
    assert {row[7] for row in theirs[1:]} == {"runs"}
