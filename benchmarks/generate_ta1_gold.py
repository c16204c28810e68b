"""Synthetic TA1 gold and AUX data for a run of synthetic documents (benchmarks/generate_aif.py).

Usage: python benchmarks/generate_ta1_gold.py TABLES GOLD AUX [--seed S]
then:  aifcheck score ta1 RUN --gold GOLD --aux AUX --type-similarity AUX/type_similarity.tsv
                             --taggable-types AUX/taggable_types.txt -o OUT

TABLES holds a run's TA1 tables in NIST's layout (``aifcheck query RUN --task ta1 --nist-layout
-o TABLES``). GOLD receives one folder per document with the three gold tables, AUX the seven
files NIST's scorer reads. The gold is the run's own tables, changed as annotators and systems
differ, so that scoring has alignment work to do (seeded; the same seed gives the same files):
  - IRIs shortened to their local names, as LDC's gold writes clusters and metatypes;
  - a tenth of the rows dropped (missed), a tenth of the types replaced (mistyped);
  - a fifth of the text spans moved by a few characters (partial overlaps);
  - a tenth of the temporal ranges moved by one or two years.
AUX lists every document as core, each span's element (text, or image when a span has a height)
under each document using it, one sentence covering each text element's spans, and each image's
size, large enough for every span on it. The generator draws element IDs from a small space per
block of documents, so one element may carry both kinds of span: it is an image then, and its
text spans lie within it. An element's language is its document's: documents SYN000xxxx are English, SYN001xxxx
Russian, SYN002xxxx Spanish, and so on in turn (elements are shared within such a block only).
"""

from __future__ import annotations

import argparse
import csv
import random
import re
from pathlib import Path

TABLES = ("AIDA_P3_TA1_CM_A0001", "AIDA_P3_TA1_AM_A0001", "AIDA_P3_TA1_TM_A0001")
SPAN = re.compile(
    r"^(?P<doc>[^:]+):(?P<element>[^:]+):\((?P<x1>-?\d+),(?P<y1>-?\d+)\)-\((?P<x2>-?\d+),(?P<y2>-?\d+)\)$"
)
LANGUAGES = ("eng", "rus", "spa")
ENCODINGS = (("jpg", "image"), ("ltf", "text"), ("mp4", "video"), ("png", "image"))


def local_name(cell: str) -> str:
    """<...#cluster-X> -> cluster-X; other cells unchanged."""
    if cell.startswith("<") and cell.endswith(">"):
        return re.split(r"[#/]", cell[1:-1])[-1]
    return cell


def shifted_years(row: list[str], years: int) -> list[str]:
    """A TM row with every year moved by the same amount, so that the range stays valid; the
    open ends ("0001", "9999") are kept."""
    return [
        f'"{int(cell[1:-1]) + years:04d}"' if i % 3 == 0 and i and cell not in ('"0001"', '"9999"') else cell
        for i, cell in enumerate(row)
    ]


