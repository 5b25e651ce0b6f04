"""shaderkit doc: the manual or one instruction's entry in the terminal; unknown names are one line."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

import shaderkit.isa as isas
from shaderkit.cli import main


def invoke(*arguments: str):
    return CliRunner().invoke(main, list(arguments))


def test_doc_prints_one_entry():
    result = invoke("doc", "-m", "tpp", "ADD")
    assert result.exit_code == 0
    assert result.stdout.startswith("### ADD\n")
    assert "`ADD{cond} rd rs`" in result.stdout and "op=00011 (15–11)" in result.stdout
    assert "### SUB" not in result.stdout


def test_doc_entry_lookup_ignores_case():
    assert invoke("doc", "-m", "tpp", "credits").stdout.startswith("### Credits\n")


@pytest.mark.parametrize("name", isas.names())
def test_doc_without_mnemonic_prints_the_whole_manual(name):
    result = invoke("doc", "-m", name)
    assert result.exit_code == 0
    assert result.stdout == isas.get(name).documentation().render()


def test_unknown_mnemonic_is_one_line_with_a_suggestion():
    result = invoke("doc", "-m", "tpp", "ADDD")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1 and "did you mean ADD?" in result.stderr


def test_rsx_vp_does_not_find_fragment_only_instructions():
    result = invoke("doc", "-m", "rsx-vp", "KIL")
    assert result.exit_code == 2 and result.stderr.count("\n") == 1
    assert invoke("doc", "-m", "rsx-fp", "KIL").exit_code == 0
