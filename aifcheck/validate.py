"""Validation: choose the rules, run them on each file, stamp and locate the findings."""
from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from functools import partial

import rdflib
from rdflib.term import BNode, Node

from .catalog import Catalog, Rule, Severity, load_catalog
from .engine import RuleFailure, get_executor
from .engine.base import Loaded
from .errors import InputError, UsageError
from .indexed import load_indexed
from .parsing import LoadedGraph, discover, load, quiet_rdflib
from .report import FileError, FileReport, Report, Violation

TASKS = ("ta1", "ta2", "ta3")
CONDITIONS = (5, 6, 7)
ENGINES = ("fast", "reference")


@dataclass(frozen=True)
class Options:
    """Everything that decides what a run checks and shows."""

    profile: str = "nist"
    select: frozenset[str] | None = None  # rule IDs or families; None = all of the profile
    ignore: frozenset[str] = frozenset()
    min_severity: Severity = Severity.WARNING
    strict: bool = False
    max_violations: int | None = None
    task: str | None = None
    condition: int | None = None
    engine: str = "fast"
    jobs: int = 1

    def __post_init__(self) -> None:
        if isinstance(self.min_severity, str):  # the Python API accepts "info" as well as Severity.INFO
            object.__setattr__(self, "min_severity", Severity.parse(self.min_severity))

    def rules(self, catalog: Catalog) -> list[Rule]:
        """The checked rules this run executes, in catalogue order."""
        if self.task is not None and self.task not in TASKS:
            raise UsageError(f"unknown task '{self.task}' (choose {', '.join(TASKS)})")
        if self.condition is not None and self.condition not in CONDITIONS:
            raise UsageError(f"unknown condition '{self.condition}' (choose 5, 6 or 7)")
        if self.engine not in ENGINES:
            raise UsageError(f"unknown engine '{self.engine}' (choose {' or '.join(ENGINES)})")
        if self.max_violations is not None and self.max_violations < 1:
            raise UsageError("--max-violations must be at least 1")
        selected = catalog.resolve(sorted(self.select)) if self.select is not None else None
        ignored = catalog.resolve(sorted(self.ignore))
        return [
            rule
            for rule in catalog.rules_for(self.profile)
            if rule.kind == "shape"
            and (selected is None or rule.id in selected)
            and rule.id not in ignored
            and rule.severity >= self.min_severity
            and (rule.task is None or rule.task == self.task)
            and (self.condition is None or self.condition not in rule.skip_conditions)
        ]


def validate(
    source: str | os.PathLike | rdflib.Graph | Iterable[str | os.PathLike],
    profile: str = "nist",
    **options,
) -> Report:
    """Validate files, directories, globs or an rdflib Graph against a profile.

    ``options`` are the fields of :class:`Options` (select, ignore, min_severity, strict,
    max_violations, task, condition, engine, jobs). Bad options raise UsageError.
    """
    opts = Options(profile=profile, **options)
    with quiet_rdflib():
        if isinstance(source, rdflib.Graph):
            started = time.perf_counter()
            report = Report(profile, strict=opts.strict)
            report.files.append(check_loaded(LoadedGraph("<graph>", source), opts))
            report.seconds = time.perf_counter() - started
            return report
        paths = [source] if isinstance(source, (str, os.PathLike)) else list(source)
        return validate_paths([str(p) for p in paths], opts)


FileProgress = Callable[[str, str, int, int], None]  # (path, "reading" or "checking", done, total)


def validate_paths(
    args: list[str],
    opts: Options,
    progress: Callable[[FileReport, int, int], None] | None = None,
    file_progress: FileProgress | None = None,
) -> Report:
    """Validate every file the arguments name. ``progress`` hears of each finished file;
    ``file_progress`` of the reading and checking inside a file (when files run one at a time)."""
    started = time.perf_counter()
    opts.rules(load_catalog())  # raise usage errors before any file is read
    files, problems = discover(args)
    report = Report(opts.profile, strict=opts.strict)
    report.input_errors = [FileError(p.path, str(p)) for p in problems]
    for i, file_report in enumerate(_map_files(files, opts, file_progress), start=1):
        report.files.append(file_report)
        if progress is not None:
            progress(file_report, i, len(files))
    report.seconds = time.perf_counter() - started
    return report


