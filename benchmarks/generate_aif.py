"""Deterministic synthetic NIST-restricted AIF, shaped like the M54 TA1 KBs (task1-run/*.ttl).

Usage:
  python benchmarks/generate_aif.py --documents N OUT_DIR [--seed S]   N document KBs (sized like task1-run)
  python benchmarks/generate_aif.py --triples N OUT.ttl [--seed S]     one corpus KB of about N triples

Every IRI and blank-node label is fresh (no text is copied from the real KBs). The structure
follows the LDC model files: SameAsClusters with prototypes; ClusterMemberships ([] subjects);
members typed by rdf:Statement reifications (rdf:predicate rdf:type, a Qnode string object)
justified by TextJustification or ImageJustification (+ BoundingBox) blank nodes; informative
justifications on prototypes and members; aida:ArgumentStatement between events/relations and
their arguments with a CompoundJustification; LDCTime 4-tuples (start/end, BEFORE/AFTER);
LinkAssertions ([] objects); handles, names, attributes, one Confidence and one System.

Output is streamed document by document, so memory stays constant whatever N is. The same
seed gives byte-identical output. The result validates with no error under
``aifcheck validate --profile nist``.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import TextIO

AIDA = "https://raw.githubusercontent.com/NextCenturyCorporation/AIDA-Interchange-Format/master/java/src/main/resources/com/ncc/aif/ontologies/InterchangeOntology#"
LDC = "https://raw.githubusercontent.com/NextCenturyCorporation/AIDA-Interchange-Format/master/java/src/main/resources/com/ncc/aif/ontologies/LdcAnnotations#"

HEADER = (
    f"@prefix aida: <{AIDA}> .\n"
    f"@prefix ldc: <{LDC}> .\n"
    "@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .\n"
    "@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .\n\n"
)

SHARED = (
    "ldc:confidence a aida:Confidence ;\n"
    '    aida:confidenceValue "1.0"^^xsd:double ;\n'
    "    aida:system ldc:LDCModelGenerator .\n\n"
    "ldc:LDCModelGenerator a aida:System .\n\n"
)
SHARED_TRIPLES = 4

WORDS = [
    "virus",
    "vaccine",
    "mask",
    "clinic",
    "minister",
    "doctor",
    "city",
    "hospital",
    "ministry",
    "village",
    "school",
    "market",
    "report",
    "study",
    "lockdown",
    "border",
    "flight",
    "patient",
    "nurse",
    "army",
    "herb",
    "remedy",
    "cure",
    "drug",
    "test",
    "outbreak",
    "protest",
    "election",
    "journal",
    "press",
    "agency",
    "council",
    "court",
    "police",
    "storm",
    "river",
    "harbour",
    "bridge",
]
ROLES = [
    "A0_pag_agent",
    "A1_ppt_theme",
    "A1_ppt__patient",
    "A2_ppt__illness_or_injury",
    "AM_loc__location",
    "AM_mnr__manner",
    "AM_tmp__time",
    "A0_pag_communicator",
    "A1_ppt_topic",
    "A2_gol_recipient",
]
ATTRIBUTES = ("aida:Negated", "aida:Hedged", "aida:Irrealis", "aida:Generic")

# triples per document with the default sizes below, measured; used to size --triples runs
TRIPLES_PER_DOCUMENT = 10_200
# The triple counts of the five task1-run KBs: --documents cycles through them (5,792 on average,
# so 2,000 documents hold about 11.6M triples, as the run built from task1-run does).
REAL_DOCUMENT_TRIPLES = (10_230, 3_877, 11_013, 1_361, 2_481)


def qnode(rng: random.Random) -> str:
    return f"Q{rng.randrange(1, 99_999_999)}"


def name(rng: random.Random) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 3)))


class Document:
    """One synthetic source document: writes its KB statements and counts its triples."""

    def __init__(self, index: int, rng: random.Random, clusters: int = 200):
        self.rng = rng
        self.doc = f"SYN{index:07d}"
        self.clusters = clusters
        self.bnode = 0
        self.serial = 0  # members written so far
        self.triples = 0
        self.parts: list[str] = []

    def label(self) -> str:
        self.bnode += 1
        return f"_:{self.doc.lower()}b{self.bnode}"

    def block(self, subject: str, pairs: list[tuple[str, str]]) -> None:
        """One subject block in the LDC style: `s a T ;\\n    p o ;\\n    p o .`"""
        lines = [subject + " " + pairs[0][0] + " " + pairs[0][1]]
        lines += ["    " + p + " " + o for p, o in pairs[1:]]
        self.parts.append(" ;\n".join(lines) + " .\n\n")
        self.triples += len(pairs)

    def justification(self) -> str:
        rng = self.rng
        node = self.label()
        source = f'"{self.doc[:6]}{rng.randrange(36**3):03X}"'
        if rng.random() < 0.25:
            box = self.label()
            x, y = rng.randrange(0, 900), rng.randrange(0, 900)
            self.block(
                box,
                [
                    ("a", "aida:BoundingBox"),
                    ("aida:boundingBoxLowerRightX", f'"{x + rng.randrange(5, 200)}"^^xsd:int'),
                    ("aida:boundingBoxLowerRightY", f'"{y + rng.randrange(5, 200)}"^^xsd:int'),
                    ("aida:boundingBoxUpperLeftX", f'"{x}"^^xsd:int'),
                    ("aida:boundingBoxUpperLeftY", f'"{y}"^^xsd:int'),
                ],
            )
            self.block(
                node,
                [
                    ("a", "aida:ImageJustification"),
                    ("aida:boundingBox", box),
                    ("aida:confidence", "ldc:confidence"),
                    ("aida:source", source),
                    ("aida:sourceDocument", f'"{self.doc}"'),
                    ("aida:system", "ldc:LDCModelGenerator"),
                ],
            )
        else:
            start = rng.randrange(0, 20_000)
            self.block(
                node,
                [
                    ("a", "aida:TextJustification"),
                    ("aida:confidence", "ldc:confidence"),
                    ("aida:endOffsetInclusive", f'"{start + rng.randrange(3, 40)}"^^xsd:int'),
                    ("aida:source", source),
                    ("aida:sourceDocument", f'"{self.doc}"'),
                    ("aida:startOffset", f'"{start}"^^xsd:int'),
                    ("aida:system", "ldc:LDCModelGenerator"),
                ],
            )
        return node

    def ldc_time(self) -> str:
        rng = self.rng
        before, after, node = self.label(), self.label(), self.label()
        year = rng.randrange(1990, 2024)
        self.block(
            before,
            [
                ("a", "aida:LDCTimeComponent"),
                ("aida:day", f'"---{rng.randint(1, 28):02d}"^^xsd:gDay'),
                ("aida:month", f'"--{rng.randint(1, 12):02d}"^^xsd:gMonth'),
                ("aida:timeType", '"BEFORE"'),
                ("aida:year", f'"{year + 1}"^^xsd:gYear'),
            ],
        )
        self.block(
            after,
            [
                ("a", "aida:LDCTimeComponent"),
                ("aida:day", f'"---{rng.randint(1, 28):02d}"^^xsd:gDay'),
                ("aida:month", f'"--{rng.randint(1, 12):02d}"^^xsd:gMonth'),
                ("aida:timeType", '"AFTER"'),
                ("aida:year", f'"{year}"^^xsd:gYear'),
            ],
        )
        self.block(
            node,
            [
                ("a", "aida:LDCTime"),
                ("aida:end", f"{before},\n        {after}"),
                ("aida:start", f"{before},\n        {after}"),
                ("aida:system", "ldc:LDCModelGenerator"),
            ],
        )
        self.triples += 2  # the second object of end and of start
        return node

    def type_statement(self, subject: str, qid: str, justification: str) -> None:
        self.block(
            "[]",
            [
                ("a", "rdf:Statement"),
                ("rdf:object", f'"{qid}"'),
                ("rdf:predicate", "rdf:type"),
                ("rdf:subject", subject),
                ("aida:confidence", "ldc:confidence"),
                ("aida:justifiedBy", justification),
                ("aida:system", "ldc:LDCModelGenerator"),
            ],
        )

    def render(self) -> str:
        rng = self.rng
        kinds = [("E", "aida:Entity")] * 6 + [("V", "aida:Event")] * 3 + [("R", "aida:Relation")]
        justifications = [self.justification() for _ in range(max(4, self.clusters // 2))]
        times = [self.ldc_time() for _ in range(max(1, self.clusters // 40))]
        prototypes: dict[str, list[str]] = {"E": [], "V": [], "R": []}
        for c in range(self.clusters):
            letter, kind = rng.choice(kinds)
            prototypes[letter].append(
                self.cluster(f"NIL{letter}{self.doc}{c:05d}", letter, kind, justifications, times)
            )
        compounds = [self.compound(justifications) for _ in range(max(1, self.clusters // 20))]
        # arguments join prototypes, as NIST reads them (N12a ignores member-to-member edges)
        heads = prototypes["V"] + prototypes["R"]
        arguments = prototypes["E"] + prototypes["V"]
        if heads and arguments:
            for head in heads:
                self.arguments(head, arguments, compounds)
        return "".join(self.parts)

    def cluster(self, cluster_id: str, letter: str, kind: str, justifications: list[str], times: list[str]) -> str:
        """A cluster, its prototype and its members (with their memberships); returns the prototype."""
        rng = self.rng
        cluster = f"ldc:cluster-{cluster_id}"
        prototype = f"{cluster}-prototype"
        self.block(
            cluster,
            [("a", "aida:SameAsCluster"), ("aida:prototype", prototype), ("aida:system", "ldc:LDCModelGenerator")],
        )
        informative = rng.choice(justifications)
        pairs = [("a", kind)]
        label = name(rng)
        if letter == "E":
            pairs.append(("aida:handle", f'"{label}"'))
        if rng.random() < 0.15:  # entities may only be Generic (A7)
            pairs.append(("aida:attributes", "aida:Generic" if letter == "E" else rng.choice(ATTRIBUTES)))
        pairs.append(("aida:informativeJustification", informative))
        if letter != "E":
            pairs.append(("aida:ldcTime", rng.choice(times)))
        if letter == "E" and rng.random() < 0.3:
            link = (
                "[ a aida:LinkAssertion ;\n            aida:confidence ldc:confidence ;\n"
                f'            aida:linkTarget "{qnode(rng)}" ]'
            )
            pairs.append(("aida:link", link))
            self.triples += 3
        pairs.append(("aida:system", "ldc:LDCModelGenerator"))
        self.block(prototype, pairs)
        self.type_statement(prototype, "EMPTY_NA", informative)
        qid = qnode(rng)
        for _ in range(rng.choice((1, 1, 1, 2, 2, 3))):
            self.member(cluster, letter, kind, label, qid, rng.choice(justifications), times)
        return prototype

    def member(
        self, cluster: str, letter: str, kind: str, label: str, qid: str, justification: str, times: list[str]
    ) -> None:
        """A member of ``cluster``, its membership and its type statement."""
        rng = self.rng
        self.serial += 1
        member = f"ldc:{letter}M{self.doc}.{self.serial:06d}"
        pairs = [("a", kind)]
        if letter == "E":
            pairs.append(("aida:handle", f'"{label}"'))
            if rng.random() < 0.1:
                pairs.append(("aida:hasName", f'"{label}"'))
        pairs.append(("aida:informativeJustification", justification))
        pairs.append(("aida:justifiedBy", justification))
        if letter != "E":
            pairs.append(("aida:ldcTime", rng.choice(times)))
        self.block(member, pairs)
        self.block(
            "[]",
            [
                ("a", "aida:ClusterMembership"),
                ("aida:cluster", cluster),
                ("aida:clusterMember", member),
                ("aida:confidence", "ldc:confidence"),
                ("aida:system", "ldc:LDCModelGenerator"),
            ],
        )
        self.type_statement(member, qid, justification)

    def compound(self, justifications: list[str]) -> str:
        node = self.label()
        self.block(
            node,
            [
                ("a", "aida:CompoundJustification"),
                ("aida:confidence", "ldc:confidence"),
                ("aida:containedJustification", self.rng.choice(justifications)),
                ("aida:system", "ldc:LDCModelGenerator"),
            ],
        )
        return node

    def arguments(self, head: str, arguments: list[str], compounds: list[str]) -> None:
        """One to three argument statements of the event or relation prototype ``head``."""
        rng = self.rng
        for _ in range(rng.choice((1, 2, 2, 3))):
            self.block(
                "[]",
                [
                    ("a", "aida:ArgumentStatement"),
                    ("rdf:object", rng.choice(arguments)),
                    ("rdf:predicate", f'"{rng.choice(ROLES)}"'),
                    ("rdf:subject", head),
                    ("aida:confidence", "ldc:confidence"),
                    ("aida:justifiedBy", rng.choice(compounds)),
                    ("aida:system", "ldc:LDCModelGenerator"),
                ],
            )


def write_kb(out: TextIO, documents: int, seed: int, first: int = 0, clusters: int = 200) -> int:
    """Write a KB holding `documents` documents; returns its triple count."""
    out.write(HEADER)
    out.write(SHARED)
    total = SHARED_TRIPLES
    for index in range(first, first + documents):
        doc = Document(index, random.Random(f"{seed}:{index}"), clusters)
        out.write(doc.render())
        total += doc.triples
    return total


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--documents", type=int, metavar="N", help="write N document KBs into OUT (a folder)")
    mode.add_argument("--triples", type=int, metavar="N", help="write one corpus KB of about N triples to OUT")
    parser.add_argument("out", type=Path)
    parser.add_argument("--seed", type=int, default=54)
    parser.add_argument(
        "--clusters", type=int, help="clusters per document (200: ~10k triples; default: the task1-run sizes)"
    )
    args = parser.parse_args(argv)
    if args.documents is not None:
        args.out.mkdir(parents=True, exist_ok=True)
        total = 0
        for index in range(args.documents):
            clusters = args.clusters or round(200 * REAL_DOCUMENT_TRIPLES[index % 5] / TRIPLES_PER_DOCUMENT)
            with open(args.out / f"SYN{index:07d}.ttl", "w", encoding="utf-8") as out:
                total += write_kb(out, 1, args.seed, index, clusters)
        print(f"{args.out}: {args.documents} documents, {total} triples", file=sys.stderr)
    else:
        clusters = args.clusters or 200
        per_document = TRIPLES_PER_DOCUMENT * clusters / 200
        documents = max(1, round(args.triples / per_document))
        if documents == 1:  # small corpora: one document with fewer clusters
            clusters = max(4, round(clusters * args.triples / per_document))
        args.out.parent.mkdir(parents=True, exist_ok=True)
        with open(args.out, "w", encoding="utf-8", buffering=1 << 20) as out:
            total = write_kb(out, documents, args.seed, 0, clusters)
        print(f"{args.out}: {documents} documents, {total} triples", file=sys.stderr)


if __name__ == "__main__":
    main()
