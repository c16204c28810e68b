"""The per-rule fixtures (aifcheck/rule_fixtures/<ID>/bad*.ttl, good*.ttl) and what their headers expect."""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable


@dataclass(frozen=True)
class Fixture:
    rule_id: str
    name: str  # bad.ttl, good-2.ttl, ...
    text: str
    expect: tuple[str, ...] = ()  # focus nodes the rule must report, as <IRI>
    also: frozenset[str] = frozenset()  # other rules the defect cannot help firing
    task: str | None = None
    condition: int | None = None

    @property
    def is_bad(self) -> bool:
        return self.name.startswith("bad")


def _root() -> Traversable:
    return resources.files("aifcheck.rule_fixtures")


def fixtures_for(rule_id: str) -> list[Fixture]:
    folder = _root() / rule_id
    if not folder.is_dir():
        return []
    files = sorted((f for f in folder.iterdir() if f.name.endswith(".ttl")), key=lambda f: _order(f.name))
    return [parse_fixture(rule_id, f.name, f.read_text(encoding="utf-8")) for f in files]


def _order(name: str) -> tuple[str, int]:
    """bad.ttl, bad-2.ttl, bad-3.ttl, ..., good.ttl, good-2.ttl: the plain name first."""
    kind, _, number = name.removesuffix(".ttl").partition("-")
    return kind, int(number) if number.isdigit() else 0


def fixture_rule_ids() -> list[str]:
    return sorted(d.name for d in _root().iterdir() if d.is_dir() and not d.name.startswith("_"))


def parse_fixture(rule_id: str, name: str, text: str) -> Fixture:
    header: dict[str, list[str]] = {}
    for line in text.splitlines():
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            break
        key, sep, value = stripped.lstrip("#").partition(":")
        if sep and key.strip() in ("expect", "also", "task", "condition"):
            header.setdefault(key.strip(), []).extend(value.split())
    condition = header.get("condition")
    return Fixture(
        rule_id=rule_id,
        name=name,
        text=text,
        expect=tuple(header.get("expect", ())),
        also=frozenset(header.get("also", ())),
        task=(header.get("task") or [None])[0],
        condition=int(condition[0]) if condition else None,
    )
