"""Every data file the package reads is declared as package data, so a regular (non-editable)
install carries it: reference manuals, ROM tables, microcode, built-in programs."""

from __future__ import annotations

import tomllib
from fnmatch import fnmatch
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "shaderkit"


def declared_patterns() -> dict[str, list[str]]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return project["tool"]["setuptools"]["package-data"]


def data_files() -> list[Path]:
    return [path for path in PACKAGE.rglob("*")
            if path.is_file() and path.suffix not in (".py", ".pyc", ".nbi", ".nbc")
            and "__pycache__" not in path.parts]


def is_declared(path: Path, patterns: dict[str, list[str]]) -> bool:
    for package, globs in patterns.items():
        folder = ROOT / "src" / Path(*package.split("."))
        if folder in path.parents:
            relative = path.relative_to(folder).as_posix()
            if any(fnmatch(relative, glob) and relative.count("/") == glob.count("/") for glob in globs):
                return True
    return False


def test_the_package_has_data_files():
    assert len(data_files()) >= 5


def test_every_data_file_is_package_data():
    patterns = declared_patterns()
    undeclared = [path.relative_to(ROOT).as_posix() for path in data_files() if not is_declared(path, patterns)]
    assert undeclared == []
