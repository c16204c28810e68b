"""The real files the mutator starts from: the rule fixtures, the examples and, when present,
NIST's m54 KBs and claim frames (read in place, never copied into the project)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from helpers import FIXTURES, ROOT, SHARED_DATA, TEST_DATA


@dataclass(frozen=True)
class Seed:
    """One real file: where it came from, and its bytes."""

    name: str  # relative to the repository or to ../shared/data/m54 (as m54/...)
    data: bytes


@cache
def seeds(shared: bool = True) -> tuple[Seed, ...]:
    """Every seed file, in a stable order (so that a seed number always means the same cases)."""
    paths = sorted(FIXTURES.glob("*/*.ttl")) + sorted((TEST_DATA / "submission").glob("**/*.ttl"))
    paths += sorted((ROOT / "examples").rglob("*.ttl"))
    found = [Seed(p.relative_to(ROOT).as_posix(), p.read_bytes()) for p in paths]
    if shared and SHARED_DATA.is_dir():
        for folder in ("task1-run", "task2-run", "task3-run", "user-queries"):  # each file once
            for p in sorted(q for q in (SHARED_DATA / folder).rglob("*.ttl") if q.is_file()):
                found.append(Seed("m54/" + p.relative_to(SHARED_DATA).as_posix(), p.read_bytes()))
    return tuple(found)


def describe(shared: bool = True) -> str:
    """What the corpus holds, for the command line's table."""
    found = seeds(shared)
    m54 = sum(s.name.startswith("m54/") for s in found)
    note = f", {m54} from ../shared/data/m54" if m54 else " (../shared/data/m54 absent)"
    return f"{len(found)} seed files{note}"
