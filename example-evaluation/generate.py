"""Writes the example evaluation: a small, invented corpus and, for each task, what a team submits
and what NIST and LDC hand the scorers (docs/example-evaluation.md says which file stands in for
which of theirs).

    python example-evaluation/generate.py [OUT]

OUT defaults to this script's folder; the files there are this script's output, and
tests/test_example_evaluation.py checks that running it again writes them byte for byte. Nothing
is random: the corpus, the gold and each run's mistakes are written out below.

The world: an outbreak of an invented disease, Kestrel fever, in an invented harbour town, Port
Alder, told by five invented news stories (two English core documents, one Spanish, one Russian,
and an English one that is not a TA1 core document). Every document ID starts with EX, so none
is LDC's.

Only LDC's assessment packages need aifcheck: LDC judges what NIST pools from the runs (TA2: the
mentions of each query's top clusters; TA3: claims, named by the MD5 of their ARF content), so
the script runs aifcheck's pipeline and pool commands, as a user would, and judges their pools
by the corpus' truth written here. Run it with the Python aifcheck is installed in.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path

HERE = Path(__file__).resolve().parent
PACKAGE = "EXAMPLE2021E11"  # the AUX package's name, standing in for LDC2021E11
AIDA = (
    "https://raw.githubusercontent.com/NextCenturyCorporation/AIDA-Interchange-Format/master/"
    "java/src/main/resources/com/ncc/aif/ontologies/InterchangeOntology#"
)
PREFIXES = f"""@prefix aida: <{AIDA}> .
@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
"""

# ------------------------------------------------------------------------------------------------
# The corpus
# ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Image:
    element: str
    width: int
    height: int


@dataclass(frozen=True)
class Document:
    doc_id: str
    language: str  # lang_manual, as LDC writes it
    ta1_core: bool  # in coredocs-xx.txt (TA1); every document is in coredocs.txt (TA2)
    element: str  # the text element (an LTF file)
    sentences: tuple[str, ...]
    image: Image | None = None

    @property
    def text(self) -> str:
        return " ".join(self.sentences)

    def sentence_spans(self) -> list[tuple[int, int]]:
        """Each sentence's first and last character (inclusive), in the element's text."""
        spans, start = [], 0
        for sentence in self.sentences:
            spans.append((start, start + len(sentence) - 1))
            start += len(sentence) + 1
        return spans

    def offsets(self, phrase: str, nth: int = 1) -> tuple[int, int]:
        """The first and last character of the nth occurrence of ``phrase``."""
        at = -1
        for _ in range(nth):
            at = self.text.find(phrase, at + 1)
            if at < 0:
                raise ValueError(f"{self.doc_id}: occurrence {nth} of {phrase!r} is not in the text")
        return at, at + len(phrase) - 1


DOCUMENTS = (
    Document(
        "EXD0001",
        "eng",
        True,
        "EXE0011",
        (
            "An outbreak of Kestrel fever began in Port Alder, a harbour town in Norland, on 2 March 2021, "
            "health officials said.",
            "Dr. Mara Ilves, an epidemiologist at Alder General Hospital, said the Kestrel virus infected Tomas Berg, "
            "a local fisherman.",
            "Berg did not die; he is recovering at the hospital.",
            "The hospital will vaccinate its nurses next week.",
        ),
        Image("EXE0012", 640, 480),
    ),
    Document(
        "EXD0002",
        "eng",
        True,
        "EXE0021",
        (
            "Alder General Hospital vaccinated 300 nurses against Kestrel fever on 10 March 2021.",
            "Director Paul Quint said the vaccine came from the Norland Health Agency.",
            "No new infections were reported in Port Alder this week.",
            "Quint said the outbreak did not begin in Port Alder but aboard a cargo ship.",
        ),
    ),
    Document(
        "EXD0003",
        "spa",
        True,
        "EXE0031",
        (
            "Un brote de fiebre Kestrel comenzó el 2 de marzo de 2021 en Puerto Alder, una ciudad de Norlandia.",
            "La doctora Mara Ilves, del Hospital General de Alder, confirmó que el virus Kestrel infectó a Tomás Berg.",
            "Berg no murió y se recupera en el hospital.",
        ),
    ),
    Document(
        "EXD0004",
        "rus",
        True,
        "EXE0041",
        (
            "Вспышка лихорадки Кестрел началась в Порт-Алдере 2 марта 2021 года.",
            "Врач Мара Ильвес из больницы Алдер сообщила, что вирус Кестрел заразил рыбака Томаса Берга.",
            "Берг не умер, он поправляется.",
        ),
    ),
    Document(
        "EXD0005",
        "eng",
        False,
        "EXE0051",
        (
            "Residents of Port Alder lined up at Alder General Hospital on 12 March 2021 to receive the Kestrel "
            "fever vaccine.",
            "Dr. Mara Ilves said the outbreak started at the fish market in Port Alder.",
        ),
    ),
)
DOCUMENT = {d.doc_id: d for d in DOCUMENTS}


def write_aux(folder: Path) -> None:
    """The AUX data in LDC2021E11's layout, as NIST's docker mounts it at /data/AUX-data."""
    rows = ["doceid\tdetype\tdocid\tlang_manual"]
    sentences = ["doceid\tsegment_id\tstart_char\tend_char\tstart_segment_offset\tend_segment_offset"]
    for d in DOCUMENTS:
        rows.append(f"{d.element}\tltf\t{d.doc_id}\t{d.language}")
        if d.image:
            rows.append(f"{d.image.element}\tjpg\t{d.doc_id}\tn/a")
        # the segment offsets (the sentence's bytes in the LTF file) are not read by any scorer
        offset = 200
        for number, (start, end) in enumerate(d.sentence_spans()):
            size = len(d.sentences[number].encode("utf-8"))
            sentences.append(f"{d.element}\t{number}\t{start}\t{end}\t{offset}\t{offset + size + 40}")
            offset += size + 41
    images = [
        "image_filename\twxh",
        *(f"{d.image.element}.jpg\t{d.image.width}x{d.image.height}" for d in DOCUMENTS if d.image),
    ]
    encodings = ["encoding\tmodality", "jpg\timage", "ltf\ttext", "mp4\tvideo", "png\timage"]
    tables = {
        f"{PACKAGE}.coredocs-xx.txt": ["root_id", *(d.doc_id for d in DOCUMENTS if d.ta1_core)],
        f"{PACKAGE}.coredocs.txt": ["root_id", *(d.doc_id for d in DOCUMENTS)],
        f"{PACKAGE}.parent_children.tsv": rows,
        f"{PACKAGE}.sentence_boundaries.txt": sentences,
        f"{PACKAGE}.image_boundaries.txt": images,
        f"{PACKAGE}.keyframe_boundaries.txt": ["keyframeid\twxh"],
        f"{PACKAGE}.video_boundaries.txt": ["video_filename\tlength"],
        "encoding_modality.txt": encodings,
    }
    for name, lines in tables.items():
        write(folder / name, lines)


def write(path: Path, lines: Iterable[str], end: str = "\n") -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + end, encoding="utf-8")


# ------------------------------------------------------------------------------------------------
# Knowledge graphs: a document's (TA1) or the corpus' (TA2), in NIST-restricted AIF
# ------------------------------------------------------------------------------------------------

ENTITY, EVENT, RELATION = "Entity", "Event", "Relation"
SENTINELS = ("0001-01-01", "9999-12-31")  # NIST's unconstrained AFTER and BEFORE dates


@dataclass(frozen=True)
class Mention:
    doc_id: str
    phrase: str  # the words; for an image, what it shows
    nth: int = 1  # which occurrence of the phrase
    context: str = ""  # the phrase is found in the first occurrence of this text
    negated: bool = False
    named: bool = False  # a name (aida:hasName), not a nominal or a pronoun
    box: tuple[int, int, int, int] | None = None  # an image mention's bounding box
    shift: int = 0  # a system's span that starts (and ends) this many characters off

    def offsets(self) -> tuple[int, int]:
        d = DOCUMENT[self.doc_id]
        if not self.context:
            start, end = d.offsets(self.phrase, self.nth)
        else:
            at = d.offsets(self.context)[0] + self.context.index(self.phrase)
            start, end = at, at + len(self.phrase) - 1
        return start + self.shift, end + self.shift

    def nist_span(self) -> str:
        """The span as NIST's tables print it."""
        d = DOCUMENT[self.doc_id]
        if self.box:
            return "{}:{}:({},{})-({},{})".format(self.doc_id, d.image.element, *self.box)
        return "{}:{}:({},0)-({},0)".format(self.doc_id, d.element, *self.offsets())


