"""The rule catalogue, as plain values read from the shapes in shapes/ (no hand-kept lists).

Each profile file (aif.ttl, nist.ttl, ta3.ttl) declares one ``aifc:Profile`` and the rules
of that profile. A rule is one ``sh:NodeShape`` carrying ``aifc:ruleId``, ``rdfs:label``
(title), ``rdfs:comment`` (text), ``aifc:planRef``, ``sh:severity`` and one or more
``sh:sparql`` constraints, each with its ``sh:message``. Rules about a submission directory
rather than a graph are ``aifc:SubmissionRule`` resources with the same metadata; their
checks are Python (aifcheck.validation.submission). Rules that RULES.md names but that have nothing
to check are ``aifc:UncheckedRule`` resources with an ``aifc:reason``.

aifcheck.validation.shapes reads the shapes (with rdflib) into a Catalog. What is built from the
shapes ships with the package as JSON beside them (shapes/catalog.json, and the fast executor's
shapes/queries.json), named by the fingerprint of the shapes it was built from; a run whose
shapes differ builds its own once and keeps it in the user's cache (``Built``).
"""

from __future__ import annotations

import os
import re
import zlib
from dataclasses import dataclass, field, fields
from functools import cache, cached_property
from pathlib import Path

from aifcheck.errors import UsageError
from aifcheck.validation.report import Severity

RULE_ID = re.compile(r"^[ANTSOD]\d+[a-z]?$")


GROUP_CONCAT = re.compile(
    r"GROUP_CONCAT\((?:(?!GROUP_CONCAT).)*?separator\s*=\s*([\"'])(?P<sep>.*?)\1\s*\)\s*AS\s*\?(?P<var>\w+)",
    re.IGNORECASE | re.DOTALL,
)


@dataclass(frozen=True)
class Constraint:
    """One SPARQL-based constraint of a rule: its SELECT, the message template, and what the shape
    hints to the fast executor (aifcheck.validation.engine.compile says what each hint does)."""

    select: str
    message: str
    targets_last: bool = False  # aifc:targetsLast: test the targets after the body
    anti_join: bool = False  # aifc:antiJoin: run its FILTER NOT EXISTS as MINUS

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


@dataclass(frozen=True)
class Catalog:
    profiles: dict[str, Profile]
    rules: dict[str, Rule]  # in file order: aif, nist, ta3
    prefixes: dict[str, str] = field(default_factory=dict)
    fingerprint: str = ""  # of the shapes it was read from (see fingerprint())

    @property
    def files(self) -> tuple[str, ...]:
        """The shape files, one per profile."""
        return tuple(profile.file for profile in self.profiles.values())

    def to_json(self) -> dict:
        return {
            "profiles": [[p.name, p.parent, p.file, sorted(p.excludes)] for p in self.profiles.values()],
            "rules": [_rule_json(rule) for rule in self.rules.values()],
            "prefixes": self.prefixes,
        }

    @classmethod
    def from_json(cls, data: dict, fingerprint: str) -> Catalog:
        profiles = {
            name: Profile(name, parent, file, frozenset(excludes)) for name, parent, file, excludes in data["profiles"]
        }
        rules = {r["id"]: _rule(r) for r in data["rules"]}
        return cls(profiles, rules, data["prefixes"], fingerprint)

    def rdf_profiles(self) -> list[str]:
        """The profiles that check RDF files (the others check a submission's folders)."""
        return [name for name in self.profiles if any(rule.kind == "shape" for rule in self.rules_for(name))]

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


def _rule_json(rule: Rule) -> dict:
    found = {f.name: getattr(rule, f.name) for f in fields(rule)}
    found["severity"] = rule.severity.label
    found["targets"] = [[t.kind, t.term] for t in rule.targets]
    found["constraints"] = [[c.select, c.message, c.targets_last, c.anti_join] for c in rule.constraints]
    found["skip_conditions"] = sorted(rule.skip_conditions)
    found["vocabulary"] = list(rule.vocabulary)
    return found


