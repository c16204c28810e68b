"""The ``aifcheck score`` command group: TA1, TA2, TA3 and CRUX scorers, each a thin layer over its API."""
from __future__ import annotations

import typer

from aifcheck.cli.common import new_app
from aifcheck.cli.score_ta1 import register as register_ta1
from aifcheck.cli.score_ta2 import register as register_ta2
from aifcheck.cli.score_ta3 import register as register_ta3
from aifcheck.cli.score_stats import register as register_stats

score_app = new_app(no_args_is_help=True, help="Score a run as NIST does (TA1, TA2, TA3) or as CRUX defines it.")
register_ta1(score_app)
register_ta2(score_app)
register_ta3(score_app)
register_stats(score_app)


def register(app: typer.Typer) -> None:
    """Add the ``score`` group to aifcheck's typer app."""
    app.add_typer(score_app, name="score")
