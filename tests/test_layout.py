"""The house: a package per stage with imports pointing down and a package per task in each stage
(import-linter's contracts in pyproject.toml, which must see every module), a wheel that holds
every package and data file, shapes that are SHACL, and a tree that checks out on every platform."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pyshacl
import pytest
import rdflib
from helpers import ROOT, SHARED

from aifcheck.validation.shapes import PROFILE_FILES

PACKAGE = ROOT / "aifcheck"


def test_the_import_contracts_hold(tmp_path: Path) -> None:
    from importlinter.cli import lint_imports

    assert lint_imports(config_filename=str(ROOT / "pyproject.toml"), cache_dir=str(tmp_path), no_logo=True) == 0


def test_every_stage_is_a_contract_layer() -> None:
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
    layers = next(c["layers"] for c in config["contracts"] if c["type"] == "layers")
    named = {name.strip() for layer in layers for name in layer.split("|")}
    packages = {f"aifcheck.{p.name}" for p in PACKAGE.iterdir() if (p / "__init__.py").is_file()}
    modules = {f"aifcheck.{p.stem}" for p in PACKAGE.glob("*.py") if p.stem not in ("__init__", "__main__")}
    assert packages | modules == named, "every package and module of aifcheck/ is in one layer of the stages contract"


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> zipfile.ZipFile:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "-q", "-w", str(out)],
        check=True,
        capture_output=True,
    )
    (found,) = out.glob("aifcheck-*.whl")
    return zipfile.ZipFile(found)


def _source_files() -> set[str]:
    """What the wheel must hold: every module of every package (the linked data folders too),
    and every data file the package reads."""
    wanted = set()
    for folder, _, files in os.walk(PACKAGE):
        for name in files:
            relative = (Path(folder) / name).relative_to(ROOT).as_posix()
            if "__pycache__" in relative or relative.endswith(".pyc"):
                continue
            if (
                Path(name).suffix in (".py", ".ttl", ".tsv", ".rq", ".json")
                or "/data/" in relative
                or name == "README.md"
            ):
                wanted.add(relative)
    return wanted


def test_the_wheel_holds_every_package_and_data_file(wheel: zipfile.ZipFile) -> None:
    names = set(wheel.namelist())
    missing = sorted(_source_files() - names)
    assert not missing, f"left out of the wheel: {missing[:10]}"
    for data in (
        "aifcheck/shapes/catalog.json",
        "aifcheck/shapes/queries.json",
        "aifcheck/shapes/dwd_roles.tsv",
        "aifcheck/queries/AIDA_P3_TA1_CM_A0001.rq",
        "aifcheck/rule_fixtures/N13a/bad.ttl",
    ):
        assert data in names, data


def test_the_shapes_are_valid_shacl() -> None:
    shacl_shacl = rdflib.Graph().parse(Path(pyshacl.__file__).parent / "assets" / "shacl-shacl.ttl", format="turtle")
    for name in PROFILE_FILES:
        shapes = rdflib.Graph().parse(ROOT / "aifcheck" / "shapes" / name, format="turtle")
        conforms, _, text = pyshacl.validate(shapes, shacl_graph=shacl_shacl, inference="none")
        assert conforms, f"shapes/{name} is not valid SHACL:\n{text}"


def test_the_source_folder_is_the_whole_package() -> None:
    """Standing in a clone, ``python -m aifcheck`` imports ./aifcheck, not the installed package: the
    rule data must be there too (aifcheck/shapes, queries and rule_fixtures are folders of the package)."""
    code = (
        "import sys; sys.path.insert(0, sys.argv[1])\n"
        "import aifcheck, aifcheck.shapes, aifcheck.queries, aifcheck.rule_fixtures\n"
        "from pathlib import Path\n"
        "assert Path(aifcheck.__file__).parent == Path(sys.argv[1]) / 'aifcheck', aifcheck.__file__\n"
        "assert (Path(aifcheck.shapes.__file__).parent / 'catalog.json').is_file()\n"
        "assert any(Path(aifcheck.queries.__file__).parent.glob('AIDA_P3_*.rq'))\n"
    )
    # -S: no site-packages, so no installed (or editable) aifcheck can stand in for the folder
    subprocess.run([sys.executable, "-S", "-c", code, str(ROOT)], check=True, cwd=ROOT)


# --- the contracts see every module, and keep the tasks apart ------------------------------------


def _python_files() -> list[Path]:
    return [p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts]


def test_every_folder_of_python_is_a_package() -> None:
    """A folder without __init__.py is a namespace package, which import-linter does not analyse:
    an upward import from it would pass every contract."""
    folders = {p.parent for p in _python_files()}
    assert sorted(str(f.relative_to(ROOT)) for f in folders if not (f / "__init__.py").is_file()) == []


def test_the_contracts_analyse_every_module() -> None:
    import grimp

    graph = grimp.build_graph("aifcheck", exclude_type_checking_imports=True)
    analysed = {m for m in graph.modules if m == "aifcheck" or m.startswith("aifcheck.")}
    files = {".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__") for p in _python_files()}
    assert analysed == files
    assert len(files) == len(_python_files())


def _contracts() -> dict[str, dict]:
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
    return {c["id"]: c for c in config["contracts"]}


def test_the_contracts_keep_every_task_of_the_registry_apart() -> None:
    """One forbidden contract per task of aifcheck.tasks: its package in every stage that has one,
    forbidden to reach any other task's package (directly or not)."""
    from aifcheck.tasks import TASKS

    def packages(task: str) -> set[str]:
        return {
            f"aifcheck.{stage}.{task}"
            for stage in ("pipeline", "score", "render", "cli")
            if (PACKAGE / stage / task / "__init__.py").is_file()
        }

    contracts = _contracts()
    for task in TASKS:
        contract = contracts[task]
        assert contract["type"] == "forbidden" and not contract.get("allow_indirect_imports", False)
        assert set(contract["source_modules"]) == packages(task), task
        assert set(contract["forbidden_modules"]) == set().union(
            *(packages(other) for other in TASKS if other != task)
        ), task
    # and no stage holds a task package the registry does not know
    found = {p.parent.name for p in PACKAGE.glob("*/*/__init__.py") if p.parent.name.startswith(("ta", "crux"))}
    assert found <= set(TASKS), found - set(TASKS)


