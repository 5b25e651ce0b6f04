"""tests/system_check.py names what the GL tests lack, and CI installs exactly those packages."""

from __future__ import annotations

import re
from pathlib import Path

import system_check

ROOT = Path(__file__).resolve().parents[1]


def test_this_machine_has_everything_the_gl_tests_need():
    # CI installs the packages, so a missing piece here is a failure, never a skip.
    assert system_check.missing_pieces() == []


def test_a_missing_validator_is_named_with_how_to_get_it(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr(system_check.sysconfig, "get_path", lambda name: str(tmp_path))
    missing = system_check.missing_pieces()
    assert len(missing) == 1 and missing[0].startswith("glslangValidator") and "pip install" in missing[0]


def test_ci_fails_and_a_developer_is_warned_in_one_line(monkeypatch, capsys):
    monkeypatch.setattr(system_check, "missing_pieces", lambda: ["OpenGL 4.3 through EGL (sudo apt-get install -y x)"])
    monkeypatch.setenv("CI", "true")
    assert system_check.main() == 1
    monkeypatch.setenv("CI", "")
    assert system_check.main() == 0
    lines = capsys.readouterr().err.splitlines()
    assert lines[0].startswith("error: ") and lines[1].startswith("warning: ")
    assert all("sudo apt-get install -y x" in line for line in lines) and len(lines) == 2


def test_ci_installs_the_packages_the_check_names():
    script = (ROOT / ".ci" / "run").read_text()
    listed = re.search(r"GL_PACKAGES=\"([^\"]*)\"", script).group(1).split()
    assert tuple(listed) == system_check.GL_DEBIAN_PACKAGES


def test_the_readme_names_the_same_packages():
    readme = (ROOT / "README.md").read_text()
    assert "apt-get install -y " + " ".join(system_check.GL_DEBIAN_PACKAGES) in readme
