"""Intersection over union of mentions, as NIST computes it (``utility.py``), for all mentions of
a document at once.

Spans of different documents or document elements have IoU 0 (a key frame's element is its
video). Otherwise the first span of a pair decides how the pair is compared, by the AUX data's
modality of its element: text offsets inclusive; image boxes, and the boxes of key frames, with a
1-pixel collar clipped to each span's own boundary (its image, its key frame, or its video, whose
height is 0); other video spans (times) with a 0.01 s collar on their start and end, clipped to
the video's length. A video's key frames and times are so compared either way, by whichever comes
first: NIST's IoU is not symmetric there. NIST's intersection of two boxes whose x ranges overlap
but whose y ranges do not is the x overlap (not 0); that quirk is kept. Values below the threshold
become 0 (the threshold of the first span of a pair). NIST's scorer stops on any other modality (audio, pdf).
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np

from aifcheck.errors import InputError
from aifcheck.extract.model import Span
from aifcheck.pipeline.shared.auxdata import Aux

TEXT, BOX, TIME = "text", "box", "time"  # how the first span of a pair compares the pair


def iou_matrix(spans: list[Span], aux: Aux, threshold: float | np.ndarray) -> np.ndarray:
    """The IoU of every pair (first, second) of ``spans``, 0 below the threshold (one for all, or
    one per span: that of the first span of a pair)."""
    size = len(spans)
    result = np.zeros((size, size))
    groups: dict[tuple[str, str], list[int]] = defaultdict(list)
    for index, span in enumerate(spans):
        groups[span.document, span.element].append(index)
    for members in groups.values():
        kinds = [_comparison(spans[i], aux) for i in members]
        corners = np.array(
            [(spans[i].start, spans[i].top, spans[i].end, spans[i].bottom) for i in members], dtype=float
        )
        blocks = {}
        for kind in set(kinds):
            if kind == TEXT:
                blocks[kind] = _text(corners)
            else:
                blocks[kind] = _boxes(
                    corners,
                    [aux.boundary(spans[i]) for i in members],
                    collar=1.0 if kind == BOX else 0.01,
                    x_only=kind == TIME,
                )
        block = (
            blocks[kinds[0]] if len(blocks) == 1 else np.array([blocks[kind][row] for row, kind in enumerate(kinds)])
        )
        block[block < (threshold if np.isscalar(threshold) else threshold[members][:, None])] = 0.0
        result[np.ix_(members, members)] = block
    return result


def _comparison(span: Span, aux: Aux) -> str:
    modality = aux.modality(span)
    if modality == "text":
        return TEXT
    if modality == "image" or (modality == "video" and span.keyframe):
        return BOX
    if modality == "video":
        return TIME
    raise InputError(
        str(span), f"NIST's scorer cannot compare mentions of modality {modality} (document element {span.element})"
    )


def _overlap(s1: np.ndarray, e1: np.ndarray, s2: np.ndarray, e2: np.ndarray, extra: float) -> np.ndarray:
    meets = (
        ((s2 <= s1) & (s1 <= e2)) | ((s2 <= e1) & (e1 <= e2)) | ((s1 <= s2) & (s2 <= e1)) | ((s1 <= e2) & (e2 <= e1))
    )
    return np.where(meets, np.minimum(e1, e2) - np.maximum(s1, s2) + extra, 0.0)


def _text(corners: np.ndarray) -> np.ndarray:
    s1, e1 = corners[:, 0][:, None], corners[:, 2][:, None]
    s2, e2 = corners[:, 0][None, :], corners[:, 2][None, :]
    intersection = _overlap(s1, e1, s2, e2, 1.0)
    union = ((e1 - s1) + 1) + ((e2 - s2) + 1) - intersection
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(union == 0, 0.0, intersection / union)


def _area(dx: np.ndarray, dy: np.ndarray) -> np.ndarray:
    # NIST's intersection: dx*dy, or the one that is not 0
    return np.where((dx != 0) & (dy != 0), dx * dy, np.where(dx != 0, dx, dy))


def _boxes(corners: np.ndarray, boundaries: list, collar: float, x_only: bool) -> np.ndarray:
    if any(b is None for b in boundaries):
        raise InputError(
            str(corners[0]), "a mention's document element has no boundary in the AUX data; NIST's scorer stops on it"
        )
    limits = np.array([b.floats() for b in boundaries])
    box = corners.copy()
    axes = (0,) if x_only else (0, 1)
    for axis in axes:
        box[:, axis] = np.maximum(box[:, axis] - collar, limits[:, axis])
        box[:, axis + 2] = np.minimum(box[:, axis + 2] + collar, limits[:, axis + 2])
    sx, sy, ex, ey = (box[:, k] for k in range(4))
    dx = _overlap(sx[:, None], ex[:, None], sx[None, :], ex[None, :], 0.0)
    dy = _overlap(sy[:, None], ey[:, None], sy[None, :], ey[None, :], 0.0)
    intersection = _area(dx, dy)
    own = np.diag(intersection)
    union = (own[:, None] + own[None, :]) - intersection
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(union == 0, 0.0, intersection / union)
