"""The fast executor: each SPARQL constraint compiled into one whole-graph query on pyoxigraph.

SHACL evaluates a SPARQL constraint once per focus node with $this pre-bound (pySHACL
re-parses the query each time). Here the rule's targets become a DISTINCT sub-select
joined as the first member of the query's top-level group, so a single query finds every
violating focus node. The shapes keep to the one convention that makes this equivalent:
$this is never used inside a sub-select or MINUS (tests/test_shapes.py checks it). A constraint
marked aifc:targetsLast keeps its body first and tests each solution's $this against the
targets (FILTER EXISTS), which is faster when the body is selective and binds $this. A constraint
whose body implies its targets (Constraint.implies_targets) is run as written. A constraint marked
aifc:antiJoin has its FILTER NOT EXISTS run as MINUS (see anti_joins).
"""
from __future__ import annotations

import os
import pickle
import re
import signal
import sys
import threading
from collections.abc import Callable, Generator, Iterator, Sequence
from typing import BinaryIO, TypeVar

from ..catalog import GROUP_CONCAT, Catalog, Constraint, Rule, Target
from ...loading.kb import KB
from .base import RawResult, RuleFailure, fill_message

T = TypeVar("T")
R = TypeVar("R")

# GROUP_CONCAT joins with this instead of the shape's separator, which an item may contain
# (a literal "b, a"): the items are split back, sorted, and joined with the shape's separator
_UNIT_SEPARATOR = "\x1f"
_WHERE = re.compile(r"\bWHERE\s*\{", re.IGNORECASE)

# The shapes test a variable against a list of IRIs with FILTER (?p IN (...)), as SHACL forbids
# VALUES in constraints. For pyoxigraph a VALUES block is the same join (the variable is bound
# by a triple pattern of the same group) but an index lookup instead of a scan: 25% faster.
_IN_LIST = re.compile(r"FILTER\s*\((\?\w+) IN \(((?:\s*(?:[A-Za-z][\w-]*:[\w.-]*|<[^<>\s]*>)\s*,?)+)\)\)")

# Braces, what may hold a brace that is not one (strings, IRIs, comments, skipped whole), and the
# braces that open an EXISTS: a FILTER of its own that holds only NOT EXISTS, or any other EXISTS
_BRACE_TOKEN = re.compile(
    r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'|<[^<>\s]*>|#[^\n]*'
    r"|(?P<not_exists>\bFILTER\s+NOT\s+EXISTS\s*\{)|(?P<exists>\bEXISTS\s*\{)|[{}]",
    re.IGNORECASE,
)

_TARGET_PATTERNS = {
    "class": "?this <http://www.w3.org/1999/02/22-rdf-syntax-ns#type>/<http://www.w3.org/2000/01/rdf-schema#subClassOf>* <{}>",
    "node": "VALUES ?this {{ <{}> }}",
    "subjectsOf": "?this <{}> ?aifc_target_other",
    "objectsOf": "?aifc_target_other <{}> ?this",
}


def compile_constraint(targets: tuple[Target, ...], constraint: Constraint, prefixes: tuple[tuple[str, str], ...]) -> str:
    """The whole-graph query for one constraint of one rule."""
    header = "".join(f"PREFIX {p}: <{ns}>\n" for p, ns in prefixes)
    body = _IN_LIST.sub(lambda m: f"VALUES {m[1]} {{ {' '.join(m[2].replace(',', ' ').split())} }}", constraint.select)
    body = GROUP_CONCAT.sub(_join_with_unit_separator, body)
    match = _WHERE.search(body)
    if match is None:
        raise ValueError("SPARQL constraint has no WHERE clause")
    query = header + _with_targets(targets, constraint, body, match)
    return anti_joins(query)[0] if constraint.anti_join else query


def _with_targets(targets: tuple[Target, ...], constraint: Constraint, body: str, match: re.Match) -> str:
    if constraint.implies_targets:
        return body
    union = " UNION ".join("{ " + _TARGET_PATTERNS[t.kind].format(t.term) + " }" for t in targets)
    if constraint.targets_last:  # one index look-up per solution of the body
        end = _group_end(body, match.end() - 1)
        return body[:end] + f"\nFILTER EXISTS {{ {union} }}\n" + body[end:]
    focus = f"{{ SELECT DISTINCT ?this WHERE {{ {union} }} }}\n"
    return body[: match.end()] + "\n" + focus + body[match.end():]


