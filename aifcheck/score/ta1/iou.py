"""Intersection over union of mentions, as NIST computes it (``utility.py``), for all mentions of
a document at once.

Text offsets are inclusive. Image and key-frame boxes get a 1-pixel collar clipped to the
element's boundary, video a 0.01 s collar. NIST's intersection of two boxes whose x ranges overlap
but whose y ranges do not is the x overlap (not 0); that quirk is kept. Mentions of different
elements have IoU 0. Values below the threshold become 0.
"""
from __future__ import annotations

from collections import defaultdict

import numpy as np

from ...errors import InputError
from .responses import Mention


def iou_matrix(mentions: list[Mention], threshold: float) -> np.ndarray:
    """The thresholded IoU of every pair of ``mentions``."""
    size = len(mentions)
    result = np.zeros((size, size))
    groups: dict[tuple[str, str], list[int]] = defaultdict(list)
    for index, mention in enumerate(mentions):
        groups[mention.document, mention.element].append(index)
    for members in groups.values():
        first = mentions[members[0]]
        corners = np.array([mentions[i].corners for i in members])
        if first.modality == "text":
            block = _text(corners)
        elif first.modality in ("image", "video"):
            if first.modality == "video" and first.keyframe is None:
                block = _boxes(corners, [mentions[i].boundary for i in members], collar=0.01, x_only=True)
            else:
                block = _boxes(corners, [mentions[i].boundary for i in members], collar=1.0, x_only=False)
        else:
            raise InputError(first.id, f"NIST's scorer cannot compare mentions of modality {first.modality} (document element {first.element})")
        block[block < threshold] = 0.0
        result[np.ix_(members, members)] = block
    return result


def _overlap(s1: np.ndarray, e1: np.ndarray, s2: np.ndarray, e2: np.ndarray, extra: float) -> np.ndarray:
    meets = ((s2 <= s1) & (s1 <= e2)) | ((s2 <= e1) & (e1 <= e2)) | ((s1 <= s2) & (s2 <= e1)) | ((s1 <= e2) & (e2 <= e1))
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
        raise InputError(str(corners[0]), "a mention's document element has no boundary in the AUX data; NIST's scorer stops on it")
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
