"""``aifcheck lint-submission``: a TA3 submission directory against the S rules (RULES.md, plan §6.2, §7).

A submission for one condition holds one folder per query (plan §6.2.1-6.2.3)::

    DIR/<ID>/<ID>.ranking.tsv         the ranked list for the query
    DIR/<ID>/<ClaimFrameID>.ttl       one claim frame per ranked claim frame ID

where ID is a query claim frame ID (Condition 5) or a topic ID (Conditions 6 and 7). A ranking
line is ``query ID, claim frame ID, rank, relation`` (Condition 5) or ``topic ID, claim frame ID,
rank`` (Conditions 6, 7), tab-separated, without header.

Each S rule is a function below, keyed by rule ID in CHECKS; the rule's severity, title and plan
reference come from the catalogue (shapes/submission.ttl). Every claim frame is also validated
with the ta3 profile for the condition, and the findings of both go into one Report.

Reading of the rules:
- S1: the submission folder holds folders only, and each folder is named with the ID its ranking
  lines give in column 1.
- S2: malformed ranking files (missing, misnamed, empty, not UTF-8, wrong number of columns) are
  S2; the other rules read the well-formed lines only, except S5, for which a malformed line
  still names its claim frame (one defect, one finding).
- S5: anything in a query folder besides its ranking file and the ranked claim frames is
  reported, not only .ttl files; nothing is reported when the ranking file cannot be read.
- S6: the ta3 profile's own findings (T, N and A rule IDs) are the first half of S6; S6 itself
  reports an aida:claimId that differs from the file name.
- S8: the IDs come from the topics file (Conditions 6, 7; column 1) or from the file names of
  the query claim frames folder (Condition 5). A folder whose name is not among them is an S8
  error. NIST's own example submission (M54) answers only some queries (2 of 30 query claim
  frames, 2 of 4 and 2 of 8 topics), so a query without a folder (no claim frame returned for
  it) is reported only with ``complete=True``.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace
from decimal import Decimal
from functools import partial
from pathlib import Path

import pyoxigraph as ox

from aifcheck.choices import choose
from aifcheck.errors import InputError, UsageError
from aifcheck.loading.kb import KB, load_kb
from aifcheck.loading.paths import is_rdf_file, read_bytes
from aifcheck.loading.ranking import RANKING_SUFFIX, ranking_lines
from aifcheck.names import AIDA, check_condition, condition_folder, folder_condition
from aifcheck.spread.parallel import Spread, map_files
from aifcheck.tasks import RANKING_COLUMNS
from aifcheck.validation.catalog import Catalog
from aifcheck.validation.report import FileError, FileReport, Report, Violation
from aifcheck.validation.run import Checker, Options, check_kb
from aifcheck.validation.shapes import load_catalog

RELATIONS = ("supporting", "refuting", "related")
# Topics file columns: ID, topic, subtopic, template and (dry run only) template Qnodes (plan
# §6.2.1, §6.2.2); ID and topic for Condition 7 (§6.2.3).
TOPIC_COLUMNS = {6: (4, 5), 7: (2,)}
_RANK = re.compile(r"[+-]?\d+(\.\d+)?")


@dataclass(frozen=True)
class Finding:
    """What a check found, before the catalogue stamps it with its rule's severity and reference."""

    file: str
    line: int  # 0 for a folder or a whole file
    focus: str  # a claim frame ID, a query or topic ID, a folder or a file name
    message: str


@dataclass(frozen=True)
class Ranking:
    """A ranking file: its lines split at tabs, or why it could not be read."""

    path: Path
    lines: tuple[tuple[int, tuple[str, ...]], ...] = ()  # (line number, cells)
    problem: tuple[int, str] | None = None  # (line, message)


@dataclass(frozen=True)
class Folder:
    """One query folder: its ranking file (None when absent) and everything else in it."""

    path: Path
    ranking: Ranking | None
    other_rankings: tuple[Path, ...]  # *.ranking.tsv files named for another ID
    entries: tuple[Path, ...]  # claim frames and anything else

    @property
    def name(self) -> str:
        return self.path.name


