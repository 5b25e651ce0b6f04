"""The emulator through the public face, exactly as the issue's harness drives it:
``m = shaderkit.isa.get("vp1").machine()``, ``m.load_state(before, data_store)``,
``m.execute_bundle(words)``, ``m.dump_state()``, ``m.data_store``."""

from __future__ import annotations

import json

import pytest

import shaderkit.isa

from conftest import golden_dir

BUNDLES = golden_dir("vp1", "bundles")
STATES = [json.loads(line)["before"] for line in (BUNDLES / "states.jsonl").read_text().splitlines()]
VECTORS = [json.loads(line) for line in (BUNDLES / "vectors.jsonl").read_text().splitlines()]
DS_INIT = (BUNDLES / "ds_init.bin").read_bytes()


def expected(vector):
    state = {name: list(values) for name, values in STATES[vector["state"]].items()}
    for name, changes in vector["after"].items():
        for index, value in changes:
            state[name][index] = value
    store = bytearray(DS_INIT)
    for index, value in vector["ds_writes"]:
        store[index] = value
    return state, bytes(store)


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
