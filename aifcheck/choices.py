"""Names a user types (rule IDs, table names, profiles): matched without regard to case, and an
unknown one answered with the nearest known names."""

from __future__ import annotations

from collections.abc import Iterable

from aifcheck.errors import UsageError


def choose(name: str, known: Iterable[str], what: str) -> str:
    """The known name that ``name`` means, ignoring case; UsageError (with "did you mean") if none."""
    known = list(known)
    by_fold = {k.casefold(): k for k in known}
    found = by_fold.get(name.casefold())
    if found is None:
        raise UsageError(f"unknown {what} '{name}'{did_you_mean(name, known)}")
    return found


def did_you_mean(name: str, known: Iterable[str], most: int = 3, cutoff: float = 0.6, quoted: bool = False) -> str:
    """ " (did you mean X or Y?)" for the nearest known names (at most ``most``, quoted when asked),
    or "" when none is near."""
    import difflib  # only when a name is unknown: not imported by every run

    by_fold = {k.casefold(): k for k in known}
    near = [by_fold[m] for m in difflib.get_close_matches(name.casefold(), by_fold, n=most, cutoff=cutoff)]
    if not near:
        return ""
    return f" (did you mean {' or '.join(f'{chr(34)}{n}{chr(34)}' if quoted else n for n in near)}?)"
