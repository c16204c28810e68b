"""JSON: the whole report with full IRIs, for scripts."""

from __future__ import annotations

from dataclasses import fields
from typing import TextIO

from aifcheck.render.output import write_json
from aifcheck.validation.catalog import Catalog
from aifcheck.validation.report import Report, Violation

# read field by field: dataclasses.asdict deep-copies each value, several times slower for the
# plain values of a finding, and a large run has hundreds of thousands
_FIELDS = tuple(f.name for f in fields(Violation))


def render(report: Report, catalog: Catalog, out: TextIO) -> None:
    document = {
        "profile": report.profile,
        "summary": report.summary(),
        "input_errors": [e.message for e in report.input_errors],
        "files": [
            {
                "file": f.file,
                "triples": f.triples,
                "error": f.error.message if f.error else None,
                "rule_errors": [{"rule": e.rule_id, "message": e.message} for e in f.rule_errors],
                "truncated_after": f.truncated_after,
                "notes": list(f.notes),
                "violations": [
                    {**{name: getattr(v, name) for name in _FIELDS}, "severity": v.severity.label} for v in f.violations
                ],
            }
            for f in sorted(report.files, key=lambda f: f.file)
        ],
    }
    write_json(document, out)