def mention(doc_id: str, text: str) -> Mention:
    """A text mention written compactly: ``*`` after the words marks a name, ``!`` before them a
    negated mention, ``#n`` the nth occurrence, ``@context`` the words within that context."""
    text, _, context = text.partition("@")
    text, _, nth = text.partition("#")
    negated, named = text.startswith("!"), text.endswith("*")
    return Mention(doc_id, text.strip("!*"), int(nth or 1), context, negated, named)


@dataclass(frozen=True)
class Time:
    """An LDC time: the earliest and latest day it may have started and ended ("": unknown)."""

    start_after: str = ""
    start_before: str = ""
    end_after: str = ""
    end_before: str = ""

    def components(self) -> tuple[str, str, str, str]:
        after, before = SENTINELS
        return (
            self.start_after or after,
            self.start_before or before,
            self.end_after or after,
            self.end_before or before,
        )


def began(day: str) -> Time:
    return Time(day, day, day)


@dataclass(frozen=True)
class Node:
    """A cluster: its prototype's metatype and type, and its mentions (the first is informative)."""

    key: str
    metatype: str
    type: str  # a DWD qnode
    mentions: tuple[Mention, ...]
    time: Time | None = None
    confidence: float = 1.0  # of its type statements
    link: str | None = None  # TA2: the reference-KB node it is linked to
    link_confidence: float = 1.0


@dataclass(frozen=True)
class Arg:
    """An argument assertion between two prototypes. Its compound justification is the subject's
    first mention and the object's mention ``at`` (its first one by default); a relation's is the
    relation's mention alone."""

    subject: str
    role: str
    object: str
    at: str = ""
    negated: bool = False


@dataclass(frozen=True)
class KB:
    nodes: tuple[Node, ...]
    args: tuple[Arg, ...] = ()

    def node(self, key: str) -> Node:
        return next(n for n in self.nodes if n.key == key)

    def justification(self, arg: Arg) -> list[tuple[str, int]]:
        """The (node key, mention index) of each span of an argument's justification."""
        spans = [(arg.subject, 0)]
        if self.node(arg.subject).metatype != RELATION:
            mentions = self.node(arg.object).mentions
            spans.append((arg.object, next((i for i, m in enumerate(mentions) if m.phrase == arg.at), 0)))
        return spans


def turtle(kb: KB, namespace: str) -> str:
    """The KB as NIST-restricted AIF: a cluster per node, a member per mention (its own type
    statement, justified by the mention's span), an argument assertion per Arg between the
    prototypes, and an LDC time on the prototype of a node that has one."""
    confidences = sorted({1.0} | {n.confidence for n in kb.nodes} | {n.link_confidence for n in kb.nodes if n.link})
    out = [PREFIXES + f"@prefix ex: <{namespace}> .\n", "ex:system a aida:System ."]
    out += [
        f'ex:{_conf(c)} a aida:Confidence ; aida:confidenceValue "{c!r}"^^xsd:double ; aida:system ex:system .'
        for c in confidences
    ]
    for node in kb.nodes:
        out.append(
            f"\n# {node.metatype.lower()} {node.key} ({node.type}): "
            + "; ".join(f'"{m.phrase}"' + (" (negated)" if m.negated else "") for m in node.mentions)
        )
        out.append(
            f"ex:cluster-{node.key} a aida:SameAsCluster ; aida:prototype ex:{node.key} ; aida:system ex:system ."
        )
        informative = {}  # one informative justification per document: the first mention there
        for i, m in enumerate(node.mentions, 1):
            informative.setdefault(m.doc_id, f"ex:{node.key}-span{i}")
        prototype = [f"ex:{node.key} a aida:{node.metatype}"]
        if node.metatype == ENTITY:
            prototype.append(f'aida:handle "{node.mentions[0].phrase}"')
        prototype.append("aida:informativeJustification " + ", ".join(informative.values()))
        if node.link:
            prototype.append(
                f'aida:link [ a aida:LinkAssertion ; aida:linkTarget "{node.link}" ; '
                f"aida:confidence ex:{_conf(node.link_confidence)} ; aida:system ex:system ]"
            )
        if node.time:
            prototype.append(f"aida:ldcTime ex:{node.key}-time")
        out.append(" ;\n    ".join([*prototype, "aida:system ex:system ."]))
        for i, m in enumerate(node.mentions, 1):
            member = f"ex:{node.key}-{i}"
            attributes = (" ; aida:attributes aida:Negated" if m.negated else "") + (
                f' ; aida:hasName "{m.phrase}"' if m.named else ""
            )
            out.append(f"{member} a aida:{node.metatype}{attributes} ; aida:system ex:system .")
            out.append(
                f"ex:{node.key}-{i}-membership a aida:ClusterMembership ; aida:cluster ex:cluster-{node.key} ; "
                f"aida:clusterMember {member} ;\n    aida:confidence ex:{_conf(1.0)} ; aida:system ex:system ."
            )
            out.append(
                f"ex:{node.key}-{i}-type a rdf:Statement ; rdf:subject {member} ; rdf:predicate rdf:type ; "
                f'rdf:object "{node.type}" ;\n'
                f"    aida:justifiedBy ex:{node.key}-span{i} ; aida:confidence ex:{_conf(node.confidence)} ; "
                "aida:system ex:system ."
            )
            out.append(_justification(f"ex:{node.key}-span{i}", m))
        if node.time:
            out.append(_time(node.key, node.time))
    for arg in kb.args:
        name = f"ex:{arg.subject}-{arg.role.split('_')[0]}-{arg.object}"
        spans = ", ".join(f"ex:{key}-span{i + 1}" for key, i in kb.justification(arg))
        negated = " ; aida:attributes aida:Negated" if arg.negated else ""
        out.append(
            f'\n{name} a aida:ArgumentStatement ; rdf:subject ex:{arg.subject} ; rdf:predicate "{arg.role}" ; '
            f"rdf:object ex:{arg.object}{negated} ;\n"
            f"    aida:justifiedBy [ a aida:CompoundJustification ; aida:containedJustification {spans} ; "
            f"aida:confidence ex:{_conf(1.0)} ; aida:system ex:system ] ;\n"
            f"    aida:confidence ex:{_conf(1.0)} ; aida:system ex:system ."
        )
    return "\n".join(out) + "\n"


def _conf(value: float) -> str:
    return f"confidence-{round(value * 100):03d}"


def _justification(name: str, m: Mention) -> str:
    d = DOCUMENT[m.doc_id]
    if m.box:
        ulx, uly, lrx, lry = m.box
        return (
            f'{name} a aida:ImageJustification ; aida:source "{d.image.element}" ; aida:sourceDocument "{d.doc_id}" ;\n'
            f'    aida:boundingBox [ a aida:BoundingBox ; aida:boundingBoxUpperLeftX "{ulx}"^^xsd:int ; '
            f'aida:boundingBoxUpperLeftY "{uly}"^^xsd:int ; '
            f'aida:boundingBoxLowerRightX "{lrx}"^^xsd:int ; aida:boundingBoxLowerRightY "{lry}"^^xsd:int ] ;\n'
            f"    aida:confidence ex:{_conf(1.0)} ; aida:system ex:system ."
        )
    start, end = m.offsets()
    return (
        f'{name} a aida:TextJustification ; aida:source "{d.element}" ; aida:sourceDocument "{d.doc_id}" ;\n'
        f'    aida:startOffset "{start}"^^xsd:int ; aida:endOffsetInclusive "{end}"^^xsd:int ; '
        f"aida:confidence ex:{_conf(1.0)} ; aida:system ex:system ."
    )


def _time(key: str, time: Time) -> str:
    names = ("start-after", "start-before", "end-after", "end-before")
    lines = [
        (
            f"ex:{key}-time a aida:LDCTime ; aida:start ex:{key}-start-after, ex:{key}-start-before ; "
            f"aida:end ex:{key}-end-after, ex:{key}-end-before ; aida:system ex:system ."
        )
    ]
    for name, day in zip(names, time.components(), strict=True):
        year, month, date = day.split("-")
        lines.append(
            f'ex:{key}-{name} a aida:LDCTimeComponent ; aida:timeType "{name.split("-")[1].upper()}" ; '
            f'aida:year "{year}"^^xsd:gYear ; aida:month "--{month}"^^xsd:gMonth ; aida:day "---{date}"^^xsd:gDay .'
        )
    return "\n".join(lines)


