"""Short, readable node names for human-facing output: prefixed names from the file's prefixes."""

from __future__ import annotations

import re

_IRI = re.compile(r"<([^<>\s]+)>")
_LOCAL_NAME = re.compile(r"^[A-Za-z0-9_]([A-Za-z0-9_\-.]*[A-Za-z0-9_\-])?$")


def compact(text: str, prefixes: dict[str, str]) -> str:
    """Replace every <IRI> in text by prefix:local when one of the prefixes covers it."""
    by_length = sorted(((ns, p) for p, ns in prefixes.items() if ns), key=lambda item: -len(item[0]))

    def shorten(match: re.Match) -> str:
        iri = match[1]
        for namespace, prefix in by_length:
            if iri.startswith(namespace) and _LOCAL_NAME.match(iri[len(namespace) :]):
                return f"{prefix}:{iri[len(namespace) :]}"
        return match[0]

    return _IRI.sub(shorten, text)