def test_the_registries_import_only_within_their_package() -> None:
    """The imports made by name at run time (the API's list, the command groups' tasks, the command
    modules, the report formats), which import-linter cannot see: each names a module of the
    package that imports it (or, for the API, below the command line), and the module exists."""
    import importlib.util

    import aifcheck
    from aifcheck import cli, render
    from aifcheck.tasks import in_group

    def exists(name: str) -> bool:
        return importlib.util.find_spec(name) is not None

    for name, module in aifcheck._EXPORTS.items():
        assert not module.startswith(("cli", "render")), (
            f"aifcheck.{name} comes from aifcheck.{module}: the API sits below the command line"
        )
        assert hasattr(importlib.import_module(f"aifcheck.{module}"), aifcheck._RENAMED.get(name, name)), name
    for module in set(cli.COMMANDS.values()):
        assert exists(f"aifcheck.cli.{module}"), module
    for group in ("pipeline", "pool", "score"):
        for task in in_group(group):
            assert exists(f"aifcheck.cli.{task.name}.{group}"), (task.name, group)
    for name in render.DOCUMENT_FORMATS:
        assert exists(f"aifcheck.render.{name}"), name


def test_the_store_and_command_line_libraries_are_confined() -> None:
    contracts = _contracts()
    assert contracts["store"]["forbidden_modules"] == ["pyoxigraph"]
    assert set(contracts["command-line"]["forbidden_modules"]) == {"typer", "click", "rich"}
    stages = {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").is_file()} | {
        p.stem for p in PACKAGE.glob("*.py")
    }
    data = {"shapes", "queries", "rule_fixtures", "__init__", "__main__"}
    assert stages - data - {"loading", "extract", "validation"} == {
        s.removeprefix("aifcheck.") for s in contracts["store"]["source_modules"]
    }
    assert stages - data - {"cli"} == {s.removeprefix("aifcheck.") for s in contracts["command-line"]["source_modules"]}


