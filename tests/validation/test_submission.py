"""lint-submission's library: each S rule fires, with its ID and location, on a broken copy of a
submission, and nothing fires on the unbroken copy. Copies are made of the synthetic submission
of tests/data/submission and, when ../shared/data is present, of NIST's example run."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from helpers import SHARED_DATA, TEST_DATA

from aifcheck.errors import ExitStatus, InputError, UsageError
from aifcheck.validation.catalog import Severity
from aifcheck.validation.report import Report
from aifcheck.validation.shapes import load_catalog
from aifcheck.validation.submission import CHECKS, lint

FIXTURE = TEST_DATA / "submission"
NIST_RUN = SHARED_DATA / "task3-run"
NIST_QUERIES = SHARED_DATA / "user-queries"

# Where a finding must be: a path relative to the submission root and a line (None: any line > 0).
Location = tuple[str, int | None]


@dataclass(frozen=True)
class Submission:
    """A copy of a Condition 5 submission and its query claim frames folder."""

    root: Path
    queries: Path

    @property
    def folder(self) -> Path:
        """The first query folder."""
        return sorted(p for p in self.root.iterdir() if p.is_dir())[0]

    @property
    def ranking(self) -> Path:
        return self.folder / f"{self.folder.name}.ranking.tsv"

    def rows(self) -> list[list[str]]:
        return [line.split("\t") for line in self.ranking.read_text(encoding="utf-8").splitlines()]

    def write_rows(self, rows: list[list[str]]) -> None:
        self.ranking.write_text("".join("\t".join(r) + "\n" for r in rows), encoding="utf-8")

    def frame(self, line: int) -> Path:
        """The claim frame file of a ranking line (1-based)."""
        return self.folder / f"{self.rows()[line - 1][1]}.ttl"

    def relative(self, path: Path) -> str:
        return str(path.relative_to(self.root))


def _copy(tmp_path: Path, source: str) -> Submission:
    if source == "fixture":
        run, queries = FIXTURE / "run", FIXTURE / "queries"
    else:
        if not NIST_RUN.is_dir():
            pytest.skip(f"NIST evaluation data not found at {SHARED_DATA}")
        run, queries = NIST_RUN / "Condition5", NIST_QUERIES / "Condition5" / "Query_Claim_Frames"
    shutil.copytree(run, tmp_path / "run")
    return Submission(tmp_path / "run", queries)


def _set_claim_id(path: Path, old: str, new: str) -> None:
    """Change the aida:claimId literal of a claim frame (IRIs that contain the ID are left alone)."""
    text = path.read_text(encoding="utf-8")
    assert f'"{old}"' in text
    path.write_text(text.replace(f'"{old}"', f'"{new}"'), encoding="utf-8")


# --- one mutation per case: each breaks the copy and says where the finding must be ---------


def stray_file(sub: Submission) -> Location:
    (sub.root / "notes.txt").write_text("draft\n", encoding="utf-8")
    return "notes.txt", 0


def folder_holds_another_ranking(sub: Submission) -> Location:
    sub.write_rows([["CLOTHER0000.000001", *row[1:]] for row in sub.rows()])
    return sub.relative(sub.ranking), 1


def missing_ranking(sub: Submission) -> Location:
    sub.ranking.unlink()
    return sub.relative(sub.folder), 0


def misnamed_ranking(sub: Submission) -> Location:
    sub.ranking.rename(sub.folder / "ranking.ranking.tsv")
    return sub.relative(sub.folder / "ranking.ranking.tsv"), 0


def missing_column(sub: Submission) -> Location:
    rows = sub.rows()
    rows[1] = rows[1][:3]
    sub.write_rows(rows)
    return sub.relative(sub.ranking), 2


def extra_column(sub: Submission) -> Location:
    rows = sub.rows()
    rows[0].append("0.9")
    sub.write_rows(rows)
    return sub.relative(sub.ranking), 1


def empty_line(sub: Submission) -> Location:
    rows = sub.rows()
    sub.write_rows([rows[0], [""], *rows[1:]])
    return sub.relative(sub.ranking), 2


def empty_ranking(sub: Submission) -> Location:
    sub.ranking.write_text("", encoding="utf-8")
    return sub.relative(sub.ranking), 0


def not_utf8(sub: Submission) -> Location:
    data = sub.ranking.read_bytes()
    sub.ranking.write_bytes(data + "x\tcaf\u00e9\t9\trelated\n".encode("latin-1"))
    return sub.relative(sub.ranking), data.count(b"\n") + 1  # the line with the bad byte


def tie(sub: Submission) -> Location:
    rows = sub.rows()
    rows[1][2] = rows[0][2]
    sub.write_rows(rows)
    return sub.relative(sub.ranking), 2


def numeric_tie(sub: Submission) -> Location:
    rows = sub.rows()
    rows[1][2] = rows[0][2] + ".0"
    sub.write_rows(rows)
    return sub.relative(sub.ranking), 2


def duplicated_pair(sub: Submission) -> Location:
    rows = sub.rows()
    sub.write_rows([*rows, [*rows[0][:2], "99", rows[0][3]]])
    return sub.relative(sub.ranking), len(rows) + 1


def rank_not_a_number(sub: Submission) -> Location:
    rows = sub.rows()
    rows[0][2] = "first"
    sub.write_rows(rows)
    return sub.relative(sub.ranking), 1


def bad_relation(sub: Submission) -> Location:
    rows = sub.rows()
    rows[0][3] = "supports"
    sub.write_rows(rows)
    return sub.relative(sub.ranking), 1


def capitalised_relation(sub: Submission) -> Location:
    rows = sub.rows()
    rows[1][3] = rows[1][3].capitalize()
    sub.write_rows(rows)
    return sub.relative(sub.ranking), 2


def missing_frame(sub: Submission) -> Location:
    sub.frame(2).unlink()
    return sub.relative(sub.ranking), 2


def unranked_frame(sub: Submission) -> Location:
    source = sub.frame(1)
    extra = sub.folder / f"{source.stem}9.ttl"
    shutil.copy(source, extra)
    _set_claim_id(extra, source.stem, extra.stem)  # a valid claim frame in itself: only S5 fires
    return sub.relative(extra), 0


def stray_file_in_folder(sub: Submission) -> Location:
    (sub.folder / "notes.txt").write_text("to do\n", encoding="utf-8")
    return sub.relative(sub.folder / "notes.txt"), 0


def claim_id_differs(sub: Submission) -> Location:
    frame = sub.frame(1)
    _set_claim_id(frame, frame.stem, frame.stem + "X")
    return sub.relative(frame), None


def query_in_own_list(sub: Submission) -> Location:
    rows = sub.rows()
    query = sub.folder.name
    sub.write_rows([*rows, [query, query, "99", "related"]])
    shutil.copy(sub.queries / f"{query}.ttl", sub.folder / f"{query}.ttl")
    return sub.relative(sub.ranking), len(rows) + 1


def unknown_folder(sub: Submission) -> Location:
    name = "CLUNKNOWN00.000001"
    sub.write_rows([[name, *row[1:]] for row in sub.rows()])
    sub.ranking.rename(sub.folder / f"{name}.ranking.tsv")
    sub.folder.rename(sub.root / name)
    return name, 0


def missing_folder(sub: Submission) -> Location:
    shutil.rmtree(sub.folder)
    return ".", 0


@dataclass(frozen=True)
class Case:
    rule: str
    mutate: Callable[[Submission], Location]
    complete: bool = False


CASES = [
    Case("S1", stray_file),
    Case("S1", folder_holds_another_ranking),
    Case("S2", missing_ranking),
    Case("S2", misnamed_ranking),
    Case("S2", missing_column),
    Case("S2", extra_column),
    Case("S2", empty_line),
    Case("S2", empty_ranking),
    Case("S2", not_utf8),
    Case("S3", tie),
    Case("S3", numeric_tie),
    Case("S3", duplicated_pair),
    Case("S3", rank_not_a_number),
    Case("S4", bad_relation),
    Case("S4", capitalised_relation),
    Case("S5", missing_frame),
    Case("S5", unranked_frame),
    Case("S5", stray_file_in_folder),
    Case("S6", claim_id_differs),
    Case("S7", query_in_own_list),
    Case("S8", unknown_folder),
    Case("S8", missing_folder, complete=True),
]


def _s_rules(report: Report) -> set[str]:
    return {v.rule_id for v in report.violations if v.rule_id.startswith("S")}


@pytest.mark.parametrize("source", ["fixture", "nist"])
def test_unbroken_copy_passes(tmp_path: Path, source: str) -> None:
    sub = _copy(tmp_path, source)
    report = lint(sub.root, 5, queries=sub.queries)
    assert not _s_rules(report)
    assert report.exit_status is ExitStatus.VALID
    assert not report.input_errors and all(f.readable for f in report.files)
    if source == "fixture":
        assert not report.violations  # the synthetic claim frames pass ta3 without a warning


@pytest.mark.parametrize("source", ["fixture", "nist"])
@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.rule}-{c.mutate.__name__}")
def test_broken_copy_gives_its_rule(tmp_path: Path, case: Case, source: str) -> None:
    sub = _copy(tmp_path, source)
    where, line = case.mutate(sub)
    report = lint(sub.root, 5, queries=sub.queries, complete=case.complete)
    assert _s_rules(report) == {case.rule}, [(v.rule_id, v.file, v.line, v.message) for v in report.violations]
    found = [v for v in report.violations if v.rule_id == case.rule]
    rule = load_catalog().rules[case.rule]
    assert all(v.severity is rule.severity and v.plan_ref == rule.plan_ref for v in found)
    located = [(Path(v.file).resolve(), v.line) for v in found]
    expected_file = (sub.root / where).resolve()
    at_line = (lambda n: n == line) if line is not None else (lambda n: n > 0)
    assert any(f == expected_file and at_line(n) for f, n in located), located
    assert report.exit_status is ExitStatus.VIOLATIONS


def test_every_s_rule_has_a_check_and_a_case() -> None:
    submission_rules = {r.id for r in load_catalog().rules.values() if r.kind == "submission"}
    assert submission_rules == {f"S{n}" for n in range(1, 9)}
    assert set(CHECKS) == submission_rules
    assert {case.rule for case in CASES} == submission_rules


def test_messages_name_the_defect(tmp_path: Path) -> None:
    sub = _copy(tmp_path, "fixture")
    rows = sub.rows()
    rows[1][2] = rows[0][2]
    rows[0][3] = "supports"
    sub.write_rows(rows)
    report = lint(sub.root, 5, queries=sub.queries)
    messages = {v.rule_id: (v.focus, v.message) for v in report.violations}
    assert messages["S3"] == (
        "CLDOCB0002.000001",
        "claim frame CLDOCB0002.000001 has rank 1, as CLDOCA0001.000001 on line 1: ranks may not be tied",
    )
    assert messages["S4"] == (
        "CLDOCA0001.000001",
        "claim relation 'supports' of claim frame CLDOCA0001.000001 is not one of supporting, refuting, related",
    )


# ------------------------------------------------------------------------------------------
# The ta3 profile runs on every claim frame; bad input never stops the run
# ------------------------------------------------------------------------------------------


def test_claim_frames_are_validated_with_ta3(tmp_path: Path) -> None:
    sub = _copy(tmp_path, "fixture")
    frame = sub.frame(1)
    text = frame.read_text(encoding="utf-8")
    frame.write_text(text.replace('aida:topic "Transmitting the virus" ;', ""), encoding="utf-8")
    report = lint(sub.root, 5, queries=sub.queries)
    (finding,) = report.violations
    assert (finding.rule_id, Path(finding.file), finding.severity) == ("T2c", frame, Severity.ERROR)
    assert finding.line > 0


def test_unreadable_turtle_is_reported_and_the_rest_checked(tmp_path: Path) -> None:
    sub = _copy(tmp_path, "fixture")
    frame = sub.frame(1)
    frame.write_text("@prefix ex: <http://e/> .\nex:a ex:b .\n", encoding="utf-8")
    report = lint(sub.root, 5, queries=sub.queries)
    unreadable = [f for f in report.files if not f.readable]
    assert [Path(f.file) for f in unreadable] == [frame]
    assert unreadable[0].error is not None and unreadable[0].error.message.startswith(f"{frame}:2:")
    assert report.exit_status is ExitStatus.UNREADABLE
    tie(sub)
    report = lint(sub.root, 5, queries=sub.queries)
    assert _s_rules(report) == {"S3"}
    assert report.exit_status is ExitStatus.VIOLATIONS  # violations win over unreadable files


def _condition6(tmp_path: Path) -> Path:
    """The synthetic submission rearranged as a Condition 6 one: a folder per topic of topics.tsv."""
    root = tmp_path / "run6"
    layout = {
        "TX01": ["CLQRYA0001.000001/CLDOCA0001.000001", "CLQRYA0001.000001/CLDOCB0002.000001"],
        "TX02": ["CLQRYB0002.000001/CLDOCC0003.000002"],
    }
    for topic, frames in layout.items():
        (root / topic).mkdir(parents=True)
        lines = []
        for rank, frame in enumerate(frames, 1):
            shutil.copy(FIXTURE / "run" / f"{frame}.ttl", root / topic)
            lines.append(f"{topic}\t{Path(frame).name}\t{rank}\n")
        (root / topic / f"{topic}.ranking.tsv").write_text("".join(lines), encoding="utf-8")
    return root


def test_condition6_copy_passes_and_checks_its_columns(tmp_path: Path) -> None:
    root = _condition6(tmp_path)
    topics = FIXTURE / "topics.tsv"
    assert not lint(root, 6, topics=topics, complete=True).violations
    ranking = root / "TX02" / "TX02.ranking.tsv"
    ranking.write_text("TX02\tCLDOCC0003.000002\t1\trelated\n", encoding="utf-8")  # a Condition 5 line
    (root / "TX01").rename(root / "TX09")
    report = lint(root, 6, topics=topics)
    found = {(v.rule_id, Path(v.file).name, v.line) for v in report.violations}
    assert found == {
        ("S2", "TX02.ranking.tsv", 1),  # four columns
        ("S2", "TX09", 0),  # no TX09.ranking.tsv
        ("S2", "TX01.ranking.tsv", 0),  # the ranking file of another folder
        ("S8", "TX09", 0),  # no such topic
    }
    assert lint(root, 6, topics=topics, complete=True).count(Severity.ERROR) == 5  # and TX01 has no folder


def test_malformed_topics_lines_are_located_input_errors(tmp_path: Path) -> None:
    root = _condition6(tmp_path)
    topics = tmp_path / "topics.tsv"
    topics.write_text(
        "TX01\tTransmitting the virus\tWhat transmits COVID-19\tX transmits COVID-19\nTX02\tOrigin of the Virus\n",
        encoding="utf-8",
    )
    report = lint(root, 6, topics=topics)
    assert [e.message for e in report.input_errors] == [
        f"{topics}:2: a Condition 6 topics line has 4 or 5 tab-separated columns, this one 2"
    ]
    assert {(v.rule_id, Path(v.file).name) for v in report.violations} == {("S8", "TX02")}
    topics.write_bytes(b"TX01\tVirus \xe9\n")
    report = lint(root, 7, topics=topics)
    assert [e.message for e in report.input_errors] == [
        f"{topics}:1: not UTF-8 (byte 0xe9); the file must be UTF-8 text"
    ]
    assert _s_rules(report) == set()  # without topic IDs S8 cannot be checked; the rest is


@pytest.mark.parametrize("condition", [5, 6, 7])
def test_nist_example_run_has_no_s_error(shared_data: Path, condition: int) -> None:
    inputs = shared_data / "user-queries" / f"Condition{condition}"
    given = {"queries": inputs / "Query_Claim_Frames"} if condition == 5 else {"topics": inputs / "topics.tsv"}
    report = lint(shared_data / "task3-run" / f"Condition{condition}", condition, **given)
    assert not _s_rules(report)
    assert report.count(Severity.ERROR) == 0
    assert report.exit_status is ExitStatus.VALID
    claim_frames = sorted((shared_data / "task3-run" / f"Condition{condition}").rglob("*.ttl"))
    assert {str(p) for p in claim_frames} <= {f.file for f in report.files}
    complete = lint(shared_data / "task3-run" / f"Condition{condition}", condition, complete=True, **given)
    assert _s_rules(complete) == {"S8"}  # NIST's example answers only some of the queries


@pytest.mark.parametrize(
    ("args", "message"),
    [
        pytest.param({"condition": 4}, "unknown condition", id="condition"),
        pytest.param(
            {"condition": 5, "topics": FIXTURE / "topics.tsv"}, "give their folder with --queries", id="topics-for-5"
        ),
        pytest.param(
            {"condition": 6, "queries": FIXTURE / "queries"}, "give the topics file with --topics", id="queries-for-6"
        ),
    ],
)
def test_usage_errors(args: dict, message: str) -> None:
    with pytest.raises(UsageError, match=message):
        lint(FIXTURE / "run", **args)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        pytest.param({"condition": 6, "topics": FIXTURE / "nope.tsv"}, "no such topics file", id="missing-topics"),
        pytest.param({"condition": 5, "queries": FIXTURE / "run"}, "holds no query claim frame", id="empty-queries"),
    ],
)
def test_inputs_that_cannot_be_read(args: dict, message: str) -> None:
    # a file or folder the user names that cannot be read is an input error (exit 3), as in every command
    with pytest.raises(InputError, match=message):
        lint(FIXTURE / "run", **args)


def test_a_file_is_not_a_submission() -> None:
    with pytest.raises(InputError, match="not a folder"):
        lint(FIXTURE / "topics.tsv", 5)


def test_a_whole_run_is_checked_condition_by_condition(shared_data: Path) -> None:
    run = shared_data / "task3-run"
    report = lint(run, user_queries=shared_data / "user-queries")
    for condition in (5, 6, 7):
        alone = lint(run / f"Condition{condition}", condition, user_queries=shared_data / "user-queries")
        assert {v for f in alone.files for v in f.violations} <= set(report.violations)
        assert {f.file for f in alone.files} <= {f.file for f in report.files}
    assert report.exit_status is ExitStatus.VALID and not _s_rules(report)
    with pytest.raises(UsageError, match="give --condition"):
        lint(FIXTURE)  # neither a ConditionN folder nor one that holds them
