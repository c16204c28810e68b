"""The parameters of NIST's TA1 filter stage (its docker Makefile's ALPHA, IOU_THRESHOLDS,
MIN_TYPE_SIMILARITY, NN_SIMILARITY_VALUE and SIMILARITY_TYPES), as one value; the defaults are
the values NIST ran with."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property

from aifcheck.errors import UsageError

LANGUAGES = ("eng", "rus", "spa", "ukr")  # the languages of NIST's IOU_THRESHOLDS
MODALITIES = ("image", "text", "video")
DEFAULT_IOU_THRESHOLD = 0.1
# the similarity types of the KGTK similarity service (NIST's filter_responses.py default asks for them all)
SIMILARITY_TYPES = ("class", "complex", "jc", "text", "topsim", "transe")


@dataclass(frozen=True)
class TA1Settings:
    """``alpha``: a type is evaluable when its similarity to a taggable type is greater;
    ``iou_thresholds``: ((language, modality), threshold) for the pairs that differ from 0.1 (a
    mention pair's IoU below the threshold of its document's language and its first mention's
    modality counts as 0); ``min_type_similarity``: a smaller TypeSim counts as 0 in the
    alignment; ``near_neighbour_similarity``: the similarity of two qnodes the DWD overlay calls
    near neighbours (at least); ``similarity_types``: the KGTK similarity types whose mean is a
    pair's similarity. UsageError for a value out of its range or an unknown name."""

    alpha: float = 0.9
    iou_thresholds: tuple[tuple[tuple[str, str], float], ...] = ()
    min_type_similarity: float = 0.3
    near_neighbour_similarity: float = 0.9
    similarity_types: tuple[str, ...] = ("class", "jc")

    def __post_init__(self) -> None:
        for option, value in (
            ("--alpha", self.alpha),
            ("--min-type-similarity", self.min_type_similarity),
            ("--near-neighbour-similarity", self.near_neighbour_similarity),
            *((f"--iou-threshold {language}:{modality}", value) for (language, modality), value in self.iou_thresholds),
        ):
            _check_fraction(option, value)
        for language, modality in dict(self.iou_thresholds):
            if language not in LANGUAGES:
                raise UsageError(
                    f"--iou-threshold {language}:{modality}: unknown language '{language}'"
                    f" (known: {', '.join(LANGUAGES)})"
                )
            if modality not in MODALITIES:
                raise UsageError(
                    f"--iou-threshold {language}:{modality}: unknown modality '{modality}'"
                    f" (known: {', '.join(MODALITIES)})"
                )
        if not self.similarity_types:
            raise UsageError(f"--similarity-types: give one or more of {', '.join(SIMILARITY_TYPES)}")
        unknown = [t for t in self.similarity_types if t not in SIMILARITY_TYPES]
        if unknown:
            raise UsageError(f"--similarity-types: unknown type '{unknown[0]}' (known: {', '.join(SIMILARITY_TYPES)})")
        if len(set(self.similarity_types)) < len(self.similarity_types):
            raise UsageError(f"--similarity-types {','.join(self.similarity_types)}: a type is given twice")

    def iou_threshold(self, language: str | None, modality: str | None) -> float:
        """The threshold of a document's language and a mention's modality (0.1 unless given)."""
        if language is None or modality is None:
            return DEFAULT_IOU_THRESHOLD
        return self._thresholds.get((language.lower(), modality.lower()), DEFAULT_IOU_THRESHOLD)

    @cached_property
    def _thresholds(self) -> dict[tuple[str, str], float]:
        return dict(self.iou_thresholds)

    @staticmethod
    def parse_iou_thresholds(items: Iterable[str]) -> tuple[tuple[tuple[str, str], float], ...]:
        """``LANG:MODALITY:VALUE`` items (each may hold several, comma-separated), as NIST's
        IOU_THRESHOLDS; a pair given twice keeps its last value, as NIST's reading does."""
        found: dict[tuple[str, str], float] = {}
        for item in (part.strip() for text in items for part in text.split(",")):
            fields = item.split(":")
            if len(fields) != 3:
                raise UsageError(f"--iou-threshold {item!r}: give LANG:MODALITY:VALUE, e.g. eng:text:0.5")
            found[fields[0].strip().lower(), fields[1].strip().lower()] = _number(f"--iou-threshold {item}", fields[2])
        return tuple(sorted(found.items()))

    @staticmethod
    def parse_similarity_types(items: Iterable[str]) -> tuple[str, ...]:
        """Names given comma-separated (or repeated), as NIST's SIMILARITY_TYPES."""
        return tuple(part.strip().lower() for text in items for part in text.split(",") if part.strip())


def _number(option: str, text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise UsageError(f"{option}: {text.strip()!r} is not a number") from None


def _check_fraction(option: str, value: float) -> None:
    if not (isinstance(value, (int, float)) and math.isfinite(value) and 0.0 <= value <= 1.0):
        raise UsageError(f"{option} {value}: give a number from 0 to 1")


# NIST Makefile's settings: the default of the functions that take settings (one frozen value, shared)
NIST_SETTINGS = TA1Settings()
