"""Validation: choose the rules, run them on each file's KB, stamp and locate the findings."""

from __future__ import annotations

import importlib.resources
import os
import re
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from functools import lru_cache, partial

import pyoxigraph as ox

from aifcheck.choices import choose, did_you_mean
from aifcheck.errors import InputError, UsageError, printable
from aifcheck.loading.kb import INPUT_FORMATS, KB, STORES, Limits, load_kb
from aifcheck.loading.lines import Term
from aifcheck.loading.paths import discover
from aifcheck.names import AIDA, check_condition, check_task, condition_of
from aifcheck.spread.parallel import Spread, map_files
from aifcheck.validation.catalog import Catalog, Rule, Severity
from aifcheck.validation.engine import ENGINES, Executor, RawResult, RuleFailure, get_executor
from aifcheck.validation.report import FileError, FileReport, Report, Violation
from aifcheck.validation.shapes import load_catalog


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
    max_size: int | None = None  # bytes a file may hold (gunzipped); None: refuse only decompression bombs
    store: str = "auto"  # where each file's triples go: auto (by the memory available), memory or disk
    scheduler: str | None = None  # a Dask distributed scheduler's address: files go to its workers
    ship_files: bool = False  # with a scheduler: send the files' bytes instead of their paths
    file_timeout: float | None = (
        None  # with a scheduler: seconds a file may take on a worker (None: cluster.FILE_TIMEOUT)
    )
    input_format: str | None = None  # the parser of every file (loading.kb.INPUT_FORMATS), whatever its name says

    def __post_init__(self) -> None:
        # names in any case ("NIST", "TA2"), as the command line takes them
        for name, known, what in (
            ("engine", ENGINES, "engine"),
            ("store", STORES, "store"),
            ("input_format", INPUT_FORMATS, "input format"),
        ):
            if getattr(self, name) is not None:
                object.__setattr__(self, name, choose(getattr(self, name), known, what))
        if self.task is not None:
            object.__setattr__(self, "task", check_task(self.task))
        # the Python API accepts "info" for Severity.INFO, and lists for the sets
        if isinstance(self.min_severity, str):
            object.__setattr__(self, "min_severity", Severity.parse(self.min_severity))
        if self.select is not None and not isinstance(self.select, frozenset):
            object.__setattr__(
                self, "select", frozenset([self.select] if isinstance(self.select, str) else self.select)
            )
        if not isinstance(self.ignore, frozenset):
            object.__setattr__(
                self, "ignore", frozenset([self.ignore] if isinstance(self.ignore, str) else self.ignore)
            )

    def rules(self, catalog: Catalog) -> list[Rule]:
        """The rules this run executes, in catalogue order; UsageError when the options are wrong
        or leave nothing to check."""
        self._check_values()
        profile = choose(self.profile, catalog.profiles, "profile")
        if profile != self.profile:  # named in another case
            return replace(self, profile=profile).rules(catalog)
        runnable = [rule for rule in catalog.rules_for(self.profile) if rule.kind == "shape"]
        if not runnable:
            raise UsageError(
                f"profile '{self.profile}' has no rules for RDF files: its rules check a TA3 submission "
                "folder (aifcheck lint-submission)"
            )
        selected = self._named(catalog, self.select, runnable, "--select") if self.select is not None else None
        ignored = self._named(catalog, self.ignore, runnable, "--ignore")
        chosen = [
            rule
            for rule in runnable
            if (selected is None or rule.id in selected) and rule.id not in ignored and self._applies(rule)
        ]
        if not chosen:
            raise UsageError(f"these options leave no rule to run ({self._describe()})")
        return chosen

    def _check_values(self) -> None:
        if self.condition is not None:
            check_condition(self.condition)
        if self.max_violations is not None and self.max_violations < 1:
            raise UsageError("--max-violations must be at least 1")
        if self.max_size is not None and self.max_size < 1:
            raise UsageError("--max-size must be at least 1 byte")

    def _applies(self, rule: Rule) -> bool:
        """Whether the rule runs with this task, condition and lowest severity."""
        return (
            rule.severity >= self.min_severity
            and (rule.task is None or rule.task == self.task)
            and (self.condition is None or self.condition not in rule.skip_conditions)
        )

    def _named(self, catalog: Catalog, names: frozenset[str], runnable: list[Rule], option: str) -> set[str]:
        """The rule IDs that --select or --ignore names; naming a rule this run cannot check is an error."""
        in_profile = {rule.id for rule in runnable}
        # what a user may name: a rule, a family (N13) or a group (N), in any case
        nameable = {*catalog.rules, *(rule.family for rule in catalog.rules.values()), *(i[0] for i in catalog.rules)}
        chosen: set[str] = set()
        for name in sorted(names):
            for typed in filter(None, (part.strip() for part in name.split(","))):
                ident = choose(typed, nameable, "rule ID")
                hits = catalog.resolve([ident])
                if not hits & in_profile:
                    raise UsageError(f"{option} {ident}: {self._why_not(catalog, ident, hits)}")
                if option == "--select" and hits == {ident} and not self._applies(catalog.rules[ident]):
                    raise UsageError(f"{option} {ident}: {self._why_skipped(catalog.rules[ident])}")
                chosen |= hits & in_profile
        return chosen

    def _why_not(self, catalog: Catalog, ident: str, hits: set[str]) -> str:
        if hits != {ident}:
            return f"names no rule of profile '{self.profile}'"
        rule = catalog.rules[ident]
        if rule.kind == "unchecked":
            return f"rule {ident} is not checked: {rule.unchecked_reason}"
        if rule.kind == "submission":
            return f"rule {ident} checks a TA3 submission folder: run it with aifcheck lint-submission"
        return (
            f"rule {ident} belongs to profile '{rule.profile}', not to '{self.profile}' (use --profile {rule.profile})"
        )

    def _why_skipped(self, rule: Rule) -> str:
        if rule.severity < self.min_severity:
            return f"rule {rule.id} is a {rule.severity.label}, below --severity {self.min_severity.label}"
        if rule.task is not None and rule.task != self.task:
            return f"rule {rule.id} runs only with --task {rule.task}"
        return f"rule {rule.id} does not apply to condition {self.condition}"

    def _describe(self) -> str:
        parts = [f"profile {self.profile}"]
        if self.select is not None:
            parts.append("--select " + ",".join(sorted(self.select)))
        if self.ignore:
            parts.append("--ignore " + ",".join(sorted(self.ignore)))
        parts.append(f"--severity {self.min_severity.label}")
        if self.task is not None:
            parts.append(f"--task {self.task}")
        if self.condition is not None:
            parts.append(f"--condition {self.condition}")
        return ", ".join(parts)