def gold_tables(kb: KB, folder: Path) -> None:
    """NIST's gold for one document (gold/SPARQL-VALID-output/<doc>.ttl/): the CM, AM and TM tables
    NIST's queries print for LDC's annotation, cleaned and validated."""
    one = '"1.0"'

    def negation(negated: bool) -> str:
        return "Negated" if negated else "NotNegated"

    cm = [
        (
            "?cluster\t?metatype\t?type\t?mention_span\t?is_negated\t?type_statement_confidence\t"
            "?cluster_membership_confidence\t?mention_type_justification_confidence"
        )
    ]
    cm += [
        f"gold-{n.key}\t{n.metatype}\t{n.type}\t{m.nist_span()}\t{negation(m.negated)}\t{one}\t{one}\t{one}"
        for n in kb.nodes
        for m in n.mentions
    ]
    am = [
        (
            "?is_assertion_negated\t?subject_metatype\t?subject\t?is_subject_negated\t?predicate\t?object_metatype\t?object\t"
            "?is_object_negated\t?predicate_justification\t?argument_assertion_confidence\t?predicate_justification_confidence"
        )
    ]
    for arg in kb.args:
        subject, obj = kb.node(arg.subject), kb.node(arg.object)
        for key, i in kb.justification(arg):
            am.append(
                f"{negation(arg.negated)}\t{subject.metatype}\tgold-{subject.key}\tNotNegated\t{arg.role}\t{obj.metatype}\t"
                f"gold-{obj.key}\tNotNegated\t{kb.node(key).mentions[i].nist_span()}\t{one}\t{one}"
            )
    tm = [
        "?cluster\t?sa_month\t?sa_day\t?sa_year\t?sb_month\t?sb_day\t?sb_year\t?ea_month\t?ea_day\t?ea_year\t?eb_month\t?eb_day\t?eb_year"
    ]
    for n in kb.nodes:
        if n.time:
            days = [day.split("-") for day in n.time.components()]
            tm.append("\t".join([f"gold-{n.key}", *(f'"{part}"' for y, m, d in days for part in (m, d, y))]))
    write(folder / "AIDA_P3_TA1_CM_A0001.rq.tsv", cm)
    write(folder / "AIDA_P3_TA1_AM_A0001.rq.tsv", am)
    write(folder / "AIDA_P3_TA1_TM_A0001.rq.tsv", tm)


# ------------------------------------------------------------------------------------------------
# TA1: LDC's annotation of each document (the gold) and two systems' document KBs
# ------------------------------------------------------------------------------------------------

PERSON, SCIENTIST, POLITICIAN, CITY, COUNTRY = "Q215627", "Q901", "Q82955", "Q515", "Q6256"
ORGANIZATION, AGENCY, DISEASE, INFECTIOUS_DISEASE, VIRUS, VACCINE = (
    "Q43229",
    "Q327333",
    "Q12136",
    "Q2057971",
    "Q808",
    "Q134808",
)
OUTBREAK, INFECTION, DEATH, VACCINATION, TREATMENT = "Q3241045", "Q166231", "Q3739104", "Q192995", "Q179661"
EMPLOYER, COUNTRY_OF = "P108", "P17"
DISEASE_ROLE, LOCATION, INFECTANT, INFECTED, DECEASED = (
    "A1_ppt_theme_disease",
    "AM_loc__location",
    "A2_ppt_theme_infectant",
    "A1_gol_destination_thing_becoming_infected",
    "A1_ppt_the_deceased",
)
INOCULATOR, INOCULATED, AGAINST = "A0_pag__inoculator", "A1_ppt__patient_inoculated", "A2_ppt__inoculated_against"


def node(doc_id: str, key: str, metatype: str, qnode: str, *mentions: str | Mention, time: Time | None = None) -> Node:
    return Node(
        key, metatype, qnode, tuple(m if isinstance(m, Mention) else mention(doc_id, m) for m in mentions), time
    )


def gold_ta1() -> dict[str, KB]:
    """LDC's annotation of each document: its entities, events and relations, their mentions,
    arguments and times."""
    d1, d2, d3, d4, d5 = (partial(node, d.doc_id) for d in DOCUMENTS)
    hospital_photo = Mention("EXD0001", "the hospital's front door (photo)", box=(40, 60, 420, 330))
    return {
        "EXD0001": KB(
            (
                d1("fever", ENTITY, DISEASE, "Kestrel fever*"),
                d1("port-alder", ENTITY, CITY, "Port Alder*", "harbour town"),
                d1("norland", ENTITY, COUNTRY, "Norland*"),
                d1("officials", ENTITY, PERSON, "health officials"),
                d1("ilves", ENTITY, SCIENTIST, "Mara Ilves*", "epidemiologist"),
                d1(
                    "hospital",
                    ENTITY,
                    ORGANIZATION,
                    "Alder General Hospital*",
                    "hospital@the hospital.",
                    "hospital@The hospital will",
                    hospital_photo,
                ),
                d1("virus", ENTITY, VIRUS, "Kestrel virus*"),
                d1("berg", ENTITY, PERSON, "Tomas Berg*", "fisherman", "Berg#2", "he@he is recovering"),
                d1("nurses", ENTITY, PERSON, "nurses"),
                d1("outbreak", EVENT, OUTBREAK, "outbreak", time=began("2021-03-02")),
                d1("infection", EVENT, INFECTION, "infected", time=Time(end_before="2021-03-04")),
                d1("death", EVENT, DEATH, "!die", time=Time()),
                d1("vaccination", EVENT, VACCINATION, "vaccinate", time=Time("2021-03-08", "2021-03-14")),
                d1("employment", RELATION, EMPLOYER, "epidemiologist at Alder General Hospital"),
                d1("location", RELATION, COUNTRY_OF, "Port Alder, a harbour town in Norland"),
            ),
            (
                *_story("Berg"),
                Arg("vaccination", INOCULATOR, "hospital", at="hospital"),
                Arg("vaccination", INOCULATED, "nurses"),
                Arg("location", "A0", "port-alder"),
                Arg("location", "A1", "norland"),
            ),
        ),
        "EXD0002": KB(
            (
                d2("hospital", ENTITY, ORGANIZATION, "Alder General Hospital*"),
                d2("nurses", ENTITY, PERSON, "300 nurses"),
                d2("fever", ENTITY, DISEASE, "Kestrel fever*"),
                d2("quint", ENTITY, PERSON, "Paul Quint*", "Director", "Quint#2"),
                d2("vaccine", ENTITY, VACCINE, "vaccine"),
                d2("agency", ENTITY, AGENCY, "Norland Health Agency*"),
                d2("port-alder", ENTITY, CITY, "Port Alder*", "Port Alder#2"),
                d2("vaccination", EVENT, VACCINATION, "vaccinated", time=began("2021-03-10")),
                d2("infections", EVENT, INFECTION, "!infections", time=Time("2021-03-01", "", "", "2021-03-07")),
                d2("outbreak", EVENT, OUTBREAK, "outbreak", time=Time()),
                d2("employment", RELATION, EMPLOYER, "Director Paul Quint"),
            ),
            (
                Arg("vaccination", INOCULATOR, "hospital"),
                Arg("vaccination", INOCULATED, "nurses"),
                Arg("vaccination", AGAINST, "fever"),
                Arg("infections", LOCATION, "port-alder", negated=True),
                Arg("outbreak", LOCATION, "port-alder", at="Port Alder", negated=True),
                Arg("employment", "A0", "quint"),
                Arg("employment", "A1", "hospital"),
            ),
        ),
        "EXD0003": KB(
            (
                d3("fever", ENTITY, DISEASE, "fiebre Kestrel*"),
                d3("port-alder", ENTITY, CITY, "Puerto Alder*", "ciudad"),
                d3("norland", ENTITY, COUNTRY, "Norlandia*"),
                d3("ilves", ENTITY, SCIENTIST, "Mara Ilves*", "doctora"),
                d3("hospital", ENTITY, ORGANIZATION, "Hospital General de Alder*", "hospital"),
                d3("virus", ENTITY, VIRUS, "virus Kestrel*"),
                d3("berg", ENTITY, PERSON, "Tomás Berg*", "Berg#2"),
                d3("outbreak", EVENT, OUTBREAK, "brote", time=began("2021-03-02")),
                d3("infection", EVENT, INFECTION, "infectó", time=Time()),
                d3("death", EVENT, DEATH, "!murió", time=Time()),
                d3("employment", RELATION, EMPLOYER, "doctora Mara Ilves, del Hospital General de Alder"),
                d3("location", RELATION, COUNTRY_OF, "Puerto Alder, una ciudad de Norlandia"),
            ),
            (
                *_story("Berg"),
                Arg("location", "A0", "port-alder"),
                Arg("location", "A1", "norland"),
            ),
        ),
        "EXD0004": KB(
            (
                d4("fever", ENTITY, DISEASE, "лихорадки Кестрел*"),
                d4("port-alder", ENTITY, CITY, "Порт-Алдере*"),
                d4("ilves", ENTITY, SCIENTIST, "Мара Ильвес*", "Врач"),
                d4("hospital", ENTITY, ORGANIZATION, "больницы Алдер*"),
                d4("virus", ENTITY, VIRUS, "вирус Кестрел*"),
                d4("berg", ENTITY, PERSON, "Томаса Берга*", "рыбака", "Берг#2", "он@он поправляется"),
                d4("outbreak", EVENT, OUTBREAK, "Вспышка", time=began("2021-03-02")),
                d4("infection", EVENT, INFECTION, "заразил", time=Time()),
                d4("death", EVENT, DEATH, "!умер", time=Time()),
                d4("employment", RELATION, EMPLOYER, "Врач Мара Ильвес из больницы Алдер"),
            ),
            (*_story("Берг", infected_at="рыбака"),),
        ),
        # not a TA1 core document: LDC did not annotate it, and NIST does not score it
        "EXD0005": KB(
            (
                d5("residents", ENTITY, PERSON, "Residents"),
                d5("port-alder", ENTITY, CITY, "Port Alder*", "Port Alder#2"),
                d5("hospital", ENTITY, ORGANIZATION, "Alder General Hospital*"),
                d5("ilves", ENTITY, SCIENTIST, "Mara Ilves*"),
                d5("vaccine", ENTITY, VACCINE, "Kestrel fever vaccine"),
                d5("market", ENTITY, ORGANIZATION, "fish market"),
                d5("vaccination", EVENT, VACCINATION, "receive", time=began("2021-03-12")),
                d5("outbreak", EVENT, OUTBREAK, "outbreak", time=Time()),
            ),
            (
                Arg("vaccination", INOCULATED, "residents"),
                Arg("vaccination", INOCULATOR, "hospital"),
                Arg("outbreak", LOCATION, "market"),
            ),
        ),
    }


