"""ArgumentMetricV3 A1/A2/B1/B2/C1/C2 (NIST's ``argument_metric_v3*_scorer.py``; plan §4.6).

A TRF is a (subject, filler) pair of a frame, its roles the union of the pair's assertion roles.
TRFscore = TypeSim(subjects) x RolesPrecision x ClusterSim(fillers), 0 across metatypes; TypeSim
comes from ``similarities/`` (so both subjects must be aligned, not necessarily to each other).
Gold and system TRFs are matched by munkres (ties change which pairs score above 0, so its step
order is kept); the score per document and metatype is the sum over matched pairs scoring above 0
divided by (those pairs + the other gold and system TRFs). B keeps TRFs with a Negated assertion,
C those with a NotNegated one. Variant 1 ("justified") is the same code as variant 2 in NIST's
scorer; under ``plan`` it requires one of the system's two most confident assertions to overlap a
gold justification (IoU > 0).
"""

from __future__ import annotations

import numpy as np

from aifcheck.pipeline.shared.matching import munkres_assign
from aifcheck.pipeline.ta1.iou import iou_matrix
from aifcheck.score.ta1.metrics.common import (
    ID_COLUMNS,
    Inputs,
    MetricScores,
    ScoreRow,
    Trf,
    by_document_metatype,
    cluster_sim,
    frame_trfs,
    roles_precision,
    summarise,
)
from aifcheck.score.table import Column

COLUMNS = (*ID_COLUMNS, Column("trf_score", "TRFscore", "6.4f", "R", "6.4f"))
GROUPS = {"ALL": ("Event", "Relation"), "Event": ("Event",), "Relation": ("Relation",)}
VARIANTS = {"A": None, "B": True, "C": False}  # whether a TRF must have a negated (B) or a plain (C) assertion


def score(inputs: Inputs, variant: str, justified: bool) -> MetricScores:
    """Variant ``A``, ``B`` or ``C``; ``justified`` for variant 1 (checked only under plan)."""
    rows = []
    for document, language in inputs.documents():
        gold, system, matched = matched_trfs(inputs, document, variant, justified)
        system_score = {j: value for _, j, value in matched}
        gold_matched = {i for i, _, _ in matched}
        for key, metatypes in GROUPS.items():
            if not any(t.metatype in metatypes for t in gold):
                continue
            total = 0
            count = 0
            for j, trf in enumerate(system):
                if j in system_score and trf.metatype in metatypes:
                    total += system_score[j]
                    count += 1
            count += sum(1 for i, t in enumerate(gold) if i not in gold_matched and t.metatype in metatypes)
            count += sum(1 for j, t in enumerate(system) if j not in system_score and t.metatype in metatypes)
            rows.append(ScoreRow(document, language, key, (("trf_score", total / count if count else 0),)))
    return summarise(COLUMNS, rows, ("trf_score",), by_document_metatype)


def matched_trfs(
    inputs: Inputs, document: str, variant: str, justified: bool
) -> tuple[list[Trf], list[Trf], list[tuple[int, int, float]]]:
    """The document's gold and system TRFs of the variant, and match_trfs' matching of them
    (computed once for the metric and its explanation)."""
    key = ("argument", document, variant, justified and inputs.plan)
    if key not in inputs.computed:
        gold, system = trfs(inputs, document, variant)
        inputs.computed[key] = (gold, system, match_trfs(inputs, document, gold, system, justified and inputs.plan))
    return inputs.computed[key]  # type: ignore[return-value]


def trfs(inputs: Inputs, document: str, variant: str) -> tuple[list[Trf], list[Trf]]:
    """The document's gold and system TRFs that the variant scores."""
    wanted = VARIANTS[variant]
    return tuple(  # type: ignore[return-value]
        [t for t in frame_trfs(graph) if wanted is None or wanted in t.negation]
        for graph in (inputs.gold.get(document), inputs.system.get(document))
    )


def trf_components(inputs: Inputs, document: str, g: Trf, s: Trf) -> tuple[float, float, float]:
    """TypeSim(subjects), RolesPrecision and ClusterSim(fillers) of a gold and a system TRF whose
    fillers are aligned to each other."""
    alignment = inputs.alignments[document]
    similarity = alignment.system_to_gold[s.filler][1]
    filler = cluster_sim(similarity, inputs.system[document].cluster(s.filler), inputs.gold[document].cluster(g.filler))
    return alignment.type_similarity(s.subject, g.subject), roles_precision(g.roles, s.roles), filler


def match_trfs(
    inputs: Inputs, document: str, gold: list[Trf], system: list[Trf], check_justification: bool
) -> list[tuple[int, int, float]]:
    """(gold index, system index, TRFscore) for the pairs of munkres' matching scoring above 0."""
    if not gold or not system:
        return []
    alignment = inputs.alignments.get(document)
    scores = np.zeros((len(gold), len(system)))
    if alignment is not None:
        by_filler: dict[str, list[int]] = {}
        for i, g in enumerate(gold):
            by_filler.setdefault(g.filler, []).append(i)
        for j, s in enumerate(system):
            # ClusterSim(fillers) is 0 unless the system filler is aligned to the gold filler
            gold_filler = alignment.system_to_gold.get(s.filler, (None, 0))[0]
            for i in by_filler.get(gold_filler, ()):
                g = gold[i]
                if g.metatype != s.metatype:
                    continue
                subject, roles, filler = trf_components(inputs, document, g, s)
                value = subject * roles * filler
                if check_justification and value > 0 and not _justified(inputs, g, s):
                    value = 0.0
                scores[i, j] = value
    best = scores.max()
    if best <= 0:
        return []
    return [(i, j, float(scores[i, j])) for i, j in munkres_assign(best - scores) if scores[i, j] > 0]


def _justified(inputs: Inputs, gold: Trf, system: Trf) -> bool:
    """Plan §4.6 variant 1: one of the system's two most confident assertions has a justification
    overlapping a gold justification of the TRF."""
    ranked = sorted(system.edges, key=lambda e: e.justification_confidence, reverse=True)[:2]
    spans = [span for edge in (*ranked, *gold.edges) for span in edge.justifications]
    overlap = iou_matrix(spans, inputs.aux, threshold=0.0)
    return bool((overlap[: len(ranked), len(ranked) :] > 0).any())
