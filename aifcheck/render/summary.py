"""``aifcheck summary`` as text: one block per KB, and their total when there are several."""

from __future__ import annotations

from typing import TextIO

from aifcheck.errors import printable
from aifcheck.extract.summary import METATYPES, Summary


def render(summaries: list[Summary], out: TextIO, top: int) -> None:
    for summary in summaries:
        # names and types come from the KB: a control character (ESC, NUL) is shown as an escape,
        # never sent to the terminal
        out.write("\n".join(printable(line) for line in block(summary, top).split("\n")))


def block(summary: Summary, top: int) -> str:
    clusters = sum(summary.clusters.values())
    by_metatype = ", ".join(f"{summary.clusters.get(m, 0)} {m.lower()}" for m in METATYPES)
    mentions = sum(sum(modalities.values()) for modalities in summary.mentions.values())
    lines = [
        f"{summary.file} ({_count(summary.triples, 'triple')})",
        f"  clusters   {clusters}: {by_metatype}",
        f"  members    {summary.members}",
        f"  mentions   {mentions} in {_count(len(summary.mentions), 'document')}",
    ]
    for document, modalities in sorted(summary.mentions.items()):
        lines.append(
            f"               {document}: " + ", ".join(f"{n} {kind}" for kind, n in sorted(modalities.items()))
        )
    lines.append(f"  edges      {summary.edges}")
    most = summary.top_types(top)
    lines.append(f"  types      {len(summary.types)} distinct" + (f", the {len(most)} most used:" if most else ""))
    width = max((len(t) for t, _ in most), default=0)
    lines += [f"               {t:<{width}}  {n}" for t, n in most]
    lines += [f"  LDC times  {summary.ldc_times}", f"  claims     {summary.claims}"]
    return "\n".join(lines) + "\n"


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'s' if number != 1 else ''}"
