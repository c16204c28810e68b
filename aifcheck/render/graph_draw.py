"""``aifcheck graph``'s files: DOT (written here, no extra needed), PNG and SVG (drawn by
matplotlib, ``pip install 'aifcheck[plot]'``), each within one screen.

A small graph is drawn in columns by kind (claim, components, relations, events, entities) with
full labels; a larger one by parts: each connected part laid out by Kamada-Kawai, the parts packed
in rows to the screen's shape and the lone nodes in a grid after them, with short labels whose
size follows the room each node has. Mentions are placed beside their cluster rather than laid
out, so that they never pull the clusters apart.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterable
from pathlib import Path

import networkx as nx

from aifcheck.errors import OutputError, UsageError
from aifcheck.render.output import FileOutput, check_files, replaced, write_atomically

FORMATS = (".dot", ".svg", ".png")


def check_target(target: Path, inputs: Iterable[str | os.PathLike] = ()) -> None:
    """Refuse, before any work, a picture that could not be written: a name of no known format,
    a folder, an input (UsageError), a place that cannot be written (OutputError)."""
    check_files([FileOutput(target)], inputs)
    if target.suffix.lower() not in FORMATS:
        raise UsageError(f"-o {target}: name the picture .dot, .svg or .png")


def write_graph(graph: nx.MultiDiGraph, target: Path, title: str) -> None:
    """Write the graph as DOT, SVG or PNG, by the target's file name; whole or not at all."""
    check_target(target)
    if target.suffix.lower() == ".dot":
        write_atomically(target, to_dot(graph, title))
        return
    try:
        with replaced(target) as partial:
            draw(graph, partial, target.suffix.lower()[1:], title)
    except OSError as exc:
        raise OutputError(f"cannot write {target}: {exc.strerror or exc}") from None


# how each kind of node looks: (DOT shape, fill colour)
STYLE = {
    "entity": ("ellipse", "#a6cee3"),
    "event": ("box", "#fdbf6f"),
    "relation": ("hexagon", "#b2df8a"),
    "claim": ("note", "#ffff99"),
    "component": ("box", "#e0e0e0"),
    "mention": ("plaintext", "#f4f4f4"),
    "unknown": ("ellipse", "#ffffff"),  # a claim's KE that is no cluster of the file
}


def to_dot(graph: nx.MultiDiGraph, title: str) -> str:
    lines = [
        f"digraph {_quote(title)} {{",
        "  rankdir=LR;",
        '  node [style=filled, fontname="Helvetica"];',
        '  edge [fontname="Helvetica", fontsize=10];',
    ]
    ids = {node: f"n{i}" for i, node in enumerate(graph.nodes)}
    for node, data in graph.nodes(data=True):
        shape, colour = STYLE.get(data.get("kind"), ("ellipse", "#ffffff"))
        label = data.get("label", str(node))
        attributes = f"label={_quote(label)}, shape={shape}, fillcolor={_quote(colour)}, tooltip={_quote(str(node))}"
        lines.append(f"  {ids[node]} [{attributes}];")
    for source, target, data in graph.edges(data=True):
        style = ', style=dashed, color="#999999"' if data.get("line") == "faint" else ""
        lines.append(f"  {ids[source]} -> {ids[target]} [label={_quote(data.get('label', ''))}{style}];")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


SCREEN = (1920, 1200)  # pixels: no picture is larger
DPI = 100
_NARROWEST = 800  # pixels: room for the title and the legend
_AXES_HEIGHT = 0.92  # of the picture: the rest holds the title and the legend
# a graph drawn in columns: its tallest column holds at most COLUMN_ROWS nodes, a cluster has at
# most COLUMN_MENTIONS mentions (drawn in a row below it), and it holds at most COLUMN_NODES nodes,
# mentions included; any other is drawn by parts
COLUMN_ROWS = 14
COLUMN_MENTIONS = 2
COLUMN_NODES = 70
# left to right: the claim, its components, the relations and events it is about, their arguments
_COLUMN = {"claim": 0, "component": 1, "relation": 2, "event": 3, "entity": 4}
_MARKER = {"event": "s", "relation": "h", "claim": "D", "component": "s", "mention": "."}
_EDGE_STYLES = (
    ("faint", {"style": "dashed", "edge_color": "#bbbbbb", "width": 0.8}),
    ("normal", {"edge_color": "#555555", "width": 1.2}),
    ("strong", {"edge_color": "#b2182b", "width": 2.2}),
)