def _story(deceased_at: str, infected_at: str = "") -> tuple[Arg, ...]:
    """The arguments EXD0001, EXD0003 and EXD0004 all annotate: the outbreak's, Berg's infection
    and the death he did not die (justified by the object's mention ``deceased_at``, and
    ``infected_at``), and Ilves' employer."""
    return (
        Arg("outbreak", DISEASE_ROLE, "fever"),
        Arg("outbreak", LOCATION, "port-alder"),
        Arg("infection", INFECTANT, "virus"),
        Arg("infection", INFECTED, "berg", at=infected_at),
        Arg("death", DECEASED, "berg", at=deceased_at, negated=True),
        Arg("employment", "A0", "ilves"),
        Arg("employment", "A1", "hospital"),
    )


# A system's mistakes, each an edit of the gold KB
Edit = Callable[[KB], KB]


def _nodes(kb: KB, key: str, change: Callable[[Node], Node | None]) -> KB:
    nodes = tuple(n2 for n in kb.nodes if (n2 := change(n) if n.key == key else n) is not None)
    return replace(kb, nodes=nodes)


def _matches(m: Mention, phrase: str) -> bool:
    """A mention is named by its words, by ``DOC:words``, or (all of a document's) by ``DOC:``."""
    return phrase in (m.phrase, f"{m.doc_id}:{m.phrase}", f"{m.doc_id}:")


def _mentions(key: str, phrase: str, change: Callable[[Mention], Mention | None]) -> Edit:
    def edit(kb: KB) -> KB:
        return _nodes(
            kb,
            key,
            lambda n: replace(
                n, mentions=tuple(m2 for m in n.mentions if (m2 := change(m) if _matches(m, phrase) else m) is not None)
            ),
        )

    return edit


def miss(key: str, phrase: str | None = None) -> Edit:
    """The system misses a mention, or (without a phrase) the whole cluster and its arguments."""
    if phrase is not None:
        return _mentions(key, phrase, lambda m: None)
    return lambda kb: replace(
        _nodes(kb, key, lambda n: None), args=tuple(a for a in kb.args if key not in (a.subject, a.object))
    )


def shift(key: str, phrase: str, characters: int) -> Edit:
    return _mentions(key, phrase, lambda m: replace(m, shift=characters))


def negate(key: str, phrase: str, negated: bool) -> Edit:
    return _mentions(key, phrase, lambda m: replace(m, negated=negated))


def retype(key: str, qnode: str, confidence: float = 1.0) -> Edit:
    return lambda kb: _nodes(kb, key, lambda n: replace(n, type=qnode, confidence=confidence))


def retime(key: str, time: Time | None) -> Edit:
    return lambda kb: _nodes(kb, key, lambda n: replace(n, time=time))


def split(key: str, new_key: str, *phrases: str) -> Edit:
    """The system makes a cluster of its own of some mentions."""

    def edit(kb: KB) -> KB:
        old = kb.node(key)
        moved = tuple(m for m in old.mentions if any(_matches(m, p) for p in phrases))
        for phrase in phrases:
            kb = _mentions(key, phrase, lambda m: None)(kb)
        return replace(kb, nodes=(*kb.nodes, replace(old, key=new_key, mentions=moved, time=None)))

    return edit


def move(key: str, phrase: str, into: str) -> Edit:
    """The system puts a mention of one cluster first in another (its informative mention there)."""

    def edit(kb: KB) -> KB:
        moved = tuple(m for m in kb.node(key).mentions if _matches(m, phrase))
        kb = _mentions(key, phrase, lambda m: None)(kb)
        return _nodes(kb, into, lambda n: replace(n, mentions=moved + n.mentions))

    return edit


def relink(key: str, link: str | None, confidence: float = 1.0) -> Edit:
    return lambda kb: _nodes(kb, key, lambda n: replace(n, link=link, link_confidence=confidence))


def merge(key: str, into: str) -> Edit:
    """The system puts the mentions of one cluster into another."""

    def edit(kb: KB) -> KB:
        moved = kb.node(key).mentions
        kb = _nodes(_nodes(kb, key, lambda n: None), into, lambda n: replace(n, mentions=n.mentions + moved))
        args = tuple(
            replace(a, subject=into if a.subject == key else a.subject, object=into if a.object == key else a.object)
            for a in kb.args
        )
        return replace(kb, args=args)

    return edit


def drop_arg(subject: str, role: str) -> Edit:
    return lambda kb: replace(kb, args=tuple(a for a in kb.args if (a.subject, a.role) != (subject, role)))


def change_arg(subject: str, role: str, **changes: object) -> Edit:
    return lambda kb: replace(
        kb, args=tuple(replace(a, **changes) if (a.subject, a.role) == (subject, role) else a for a in kb.args)
    )


def add(*items: Node | Arg) -> Edit:
    return lambda kb: replace(
        kb,
        nodes=kb.nodes + tuple(i for i in items if isinstance(i, Node)),
        args=kb.args + tuple(i for i in items if isinstance(i, Arg)),
    )


def apply(kb: KB, edits: Iterable[Edit]) -> KB:
    """The KB with the edits made; a cluster left without mentions goes, and its arguments."""
    for edit in edits:
        kb = edit(kb)
    for n in kb.nodes:
        if not n.mentions:
            kb = miss(n.key)(kb)
    return kb


# run1: a careful system; run2: a hastier one
TA1_RUNS: dict[str, dict[str, tuple[Edit, ...]]] = {
    "run1": {
        "EXD0001": (
            miss("berg", "he"),
            retype("ilves", PERSON),
            negate("death", "die", False),
            change_arg("death", DECEASED, negated=False),
            drop_arg("vaccination", INOCULATOR),
            retime("infection", Time(end_before="2021-03-02")),
        ),
        "EXD0002": (
            split("quint", "director", "Director"),
            retime("vaccination", began("2021-03-11")),
            add(node("EXD0002", "ship", ENTITY, "Q11446", "cargo ship")),
        ),
        "EXD0003": (
            miss("port-alder", "ciudad"),
            miss("employment"),
            shift("fever", "fiebre Kestrel", 3),
        ),
        "EXD0004": (
            retype("berg", POLITICIAN, 0.8),
            drop_arg("infection", INFECTANT),
            retime("outbreak", began("2020-03-02")),
        ),
        "EXD0005": (),
    },
    "run2": {
        "EXD0001": (
            merge("nurses", "berg"),
            retype("fever", INFECTIOUS_DISEASE, 0.9),
            retype("outbreak", TREATMENT),
            change_arg("outbreak", LOCATION, object="norland"),
            *(retime(key, None) for key in ("outbreak", "infection", "death", "vaccination")),
            miss("officials"),
            miss("port-alder", "harbour town"),
            miss("berg", "fisherman"),
            shift("hospital", "Alder General Hospital", -4),
        ),
        "EXD0002": (
            miss("vaccination"),
            negate("infections", "infections", False),
            change_arg("outbreak", LOCATION, negated=False),
            miss("quint", "Quint"),
        ),
        "EXD0003": (
            merge("virus", "fever"),
            miss("death"),
            retime("outbreak", began("2021-02-02")),
        ),
        "EXD0004": (
            *(miss(key) for key in ("infection", "death", "employment")),
            change_arg("outbreak", LOCATION, object="hospital"),
            drop_arg("outbreak", DISEASE_ROLE),
            miss("berg", "он"),
            miss("berg", "рыбака"),
        ),
        "EXD0005": (miss("outbreak"),),
    },
}