def validate(source: str | os.PathLike | Iterable[str | os.PathLike], profile: str = "nist", **options) -> Report:
    """Validate files, directories, globs or an rdflib Graph against a profile.

    ``options`` are the fields of :class:`Options` (select, ignore, min_severity, strict,
    max_violations, task, condition, engine, jobs, max_size, store). Bad options raise UsageError.
    """
    opts = Options(profile=profile, **options)
    rdflib = sys.modules.get("rdflib")  # only a caller who has rdflib can hand over a Graph
    if rdflib is not None and isinstance(source, rdflib.Graph):
        from aifcheck.loading.terms import kb_from_graph

        started = time.perf_counter()
        checker = Checker(opts, load_catalog())
        checker.rules()  # usage errors before the graph is copied
        report = Report(profile, strict=opts.strict)
        try:
            kb = kb_from_graph(source)
        except InputError as exc:
            report.files.append(FileReport(exc.path, error=FileError(exc.path, str(exc))))
        else:
            with kb:
                report.files.append(check_kb(kb, checker))
        report.seconds = time.perf_counter() - started
        return report
    paths = [source] if isinstance(source, (str, os.PathLike)) else list(source)
    return validate_paths([str(p) for p in paths], opts)


# (path, phase, done, total): the phase is "checking", or reading into the store chosen (READING)
FileProgress = Callable[[str, str, int, int], None]
READING = {"memory": "reading into memory", "disk": "reading into an on-disk store"}


def validate_paths(
    args: list[str],
    opts: Options,
    progress: Callable[[FileReport, int, int], None] | None = None,
    file_progress: FileProgress | None = None,
) -> Report:
    """Validate every file the arguments name (files, folders, globs, "-" for standard input)."""
    Checker(opts, load_catalog()).rules()  # raise usage errors before any file is read
    files, problems = discover(args)
    return validate_files(files, [FileError(p.path, str(p)) for p in problems], opts, progress, file_progress)


