"""The golden single-bundle vectors of tests/golden/vp1/bundles, and the state and data store each
vector expects after its bundle: shared by the tests of the interpreter, the public API and the
compiled loop."""

from __future__ import annotations

import json

from conftest import golden_dir

BUNDLES = golden_dir("vp1", "bundles")


def load_golden():
    """(start states, vectors, initial data store) as the golden files hold them."""
    states = [json.loads(line)["before"] for line in (BUNDLES / "states.jsonl").read_text().splitlines()]
    vectors = [json.loads(line) for line in (BUNDLES / "vectors.jsonl").read_text().splitlines()]
    return states, vectors, (BUNDLES / "ds_init.bin").read_bytes()


def expected_state(before: dict, after: dict) -> dict:
    state = {name: list(values) for name, values in before.items()}
    for name, changes in after.items():
        for index, value in changes:
            state[name][index] = value
    return state


def expected_store(initial: bytes, writes) -> bytes:
    store = bytearray(initial)
    for index, value in writes:
        store[index] = value
    return bytes(store)