# NIST's two type tables, invented for the corpus' types (NIST's come from its cache of the KGTK
# similarity service and the tagset, neither public): a pair's DWDTypeSim, written both ways, and
# the taggable types (an infectious disease is evaluable by its similarity to a disease; an agency,
# and a cargo ship, which only a run mentions, are not)
TYPE_SIMILARITIES = (
    (PERSON, SCIENTIST, 0.8),
    (PERSON, POLITICIAN, 0.8),
    (SCIENTIST, POLITICIAN, 0.5),
    (CITY, COUNTRY, 0.6),
    (ORGANIZATION, AGENCY, 0.85),
    (DISEASE, INFECTIOUS_DISEASE, 0.95),
    (DISEASE, VIRUS, 0.5),
    (INFECTIOUS_DISEASE, VIRUS, 0.6),
    (VIRUS, VACCINE, 0.3),
    (OUTBREAK, INFECTION, 0.7),
    (INFECTION, DEATH, 0.3),
    (VACCINATION, TREATMENT, 0.6),
    (EMPLOYER, COUNTRY_OF, 0.2),
)
TAGGABLE = (PERSON, SCIENTIST, POLITICIAN, CITY, COUNTRY, ORGANIZATION, DISEASE, VIRUS, VACCINE)
TAGGABLE += (OUTBREAK, INFECTION, DEATH, VACCINATION, TREATMENT, EMPLOYER, COUNTRY_OF)


def write_type_tables(out: Path) -> None:
    pairs = [(a, b, value) for x, y, value in TYPE_SIMILARITIES for a, b in ((x, y), (y, x))]
    write(out / "type-similarity.tsv", ["q1\tq2\tsimilarity", *(f"{a}\t{b}\t{value}" for a, b, value in pairs)])
    write(out / "taggable-types.txt", TAGGABLE)


def write_ta1(out: Path) -> None:
    gold = gold_ta1()
    write_aux(out / "AUX-data")
    write_type_tables(out)
    for doc_id, kb in gold.items():
        if DOCUMENT[doc_id].ta1_core:
            gold_tables(kb, out / "gold" / f"{doc_id}.ttl")
    for run, edits in TA1_RUNS.items():
        for doc_id, kb in gold.items():
            namespace = f"https://example.org/aifcheck/ta1/{run}/{doc_id}#"
            (out / run).mkdir(parents=True, exist_ok=True)
            (out / run / f"{doc_id}.ttl").write_text(turtle(apply(kb, edits[doc_id]), namespace), encoding="utf-8")


# ------------------------------------------------------------------------------------------------
# TA2: the corpus' entities in one KB per run, NIST's queries and LDC's assessment of the pool
# ------------------------------------------------------------------------------------------------

# entity -> (LDC's entity ID, the reference-KB node LDC links it to); the KB IDs are invented
TA2_ENTITIES = {
    "port-alder": ("ENT01", "NILEX0001"),
    "ilves": ("ENT02", "NILEX0002"),
    "berg": ("ENT03", "NILEX0003"),
    "hospital": ("ENT04", "NILEX0004"),
    "fever": ("ENT05", "NILEX0005"),
    "virus": ("ENT06", "NILEX0006"),
    "norland": ("ENT07", "NILEX0007"),
    "quint": ("ENT08", "NILEX0008"),
    "agency": ("ENT09", "NILEX0009"),
}
# NIST's queries: (query ID, entity, entry point type, entry point or "" for the entity's KB ID, clusters, documents)
TA2_QUERIES = (
    ("AIDA_P3_TA2_E0001", "port-alder", "kbid", "", 1, 10),
    ("AIDA_P3_TA2_E0002", "port-alder", "name", "Port Alder", 2, 10),
    ("AIDA_P3_TA2_E0003", "ilves", "kbid", "", 1, 10),
    ("AIDA_P3_TA2_E0004", "ilves", "name", "Mara Ilves", 1, 10),
    ("AIDA_P3_TA2_E0005", "berg", "kbid", "", 1, 10),
    ("AIDA_P3_TA2_E0006", "hospital", "kbid", "", 1, 10),
    ("AIDA_P3_TA2_E0007", "hospital", "name", "Alder General Hospital", 1, 3),
)


def gold_ta2() -> KB:
    """The corpus' entities as one KB: each TA1 entity cluster of every document, merged by entity,
    linked to its reference-KB node."""
    merged: dict[str, Node] = {}
    for kb in gold_ta1().values():
        for n in kb.nodes:
            if n.metatype == ENTITY:
                known = merged.get(n.key)
                merged[n.key] = replace(known, mentions=known.mentions + n.mentions) if known else n
    return KB(tuple(replace(n, link=TA2_ENTITIES[n.key][1]) if n.key in TA2_ENTITIES else n for n in merged.values()))


TA2_RUNS: dict[str, tuple[Edit, ...]] = {
    "run1": (
        move("market", "fish market", "hospital"),
        split("berg", "berg-rus", "EXD0004:"),
        relink("berg-rus", "NILEX0003", 0.5),
        relink("port-alder", "NILEX0001", 0.9),
        miss("ilves", "EXD0004:"),
    ),
    "run2": (
        split("port-alder", "puerto-alder", "EXD0003:", "EXD0004:"),
        relink("port-alder", "NILEX0001", 0.6),
        relink("puerto-alder", "NILEX0001", 0.9),
        move("officials", "health officials", "ilves"),
        shift("berg", "EXD0003:Tomás Berg", 2),
        relink("hospital", None),
        miss("virus"),
        miss("agency"),
    ),
}


def write_ta2(out: Path) -> None:
    write_aux(out / "AUX-data")
    gold = gold_ta2()
    queries = ["query_id\tentity_id\tentrypoint_type\tentrypoint\tclusters\tdocuments"]
    for query_id, key, kind, entry, clusters, documents in TA2_QUERIES:
        entity_id, kb_id = TA2_ENTITIES[key]
        queries.append(f"{query_id}\t{entity_id}\t{kind}\t{entry or kb_id}\t{clusters}\t{documents}")
    write(out / "queries.tsv", queries)
    for run, edits in TA2_RUNS.items():
        namespace = f"https://example.org/aifcheck/ta2/{run}#"
        (out / run).mkdir(parents=True, exist_ok=True)
        (out / run / "task2_kb.ttl").write_text(turtle(apply(gold, edits), namespace), encoding="utf-8")
    # LDC judges NIST's pool of the two runs, made as NIST makes it
    with tempfile.TemporaryDirectory() as tmp:
        stages = [Path(tmp) / run for run in TA2_RUNS]
        for run, stage in zip(TA2_RUNS, stages, strict=True):
            run_aifcheck(
                "pipeline", "ta2", out / run, "--queries", out / "queries.tsv", "--aux", out / "AUX-data", "-o", stage
            )
        pool = Path(tmp) / "pool"
        run_aifcheck(
            "pool", "ta2", *stages, "--queries-to-score", out / "queries.tsv", "--aux", out / "AUX-data", "-o", pool
        )
        for kit in sorted(pool.glob("task2_pool_*/kits/*.tab")):
            lines = kit.read_text(encoding="utf-8").splitlines()
            write(out / "LDC" / "data" / "TA2" / kit.name, (judge_ta2(line, gold) for line in lines))


