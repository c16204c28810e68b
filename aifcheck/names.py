"""The evaluation's names, each kept here once: the task names and TA3 conditions a user types
(from the registry, aifcheck.tasks), the condition folders, the AIF namespace, and what a run or
batch ID may be. Every stage and every command option takes them from here."""

from __future__ import annotations

import re
from pathlib import PurePath

from aifcheck.choices import choose
from aifcheck.errors import UsageError, cut, printable
from aifcheck.tasks import TA3
from aifcheck.tasks import TASKS as TASK_REGISTRY

AIDA = (
    "https://raw.githubusercontent.com/NextCenturyCorporation/AIDA-Interchange-Format/"
    "master/java/src/main/resources/com/ncc/aif/ontologies/InterchangeOntology#"
)

# the tasks that have NIST tables (query --task, validate --task), and TA3's conditions: from the registry
TASKS = tuple(task.name for task in TASK_REGISTRY.values() if task.tables)
CONDITIONS = TA3.conditions

# A TA3 submission (and NIST's user queries) holds a folder per condition: Condition5, ...
_CONDITION_FOLDER = re.compile(r"^Condition([567])$", re.IGNORECASE)


def condition_folder(condition: int) -> str:
    """The folder name of a TA3 condition in NIST's layouts (``Condition5``)."""
    return f"Condition{condition}"


CONDITION_FOLDERS = tuple(condition_folder(c) for c in CONDITIONS)


def folder_condition(name: str) -> int | None:
    """The condition a folder name stands for (``Condition5``, any case), or None."""
    match = _CONDITION_FOLDER.match(name)
    return int(match[1]) if match else None


def condition_of(path: str | PurePath) -> int | None:
    """The TA3 condition of a file in a submission laid out as NIST's (.../ConditionN/<query>/<frame>):
    the nearest ConditionN folder above it, or None."""
    for part in reversed(PurePath(path).parts[:-1]):
        if (condition := folder_condition(part)) is not None:
            return condition
    return None


def check_task(task: str) -> str:
    """The task a user names, in any case (UsageError with the nearest names when unknown)."""
    return choose(task, TASKS, "task")


def check_condition(condition: int | str) -> int:
    if str(condition) not in map(str, CONDITIONS):
        raise UsageError(f"unknown condition '{condition}' (choose {', '.join(map(str, CONDITIONS))})")
    return int(condition)


NAME_MAX = 255  # bytes of a file name (Linux, macOS)


def longer_than_a_file_name(name: str) -> bool:
    """Whether ``name`` has more bytes than a file name may (a byte that is not UTF-8 counts one)."""
    return len(name.encode("utf-8", "surrogateescape")) > NAME_MAX


_ID = re.compile(r"[^\t\n\r\x00-\x1f\x7f/\\]{1,200}")


def check_id(value: str | None, what: str) -> None:
    """A run or batch ID, which names files and fills cells of tab-separated tables: 1 to 200
    printable characters, UTF-8, no tab, line break, control character, ``/`` or ``\\``, not ``.``
    or ``..``. ``what`` names where it came from (``--run-id``, ``-b``, ``RUN folder name``)."""
    if value is None:
        return
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise UsageError(f"{what} '{printable(value)}': not UTF-8: give another name") from None
    if not _ID.fullmatch(value) or value in (".", "..") or not value.isprintable():
        raise UsageError(
            f"{what} '{printable(cut(value, 80))}': an ID names files and fills table cells: give 1 to 200 "
            "characters without a tab, line break, control character, / or \\ (and not . or ..)"
        )
