"""The justification-kinds fixture (tests/data/ta1-kinds: a KB and hand-made gold tables of the
core document L0C049DNW), laid out as NIST lays a run, its gold and its AUX data out."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from helpers import ROOT, SHARED_DATA

DOC = "L0C049DNW"
SOURCE = ROOT / "tests" / "data" / "ta1-kinds"


def lay_out(folder: Path) -> Path:
    """``folder``/run/<DOC>.ttl and ``folder``/gold/<DOC>.ttl/<table>.rq.tsv; returns ``folder``."""
    (folder / "run").mkdir(parents=True)
    shutil.copy(SOURCE / "kb.ttl", folder / "run" / f"{DOC}.ttl")
    gold = folder / "gold" / f"{DOC}.ttl"
    gold.mkdir(parents=True)
    for kind in ("AM", "CM", "TM"):
        shutil.copy(SOURCE / f"gold-{kind}.tsv", gold / f"AIDA_P3_TA1_{kind}_A0001.rq.tsv")
    return folder


def kinds_aux(folder: Path) -> Path:
    """NIST's AUX data under ``folder``/AUX-data, with DOC the only core document (the run holds
    no other); the test skips without NIST's AUX data."""
    source = SHARED_DATA / "ta1-scoring" / "AUX-data"
    if not source.is_dir():
        pytest.skip(f"NIST's AUX data not found at {source}")
    aux = folder / "AUX-data"
    shutil.copytree(source, aux, ignore=shutil.ignore_patterns("*.xlsx"))
    for path in aux.iterdir():
        path.chmod(0o644)
    (aux / "LDC2021E11.coredocs-xx.txt").write_text(f"root_id\n{DOC}\n")
    return aux