def test_no_two_classes_share_a_name() -> None:
    """One name, one thing: across the package no two classes are called alike, and none takes the
    name of a standard library type a module might also import (Mapping, Sequence...)."""
    import ast
    import builtins
    import collections.abc
    import typing

    taken = set(dir(collections.abc)) | set(dir(typing)) | set(dir(builtins))
    seen: dict[str, str] = {}
    for path in _python_files():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                where = str(path.relative_to(ROOT))
                assert node.name not in seen, f"class {node.name} in {where} and {seen[node.name]}"
                assert node.name not in taken, f"class {node.name} in {where} shadows the standard library's"
                seen[node.name] = where


# --- the tree: small, and checked out the same on every platform ---------------------------------

# tracked files allowed over 1 MB: data the package or the tests read (none today)
LARGE_DATA: frozenset[str] = frozenset()
_RESERVED = {"CON", "PRN", "AUX", "NUL", *(f"COM{i}" for i in range(1, 10)), *(f"LPT{i}" for i in range(1, 10))}


def _tracked() -> list[tuple[str, str]]:
    """(mode, path) of every file git tracks."""
    out = subprocess.run(["git", "ls-files", "-s", "-z"], cwd=ROOT, capture_output=True, check=True).stdout.decode(
        "utf-8"
    )
    return [(entry.split(" ", 1)[0], entry.split("\t", 1)[1]) for entry in out.split("\0") if entry]


@pytest.fixture(scope="module")
def tracked() -> list[tuple[str, str]]:
    if not (ROOT / ".git").exists():
        pytest.skip("not a git clone: the tracked files cannot be listed")
    return _tracked()


def test_no_tracked_file_is_over_a_megabyte_unless_it_is_data(tracked) -> None:
    large = [path for _, path in tracked if (ROOT / path).is_file() and (ROOT / path).stat().st_size > 1024 * 1024]
    assert sorted(set(large) - LARGE_DATA) == []


def test_no_tracked_file_is_a_copy_of_a_shared_file(tracked) -> None:
    """NIST's evaluation files are read from ../shared/data, never copied into the project, and
    NIST's code in ../shared/reference is read, not copied: no tracked file of some size has the
    bytes of a file of ../shared (an empty file or a bare header may)."""
    if not SHARED.is_dir():
        pytest.skip(f"the shared files are not at {SHARED}")
    theirs = {
        hashlib.sha256(path.read_bytes()).hexdigest(): path
        for path in SHARED.rglob("*")
        if path.is_file() and path.stat().st_size > 200
    }
    copies = [
        f"{path} = {theirs[digest]}"
        for _, path in tracked
        if (ROOT / path).is_file() and (digest := hashlib.sha256((ROOT / path).read_bytes()).hexdigest()) in theirs
    ]
    assert copies == []


def test_every_path_checks_out_on_every_platform(tracked) -> None:
    """No link (Windows checks one out as a text file), no name Windows reserves (AUX, NUL, CON...,
    with any extension), no character it refuses, no trailing dot or space, and no two paths that
    differ only in case (macOS and Windows fold them)."""
    problems = []
    folded: dict[str, str] = {}
    for mode, path in tracked:
        if mode == "120000":
            problems.append(f"{path}: a symbolic link")
        for part in path.split("/"):
            if part.split(".")[0].upper() in _RESERVED:
                problems.append(f"{path}: {part} is a reserved name on Windows")
            if any(c in '<>:"|?*\\' or ord(c) < 32 for c in part) or part.endswith((".", " ")):
                problems.append(f"{path}: {part!r} cannot be a file name on Windows")
        other = folded.setdefault(path.casefold(), path)
        if other != path:
            problems.append(f"{path} and {other} differ only in case")
    assert problems == []
