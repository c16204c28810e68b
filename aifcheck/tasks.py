"""The evaluation's tasks, each described once: its name, NIST's tables, its docker stages, the
command groups that have it and its conditions.

A task is a folder: each stage of aifcheck that has tasks holds a package named after the task
(``aifcheck.pipeline.ta2``, ``aifcheck.score.ta2``, ``aifcheck.render.ta2``, ``aifcheck.cli.ta2``).
The command groups (``pipeline``, ``pool``, ``score``) add a sub-command for each task that names
them, ``names.py`` takes the task names from here, and the import contracts that keep the tasks
apart are checked against this list (tests/test_layout.py).
"""

from __future__ import annotations

from dataclasses import dataclass

PIPELINE, POOL, SCORE = "pipeline", "pool", "score"  # the command groups a task can be in


@dataclass(frozen=True)
class Task:
    name: str  # the sub-command's word and each stage's package name
    title: str
    tables: tuple[str, ...]  # NIST's SPARQL tables of the task (queries/<table>.rq), in NIST's order
    stages: tuple[str, ...]  # NIST's docker stages, in the order its driver runs them
    groups: tuple[str, ...]  # the command groups that have a sub-command for the task
    conditions: tuple[int, ...] = ()  # TA3's conditions: a folder ConditionN each


TA1 = Task(
    "ta1",
    "TA1: document-level knowledge graphs",
    ("AIDA_P3_TA1_CM_A0001", "AIDA_P3_TA1_AM_A0001", "AIDA_P3_TA1_TM_A0001"),
    ("sparql", "clean", "screen", "filter", "score"),
    (SCORE,),
)
TA2 = Task(
    "ta2",
    "TA2: one cross-document knowledge graph",
    ("AIDA_P3_TA2_P0001", "AIDA_P3_TA2_P0002"),
    ("sparql", "clean", "screen"),
    (PIPELINE, POOL, SCORE),
)
TA3 = Task(
    "ta3",
    "TA3: claim frames ranked per query",
    (
        "AIDA_P3_TA3_OC_0001",
        "AIDA_P3_TA3_CC_0001",
        "AIDA_P3_TA3_CT_0001",
        "AIDA_P3_TA3_TM_0001",
        "AIDA_P3_TA3_GR_0001A",
        "AIDA_P3_TA3_GR_0001B",
    ),
    ("select", "sparql", "clean", "merge", "screen", "handle", "arf"),
    (PIPELINE, POOL, SCORE),
    conditions=(5, 6, 7),
)
# a TA3 ranking line's columns in each condition (plan §6.2): the claim's relation to the query claim
# frame in Condition 5 only
RANKING_COLUMNS: dict[int, tuple[str, ...]] = {
    5: ("query claim frame ID", "claim frame ID", "rank", "claim relation"),
    6: ("topic ID", "claim frame ID", "rank"),
    7: ("topic ID", "claim frame ID", "rank"),
}
CRUX = Task("crux", "CRUX 2023: claim frames and the relations between them", (), (), (SCORE,))

TASKS: dict[str, Task] = {task.name: task for task in (TA1, TA2, TA3, CRUX)}


def in_group(group: str) -> tuple[Task, ...]:
    """The tasks that have a sub-command in the command group ``group``, in the registry's order."""
    return tuple(task for task in TASKS.values() if group in task.groups)
