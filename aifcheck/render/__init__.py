"""Report renderers, one small module per output format, looked up by name."""
from __future__ import annotations

from collections.abc import Callable
from typing import TextIO

from ..catalog import Catalog
from ..errors import UsageError
from ..report import Report
from . import github, json, sarif, text

Renderer = Callable[[Report, Catalog, TextIO], None]

RENDERERS: dict[str, Renderer] = {
    "text": text.render,
    "json": json.render,
    "sarif": sarif.render,
    "github": github.render,
}
EXTENSIONS = {"text": ".txt", "json": ".json", "sarif": ".sarif", "github": ".txt"}


def get_renderer(name: str) -> Renderer:
    try:
        return RENDERERS[name]
    except KeyError:
        raise UsageError(f"unknown format '{name}' (choose {', '.join(RENDERERS)})") from None
