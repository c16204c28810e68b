"""The rule catalogue, read from the shapes in shapes/ (no hand-kept lists).

Each profile file (aif.ttl, nist.ttl, ta3.ttl) declares one ``aifc:Profile`` and the rules
of that profile. A rule is one ``sh:NodeShape`` carrying ``aifc:ruleId``, ``rdfs:label``
(title), ``rdfs:comment`` (text), ``aifc:planRef``, ``sh:severity`` and one or more
``sh:sparql`` constraints, each with its ``sh:message``. Rules about a submission directory
rather than a graph are ``aifc:SubmissionRule`` resources with the same metadata; their
checks are Python (aifcheck/submission.py). Rules that RULES.md names but that have nothing
to check are ``aifc:UncheckedRule`` resources with an ``aifc:reason``.

This module holds the catalogue as plain values; aifcheck.catalog_build reads the shapes
(with rdflib) when they change.
"""
from __future__ import annotations

import os
import pickle
import re
import zlib
from dataclasses import dataclass, field
from functools import cache, cached_property
from pathlib import Path

from ..errors import UsageError
from .severity import Severity

RULE_ID = re.compile(r"^[ANTSOD]\d+[a-z]?$")


GROUP_CONCAT = re.compile(
    r"GROUP_CONCAT\((?:(?!GROUP_CONCAT).)*?separator\s*=\s*([\"'])(?P<sep>.*?)\1\s*\)\s*AS\s*\?(?P<var>\w+)",
    re.IGNORECASE | re.DOTALL,
)


@dataclass(frozen=True)
class Constraint:
    """One SPARQL-based constraint of a rule: its SELECT and the message template."""

    select: str
    message: str
    # a hint to the fast executor: test each solution's $this against the targets after the body,
    # instead of enumerating the targets first (for selective bodies that bind $this)
    targets_last: bool = False
    # a hint to the fast executor: run its FILTER NOT EXISTS as MINUS, one anti-join instead of a
    # look-up per solution (for bodies with many solutions; engine.fast.anti_joins)
    anti_join: bool = False
    # found when the catalogue is built: every solution of the body holds a triple pattern that puts
    # $this among the rule's targets (``$this a C`` for a target class C, ...), so the fast executor
    # joins no targets to it (a tenth of the rule queries' time on an 11k-triple file)
    implies_targets: bool = False

    @cached_property  # read for every result row: scan the SELECT once
    def lists(self) -> tuple[tuple[str, str], ...]:
        """(variable, separator) of each GROUP_CONCAT in the SELECT: engines join in any order."""
        return tuple((m["var"], m["sep"]) for m in GROUP_CONCAT.finditer(self.select))


@dataclass(frozen=True)
class Target:
    """A SHACL target of a rule shape: kind is class, node, subjectsOf or objectsOf."""

    kind: str
    term: str  # an IRI


@dataclass(frozen=True)
class Rule:
    id: str
    profile: str
    severity: Severity
    title: str
    text: str
    plan_ref: str
    shape: str | None = None  # the IRI of its sh:NodeShape
    targets: tuple[Target, ...] = ()
    constraints: tuple[Constraint, ...] = ()
    task: str | None = None  # only checked when validating for this task (e.g. "ta2")
    skip_conditions: frozenset[int] = frozenset()  # TA3 conditions where the rule does not apply
    unchecked_reason: str | None = None
    kind: str = "shape"  # "shape" (SHACL-SPARQL), "submission" (a directory check) or "unchecked"
    # the terms a finding's value should have been one of (aifc:vocabulary, a file of shapes/):
    # each finding then suggests the nearest ones, on either executor
    vocabulary: tuple[str, ...] = ()

    @property
    def checked(self) -> bool:
        return self.kind != "unchecked"

    @property
    def family(self) -> str:
        """N13a -> N13: the ID that selects a rule together with its lettered siblings."""
        return self.id.rstrip("abcdefghijklmnopqrstuvwxyz")


@dataclass(frozen=True)
class Profile:
    name: str
    parent: str | None
    file: str
    excludes: frozenset[str] = frozenset()