@dataclass(frozen=True)
class Submission:
    """A submission directory as read, with what the checks need from the claim frames and NIST's inputs."""

    root: Path
    condition: int
    folders: tuple[Folder, ...]
    strays: tuple[Path, ...]  # entries of the root that are not folders
    claim_ids: Mapping[Path, tuple[tuple[str, int], ...]]  # per readable claim frame: (aida:claimId, line)
    known: Mapping[str, str] | None = None  # topic or query IDs of NIST's inputs -> where each is defined
    known_from: str = ""  # the input that gave them
    complete: bool = False

    @property
    def kind(self) -> str:
        return "query claim frame" if self.condition == 5 else "topic"

    def well_formed(self, folder: Folder) -> Iterator[tuple[str, int, tuple[str, ...]]]:
        """(ranking file, line number, cells) of a folder's lines with the condition's number of columns."""
        if folder.ranking is not None:
            for number, cells in folder.ranking.lines:
                if len(cells) == len(RANKING_COLUMNS[self.condition]):
                    yield str(folder.ranking.path), number, cells


def lint(
    directory: str | os.PathLike,
    condition: int | None = None,
    topics: str | os.PathLike | None = None,
    queries: str | os.PathLike | None = None,
    complete: bool = False,
    user_queries: str | os.PathLike | None = None,
    spread: Spread = Spread(),
    catalog: Catalog | None = None,
    options: Options | None = None,
) -> Report:
    """Check a submission directory: the S rules, and the ta3 profile on every claim frame.

    ``directory`` is one condition's submission (one folder per query), or a whole TA3 run laid
    out as NIST's, whose ConditionN folders are each checked as that condition. ``condition``
    is inferred from the ConditionN name when not given. ``topics`` (Conditions 6, 7) or
    ``queries`` (Condition 5, the query claim frames folder) give the IDs the folders must be
    named with (S8); for a whole run, ``user_queries`` is NIST's user-queries folder, which holds
    them for every condition (ConditionN/topics.tsv, Condition5/<query claim frames>).
    ``spread`` runs the claim frames' checks in processes or on a Dask cluster; ``catalog``: the
    rules (by default the shipped catalogue); ``options``: which rules run and what is shown, as
    for ``validate`` (its profile is ta3 for the claim frames; --select and --ignore may name S
    rules too). Bad options raise UsageError; inputs that cannot be read, InputError.
    """
    started = time.perf_counter()
    spread.check()
    catalog = catalog or load_catalog()
    chosen = Chosen.of(options or Options(profile="ta3"), catalog)
    root = Path(directory)
    if not root.is_dir():
        raise InputError(
            str(root), "not a folder (give the folder that holds one folder per query, or a whole TA3 run)"
        )
    parts = _conditions(root, condition)
    if len(parts) > 1 and (topics is not None or queries is not None):
        raise UsageError("a whole TA3 run takes NIST's user-queries folder (--user-queries), not --topics or --queries")
    report = Report("submission", strict=chosen.frames.strict)
    for folder, part_condition in parts:
        if user_queries is not None:
            topics, queries = _user_queries(Path(user_queries), part_condition)
        one = _lint_condition(folder, part_condition, topics, queries, complete, spread, catalog, chosen)
        report.files += one.files
        report.input_errors += one.input_errors
    report.seconds = time.perf_counter() - started
    return report


def _conditions(root: Path, condition: int | None) -> list[tuple[Path, int]]:
    """The submissions in a folder, with their conditions: the folder itself, or its ConditionN folders."""
    if condition is not None:
        return [(root, condition)]
    named = folder_condition(root.name)
    if named is not None:
        return [(root, named)]
    parts = [(p, c) for p in sorted(root.iterdir()) if p.is_dir() and (c := folder_condition(p.name)) is not None]
    if not parts:
        raise UsageError(f"{root}: give --condition (the folder is neither a ConditionN folder nor holds one)")
    return parts


