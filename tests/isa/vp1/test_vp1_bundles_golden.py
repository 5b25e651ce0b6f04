"""Every single-bundle golden vector (tests/golden/vp1/bundles/, README there) runs exactly.

A vector is a complete state, one bundle and the state after it, from the bit-exact model that
envytools' hardware test compares real cards against. Each vector starts afresh from its state
and the shared data-store image; the emulator must give every register file and every
data-store byte of the expected result. A failure names the vector, its words and category,
and every register entry and data-store byte that differs.
"""

from __future__ import annotations

import pytest

from shaderkit.isa.vp1.machine import Vp1Machine

from vp1_golden import expected_state, expected_store, load_golden

CHUNK = 250  # vectors per test case, so a failure report stays readable and xdist can share them


def differences(machine: Vp1Machine, before: dict, vector: dict, initial: bytes) -> list[str]:
    """What the machine got wrong after running ``vector`` from ``before``, one line each."""
    problems = []
    got = machine.dump_state()
    want = expected_state(before, vector["after"])
    if set(got) != set(want):
        problems.append(f"register files {sorted(got)} instead of {sorted(want)}")
    for name in want:
        for index, (mine, theirs) in enumerate(zip(got.get(name, []), want[name])):
            if mine != theirs:
                was = before[name][index]
                problems.append(f"${name}[{index}] = {mine}, expected {theirs} (was {was})")
    store = machine.data_store
    wanted = expected_store(initial, vector["ds_writes"])
    bad = [i for i in range(len(wanted)) if store[i] != wanted[i]]
    if bad:
        shown = ", ".join(f"[{i}] = {store[i]}, expected {wanted[i]}" for i in bad[:8])
        problems.append(f"data store: {len(bad)} bytes differ: {shown}")
    return problems


def run_vector(states, vector, initial: bytes) -> list[str]:
    machine = Vp1Machine()
    before = states[vector["state"]]
    machine.load_state(before, initial)
    machine.execute_bundle([int(word, 16) for word in vector["words"]])
    return differences(machine, before, vector, initial)


STATES, VECTORS, DS_INIT = load_golden()


def test_the_golden_set_is_complete():
    assert len(VECTORS) == 5000
    assert len(STATES) == 1667
    assert len(DS_INIT) == 8192
    assert [vector["id"] for vector in VECTORS] == list(range(5000))


@pytest.mark.parametrize("first", range(0, len(VECTORS), CHUNK), ids=lambda first: f"vectors{first}-{first + CHUNK - 1}")
def test_golden_vectors(first):
    failures = []
    for vector in VECTORS[first:first + CHUNK]:
        problems = run_vector(STATES, vector, DS_INIT)
        if problems:
            failures.append(f"vector {vector['id']} ({vector['cat']}, {vector['units']} "
                            f"{' '.join(vector['words'])}, state {vector['state']}):\n    " + "\n    ".join(problems))
    assert not failures, f"{len(failures)} of {len(VECTORS[first:first + CHUNK])} vectors differ:\n" + "\n".join(failures[:10])


def test_a_vector_that_writes_nothing_leaves_the_state_alone():
    """The checker itself: an all-nop bundle matches a vector only when its expectation is
    "nothing changes", so the comparison can fail."""
    machine = Vp1Machine()
    before = STATES[0]
    machine.load_state(before, DS_INIT)
    machine.execute_bundle([0xDFFFFFFF, 0x4FFFFFFF, 0xBFFFFFFF, 0xEFFFFFFF])
    assert machine.dump_state() == before
    assert machine.data_store == DS_INIT
    changed = {"id": 0, "after": {"r": [[1, "12345678"]]}, "ds_writes": [[5, (DS_INIT[5] + 1) % 256]]}
    problems = differences(machine, before, changed, DS_INIT)
    assert any("$r[1]" in problem for problem in problems)
    assert any("data store: 1 bytes differ" in problem for problem in problems)