def judge_ta2(line: str, gold: KB) -> str:
    """LDC's judgement of a pooled mention: CORRECT when it is a mention of the query's entity,
    INEXACT when it overlaps one, else INCORRECT; the entity class (fqec) of what it mentions."""
    query_id, descriptor, response, source, doc_id, span = line.split("\t")[:6]
    key = next(key for q, key, *_ in TA2_QUERIES if q == query_id)
    exact = [(n, m) for n in gold.nodes for m in n.mentions if m.nist_span() == f"{doc_id}:{span}"]
    kind = ("NAM" if exact[0][1].named else "NOM") if exact else "NIL"
    if any(n.key == key for n, _ in exact):
        label, fqec = "CORRECT", TA2_ENTITIES[key][1]
    elif any(_overlap(m.nist_span(), f"{doc_id}:{span}") for m in gold.node(key).mentions):
        label, fqec, kind = "INEXACT", TA2_ENTITIES[key][1], "NAM"
    else:
        label, fqec = "INCORRECT", next((TA2_ENTITIES[n.key][1] for n, _ in exact if n.key in TA2_ENTITIES), "NIL")
    return f"{query_id}\t{descriptor}\t{response}\t{source}\t{doc_id}\t{span}\t{label}\t{kind}\t{fqec}"


def _overlap(a: str, b: str) -> bool:
    """Whether two text spans (DOC:ELT:(start,0)-(end,0)) of one element share a character."""
    (element_a, start_a, end_a), (element_b, start_b, end_b) = (_text_span(x) for x in (a, b))
    return element_a == element_b and start_a <= end_b and start_b <= end_a


def _text_span(span: str) -> tuple[str, int, int]:
    element, _, rest = span.rpartition(":")
    start, end = rest.replace("(", "").replace(")", "").split("-")
    return element, int(start.split(",")[0]), int(end.split(",")[0])


def run_aifcheck(*args: str | Path) -> str:
    """An aifcheck command, as a user runs it; its standard output. A failure stops the script
    with aifcheck's message (exit status 1 only says NIST's stages logged dropped rows)."""
    done = subprocess.run(
        [sys.executable, "-m", "aifcheck", *map(str, args)], capture_output=True, text=True, check=False
    )
    if done.returncode not in (0, 1):
        sys.exit(
            f"generate.py: aifcheck {' '.join(map(str, args))}: exit status {done.returncode}: {done.stderr.strip()}"
        )
    return done.stdout


# ------------------------------------------------------------------------------------------------
# TA3: claim frames, NIST's user queries, two ranked runs, and LDC's assessment of the pool
# ------------------------------------------------------------------------------------------------

# (topic ID, topic, subtopic, claim template): NIST's topics.tsv rows
SUBTOPICS = (
    (
        "T901",
        "The Kestrel fever outbreak",
        "Where the Kestrel fever outbreak began",
        "The Kestrel fever outbreak began in location-X",
    ),
    ("T901", "The Kestrel fever outbreak", "Who caught Kestrel fever", "X caught Kestrel fever"),
    (
        "T902",
        "Vaccination against Kestrel fever",
        "Who vaccinates people against Kestrel fever",
        "X vaccinates people against Kestrel fever",
    ),
)
CONDITION7_TOPICS = (("C901", SUBTOPICS[0][2]),)
TRUE, FALSE = "EpistemicTrueCertain", "EpistemicFalseCertain"


@dataclass(frozen=True)
class Component:
    name: str
    identity: str  # its KB ID: LDC's similarity class for it, too
    type: str


@dataclass(frozen=True)
class Claim:
    claim_id: str
    doc_id: str
    subtopic: int  # in SUBTOPICS
    description: str
    x: Component
    claimer: Component
    # the claim's semantics: an event (its type and trigger) whose argument (role) is an entity (type, words)
    event: tuple[str, str, str, str, str]
    epistemic: str = TRUE
    time: Time | None = None
    judgements: tuple[tuple[str, str], ...] = ()  # LDC's (component, label) where not Correct
    relations: tuple[tuple[str, str], ...] = ()  # LDC's (query claim frame, relation) of Condition 5


def _author(doc_id: str) -> Component:
    return Component("author", f"AUTHOR-{doc_id}", "Q482980")


PORT_ALDER, BERG_X = Component("Port Alder", "NILEX0001", CITY), Component("Tomas Berg", "NILEX0003", PERSON)
ILVES, QUINT = Component("Mara Ilves", "NILEX0002", SCIENTIST), Component("Paul Quint", "NILEX0008", PERSON)
OFFICIALS = Component("health officials", "NILEX0010", PERSON)
Q1, Q2 = "CLEXD0001.000001", "CLEXD0001.000002"  # the Condition 5 query claim frames
CLAIMS = {
    c.claim_id: c
    for c in (
        Claim(
            Q1,
            "EXD0001",
            0,
            "The Kestrel fever outbreak began in Port Alder",
            PORT_ALDER,
            OFFICIALS,
            (OUTBREAK, "outbreak", LOCATION, CITY, "Port Alder"),
            time=began("2021-03-02"),
        ),
        Claim(
            Q2,
            "EXD0001",
            1,
            "The Kestrel virus infected Tomas Berg",
            BERG_X,
            ILVES,
            (INFECTION, "infected", INFECTED, PERSON, "Tomas Berg"),
        ),
        Claim(
            "CLEXD0003.000001",
            "EXD0003",
            0,
            "El brote de fiebre Kestrel comenzó en Puerto Alder",
            replace(PORT_ALDER, name="Puerto Alder"),
            _author("EXD0003"),
            (OUTBREAK, "brote", LOCATION, CITY, "Puerto Alder"),
            time=began("2021-03-02"),
            relations=((Q1, "supported_by"),),
        ),
        Claim(
            "CLEXD0004.000001",
            "EXD0004",
            0,
            "Вспышка лихорадки Кестрел началась в Порт-Алдере",
            replace(PORT_ALDER, name="Порт-Алдере"),
            _author("EXD0004"),
            (OUTBREAK, "Вспышка", LOCATION, CITY, "Порт-Алдере"),
            time=began("2021-03-02"),
            relations=((Q1, "supported_by"),),
        ),
        Claim(
            "CLEXD0002.000001",
            "EXD0002",
            0,
            "Quint said the outbreak did not begin in Port Alder",
            PORT_ALDER,
            QUINT,
            (OUTBREAK, "outbreak", LOCATION, CITY, "Port Alder#2"),
            FALSE,
            relations=((Q1, "refuted_by"),),
        ),
        Claim(
            "CLEXD0002.000002",
            "EXD0002",
            0,
            "Quint said the outbreak began aboard a cargo ship",
            Component("cargo ship", "NILEX0011", "Q11446"),
            QUINT,
            (OUTBREAK, "outbreak", LOCATION, "Q11446", "cargo ship"),
            relations=((Q1, "related"),),
        ),
        Claim(
            "CLEXD0005.000001",
            "EXD0005",
            0,
            "Mara Ilves said the outbreak started at the fish market",
            Component("fish market", "NILEX0012", ORGANIZATION),
            ILVES,
            (OUTBREAK, "outbreak", LOCATION, ORGANIZATION, "fish market"),
            relations=((Q1, "related"),),
        ),
        Claim(
            "CLEXD0001.000003",
            "EXD0001",
            0,
            "The Kestrel fever outbreak began in Norland",
            Component("Norland", "NILEX0007", COUNTRY),
            OFFICIALS,
            (OUTBREAK, "outbreak", LOCATION, COUNTRY, "Norland"),
            time=began("2021-03-02"),
            judgements=(("xVariable", "Inexact"),),
            relations=((Q1, "related"),),
        ),
        Claim(
            "CLEXD0003.000002",
            "EXD0003",
            1,
            "Mara Ilves confirmó que el virus Kestrel infectó a Tomás Berg",
            replace(BERG_X, name="Tomás Berg"),
            ILVES,
            (INFECTION, "infectó", INFECTED, PERSON, "Tomás Berg"),
            relations=((Q2, "supported_by"),),
        ),
        Claim(
            "CLEXD0004.000002",
            "EXD0004",
            1,
            "Мара Ильвес сообщила, что вирус Кестрел заразил Томаса Берга",
            replace(BERG_X, name="Томаса Берга"),
            replace(ILVES, name="Мара Ильвес"),
            (INFECTION, "заразил", INFECTED, PERSON, "рыбака"),
            relations=((Q2, "supported_by"),),
        ),
        Claim(
            "CLEXD0003.000003",
            "EXD0003",
            1,
            "El virus Kestrel infectó a Mara Ilves",
            ILVES,
            _author("EXD0003"),
            (INFECTION, "infectó", INFECTED, SCIENTIST, "Mara Ilves"),
            judgements=(("xVariable", "Incorrect"),),
            relations=((Q2, "related"),),
        ),
        Claim(
            "CLEXD0002.000003",
            "EXD0002",
            2,
            "Alder General Hospital vaccinated 300 nurses against Kestrel fever",
            Component("Alder General Hospital", "NILEX0004", ORGANIZATION),
            _author("EXD0002"),
            (VACCINATION, "vaccinated", INOCULATOR, ORGANIZATION, "Alder General Hospital"),
            time=began("2021-03-10"),
        ),
        Claim(
            "CLEXD0005.000002",
            "EXD0005",
            2,
            "Residents received the Kestrel fever vaccine at Alder General Hospital",
            Component("Alder General Hospital", "NILEX0004", ORGANIZATION),
            _author("EXD0005"),
            (VACCINATION, "receive", INOCULATOR, ORGANIZATION, "Alder General Hospital"),
            time=began("2021-03-12"),
        ),
    )
}

