"""TA3 claim-ranking scores as NIST's scorer computes them: NDCG V1/V2 and F1 V1A-C/V2A-C
(plan §6.3; research/ta3-crux-scoring.md §2 says what NIST's code does and §2.6 where it departs
from the plan).

For each query and each of its ranked lists (Condition 5: ontopic, supporting, refuting,
related, nonrefuting, nonsupporting; Conditions 6, 7: ontopic):

- the *submitted list* is the run's ranked claims whose relation fits the list, assessed ones
  only (a claim is assessed when exactly one claim-mappings row maps it to a pool claim), in
  rank order; V2 keeps the first ``depth`` of them;
- the *ideal list* is every pool claim with correct required fields that is in the list's truth
  (Condition 5: a relation row compatible with the list, for the query or, for ontopic, any
  scored query of its topic, and not judged identical to the query claim frame; Condition 6:
  besides, any claim mapped to a query of its topic), ranked greedily: repeatedly the claim of
  greatest gain, ties to the smallest pool uid; V2 keeps the first ``depth``;
- a claim's gain is its relation scale times the least Novelty of it against the query claim
  frame (Condition 5) or nothing (6, 7) and against every claim above it. The scale is 1 in
  Conditions 6, 7; in Condition 5, 0 without a relation, 1 in the ontopic list or when LDC's
  relation is the list's, 0.5 when it merely fits a non-refuting or non-supporting list;
- NDCG = DCG/IDCG (0 when IDCG is 0); F1 is the best F1 over cutoffs k of the unique value
  combinations of the first k claims (those with a relation that fits and correct required
  fields, the query claim frame's own combination left out; the ideal list's all count), at
  the earliest best k;
- each metric's ALL-Macro of a (condition, list) is the mean over its queries with GT > 0.

A pool claim that is a query claim frame counts as all correct; where the run ranks it, it is
judged as its file says (NIST's novelty cache mixes the two in computation order: a warning).

As in NIST's code, a (query, claim) pair without a relation row takes the relation of the
relation file's last row (NIST's lookup leaves its loop variable behind: research §2.6 item 7;
a warning says how many claims it touched); under ``plan`` it has no relation. Source NIST's code
stops on legal input, the result is the one documented in docs/differences.md: an ALL-Macro over
no query with GT > 0 is None (NIST divides by zero); an NDCG above 1 (the greedy ideal list is
not always ideal) is reported with a warning (NIST stops). ``plan=True`` applies the plan's
definitions instead of NIST's where they differ (§2.6 items 1-7).
"""

from __future__ import annotations

import math
import os
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from aifcheck.errors import InputError, UsageError
from aifcheck.extract.claims import OUTER, claim_lines
from aifcheck.pipeline.ta3.qcf import QCF_RUN
from aifcheck.score.allocations import cyclic_gc_paused
from aifcheck.score.explain import Explanation, Source
from aifcheck.score.ta3 import explain
from aifcheck.score.ta3.fields import (
    FIELD_INDEX,
    FIELDS,
    NOTHING,
    ClaimValues,
    NoveltyMatrix,
    claim_values,
    judgement_lines,
    required_correct,
)
from aifcheck.score.ta3.package import CONDITION_LISTS, Package, QueryToScore, read_package, read_queries
from aifcheck.score.ta3.run import ONTOPIC, Ranked, Run, read_run

COMPATIBLE = {
    "ontopic": ("supporting", "refuting", "related"),
    "supporting": ("supporting",),
    "refuting": ("refuting",),
    "related": ("related",),
    "nonrefuting": ("supporting", "related"),
    "nonsupporting": ("refuting", "related"),
}
# F1 variants: the fields whose values make a claim's combination
F1_FIELDS = {
    "A": ("claimTemplate", "claimEpistemic", "xVariable", "claimer"),
    "B": ("claimTemplate", "claimEpistemic", "xVariable"),
    "C": ("claimTemplate", "xVariable"),
}
NDCG_METRICS = ("NDCGScorerV1", "NDCGScorerV2")
F1_METRICS = tuple(f"F1ScorerV{v}{f}" for v in (1, 2) for f in F1_FIELDS)
METRICS = (*NDCG_METRICS, *F1_METRICS)