def anti_joins(query: str) -> tuple[str, list[str]]:
    """The query with each ``FILTER NOT EXISTS { P }`` that no other EXISTS holds moved to the end
    of its group as ``MINUS { P }``, and the patterns moved (``{ P }``). SHACL-SPARQL forbids MINUS
    in a shape, yet pyoxigraph runs it as one hash anti-join, where NOT EXISTS looks P up once per
    solution: 7x faster for A3's check of what a justification points to, at 1M triples. The two
    agree when every solution binds a variable of P and P tests only variables it binds itself
    (catalog_build checks); a FILTER holds for its whole group, so the MINUS goes at the group's end."""
    frames: list[tuple[str, int, list[str]]] = []  # per open brace: its kind, its offset, the MINUS moved to its end
    edits: list[tuple[int, int, str]] = []  # (start, end, replacement)
    moved: list[str] = []
    for token in _BRACE_TOKEN.finditer(query):
        if token["not_exists"] or token["exists"]:
            nested = any(kind != "group" for kind, _, _ in frames)
            kind = "not_exists" if token["not_exists"] and not nested else "exists"
            frames.append((kind, token.start(), []))
        elif token[0] == "{":
            frames.append(("group", token.start(), []))
        elif token[0] == "}":
            kind, start, minus = frames.pop()
            if kind == "not_exists":
                moved.append(query[query.index("{", start) : token.end()])
                edits.append((start, token.end(), ""))
                frames[-1][2].append(f"MINUS {moved[-1]}")
            elif minus:
                edits.append((token.start(), token.start(), "\n" + "\n".join(minus) + "\n"))
    pieces, kept = [], 0
    for start, end, replacement in sorted(edits):
        pieces += (query[kept:start], replacement)
        kept = end
    pieces.append(query[kept:])
    return "".join(pieces), moved


def holds_exists(pattern: str) -> bool:
    """Whether SPARQL text holds an EXISTS (outside strings, IRIs and comments)."""
    return any(token["exists"] or token["not_exists"] for token in _BRACE_TOKEN.finditer(pattern))


def _join_with_unit_separator(match: re.Match) -> str:
    start, end = (offset - match.start() for offset in match.span("sep"))
    return match[0][:start] + _UNIT_SEPARATOR + match[0][end:]


def _group_end(query: str, start: int) -> int:
    """The offset of the "}" that closes the group opened at ``start``."""
    depth = 0
    for token in _BRACE_TOKEN.finditer(query, start):
        if token[0] == "{" or token["exists"] or token["not_exists"]:
            depth += 1
        elif token[0] == "}":
            depth -= 1
            if depth == 0:
                return token.start()
    raise ValueError("SPARQL constraint: unbalanced braces")


# A small file's queries spend a fourth of their time being parsed and planned, with the GIL
# held: on threads they overlap poorly (NIST's 11k-triple KB: 87 ms on one thread, 71 ms on two).
# Copies of the process made by fork run them side by side (60 ms) and send their results back
# pickled. Only where fork is safe: Linux, an in-memory store (an on-disk one has threads of its
# own), no other thread in this process. Larger files evaluate longer, and threads overlap as well
# (100k triples: 0.70 s on two threads, 0.73 s forked); they also report progress query by query.
FORK_LIMIT = 50_000  # quads


def _can_fork(kb: KB) -> bool:
    return sys.platform.startswith("linux") and not kb.on_disk and len(kb) <= FORK_LIMIT and threading.active_count() == 1


_TICKET = 4  # bytes: the index of a check, claimed whole by one read of the pipe that holds them


def _in_forks(
    solve: Callable[[T], R], checks: list[T], processes: int, order: Sequence[int] | None = None
) -> Generator[R, None, None]:
    """``solve(check)`` for every check, yielded in the order of ``checks``. This process and
    ``processes - 1`` forked copies of it claim the checks one at a time from a pipe that holds
    their indexes in ``order`` (by default the checks' own), so that whichever is free takes the
    next and all finish together. A check that no copy reports (a copy that failed or could not be
    made, or more checks than the pipe holds) is solved here."""
    try:
        tickets, write = os.pipe()
    except OSError:  # no file descriptor to spare
        yield from map(solve, checks)
        return
    children: list[tuple[int, BinaryIO]] = []
    reaped: set[int] = set()
    try:
        os.set_blocking(write, False)  # what a full pipe cannot take is left unclaimed
        try:
            os.write(write, b"".join(i.to_bytes(_TICKET, "little") for i in (order or range(len(checks)))))
        except BlockingIOError:
            pass
        os.close(write)
        for _ in range(processes - 1):
            try:
                read, send = os.pipe()
            except OSError:
                break
            try:
                pid = os.fork()
            except OSError:  # no process to spare
                os.close(read)
                os.close(send)
                break
            if pid == 0:  # the copy: what it solved into the pipe, then gone without the parent's clean-up
                try:
                    os.close(read)
                    with os.fdopen(send, "wb") as pipe:
                        pickle.dump([(i, solve(checks[i])) for i in _claimed(tickets)], pipe, protocol=pickle.HIGHEST_PROTOCOL)
                finally:
                    os._exit(0)
            os.close(send)
            children.append((pid, os.fdopen(read, "rb")))
        outcomes = {i: solve(checks[i]) for i in _claimed(tickets)}
        for pid, pipe in children:
            try:
                found = pickle.load(pipe)
            except (EOFError, OSError, pickle.UnpicklingError):
                found = []  # its checks are solved here
            pipe.close()
            os.waitpid(pid, 0)
            reaped.add(pid)
            outcomes.update(found)
        for index, check in enumerate(checks):
            yield outcomes[index] if index in outcomes else solve(check)
    finally:  # stopped early, or failed: no copy outlives the run
        os.close(tickets)
        for pid, pipe in children:
            pipe.close()
            if pid not in reaped:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)