def draw(graph: nx.MultiDiGraph, target: Path, file_format: str, title: str) -> None:
    """Draw the graph into ``target`` as ``file_format`` (png or svg)."""
    try:
        import matplotlib

        matplotlib.use("Agg")  # no screen needed
        import matplotlib.pyplot as plt
    except ImportError:
        raise UsageError(
            f"-o {target}: drawing needs matplotlib: pip install 'aifcheck[plot]' (or write .dot)"
        ) from None
    simple = _one_edge_per_pair(graph)
    layout = _Columns(simple) if _fits_columns(simple) else _Parts(simple)
    figure = plt.figure(figsize=(layout.width / DPI, layout.height / DPI), dpi=DPI)
    axes = figure.add_axes((0, 0.04, 1, _AXES_HEIGHT))  # a strip below for the legend, above for the title
    axes.axis("off")
    figure.suptitle(title, fontsize=11)
    axes.set_xlim(*layout.x_range)
    axes.set_ylim(*layout.y_range)
    positions, size, font = layout.positions, layout.node_size, layout.font
    for kind, (_, colour) in STYLE.items():
        nodes = [n for n, d in simple.nodes(data=True) if d.get("kind") == kind]
        if nodes:
            small = kind == "mention"
            nx.draw_networkx_nodes(
                simple,
                positions,
                nodelist=nodes,
                node_color="#777777" if small else colour,
                node_shape=_MARKER.get(kind, "o"),
                node_size=size / 20 if small else size,
                edgecolors="#555555",
                linewidths=0.6,
                ax=axes,
                label=kind,
            )
    for line, style in _EDGE_STYLES:
        for bend, edges in layout.bends(line):
            nx.draw_networkx_edges(
                simple,
                positions,
                edgelist=edges,
                ax=axes,
                arrows=True,
                arrowsize=max(5, font + 3),
                node_size=size,
                connectionstyle=f"arc3,rad={bend}",
                **style,
            )
    _draw_labels(simple, layout, axes)
    if simple:
        axes.legend(
            loc="upper left",
            bbox_to_anchor=(0, 0),
            ncol=6,
            fontsize=9,
            markerscale=min(1.0, 12 / math.sqrt(size)),
            frameon=False,
        )
    else:
        axes.text(0.5, 0.5, "no cluster or claim", transform=axes.transAxes, ha="center", fontsize=11, color="#555555")
    figure.savefig(target, format=file_format, dpi=DPI)
    plt.close(figure)


def _draw_labels(graph: nx.DiGraph, layout: _Layout, axes) -> None:
    key, font = layout.label_key, layout.font
    main = {n: d.get(key, n) for n, d in graph.nodes(data=True) if d.get("kind") != "mention"}
    if layout.label_drop:  # below the node, which a short label would hide
        below = {n: (x, y - layout.label_drop) for n, (x, y) in layout.positions.items() if n in main}
        nx.draw_networkx_labels(graph, below, labels=main, font_size=font, verticalalignment="top", ax=axes)
    else:
        nx.draw_networkx_labels(graph, layout.positions, labels=main, font_size=font, ax=axes)
    mentions = {n: d.get(key, n) for n, d in graph.nodes(data=True) if d.get("kind") == "mention"}
    if mentions:  # beside the dot, smaller: detail, not a node of its own weight
        shifted = {n: (x + layout.mention_gap, y) for n, (x, y) in layout.positions.items() if n in mentions}
        nx.draw_networkx_labels(
            graph,
            shifted,
            labels=mentions,
            font_size=max(4, font - 1.5),
            font_color="#444444",
            horizontalalignment="left",
            ax=axes,
        )
    box = {"boxstyle": "round,pad=0.1", "fc": "white", "ec": "none", "alpha": 0.75}
    for bend, edges in layout.bends():
        labels = {(u, v): graph.edges[u, v][key] for u, v in edges if graph.edges[u, v][key]}
        if labels:
            nx.draw_networkx_edge_labels(
                graph,
                layout.positions,
                edge_labels=labels,
                font_size=max(5, font - 1),
                font_color="#1f4e79",
                bbox=box,
                ax=axes,
                connectionstyle=f"arc3,rad={bend}",
            )


