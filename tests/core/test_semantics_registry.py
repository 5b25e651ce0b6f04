"""The semantics registry (shaderkit.core.semantics): entries, groups, meanings, gaps."""

from __future__ import annotations

import pytest

from shaderkit.core.semantics import HandledByMachine, Semantics


def i_ADD(a, b):
    """a + b.

    Wraps nowhere."""
    return a + b


def i_LOAD(a, b):
    return a


SEMANTICS = Semantics("TOY", {
    "NOP": HandledByMachine("Does nothing."),
    "ADD": i_ADD,
    "LOAD": i_LOAD,
    "CALL": HandledByMachine("Calls."),
}, per_group={"second unit": {"CALL": HandledByMachine("Calls through a register."), "LOAD": i_ADD}})


def test_functions_are_found_by_mnemonic_and_group():
    assert SEMANTICS.function("ADD") is i_ADD
    assert SEMANTICS.function("LOAD") is i_LOAD
    assert SEMANTICS.function("LOAD", "second unit") is i_ADD
    assert SEMANTICS.function("ADD", "second unit") is i_ADD  # falls back to the plain table
    assert SEMANTICS.has_function("ADD") and not SEMANTICS.has_function("NOP")
    assert not SEMANTICS.has_function("MUL")


def test_a_mnemonic_the_machine_handles_or_an_unknown_one_has_no_function():
    with pytest.raises(KeyError, match="NOP has no semantics function"):
        SEMANTICS.function("NOP")
    with pytest.raises(KeyError, match=r"TOY: no semantics registered for MUL \(second unit\)"):
        SEMANTICS.function("MUL", "second unit")


def test_functions_lists_only_functions_in_table_order():
    assert SEMANTICS.functions() == {"ADD": i_ADD, "LOAD": i_LOAD}
    assert SEMANTICS.functions("second unit") == {"ADD": i_ADD, "LOAD": i_ADD}


def test_meaning_is_the_cleaned_docstring_or_the_registered_sentence():
    assert SEMANTICS.meaning("ADD") == "a + b.\n\nWraps nowhere."
    assert SEMANTICS.meaning("LOAD") == ""
    assert SEMANTICS.meaning("CALL") == "Calls."
    assert SEMANTICS.meaning("CALL", "second unit") == "Calls through a register."


def test_missing_names_the_unregistered_mnemonics():
    assert SEMANTICS.missing(["ADD", "NOP", "MUL", "CALL"]) == ["MUL"]
    assert SEMANTICS.missing(["ADD", "CALL"], "second unit") == []