def validate_files(
    files: list[str],
    input_errors: list[FileError],
    opts: Options,
    progress: Callable[[FileReport, int, int], None] | None = None,
    file_progress: FileProgress | None = None,
    catalog: Catalog | None = None,
) -> Report:
    """Validate files, in their order. ``progress`` hears of each file as it is done;
    ``file_progress`` of the reading and checking inside a file (when files run one at a time).
    ``catalog``: the rules to choose from (by default the shipped catalogue)."""
    started = time.perf_counter()
    checker = Checker(opts, catalog or load_catalog())
    checker.rules()  # usage errors before any file is read
    report = Report(opts.profile, strict=opts.strict, input_errors=list(input_errors))
    for i, file_report in enumerate(_map_files(files, checker, file_progress), start=1):
        report.files.append(file_report)
        if progress is not None:
            progress(file_report, i, len(files))
    report.seconds = time.perf_counter() - started
    return report


def _map_files(files: list[str], checker: Checker, file_progress: FileProgress | None) -> Iterable[FileReport]:
    opts = checker.options
    spread = Spread(opts.jobs, opts.scheduler, opts.ship_files, opts.file_timeout)
    if not spread.in_processes(len(files)):  # here, where a file's own progress can be shown
        spread.check()
        for path in files:
            yield validate_file(path, opts, file_progress, checker=checker)
        return
    spread_checker = Checker(opts, checker.catalog, spread.threads())
    yield from map_files(partial(validate_file, opts=opts, checker=spread_checker), files, _lost, spread)


def _lost(path: str, reason: str) -> FileReport:
    return FileReport(path, error=FileError(path, str(InputError(path, reason))))


def validate_file(
    path: str,
    opts: Options,
    progress: FileProgress | None = None,
    threads: int | None = None,
    checker: Checker | None = None,
) -> FileReport:
    """Load one file and run every selected rule on it; an unreadable file becomes a FileError.
    ``checker``: what the run checks files with (by default the shipped catalogue's rules for
    ``opts``, their queries run on ``threads``, by default one per core). A TA3 claim frame with no
    --condition takes the condition of the ConditionN folder it is in."""
    started = time.perf_counter()
    checker = checker or Checker(opts, load_catalog(), threads)
    condition = condition_of(path) if opts.profile == "ta3" and opts.condition is None else opts.condition
    reading, on_store = None, None
    if progress is not None:
        phase = "reading"

        def on_store(store: str) -> None:
            nonlocal phase
            phase = READING[store]

        def reading(done: int, total: int) -> None:
            progress(path, phase, done, total)

    try:
        kb = load_kb(
            path, reading, Limits(max_size=opts.max_size), opts.store, on_store, input_format=opts.input_format
        )
    except InputError as exc:
        return FileReport(path, error=FileError(path, str(exc)), seconds=time.perf_counter() - started)
    with kb:
        file_report = check_kb(kb, checker, partial(progress, path, "checking") if progress else None, condition)
    file_report.seconds = time.perf_counter() - started
    return file_report


class Checker:
    """What every file of a run is checked with, chosen once: the catalogue, the rules the options
    select (for each TA3 condition a file may be in), and the executor that runs them. Sent to a
    worker process as its options alone: the worker uses the catalogue it ships with."""

    def __init__(self, options: Options, catalog: Catalog, threads: int | None = None) -> None:
        self.options, self.catalog, self.threads = options, catalog, threads
        self._rules: dict[int | None, list[Rule]] = {}
        self._executor: Executor | None = None

    def rules(self, condition: int | None = None) -> list[Rule]:
        """The rules a file of this condition runs (the options' own condition when it has one)."""
        condition = self.options.condition if self.options.condition is not None else condition
        if condition not in self._rules:
            self._rules[condition] = replace(self.options, condition=condition).rules(self.catalog)
        return self._rules[condition]

    @property
    def executor(self) -> Executor:
        if self._executor is None:
            self._executor = get_executor(self.options.engine, self.threads)
        return self._executor

    def __reduce__(self):
        return (_shipped_checker, (self.options, self.threads))


def _shipped_checker(options: Options, threads: int | None) -> Checker:
    return Checker(options, load_catalog(), threads)