def _one_edge_per_pair(graph: nx.MultiDiGraph) -> nx.DiGraph:
    """One arrow per pair of nodes, its labels joined; drawn faint only when every edge is."""
    simple = nx.DiGraph()
    simple.add_nodes_from(graph.nodes(data=True))
    for source, target, data in graph.edges(data=True):
        known = (
            simple.edges[source, target]
            if simple.has_edge(source, target)
            else {"label": "", "short": "", "line": "faint"}
        )
        line = data.get("line", "normal")
        if "normal" in (known["line"], line):
            line = "normal"
        simple.add_edge(
            source,
            target,
            line=line,
            **{k: "\n".join(filter(None, (known[k], data.get(k, "")))) for k in ("label", "short")},
        )
    return simple


def _fits_columns(graph: nx.DiGraph) -> bool:
    kinds = [kind for _, kind in graph.nodes(data="kind")]
    rows = max((kinds.count(kind) for kind in _COLUMN), default=0)
    mentions = max((len(_mentions_of(graph, node)) for node in graph), default=0)
    return rows <= COLUMN_ROWS and len(kinds) <= COLUMN_NODES and mentions <= COLUMN_MENTIONS


def _mentions_of(graph: nx.DiGraph, node) -> list:
    return [n for n in graph.successors(node) if graph.nodes[n].get("kind") == "mention"]


class _Layout:
    """Where each node goes, the picture's size in pixels, and the sizes of nodes and type."""

    positions: dict
    width: int
    height: int
    x_range: tuple[float, float]
    y_range: tuple[float, float]
    node_size: float  # points squared, as matplotlib takes it
    font: float  # points
    label_key: str  # the node attribute shown: label (full) or short
    mention_gap: float  # from a mention's dot to its label, in layout units
    label_drop: float = 0.0  # from a node's centre to the top of its label (0: the label on the node)

    def __init__(self, graph: nx.DiGraph) -> None:
        self.graph = graph

    def bend(self, u, v) -> float:
        return 0.08  # a little, so that two opposite edges part

    def bends(self, line: str | None = None) -> list[tuple[float, list]]:
        """Edges (those drawn as ``line``, or all) grouped by how much they bend (see bend). Each
        loop (an edge from a node to itself) is a group of its own: networkx sizes loops by the
        extent of the edges drawn with them, and a loop drawn alone has its node's size."""
        groups: dict[float, list] = {}
        loops = []
        for u, v, data in self.graph.edges(data=True):
            if (line is None or data["line"] == line) and self.graph.nodes[v].get("kind") != "mention":
                if u == v:
                    loops.append((0.0, [(u, v)]))
                else:
                    groups.setdefault(self.bend(u, v), []).append((u, v))
        return list(groups.items()) + loops

    def _frame(
        self, xs: tuple[float, float], ys: tuple[float, float], most: tuple[float, float], equal: bool
    ) -> tuple[float, float]:
        """Size the picture to the layout's extent (``xs``, ``ys``: its ranges in units) within the
        screen, at most ``most`` pixels a unit across and up (the same both ways when ``equal``);
        the pixels a unit takes across and up."""
        (left, right), (bottom, top) = xs, ys
        across = min(SCREEN[0] / (right - left), most[0])
        up = min(SCREEN[1] * _AXES_HEIGHT / (top - bottom), most[1])
        if equal:
            across = up = min(across, up)
        self.width = max(_NARROWEST, round((right - left) * across))
        self.height = round((top - bottom) * up / _AXES_HEIGHT)
        widen = (self.width / across - (right - left)) / 2  # a picture widened to _NARROWEST: centred
        self.x_range, self.y_range = (left - widen, right + widen), (bottom, top)
        return across, up


def _place_mentions(graph: nx.DiGraph, positions: dict, below: float, step: float) -> None:
    """Each cluster's mentions beside it, where its place says whose they are (no line is drawn to
    them): ``below > 0``: in a row that far below it; else stacked above it, ``step`` apart."""
    for owner, (x, y) in list(positions.items()):
        for i, node in enumerate(_mentions_of(graph, owner)):
            positions[node] = (x - 0.1 + 0.25 * i, y - below) if below > 0 else (x + 0.05, y + 0.18 + step * i)