def _map_files(files: list[str], opts: Options, file_progress: FileProgress | None) -> Iterable[FileReport]:
    if opts.jobs > 1 and len(files) > 1:
        # the processes share the cores: each runs its file's queries on its share of them
        threads = max(1, (os.cpu_count() or 1) // opts.jobs)
        with ProcessPoolExecutor(max_workers=opts.jobs) as pool:
            yield from pool.map(partial(validate_file, threads=threads), files, [opts] * len(files), chunksize=1)
    else:
        for path in files:
            yield validate_file(path, opts, file_progress)


def validate_file(path: str, opts: Options, progress: FileProgress | None = None, threads: int | None = None) -> FileReport:
    """Load one file and run every selected rule on it; unreadable files become a FileError.
    ``threads`` run the file's queries (fast engine), by default one per core."""
    started = time.perf_counter()
    # most files have no finding, and only findings need lines: a small file is first loaded
    # without them (40% faster) and loaded again with them at its first finding, when the
    # rules that ran before it (and found nothing) are not run again
    for lines in (False, True):
        try:
            loaded = _load(path, opts, partial(progress, path, "reading") if progress else None, lines)
        except InputError as exc:
            return FileReport(path, error=FileError(path, str(exc)), seconds=time.perf_counter() - started)
        try:
            file_report = check_loaded(loaded, opts, partial(progress, path, "checking") if progress else None, threads)
            break
        except Unlocated as first:
            opts = replace(opts, ignore=opts.ignore | first.clean_rules)
        finally:
            loaded.close()  # an on-disk store is deleted now, not at exit
    file_report.seconds = time.perf_counter() - started
    return file_report


def _load(path: str, opts: Options, progress: Callable[[int, int], None] | None, lines: bool) -> Loaded:
    """The fast executor reads a store parsed by pyoxigraph; pySHACL needs an rdflib Graph, and
    so does a file pyoxigraph cannot parse (rdflib's syntax errors give the column)."""
    loaded = load_indexed(path, progress, lines) if opts.engine == "fast" else None
    return loaded if loaded is not None else load(path)


class Unlocated(Exception):
    """A finding in a file loaded without its lines; ``clean_rules`` ran before it and found nothing."""

    def __init__(self, clean_rules: frozenset[str]) -> None:
        super().__init__()
        self.clean_rules = clean_rules


def check_loaded(
    loaded: Loaded, opts: Options, progress: Callable[[int, int], None] | None = None, threads: int | None = None
) -> FileReport:
    """Run the selected rules on one loaded file. A store loaded without its lines cannot show a
    finding where it is: its first finding raises Unlocated."""
    catalog = load_catalog()
    rules = opts.rules(catalog)
    by_id = {rule.id: rule for rule in rules}
    file_report = FileReport(loaded.path, triples=len(loaded), prefixes=loaded.prefixes)
    seen: set[tuple[str, Node, str]] = set()
    errors = 0
    current_rule = None
    stopped = False
    for result in get_executor(opts.engine, threads).run(loaded, rules, catalog, progress):
        if not loaded.located:  # (results come in the order of the rules)
            raise Unlocated(frozenset(rule.id for rule in rules[: rules.index(by_id[result.rule_id])]))
        if result.rule_id != current_rule:  # results come rule by rule: stop between rules
            if opts.max_violations is not None and errors >= opts.max_violations:
                stopped = True
                break
            current_rule = result.rule_id
        if isinstance(result, RuleFailure):
            file_report.rule_errors.append(FileError(loaded.path, f"{loaded.path}: {result.message}", result.rule_id))
            continue
        key = (result.rule_id, result.focus, result.message)
        if key in seen:  # the same finding reached through two targets or two solutions
            continue
        seen.add(key)
        rule = by_id[result.rule_id]
        errors += rule.severity == Severity.ERROR
        file_report.violations.append(_violation(loaded, rule, result.focus, result.value, result.message))
    file_report.violations.sort()
    if opts.max_violations is not None and (stopped or len(file_report.violations) > opts.max_violations):
        # keep the N most severe findings, shown in file order
        kept = sorted(file_report.violations, key=lambda v: -v.severity)[: opts.max_violations]
        file_report.violations = sorted(kept)
        file_report.truncated_after = opts.max_violations
    return file_report


_BNODE_REF = re.compile(r"<([A-Za-z0-9_\-.]+)>")


def _violation(loaded: Loaded, rule: Rule, focus: Node, value: Node | None, message: str) -> Violation:
    return Violation(
        file=loaded.path,
        line=loaded.line_of(focus) or 0,
        rule_id=rule.id,
        focus=_node_text(loaded, focus),
        severity=rule.severity,
        message=_locate_blank_nodes(loaded, message),
        plan_ref=rule.plan_ref,
        value=_node_text(loaded, value) if value is not None and value != focus else None,
    )


def _node_text(loaded: Loaded, node: Node) -> str:
    if isinstance(node, BNode):
        line = loaded.line_of(node)
        return f"[] (line {line})" if line else "[]"
    return node.n3()


def _locate_blank_nodes(loaded: Loaded, message: str) -> str:
    """Messages name blank nodes by parser IDs, meaningless to a user: say where they are instead."""

    def replace_id(match: re.Match) -> str:
        line = loaded.line_of(BNode(match[1]))
        return f"[] (line {line})" if line else match[0]

    return _BNODE_REF.sub(replace_id, message)
