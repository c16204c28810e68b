"""The house: a package per stage with imports pointing down (import-linter's contracts in
pyproject.toml), a wheel that holds every package and data file, and shapes that are SHACL."""
from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pyshacl
import pytest
import rdflib
from helpers import ROOT

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
    packages = {f"aifcheck.{p.name}" for p in PACKAGE.iterdir() if (p / "__init__.py").is_file() and not p.is_symlink()}
    modules = {f"aifcheck.{p.stem}" for p in PACKAGE.glob("*.py") if p.stem not in ("__init__", "__main__")}
    assert packages | modules == named, "every package and module of aifcheck/ is in one layer of the stages contract"


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> zipfile.ZipFile:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "-q", "-w", str(out)], check=True, capture_output=True)
    (found,) = out.glob("aifcheck-*.whl")
    return zipfile.ZipFile(found)


def _source_files() -> set[str]:
    """What the wheel must hold: every module of every package (the linked data folders too),
    and every data file the package reads."""
    wanted = set()
    for folder, _, files in os.walk(PACKAGE, followlinks=True):  # into the links to shapes/, queries/, tests/fixtures/
        for name in files:
            relative = (Path(folder) / name).relative_to(ROOT).as_posix()
            if "__pycache__" in relative or relative.endswith(".pyc") or relative.startswith("aifcheck/rule_fixtures/_"):
                continue  # (the rule fixtures' _folders are the tests' own inputs)
            if Path(name).suffix in (".py", ".ttl", ".tsv", ".rq", ".json") or "/data/" in relative or name == "README.md":
                wanted.add(relative)
    return wanted


def test_the_wheel_holds_every_package_and_data_file(wheel: zipfile.ZipFile) -> None:
    names = set(wheel.namelist())
    missing = sorted(_source_files() - names)
    assert not missing, f"left out of the wheel: {missing[:10]}"
    for data in ("aifcheck/shapes/catalog.json", "aifcheck/shapes/queries.json", "aifcheck/shapes/dwd_roles.tsv",
                 "aifcheck/queries/AIDA_P3_TA1_CM_A0001.rq", "aifcheck/rule_fixtures/N13a/bad.ttl",
                 "aifcheck/pipeline/ta1/data/similarity.tsv"):
        assert data in names, data


def test_the_shapes_are_valid_shacl() -> None:
    shacl_shacl = rdflib.Graph().parse(Path(pyshacl.__file__).parent / "assets" / "shacl-shacl.ttl", format="turtle")
    for name in PROFILE_FILES:
        shapes = rdflib.Graph().parse(ROOT / "shapes" / name, format="turtle")
        conforms, _, text = pyshacl.validate(shapes, shacl_graph=shacl_shacl, inference="none")
        assert conforms, f"shapes/{name} is not valid SHACL:\n{text}"


def test_the_source_folder_is_the_whole_package() -> None:
    """Standing in a clone, ``python -m aifcheck`` imports ./aifcheck, not the installed package: the
    rule data must be there too (aifcheck/shapes, queries and rule_fixtures link to the data folders)."""
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
