"""The campaign of tests/fuzz/commands.py in CI: 200 seeded cases over every command's inputs,
outputs, standard output and signals, two at a time; nothing may go wrong (the long mode, 10,000
cases, is run by hand: ``python tests/fuzz/commands.py --cases 10000 --jobs 2``)."""
from __future__ import annotations

import os
import sys

import pytest

from .commands import SEED, campaign, table

CASES = 200


@pytest.mark.skipif(not sys.platform.startswith("linux") or not hasattr(os, "fork"), reason="the campaign forks, and drops Linux capabilities")
def test_seeded_command_cases() -> None:
    outcome = campaign(SEED, CASES, jobs=2)
    assert outcome.runs == CASES
    assert not outcome.problems, table(outcome, SEED, CASES, 2)
