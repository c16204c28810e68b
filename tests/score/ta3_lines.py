"""The check that every line a TA3 explanation names holds its node, for the tests of the real
example run and of the example evaluation."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from pathlib import Path

from aifcheck.score.explain import Explanation


def check_ta3_lines(explanations: Iterable[Explanation]) -> Counter[str]:
    """Each line a ranked or ideal claim names: the run's ranking row and the claim-mappings row of
    the claim, the claim frame's statement in its KB (or its row of the outer-claim table, where the
    run was given as NIST's tables), the assessment row judging each field of its pool claim.
    Returns the lines checked, by what they are."""
    files: dict[str, list[str]] = {}
    checked: Counter[str] = Counter()
    for item in (i for e in explanations for i in e.items if i.kind in ("rank", "later", "ideal")):
        claim_id = item.label.split(" ")[0]
        for where in item.where:
            text = files.setdefault(where.file, Path(where.file).read_text(encoding="utf-8").splitlines())
            line, cells, header = text[where.line - 1], text[where.line - 1].split("\t"), text[0].split("\t")
            if where.what == "claim" and where.file.endswith(".ttl"):  # the claim frame's statement
                assert "a aida:Claim" in line and claim_id in line, (where, line)
            elif where.what == "claim":  # its row of the outer-claim table
                assert where.file.endswith("AIDA_P3_TA3_OC_0001.rq.tsv"), where
                assert cells[header.index("?claim_id")] == claim_id, (where, line)
            elif where.what == "ranking":
                assert cells[1] == claim_id, (where, line)
            elif where.what == "claim mapping":
                assert cells[header.index("run_claim_id")] == claim_id, (where, line)
            else:  # an assessment row judging one of the pool claim's fields, with its judgement
                judged = f"{cells[header.index('component_type')]} judgement {cells[header.index('correctness')]}"
                assert where.what == judged, (where, line)
            checked["judgement" if " judgement " in where.what else where.what.split()[-1]] += 1
    return checked
