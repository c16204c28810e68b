"""aifcheck graph: the views (clusters, mentions) and the switch between them at 50 clusters and
claims, --focus (IRI, prefixed name, claim ID) and --depth, DOT text, PNG size, output errors;
through the installed command and the API (aifcheck.render.graph, .graph_draw)."""

from __future__ import annotations

import os
import re
import struct
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import ROOT, SHARED_DATA

from aifcheck.errors import OutputError, UsageError
from aifcheck.extract.claims import claims as read_claim_file
from aifcheck.extract.kg import load_kg
from aifcheck.names import AIDA
from aifcheck.render.graph import build_graph, default_view, find_node, kb_nodes, neighbourhood, select
from aifcheck.render.graph_draw import SCREEN, check_target, to_dot

EX = "http://example.org/kb#"
HEADER = f"""@prefix aida: <{AIDA}> .
@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
@prefix ex: <{EX}> .
ex:system a aida:System .
ex:sure a aida:Confidence ; aida:confidenceValue "1.0"^^xsd:double ; aida:system ex:system .
"""
CLAIM_FRAMES = SHARED_DATA / "task3-run" / "Condition5"


def _cluster(name: str, metatype: str, qnode: str, offset: int, handle: str | None = None) -> str:
    handle_line = f'aida:handle "{handle}" ; ' if handle else ""
    return f"""ex:cluster-{name} a aida:SameAsCluster ; aida:prototype ex:{name}-prototype ;
    aida:system ex:system .
ex:{name}-prototype a aida:{metatype} ; {handle_line}aida:system ex:system .
ex:{name}-membership a aida:ClusterMembership ; aida:cluster ex:cluster-{name} ;
    aida:clusterMember ex:{name}-prototype ; aida:confidence ex:sure ; aida:system ex:system .
ex:{name}-type a rdf:Statement ; rdf:subject ex:{name}-prototype ; rdf:predicate rdf:type ;
    rdf:object "{qnode}" ;
    aida:justifiedBy ex:span-{name} ; aida:confidence ex:sure ; aida:system ex:system .
ex:span-{name} a aida:TextJustification ; aida:source "DOC1-EL1" ; aida:sourceDocument "DOC1" ;
    aida:startOffset "{offset}"^^xsd:int ; aida:endOffsetInclusive "{offset + 3}"^^xsd:int ;
    aida:confidence ex:sure ; aida:system ex:system .
"""


def _edge(event: str, role: str, entity: str) -> str:
    return f"""ex:{event}-{role}-{entity} a aida:ArgumentStatement ; rdf:subject ex:{event}-prototype ;
    rdf:predicate "{role}" ;
    rdf:object ex:{entity}-prototype ; aida:confidence ex:sure ; aida:system ex:system ;
    aida:justifiedBy [ a aida:CompoundJustification ; aida:containedJustification ex:span-{event} ;
        aida:confidence ex:sure ; aida:system ex:system ] .
"""


def chain_kb(path: Path, entities: int, events: int) -> Path:
    """A KB of ``entities`` entity clusters and ``events`` event clusters, event i linking entity i
    (A0_pag_agent) to entity i + 1 (A1_ppt_theme): a chain e0 - v0 - e1 - v1 - e2 ..."""
    text = [HEADER]
    text += [_cluster(f"e{i}", "Entity", "Q5", 10 * i, handle=f"person {i}") for i in range(entities)]
    for i in range(events):
        text += [
            _cluster(f"v{i}", "Event", "Q1190554", 1000 + 10 * i),
            _edge(f"v{i}", "A0_pag_agent", f"e{i}"),
            _edge(f"v{i}", "A1_ppt_theme", f"e{i + 1}"),
        ]
    path.write_text("".join(text), encoding="utf-8")
    return path


def aifcheck(*args: str | Path) -> subprocess.CompletedProcess:
    return subprocess.run(["aifcheck", "graph", *map(str, args)], capture_output=True, text=True, timeout=300)


