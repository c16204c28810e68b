"""Plain AIF stays plain AIF: files in the style of Phases 1-2 (the LDC ontology: types and argument
roles are IRIs) pass the aif profile with no finding, and the official AIF validator's shapes for
that style (aida_ontology.shacl, with the LDC types they use) accept them too. NIST-restricted AIF
wants the Phase 3 form, role-name strings: nist rejects the IRI roles (O12)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import rdflib
from helpers import TEST_DATA
from official_map import REFERENCE, ontologies, shape_graph

import aifcheck

LEGACY = TEST_DATA / "legacy-aif"
FILES = sorted(LEGACY.glob("*.ttl"))
RDF = rdflib.RDF


def test_the_legacy_files_cover_the_aif_ontology() -> None:
    # every class the AIF ontology defines, and every property that AIF data can use, is in some file
    used_classes: set = set()
    used_properties: set = set()
    for path in FILES:
        graph = rdflib.Graph().parse(path, format="turtle")
        used_classes |= set(graph.objects(None, RDF.type))
        used_properties |= set(graph.predicates())
    aida = "https://raw.githubusercontent.com/NextCenturyCorporation/AIDA-Interchange-Format/master/java/src/main/resources/com/ncc/aif/ontologies/InterchangeOntology#"
    classes = {
        "Entity",
        "Event",
        "Relation",
        "SameAsCluster",
        "ClusterMembership",
        "Subgraph",
        "Hypothesis",
        "Confidence",
        "System",
        "TextJustification",
        "AudioJustification",
        "VideoJustification",
        "ImageJustification",
        "KeyFrameVideoJustification",
        "ShotVideoJustification",
        "BoundingBox",
        "MutualExclusion",
        "MutualExclusionAlternative",
        "PrivateData",
        "LinkAssertion",
        "CompoundJustification",
        "LDCTime",
        "LDCTimeComponent",
        "Claim",
        "ClaimComponent",
    }
    assert {rdflib.URIRef(aida + c) for c in classes} <= used_classes
    properties = {
        "alternativeGraph",
        "alternative",
        "cluster",
        "confidence",
        "confidenceValue",
        "importance",
        "clusterMember",
        "handle",
        "prototype",
        "subgraphContains",
        "system",
        "hasName",
        "textValue",
        "numericValue",
        "justifiedBy",
        "containedJustification",
        "source",
        "sourceDocument",
        "startOffset",
        "endOffsetInclusive",
        "startTimestamp",
        "endTimestamp",
        "channel",
        "boundingBox",
        "boundingBoxUpperLeftX",
        "boundingBoxUpperLeftY",
        "boundingBoxLowerRightX",
        "boundingBoxLowerRightY",
        "keyFrame",
        "shot",
        "link",
        "linkTarget",
        "noneOfTheAbove",
        "dependsOnHypothesis",
        "hypothesisContent",
        "privateData",
        "jsonContent",
        "informativeJustification",
        "ldcTime",
        "start",
        "end",
        "timeType",
        "year",
        "month",
        "day",
        "attributes",
        "claimId",
        "queryId",
        "topic",
        "subtopic",
        "claimTemplate",
        "xVariable",
        "naturalLanguageDescription",
        "claimSemantics",
        "claimer",
        "claimerAffiliation",
        "epistemic",
        "sentiment",
        "claimDateTime",
        "claimLocation",
        "claimMedium",
        "associatedKEs",
        "identicalClaims",
        "relatedClaims",
        "supportingClaims",
        "refutingClaims",
        "componentName",
        "componentIdentity",
        "componentType",
        "componentProvenance",
        "componentKE",
    }
    assert {rdflib.URIRef(aida + p) for p in properties} <= used_properties


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_a_legacy_file_passes_aif(path: Path) -> None:
    report = aifcheck.validate(path, profile="aif", min_severity="info")
    assert report.files[0].readable and not report.files[0].rule_errors
    assert [(v.rule_id, v.focus, v.message) for v in report.violations] == []


@pytest.mark.skipif(not REFERENCE.is_dir(), reason=f"the official AIF shapes are not at {REFERENCE}")
@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_the_aif_validator_accepts_a_legacy_file(path: Path) -> None:
    # as validateAIF does without --dwd: aida_ontology.shacl over the KB, the AIF ontologies and
    # the domain ontology (here the LDC types the files use)
    import pyshacl

    from aifcheck.validation.engine.reference import queries_parsed_once

    data = rdflib.Graph().parse(path, format="turtle") + ontologies()
    data.parse(LEGACY / "ontology" / "LDCOntology.ttl", format="turtle")
    with queries_parsed_once():
        conforms, _, text = pyshacl.validate(
            data, shacl_graph=shape_graph("aida_ontology.shacl"), advanced=True, inference="none", inplace=True
        )
    assert conforms, text[:2000]


def test_nist_rejects_every_iri_role_and_says_which_form_it_wants() -> None:
    path = LEGACY / "events.ttl"
    graph = rdflib.Graph().parse(path, format="turtle")
    iri_roles = [
        s for s, role in graph.subject_objects(RDF.predicate) if isinstance(role, rdflib.URIRef) and role != RDF.type
    ]
    report = aifcheck.validate(path, profile="nist", select=["O12"])
    assert len(report.violations) == len(iri_roles) == 5
    assert {f"<{s}>" for s in iri_roles if isinstance(s, rdflib.URIRef)} <= {v.focus for v in report.violations}
    assert all('as a string, such as "A0_pag_causer"' in v.message for v in report.violations)


def test_the_installed_command_accepts_the_legacy_files_as_aif() -> None:
    command = Path(sys.executable).parent / "aifcheck"
    if not command.exists():
        pytest.skip(f"the aifcheck command is not installed beside {sys.executable}")
    proc = subprocess.run(
        [str(command), "validate", "--profile", "aif", "--severity", "info", *map(str, FILES)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
