"""A KB as a graph to look at (``aifcheck graph``), built from the domain model (a KnowledgeGraph
and its claims), never from the KB itself: the command line reads the KB.

Two views:
- ``mentions``: each cluster (by metatype, labelled with handle and types) with a node per
  mention (document element, offsets, type), the argument edges between clusters (labelled with
  roles), and each claim with a node per component and edges to the KEs it is about;
- ``clusters``: one node per cluster and per claim; argument edges between clusters, and a
  claim's edges to its KEs (its components' KEs labelled with their role).

A KB of more than ``DETAIL_LIMIT`` nodes (clusters and claims) is drawn as clusters unless a view
is asked for. ``--focus`` keeps the neighbourhood of one cluster or claim. networkx holds the
graph; aifcheck.render.graph_draw writes it."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import networkx as nx

from aifcheck.choices import did_you_mean
from aifcheck.errors import UsageError
from aifcheck.extract.model import Claim, Cluster, KnowledgeGraph, Mention
from aifcheck.render import GRAPH_DETAIL_LIMIT as DETAIL_LIMIT
from aifcheck.render import GRAPH_VIEWS as VIEWS
from aifcheck.render.names import compact

KB_KINDS = ("entity", "event", "relation", "claim")  # what a view draws one node for; the rest is detail
_TYPES_SHOWN = 2
_MENTIONS_SHOWN = 6  # a cluster's mentions drawn; the rest are counted in one more node


def build_graph(kg: KnowledgeGraph, claims: Sequence[Claim] = (), view: str = "mentions") -> nx.MultiDiGraph:
    """The graph of a KB in one view (see VIEWS). A node's ``kind`` is its metatype (lower case),
    claim, component or mention; ``label`` is its full label, ``short`` the one a large drawing
    shows; a detail node (mention, component) names the node it belongs to in ``owner``."""
    if view not in VIEWS:
        raise UsageError(f"--view {view}: give {' or '.join(VIEWS)}")
    graph = nx.MultiDiGraph()
    for cluster in kg.clusters:
        graph.add_node(
            cluster.iri,
            kind=cluster.metatype.value.lower(),
            label=_cluster_label(cluster),
            short=_cluster_short(cluster),
        )
        if view == "mentions":
            _add_mentions(graph, cluster)
    for edge in kg.edges:
        if not graph.has_edge(edge.subject, edge.object, key=edge.role):
            negated = " (negated)" if edge.negated else ""
            graph.add_edge(
                edge.subject,
                edge.object,
                key=edge.role,
                label=edge.role + negated,
                short=_role_words(edge.role) + negated,
            )
    for claim in claims:
        _add_claim(graph, claim, view)
    return graph


def _cluster_label(cluster: Cluster) -> str:
    """A cluster as a reader knows it: its handle (an event or relation has none: its metatype),
    its types, and the end of its IRI, to tell alike clusters apart."""
    name = cluster.handle or cluster.metatype.value.lower()
    local = _local(cluster.iri)
    tail = local if len(local) <= 16 else "…" + local[-15:]  # the end tells alike IRIs apart
    return "\n".join(line for line in (name[:32], _types(cluster), tail) if line)


def _cluster_short(cluster: Cluster) -> str:
    """Two short lines for a crowded picture: the handle (or metatype) and the main type."""
    name = cluster.handle or cluster.metatype.value.lower()
    return "\n".join(line for line in (_cut(name, 16), _types(cluster, 1)) if line)


def _types(cluster: Cluster, shown: int = _TYPES_SHOWN) -> str:
    types = [t for t, _ in sorted(cluster.types, key=lambda tc: -tc[1])[:shown]]
    more = len(cluster.types) - len(types)
    return ", ".join(types) + (f" +{more}" if more > 0 else "")


def _local(iri: str) -> str:
    return iri.rsplit("#", 1)[-1].rsplit("/", 1)[-1]


def _cut(text: str, most: int) -> str:
    return text if len(text) <= most else text[: most - 1] + "…"


def _role_words(role: str) -> str:
    """A DWD role without its argument number and PropBank tag, the words a reader needs
    ("A0_pag_agent_asker" -> "agent_asker", "AM_loc__location" -> "location"); a short role as it is."""
    words = "_".join(part for part in role.split("_")[2:] if part)
    return _cut(words or role, 20)


def _add_mentions(graph: nx.MultiDiGraph, cluster: Cluster) -> None:
    for index, mention in enumerate(cluster.mentions[:_MENTIONS_SHOWN]):
        node = f"{cluster.iri} mention {index + 1}"
        graph.add_node(
            node, kind="mention", owner=cluster.iri, label=_mention_label(mention), short=_mention_short(mention)
        )
        graph.add_edge(cluster.iri, node, key="mention", label="", short="", line="faint")
    more = len(cluster.mentions) - _MENTIONS_SHOWN
    if more > 0:
        node = f"{cluster.iri} mentions"
        text = f"+{more} mentions"
        graph.add_node(node, kind="mention", owner=cluster.iri, label=text, short=text)
        graph.add_edge(cluster.iri, node, key="mention", label="", short="", line="faint")


def _mention_label(mention: Mention) -> str:
    span = mention.span
    box = (
        f" ({span.start},{span.top})-({span.end},{span.bottom})"
        if span.top or span.bottom
        else f" {span.start}-{span.end}"
    )
    negated = " negated" if mention.negated else ""
    return f"{span.document}:{span.element}\n{box.strip()} {mention.type}{negated}"


def _mention_short(mention: Mention) -> str:
    return f"{_cut(mention.span.element, 12)}:{mention.span.start} {mention.type}"


_COMPONENTS = ("x variable", "claimer", "location", "medium")


def _add_claim(graph: nx.MultiDiGraph, claim: Claim, view: str) -> None:
    node = claim_node(claim.claim_id)
    text = [f"claim {claim.claim_id}", claim.topic, claim.subtopic or "", claim.epistemic.removeprefix("Epistemic")]
    components = [(role, getattr(claim, role.replace(" ", "_"))) for role in _COMPONENTS]
    components += [("affiliation", a) for a in claim.affiliations]
    components = [(role, c) for role, c in components if c is not None]
    if view == "clusters":  # components are lines of the claim's label, their KEs its edges
        text += [f"{role}: {c.name}" for role, c in components]
    graph.add_node(
        node, kind="claim", label="\n".join(t[:50] for t in text if t), short=_cut(f"claim {claim.claim_id}", 24)
    )
    for role, component in components:
        if view == "clusters":
            if component.ke and component.ke in graph:
                graph.add_edge(node, component.ke, key=role, label=role, short=role)
            continue
        component_node = f"{node} {role} {component.name}"
        graph.add_node(
            component_node,
            kind="component",
            owner=node,
            label=f"{role}: {component.name[:40]}\n{component.identity}",
            short=_cut(f"{role}: {component.name}", 24),
        )
        graph.add_edge(node, component_node, key=role, label=role, short=role)
        if component.ke and component.ke in graph:
            graph.add_edge(component_node, component.ke, key="KE", label="KE", short="KE")
    for ke in set(claim.semantics) | set(claim.associated_kes):
        if ke not in graph:  # a KE that is no cluster of the file (rule T5 reports it): drawn as such
            graph.add_node(
                ke, kind="unknown", label=f"{_local(ke)}\n(no cluster of the file)", short=_cut(_local(ke), 16)
            )
    for ke in claim.semantics:
        graph.add_edge(node, ke, key="semantics", label="claim semantics", short="semantics", line="strong")
    for ke in sorted(set(claim.associated_kes) - set(claim.semantics)):
        graph.add_edge(node, ke, key="associated", label="", short="", line="faint")  # many: drawn light, unlabelled


def select(
    kg: KnowledgeGraph,
    claims: Sequence[Claim] = (),
    view: str | None = None,
    focus: str | None = None,
    depth: int = 1,
    prefixes: dict[str, str] | None = None,
) -> tuple[nx.MultiDiGraph, str]:
    """The graph to draw and its view: ``view``, or the one default_view chooses for the KB (or
    for the focus's neighbourhood); with ``focus`` (see find_node), only the part within ``depth``
    steps of it (see neighbourhood)."""
    skeleton = build_graph(kg, claims, "clusters")
    centre = find_node(focus, kg, claims, prefixes or {}) if focus is not None else None
    if centre is not None:
        skeleton = neighbourhood(skeleton, skeleton, centre, depth)
    view = view or default_view(skeleton)
    if view == "clusters":
        return skeleton, view
    drawn = build_graph(kg, claims, view)
    return (neighbourhood(drawn, skeleton, centre, depth) if centre is not None else drawn), view


def claim_node(claim_id: str) -> str:
    return f"claim {claim_id}"


def kb_nodes(graph: nx.MultiDiGraph) -> list:
    """The clusters and claims a graph holds (what DETAIL_LIMIT counts)."""
    return [n for n, kind in graph.nodes(data="kind") if kind in KB_KINDS]


def default_view(graph: nx.MultiDiGraph) -> str:
    """mentions for a small KB, clusters past DETAIL_LIMIT clusters and claims."""
    return "clusters" if len(kb_nodes(graph)) > DETAIL_LIMIT else "mentions"


def find_node(name: str, kg: KnowledgeGraph, claims: Sequence[Claim], prefixes: dict[str, str]) -> str:
    """The node that ``name`` means: a cluster's IRI (or its prototype's or a member's, for that
    cluster), as a full IRI, <IRI> or a prefixed name the file declares, or a claim ID;
    UsageError naming the nearest known nodes when it names none."""
    claim_ids = {claim.claim_id for claim in claims}
    if name in claim_ids or name.removeprefix("claim ") in claim_ids:
        return claim_node(name.removeprefix("claim "))
    iri = name[1:-1] if name.startswith("<") and name.endswith(">") else name
    prefix, colon, local = iri.partition(":")
    if colon and prefix in prefixes and not local.startswith("//"):
        iri = prefixes[prefix] + local
    owners = {c.iri: c.iri for c in kg.clusters}
    for cluster in kg.clusters:
        for part in (cluster.prototype, *cluster.members):
            owners.setdefault(part, cluster.iri)
    if iri in owners:
        return owners[iri]
    known = [compact(f"<{c.iri}>", prefixes).strip("<>") for c in kg.clusters] + sorted(claim_ids)
    starting = [k for k in known if k.casefold().startswith(name.casefold())]  # a name cut short
    near = did_you_mean(name, starting or known, cutoff=0.0) if known else " (the file has no cluster or claim)"
    raise UsageError(f"--focus {name}: no cluster or claim of the file has that name{near}")


def neighbourhood(graph: nx.MultiDiGraph, skeleton: nx.MultiDiGraph, centre: str, depth: int) -> nx.MultiDiGraph:
    """The part of ``graph`` within ``depth`` steps of ``centre``: the clusters and claims that
    many edges away in ``skeleton`` (the clusters view, where a claim's edge to a component's KE
    is one step, whichever way the edges point), and their mentions and components."""
    if depth < 0:
        raise UsageError(f"--depth {depth}: give 0 or more")
    kept = set(nx.single_source_shortest_path_length(skeleton.to_undirected(as_view=True), centre, cutoff=depth))
    nodes = [n for n, owner in graph.nodes(data="owner") if n in kept or owner in kept]
    return graph.subgraph(nodes).copy()


def summary_line(target: Path, graph: nx.MultiDiGraph, view: str, chosen: bool, focus: str | None, depth: int) -> str:
    """The one line the command prints: what was drawn, in which view, and why that view."""
    where = f" within {_count(depth, 'step')} of {focus}" if focus else ""
    sizes = f"{_count(graph.number_of_nodes(), 'node')}, {_count(graph.number_of_edges(), 'edge')}"
    line = f"{target}: {view} view{where}, {sizes}"
    if not chosen and view == "clusters":
        line += (
            f" ({len(kb_nodes(graph))} clusters and claims, over {DETAIL_LIMIT}: --view mentions draws each mention)"
        )
    return line


def title(name: str, view: str, focus: str | None, depth: int) -> str:
    """The picture's title: the file, the view, and the focus when there is one."""
    around = f", {_count(depth, 'step')} around {focus}" if focus else ""
    return f"{name}: {view} view{around}"


def _count(number: int, thing: str) -> str:
    return f"{number} {thing}{'s' * (number != 1)}"