class _Columns(_Layout):
    """Columns by kind (see _COLUMN), each ordered so that a node sits near the nodes it is linked
    to (barycentres, twice over); full labels."""

    label_key = "label"

    def __init__(self, graph: nx.DiGraph) -> None:
        super().__init__(graph)
        columns: dict[int, list] = {}
        for node, kind in graph.nodes(data="kind"):
            if kind != "mention":
                columns.setdefault(_COLUMN.get(kind, 3), []).append(node)
        order = sorted(columns)
        for column in columns.values():
            column.sort(key=str)
        rank: dict = {}
        for _ in range(2):
            for index in order:
                for i, node in enumerate(columns[index]):
                    rank.setdefault(node, i)
                others = set(columns[index])

                def centre(node, others=others):
                    linked = [rank[n] for n in nx.all_neighbors(graph, node) if n in rank and n not in others]
                    return sum(linked) / len(linked) if linked else rank[node]

                columns[index].sort(key=centre)
                rank.update({node: i for i, node in enumerate(columns[index])})
        rows = max((len(c) for c in columns.values()), default=1)
        self.positions = {}
        for x, index in enumerate(order):
            column = columns[index]
            for i, node in enumerate(column):
                self.positions[node] = (
                    x,
                    (rows - 1) / 2 - i * (rows - 1) / max(len(column) - 1, 1) if len(column) > 1 else 0.0,
                )
        self._columns = {node: x for node, (x, _) in self.positions.items()}
        self.mention_gap = 0.03
        _place_mentions(graph, self.positions, 0.42, 0.0)
        has_mentions = len(self.positions) > len(self._columns)
        half = max(rows, 2) / 2
        # a column 3.6 inches wide, a row 1.25 inches high, at most; nodes and type shrink with the rows
        across, up = self._frame((-0.55, len(order) - 0.45 + 0.5 * has_mentions), (-half, half), (360, 125), False)
        scale = min(across / 360, up / 125)
        self.node_size, self.font = 3000 * scale**2, max(5.0, 8 * scale)

    def bend(self, u, v) -> float:
        # an edge within a column bends well out of it, so that it does not run over the column's other nodes
        same = u in self._columns and self._columns.get(u) == self._columns.get(v)
        return 0.45 if same else super().bend(u, v)


class _Parts(_Layout):
    """Each connected part laid out by Kamada-Kawai (spring for a very large part), scaled so that
    an edge is about one unit long and turned to lie wider than high; the lone nodes in a grid; the
    parts and the grid packed in rows, the packing chosen to fill the screen; short labels.

    Written here because networkx lays out a graph but does not pack its parts, and a real KB is
    mostly lone clusters and small parts beside one large one."""

    label_key = "short"

    def __init__(self, graph: nx.DiGraph) -> None:
        super().__init__(graph)
        core = nx.Graph(graph.subgraph(n for n, kind in graph.nodes(data="kind") if kind != "mention"))
        parts = sorted(nx.connected_components(core), key=lambda p: (-len(p), min(map(str, p))))
        alone = sorted(
            (next(iter(p)) for p in parts if len(p) == 1), key=lambda n: (core.nodes[n].get("kind", ""), str(n))
        )
        # with mentions, each cluster needs room for the arc of mentions around it
        self._gap = gap = 1.7 if core.number_of_nodes() < graph.number_of_nodes() else 1.0
        pieces = [_part(core.subgraph(p), gap) for p in parts if len(p) > 1]
        self.positions = _best_packing(pieces, alone, gap)
        self.mention_gap = 0.06
        _place_mentions(graph, self.positions, 0.0, 0.13)
        margin = 1.0  # half a label beyond the outermost nodes
        xs = [x for x, _ in self.positions.values()] or [0.0]
        ys = [y for _, y in self.positions.values()] or [0.0]
        right = margin + 1.2 * (core.number_of_nodes() < graph.number_of_nodes())  # mentions' labels go right
        per_unit, _ = self._frame(
            (min(xs) - margin, max(xs) + right), (min(ys) - margin, max(ys) + margin), (170, 170), True
        )
        # a node a fifth of a unit across; type sized so that a short label's line (about 16
        # characters) fits in a unit and a half
        self.node_size = (0.2 * per_unit * 72 / DPI) ** 2
        self.label_drop = 0.12
        self.font = min(9.0, max(5.0, per_unit * 0.1))


_STRETCH = 1.5  # a part is drawn this much wider than high: a label is wider than high
_KAMADA_KAWAI_MOST = 300  # nodes: past this a part is laid out by the spring layout alone (faster, looser)


def _part(part: nx.Graph, gap: float) -> dict:
    """A connected part's positions: an edge about ``gap`` units long, wider than high. Kamada-Kawai
    (up to _KAMADA_KAWAI_MOST nodes) keeps graph distances, which lays a long chain out as a line
    no screen holds: the spring layout, which coils it, is tried too, and the one the screen shows
    larger is kept."""
    tried = [nx.spring_layout(part, seed=1)]
    if part.number_of_nodes() <= _KAMADA_KAWAI_MOST:
        tried.insert(0, nx.kamada_kawai_layout(part))
    shaped = [_shaped(part, positions, gap) for positions in tried]
    return max(shaped, key=_screen_scale)