def png_size(path: Path) -> tuple[int, int]:
    """Width and height from the PNG header (the IHDR chunk comes first)."""
    header = path.read_bytes()[:24]
    assert header[:8] == b"\x89PNG\r\n\x1a\n" and header[12:16] == b"IHDR"
    return struct.unpack(">II", header[16:24])


def dot_nodes(text: str) -> list[str]:
    return [line for line in text.splitlines() if re.match(r"  n\d+ \[", line)]


def dot_edges(text: str) -> list[str]:
    return [line for line in text.splitlines() if "->" in line]


@pytest.fixture()
def chain(tmp_path: Path) -> Path:
    return chain_kb(tmp_path / "chain.ttl", 5, 4)


def claim_frame() -> Path:
    if not CLAIM_FRAMES.is_dir():
        pytest.skip(f"NIST's claim frames are not here ({CLAIM_FRAMES})")
    return sorted(CLAIM_FRAMES.glob("*/*.ttl"))[0]


# --- the command ---------------------------------------------------------------------------


def test_a_small_kb_is_drawn_with_its_mentions_as_dot(chain: Path, tmp_path: Path) -> None:
    proc = aifcheck(chain, "-o", tmp_path / "kb.dot")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == f"{tmp_path / 'kb.dot'}: mentions view, 18 nodes, 17 edges\n"
    text = (tmp_path / "kb.dot").read_text()
    assert text.startswith('digraph "chain.ttl: mentions view" {') and text.rstrip().endswith("}")
    assert len(dot_nodes(text)) == 18 and len(dot_edges(text)) == 17  # 9 clusters, 9 mentions; 8 arguments, 9 mentions
    assert text.count("shape=plaintext") == 9 and "DOC1:DOC1-EL1\\n0-3 Q5" in text
    assert 'label="A0_pag_agent"' in text and 'label="person 0\\nQ5\\ncluster-e0"' in text
    assert text.count("{") == text.count("}") and all(line.endswith("];") for line in dot_nodes(text) + dot_edges(text))


def test_the_clusters_view_draws_one_node_per_cluster(chain: Path, tmp_path: Path) -> None:
    proc = aifcheck(chain, "-o", tmp_path / "kb.dot", "--view", "clusters")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == f"{tmp_path / 'kb.dot'}: clusters view, 9 nodes, 8 edges\n"
    text = (tmp_path / "kb.dot").read_text()
    assert len(dot_nodes(text)) == 9 and "plaintext" not in text


@pytest.mark.parametrize(("entities", "view", "nodes"), [(49, "mentions", 100), (50, "clusters", 51)])
def test_the_default_view_switches_past_50_clusters(tmp_path: Path, entities: int, view: str, nodes: int) -> None:
    kb = chain_kb(tmp_path / "kb.ttl", entities, 1)  # 50 or 51 clusters
    proc = aifcheck(kb, "-o", tmp_path / "kb.dot")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith(f"{tmp_path / 'kb.dot'}: {view} view, {nodes} nodes, ")
    assert ("51 clusters and claims, over 50: --view mentions draws each mention" in proc.stdout) == (
        view == "clusters"
    )
    assert len(dot_nodes((tmp_path / "kb.dot").read_text())) == nodes


def test_focus_by_prefixed_name_with_depth(chain: Path, tmp_path: Path) -> None:
    out = tmp_path / "focus.dot"
    one = aifcheck(chain, "-o", out, "--focus", "ex:cluster-e0", "--view", "clusters")
    assert one.returncode == 0, one.stderr
    assert one.stdout == f"{out}: clusters view within 1 step of ex:cluster-e0, 2 nodes, 1 edge\n"
    assert {"cluster-e0", "cluster-v0"} == {line.split("\\n")[-1].split('"')[0] for line in dot_nodes(out.read_text())}
    three = aifcheck(chain, "-o", out, "--focus", "ex:cluster-e0", "--depth", "3")
    assert three.returncode == 0, three.stderr
    assert three.stdout == f"{out}: mentions view within 3 steps of ex:cluster-e0, 8 nodes, 7 edges\n"
    assert 'digraph "chain.ttl: mentions view, 3 steps around ex:cluster-e0"' in out.read_text()


