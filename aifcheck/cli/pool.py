"""The ``aifcheck pool`` command group: NIST's pools of runs for assessment."""
from __future__ import annotations

import typer

from aifcheck.cli.common import new_app
from aifcheck.cli.pool_ta2 import register as register_ta2
from aifcheck.cli.pool_ta3 import register as register_ta3

pool_app = new_app(no_args_is_help=True, help="Pool runs for assessment as NIST's generate_pool.py does.")
register_ta2(pool_app)
register_ta3(pool_app)


def register(app: typer.Typer) -> None:
    """Add the ``pool`` group to aifcheck's typer app."""
    app.add_typer(pool_app, name="pool")
