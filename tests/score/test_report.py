"""`aifcheck score report`: one self-contained HTML page. It parses, holds every number of the
score files, loads nothing from elsewhere, needs no script, and renders in a real browser
(headless Chromium; skipped with a reason where Chromium is not installed)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pytest
from helpers import EXAMPLE_TYPE_TABLES, ROOT, SHARED_DATA
from test_compare import documents, write_ta1

from aifcheck.render.report_html import report_html
from aifcheck.score.report import report_data
from aifcheck.score.scorefiles import read_scores

EXAMPLE = SHARED_DATA / "ta1-scoring" / "example-task1-run"
VOID = {"meta", "br", "img", "hr", "input", "link", "area", "base", "col", "embed", "source", "track", "wbr"}
SVG_EMPTY = {"path", "use", "rect", "circle", "line", "polyline", "polygon", "stop", "ellipse"}


class Page(HTMLParser):
    """Collects the page's text and attributes, and checks that every element is closed in order."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.open: list[str] = []
        self.texts: list[str] = []
        self.cells: list[str] = []
        self.attributes: list[tuple[str, str, str | None]] = []
        self.tags: set[str] = set()
        self._cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        self.attributes += [(tag, name, value) for name, value in attrs]
        if tag not in VOID:
            self.open.append(tag)
        if tag in ("td", "th"):
            self._cell = []

    def handle_startendtag(self, tag, attrs):
        self.tags.add(tag)
        self.attributes += [(tag, name, value) for name, value in attrs]

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        assert self.open and self.open[-1] == tag, f"</{tag}> closes <{self.open[-1] if self.open else None}>"
        self.open.pop()
        if tag in ("td", "th") and self._cell is not None:
            self.cells.append("".join(self._cell).strip())
            self._cell = None

    def handle_data(self, data):
        self.texts.append(data)
        if self._cell is not None:
            self._cell.append(data)


def parse(html: str) -> Page:
    page = Page()
    page.feed(html)
    page.close()
    assert page.open == [], f"unclosed elements: {page.open}"
    return page


@pytest.fixture
def two_runs(tmp_path) -> list[Path]:
    rng = np.random.default_rng(11)
    base = documents(rng, 12)
    better = {d: [min(1.0, v + 0.08) for v in values] for d, values in base.items()}
    a = write_ta1(tmp_path / "baseline", base)
    write_ta1(a, {d: [round(v) for v in vs] for d, vs in base.items()}, metric="TypeMetricV4")
    b = write_ta1(tmp_path / "new", better)
    write_ta1(b, {d: [round(v) for v in vs] for d, vs in better.items()}, metric="TypeMetricV4")
    return [a, b]


def run_report(runs: list[Path], target: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["aifcheck", "score", "report", *map(str, runs), "-o", str(target)], capture_output=True, text=True
    )


def test_report_parses_and_holds_every_number_of_the_score_files(two_runs, tmp_path):
    target = tmp_path / "report.html"
    done = run_report(two_runs, target)
    assert done.returncode == 0, done.stderr
    page = parse(target.read_text(encoding="utf-8"))
    cells = set(page.cells)
    for run in two_runs:
        for table in read_scores(run).tables:
            for row in table.table.rows:
                for cell in row.cells:
                    assert cell in cells, f"{table.table.path}:{row.line}: {cell!r} is not in the report"
    text = " ".join(page.texts)
    assert "Runs side by side" in text and "Run 2 (new) against run 1 (baseline)" in text


def test_report_headlines_intervals_and_significance(two_runs):
    data = report_data(two_runs, replications=20_000)
    page = parse(report_html(data))
    frame = data.runs[0].headlines[0]
    low, high = frame.intervals[0.95]
    assert low < frame.headline.value < high
    assert f"[{low:.4f}, {high:.4f}]" in page.cells or any(f"[{low:.4f}, {high:.4f}]" in c for c in page.cells)
    comparison = data.comparisons[0].metrics[0]
    assert comparison.p_value < 0.01 and comparison.ci[0] > 0
    assert f"{comparison.difference:+.4f} ***" in page.cells


def test_report_is_self_contained_and_needs_no_script(two_runs, tmp_path):
    target = tmp_path / "report.html"
    assert run_report(two_runs, target).returncode == 0
    html = target.read_text(encoding="utf-8")
    page = parse(html)
    assert "script" not in page.tags and "link" not in page.tags and "iframe" not in page.tags
    assert page.tags >= {"svg", "table", "style"}
    for tag, name, value in page.attributes:
        if name in ("src", "href", "xlink:href", "action", "srcset"):
            assert value is None or value.startswith("#"), f"<{tag} {name}={value!r}> loads something"
    assert "url(http" not in html and "@import" not in html
    ids = [value for _tag, name, value in page.attributes if name == "id"]
    assert len(ids) == len(set(ids)), "two pictures share an id"


def test_one_run_and_nist_example(tmp_path):
    if not EXAMPLE.is_dir():
        pytest.skip(f"NIST's example TA1 run not found at {EXAMPLE}")
    target = tmp_path / "report.html"
    done = run_report([EXAMPLE], target)
    assert done.returncode == 0, done.stderr
    page = parse(target.read_text(encoding="utf-8"))
    assert "0.3488" in page.cells  # FrameMetric's ALL-Macro, as results.json reports it
    assert "Runs side by side" not in " ".join(page.texts)


def test_a_folder_without_scores_is_one_line(tmp_path):
    done = run_report([tmp_path], tmp_path / "report.html")
    assert done.returncode == 3 and done.stderr.count("\n") == 1 and "no score files" in done.stderr
    assert not (tmp_path / "report.html").exists()