# each run's rankings: folder (ConditionN/<query or topic>) -> its claims in rank order (Condition 5: with
# the run's relation)
TA3_RUNS: dict[str, dict[str, tuple[tuple[str, str], ...]]] = {
    "run1": {
        f"Condition5/{Q1}": (
            ("CLEXD0003.000001", "supporting"),
            ("CLEXD0004.000001", "supporting"),
            ("CLEXD0002.000001", "refuting"),
            ("CLEXD0005.000001", "related"),
            ("CLEXD0002.000002", "related"),
        ),
        f"Condition5/{Q2}": (("CLEXD0003.000002", "supporting"), ("CLEXD0004.000002", "supporting")),
        "Condition6/T901": tuple(
            (c, "")
            for c in (
                "CLEXD0003.000001",
                "CLEXD0003.000002",
                "CLEXD0002.000001",
                "CLEXD0004.000001",
                "CLEXD0005.000001",
                "CLEXD0004.000002",
                "CLEXD0002.000002",
            )
        ),
        "Condition6/T902": (("CLEXD0002.000003", ""), ("CLEXD0005.000002", "")),
        "Condition7/C901": (("CLEXD0003.000001", ""), ("CLEXD0002.000001", ""), ("CLEXD0005.000001", "")),
    },
    "run2": {
        f"Condition5/{Q1}": (
            ("CLEXD0004.000001", "supporting"),
            ("CLEXD0002.000002", "supporting"),
            ("CLEXD0003.000001", "supporting"),
            ("CLEXD0001.000003", "related"),
            ("CLEXD0002.000001", "related"),
        ),
        f"Condition5/{Q2}": (("CLEXD0003.000003", "supporting"), ("CLEXD0004.000002", "supporting")),
        "Condition6/T901": tuple(
            (c, "")
            for c in (
                "CLEXD0001.000003",
                "CLEXD0003.000003",
                "CLEXD0004.000001",
                "CLEXD0003.000001",
                "CLEXD0002.000002",
            )
        ),
        "Condition6/T902": (("CLEXD0005.000002", ""),),
        "Condition7/C901": (("CLEXD0002.000002", ""), ("CLEXD0003.000001", "")),
    },
}
DEPTH = "ontopic:5,supporting:3,refuting:3,related:3,nonrefuting:3,nonsupporting:3"


def claim_frame(claim: Claim, condition7: str = "") -> str:
    """A claim frame (plan §2.4.1, additional TA3 requirements): the claim, its components, and the
    associated KEs: an event cluster with one argument edge to an entity cluster, all justified
    in the claim's document. A Condition 7 frame (``condition7``: its topic ID) has its topic's
    text as topic, and no subtopic, template or X variable."""
    _, topic, subtopic, template = SUBTOPICS[claim.subtopic]
    topic = dict(CONDITION7_TOPICS).get(condition7, topic)
    event_type, trigger, role, entity_type, words = claim.event
    event, entity = mention(claim.doc_id, trigger), mention(claim.doc_id, words)
    fields = [
        f'ex:claim a aida:Claim ;\n    aida:claimId "{claim.claim_id}" ;\n    aida:sourceDocument "{claim.doc_id}"',
        f'aida:topic "{topic}"',
    ]
    if not condition7:
        fields += [f'aida:subtopic "{subtopic}"', f'aida:claimTemplate "{template}"', "aida:xVariable ex:x-variable"]
    fields += [
        f'aida:naturalLanguageDescription "{claim.description}"',
        "aida:claimer ex:claimer",
        f"aida:epistemic aida:{claim.epistemic}",
        "aida:sentiment aida:SentimentNeutralUnknown",
    ]
    if claim.time:
        fields.append("aida:claimDateTime ex:claim-time")
    fields += ["aida:claimSemantics ex:cluster-event", "aida:associatedKEs ex:cluster-event", "aida:system ex:system ."]
    out = [
        PREFIXES + f"@prefix ex: <https://example.org/aifcheck/ta3/{claim.claim_id}#> .\n",
        "ex:system a aida:System .",
        f'ex:{_conf(1.0)} a aida:Confidence ; aida:confidenceValue "1.0"^^xsd:double ; aida:system ex:system .',
        "",
        " ;\n    ".join(fields),
        "",
    ]
    components = [("x-variable", claim.x)] if not condition7 else []
    for name, c in (*components, ("claimer", claim.claimer)):
        out.append(
            f'ex:{name} a aida:ClaimComponent ; aida:componentName "{c.name}" ; '
            f'aida:componentIdentity "{c.identity}" ; '
            f'aida:componentType "{c.type}" .'
        )
    if claim.time:
        out.append(_time("claim", claim.time))
    for key, metatype, qnode, m in (("event", EVENT, event_type, event), ("entity", ENTITY, entity_type, entity)):
        handle = f' ; aida:handle "{m.phrase}"' if metatype == ENTITY else ""
        out += [
            "",
            f"ex:cluster-{key} a aida:SameAsCluster ; aida:prototype ex:{key}-prototype ; aida:system ex:system .",
            f"ex:{key}-prototype a aida:{metatype}{handle} ; aida:informativeJustification ex:{key}-span ; "
            "aida:system ex:system .",
            f"ex:{key} a aida:{metatype} ; aida:system ex:system .",
            (
                f"ex:{key}-membership a aida:ClusterMembership ; aida:cluster ex:cluster-{key} ; "
                f"aida:clusterMember ex:{key} ; "
                f"aida:confidence ex:{_conf(1.0)} ; aida:system ex:system ."
            ),
        ]
        for subject in (f"{key}-prototype", key):
            out.append(
                f"ex:{subject}-type a rdf:Statement ; rdf:subject ex:{subject} ; rdf:predicate rdf:type ; "
                f'rdf:object "{qnode}" ;\n'
                f"    aida:justifiedBy ex:{key}-span ; aida:confidence ex:{_conf(1.0)} ; aida:system ex:system ."
            )
        out.append(_justification(f"ex:{key}-span", m))
    out += [
        "",
        (
            f'ex:argument a aida:ArgumentStatement ; rdf:subject ex:event-prototype ; rdf:predicate "{role}" ; '
            "rdf:object ex:entity-prototype ;"
        ),
        (
            "    aida:justifiedBy [ a aida:CompoundJustification ; "
            "aida:containedJustification ex:event-span, ex:entity-span ; "
            f"aida:confidence ex:{_conf(1.0)} ; aida:system ex:system ] ;"
        ),
        f"    aida:confidence ex:{_conf(1.0)} ; aida:system ex:system .",
    ]
    return "\n".join(out) + "\n"


def write_ta3(out: Path) -> None:
    write_aux(out / "AUX-data")
    topics = [f"{t}\t{topic}\t{sub}\t{template}" for t, topic, sub, template in SUBTOPICS]
    write(out / "user-queries" / "Condition5" / "topics.tsv", topics)
    write(out / "user-queries" / "Condition6" / "topics.tsv", topics)
    write(out / "user-queries" / "Condition7" / "topics.tsv", (f"{t}\t{sub}" for t, sub in CONDITION7_TOPICS))
    for query in (Q1, Q2):
        path = out / "user-queries" / "Condition5" / "Query_Claim_Frames" / f"{query}.ttl"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(claim_frame(CLAIMS[query]), encoding="utf-8")
    queries = ["query_id\tcondition\ttopic_id\tdepth"]
    queries += [f"{q}\tCondition5\t{SUBTOPICS[CLAIMS[q].subtopic][0]}\t{DEPTH}" for q in (Q1, Q2)]
    queries += [f"{t}\tCondition6\t{t}\tontopic:5" for t in sorted({s[0] for s in SUBTOPICS})]
    queries += [f"{t}\tCondition7\t{t}\tontopic:5" for t, _ in CONDITION7_TOPICS]
    write(out / "queries.tab", queries)
    for run, rankings in TA3_RUNS.items():
        for folder, ranked in rankings.items():
            _ranking(out / run / folder, ranked)
    # LDC judges NIST's pool of the two runs and of the query claim frames (which NIST runs through
    # its TA3 docker as a Condition 5 run named query_claim_frames, each ranked first for itself:
    # pool ta3 does so with --user-queries)
    with tempfile.TemporaryDirectory() as tmp:
        user = ("--user-queries", out / "user-queries", "--aux", out / "AUX-data")
        stages = []
        for run in TA3_RUNS:
            stages.append(Path(tmp) / "stages" / run)
            run_aifcheck("pipeline", "ta3", out / run, *user, "-o", stages[-1])
        pool = Path(tmp) / "pool"
        run_aifcheck("pool", "ta3", *stages, "--queries-to-score", out / "queries.tab", *user, "-o", pool)
        write_ta3_assessments(pool, out / "LDC" / "data" / "TA3")