def _user_queries(folder: Path, condition: int) -> tuple[Path | None, Path | None]:
    """(topics file, query claim frames folder) of a condition in NIST's user-queries folder."""
    part = folder / condition_folder(condition)
    if not part.is_dir():
        raise InputError(str(part), "no such folder: NIST's user-queries folder holds one per condition")
    if condition == 5:
        frames = sorted(p for p in part.rglob("*.ttl"))
        return None, frames[0].parent if frames else part
    tables = sorted(part.glob("*.tsv"))
    if len(tables) != 1:
        raise InputError(str(part), f"expected one topics file (*.tsv), found {len(tables)}")
    return tables[0], None


@dataclass(frozen=True)
class Chosen:
    """What a lint runs: the options of the claim frames' checks (None: no frame rule chosen) and
    the S rules chosen."""

    frames: Options
    check_frames: bool
    submission_rules: frozenset[str]

    @classmethod
    def of(cls, options: Options, catalog: Catalog) -> Chosen:
        options = replace(options, profile="ta3")
        s_rules = {r.id for r in catalog.rules.values() if r.kind == "submission"}
        named = {
            option: catalog.resolve(
                [
                    choose(part.strip(), _nameable(catalog), "rule ID")
                    for name in names
                    for part in name.split(",")
                    if part.strip()
                ]
            )
            for option, names in (("select", options.select or ()), ("ignore", options.ignore))
        }
        wanted = named["select"] & s_rules if options.select is not None else s_rules
        chosen = frozenset(r for r in wanted - named["ignore"] if catalog.rules[r].severity >= options.min_severity)
        if options.select is not None and not named["select"] - s_rules:  # only S rules named
            return cls(options, False, chosen)
        frames = replace(
            options,
            select=frozenset(named["select"] - s_rules) if options.select is not None else None,
            ignore=frozenset(named["ignore"] - s_rules),
        )
        return cls(frames, True, chosen)


def _nameable(catalog: Catalog) -> set[str]:
    return {*catalog.rules, *(rule.family for rule in catalog.rules.values()), *(i[0] for i in catalog.rules)}


def _lint_condition(
    root: Path,
    condition: int,
    topics: str | os.PathLike | None,
    queries: str | os.PathLike | None,
    complete: bool,
    spread: Spread,
    catalog: Catalog,
    chosen: Chosen,
) -> Report:
    _check_options(condition, topics, queries)
    report = Report("submission")
    known, known_from = None, ""
    if queries is not None:
        known, known_from = _query_ids(Path(queries)), f"the query claim frames in {queries}"
    elif topics is not None:
        known, problems = _topic_ids(Path(topics), condition)
        known_from = f"the topics file {topics}"
        report.input_errors.extend(problems)
    folders, strays = _scan(root)
    checker = (
        Checker(replace(chosen.frames, condition=condition), catalog, spread.threads()) if chosen.check_frames else None
    )
    frames, claim_ids = _validate_frames(folders, checker, spread)
    submission = Submission(root, condition, folders, strays, claim_ids, known, known_from, complete)
    files = {**frames, **{str(f.ranking.path): FileReport(str(f.ranking.path)) for f in folders if f.ranking}}
    for violation in check(submission, catalog, chosen.submission_rules):
        files.setdefault(
            violation.file, FileReport(violation.file, is_file=not Path(violation.file).is_dir())
        ).violations.append(violation)
    for file_report in files.values():
        file_report.violations.sort()
    report.files = list(files.values())
    return report


def _validate_frames(
    folders: tuple[Folder, ...], checker: Checker | None, spread: Spread
) -> tuple[dict[str, FileReport], dict[Path, tuple[tuple[str, int], ...]]]:
    """The ta3 report of every RDF file in the query folders (no finding when ``checker`` is None:
    no frame rule was chosen), and the claim IDs of the readable ones."""
    check = partial(_validate_frame, checker=checker)
    paths = [str(p) for folder in folders for p in folder.entries if p.is_file() and is_rdf_file(p)]
    reports: dict[str, FileReport] = {}
    claim_ids: dict[Path, tuple[tuple[str, int], ...]] = {}
    for path, (file_report, ids) in zip(paths, map_files(check, paths, _lost_frame, spread), strict=True):
        reports[path] = file_report
        if ids is not None:
            claim_ids[Path(path)] = ids
    return reports, claim_ids


