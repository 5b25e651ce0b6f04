"""The reference manuals: every instruction of every processor documented, docs/ up to date."""

from __future__ import annotations

from pathlib import Path

import pytest

import shaderkit.isa as isas
from shaderkit.isa import docs
from shaderkit.isa.rsx import opcodes as rsx_opcodes

DOCS_FOLDER = Path(__file__).resolve().parents[2] / "docs"


def declared_mnemonics(name: str) -> set[str]:
    """What the processor's own description declares, independently of the documentation."""
    if name.startswith("rsx"):
        tables = {"rsx": (rsx_opcodes.VP_VECTOR, rsx_opcodes.VP_SCALAR, rsx_opcodes.FP),
                  "rsx-vp": (rsx_opcodes.VP_VECTOR, rsx_opcodes.VP_SCALAR), "rsx-fp": (rsx_opcodes.FP,)}[name]
        return {opcode.name for table in tables for opcode in table.values()}
    revisions = [isas.get(name, rev=rev) for rev in ("A", "B")] if name == "tpp" else [isas.get(name)]
    return {declared.mnemonic for processor in revisions for declared in processor.description.forms}


@pytest.mark.parametrize("name", isas.names())
def test_every_mnemonic_is_documented_with_syntax_encoding_and_meaning(name):
    reference = isas.get(name).documentation()
    declared = declared_mnemonics(name)
    assert declared
    for mnemonic in declared:
        entries = reference.find(mnemonic)
        assert entries, mnemonic
        for entry in entries:
            assert entry.syntax.strip() and entry.encoding.strip() and entry.meaning.strip(), entry.title
    documented = {entry.mnemonic for entry in reference.scoped_entries()}
    assert documented == declared


@pytest.mark.parametrize("name", isas.names())
def test_manual_renders_with_every_entry_once(name):
    reference = isas.get(name).documentation()
    text = reference.render()
    for entry in reference.entries:
        assert text.count(f"\n### {entry.title}\n") == 1, entry.title


def test_rsx_processor_names_share_one_manual_and_split_the_lookup():
    vertex, fragment = isas.get("rsx-vp").documentation(), isas.get("rsx-fp").documentation()
    assert vertex.render() == fragment.render() == isas.get("rsx").documentation().render()
    assert {entry.group for entry in vertex.find("MOV")} == {"vertex vector unit", "vertex scalar unit"}
    assert {entry.group for entry in fragment.find("MOV")} == {"fragment"}


def test_docs_folder_matches_what_the_generator_writes_now():
    stale = [name for name, text in docs.expected_files().items()
             if not (DOCS_FOLDER / name).exists() or (DOCS_FOLDER / name).read_text(encoding="utf-8") != text]
    assert not stale, f"out of date: {stale}; run: python -m shaderkit.isa.docs --write docs"


def test_check_mode_reports_a_stale_file(tmp_path, capsys):
    assert docs.main(["--write", str(tmp_path)]) == 0
    assert docs.main(["--check", str(tmp_path)]) == 0
    (tmp_path / "tpp.md").write_text("old\n", encoding="utf-8")
    assert docs.main(["--check", str(tmp_path)]) == 1
    assert "tpp.md" in capsys.readouterr().err


def test_semantic_meanings_come_from_the_docstrings():
    from shaderkit.isa.theia import semantics as theia_semantics
    from shaderkit.isa.tpp import semantics as tpp_semantics
    tpp, theia = isas.get("tpp").documentation(), isas.get("theia").documentation()
    assert tpp.find("XOR")[0].meaning == tpp_semantics.i_XOR.__doc__.strip()
    assert theia.find("DOT")[0].meaning.startswith(theia_semantics.i_DOT.__doc__.strip().split("\n")[0])


def test_surprises_are_documented():
    rsx, theia = isas.get("rsx").documentation().render(), isas.get("theia").documentation().render()
    assert "bottom-left" in rsx
    assert "example3" in theia and "upside down" in theia
    for shader in sorted((DOCS_FOLDER.parent / "examples" / "theia").glob("*.s")):
        assert f"`{shader.name}`" in theia, shader.name