@dataclass(frozen=True)
class NDCGRow:
    """One ranked list of one query: NIST's NDCG columns, and the gains behind them."""

    condition: str
    query_id: str
    relation: str
    assessed: int  # NumAssessedClaims: the submitted list's assessed claims
    ground_truth: int  # GT: the ideal list's length
    ndcg: float
    gains: tuple[float, ...]  # the submitted list's, rank by rank (0 for an unassessed claim, plan mode)
    ideal: tuple[tuple[str, float], ...]  # the ideal list: (pool uid, gain)
    dcg: float
    idcg: float


@dataclass(frozen=True)
class F1Row:
    condition: str
    query_id: str
    relation: str
    cutoff: int | None  # the earliest k of the best F1; None for an empty list (NIST prints "-")
    unique: int  # NumUniqueSubmittedValues at the cutoff
    ground_truth: int  # GT: the ideal list's unique combinations
    f1: float


ScoreRow = NDCGRow | F1Row


@dataclass(frozen=True)
class Macro:
    condition: str
    relation: str
    value: float | None  # None: no query of the group has GT > 0 (NIST divides by zero)


@dataclass(frozen=True)
class TA3MetricScores:
    metric: str
    rows: tuple[ScoreRow, ...]  # NDCGRow or F1Row, sorted by condition, query, list
    macros: tuple[Macro, ...]  # sorted as NIST sorts them ("Condition:list")


@dataclass(frozen=True)
class TA3Scores:
    run_id: str
    plan: bool
    metrics: tuple[TA3MetricScores, ...]  # in METRICS order
    warnings: tuple[str, ...]
    explanations: tuple[Explanation, ...] = ()  # every row explained, when asked (aifcheck.score.ta3.explain)

    def __getitem__(self, metric: str) -> TA3MetricScores:
        for scores in self.metrics:
            if scores.metric == metric:
                return scores
        raise KeyError(metric)


def score_ta3(
    submission: str | os.PathLike,
    queries_to_score: str | os.PathLike,
    claim_mappings: str | os.PathLike,
    assessments: str | os.PathLike,
    run_id: str | None = None,
    plan: bool = False,
    explain: bool = False,
) -> TA3Scores:
    """Score a TA3 run (see the module's docstring). ``run_id`` is the run's ID in
    claim-mappings.tab, by default the submission folder's name; ``explain``: explain every row
    (TA3Scores.explanations). Raises InputError (file and line) for input that cannot be scored."""
    with cyclic_gc_paused():
        run = read_run(submission)
        queries = read_queries(queries_to_score)
        package = read_package(assessments, claim_mappings, queries)
        run_id = run_id or Path(submission).resolve().name
        scorer = _Scorer(queries, package, run, run_id, plan, explain)
        rows: dict[str, list[ScoreRow]] = defaultdict(list)  # metric -> rows
        for query in queries.values():
            scorer.score(query, rows)
    scorer.warn_unrelated()
    scorer.warn_lacking()
    metrics, explanations = [], []
    for metric in METRICS:
        ordered = tuple(sorted(rows[metric], key=_row_order))
        macros = _macros(ordered)
        metrics.append(TA3MetricScores(metric, ordered, macros))
        if explain:
            order = {(r.condition, r.query_id, r.relation): n for n, r in enumerate(ordered)}
            explanations += sorted(scorer.explanations[metric], key=lambda e: order[tuple(v for _, v in e.row)])
            explanations += [_explain_macro(metric, m, ordered) for m in macros]
    warnings = (*package.warnings, *run.warnings, *scorer.warnings)
    return TA3Scores(run_id, plan, tuple(metrics), warnings, tuple(explanations))


