"""The emulator through the public face, exactly as the issue's harness drives it:
``m = shaderkit.isa.get("vp1").machine()``, ``m.load_state(before, data_store)``,
``m.execute_bundle(words)``, ``m.dump_state()``, ``m.data_store``."""

from __future__ import annotations

import pytest

import shaderkit.isa

from vp1_golden import expected_state, expected_store, load_golden

STATES, VECTORS, DS_INIT = load_golden()


def expected(vector):
    return (expected_state(STATES[vector["state"]], vector["after"]),
            expected_store(DS_INIT, vector["ds_writes"]))


@pytest.mark.parametrize("vector", VECTORS[::97], ids=lambda vector: f"vector{vector['id']}")
def test_a_golden_vector_through_the_public_api(vector):
    m = shaderkit.isa.get("vp1").machine()
    m.load_state(STATES[vector["state"]], DS_INIT)
    m.execute_bundle([int(word, 16) for word in vector["words"]])
    state, store = expected(vector)
    assert m.dump_state() == state
    assert bytes(m.data_store) == store


def test_one_machine_runs_many_vectors_when_each_reloads_its_state():
    m = shaderkit.isa.get("vp1").machine()
    for vector in VECTORS[:200]:
        m.load_state(STATES[vector["state"]], DS_INIT)
        m.execute_bundle([int(word, 16) for word in vector["words"]])
        state, store = expected(vector)
        assert m.dump_state() == state, vector["id"]
        assert m.data_store == store, vector["id"]


def test_the_chip_is_chosen_through_the_api():
    assert "x" not in shaderkit.isa.get("vp1").machine(chip="nv44").dump_state()
    assert "x" in shaderkit.isa.get("vp1").machine().dump_state()


def test_a_program_image_runs_from_word_0():
    m = shaderkit.isa.get("vp1").machine([0x65080005, 0xFF000042])  # mov $r1 0x5; exit 0x42
    result = m.run()
    assert (result.exit_code, m.dump_state()["r"][1]) == (0x42, "00000005")