def _ranking(folder: Path, ranked: tuple[tuple[str, str], ...]) -> None:
    """A query's (or topic's) folder of a submission: its ranking and a claim frame per ranked claim."""
    query = folder.name
    lines = [
        "\t".join([query, claim, str(rank), *([relation] if relation else [])])
        for rank, (claim, relation) in enumerate(ranked, 1)
    ]
    write(folder / f"{query}.ranking.tsv", lines)
    for claim, _ in ranked:
        condition7 = query if folder.parent.name == "Condition7" else ""
        (folder / f"{claim}.ttl").write_text(claim_frame(CLAIMS[claim], condition7), encoding="utf-8")


def write_ta3_assessments(pool: Path, package: Path) -> None:
    """LDC's package: each pool claim's ARF files with every NIL judged (correctness; a component's
    similarity class in its ec_similarity row), and the relation of each Condition 5 query's pooled
    claims to its query claim frame."""
    mappings = [line.split("\t") for line in (pool / "claim-mappings.tab").read_text(encoding="utf-8").splitlines()[1:]]
    claim_of = {uid: run_claim for uid, _, _, _, _, run_claim, *_ in mappings}
    # each pool claim of a query's topic: the query claim frame itself is identical to it, and a
    # claim LDC did not find supporting or refuting it is related
    relations = ["query_claim_id\tsystem_claim_id\trelation"]
    for query in (Q1, Q2):
        topic = SUBTOPICS[CLAIMS[query].subtopic][0]
        for uid in sorted(claim_of):
            claim = CLAIMS[claim_of[uid]]
            if SUBTOPICS[claim.subtopic][0] == topic:
                relation = "identical" if claim.claim_id == query else dict(claim.relations).get(query, "related")
                relations.append(f"{query}\t{uid}\t{relation}")
    write(package / "cross_claim_relations.tab", relations)
    for uid in sorted(claim_of):
        claim = CLAIMS[claim_of[uid]]
        labels = dict(claim.judgements)
        rows = (pool / "pool" / f"{uid}-outer-claim.tab").read_text(encoding="utf-8").split("\n")
        judged = [rows[0]]
        for row in rows[1:]:
            cells = row.split("\t")
            if cells[-1] == "NIL":
                component = cells[1]
                identity = {"xVariable": claim.x.identity, "claimer": claim.claimer.identity}.get(component, "")
                cells[-1] = (
                    identity
                    if cells[3] in ("ec_id", "ec_similarity")
                    else "Informative"
                    if cells[3] == "informativenessAssessment"
                    else labels.get(component, "Correct")
                )
            judged.append("\t".join(cells))
        (package / "system_claims").mkdir(parents=True, exist_ok=True)
        (package / "system_claims" / f"{uid}-outer-claim.tab").write_text("\n".join(judged), encoding="utf-8")
        for suffix in ("-raw-kes.tab", "-readable-kes.txt"):
            shutil.copyfile(pool / "pool" / f"{uid}{suffix}", package / "system_claims" / f"{uid}{suffix}")


# ------------------------------------------------------------------------------------------------
# CRUX 2023: claim frames per document (Task 1) and relations between claims (Task 2)
# ------------------------------------------------------------------------------------------------

EPISTEMIC = {TRUE: "true-certain", FALSE: "false-certain"}
# LDC's gold claims: the claims the documents make, where LDC's reading differs from the frames'
CRUX_GOLD = tuple(c for c in CLAIMS if c not in ("CLEXD0001.000003", "CLEXD0003.000003"))
CRUX_GOLD_FIELDS = {
    "CLEXD0002.000002": {"epistemic_status": "true-uncertain"},
    "CLEXD0005.000001": {"claimer": "Dr. Mara Ilves"},
}
CRUX_RUNS = {
    "run1": tuple(c for c in CLAIMS if c not in ("CLEXD0003.000003", "CLEXD0005.000002")),
    "run2": (
        "CLEXD0001.000001",
        "CLEXD0001.000003",
        "CLEXD0002.000001",
        "CLEXD0002.000002",
        "CLEXD0003.000001",
        "CLEXD0003.000003",
        "CLEXD0004.000002",
        "CLEXD0005.000002",
    ),
}
# Task 2: (claim, label, claim); "x support y": x supports y
CRUX_RELATIONS = {
    "gold": (
        ("CLEXD0003.000001", "identical", Q1),
        ("CLEXD0004.000001", "identical", Q1),
        ("CLEXD0002.000001", "refute", Q1),
        ("CLEXD0002.000002", "related", Q1),
        ("CLEXD0005.000001", "support", Q1),
        ("CLEXD0003.000002", "identical", Q2),
        ("CLEXD0004.000002", "identical", Q2),
        ("CLEXD0002.000003", "related", "CLEXD0005.000002"),
    ),
    "run1": (
        (Q1, "identical", "CLEXD0003.000001"),
        ("CLEXD0004.000001", "identical", Q1),
        ("CLEXD0002.000001", "refute", Q1),
        ("CLEXD0002.000002", "refute", Q1),
        ("CLEXD0005.000001", "support", Q1),
        ("CLEXD0003.000002", "identical", Q2),
        ("CLEXD0002.000003", "related", "CLEXD0005.000002"),
    ),
    "run2": (
        ("CLEXD0003.000001", "support", Q1),
        ("CLEXD0004.000001", "identical", Q1),
        ("CLEXD0002.000001", "related", Q1),
        (Q1, "support", "CLEXD0005.000001"),
        ("CLEXD0003.000002", "identical", Q2),
        ("CLEXD0004.000002", "related", Q2),
    ),
}


def crux_row(claim: Claim, changes: dict[str, str] | None = None) -> str:
    """A claim as a CRUX Task 1 line (the 12 columns, as ``aifcheck claims --format crux`` writes them)."""
    _, topic, _, template = SUBTOPICS[claim.subtopic]
    date = f"on {claim.time.start_after}Txx:xx:xx" if claim.time else "EMPTY_NA"
    row = {
        "root_uid": claim.doc_id,
        "claim_id": claim.claim_id,
        "topic": topic,
        "claim_template": template,
        "x_variable": claim.x.name,
        "claimer": claim.claimer.name,
        "epistemic_status": EPISTEMIC[claim.epistemic],
        "claimer_affiliation": "EMPTY_NA",
        "sentiment_status": "neutral-unknown",
        "claim_datetime": date,
        "claim_location": "EMPTY_NA",
        "claim_medium": "EMPTY_NA",
    }
    return "\t".join({**row, **(changes or {})}.values())


def write_crux(out: Path) -> None:
    write(out / "gold" / "claims.tab", (crux_row(CLAIMS[c], CRUX_GOLD_FIELDS.get(c)) for c in CRUX_GOLD))
    write(out / "gold" / "relations.tab", ("\t".join(r) for r in CRUX_RELATIONS["gold"]))
    for run, claims in CRUX_RUNS.items():
        for claim in claims:
            (out / run / "frames").mkdir(parents=True, exist_ok=True)
            (out / run / "frames" / f"{claim}.ttl").write_text(claim_frame(CLAIMS[claim]), encoding="utf-8")
        rows = sorted((CLAIMS[c] for c in claims), key=lambda c: (c.doc_id, c.claim_id))
        write(out / run / "claims.tab", (crux_row(c) for c in rows))
        write(out / run / "relations.tab", ("\t".join(r) for r in CRUX_RELATIONS[run]))


# ------------------------------------------------------------------------------------------------


def main(argv: list[str]) -> None:
    out = Path(argv[0]) if argv else HERE
    for task, writer in (("ta1", write_ta1), ("ta2", write_ta2), ("ta3", write_ta3), ("crux", write_crux)):
        if (out / task).exists():
            shutil.rmtree(out / task)
        writer(out / task)


if __name__ == "__main__":
    main(sys.argv[1:])