def _explain_macro(metric: str, found: Macro, rows: Sequence[ScoreRow]) -> Explanation:
    group = [
        (r.query_id, r.ndcg if isinstance(r, NDCGRow) else r.f1, r.ground_truth)
        for r in rows
        if (r.condition, r.relation) == (found.condition, found.relation)
    ]
    return explain.macro(metric, found.condition, found.relation, group, found.value)


def _row_order(row: ScoreRow) -> tuple[str, str, str]:
    return row.condition, row.query_id, row.relation


def _macros(rows: Sequence[ScoreRow]) -> tuple[Macro, ...]:
    groups: dict[tuple[str, str], list[float]] = {}
    for row in rows:
        values = groups.setdefault((row.condition, row.relation), [])
        if row.ground_truth > 0:
            values.append(row.ndcg if isinstance(row, NDCGRow) else row.f1)
    ordered = sorted(groups.items(), key=lambda item: f"{item[0][0]}:{item[0][1]}")
    return tuple(Macro(c, r, sum(v) / len(v) if v else None) for (c, r), v in ordered)


@dataclass(frozen=True)
class _Entry:
    """A claim of a submitted list: its pool claim (None when not assessed) and matrix row."""

    ranked: Ranked
    uid: str | None
    index: int | None


class _Scorer:
    def __init__(
        self, queries: dict[str, QueryToScore], package: Package, run: Run, run_id: str, plan: bool, explain: bool
    ):
        self.queries, self.package, self.run, self.run_id, self.plan = queries, package, run, run_id, plan
        self.explain = explain
        self.explanations: dict[str, list[Explanation]] = defaultdict(list)  # metric -> its rows explained
        self.claim_lines: dict[Path, dict[str, int]] = {}  # a claim frame file -> its claims' lines
        self.novelty = NoveltyMatrix(plan)
        self.values: dict[tuple[str, bool], ClaimValues] = {}
        self.correct: dict[tuple[str, bool], bool] = {}
        self.combos: dict[tuple[str, bool], dict[str, str]] = {}
        self.encoded: dict[tuple[str, bool] | None, tuple[int, ...]] = {}
        self.warnings: list[str] = []
        self.unrelated: set[tuple[str, str]] = set()  # (query, uid) pairs read without a relation row
        self.lacking: dict[str, str] = {}  # pool uid -> the required field it has no component 1 of
        self.assessed = {key: [self._pool_uid(key, r) for r in ranked] for key, ranked in run.rankings.items()}
        if run.rankings and not any(uid for uids in self.assessed.values() for uid in uids):
            # every score would be 0: a run ID (the folder's name by default) the pool does not know
            held = sorted({r for _, _, r, _ in package.runs} - {QCF_RUN})
            raise UsageError(
                f"{package.mappings_path}: no ranked claim of run {run_id} is mapped to a pool claim; the mappings "
                f"hold run(s) {', '.join(held) or '(none)'}: give the run's ID with --run-id"
            )
        self.rows_by_query: dict[str, list[tuple[str, str | None]]] = defaultdict(list)
        for query_id, uid, kind in package.relation_rows:
            self.rows_by_query[query_id].append((uid, kind))

    def _pool_uid(self, key: tuple[str, str], ranked: Ranked) -> str | None:
        found = self.package.runs.get((*key, self.run_id, ranked.claim_id), ())
        if len(found) > 1:
            raise InputError(
                self.package.mappings_path,
                f"a second row maps claim {ranked.claim_id} of run "
                f"{self.run_id} ({key[0]}, {key[1]}) to a pool claim (first at line {found[0].line})",
                found[1].line,
            )
        return found[0].uid if found else None

    @property
    def leaked(self) -> str | None:
        """The relation NIST's code gives a pair without a row: the relation file's last row's."""
        return self.package.relation_rows[-1][2] if self.package.relation_rows else None

    def warn_unrelated(self) -> None:
        """One line for the claims that NIST's row-order lookup touched: correct claims (their
        relation counts) without a relation row, while the file's last row has a relation."""
        pairs = sorted(
            (q, uid)
            for q, uid in self.unrelated
            if self.leaked and (self._required_correct(uid, False) or uid in self.package.flagged)
        )
        if pairs:
            shown = ", ".join(f"{uid} for {q}" for q, uid in pairs[:3]) + (", ..." if len(pairs) > 3 else "")
            taken = (
                "have no relation (--plan)"
                if self.plan
                else f"take the relation of the file's last row ({self.leaked}), as in NIST's code"
            )
            self.warnings.append(
                f"{self.package.relations_path}: {len(pairs)} correct claim(s) have no relation row ({shown}): "
                f"they {taken}"
            )

    # --- claims ------------------------------------------------------------------------------

    def _values(self, uid: str, flagged: bool) -> ClaimValues:
        key = (uid, flagged)
        if key not in self.values:
            claim = self.package.claims[uid]
            self.values[key] = claim_values(claim, flagged, self._required_correct(uid, flagged))
            if not flagged and uid in self.package.flagged and self.values[key] != self._values(uid, True):
                self.warnings.append(
                    f"pool claim {uid} is a query claim frame (every field correct) and a claim of the run whose "
                    "judgements say otherwise: NIST caches novelty by pool claim, so its scores take one or the "
                    "other depending on the order it computes them in; here each is scored as it is"
                )
        return self.values[key]

    def _encoded(self, role: tuple[str, bool] | None) -> tuple[int, ...]:
        """A claim as a row of the novelty matrix; None: the nothing Conditions 6, 7 compare with."""
        if role not in self.encoded:
            self.encoded[role] = self.novelty.encode(self._values(*role) if role else NOTHING)
        return self.encoded[role]

    def _combinations(self, uid: str, flagged: bool) -> dict[str, str]:
        """The claim's combination of F1 values per variant, written as NIST writes it."""
        key = (uid, flagged)
        if key not in self.combos:
            values = self._values(uid, flagged).values
            self.combos[key] = {
                variant: "::".join(f"{name}:{','.join(sorted(values[FIELD_INDEX[name]]))}" for name in sorted(names))
                for variant, names in F1_FIELDS.items()
            }
        return self.combos[key]

    def _required_correct(self, uid: str, flagged: bool) -> bool:
        key = (uid, flagged)
        if key not in self.correct:
            self.correct[key], lacking = required_correct(self.package.claims[uid], flagged)
            if lacking:
                self.lacking[uid] = lacking
        return self.correct[key]

    def warn_lacking(self) -> None:
        """One line for the claims read without a required field: not correct here, where NIST's
        scorer stops."""
        if self.lacking:
            shown = ", ".join(f"{uid} ({name})" for uid, name in sorted(self.lacking.items())[:3])
            more = ", ..." if len(self.lacking) > 3 else ""
            self.warnings.append(
                f"{len(self.lacking)} pool claim(s) have no component 1 of a required field, as a Condition 7 claim "
                f"frame has no template or X variable ({shown}{more}): their required fields are not all correct, "
                "so they gain nothing and are in no ideal list (NIST's scorer stops on them)"
            )

    def _relation(self, query: QueryToScore, uid: str) -> str | None:
        """LDC's relation of a pool claim to a query claim frame: its first row's; without one, the
        relation file's last row's (NIST's code), or None (plan)."""
        key = (query.query_id, uid)
        if key not in self.package.relations:
            self.unrelated.add(key)
            return None if self.plan else self.leaked
        return self.package.relations[key]

    def _truth(self, query: QueryToScore, relation: str) -> list[str]:
        """The pool uids of the list's ideal candidates that have correct required fields, sorted."""
        identical = self.package.identical.get(query.query_id, frozenset())
        same_topic = [q for q in self.queries.values() if q.topic_id == query.topic_id]
        sources = same_topic if relation == ONTOPIC else [query]
        found = {
            uid
            for source in sources
            for uid, kind in self.rows_by_query.get(source.query_id, ())
            if kind in COMPATIBLE[relation] and uid not in identical
        }
        if query.condition == "Condition6":
            found |= self.package.topic_claims.get(query.topic_id, frozenset())
        return sorted(
            uid
            for uid in found & self.package.claims.keys()
            if self._required_correct(uid, uid in self.package.flagged)
        )

    # --- explanations --------------------------------------------------------------------------

    def _about(self, query: QueryToScore, uid: str) -> tuple[tuple[str, object], ...]:
        """What LDC says of a pool claim: its relation to the query claim frame, whether its required
        fields are correct, and each field's correct values (its field judgments)."""
        flagged = uid in self.package.flagged
        values = self._values(uid, flagged)
        fields = tuple((f.name, ",".join(sorted(v)) or None) for f, v in zip(FIELDS, values.values, strict=True))
        relation = self.package.relations.get((query.query_id, uid), "no row")
        return (("relation", relation), ("required_correct", int(values.required_correct)), *fields)

    def _where(self, key: tuple[str, str], claim: Ranked | None, uid: str | None) -> tuple[Source, ...]:
        """The run's ranking row and the claim's file beside it, its claim-mappings row, and the rows
        of the pool claim's assessment that judge each field."""
        found = []
        if claim is not None:
            found.append(Source("system", "ranking", claim.path, claim.line))
            frame = Path(claim.path).parent / f"{claim.claim_id}.ttl"  # the KB, or the folder of its tables
            if frame.exists():
                line = self._claim_line(frame, claim.claim_id)
                table = frame / f"{OUTER}.rq.tsv" if frame.is_dir() else frame
                found.append(Source("system", "claim", str(table), line))
            rows = self.package.runs.get((*key, self.run_id, claim.claim_id), ())
            found += [Source("gold", "claim mapping", self.package.mappings_path, r.line) for r in rows[:1]]
        if uid is not None and uid in self.package.claims:
            assessed = self.package.claims[uid]
            found += [
                Source("gold", f"{name} judgement {judged}", assessed.path, n)
                for name, judged, n in judgement_lines(assessed)
            ]
        return tuple(found)

    def _claim_line(self, frame: Path, claim_id: str) -> int | None:
        """The line of a claim frame in its file (None when the file cannot be read or lacks it)."""
        if frame not in self.claim_lines:
            try:
                self.claim_lines[frame] = claim_lines(frame)
            except InputError:
                self.claim_lines[frame] = {}
        return self.claim_lines[frame].get(claim_id)

    # --- one query -----------------------------------------------------------------------------

    def score(self, query: QueryToScore, rows: dict[str, list[ScoreRow]]) -> None:
        """Add the query's rows (every metric, every list) to ``rows``."""
        key = (query.condition, query.query_id)
        ranked = self.run.rankings.get(key, ())
        uids = self.assessed.get(key, [])
        relations = CONDITION_LISTS[query.condition]
        lists = {
            r: [(c, u) for c, u in zip(ranked, uids, strict=True) if _fits(c.tag, r) and (u or self.plan)]
            for r in relations
        }
        truths = {r: self._truth(query, r) for r in relations}
        base = None  # what a claim is first compared with: the query claim frame, or nothing
        if query.condition == "Condition5":
            base = (self.package.query_claim_frames[query.query_id], True)
        roles = sorted(
            {(u, False) for entries in lists.values() for _, u in entries if u}
            | {(u, u in self.package.flagged) for uids in truths.values() for u in uids}
        )
        index = {role: i for i, role in enumerate(roles)}
        matrix = self.novelty([self._encoded(role) for role in (*roles, base)])
        combos = [self._combinations(*role) for role in roles]
        qcf = self._combinations(*base) if base else None
        for relation in relations:
            entries = [_Entry(c, u, index[u, False] if u else None) for c, u in lists[relation]]
            truth = [(u, index[u, u in self.package.flagged]) for u in truths[relation]]
            self._score_list(query, relation, entries, truth, matrix, len(roles), combos, qcf, rows)

    def _scale(self, query: QueryToScore, relation: str, uid: str, tag: str | None) -> float:
        """The relation scale of a claim in a list: tag is the run's relation (None: ideal list)."""
        if query.condition != "Condition5":
            return 1
        gold = self._relation(query, uid)
        if gold is None:
            return 0
        if relation == ONTOPIC:
            return 1
        if self.plan:
            if tag is None or tag == gold:  # an ideal list is tagged right
                return 1 if gold in COMPATIBLE[relation] else 0
            partial = tag == "related" and relation.startswith("non") and gold in COMPATIBLE[relation]
            return 0.5 if partial else 0
        if gold == relation:
            return 1
        return 0.5 if gold in COMPATIBLE[relation] else 0

    def _score_list(
        self,
        query: QueryToScore,
        relation: str,
        entries: list[_Entry],
        truth: list[tuple[str, int]],
        matrix: np.ndarray,
        base: int,
        combos: list[dict[str, str]],
        qcf: dict[str, str] | None,
        rows: dict[str, list[ScoreRow]],
    ) -> None:
        scales = [self._scale(query, relation, e.uid, e.ranked.tag) if e.uid else 0 for e in entries]
        gains = _submitted_gains(matrix, base, [e.index for e in entries], scales)
        truth_scales = np.array([self._scale(query, relation, uid, None) for uid, _ in truth], dtype=float)
        order, ideal_gains = _greedy(matrix, base, np.array([i for _, i in truth], dtype=int), truth_scales)
        ideal = [(truth[k][0], g) for k, g in zip(order, ideal_gains, strict=True)]
        # F1 counts a claim whose relation is compatible at all (NIST's scale > 0), in both modes:
        # the matrix row of each claim counted, None for the others
        counted = [
            e.index
            if e.uid is not None
            and self._required_correct(e.uid, False)
            and (query.condition != "Condition5" or self._relation(query, e.uid) in COMPATIBLE[relation])
            else None
            for e in entries
        ]
        depth = query.depth[relation]
        for version, keep in (("1", None), ("2", depth)):
            row_gains, row_ideal = gains[:keep], ideal[:keep]
            dcg, idcg = _dcg(row_gains), _dcg([g for _, g in row_ideal])
            score = dcg / idcg if idcg > 0 else 0
            if score > 1:
                self.warnings.append(
                    f"NDCGScorerV{version} {query.condition} {query.query_id} {relation}: "
                    f"NDCG {score:.4f} > 1 (the greedy ideal list is not ideal here; NIST stops)"
                )
            assessed = sum(1 for e in entries[:keep] if e.uid)
            row = NDCGRow(
                query.condition,
                query.query_id,
                relation,
                assessed,
                len(row_ideal),
                score,
                tuple(row_gains),
                tuple(row_ideal),
                dcg,
                idcg,
            )
            rows[f"NDCGScorerV{version}"].append(row)
            key = (query.condition, query.query_id, relation)
            ranked = [(e.ranked, e.uid) for e in entries[:keep]]
            if self.explain:
                values = (("ndcg", score), ("assessed", assessed), ("gt", len(row_ideal)))
                self.explanations[f"NDCGScorerV{version}"].append(
                    explain.ndcg(
                        f"NDCGScorerV{version}",
                        key,
                        values,
                        ranked,
                        scales[:keep],
                        row_gains,
                        row_ideal,
                        lambda uid, q=query: self._about(q, uid),
                        lambda c, u, k=key[:2]: self._where(k, c, u),
                    )
                )
            for variant in F1_FIELDS:
                found = [None if i is None else combos[i][variant] for i in counted[:keep]]
                truth_combos = {combos[truth[k][1]][variant] for k in order[:keep]}
                if qcf and not self.plan:
                    found = [None if c == qcf[variant] else c for c in found]
                    truth_combos.discard(qcf[variant])
                best, cutoff, unique = _best_f1(found, truth_combos, self.plan)
                metric = f"F1ScorerV{version}{variant}"
                rows[metric].append(F1Row(*key, cutoff, unique, len(truth_combos), best))
                if self.explain:
                    values = (("f1", best), ("unique", unique), ("gt", len(truth_combos)))
                    values += (("cutoff", cutoff),) if cutoff is not None else ()
                    curve = f1_curve(found, truth_combos, self.plan)
                    self.explanations[metric].append(
                        explain.f1(
                            metric,
                            key,
                            values,
                            ranked,
                            found,
                            truth_combos,
                            curve,
                            cutoff,
                            self.plan,
                            lambda c, u, k=key[:2]: self._where(k, c, u),
                        )
                    )


