"""The ``aifcheck score`` command group: TA1, TA2, TA3 and CRUX scorers, each a thin layer over its API."""

from __future__ import annotations

import importlib

import typer

from aifcheck.cli.common import new_app
from aifcheck.cli.explain import register as register_explain
from aifcheck.cli.stats import register as register_stats
from aifcheck.tasks import SCORE, in_group

score_app = new_app(no_args_is_help=True, help="Score a run as NIST does (TA1, TA2, TA3) or as CRUX defines it.")
# a sub-command per task of the registry, from the task's package: aifcheck.cli.<task>.score
for _task in in_group(SCORE):
    importlib.import_module(f"aifcheck.cli.{_task.name}.score").register(score_app)
register_stats(score_app)
register_explain(score_app)


def register(app: typer.Typer) -> None:
    """Add the ``score`` group to aifcheck's typer app."""
    app.add_typer(score_app, name="score")