def _claimed(tickets: int) -> Iterator[int]:
    """The indexes this process claims, one read of the ticket pipe each, until none is left."""
    while len(ticket := os.read(tickets, _TICKET)) == _TICKET:
        yield int.from_bytes(ticket, "little")


class FastExecutor:
    name = "fast"

    def __init__(self, threads: int | None = None) -> None:
        self.threads = threads or os.cpu_count() or 1  # threads that run one file's queries

    def run(
        self, kb: KB, rules: list[Rule], catalog: Catalog, progress: Callable[[int, int], None] | None = None
    ) -> Iterator[RawResult | RuleFailure]:
        store = kb.store
        checks = [(rule, index, constraint) for rule in rules for index, constraint in enumerate(rule.constraints)]

        def solve(check: tuple[Rule, int, Constraint]) -> tuple[list[str], list] | Exception:
            try:
                solutions = store.query(catalog.queries[check[0].id, check[1]])
                return [v.value for v in solutions.variables], [tuple(row) for row in solutions]  # (picklable)
            except (OSError, SyntaxError, ValueError, RuntimeError) as exc:
                return exc

        # pyoxigraph releases the GIL while it evaluates, so queries run on all cores at once;
        # results are still yielded rule by rule, in order. On one thread they run here: handing
        # queries to a pool thread costs a tenth more CPU (measured on 6k-triple documents)
        pool = None
        if self.threads > 1 and _can_fork(kb):
            # the longest queries first (the closed shapes' O10 is the longest and the slowest: a
            # query's length says roughly what it costs), so that short ones are left to even out the end
            longest = sorted(range(len(checks)), key=lambda i: -len(catalog.queries[checks[i][0].id, checks[i][1]]))
            outcomes: Iterator = _in_forks(solve, checks, self.threads, longest)
        elif self.threads > 1:
            from concurrent.futures import ThreadPoolExecutor  # (with logging, 3 ms a forked run does without)

            pool = ThreadPoolExecutor(max_workers=self.threads, thread_name_prefix="aifcheck-query")
            outcomes = pool.map(solve, checks)
        else:
            outcomes = map(solve, checks)
        try:
            for done, ((rule, index, constraint), outcome) in enumerate(zip(checks, outcomes), start=1):
                if progress is not None:
                    progress(done, len(checks))
                if isinstance(outcome, Exception):
                    yield RuleFailure(rule.id, f"check failed: {outcome}")
                    continue
                variables, rows = outcome
                for row in rows:
                    yield self._result(rule, index, constraint, variables, row)
        finally:  # the caller may stop early (--max-violations): drop the queries not yet started
            if isinstance(outcomes, Generator):
                outcomes.close()
            if pool is not None:
                pool.shutdown(wait=True, cancel_futures=True)

    @staticmethod
    def _result(rule: Rule, index: int, constraint: Constraint, variables: list[str], row) -> RawResult:
        bound = {name: term for name, term in zip(variables, row) if term is not None}
        focus = bound["this"]
        # a message shows a term by its value, a blank node by its identifier (as pySHACL does)
        texts = {k: v.value for k, v in bound.items()}
        for var, separator in constraint.lists:
            if var in texts:  # sorted, so that the message is the same from run to run
                texts[var] = separator.join(sorted(texts[var].split(_UNIT_SEPARATOR)))
        message = fill_message(constraint.message, texts)
        return RawResult(rule.id, index, focus, bound.get("value", focus), message)