def _validate_frame(path: str, checker: Checker | None) -> tuple[FileReport, tuple[tuple[str, int], ...] | None]:
    """One claim frame's ta3 report, and its claim IDs (None when it cannot be read)."""
    started = time.perf_counter()
    try:
        kb = load_kb(path)
    except InputError as exc:
        return FileReport(path, error=_input_error(exc)), None
    with kb:
        file_report = (
            check_kb(kb, checker) if checker is not None else FileReport(path, triples=len(kb), prefixes=kb.prefixes)
        )
        ids = _claim_ids(kb)
    file_report.seconds = time.perf_counter() - started
    return file_report, ids


def _lost_frame(path: str, reason: str) -> tuple[FileReport, None]:
    return FileReport(path, error=_input_error(InputError(path, reason))), None


def check(submission: Submission, catalog: Catalog, chosen: frozenset[str] | None = None) -> list[Violation]:
    """The findings of every S rule (or of those ``chosen``), stamped with the rule's ID, severity
    and plan reference."""
    found = []
    for rule_id, run in CHECKS.items():
        if chosen is not None and rule_id not in chosen:
            continue
        rule = catalog.get(rule_id)
        found.extend(
            Violation(f.file, f.line, rule.id, f.focus, rule.severity, f.message, rule.plan_ref)
            for f in run(submission)
        )
    return sorted(found)


# ------------------------------------------------------------------------------------------
# Reading the directory and NIST's inputs
# ------------------------------------------------------------------------------------------


def _check_options(condition: int, topics: object, queries: object) -> None:
    check_condition(condition)
    if condition == 5 and topics is not None:
        raise UsageError("Condition 5 queries are claim frames: give their folder with --queries, not --topics")
    if condition != 5 and queries is not None:
        raise UsageError(f"Condition {condition} queries are topics: give the topics file with --topics, not --queries")


def _scan(root: Path) -> tuple[tuple[Folder, ...], tuple[Path, ...]]:
    entries = sorted(root.iterdir())
    folders = tuple(_folder(p) for p in entries if p.is_dir())
    return folders, tuple(p for p in entries if not p.is_dir())


def _folder(path: Path) -> Folder:
    expected = path / f"{path.name}{RANKING_SUFFIX}"
    ranking = _read_ranking(expected) if expected.is_file() else None
    others = sorted(p for p in path.iterdir() if not (p == expected and ranking is not None))
    rankings = tuple(p for p in others if p.name.endswith(RANKING_SUFFIX) and p.is_file())
    return Folder(path, ranking, rankings, tuple(p for p in others if p not in rankings))


def _read_text(path: Path) -> str:
    """A tab-separated file's text; InputError (located at the bad byte) when unusable."""
    data = read_bytes(path)
    if not data.strip():
        raise InputError(str(path), "empty file")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        message = f"not UTF-8 (byte 0x{data[exc.start]:02x}); the file must be UTF-8 text"
        raise InputError(str(path), message, line) from None


def _read_ranking(path: Path) -> Ranking:
    try:
        text = _read_text(path)
    except InputError as exc:
        return Ranking(path, problem=(exc.line or 0, exc.message))
    lines = tuple((line.number, tuple(line.cells)) for line in ranking_lines(text.removeprefix("\ufeff")))
    if text.startswith("\ufeff"):
        return Ranking(path, lines, (1, "the file starts with a byte-order mark, which becomes part of the first cell"))
    return Ranking(path, lines)


def _claim_ids(kb: KB) -> tuple[tuple[str, int], ...]:
    """The aida:claimId values of a claim frame, each with the line of its claim."""
    pairs = kb.store.quads_for_pattern(None, ox.NamedNode(f"{AIDA}claimId"), None)
    return tuple(sorted((quad.object.value, kb.line_of(quad.subject) or 0) for quad in pairs))


