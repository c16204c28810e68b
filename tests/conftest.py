"""Shared test fixtures."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import SHARED_DATA


@pytest.fixture
def shared_data() -> Path:
    """NIST's evaluation files, read in place from ../shared/data; absent in a user's clone."""
    if not SHARED_DATA.is_dir():
        pytest.skip(f"NIST evaluation data not found at {SHARED_DATA}")
    return SHARED_DATA