def test_focus_by_iri_and_by_a_member(chain: Path, tmp_path: Path) -> None:
    for name in (f"{EX}cluster-v1", f"<{EX}cluster-v1>", f"{EX}v1-prototype"):
        proc = aifcheck(chain, "-o", tmp_path / "focus.dot", "--focus", name, "--depth", "0", "--view", "clusters")
        assert proc.returncode == 0, proc.stderr
        assert ", 1 node, 0 edges" in proc.stdout
        assert "cluster-v1" in (tmp_path / "focus.dot").read_text()


def test_an_unknown_focus_is_one_line_naming_the_nearest(chain: Path, tmp_path: Path) -> None:
    proc = aifcheck(chain, "-o", tmp_path / "focus.png", "--focus", "ex:cluster-v")
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.count("\n") == 1
    assert proc.stderr.startswith(
        "aifcheck: error: --focus ex:cluster-v: no cluster or claim of the file has that name "
        "(did you mean ex:cluster-v"
    )
    assert not (tmp_path / "focus.png").exists()


def test_a_negative_depth_or_one_without_focus_is_a_usage_error(chain: Path, tmp_path: Path) -> None:
    proc = aifcheck(chain, "-o", tmp_path / "kb.dot", "--focus", "ex:cluster-e0", "--depth", "-1")
    assert proc.returncode == 2 and proc.stderr == "aifcheck: error: --depth -1: give 0 or more\n"
    proc = aifcheck(chain, "-o", tmp_path / "kb.dot", "--depth", "2")
    assert (
        proc.returncode == 2
        and proc.stderr == "aifcheck: error: --depth counts the steps from --focus: give --focus too\n"
    )
    assert not (tmp_path / "kb.dot").exists()


def test_a_claim_frame_by_claim_id(tmp_path: Path) -> None:
    frame = claim_frame()
    (claim,) = read_claim_file(frame)
    out = tmp_path / "claim.dot"
    whole = aifcheck(frame, "-o", out)
    assert whole.returncode == 0, whole.stderr
    assert whole.stdout.startswith(f"{out}: mentions view, ")
    text = out.read_text()
    assert f"claim {claim.claim_id}" in text and 'label="claim semantics"' in text and "x variable: " in text
    focus = aifcheck(frame, "-o", out, "--focus", claim.claim_id, "--view", "clusters")
    assert focus.returncode == 0, focus.stderr
    components = (claim.x_variable, claim.claimer, claim.location, claim.medium, *claim.affiliations)
    kes = set(claim.associated_kes) | set(claim.semantics) | {c.ke for c in components if c is not None and c.ke}
    assert focus.stdout.startswith(f"{out}: clusters view within 1 step of {claim.claim_id}, {len(kes) + 1} nodes, ")


@pytest.mark.parametrize("view", ["clusters", "mentions"])
def test_a_200_node_kb_fits_one_screen(tmp_path: Path, view: str) -> None:
    kb = chain_kb(tmp_path / "kb.ttl", 120, 80)
    out = tmp_path / "kb.png"
    proc = aifcheck(kb, "-o", out, "--view", view)
    assert proc.returncode == 0, proc.stderr
    width, height = png_size(out)
    assert 800 <= width <= SCREEN[0] and 400 <= height <= SCREEN[1]


def test_a_claim_frame_png_fits_one_screen(tmp_path: Path) -> None:
    frame = claim_frame()
    proc = aifcheck(frame, "-o", tmp_path / "claim.png")
    assert proc.returncode == 0, proc.stderr
    width, height = png_size(tmp_path / "claim.png")
    assert width <= SCREEN[0] and height <= SCREEN[1]


