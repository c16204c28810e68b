"""A KB as a graph to look at (``aifcheck graph``): its clusters, by metatype and labelled with
handle and types, and their argument edges, labelled with roles; for a claim frame, also the claim,
its components and the KEs it is about. networkx holds the graph; DOT is written here (no extra
needed), PNG and SVG are drawn by matplotlib (``pip install 'aifcheck[plot]'``)."""
from __future__ import annotations

from pathlib import Path

import networkx as nx

from ..extract.claims import read_claims
from ..errors import OutputError, UsageError
from ..extract.kg import build_kg
from ..loading.kb import KB
from ..extract.model import Claim, Cluster
from .output import replaced, write_atomically

# how each kind of node looks: (DOT shape, fill colour)
STYLE = {
    "entity": ("ellipse", "#a6cee3"),
    "event": ("box", "#fdbf6f"),
    "relation": ("hexagon", "#b2df8a"),
    "claim": ("note", "#ffff99"),
    "component": ("box", "#e0e0e0"),
}
FORMATS = (".dot", ".svg", ".png")
_TYPES_SHOWN = 2


def build_graph(kb: KB) -> nx.MultiDiGraph:
    """The clusters and argument edges of a KB, and its claims with their components and KEs."""
    graph = nx.MultiDiGraph()
    kg = build_kg(kb)
    for cluster in kg.clusters:
        graph.add_node(cluster.iri, kind=cluster.metatype.value.lower(), label=_cluster_label(cluster))
    for edge in kg.edges:
        if not graph.has_edge(edge.subject, edge.object, key=edge.role):
            graph.add_edge(edge.subject, edge.object, key=edge.role, label=edge.role + (" (negated)" if edge.negated else ""))
    for claim in read_claims(kb):
        _add_claim(graph, claim)
    return graph


def _cluster_label(cluster: Cluster) -> str:
    """A cluster as a reader knows it: its handle (an event or relation has none: its metatype),
    its types, and the end of its IRI, to tell alike clusters apart."""
    name = cluster.handle or cluster.metatype.value.lower()
    types = [t for t, _ in sorted(cluster.types, key=lambda tc: -tc[1])[:_TYPES_SHOWN]]
    more = len(cluster.types) - len(types)
    local = cluster.iri.rsplit("#", 1)[-1].rsplit("/", 1)[-1]
    tail = local if len(local) <= 16 else "…" + local[-15:]  # the end tells alike IRIs apart
    return "\n".join(line for line in (name[:32], ", ".join(types) + (f" +{more}" if more > 0 else ""), tail) if line)


def _add_claim(graph: nx.MultiDiGraph, claim: Claim) -> None:
    node = f"claim {claim.claim_id}"
    text = [f"claim {claim.claim_id}", claim.topic, claim.subtopic or "", claim.epistemic.removeprefix("Epistemic")]
    graph.add_node(node, kind="claim", label="\n".join(t[:50] for t in text if t))
    components = [("x variable", claim.x_variable), ("claimer", claim.claimer), ("location", claim.location),
                  ("medium", claim.medium), *(("affiliation", a) for a in claim.affiliations)]
    for role, component in components:
        if component is None:
            continue
        component_node = f"{node} {role} {component.name}"
        graph.add_node(component_node, kind="component", label=f"{role}: {component.name[:40]}\n{component.identity}")
        graph.add_edge(node, component_node, key=role, label=role)
        if component.ke and component.ke in graph:
            graph.add_edge(component_node, component.ke, key="KE", label="KE")
    for ke in claim.semantics:
        graph.add_edge(node, ke, key="semantics", label="claim semantics", weight="strong")
    for ke in sorted(set(claim.associated_kes) - set(claim.semantics)):
        graph.add_edge(node, ke, key="associated", label="", weight="faint")  # many: drawn light, unlabelled


def write_graph(graph: nx.MultiDiGraph, target: Path, title: str) -> None:
    """Write the graph as DOT, SVG or PNG, by the target's file name."""
    suffix = target.suffix.lower()
    if suffix not in FORMATS:
        raise UsageError(f"-o {target}: name the picture .dot, .svg or .png")
    if suffix == ".dot":
        write_atomically(target, to_dot(graph, title))
        return
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        with replaced(target) as partial:
            _draw(graph, partial, title)
    except OSError as exc:
        raise OutputError(f"cannot write {target}: {exc.strerror or exc}") from None


