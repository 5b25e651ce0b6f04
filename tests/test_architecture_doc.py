"""docs/architecture.md stays true: every source path it names exists, every model name it
uses is exported by core.model, and the ADD walk-through points at real registrations."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import shaderkit.core.model as model

ROOT = Path(__file__).resolve().parents[1]
TEXT = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")


def test_every_named_source_path_exists():
    paths = set(re.findall(r"`((?:isa|core|render)/[\w/<>.*-]+\.py)`", TEXT))
    assert len(paths) >= 10
    for path in paths:
        if "<" in path:
            continue
        assert (ROOT / "src" / "shaderkit" / path).exists(), path


@pytest.mark.parametrize("name", ["Description", "field", "in_word", "Registers", "Immediate", "CodeAddress",
                                  "Choice", "OperandKind", "Operand", "SubTable", "case", "Flags", "form",
                                  "MOST_SPECIFIC", "FIRST_MATCH", "FEWEST_LOST", "AS_DATA", "Annotate",
                                  "rank_runs", "Instruction"])
def test_named_model_concepts_are_exported(name):
    assert f"`{name}" in TEXT and hasattr(model, name)


@pytest.mark.parametrize("isa", ["tpp", "theia", "rsx"])
def test_the_add_walk_through_holds(isa):
    semantics = (ROOT / "src" / "shaderkit" / "isa" / isa / "semantics.py").read_text(encoding="utf-8")
    assert re.search(r"^def i_ADD\(", semantics, re.MULTILINE)
    assert re.search(r'"ADD": i_ADD\b', semantics)