@pytest.mark.parametrize("suffix", [".png", ".svg", ".dot"])
def test_a_kb_without_clusters_is_an_empty_picture(tmp_path: Path, suffix: str) -> None:
    kb = tmp_path / "empty.ttl"
    kb.write_text("@prefix ex: <http://example.org/> .\nex:a ex:b ex:c .\n")
    proc = aifcheck(kb, "-o", tmp_path / f"kb{suffix}")
    assert proc.returncode == 0 and proc.stderr == ""
    assert proc.stdout == f"{tmp_path / f'kb{suffix}'}: mentions view, 0 nodes, 0 edges\n"
    assert (tmp_path / f"kb{suffix}").stat().st_size > 0


def test_svg_is_written(chain: Path, tmp_path: Path) -> None:
    proc = aifcheck(chain, "-o", tmp_path / "kb.svg")
    assert proc.returncode == 0, proc.stderr
    assert "<svg" in (tmp_path / "kb.svg").read_text()[:1000]
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no partial file left


def test_a_folder_as_the_picture_is_a_usage_error(chain: Path, tmp_path: Path) -> None:
    folder = tmp_path / "pictures.png"
    folder.mkdir()
    proc = aifcheck(chain, "-o", folder)
    assert proc.returncode == 2
    assert proc.stderr == f"aifcheck: error: -o {folder}: a folder, not a file\n"
    proc = aifcheck(chain, "-o", tmp_path)
    assert proc.returncode == 2 and proc.stderr == f"aifcheck: error: -o {tmp_path}: a folder, not a file\n"


def test_a_place_that_cannot_be_written_is_one_line_exit_3(chain: Path, tmp_path: Path) -> None:
    a_file = tmp_path / "a-file"
    a_file.write_text("")
    proc = aifcheck(chain, "-o", a_file / "kb.png")
    assert (
        proc.returncode == 3
        and proc.stderr == f"aifcheck: error: cannot write {a_file / 'kb.png'}: Not a directory ({a_file} is a file)\n"
    )
    if os.geteuid() == 0:  # root writes anywhere but in a read-only file system
        if not sys.platform.startswith("linux"):
            pytest.skip("needs a place even root cannot write")
        target = Path("/proc/aifcheck-graph.png")
    else:
        locked = tmp_path / "locked"
        locked.mkdir(mode=0o555)
        target = locked / "kb.png"
    for suffix in (".png", ".dot"):
        proc = aifcheck(chain, "-o", target.with_suffix(suffix))
        assert proc.returncode == 3, proc.stderr
        assert (
            proc.stderr.startswith(f"aifcheck: error: cannot write {target.with_suffix(suffix)}: ")
            and proc.stderr.count("\n") == 1
        )


def test_the_help_gives_every_option_and_the_examples() -> None:
    proc = aifcheck("-h")
    assert proc.returncode == 0
    for text in (
        "--focus",
        "--depth",
        "--view [clusters|mentions]",
        "--focus ldc:cluster-E1 --depth 2",
        "--view clusters",
    ):
        assert text in proc.stdout


# --- the API ---------------------------------------------------------------------------------


def test_the_api_builds_both_views_from_the_model(chain: Path) -> None:
    kg = load_kg(chain)
    clusters, mentions = build_graph(kg, (), "clusters"), build_graph(kg, (), "mentions")
    assert clusters.number_of_nodes() == 9 and len(kb_nodes(clusters)) == 9
    assert mentions.number_of_nodes() == 18 and len(kb_nodes(mentions)) == 9
    assert clusters.nodes[f"{EX}cluster-v0"]["kind"] == "event"
    assert clusters.edges[f"{EX}cluster-v0", f"{EX}cluster-e0", "A0_pag_agent"]["short"] == "agent"
    assert default_view(clusters) == "mentions"
    with pytest.raises(UsageError, match="--view nodes: give clusters or mentions"):
        build_graph(kg, (), "nodes")


def test_the_api_finds_nodes_by_every_name(chain: Path) -> None:
    kg = load_kg(chain)
    prefixes = {"ex": EX}
    assert find_node("ex:cluster-e2", kg, (), prefixes) == f"{EX}cluster-e2"
    assert find_node(f"{EX}e2-prototype", kg, (), prefixes) == f"{EX}cluster-e2"
    with pytest.raises(UsageError, match=r"did you mean ex:cluster-e2"):
        find_node("ex:cluster-e2x", kg, (), prefixes)
    with pytest.raises(UsageError, match="no cluster or claim"):
        find_node("zz:nothing", kg, (), {})