def _query_ids(folder: Path) -> dict[str, str]:
    """Condition 5: the query claim frame IDs, from the file names <QueryClaimFrameID>.ttl (plan §6.2.1)."""
    if not folder.is_dir():
        raise InputError(str(folder), "not a folder (give the folder of query claim frames, <ID>.ttl)")
    found = {p.name.removesuffix(".ttl"): str(p) for p in sorted(folder.glob("*.ttl"))}
    if not found:
        raise InputError(str(folder), "holds no query claim frame (<QueryClaimFrameID>.ttl)")
    return found


def _topic_ids(path: Path, condition: int) -> tuple[dict[str, str] | None, list[FileError]]:
    """Conditions 6, 7: the topic IDs of column 1 of the topics file; unusable lines are errors."""
    if not path.is_file():
        raise InputError(str(path), "no such topics file")
    widths = TOPIC_COLUMNS[condition]
    try:
        lines = _read_text(path).splitlines()
    except InputError as exc:
        return None, [_input_error(exc)]
    found: dict[str, str] = {}
    problems = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        cells = line.split("\t")
        if len(cells) not in widths or not cells[0]:
            expected = " or ".join(map(str, widths))
            message = f"a Condition {condition} topics line has {expected} tab-separated columns, this one {len(cells)}"
            problems.append(_input_error(InputError(str(path), message, number)))
            continue
        found.setdefault(cells[0], f"{path}:{number}")
    return found, problems


def _input_error(error: InputError) -> FileError:
    return FileError(error.path, str(error))


# ------------------------------------------------------------------------------------------
# The S rules
# ------------------------------------------------------------------------------------------


def _s1(sub: Submission) -> Iterator[Finding]:
    """Folders only, each named with the ID its ranking lines give in column 1."""
    if not sub.folders and not sub.strays:
        message = f"the submission holds no folder: one folder per {sub.kind} is expected"
        yield Finding(str(sub.root), 0, sub.root.name, message)
    for stray in sub.strays:
        message = f"{stray.name} is not a folder: the submission holds one folder per {sub.kind} and nothing else"
        yield Finding(str(stray), 0, stray.name, message)
    for folder in sub.folders:
        for file, number, cells in sub.well_formed(folder):
            if cells[0] != folder.name:
                message = f"the line ranks claim frames for {cells[0]!r}, but the folder is named {folder.name}"
                yield Finding(file, number, cells[0], message)


def _s2(sub: Submission) -> Iterator[Finding]:
    """Exactly one <ID>.ranking.tsv per folder, readable, with the condition's columns."""
    columns = RANKING_COLUMNS[sub.condition]
    for folder in sub.folders:
        expected = f"{folder.name}{RANKING_SUFFIX}"
        if folder.ranking is None:
            yield Finding(str(folder.path), 0, folder.name, f"folder {folder.name} has no ranking file {expected}")
        for other in folder.other_rankings:
            message = f"{other.name} is not read: the ranking file of folder {folder.name} is {expected}"
            yield Finding(str(other), 0, other.name, message)
        if folder.ranking is None:
            continue
        file = str(folder.ranking.path)
        if folder.ranking.problem is not None:
            line, message = folder.ranking.problem
            yield Finding(file, line, expected, message)
        for number, cells in folder.ranking.lines:
            if len(cells) != len(columns):
                shape = "the line is empty" if cells == ("",) else f"the line has {len(cells)} tab-separated columns"
                yield Finding(
                    file,
                    number,
                    expected,
                    f"{shape}; a Condition {sub.condition} ranking line has {len(columns)}: {', '.join(columns)}",
                )


def _s3(sub: Submission) -> Iterator[Finding]:
    """One line per (ID, claim frame) pair, numeric ranks, no tied ranks."""
    for folder in sub.folders:
        pairs: dict[tuple[str, str], int] = {}
        ranks: dict[tuple[str, Decimal], tuple[int, str]] = {}
        for file, number, (query, frame, rank, *_) in sub.well_formed(folder):
            if (query, frame) in pairs:
                yield Finding(
                    file,
                    number,
                    frame,
                    f"claim frame {frame} is ranked again for {query} (first on line {pairs[query, frame]}): "
                    "each claim frame has exactly one line",
                )
                continue
            pairs[query, frame] = number
            if not _RANK.fullmatch(rank):
                yield Finding(file, number, frame, f"rank {rank!r} of claim frame {frame} is not a number")
                continue
            tied = ranks.setdefault((query, Decimal(rank)), (number, frame))
            if tied[0] != number:
                yield Finding(
                    file,
                    number,
                    frame,
                    f"claim frame {frame} has rank {rank}, as {tied[1]} on line {tied[0]}: ranks may not be tied",
                )


