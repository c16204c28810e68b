"""The ``aifcheck pipeline`` command group: NIST's evaluation dockers, stage by stage."""

from __future__ import annotations

import importlib

import typer

from aifcheck.cli.common import new_app
from aifcheck.tasks import PIPELINE, in_group

pipeline_app = new_app(
    no_args_is_help=True, help="Run NIST's evaluation docker stages on a run, writing what NIST's docker writes."
)
# a sub-command per task of the registry, from the task's package: aifcheck.cli.<task>.pipeline
for _task in in_group(PIPELINE):
    importlib.import_module(f"aifcheck.cli.{_task.name}.pipeline").register(pipeline_app)


def register(app: typer.Typer) -> None:
    """Add the ``pipeline`` group to aifcheck's typer app."""
    app.add_typer(pipeline_app, name="pipeline")
