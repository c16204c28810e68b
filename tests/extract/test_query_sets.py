"""NIST's query sets through the installed command: the tag's (the default) and March 2022's.

Expected outputs are NIST's: the rows and their order that NIST's own queries at AIDAED-v2022.1.1
give (run offline by an independent engine, rdflib with NIST's custom functions re-implemented from
its jars), NIST's stored outputs of March 2022 (../shared/data/m54/task3-expected), and the digest
of what NIST's unmodified TA1 stages and scorer wrote (run offline by the oracle's driver
run_nist_stages.py ta1, not in this repository, with its docker's Makefile settings, on the SPARQL
output of NIST's tag queries).
"""

from __future__ import annotations

import hashlib
import re
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import SHARED_DATA, TYPE_TABLES
from tree_digest import digest

AIDA = "https://raw.githubusercontent.com/NextCenturyCorporation/AIDA-Interchange-Format/master/java/src/main/resources/com/ncc/aif/ontologies/InterchangeOntology#"
FRAME = SHARED_DATA / "task3-run/Condition5/CLL0C04979A.000004/CLL0C04AJNP.001755.ttl"
MARCH_GR = (
    SHARED_DATA / "task3-expected/Condition5/CLL0C04979A.000004/CLL0C04AJNP.001755.ttl/AIDA_P3_TA3_GR_0001A.rq.tsv"
)
KB = SHARED_DATA / "task1-run/L0C04960U.ttl"
GOLD = SHARED_DATA / "ta1-gold-tsv"
AUX = SHARED_DATA / "ta1-scoring/AUX-data"
# NIST's tag CM query on KB with three memberships repeated: 108 rows, 3 of them twice
NIST_CM_DUPLICATES = "e34da3c005555ab6297c153565d81559f7de140cacd50319334e5616b8340183"
# NIST's clean, validate, filter, align and score stages on that table (with KB's AM and TM tables)
NIST_TA1_DUPLICATES = "5c4b10474b525f9a4faacf3bde4b51c28c0a3da71444cf17350d68434a244653"
needs_data = pytest.mark.skipif(not SHARED_DATA.is_dir(), reason=f"NIST data not found at {SHARED_DATA}")


def aifcheck(*args: object) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "aifcheck", *map(str, args)], capture_output=True, text=True, timeout=600
    )


@needs_data
def test_query_prints_the_tag_s_graph_table_and_march_s_with_the_option() -> None:
    tag = aifcheck("query", FRAME, "--table", "AIDA_P3_TA3_GR_0001A")
    assert tag.returncode == 0, tag.stderr
    header = tag.stdout.splitlines()[0].split("\t")
    assert len(header) == 26 and header[4:6] == ["?is_object_associated_to_claim", "?is_object_in_claim_semantics"]
    march = aifcheck("query", FRAME, "--table", "AIDA_P3_TA3_GR_0001A", "--query-set", "march-2022")
    assert march.returncode == 0 and march.stdout == MARCH_GR.read_text(encoding="utf-8")
    wrong = aifcheck("query", FRAME, "--table", "AIDA_P3_TA3_GR_0001A", "--query-set", "april")
    assert wrong.returncode == 2 and "'april' is not one of 'tag', 'march-2022'" in wrong.stderr


def _with_duplicates(text: str) -> str:
    """The KB with its first three cluster memberships written again (new blank nodes): each of
    their members' mentions is reached twice."""
    blocks = re.findall(r"^\[\] a aida:ClusterMembership ;\n(?:    .*\n)*?    .* \.\n", text, flags=re.MULTILINE)[:3]
    assert len(blocks) == 3
    return text + "\n" + "\n".join(blocks)