def _shaped(part: nx.Graph, positions: dict, gap: float) -> dict:
    """Positions turned to lie along x, scaled to an edge ``gap`` long (``_STRETCH`` times wider),
    and spread where nodes crowd (the leaves of a hub)."""
    import numpy as np
    from scipy.spatial import cKDTree

    nodes = list(positions)
    points = np.array([positions[n] for n in nodes], dtype=float)
    points -= points.mean(axis=0)
    _, _, axes = np.linalg.svd(points, full_matrices=False)  # the main axis first
    points = points @ axes.T
    index = {n: i for i, n in enumerate(nodes)}
    lengths = sorted(float(np.linalg.norm(points[index[u]] - points[index[v]])) for u, v in part.edges if u != v)
    unit = lengths[len(lengths) // 2] if lengths and lengths[len(lengths) // 2] > 0 else 1.0
    points = points / unit * gap * np.array([_STRETCH, 1.0])
    # most nodes a gap's worth (less a quarter) from the nearest one
    nearest = cKDTree(points / [_STRETCH, 1.0]).query(points / [_STRETCH, 1.0], k=2)[0][:, 1]
    crowded = float(np.percentile(nearest, 10))
    points *= min(3.0, max(1.0, 0.75 * gap / crowded)) if crowded > 0 else 1.0
    return {n: (float(x), float(y)) for n, (x, y) in zip(nodes, points, strict=True)}


def _screen_scale(piece: dict) -> float:
    """Pixels a unit would take if ``piece`` filled the screen alone."""
    _, _, wide, high = _box(piece)
    return min(SCREEN[0] / (wide + 1.4), SCREEN[1] * _AXES_HEIGHT / (high + 1.4))


def _grid(nodes: list, across: int, gap: float) -> dict:
    """Lone nodes in rows of ``across``: a cell is wider than high, as their labels are, and wider
    than an edge is long (labels side by side have no edge between them to part them)."""
    return {n: (gap * _STRETCH * 1.25 * (i % across), -gap * (i // across)) for i, n in enumerate(nodes)}


def _best_packing(pieces: list[dict], alone: list, gap: float) -> dict:
    """The packing (see _pack) of the parts and the grid of lone nodes that draws them largest on
    the screen, trying grids and rows of several widths."""
    best = (0.0, {})
    grids = (
        [
            _grid(alone, across, gap)
            for across in sorted({max(1, round(len(alone) ** 0.5 * f)) for f in (0.5, 0.7, 1, 1.4, 2, 3)})
        ]
        if alone
        else [None]
    )
    for grid in grids:
        shown = pieces + ([grid] if grid else [])
        boxes = [_box(piece) for piece in shown]
        narrowest, widest = max(w for _, _, w, _ in boxes), sum(w + gap * _STRETCH for _, _, w, _ in boxes)
        for step in range(13):
            placed, wide, high = _pack(shown, boxes, narrowest + (widest - narrowest) * step / 12, gap)
            scale = min(SCREEN[0] / (wide + 1.4), SCREEN[1] * _AXES_HEIGHT / (high + 1.4))
            if scale > best[0]:
                best = (scale, placed)
    return best[1]


def _box(piece: dict) -> tuple[float, float, float, float]:
    xs, ys = [x for x, _ in piece.values()], [y for _, y in piece.values()]
    return min(xs), max(ys), max(xs) - min(xs), max(ys) - min(ys)


def _pack(pieces: list[dict], boxes: list, row_width: float, gap: float) -> tuple[dict, float, float]:
    """The pieces side by side in rows at most ``row_width`` wide (a wider piece alone in its
    row), tallest first; their positions moved to their places, and the width and height taken."""
    placed: dict = {}
    x = y = row_height = wide = 0.0
    for index in sorted(range(len(pieces)), key=lambda i: -boxes[i][3]):
        left, top, w, h = boxes[index]
        if x > 0 and x + w > row_width:
            x, y, row_height = 0.0, y - row_height - gap, 0.0
        placed.update({n: (px - left + x, py - top + y) for n, (px, py) in pieces[index].items()})
        wide = max(wide, x + w)
        x += w + gap * _STRETCH
        row_height = max(row_height, h)
    return placed, wide, row_height - y