def _fits(tag: str, relation: str) -> bool:
    """Whether a claim the run tags so belongs to the list (Conditions 6, 7: tag ontopic)."""
    return tag == relation or tag in COMPATIBLE[relation]


def _submitted_gains(matrix: np.ndarray, base: int, rows: list[int | None], scales: list[float]) -> list[float]:
    """scale x min(Novelty(C, base), Novelty(C, each claim above C)); 0 for an unassessed claim."""
    assessed = [k for k, r in enumerate(rows) if r is not None]
    if not assessed:
        return [0.0] * len(rows)
    picks = np.array([rows[k] for k in assessed])
    above = matrix[np.ix_(picks, picks)]
    above[np.triu_indices(len(picks))] = np.inf
    least = np.minimum(matrix[picks, base], above.min(axis=1))
    gains = [0.0] * len(rows)
    for k, value in zip(assessed, least, strict=True):
        gains[k] = scales[k] * float(value)
    return gains


def _greedy(matrix: np.ndarray, base: int, rows: np.ndarray, scales: np.ndarray) -> tuple[list[int], list[float]]:
    """NIST's ideal list: repeatedly the candidate of greatest gain given those chosen, the first
    (smallest uid) among equals; every candidate is appended. Returns positions and gains."""
    current = scales * matrix[rows, base]
    left = np.ones(len(rows), dtype=bool)
    order, gains = [], []
    for _ in range(len(rows)):
        pick = int(np.argmax(np.where(left, current, -1.0)))
        order.append(pick)
        gains.append(float(current[pick]))
        left[pick] = False
        current = np.minimum(current, scales * matrix[rows, rows[pick]])
    return order, gains


def _dcg(gains: Sequence[float]) -> float:
    total = 0.0
    for rank, gain in enumerate(gains):
        total += gain / math.log2(rank + 2)
    return total


def _best_f1(combos: Sequence[str | None], truth: set[str], plan: bool) -> tuple[float, int | None, int]:
    """(best F1, earliest cutoff reaching it, unique combinations there)."""
    best: tuple[float, int | None, int] = (0, None, 0)
    for k, (f1, unique) in enumerate(f1_curve(combos, truth, plan), 1):
        if best[1] is None or f1 > best[0]:
            best = (f1, k, unique)
    return best


def f1_curve(combos: Sequence[str | None], truth: set[str], plan: bool) -> list[tuple[float, int]]:
    """(F1, unique combinations) at each cutoff k of the list; NIST's recall counts every unique
    combination, the plan's only those in the truth."""
    seen: set[str] = set()
    curve = []
    for k, combo in enumerate(combos, 1):
        if combo is not None:
            seen.add(combo)
        precision = len(seen) / k
        recall = f1 = 0.0
        if truth:
            recall = (len(seen & truth) if plan else len(seen)) / len(truth)
            f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0
        curve.append((f1, len(seen)))
    return curve
