"""SARIF 2.1.0, for code-scanning dashboards: rules from the catalogue, results located by line."""

from __future__ import annotations

from typing import TextIO

from aifcheck.render.output import write_json
from aifcheck.validation.catalog import Catalog, Severity
from aifcheck.validation.report import Report
from aifcheck.version import __version__

LEVELS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}


def render(report: Report, catalog: Catalog, out: TextIO, properties: dict | None = None) -> None:
    """The report as a SARIF log; ``properties`` (the run's counts, when only they are asked for) go
    in the run's property bag."""
    rules = [r for r in catalog.rules.values() if r.checked]
    index = {rule.id: i for i, rule in enumerate(rules)}
    results = [
        {
            "ruleId": v.rule_id,
            "ruleIndex": index[v.rule_id],
            "level": LEVELS[v.severity],
            "message": {"text": f"{v.message} ({v.plan_ref})"},
            "locations": [_location(v.file, v.line)],
        }
        for v in report.violations
    ]
    notifications = [
        {"level": "error", "message": {"text": message}}
        for message in [e.message for e in report.input_errors]
        + [f.error.message for f in report.files if f.error]
        + [e.message for f in report.files for e in f.rule_errors]
    ]
    notifications += [
        {"level": "note", "message": {"text": f"{f.file}: {note}"}} for f in report.files for note in f.notes
    ]
    document = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "aifcheck",
                        "version": __version__,
                        "rules": [
                            {
                                "id": r.id,
                                "name": r.id,
                                "shortDescription": {"text": r.title},
                                "fullDescription": {"text": r.text},
                                "help": {"text": f"{r.text} ({r.plan_ref})"},
                                "defaultConfiguration": {"level": LEVELS[r.severity]},
                                "properties": {"profile": r.profile, "planReference": r.plan_ref},
                            }
                            for r in rules
                        ],
                    }
                },
                "invocations": [
                    {
                        "executionSuccessful": all(n["level"] != "error" for n in notifications),
                        "toolExecutionNotifications": notifications,
                    }
                ],
                "results": results,
                **({"properties": properties} if properties else {}),
            }
        ],
    }
    write_json(document, out)


def _location(file: str, line: int) -> dict:
    physical: dict = {"artifactLocation": {"uri": file}}
    if line:
        physical["region"] = {"startLine": line}
    return {"physicalLocation": physical}
