"""SPARQL text, read brace by brace: the groups of a query, its EXISTS, and the rewrite of a
FILTER NOT EXISTS into a MINUS. A tokenizer of its own: rdflib's parse tree drops what the
rewrite must keep (comments, nested filters) and pyoxigraph shows no parse tree at all."""

from __future__ import annotations

import re

# Braces, what may hold a brace that is not one (strings, IRIs, comments, skipped whole), and the
# braces that open an EXISTS: a FILTER of its own that holds only NOT EXISTS, or any other EXISTS
_BRACE_TOKEN = re.compile(
    r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'|<[^<>\s]*>|#[^\n]*'
    r"|(?P<not_exists>\bFILTER\s+NOT\s+EXISTS\s*\{)|(?P<exists>\bEXISTS\s*\{)|[{}]",
    re.IGNORECASE,
)


def anti_joins(query: str) -> tuple[str, list[str]]:
    """The query with each ``FILTER NOT EXISTS { P }`` that no other EXISTS holds moved to the end
    of its group as ``MINUS { P }``, and the patterns moved (``{ P }``). SHACL-SPARQL forbids MINUS
    in a shape, yet pyoxigraph runs it as one hash anti-join, where NOT EXISTS looks P up once per
    solution (CHANGELOG: the hinted constraints and what they gained). The two
    agree when every solution binds a variable of P and P tests only variables it binds itself
    (analysis.anti_join_problem checks); a FILTER holds for its whole group, so the MINUS goes at the group's end."""
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


def group_end(query: str, start: int) -> int:
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
