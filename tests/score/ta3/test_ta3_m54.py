"""The TA3 scorer on NIST's real example submission (../shared/data/m54/task3-run), read in place.

NIST published no assessments for it, so the test assesses it itself: every ranked claim frame
and every Condition 5 query claim frame becomes a pool claim judged all Correct, with its values
read from the claim frame (aifcheck.extract.claims), and, as LDC relates every correct claim of a
topic to each query claim frame of the topic, a Condition 5 claim gets the relation the run
tagged, and the other claims of the topic "related". What is checked is what follows from that
without the scorer's arithmetic: every query is scored, each list holds the run's ranked lines,
the default run ID is the folder's name; and every line an explanation names holds its node.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from ta3_lines import check_ta3_lines

from aifcheck.extract.claims import collect
from aifcheck.score.ta3.scorer import METRICS, score_ta3

HEADER = "claim_id\tcomponent_type\tid\tfieldname\tvalue\tcorrectness"
TAG_RELATIONS = {"supporting": "supported_by", "refuting": "refuted_by", "related": "related"}


def _outer_claim(uid: str, claim) -> str:
    rows = [
        ("claimTemplate", "value", claim.template or claim.topic, "Correct"),
        ("claimEpistemic", "polarity", claim.epistemic, "Correct"),
    ]
    for kind, component in (("xVariable", claim.x_variable), ("claimer", claim.claimer)):
        rows += [
            (kind, "overallAssessment", "value", "Correct"),
            (kind, "ec_similarity", "value", component.identity if component else "none"),
        ]
    return "\n".join([HEADER, *(f"{uid}\t{kind}\t1\t{name}\t{value}\t{label}" for kind, name, value, label in rows)])


def assess(shared_data: Path, tmp_path: Path) -> Counter[tuple[str, str]]:
    """Write the assessment package, queries_to_score.tab and claim-mappings.tab of the real run
    under ``tmp_path`` (as the module's docstring says); the number of ranked lines per query."""
    run = shared_data / "task3-run"
    frames = shared_data / "user-queries" / "Condition5" / "Query_Claim_Frames"
    found, problems = collect([run, frames])
    assert not problems
    claims = {c.claim_id: c for c in found}
    topics = {}
    for line in (shared_data / "user-queries" / "Condition5" / "topics.tsv").read_text(encoding="utf-8").splitlines():
        topic_id, topic, *_ = line.split("\t")
        topics[topic] = topic_id
    package = tmp_path / "LDC" / "data" / "TA3"
    (package / "system_claims").mkdir(parents=True)
    for claim_id, claim in claims.items():
        (package / "system_claims" / f"uid-{claim_id}-outer-claim.tab").write_text(
            _outer_claim(f"uid-{claim_id}", claim), encoding="utf-8"
        )
    queries = ["query_id\tcondition\ttopic_id\tdepth"]
    mappings = ["pool_claim_uid\tcondition\tquery_id\trun_claim_id\trun_id"]
    relations = ["query_claim_id\tsystem_claim_id\trelation"]
    lines: Counter[tuple[str, str]] = Counter()
    tags: dict[tuple[str, str], str] = {}  # (Condition 5 query, claim) -> the run's relation
    topic_claims: dict[str, set[str]] = {}
    depth = ",".join(
        f"{r}:30" for r in ("ontopic", "supporting", "refuting", "related", "nonrefuting", "nonsupporting")
    )
    for ranking in sorted(run.glob("Condition*/*/*.ranking.tsv")):
        condition, query = ranking.parent.parent.name, ranking.parent.name
        topic = topics[claims[query].topic] if condition == "Condition5" else query
        queries.append(f"{query}\t{condition}\t{topic}\t{depth}")
        if condition == "Condition5":
            mappings.append(f"uid-{query}\t{condition}\t{query}\t{query}\tquery_claim_frames")
        for line in ranking.read_text(encoding="utf-8").splitlines():
            cells = line.split("\t")
            lines[condition, query] += 1
            mappings.append(f"uid-{cells[1]}\t{condition}\t{query}\t{cells[1]}\ttask3-run")
            topic_claims.setdefault(topic, set()).add(cells[1])
            if condition == "Condition5":
                tags[query, cells[1]] = TAG_RELATIONS[cells[3]]
    for query, topic in {q: topics[claims[q].topic] for q, _ in tags}.items():
        for claim_id in sorted(topic_claims[topic]):
            relations.append(f"{query}\tuid-{claim_id}\t{tags.get((query, claim_id), 'related')}")
    for name, rows in (("queries_to_score.tab", queries), ("claim-mappings.tab", mappings)):
        (tmp_path / name).write_text("\n".join(rows) + "\n", encoding="utf-8")
    (package / "cross_claim_relations.tab").write_text("\n".join(relations) + "\n", encoding="utf-8")
    return lines


def _score(shared_data: Path, tmp_path: Path, explain: bool = False, run: str = "task3-run"):
    files = (tmp_path / "queries_to_score.tab", tmp_path / "claim-mappings.tab", tmp_path / "LDC")
    return score_ta3(shared_data / run, *files, run_id="task3-run", explain=explain)


def test_the_real_submission_is_scored_in_full(shared_data: Path, tmp_path: Path) -> None:
    lines = assess(shared_data, tmp_path)
    scores = _score(shared_data, tmp_path)

    assert scores.run_id == "task3-run"
    assert not scores.warnings
    ontopic = {(r.condition, r.query_id): r for r in scores["NDCGScorerV1"].rows if r.relation == "ontopic"}
    assert {k: r.assessed for k, r in ontopic.items()} == dict(lines)
    assert len(lines) == 6  # 2 query claim frames, 2 + 2 topics
    for metric in METRICS:
        lists = Counter(r.condition for r in scores[metric].rows)
        assert lists == {"Condition5": 2 * 6, "Condition6": 2, "Condition7": 2}
        macros = {(m.condition, m.relation): m.value for m in scores[metric].macros}
        assert macros["Condition7", "ontopic"] is None  # Condition 7 never has truth
        assert macros["Condition6", "ontopic"] is not None


@pytest.mark.parametrize("run", ["task3-run", "task3-expected"])
def test_every_line_an_explanation_of_the_real_submission_names_holds_its_node(
    shared_data: Path, tmp_path: Path, run: str
) -> None:
    """The run given as its KBs (task3-run), or as NIST's tables of them (task3-expected, whose
    Condition 5 queries alone NIST published): a claim is named at its KB's line, or at its row of
    the outer-claim table."""
    assess(shared_data, tmp_path)
    if run == "task3-expected":
        queries = tmp_path / "queries_to_score.tab"
        kept = [
            line
            for line in queries.read_text().splitlines()
            if "\tCondition6\t" not in line and "\tCondition7\t" not in line
        ]
        queries.write_text("\n".join(kept) + "\n")
    scores = _score(shared_data, tmp_path, explain=True, run=run)
    checked = check_ta3_lines(scores.explanations)
    assert set(checked) == {"ranking", "claim", "mapping", "judgement"}, checked
