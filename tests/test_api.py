"""The names the README promises at the top of the package."""
from __future__ import annotations

import subprocess
import sys

from helpers import FIXTURES, ROOT

import aifcheck


def test_load_reads_a_kb_into_objects() -> None:
    kg = aifcheck.load(ROOT / "examples" / "valid" / "document-kb.ttl")
    assert isinstance(kg, aifcheck.KnowledgeGraph)
    closing = kg.cluster("http://example.org/doc1#cluster-closing")
    assert closing.metatype is aifcheck.Metatype.EVENT
    assert [m.span.document for m in closing.mentions] == ["DOC1"]


def test_claims_reads_every_frame_of_a_directory() -> None:
    found = aifcheck.claims(FIXTURES / "_submission")
    assert found and all(isinstance(c, aifcheck.Claim) for c in found)
    assert all(c.source.endswith(f"{c.claim_id}.ttl") for c in found)
    assert any(isinstance(c.date_time, aifcheck.LDCTime) and c.date_time.cluster is None for c in found)


def test_every_name_of_the_api_is_what_it_says_whatever_was_imported_before() -> None:
    # The API is imported on first use; a submodule of the same name must not take its place.
    code = (
        "import importlib, inspect, aifcheck\n"
        "for module in ('cli', 'validate', 'claim_frames', 'extract', 'model', 'report', 'catalog', 'errors'):\n"
        "    importlib.import_module('aifcheck.' + module)\n"
        "bad = [n for n in aifcheck.__all__ if inspect.ismodule(getattr(aifcheck, n))]\n"
        "assert not bad, bad\n"
        "assert sorted(aifcheck.__all__) == sorted(set(aifcheck.__all__))\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
