"""The ``aifcheck pool`` command group: NIST's pools of runs for assessment."""

from __future__ import annotations

import importlib

import typer

from aifcheck.cli.common import new_app
from aifcheck.tasks import POOL, in_group

pool_app = new_app(no_args_is_help=True, help="Pool runs for assessment as NIST's generate_pool.py does.")
# a sub-command per task of the registry, from the task's package: aifcheck.cli.<task>.pool
for _task in in_group(POOL):
    importlib.import_module(f"aifcheck.cli.{_task.name}.pool").register(pool_app)


def register(app: typer.Typer) -> None:
    """Add the ``pool`` group to aifcheck's typer app."""
    app.add_typer(pool_app, name="pool")
