"""Where a validation run's report goes, file by file as the files are done: findings streamed in
a line format, one report file per input under ``-o``, or the whole report at the end (the
document formats); then the counts per rule (``--statistics``) and the summary (``-q`` prints only
it), in the run's format."""

from __future__ import annotations

import io
import sys
from collections import Counter
from pathlib import Path
from typing import TextIO

from aifcheck.render import EXTENSIONS, LINE_FORMATS, render, render_file, render_input_errors
from aifcheck.render.lines import SHOWN_PER_RULE
from aifcheck.render.output import write_atomically, write_json
from aifcheck.render.text import statistics as text_statistics
from aifcheck.render.text import summary_line
from aifcheck.validation.catalog import Catalog
from aifcheck.validation.report import FileError, FileReport, Report


class ReportOutput:
    """``out`` and ``err``: the streams written to, or None for sys.stdout and sys.stderr as they are
    when each line is written (a progress bar on the terminal takes them over to print above itself).
    The text format shows the first few findings of a rule per file and counts the rest, unless
    ``all_findings``; the others show all."""

    def __init__(
        self,
        catalog: Catalog,
        fmt: str,
        out: TextIO | None = None,
        err: TextIO | None = None,
        *,
        targets: dict[str, Path] | None = None,
        quiet: bool = False,
        statistics: bool = False,
        colour: bool = False,
        all_findings: bool = False,
    ) -> None:
        self.catalog, self.fmt, self._out, self._err = catalog, fmt, out, err
        self.per_rule = SHOWN_PER_RULE if fmt == "text" and not all_findings else None
        self.targets = targets  # one report per input file, when written under -o
        self.quiet, self.statistics, self.colour = quiet, statistics, colour
        self.stream = targets is None and fmt in LINE_FORMATS and not (quiet or statistics)

    @property
    def out(self) -> TextIO:
        return self._out or sys.stdout

    @property
    def err(self) -> TextIO:
        return self._err or sys.stderr

    @staticmethod
    def extension(fmt: str) -> str:
        """The file name ending of a report written under -o."""
        return EXTENSIONS[fmt]

    def start(self, input_errors: list[FileError]) -> None:
        if self.stream:
            render_input_errors(input_errors, self.out, self.fmt, self.colour)

    def file_done(self, file_report: FileReport, profile: str, strict: bool) -> None:
        if self.stream:
            render_file(file_report, self.catalog, self.out, self.fmt, self.colour, self.per_rule)
            self.out.flush()
        if self.targets is not None and file_report.file in self.targets:
            single = Report(profile, files=[file_report], seconds=file_report.seconds, strict=strict)
            text = io.StringIO()
            render(single, self.catalog, text, self.fmt, per_rule=self.per_rule)
            write_atomically(self.targets[file_report.file], text.getvalue())

    def finish(self, report: Report) -> None:
        if self.targets is not None:
            for problem in report.input_errors:
                print(problem.message, file=self.err)
        if self.fmt in LINE_FORMATS or not (self.quiet or self.statistics or self.targets is not None):
            self._finish_in_lines(report)
            return
        counts = {"summary": report.summary()}
        if self.statistics and not self.quiet:
            counts["statistics"] = self._counts(report)
        if self.fmt == "json":
            write_json(counts, self.out)
        else:
            from aifcheck.render.sarif import render as sarif

            sarif(
                Report(report.profile, input_errors=report.input_errors, strict=report.strict),
                self.catalog,
                self.out,
                properties=counts,
            )

    def _finish_in_lines(self, report: Report) -> None:
        if self.statistics and not self.quiet:
            text_statistics(report, self.catalog, self.out, self.colour)
        if self.stream or self.quiet or self.statistics or self.targets is not None:
            print(summary_line(report), file=self.out)
        else:
            render(report, self.catalog, self.out, self.fmt, self.colour, self.per_rule)

    def _counts(self, report: Report) -> list[dict[str, object]]:
        counts = Counter(v.rule_id for v in report.violations)
        return [
            {
                "rule": rule_id,
                "count": count,
                "severity": self.catalog.rules[rule_id].severity.label,
                "title": self.catalog.rules[rule_id].title,
            }
            for rule_id, count in sorted(counts.items(), key=lambda item: (-item[1], item[0]))
        ]