@needs_data
def test_nist_s_duplicate_cm_rows_are_kept_through_every_stage_and_change_no_score(tmp_path: Path) -> None:
    text = KB.read_text(encoding="utf-8")
    runs = {}
    for name, content in (("duplicates", _with_duplicates(text)), ("once", text)):
        run = tmp_path / name / "example-task1-run"  # the run ID NIST's driver was given
        run.mkdir(parents=True)
        (run / KB.name).write_text(content, encoding="utf-8")
        runs[name] = run
    table = aifcheck("query", runs["duplicates"] / KB.name, "--table", "AIDA_P3_TA1_CM_A0001")
    assert table.returncode == 0, table.stderr
    assert hashlib.sha256(table.stdout.encode()).hexdigest() == NIST_CM_DUPLICATES
    rows = table.stdout.splitlines()[1:]
    assert len(rows) == 108 and len(set(rows)) == 105
    outs = {}
    for name, run in runs.items():
        outs[name] = tmp_path / name / "out"
        done = aifcheck("score", "ta1", run, "--gold", GOLD, "--aux", AUX, "-o", outs[name], *TYPE_TABLES)
        assert done.returncode == 0, done.stderr
    assert digest(outs["duplicates"]) == NIST_TA1_DUPLICATES
    valid = outs["duplicates"] / "SPARQL-VALID-output/L0C04960U.ttl/AIDA_P3_TA1_CM_A0001.rq.tsv"
    assert len(valid.read_text().splitlines()) == 109  # the duplicates kept, as NIST's validator keeps them
    for same in ("results.json", *(f"scores/{p.name}" for p in (outs["once"] / "scores").iterdir())):
        assert (outs["duplicates"] / same).read_bytes() == (outs["once"] / same).read_bytes(), same


ORDER_KB = f"""@prefix aida: <{AIDA}> .
@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
@prefix ex: <http://example.org/> .
ex:c1 a aida:SameAsCluster ; aida:prototype ex:p1 .
ex:p1 a aida:Event ; aida:ldcTime ex:t1 , ex:t2 .
ex:m1 a aida:Event ; aida:attributes aida:Negated .
ex:m2 a aida:Event .
[] a aida:ClusterMembership ; aida:cluster ex:c1 ; aida:clusterMember ex:m1 ; aida:confidence ex:one .
[] a aida:ClusterMembership ; aida:cluster ex:c1 ; aida:clusterMember ex:m2 ; aida:confidence ex:one .
[] a rdf:Statement ; rdf:subject ex:m1 ; rdf:predicate rdf:type ; rdf:object "Q1" ; aida:justifiedBy ex:j ;
   aida:confidence ex:high .
[] a rdf:Statement ; rdf:subject ex:m2 ; rdf:predicate rdf:type ; rdf:object "Q1" ; aida:justifiedBy ex:j ;
   aida:confidence ex:low .
ex:j a aida:TextJustification ; aida:source "E1" ; aida:sourceDocument "D1" ; aida:startOffset 3 ;
   aida:endOffsetInclusive 9 ; aida:confidence ex:one .
ex:one a aida:Confidence ; aida:confidenceValue "1.0"^^xsd:double .
ex:high a aida:Confidence ; aida:confidenceValue "0.9"^^xsd:double .
ex:low a aida:Confidence ; aida:confidenceValue "0.5"^^xsd:double .
"""
# two times of one event that tie on every part but the end-after bound: a later month, an earlier day
_PART = 'aida:year "{}"^^xsd:gYear ; aida:month "--{}"^^xsd:gMonth ; aida:day "---{}"^^xsd:gDay'
ORDER_KB += "".join(
    f"ex:t{n} a aida:LDCTime ;\n"
    f'  aida:start [ a aida:LDCTimeComponent ; aida:timeType "AFTER" ; {_PART.format(2020, "01", "01")} ] ,\n'
    f'             [ a aida:LDCTimeComponent ; aida:timeType "BEFORE" ; {_PART.format(2020, "01", "31")} ] ;\n'
    f'  aida:end [ a aida:LDCTimeComponent ; aida:timeType "AFTER" ; {_PART.format(2020, month, day)} ] ,\n'
    f'           [ a aida:LDCTimeComponent ; aida:timeType "BEFORE" ; {_PART.format(2020, "12", "31")} ] .\n'
    for n, month, day in ((1, "02", "01"), (2, "01", "05"))
)


def test_cm_and_tm_rows_come_in_the_order_of_nist_s_order_by(tmp_path: Path) -> None:
    """NIST's CM query orders by its columns but ?is_negated, and its TM query names ?se_month
    (never bound) where ?ea_month belongs: the rows below are in the order NIST's own queries give
    them, not in the order of their printed cells."""
    kb = tmp_path / "kb.ttl"
    kb.write_text(ORDER_KB, encoding="utf-8")
    cm = aifcheck("query", kb, "--table", "AIDA_P3_TA1_CM_A0001")
    assert [row.split("\t")[4:6] for row in cm.stdout.splitlines()[1:]] == [
        ["NotNegated", '"0.5"'],
        ["Negated", '"0.9"'],
    ]
    tm = aifcheck("query", kb, "--table", "AIDA_P3_TA1_TM_A0001")
    assert [row.split("\t")[7:9] for row in tm.stdout.splitlines()[1:]] == [['"02"', '"01"'], ['"01"', '"05"']]
