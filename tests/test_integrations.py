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

from aifcheck import __version__

MANIFEST = ROOT / ".pre-commit-hooks.yaml"
RELEASE = f"v{__version__}"  # the tag of a release, which the README's snippets pin


def test_the_changelog_has_a_section_for_the_version_the_snippets_pin() -> None:
    headings = re.findall(r"^## (\S+)", (ROOT / "CHANGELOG.md").read_text(encoding="utf-8"), re.M)
    assert headings[0] == __version__, headings  # the newest section is the release's


def test_manifest_is_one_pre_commit_accepts() -> None:
    pre_commit = shutil.which("pre-commit") or pytest.skip("pre-commit is not installed")
    proc = subprocess.run([pre_commit, "validate-manifest", str(MANIFEST)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.parametrize(
    ("name", "status"), [("examples/valid/document-kb.ttl", 0), ("aifcheck/rule_fixtures/N4/bad.ttl", 1)]
)
def test_hook_entry_checks_the_files_it_picks(name: str, status: int) -> None:
    (hook,) = yaml.safe_load(MANIFEST.read_text(encoding="utf-8"))
    assert re.search(hook["files"], name) and not re.search(hook["files"], "README.md")
    command, *args = shlex.split(hook["entry"])
    assert command == "aifcheck"
    proc = subprocess.run([sys.executable, "-m", "aifcheck", *args, name], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == status, proc.stdout + proc.stderr
    assert (name in proc.stdout) == (status == 1)


README = (ROOT / "README.md").read_text(encoding="utf-8")


def _snippet(marker: str) -> dict:
    """The README's YAML block that holds ``marker``."""
    (block,) = [b for b in re.findall(r"```yaml\n(.*?)```", README, re.S) if marker in b]
    return yaml.safe_load(block)


def test_the_readme_s_pre_commit_snippet_runs_the_hook(tmp_path) -> None:
    pre_commit = shutil.which("pre-commit") or pytest.skip("pre-commit is not installed")
    git = shutil.which("git") or pytest.skip("git is not installed")
    config = _snippet("id: aifcheck")
    (repo,) = config["repos"]
    assert repo["rev"] == RELEASE and [h["id"] for h in repo["hooks"]] == ["aifcheck"]
    # the snippet as pasted, with its repository named by this clone's path (pre-commit clones it),
    # where the release tag is made as the lead makes it on main
    clone = tmp_path / "aifcheck"
    subprocess.run([git, "clone", "-q", str(ROOT), str(clone)], check=True)
    subprocess.run([git, "-C", str(clone), "tag", "-f", RELEASE], check=True)  # (moved here if it is older)
    repo["repo"] = str(clone)
    project = tmp_path / "project"
    project.mkdir()
    shutil.copy(FIXTURES / "N4" / "bad.ttl", project / "kb.ttl")
    (project / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config), encoding="utf-8")
    subprocess.run([git, "init", "-q", str(project)], check=True)
    subprocess.run([git, "-C", str(project), "add", "."], check=True)
    env = {"PRE_COMMIT_HOME": str(tmp_path / "cache"), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    proc = subprocess.run(
        [pre_commit, "run", "--all-files"], cwd=project, capture_output=True, text=True, env=env, timeout=900
    )
    assert proc.returncode == 1 and "kb.ttl" in proc.stdout and "N4 error" in proc.stdout, proc.stdout + proc.stderr
    assert "mutable reference" not in proc.stdout + proc.stderr  # pre-commit's warning on a branch name


def test_the_action_and_the_readme_s_workflow_agree() -> None:
    action = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
    workflow = _snippet("runs-on")
    (job,) = workflow["jobs"].values()
    step = next(s for s in job["steps"] if "aifcheck" in s.get("uses", ""))
    assert step["uses"].endswith(f"@{RELEASE}")
    assert set(step.get("with", {})) <= set(action["inputs"])
    names = [s.get("name") for s in action["runs"]["steps"]]
    assert names.index("Validate") < names.index("Upload the findings") < names.index("Fail on findings")


def test_a_usage_error_in_the_action_is_reported_as_one_and_nothing_is_uploaded(tmp_path) -> None:
    action = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
    steps = {s.get("name"): s for s in action["runs"]["steps"]}
    script = steps["Validate"]["run"]
    for name, value in {"paths": "examples/valid", "profile": "nist", "args": "--severity loud"}.items():
        script = script.replace("${{ inputs." + name + " }}", value)
    output = tmp_path / "github-output"
    proc = subprocess.run(
        ["bash", "-c", script],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={"GITHUB_OUTPUT": str(output), "PATH": f"{sys.prefix}/bin:/usr/bin:/bin"},
    )
    assert output.read_text() == "exit-code=2\n"
    assert "aifcheck: error:" in proc.stderr and "::error title=aifcheck usage error::" in proc.stdout
    assert "exit-code != '2'" in steps["Upload the findings"]["if"]
