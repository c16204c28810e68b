"""How much a finding matters: error, warning or info (SHACL's sh:Violation, sh:Warning, sh:Info)."""
from __future__ import annotations

import enum

from ..errors import UsageError


class Severity(enum.IntEnum):
    INFO = 0
    WARNING = 1
    ERROR = 2

    @property
    def label(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> Severity:
        try:
            return cls[text.upper()]
        except KeyError:
            raise UsageError(f"unknown severity '{text}' (choose error, warning or info)") from None
