"""The rule catalogue as ``aifcheck rules`` shows it: a table of rules, or one rule in full with
the fixture that fails it."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TextIO

from aifcheck.validation.catalog import Rule
from aifcheck.validation.fixtures import Fixture


def rule_table(rules: Iterable[Rule], out: TextIO) -> None:
    out.write(f"{'ID':<6} {'PROFILE':<8} {'SEVERITY':<9} TITLE\n")
    for rule in rules:
        severity = rule.severity.label if rule.checked else "-"
        title = rule.title if rule.checked else f"(not checked) {rule.title}"
        out.write(f"{rule.id:<6} {rule.profile:<8} {severity:<9} {title}\n")


def rule_page(rule: Rule, failing: Fixture | None, out: TextIO) -> None:
    lines = [
        f"{rule.id}: {rule.title}",
        f"profile: {rule.profile}   severity: {rule.severity.label if rule.checked else 'not checked'}",
        f"source: {rule.plan_ref}",
    ]
    if rule.task:
        lines.append(f"only with: --task {rule.task}")
    if rule.skip_conditions:
        lines.append(f"not for condition: {', '.join(map(str, sorted(rule.skip_conditions)))}")
    lines += ["", rule.text]
    if not rule.checked:
        lines += ["", f"Not checked: {rule.unchecked_reason}"]
    elif failing is not None:
        lines += ["", f"Example that fails ({failing.name}):", "", failing.text.rstrip()]
    out.write("\n".join(lines) + "\n")
