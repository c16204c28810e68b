"""NIST's TA2 scorer (``score_submission.py task2``), run offline on aifcheck's inputs.

NIST's code (shared/reference/nist-aida/python, commit a0b379b) is copied into a scratch folder
outside the project, with one change to its log specification: the ALIGNMENT_INFO line in the
3-field form the TA2 scorer logs (at a0b379b it has the 6 fields of TA1's, so the first aligned
pair raises IndexError: research/ta2-scoring.md §6 Q1). It runs in its own Python, which needs
munkres 1.1.4 and tqdm (``--nist-python``, default $NIST_PYTHON or /work/nist-venv/bin/python),
with PYTHONHASHSEED=0: its row order within a query follows the hash seed.

Used by benchmarks/bench_score_ta2.py (timing) and tests/score/fixtures/ta2/build.py (NIST's
output for every fixture).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NIST_CODE = ROOT.parent / "shared" / "reference" / "nist-aida" / "python"
NIST_PYTHON = Path(os.environ.get("NIST_PYTHON", "/work/nist-venv/bin/python"))
SCRATCH = Path(tempfile.gettempdir()) / f"nist-ta2-{os.getuid()}"
METRIC = "AcrossDocumentsCoreferenceMetricV2"
# the AUX files NIST's scorer takes, in its argument order, by the end of their names
AUX_FILES = (
    "encoding_modality.txt",
    ".coredocs.txt",
    ".parent_children.tsv",
    ".sentence_boundaries.txt",
    ".image_boundaries.txt",
    ".keyframe_boundaries.txt",
    ".video_boundaries.txt",
)
_ALIGNMENT_INFO = "INFO      ALIGNMENT_INFO                  QUERY_ID:{} CLUSTER_ID:{} FQEC:{}\n"


def nist_code(scratch: Path = SCRATCH) -> Path:
    """NIST's python/ folder in the scratch folder, with the 3-field ALIGNMENT_INFO line."""
    target = scratch / "python"
    if not (target / "score_submission.py").is_file():
        if not NIST_CODE.is_dir():
            raise SystemExit(f"NIST's code not found at {NIST_CODE}")
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(NIST_CODE, target)
        for path in [target, *target.rglob("*")]:
            path.chmod(0o755 if path.is_dir() else 0o644)
        spec = target / "input" / "aux_data" / "log_specifications.txt"
        lines = spec.read_text(encoding="utf-8").splitlines(keepends=True)
        spec.write_text(
            "".join(_ALIGNMENT_INFO if line.split()[1:2] == ["ALIGNMENT_INFO"] else line for line in lines),
            encoding="utf-8",
        )
    return target


def aux_arguments(aux: Path) -> list[str]:
    """The seven AUX files of NIST's command line, from an AUX-data folder."""
    names = sorted(p.name for p in aux.iterdir())
    found = []
    for suffix in AUX_FILES:
        matches = [n for n in names if n.endswith(suffix) and not n.endswith("coredocs-xx.txt")]
        if len(matches) != 1:
            raise SystemExit(f"{aux}: expected one file ending in {suffix}, found {matches}")
        found.append(str(aux / matches[0]))
    return found


@dataclass(frozen=True)
class NistRun:
    returncode: int
    message: str  # NIST's last line of output when it failed
    seconds: float
    output: str = ""  # what NIST's script printed on its standard output


def nist_scores(
    run: Path,
    queries_to_score: Path,
    assessments: Path,
    aux: Path,
    run_id: str,
    scores: Path,
    flags: tuple[str, ...] = (),
    python: Path = NIST_PYTHON,
    env: dict[str, str] | None = None,
) -> NistRun:
    """Run NIST's scorer on ``run`` (a folder holding SPARQL-VALID-output); its two score files
    land in ``scores`` (which must not exist)."""
    code = nist_code()
    with tempfile.TemporaryDirectory() as tmp:
        args = [
            str(python),
            "score_submission.py",
            "task2",
            "-l",
            str(Path(tmp) / "log.txt"),
            *flags,
            str(code / "input" / "aux_data" / "log_specifications.txt"),
            *aux_arguments(aux),
            str(queries_to_score),
            str(assessments),
            str(run),
            run_id,
            str(scores),
        ]
        start = time.perf_counter()
        done = subprocess.run(
            args, cwd=code, capture_output=True, text=True, env={**(env or os.environ), "PYTHONHASHSEED": "0"}
        )
        seconds = time.perf_counter() - start
    return NistRun(done.returncode, _failure(done), seconds)


def _failure(done: subprocess.CompletedProcess) -> str:
    """NIST's fatal message: a Python exception ends its error output; its own fatal events
    (CRITICAL) begin it, followed by a stack."""
    if done.returncode == 0:
        return ""
    lines = [line.strip() for line in done.stderr.splitlines() if line.strip()]
    exception = next((line for line in reversed(lines) if re.match(r"\w+(Error|Exception)\b", line)), None)
    return exception or (lines[0] if lines else "")


def nist_pool(
    runs: Path,
    run_ids: list[str],
    queries: Path,
    aux: Path,
    output: Path,
    previous: list[Path] = (),
    kit_size: int | None = None,
    python: Path = NIST_PYTHON,
) -> NistRun:
    """Run NIST's pooler (generate_pool.py task2) on ``runs/<run_id>`` for each run ID, writing into
    ``output``-BATCH1 (and, as NIST does, each run's SPARQL-POOLED-BATCH1-output beside its VALID
    folder: give it a copy of the runs). NIST's last step (an md5 by macOS's ``md5``) fails on Linux,
    after everything else is written."""
    code = nist_code()
    with tempfile.TemporaryDirectory() as tmp:
        table = Path(tmp) / "runs_to_pool.txt"
        table.write_text("run_id\n" + "".join(f"{r}\n" for r in run_ids), encoding="utf-8")
        options = [
            *(["-k", str(kit_size)] if kit_size else []),
            *(["-p", ",".join(map(str, previous))] if previous else []),
        ]
        args = [
            str(python),
            "generate_pool.py",
            "task2",
            "-l",
            str(Path(tmp) / "log.txt"),
            *options,
            str(code / "input" / "aux_data" / "log_specifications.txt"),
            *aux_arguments(aux),
            str(table),
            str(queries),
            str(runs),
            str(output),
        ]
        start = time.perf_counter()
        done = subprocess.run(args, cwd=code, capture_output=True, text=True, env={**os.environ, "PYTHONHASHSEED": "0"})
        seconds = time.perf_counter() - start
    return NistRun(done.returncode, _failure(done), seconds, done.stdout)
