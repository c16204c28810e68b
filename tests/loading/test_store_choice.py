"""Where a file's triples go (issue 19): in memory when the file's estimated peak fits in half the
memory available, on disk otherwise, or where --store / store= says. Both stores give the same
findings; the progress line names the one chosen."""

from __future__ import annotations

import inspect
import tempfile
from pathlib import Path

import pytest
from helpers import FIXTURES
from typer.testing import CliRunner

import aifcheck
from aifcheck.cli import application
from aifcheck.errors import UsageError
from aifcheck.loading import kb as kb_module
from aifcheck.loading.kb import choose_store, load_kb
from aifcheck.validation.run import READING, Options, validate_files

app = application()

BAD = FIXTURES / "N4" / "bad.ttl"  # a file with findings, so that "same findings" says something
GOOD = FIXTURES / "N4" / "good.ttl"


def _findings(report) -> list[tuple]:
    return [(v.file, v.line, v.rule_id, v.focus, v.message, v.value) for v in report.violations]


def test_forced_memory_and_forced_disk_give_the_same_findings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    with load_kb(BAD, store="memory") as in_memory, load_kb(BAD, store="disk") as on_disk:
        assert not in_memory.on_disk and on_disk.on_disk
        assert set(in_memory.store) == set(on_disk.store)
    memory = aifcheck.validate(BAD, store="memory")
    disk = aifcheck.validate(BAD, store="disk")
    assert _findings(memory) and _findings(memory) == _findings(disk)
    assert memory.exit_status == disk.exit_status == 1
    assert not list(tmp_path.glob("aifcheck-store-*"))  # the disk stores are removed with their KBs


def test_auto_goes_on_disk_when_memory_is_short(monkeypatch: pytest.MonkeyPatch) -> None:
    size = GOOD.stat().st_size
    # the estimate: size / 40 bytes a triple * 800 bytes a triple in memory = 20 * size bytes,
    # to fit in half of what is available: in memory from 40 * size bytes available
    monkeypatch.setattr(kb_module, "available_memory", lambda: 40 * size)
    with load_kb(GOOD) as kb:
        assert not kb.on_disk
    monkeypatch.setattr(kb_module, "available_memory", lambda: 40 * size - 2)
    with load_kb(GOOD) as kb:
        assert kb.on_disk
    with load_kb(GOOD, store="memory") as kb:  # forced: the estimate is not asked
        assert not kb.on_disk


def test_auto_without_a_memory_reading_falls_back_to_a_size_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(kb_module, "available_memory", lambda: None)
    assert choose_store(kb_module.FALLBACK_DISK_BYTES) == "memory"
    assert choose_store(kb_module.FALLBACK_DISK_BYTES + 1) == "disk"


@pytest.mark.skipif(not Path("/proc/meminfo").is_file(), reason="no /proc/meminfo (not Linux)")
def test_available_memory_is_memavailable() -> None:
    fields = dict(line.split(":", 1) for line in Path("/proc/meminfo").read_text().splitlines())
    total = int(fields["MemTotal"].split()[0]) * 1024
    assert 0 < kb_module.available_memory() <= total


def test_the_progress_line_names_the_store_chosen(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(kb_module, "available_memory", lambda: 0)  # nothing fits: on disk
    for store, phase in (("auto", READING["disk"]), ("memory", READING["memory"]), ("disk", READING["disk"])):
        assert _reading_phases(store) == {phase}, store


def _reading_phases(store: str) -> set[str]:
    """The phases other than checking that validating GOOD with ``store`` reports."""
    phases: list[str] = []
    report = validate_files(
        [str(GOOD)], [], Options(store=store), file_progress=lambda _path, p, _done, _total: phases.append(p)
    )
    assert report.exit_status == 0
    return {p for p in phases if p != "checking"}


def test_an_unknown_store_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match="unknown store 'ram'"):
        aifcheck.validate(GOOD, store="ram")
    with pytest.raises(UsageError, match="unknown store 'ram'"):
        load_kb(GOOD, store="ram")


runner = CliRunner()


def test_the_store_option_of_validate(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)  # no pyproject.toml settings
    outputs = {}
    for store in ("auto", "memory", "disk"):
        result = runner.invoke(app, ["validate", "--no-config", "--format", "json", "--store", store, str(BAD)])
        assert result.exit_code == 1, result.output
        outputs[store] = [
            (v["line"], v["rule_id"], v["message"]) for f in _json(result.output)["files"] for v in f["violations"]
        ]
    assert outputs["auto"] and outputs["auto"] == outputs["memory"] == outputs["disk"]
    wrong = runner.invoke(app, ["validate", "--no-config", "--store", "ram", str(BAD)])
    assert wrong.exit_code == 2


def test_the_store_setting_of_pyproject(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.aifcheck]\nstore = "disk"\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    seen: list[str] = []
    real = kb_module.load_kb

    def spy(*args, **kwargs):
        call = inspect.signature(real).bind(*args, **kwargs)
        call.apply_defaults()
        seen.append(call.arguments["store"])
        return real(*args, **kwargs)

    monkeypatch.setattr("aifcheck.validation.run.load_kb", spy)
    result = runner.invoke(app, ["validate", str(GOOD)])
    assert result.exit_code == 0 and seen == ["disk"]


def _json(text: str) -> dict:
    import json

    return json.loads(text)
