"""The ``aifcheck pipeline`` command group: NIST's evaluation dockers, stage by stage."""
from __future__ import annotations

import typer

from aifcheck.cli.common import new_app
from aifcheck.cli.pipeline_ta2 import register as register_ta2
from aifcheck.cli.pipeline_ta3 import register as register_ta3

pipeline_app = new_app(no_args_is_help=True, help="Run NIST's evaluation docker stages on a run, writing what NIST's docker writes.")
register_ta2(pipeline_app)
register_ta3(pipeline_app)


def register(app: typer.Typer) -> None:
    """Add the ``pipeline`` group to aifcheck's typer app."""
    app.add_typer(pipeline_app, name="pipeline")