def to_dot(graph: nx.MultiDiGraph, title: str) -> str:
    lines = [f"digraph {_quote(title)} {{", "  rankdir=LR;", '  node [style=filled, fontname="Helvetica"];',
             '  edge [fontname="Helvetica", fontsize=10];']
    ids = {node: f"n{i}" for i, node in enumerate(graph.nodes)}
    for node, data in graph.nodes(data=True):
        shape, colour = STYLE.get(data.get("kind"), ("ellipse", "#ffffff"))
        label = data.get("label", str(node))
        lines.append(f"  {ids[node]} [label={_quote(label)}, shape={shape}, fillcolor={_quote(colour)}, tooltip={_quote(str(node))}];")
    for source, target, data in graph.edges(data=True):
        lines.append(f"  {ids[source]} -> {ids[target]} [label={_quote(data.get('label', ''))}];")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _draw(graph: nx.MultiDiGraph, target: Path, title: str) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")  # no screen needed
        import matplotlib.pyplot as plt
    except ImportError:
        raise UsageError(f"-o {target}: drawing needs matplotlib: pip install 'aifcheck[plot]' (or write .dot)") from None
    simple = nx.DiGraph()  # one arrow per pair, its labels joined
    simple.add_nodes_from(graph.nodes(data=True))
    for source, target_node, data in graph.edges(data=True):
        known = simple.edges[source, target_node] if simple.has_edge(source, target_node) else {"label": "", "weight": "faint"}
        label = "\n".join(filter(None, (known["label"], data.get("label", ""))))
        weight = "normal" if "normal" in (known["weight"], data.get("weight", "normal")) else data.get("weight", "normal")
        simple.add_edge(source, target_node, label=label, weight=weight)
    positions, columns, rows = _layout(simple)
    # a large KB gets smaller nodes and type rather than an ever taller picture
    scale = min(1.0, 40 / max(rows, 1))
    size, font = _NODE_SIZE * scale, max(4, round(8 * scale))
    figure, axes = plt.subplots(figsize=(max(10.0, 3.6 * columns), min(60.0, max(6.0, 1.25 * rows * scale))))
    axes.set_title(title)
    axes.axis("off")
    for kind, (_, colour) in STYLE.items():
        nodes = [n for n, d in simple.nodes(data=True) if d.get("kind") == kind]
        if nodes:
            marker = {"event": "s", "relation": "h", "claim": "D", "component": "s"}.get(kind, "o")
            nx.draw_networkx_nodes(simple, positions, nodelist=nodes, node_color=colour, node_shape=marker,
                                   node_size=size, edgecolors="#555555", ax=axes, label=kind)
    for weight, style in (("faint", dict(style="dashed", edge_color="#bbbbbb", width=0.8)),
                          ("normal", dict(edge_color="#555555", width=1.2)),
                          ("strong", dict(edge_color="#b2182b", width=2.2))):
        for bend, edges in _by_bend(simple, positions, weight).items():
            nx.draw_networkx_edges(simple, positions, edgelist=edges, ax=axes, arrows=True, arrowsize=12,
                                   node_size=size, connectionstyle=f"arc3,rad={bend}", **style)
    nx.draw_networkx_labels(simple, positions, labels={n: d.get("label", n) for n, d in simple.nodes(data=True)},
                            font_size=font, ax=axes)
    for bend, edges in _by_bend(simple, positions).items():
        labels = {(u, v): simple.edges[u, v]["label"] for u, v in edges if simple.edges[u, v]["label"]}
        nx.draw_networkx_edge_labels(simple, positions, edge_labels=labels, font_size=font - 1, font_color="#1f4e79",
                                     bbox=dict(boxstyle="round,pad=0.15", fc="white", ec="none", alpha=0.8), ax=axes,
                                     connectionstyle=f"arc3,rad={bend}")
    xs = [x for x, _ in positions.values()]
    axes.set_xlim(min(xs) - 0.45, max(xs) + 0.45)  # room for the labels of the outer columns
    axes.legend(loc="upper left", bbox_to_anchor=(0, -0.01), ncol=5, fontsize=9, markerscale=0.35, frameon=False)
    figure.tight_layout()
    figure.savefig(target, dpi=110)
    plt.close(figure)


_NODE_SIZE = 3000


def _by_bend(graph: nx.DiGraph, positions: dict, weight: str | None = None) -> dict[float, list]:
    """Edges grouped by how much they bend: an edge within a column bends well out of it, so that it
    does not run over the column's other nodes; the others bend a little, so that two opposite edges part."""
    groups: dict[float, list] = {}
    for u, v, data in graph.edges(data=True):
        if weight is None or data["weight"] == weight:
            bend = 0.45 if positions[u][0] == positions[v][0] else 0.08
            groups.setdefault(bend, []).append((u, v))
    return groups
# left to right: the claim, its components, the relations and events it is about, their arguments
_COLUMN = {"claim": 0, "component": 1, "relation": 2, "event": 3, "entity": 4}


def _layout(graph: nx.DiGraph) -> tuple[dict, int, int]:
    """Positions in columns by kind (see _COLUMN), each column ordered so that a node sits near the
    nodes it is linked to (barycentres, twice over); also the number of columns and of rows."""
    columns: dict[int, list] = {}
    for node, data in graph.nodes(data=True):
        columns.setdefault(_COLUMN.get(data.get("kind"), 3), []).append(node)
    order = sorted(columns)
    for column in columns.values():
        column.sort(key=str)
    rank: dict = {}
    for _ in range(2):
        for index in order:
            for i, node in enumerate(columns[index]):
                rank.setdefault(node, i)
            def centre(node):
                linked = [rank[n] for n in nx.all_neighbors(graph, node) if n in rank and n not in columns[index]]
                return sum(linked) / len(linked) if linked else rank[node]
            columns[index].sort(key=centre)
            rank.update({node: i for i, node in enumerate(columns[index])})
    rows = max(len(c) for c in columns.values())
    positions = {}
    for x, index in enumerate(order):
        column = columns[index]
        for i, node in enumerate(column):
            positions[node] = (x, (rows - 1) / 2 - i * (rows - 1) / max(len(column) - 1, 1) if len(column) > 1 else 0.0)
    return positions, len(order), rows
