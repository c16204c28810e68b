"""The DWD vocabulary rules (D1-D3): the bundled role list is the official one, the shapes hold the
same list, findings suggest the nearest role on both executors, and NIST's own files get warnings,
never errors."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import rdflib
from helpers import FIXTURES, ROOT, SHARED
from typer.testing import CliRunner

import aifcheck
from aifcheck.cli import application
from aifcheck.validation.catalog import Severity
from aifcheck.validation.shapes import load_catalog

app = application()

CATALOG = load_catalog()
ROLES = ROOT / "aifcheck" / "shapes" / "dwd_roles.tsv"
SOURCE = SHARED / "reference" / "aif" / "DWDPredicatesOntology"


def bundled() -> dict[str, str]:
    """role -> metatype, as shapes/dwd_roles.tsv lists them."""
    lines = [line for line in ROLES.read_text(encoding="utf-8").splitlines() if line and not line.startswith("#")]
    return dict(line.split("\t") for line in lines)


@pytest.mark.skipif(not SOURCE.is_file(), reason=f"DWDPredicatesOntology not found at {SOURCE}")
def test_the_bundled_roles_are_the_official_lists() -> None:
    # The source names its classes with the prefix ":", which it never declares: declare it to read
    # the two owl:oneOf lists as RDF.
    text = "@prefix : <https://example.org/dwd#> .\n" + SOURCE.read_text(encoding="utf-8")
    graph = rdflib.Graph().parse(data=text, format="turtle")
    dwd = rdflib.Namespace("https://example.org/dwd#")
    lists = {
        kind: {str(x) for x in rdflib.collection.Collection(graph, graph.value(dwd[name], rdflib.OWL.oneOf))}
        for kind, name in (("event", "DWDEventPredicates"), ("relation", "DWDRelationPredicates"))
    }
    expected = {role: kind for kind, roles in lists.items() for role in roles}
    assert len(expected) == len(lists["event"]) + len(lists["relation"])  # no role in both lists
    assert bundled() == expected


def test_the_shapes_hold_the_bundled_roles() -> None:
    roles = bundled()
    (select,) = (c.select for c in CATALOG.get("D1").constraints)
    (listed,) = re.findall(r"'''\n(.*?)\n'''", select, re.DOTALL)
    assert listed.split("\n") == [f"#{role}#" for role, kind in roles.items() if kind == "event"]
    assert sorted(role for role, kind in roles.items() if kind == "relation") == ["A0", "A1"]
    assert '("A0", "A1")' in CATALOG.get("D3").constraints[0].select
    assert CATALOG.get("D1").vocabulary == tuple(roles)


def test_a_misspelled_role_gets_the_nearest_dwd_role_on_both_executors() -> None:
    path = FIXTURES / "D1" / "bad.ttl"
    messages = [
        [v.message for v in aifcheck.validate(path, profile="nist", select=["D1"], engine=engine).violations]
        for engine in ("fast", "reference")
    ]
    assert messages[0] == messages[1]
    assert messages[0] and all(m.endswith('(did you mean "A0_pag_seller"?)') for m in messages[0])


def test_a_role_far_from_every_dwd_role_gets_no_suggestion(tmp_path: Path) -> None:
    text = (FIXTURES / "D1" / "bad.ttl").read_text(encoding="utf-8").replace('"A0_pag_sellr"', '"EMPTY_REF"')
    path = tmp_path / "empty_ref.ttl"
    path.write_text(text, encoding="utf-8")
    (finding,) = aifcheck.validate(path, profile="nist", select=["D1"]).violations
    assert "did you mean" not in finding.message


def test_nists_own_files_get_dwd_warnings_never_errors(shared_data: Path) -> None:
    # NIST's example KBs type some clusters "EMPTY_NA" or "EMPTY_TBD" and its claim frames use the
    # role "EMPTY_REF": neither is in DWD, and neither makes the file invalid.
    kbs = sorted(shared_data.glob("task1-run/*.ttl")) + sorted(shared_data.glob("task2-run/*.ttl"))
    frames = sorted(shared_data.glob("task3-run/Condition5/*/*.ttl"))
    found = (
        aifcheck.validate(kbs, profile="nist").violations
        + aifcheck.validate(frames, profile="ta3", condition=5).violations
    )
    dwd = [v for v in found if v.rule_id.startswith("D")]
    assert {v.rule_id for v in dwd} == {"D1", "D2"}
    assert all(v.severity == Severity.WARNING for v in dwd)
    assert not [v for v in found if v.severity == Severity.ERROR]


def test_the_dwd_rules_are_off_in_aif_and_name_their_source() -> None:
    assert not {r.id for r in CATALOG.rules_for("aif")} & {"D1", "D2", "D3"}
    assert {"D1", "D2", "D3"} <= {r.id for r in CATALOG.rules_for("nist")} & {r.id for r in CATALOG.rules_for("ta3")}
    shown = CliRunner().invoke(app, ["rules", "D1"])
    assert shown.exit_code == 0 and "source: plan §2.1; DWDPredicatesOntology" in shown.output