def _rule(data: dict) -> Rule:
    return Rule(
        **{
            **data,
            "severity": Severity.parse(data["severity"]),
            "targets": tuple(Target(kind, term) for kind, term in data["targets"]),
            "constraints": tuple(Constraint(*c) for c in data["constraints"]),
            "skip_conditions": frozenset(data["skip_conditions"]),
            "vocabulary": tuple(data["vocabulary"]),
        }
    )


# ------------------------------------------------------------------------------------------
# What is built from the shapes: shipped beside them, or kept in the user's cache
# ------------------------------------------------------------------------------------------

FORMAT = 1  # of the built files' JSON: a change of layout builds them afresh
SOURCES = (".ttl", ".tsv")  # the files of shapes/ a build reads


def shapes_folder() -> Path:
    # the installed package's folder: importlib.resources would add imports to every run,
    # and aifcheck is never installed zipped
    from aifcheck import shapes

    return Path(shapes.__file__).parent


@cache
def fingerprint() -> str:
    """The shapes' names and contents (and aifcheck's version), as 16 hex digits: zlib's
    checksums (loaded already; hashlib would add an import to every run). A shipped or cached build
    serves only the shapes it was built from, whatever the files' times after an install."""
    from aifcheck.version import __version__

    folder = shapes_folder()
    stamp = f"{__version__}:{FORMAT}".encode()
    digest = zlib.crc32(stamp), zlib.adler32(stamp)
    for path in sorted(p for p in folder.iterdir() if p.suffix in SOURCES):
        for piece in (path.name.encode(), path.read_bytes()):
            digest = zlib.crc32(piece, digest[0]), zlib.adler32(piece, digest[1])
    return f"{digest[0]:08x}{digest[1]:08x}"


class Built:
    """One file built from the shapes (``name``: catalog.json, queries.json): the one shipped in
    shapes/, or the one in the user's cache, when it was built from the shapes as they are."""

    def __init__(self, name: str) -> None:
        self.name = name

    def read(self, current: str) -> dict | None:
        """The built data for shapes of fingerprint ``current``, or None when none is found."""
        import json

        for path in (shapes_folder() / self.name, self.cached(current)):
            try:
                found = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                continue
            if isinstance(found, dict) and found.get("fingerprint") == current:
                return found["data"]
        return None

    def keep(self, current: str, data: object) -> None:
        """Keep data built from the shapes in the user's cache; a cache that cannot be written is skipped."""
        import json

        target = self.cached(current)
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            partial = target.with_name(f"{target.name}.{os.getpid()}")
            partial.write_text(json.dumps({"fingerprint": current, "data": data}), encoding="utf-8")
            os.replace(partial, target)  # atomic: parallel runs never read a half-written file
        except OSError:
            pass

    def ship(self, current: str, data: object) -> None:
        """Write the file shipped beside the shapes (aifcheck.validation.shapes --write)."""
        import json

        text = json.dumps({"fingerprint": current, "data": data}, indent=1, sort_keys=True)
        (shapes_folder() / self.name).write_text(text + "\n", encoding="utf-8")

    def cached(self, current: str) -> Path:
        stem, _, suffix = self.name.rpartition(".")
        return cache_dir() / f"{stem}-{current}.{suffix}"


def cache_dir() -> Path:
    if os.environ.get("AIFCHECK_CACHE_DIR"):
        return Path(os.environ["AIFCHECK_CACHE_DIR"])
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "aifcheck"


def read_vocabulary(name: str) -> tuple[str, ...]:
    """The terms of a vocabulary file of shapes/: the first tab-separated column of each line that
    is neither empty nor a # comment."""
    text = (shapes_folder() / name).read_text(encoding="utf-8")
    lines = (line.split("\t", 1)[0] for line in text.splitlines() if line.strip() and not line.startswith("#"))
    return tuple(dict.fromkeys(lines))


def sort_key(rule_id: str) -> tuple:
    match = re.match(r"^([A-Z])(\d+)([a-z]?)$", rule_id)
    if not match:
        return (rule_id, 0, "")
    return (match[1], int(match[2]), match[3])