@dataclass
class Catalog:
    profiles: dict[str, Profile]
    rules: dict[str, Rule]  # in file order: aif, nist, ta3
    shape_texts: dict[str, str] = field(repr=False)  # file name -> Turtle
    prefixes: dict[str, str] = field(default_factory=dict)
    # the fast executor's whole-graph query of each constraint, by (rule ID, constraint index):
    # compiled once with the catalogue and kept in its cache (4 ms a run otherwise)
    queries: dict[tuple[str, int], str] = field(default_factory=dict, repr=False)

    @cached_property
    def shapes(self):
        """Every shape file in one rdflib Graph, for pySHACL (the fast executor reads the rules only)."""
        import rdflib  # only the reference executor needs it

        graph = rdflib.Graph()
        for text in self.shape_texts.values():
            graph.parse(data=text, format="turtle")
        return graph

    def profile_chain(self, name: str) -> list[Profile]:
        if name not in self.profiles:
            raise UsageError(f"unknown profile '{name}' (choose {', '.join(self.profiles)})")
        chain = []
        current: str | None = name
        while current is not None:
            chain.append(self.profiles[current])
            current = self.profiles[current].parent
        return chain[::-1]

    def rules_for(self, profile: str) -> list[Rule]:
        """All rules a profile runs: its own and its ancestors', minus what it excludes."""
        chain = self.profile_chain(profile)
        names = {p.name for p in chain}
        excluded = set().union(*(p.excludes for p in chain))
        return [r for r in self.rules.values() if r.profile in names and r.id not in excluded]

    def resolve(self, ids: list[str]) -> set[str]:
        """Rule IDs named by the user; a bare family (N13) also names N13a, N13b, ...

        A single letter (A, N, T, S) names the whole group. Unknown IDs are usage errors.
        """
        chosen: set[str] = set()
        for raw in ids:
            for ident in filter(None, (part.strip() for part in raw.split(","))):
                hits = {
                    r.id
                    for r in self.rules.values()
                    if r.id == ident or r.family == ident or (len(ident) == 1 and r.id[0] == ident)
                }
                if not hits:
                    raise UsageError(f"unknown rule ID '{ident}' (see 'aifcheck rules')")
                chosen |= hits
        return chosen

    def get(self, rule_id: str) -> Rule:
        try:
            return self.rules[rule_id]
        except KeyError:
            raise UsageError(f"unknown rule ID '{rule_id}' (see 'aifcheck rules')") from None


PROFILE_FILES = ("aif.ttl", "nist.ttl", "ta3.ttl", "submission.ttl")


@cache
def load_catalog() -> Catalog:
    """Read every profile file shipped in shapes/ (installed as aifcheck.shapes).

    rdflib takes about a tenth of a second to parse the shapes, a fifth of a small file's whole
    run, so the catalogue built from them (with the fast executor's queries) is kept in a cache
    file named by the size and modification time of every file of shapes/ and of the modules that
    build it, as Python names its bytecode caches: an edit to any of them builds it afresh.
    Reading it needs no rdflib, nor the shapes' text. A cache that cannot be read or written is
    only skipped.
    """
    shapes = _shapes_folder()
    code = Path(__file__).parent
    sources = [*sorted(p for p in shapes.iterdir() if p.suffix in (".ttl", ".tsv")), code / "catalog.py", code / "shapes.py", code / "engine" / "fast.py"]
    cached = _cache_dir() / f"catalog-{_fingerprint(sources)}.pickle"
    try:
        return pickle.loads(cached.read_bytes())
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError, TypeError):
        pass
    from .shapes import build_catalog  # rdflib: only when the shapes changed

    texts = {name: (shapes / name).read_text(encoding="utf-8") for name in PROFILE_FILES if (shapes / name).is_file()}
    catalog = build_catalog(texts)
    try:
        cached.parent.mkdir(parents=True, exist_ok=True)
        partial = cached.with_name(f"{cached.name}.{os.getpid()}")
        partial.write_bytes(pickle.dumps(catalog, protocol=pickle.HIGHEST_PROTOCOL))
        os.replace(partial, cached)  # atomic: parallel runs never read a half-written file
    except OSError:
        pass
    return catalog


def _shapes_folder() -> Path:
    # the installed package's folder: importlib.resources would cost every run 3 ms of imports,
    # and aifcheck is never installed zipped
    from .. import shapes

    return Path(shapes.__file__).parent


def _fingerprint(paths: list[Path]) -> str:
    """Names, sizes and modification times of the files, as 16 hex digits (zlib's checksums: the
    module is loaded already, hashlib would add 2 ms)."""
    stats = []
    for path in paths:
        try:
            found = path.stat()
            stats.append(f"{path.name}:{found.st_size}:{found.st_mtime_ns}")
        except OSError:
            stats.append(f"{path.name}:missing")
    text = "\n".join(stats).encode()
    return f"{zlib.crc32(text):08x}{zlib.adler32(text):08x}"


def _cache_dir() -> Path:
    if os.environ.get("AIFCHECK_CACHE_DIR"):
        return Path(os.environ["AIFCHECK_CACHE_DIR"])
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "aifcheck"


def read_vocabulary(name: str) -> tuple[str, ...]:
    """The terms of a vocabulary file of shapes/: the first tab-separated column of each line that
    is neither empty nor a # comment."""
    text = (_shapes_folder() / name).read_text(encoding="utf-8")
    lines = (line.split("\t", 1)[0] for line in text.splitlines() if line.strip() and not line.startswith("#"))
    return tuple(dict.fromkeys(lines))


def sort_key(rule_id: str) -> tuple:
    match = re.match(r"^([A-Z])(\d+)([a-z]?)$", rule_id)
    if not match:
        return (rule_id, 0, "")
    return (match[1], int(match[2]), match[3])