def check_kb(
    kb: KB, checker: Checker, progress: Callable[[int, int], None] | None = None, condition: int | None = None
) -> FileReport:
    """Run the checker's rules (for a file of this TA3 condition) on one KB, and locate what they find."""
    opts, rules = checker.options, checker.rules(condition)
    by_id = {rule.id: rule for rule in rules}
    file_report = FileReport(kb.path, triples=len(kb), prefixes=kb.prefixes)
    seen: set[tuple[str, Term, str]] = set()
    found: list[RawResult] = []
    errors = 0
    current_rule = None
    for result in checker.executor.run(kb, rules, checker.catalog, progress):
        if result.rule_id != current_rule:  # results come rule by rule: stop between rules
            if opts.max_violations is not None and errors >= opts.max_violations:
                file_report.truncated_after = opts.max_violations
                break
            current_rule = result.rule_id
        if isinstance(result, RuleFailure):
            if all(
                e.rule_id != result.rule_id for e in file_report.rule_errors
            ):  # one per rule, the first of its checks
                file_report.rule_errors.append(FileError(kb.path, f"{kb.path}: {result.message}", result.rule_id))
            continue
        key = (result.rule_id, result.focus, result.message)
        if key in seen:  # the same finding reached through two targets or two solutions
            continue
        seen.add(key)
        errors += by_id[result.rule_id].severity == Severity.ERROR
        found.append(result)
    file_report.violations = sorted(_violation(kb, by_id[result.rule_id], result) for result in found)
    file_report.notes += namespace_notes(kb)
    if opts.profile != "ta3" and _holds_claims(kb):
        file_report.notes.append(
            "it holds claim frames (aida:Claim): the rules of claim frames were not run (give --profile ta3)"
        )
    if opts.max_violations is not None and len(file_report.violations) > opts.max_violations:
        # keep the N most severe findings, shown in file order
        kept = sorted(file_report.violations, key=lambda v: -v.severity)[: opts.max_violations]
        file_report.violations = sorted(kept)
        file_report.truncated_after = opts.max_violations
    return file_report


def namespace_notes(kb: KB) -> list[str]:
    """What a file's AIF namespace means for its check: one line for each older namespace of AIF it
    uses (its terms are not the ones the rules check), or one saying that it holds no AIF at all."""
    used = {str(row["namespace"].value): row["era"].value for row in kb.store.query(_namespace_query())}
    if not used:
        return [
            f"it holds no AIF: no core term (aida:Entity, aida:confidence, ...) of <{AIDA}> nor of an older AIF"
            " namespace"
        ]
    return [
        f"it uses the AIF namespace {era} <{namespace}>, not the one checked (<{AIDA}>): its terms are not checked"
        for namespace, era in sorted(used.items())
        if namespace != AIDA
    ]


@lru_cache(maxsize=1)
def _namespace_query() -> str:
    return (importlib.resources.files("aifcheck.queries") / "aifcheck_aif_namespaces.rq").read_text(encoding="utf-8")


_CLAIM = (ox.NamedNode("http://www.w3.org/1999/02/22-rdf-syntax-ns#type"), ox.NamedNode(f"{AIDA}Claim"))


def _holds_claims(kb: KB) -> bool:
    return next(iter(kb.store.quads_for_pattern(None, *_CLAIM, ox.DefaultGraph())), None) is not None


_BNODE_REF = re.compile(r"<([A-Za-z0-9_\-.]+)>")


def _violation(kb: KB, rule: Rule, result: RawResult) -> Violation:
    message = _locate_blank_nodes(kb, result.message)
    if rule.vocabulary and isinstance(result.value, ox.Literal):
        message += _suggestion(result.value.value, rule.vocabulary)
    # messages and nodes quote the file's values: escaped, so that a finding stays one clean line
    return Violation(
        file=kb.path,
        line=kb.line_of(result.focus) or 0,
        rule_id=rule.id,
        focus=printable(node_text(kb, result.focus)),
        severity=rule.severity,
        message=printable(message),
        plan_ref=rule.plan_ref,
        value=printable(node_text(kb, result.value))
        if result.value is not None and result.value != result.focus
        else None,
    )


@lru_cache(maxsize=1024)
def _suggestion(text: str, vocabulary: tuple[str, ...]) -> str:
    """' (did you mean "X"?)' for the term of the vocabulary nearest to the text, if one is near."""
    return did_you_mean(text, vocabulary, most=1, cutoff=0.75, quoted=True)


def node_text(kb: KB, node: Term) -> str:
    """A node as findings show it: <iri>, a literal in N-Triples, a blank node by its line."""
    if isinstance(node, ox.BlankNode):
        line = kb.line_of(node)
        return f"[] (line {line})" if line else "[]"
    return str(node)


def _locate_blank_nodes(kb: KB, message: str) -> str:
    """Messages name blank nodes by parser IDs, meaningless to a user: say where they are instead."""

    def replace_id(match: re.Match) -> str:
        try:
            line = kb.line_of(ox.BlankNode(match[1]))
        except ValueError:  # not a blank node identifier after all
            return match[0]
        return f"[] (line {line})" if line else match[0]

    return _BNODE_REF.sub(replace_id, message)
