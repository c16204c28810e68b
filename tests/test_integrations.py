"""The pre-commit hook as pre-commit reads it: a valid manifest whose entry, given the files its
pattern picks, fails a commit with a broken KB and passes one with a valid KB."""
from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys

import pytest
import yaml
from helpers import FIXTURES, ROOT

MANIFEST = ROOT / ".pre-commit-hooks.yaml"


def test_manifest_is_one_pre_commit_accepts() -> None:
    pre_commit = shutil.which("pre-commit") or pytest.skip("pre-commit is not installed")
    proc = subprocess.run([pre_commit, "validate-manifest", str(MANIFEST)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.parametrize(("name", "status"), [("examples/valid/document-kb.ttl", 0), ("tests/fixtures/N4/bad.ttl", 1)])
def test_hook_entry_checks_the_files_it_picks(name: str, status: int) -> None:
    (hook,) = yaml.safe_load(MANIFEST.read_text(encoding="utf-8"))
    assert re.search(hook["files"], name) and not re.search(hook["files"], "README.md")
    command, *args = shlex.split(hook["entry"])
    assert command == "aifcheck"
    proc = subprocess.run([sys.executable, "-m", "aifcheck", *args, name], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == status, proc.stdout + proc.stderr
    assert (name in proc.stdout) == (status == 1)