class Gold:
    def __init__(self, seed: int) -> None:
        self.seed = seed
        # element -> {"image": bool, "documents": set, "x": largest end x, "y": largest end y}
        self.elements: dict[str, dict] = {}
        self.types: set[str] = set()
        self.similar: dict[tuple[str, str], float] = {}  # (run's type, the gold's replacement) -> similarity

    def note_span(self, cell: str) -> None:
        match = SPAN.match(cell)
        if match is None:
            return
        element = self.elements.setdefault(match["element"], {"image": False, "documents": set(), "x": 0, "y": 0})
        element["documents"].add(match["doc"])
        element["image"] |= int(match["y2"]) > 0
        element["x"] = max(element["x"], int(match["x2"]))
        element["y"] = max(element["y"], int(match["y2"]))

    def moved(self, cell: str, rng: random.Random) -> str:
        match = SPAN.match(cell)
        if match is None or int(match["y2"]) > 0 or rng.random() >= 0.2:
            return cell
        shift = rng.randint(-5, 5)
        start, end = max(0, int(match["x1"]) + shift), max(0, int(match["x2"]) + shift)
        return f"{match['doc']}:{match['element']}:({start},0)-({end},0)"

    def document(self, tables: Path, out: Path) -> None:
        rng = random.Random(f"{self.seed}:{tables.name}")
        out.mkdir(parents=True, exist_ok=True)
        for table in TABLES:
            # NIST's tables are tab-joined cells, quotes kept as written ("1.0"): no CSV quoting
            header, *rows = [
                line.split("\t") for line in (tables / f"{table}.rq.tsv").read_text(encoding="utf-8").splitlines()
            ]
            kept = []
            for row in rows:
                for cell in row:
                    self.note_span(cell)
                if table.endswith("CM_A0001"):
                    self.types.add(row[header.index("?type")])
                if rng.random() < 0.1:
                    continue
                row = [self.moved(local_name(cell), rng) for cell in row]
                if table.endswith("CM_A0001"):
                    column = header.index("?type")
                    if rng.random() < 0.1:
                        other = f"Q{rng.randrange(1, 99_999_999)}"
                        self.types.add(other)
                        self.similar[(row[column], other)] = round(rng.uniform(0.3, 0.95), 4)
                        row[column] = other
                if table.endswith("TM_A0001") and rng.random() < 0.1:
                    row = shifted_years(row, rng.choice((-2, -1, 1, 2)))
                kept.append(row)
            (out / f"{table}.rq.tsv").write_text(
                "".join("\t".join(row) + "\n" for row in [header, *kept]), encoding="utf-8"
            )

    def write_aux(self, aux: Path, documents: list[str]) -> None:
        aux.mkdir(parents=True, exist_ok=True)

        def write(name: str, header: tuple[str, ...], rows) -> None:
            with open(aux / name, "w", encoding="utf-8", newline="") as file:
                writer = csv.writer(file, delimiter="\t", lineterminator="\n")
                writer.writerow(header)
                writer.writerows(rows)

        write("SYN.coredocs-xx.txt", ("root_id",), ([d] for d in documents))
        write("encoding_modality.txt", ("encoding", "modality"), ENCODINGS)
        parent_children = []
        for element, seen in sorted(self.elements.items()):
            for document in sorted(seen["documents"]):
                language = "n/a" if seen["image"] else LANGUAGES[int(document[3:6]) % len(LANGUAGES)]
                parent_children.append((element, "jpg" if seen["image"] else "ltf", document, language))
        write("SYN.parent_children.tsv", ("doceid", "detype", "docid", "lang_manual"), parent_children)
        texts = [(e, 0, 0, s["x"] + 100, 0, s["x"] + 100) for e, s in sorted(self.elements.items()) if not s["image"]]
        write(
            "SYN.sentence_boundaries.txt",
            ("doceid", "segment_id", "start_char", "end_char", "start_segment_offset", "end_segment_offset"),
            texts,
        )
        images = [(f"{e}.jpg", f"{s['x'] + 50}x{s['y'] + 50}") for e, s in sorted(self.elements.items()) if s["image"]]
        write("SYN.image_boundaries.txt", ("image_filename", "wxh"), images)
        write("SYN.keyframe_boundaries.txt", ("keyframeid", "wxh"), ())
        write("SYN.video_boundaries.txt", ("video_filename", "length"), ())
        # the synthetic Qnodes are in no DWD table: every type is taggable, and a replaced type is
        # somewhat similar to the one it replaced (both ways)
        pairs = sorted({p for (a, b), v in self.similar.items() for p in ((a, b, v), (b, a, v))})
        write("type_similarity.tsv", ("q1", "q2", "similarity"), pairs)
        (aux / "taggable_types.txt").write_text("".join(f"{t}\n" for t in sorted(self.types)), encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tables", type=Path)
    parser.add_argument("gold", type=Path)
    parser.add_argument("aux", type=Path)
    parser.add_argument("--seed", type=int, default=54)
    args = parser.parse_args()
    gold = Gold(args.seed)
    folders = sorted(p for p in args.tables.iterdir() if p.is_dir())
    for folder in folders:
        gold.document(folder, args.gold / folder.name)
    gold.write_aux(args.aux, [f.name.removesuffix(".ttl") for f in folders])
    print(f"{args.gold}: gold for {len(folders)} documents; {args.aux}: {len(gold.elements)} elements")


if __name__ == "__main__":
    main()