# a real browser


def _chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    pytest.skip("no headless browser: install Debian's chromium (apt-get install chromium) to run this test")


def _screenshot(page: Path, picture: Path) -> subprocess.CompletedProcess:
    with tempfile.TemporaryDirectory() as profile:
        return subprocess.run(
            [
                _chromium(),
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                f"--user-data-dir={profile}",
                "--enable-logging=stderr",
                "--v=0",
                "--hide-scrollbars",
                "--window-size=1366,900",
                f"--screenshot={picture}",
                page.resolve().as_uri(),
            ],
            capture_output=True,
            text=True,
            timeout=120,
        )


def _console_errors(done: subprocess.CompletedProcess) -> list[str]:
    return [line for line in done.stderr.splitlines() if ":CONSOLE" in line]


def _ink(picture: Path) -> float:
    """The share of pixels that are not (nearly) white."""
    import matplotlib.image

    pixels = matplotlib.image.imread(picture)[..., :3]
    return float(np.mean(pixels.min(axis=2) < 0.9))


def test_browser_catches_a_broken_page(tmp_path):
    """The browser check itself can fail: a page with a script error logs it, a blank page has no ink."""
    broken = tmp_path / "broken.html"
    broken.write_text("<!DOCTYPE html><html><body><script>notDefined();</script></body></html>")
    done = _screenshot(broken, tmp_path / "broken.png")
    assert _console_errors(done)
    assert _ink(tmp_path / "broken.png") < 0.001


def test_report_renders_in_a_headless_browser(two_runs, tmp_path):
    target, picture = tmp_path / "report.html", tmp_path / "report.png"
    assert run_report(two_runs, target).returncode == 0
    done = _screenshot(target, picture)
    assert picture.exists(), done.stderr[-2000:]
    assert _console_errors(done) == []
    assert _ink(picture) > 0.03  # text, tables and a picture, not a blank page


def test_ta3_run_counts_queries():
    """A TA3 run (NIST's recorded scores of the ta3 fixture `multi`): one headline per metric,
    condition and list, over the queries with ground truth."""
    run = Path(__file__).parent / "fixtures" / "ta3" / "multi" / "nist"
    data = report_data([run], replications=2000)
    labels = [h.headline.label for h in data.runs[0].headlines]
    assert "NDCGScorerV1 Condition5 ontopic" in labels and "F1ScorerV2C Condition6 ontopic" in labels
    page = parse(report_html(data))
    assert "3 queries" in page.cells and "1 query" in page.cells


def test_every_difference_is_the_difference_of_the_numbers_beside_it(tmp_path):
    """Issue 42 §5, through the installed command: two TA1 runs of the example evaluation, the
    second without one of the four core documents. FrameMetric and the other metrics that average
    over submitted documents differ as whole runs while their paired difference is over three
    documents: each difference of the report's side-by-side table is the difference of the two
    values shown beside it, or shows the paired values it is the difference of; each of compare's
    B-A is its printed B minus its printed A."""
    example = ROOT / "example-evaluation" / "ta1"
    less = tmp_path / "run1-less"
    less.mkdir()
    for kb in (example / "run1").iterdir():
        if kb.name != "EXD0004.ttl":
            shutil.copy(kb, less / kb.name)
    folders = []
    for run in (example / "run1", less):
        folders.append(tmp_path / f"{run.name}-scores")
        done = command(
            "score",
            "ta1",
            run,
            "--gold",
            example / "gold",
            "--aux",
            example / "AUX-data",
            "-o",
            folders[-1],
            *EXAMPLE_TYPE_TABLES,
        )
        assert done.returncode == 0, done.stderr
    report = command("score", "report", *folders, "-o", tmp_path / "report.html")
    assert report.returncode == 0, report.stderr
    html = (tmp_path / "report.html").read_text(encoding="utf-8")
    section = html.split('id="side-by-side"')[1].split("</section>")[0]
    page = Page()
    page.feed(section)
    cells = page.cells[4:]  # metric, run 1, run 2, 2 − 1
    rows = [cells[k : k + 4] for k in range(0, len(cells), 4)]
    paired = 0
    for label, one, two, difference in rows:
        shown = re.fullmatch(
            r"([+-]\d\.\d{4})(?: \((\d\.\d{4}) − (\d\.\d{4}) over \d documents? in both\))?( \*+)?", difference
        )
        assert shown, (label, difference)
        b, a = (shown[2], shown[3]) if shown[2] else (two.split()[0], one.split()[0])
        assert float(shown[1]) == pytest.approx(float(b) - float(a), abs=1e-9), (label, one, two, difference)
        paired += bool(shown[2])
    assert paired >= 4  # FrameMetric, TemporalMetric, NegationMetricV1, TypeMetricV4 at least
    frame = next(row for row in rows if row[0] == "FrameMetric")
    assert "over 3 documents in both" in frame[3]
    compare = command("score", "compare", *folders)
    assert compare.returncode == 0, compare.stderr
    for line in compare.stdout.splitlines()[1:]:
        found = re.match(r"^(\S+)\s+\d+\s+(\d\.\d{4})\s+(\d\.\d{4})\s+([+-]\d\.\d{4})\s", line)
        if found:
            assert float(found[4]) == pytest.approx(float(found[3]) - float(found[2]), abs=1e-9), line


def command(*args: object) -> subprocess.CompletedProcess:
    """The installed command."""
    return subprocess.run([sys.executable, "-m", "aifcheck", *map(str, args)], capture_output=True, text=True)