def test_the_api_neighbourhood_counts_steps_between_clusters(chain: Path) -> None:
    kg = load_kg(chain)
    skeleton, detail = build_graph(kg, (), "clusters"), build_graph(kg, (), "mentions")
    centre = f"{EX}cluster-v1"
    assert set(neighbourhood(skeleton, skeleton, centre, 1)) == {centre, f"{EX}cluster-e1", f"{EX}cluster-e2"}
    near = neighbourhood(detail, skeleton, centre, 1)
    assert len(kb_nodes(near)) == 3 and near.number_of_nodes() == 6  # and their mentions
    assert len(neighbourhood(skeleton, skeleton, centre, 9)) == 9


def test_the_api_claims_by_id(tmp_path: Path) -> None:
    frame = claim_frame()
    kg, found = load_kg(frame), read_claim_file(frame)
    node = find_node(found[0].claim_id, kg, found, {})
    assert node == f"claim {found[0].claim_id}"
    graph = build_graph(kg, found, "clusters")
    assert graph.nodes[node]["kind"] == "claim" and graph.out_degree(node) >= len(found[0].semantics)
    assert "component" in {kind for _, kind in build_graph(kg, found, "mentions").nodes(data="kind")}


def test_the_api_checks_the_target_first(tmp_path: Path) -> None:
    with pytest.raises(UsageError):
        check_target(tmp_path / "picture.jpg")
    (tmp_path / "file").write_text("")
    with pytest.raises(OutputError):
        check_target(tmp_path / "file" / "picture.png")
    check_target(tmp_path / "new" / "folder" / "picture.png")  # made when written


def test_dot_quotes_what_labels_hold(chain: Path) -> None:
    text = to_dot(build_graph(load_kg(chain), (), "clusters"), 'a "title"\\')
    assert text.startswith('digraph "a \\"title\\"\\\\" {')


def test_examples_in_the_docs_run(tmp_path: Path) -> None:
    proc = aifcheck(ROOT / "examples" / "valid" / "document-kb.ttl", "-o", tmp_path / "kb.dot")
    assert proc.returncode == 0 and proc.stdout == f"{tmp_path / 'kb.dot'}: mentions view, 6 nodes, 5 edges\n"


def test_the_api_selects_the_view_and_the_focus(tmp_path: Path) -> None:
    kg = load_kg(chain_kb(tmp_path / "kb.ttl", 50, 1))  # 51 clusters
    graph, view = select(kg)
    assert view == "clusters" and graph.number_of_nodes() == 51
    graph, view = select(kg, view="mentions")
    assert view == "mentions" and graph.number_of_nodes() == 102
    graph, view = select(kg, focus="ex:cluster-e0", depth=1, prefixes={"ex": EX})
    assert view == "mentions" and len(kb_nodes(graph)) == 2 and graph.number_of_nodes() == 4


def test_a_claims_ke_that_is_no_cluster_is_drawn_as_such(chain: Path, tmp_path: Path) -> None:
    from aifcheck.extract.model import Claim
    from aifcheck.render.graph_draw import write_graph

    claim = Claim(
        "kb.ttl",
        "DOC1",
        "C1",
        "topic",
        "EpistemicTrueCertain",
        "SentimentNeutralUnknown",
        semantics=(f"{EX}cluster-v0",),
        associated_kes=(f"{EX}cluster-v0", f"{EX}nowhere"),
    )
    graph = build_graph(load_kg(chain), [claim], "clusters")
    assert graph.nodes[f"{EX}nowhere"]["label"] == "nowhere\n(no cluster of the file)"
    assert graph.edges["claim C1", f"{EX}cluster-v0", "semantics"]["line"] == "strong"
    write_graph(graph, tmp_path / "claim.png", "claim")
    assert png_size(tmp_path / "claim.png")[0] <= SCREEN[0]
