"""Scorers read files into 10^5 small objects without reference cycles (rows, dicts, tuples, sets).
Python's cyclic garbage collector runs as they are made and finds nothing to free: a third of
a scorer's time. Scorers pause it while they read and score."""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator


@contextlib.contextmanager
def cyclic_gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector (reference counting still frees every object)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


@contextlib.contextmanager
def kept_until_exit() -> Iterator[None]:
    """For a command whose process ends soon after the block: the collector paused while the block
    makes what the process keeps to its end (scores and their explanations), then those objects
    frozen (gc.freeze: never scanned again; reference counting still frees them). Else the first
    collection after a scorer's pause scans every object it kept, once: a run's explanations hold
    10^5 of them (a tenth of what --explain adds to a TA2 run)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if enabled:
            gc.enable()