def _s4(sub: Submission) -> Iterator[Finding]:
    """Condition 5: the claim relation is supporting, refuting or related."""
    if sub.condition != 5:
        return
    for folder in sub.folders:
        for file, number, (_, frame, _, relation) in sub.well_formed(folder):
            if relation not in RELATIONS:
                yield Finding(
                    file,
                    number,
                    frame,
                    f"claim relation {relation!r} of claim frame {frame} is not one of {', '.join(RELATIONS)}",
                )


def _s5(sub: Submission) -> Iterator[Finding]:
    """Exactly one <ClaimFrameID>.ttl per ranked claim frame, and nothing unranked."""
    for folder in sub.folders:
        if folder.ranking is None or not folder.ranking.lines:
            continue  # S2 says why; listing every file as unranked would only repeat it
        file = str(folder.ranking.path)
        ranked: dict[str, int] = {}
        for number, cells in folder.ranking.lines:
            if len(cells) >= 2:
                ranked.setdefault(cells[1], number)
        present = {p.name for p in folder.entries if p.is_file()}
        for frame, number in ranked.items():
            if f"{frame}.ttl" not in present:
                message = f"ranked claim frame {frame} has no file {frame}.ttl in {folder.name}"
                yield Finding(file, number, frame, message)
        for entry in folder.entries:
            if entry.is_dir():
                yield Finding(str(entry), 0, entry.name, f"{entry.name} is a folder: a query folder holds files only")
            elif not (entry.name.endswith(".ttl") and entry.name.removesuffix(".ttl") in ranked):
                yield Finding(
                    str(entry), 0, entry.name, f"{entry.name} is not a claim frame ranked in {folder.ranking.path.name}"
                )


def _s6(sub: Submission) -> Iterator[Finding]:
    """The aida:claimId of a claim frame is its file name."""
    for path, ids in sorted(sub.claim_ids.items()):
        stem = re.sub(r"\.(ttl|nt)(\.gz)?$", "", path.name, flags=re.IGNORECASE)
        for claim_id, line in ids:
            if claim_id != stem:
                message = f"aida:claimId {claim_id!r} differs from the file name {path.name}: it must be <claimId>.ttl"
                yield Finding(str(path), line, claim_id, message)


def _s7(sub: Submission) -> Iterator[Finding]:
    """Condition 5: a ranked list does not contain its query claim frame."""
    if sub.condition != 5:
        return
    for folder in sub.folders:
        for file, number, (query, frame, *_) in sub.well_formed(folder):
            if frame in (query, folder.name):
                yield Finding(file, number, frame, f"the query claim frame {frame} is in its own ranked list")


def _s8(sub: Submission) -> Iterator[Finding]:
    """The folders name topics or queries of NIST's inputs (and, when complete, all of them)."""
    if sub.known is None:
        return
    names = {folder.name for folder in sub.folders}
    for folder in sub.folders:
        if folder.name not in sub.known:
            message = f"folder {folder.name} names no {sub.kind} of {sub.known_from}"
            yield Finding(str(folder.path), 0, folder.name, message)
    if sub.complete:
        for ident, where in sorted(sub.known.items()):
            if ident not in names:
                yield Finding(str(sub.root), 0, ident, f"{sub.kind} {ident} ({where}) has no folder in the submission")


CHECKS: dict[str, Callable[[Submission], Iterator[Finding]]] = {
    "S1": _s1,
    "S2": _s2,
    "S3": _s3,
    "S4": _s4,
    "S5": _s5,
    "S6": _s6,
    "S7": _s7,
    "S8": _s8,
}
