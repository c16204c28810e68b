"""A progress bar on stderr, from rich, for runs a person waits for: files done (with an ETA), and
reading and checking inside a large file. Shown only on a terminal whose TERM is not "dumb";
elsewhere every call does nothing. rich prints what the run writes to stdout above the bar."""

from __future__ import annotations

import os
import sys
from pathlib import Path

LARGE_FILE = 32 * 1024 * 1024  # bytes; smaller files are done before a bar would help


class ProgressBar:
    def __init__(self, total_files: int, active: bool) -> None:
        self.active = active
        self._total_files = total_files
        self._progress = None
        self._files = None
        self._inside: tuple[object, object] | None = None  # (what, its task): a large file's phase, a stage

    @classmethod
    def on_terminal(cls, total_files: int) -> ProgressBar:
        return cls(total_files, sys.stderr.isatty() and os.environ.get("TERM") != "dumb")

    def __enter__(self) -> ProgressBar:
        if self.active:
            from rich.console import Console  # imported only when a bar is shown: it takes a while
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

            # what the run prints meanwhile goes above the bar, one finding a line: rich would wrap
            # it at the terminal's width (soft_wrap leaves it whole, so FILE:LINE stays clickable),
            # and it takes stdout over only when stdout is the terminal too
            self._progress = Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeRemainingColumn(),
                console=Console(file=sys.stderr, soft_wrap=True),
                transient=True,
                redirect_stdout=sys.stdout.isatty(),
                redirect_stderr=False,
            )
            self._progress.start()
            if self._total_files > 1:
                self._files = self._progress.add_task("files", total=self._total_files)
        return self

    def __exit__(self, *_exc: object) -> None:
        if self._progress is not None:
            self._progress.stop()

    def file_done(self, path: str, done: int, total: int) -> None:
        if self._files is not None:
            self._progress.update(self._files, completed=done, description=Path(path).name[:40])

    def stage(self, description: str, done: int, total: int) -> None:
        """A stage of a long computation (a scorer's), shown as its own bar."""
        if self._progress is None or total < 10:
            return
        self._show(description, description, done, total)

    def within(self, path: str, phase: str, done: int, total: int) -> None:
        """Reading (bytes) and checking (queries) inside one file, when it is large. The reading
        phase names the store the file goes into (in memory, or on disk: see aifcheck.kb)."""
        if self._progress is None or (path != "-" and os.path.getsize(path) < LARGE_FILE):
            return
        self._show((path, phase), f"{Path(path).name[:30]}: {phase}", done, total)

    def _show(self, key: object, description: str, done: int, total: int) -> None:
        if self._inside is None or self._inside[0] != key:
            if self._inside is not None:
                self._progress.remove_task(self._inside[1])
            self._inside = (key, self._progress.add_task(description, total=total))
        self._progress.update(self._inside[1], completed=done, total=total)
