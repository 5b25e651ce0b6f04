"""Programs on the VP1 machine: fetch, bundle formation, delay slots, calls, loops and exit.

The hardware tests of spec §2.5 and §14.1 (envytools hwtest/vp1.cc, as data) are reproduced
with their own words: the double-delay test, the call return address, and the bundle-formation
probe pairs. The rest checks the choices the machine makes where the hardware is unknown (§13),
each under its default and its alternatives.
"""

from __future__ import annotations

import pytest

from shaderkit.isa.vp1.bundles import unit_of
from shaderkit.isa.vp1.fields import FIELDS
from shaderkit.isa.vp1.machine import BundleLimit, ProgramError, Vp1Machine
from shaderkit.isa.vp1.state import NotModelled

ANOP, SNOP, VNOP, BNOP = 0xDFFFFFFF, 0x4FFFFFFF, 0xBFFFFFFF, 0xEFFFFFFF
EXIT_DEAD = 0xFF00DEAD


def encode(opcode: int, address: int = 0, **fields) -> int:
    """A word from its opcode and raw fields; ``target`` is a branch target (word address)."""
    word = opcode << 24
    target = fields.pop("target", None)
    if target is not None:
        word = FIELDS["btarg"].write(word, FIELDS["btarg"].raw(target, address))
    for name, raw in fields.items():
        word = FIELDS[name].write(word, raw)
    return word


def mov_imm(register: int, value: int) -> int:
    """``mov $rN IMM19``."""
    return encode(0x65, dst=register, imm19=value & 0x7FFFF)


def add_imm(register: int, source: int, value: int) -> int:
    """``add $rD $rS IMM`` without ``$c``."""
    return encode(0x6C, dst=register, src1=source, imm=value & 0x7FF, cdst=4)


def bra(target: int, address: int) -> int:
    """``bra TARGET`` (the short form: ``$c0 true``, no ``[c]``)."""
    return encode(0xE0, address, target=target, cond=0, slct=15, cdst=4)


def call(target: int, address: int) -> int:
    return encode(0xE4, address, target=target, cond=0, slct=15, cdst=4)


RET = 0xE8000004  # ret, no [c]


def mov_r_from_uc(register: int, uc: int) -> int:
    """``mov $rD $ucN`` (0x6b, file 10)."""
    return encode(0x6B, dst=register, src1=uc, rfile=10, cdst=4)


def program(size: int, placed: dict[int, int], filler: int = BNOP) -> list[int]:
    words = [filler] * size
    for address, word in placed.items():
        words[address] = word
    return words


def run(words, **options) -> Vp1Machine:
    machine = Vp1Machine(words, **options)
    machine.run(max_bundles=10_000)
    return machine


# --- §2.5: delay slots -----------------------------------------------------------------------

def test_the_hardware_double_delay_test():
    """0: bra 0x40; 1: bra 0x80; 2–9: mov $r0 N; 0x40–0x47: mov $r1 N; 0x80–0x87: mov $r2 N
    (N = the word's address), each area ending in exit: only word 0x40 of the first target
    runs, as the delay slot of the second branch."""
    assert bra(0x40, 0) == 0xE00021E4 and bra(0x80, 1) == 0xE00041E4  # the hardware test's words
    placed = {0: 0xE00021E4, 1: 0xE00041E4}
    for base, register in ((2, 0), (0x40, 1), (0x80, 2)):
        for address in range(base, base + 8):
            placed[address] = 0x65000000 | register << 19 | address
        placed[base + 8] = EXIT_DEAD
    assert placed[2] == 0x65000002 and placed[0x40] == 0x65080040 and placed[0x87] == 0x65100087
    machine = Vp1Machine(program(0x90, placed))
    machine.state.r[0] = 0x5A5A5A5A
    result = machine.run(max_bundles=1000)
    assert machine.state.r[0] == 0x5A5A5A5A
    assert machine.state.r[1] == 0x40
    assert machine.state.r[2] == 0x87
    assert result.exit_code == 0xDEAD


@pytest.mark.parametrize("delay_slot, return_address", [
    ([ANOP, SNOP, VNOP], 4),  # A S V … after the call form one bundle at words 1–3
    ([BNOP], 2),  # a B word alone is the delay slot
    ([SNOP, BNOP], 3),
])
def test_the_hardware_call_test_return_address(delay_slot, return_address):
    """A call at word 0 stores the address of the first word after its delay-slot bundle (read
    by the hardware test at MMIO 0xf500, ``$uc0`` here)."""
    assert call(0x40, 0) == 0xE40021E4
    placed = {0: 0xE40021E4, 0x40: mov_r_from_uc(5, 0), 0x41: EXIT_DEAD}
    for offset, word in enumerate(delay_slot, start=1):
        placed[offset] = word
    machine = run(program(0x48, placed))
    assert machine.state.r[5] == return_address


def test_ret_comes_back_after_the_delay_slot():
    """call 0x40 from word 0; the subroutine sets $r1 and returns; execution resumes at the
    return address (4), whose bundle sets $r2; ``ret`` has a delay slot of its own (default)."""
    placed = {0: call(0x40, 0), 1: ANOP, 2: SNOP, 3: VNOP,
              4: mov_imm(2, 7), 5: EXIT_DEAD,
              0x40: mov_imm(1, 3), 0x41: RET, 0x42: mov_imm(3, 9), 0x43: BNOP, 0x44: mov_imm(4, 1)}
    machine = run(program(0x48, placed))
    assert (machine.state.r[1], machine.state.r[2], machine.state.r[3], machine.state.r[4]) == (3, 7, 9, 0)


def test_ret_without_delay_slot_when_configured():
    placed = {0: call(0x40, 0), 1: BNOP, 2: mov_imm(2, 7), 3: EXIT_DEAD,
              0x40: RET, 0x41: mov_imm(3, 9)}
    machine = run(program(0x48, placed), ret_delay_slot=False)
    assert (machine.state.r[2], machine.state.r[3]) == (7, 0)
    machine = run(program(0x48, placed))
    assert (machine.state.r[2], machine.state.r[3]) == (7, 9)


def test_nested_calls_use_the_return_stack_and_its_depth_is_configurable():
    """main calls f at 0x40, which calls g at 0x80; both return. With depth 1 the second call
    overflows, which stops the program with an error rather than losing an address."""
    placed = {0: call(0x40, 0), 1: BNOP, 2: add_imm(1, 1, 1), 3: EXIT_DEAD,
              0x40: call(0x80, 0x40), 0x41: BNOP, 0x42: add_imm(1, 1, 0x10), 0x43: RET, 0x44: BNOP,
              0x80: add_imm(1, 1, 0x100), 0x81: RET, 0x82: BNOP}
    machine = run(program(0x88, placed))
    assert machine.state.r[1] == 0x111
    assert machine.return_stack == []
    with pytest.raises(ProgramError, match="return stack full"):
        run(program(0x88, placed), return_stack_depth=1)


def test_a_call_in_the_delay_slot_of_a_branch():
    """bra 0x40 at 0, call 0x80 at 1 (its delay slot): the first bundle at 0x40 runs as the
    call's delay slot, then the subroutine; its return address is the word after that bundle
    (0x41), where execution continues."""
    placed = {0: bra(0x40, 0), 1: call(0x80, 1), 2: mov_imm(1, 1), 3: EXIT_DEAD,
              0x40: mov_imm(2, 2), 0x41: mov_imm(3, 3), 0x42: EXIT_DEAD,
              0x80: mov_r_from_uc(4, 0), 0x81: RET, 0x82: BNOP}
    machine = run(program(0x88, placed))
    assert machine.state.r[1:5] == [0, 2, 3, 0x41]


def test_ret_with_an_empty_stack_is_an_error():
    with pytest.raises(ProgramError, match="empty return stack"):
        run([RET, BNOP, EXIT_DEAD])


def test_a_not_taken_branch_has_no_delay_effect():
    """bra on a clear flag (``$c0 false``) falls through."""
    not_taken = encode(0xE0, 0, target=0x40, cond=0, slct=14, cdst=4)
    machine = run(program(0x48, {0: not_taken, 1: mov_imm(1, 1), 2: mov_imm(2, 2), 3: EXIT_DEAD,
                                 0x40: mov_imm(3, 3), 0x41: EXIT_DEAD}))
    assert machine.state.r[1:4] == [1, 2, 0]


def test_abra_jumps_to_an_absolute_target():
    machine = run(program(0x48, {0: 0xEA000010, 1: mov_imm(1, 1), 2: mov_imm(2, 2), 0x40: EXIT_DEAD}))
    assert machine.state.r[1:3] == [1, 0]  # word 1 is the delay slot, word 2 is skipped


# --- §14.1: bundle-formation probe pairs -----------------------------------------------------

FIRSTS = {  # kind → (word, the $c0 bit it sets)
    "A": (0xCB0001C0, 9),  # add $a0 $c0 $a0 $a0 with $a0 = 0: azf
    "S": (0x4CFFFFC0, 1),  # add 0x0 $c0 0x0 0x0: zf
    "B": (0xF0000000, 13),  # mov $l0 $c0 0x0: lzf
}
SECONDS = {  # kind → word template; bit << 5 is its flag select
    "A": 0xCB108404,  # add $a2 $a2 (slct $c0 FLAG $a2d)
    "S": 0x4C108404,  # add $r2 $r2 (slct $c0 FLAG $r2d)
    "V": 0x8F180400,  # vcmpad 0x3 $vc0 $v0d (slct $c0 FLAG $v2d)
    "B": 0xE0002004,  # bra $c0 FLAG 0x40
}


def probe(first: int, second: int, position: int) -> Vp1Machine:
    """The pair at words ``position``, ``position + 1``; bnop runways around it; at 0x40 a
    runway leading to ``mov $r2 0x1`` (word 72) as in the hardware test. The registers the
    second words read are set so that the flag's two values give different results."""
    placed = {position: first, position + 1: second, 12: EXIT_DEAD, 0x48: 0x65100001, 0x49: EXIT_DEAD}
    machine = Vp1Machine(program(0x50, placed))
    state = machine.state
    state.a[2], state.a[3] = 0x1, 0x100
    if unit_of(second) == 1:  # a B second shows its branch in $r2, which starts at 0
        state.r[2], state.r[3] = 0x1, 0x100
    state.v[1] = [1] * 16  # vcmpad: |v0 − v2| = 0 < 1 (sf clear), |v0 − v3| = 5 ≥ 1 (sf set)
    state.v[3] = [5] * 16
    state.l[0] = 0x0505
    machine.run(max_bundles=200)
    return machine


def saw_the_flag(kind: str, machine: Vp1Machine) -> bool:
    """Whether the second word of kind ``kind`` saw the first word's flag set."""
    state = machine.state
    if kind == "A":
        return {0x2: False, 0x101: True}[state.a[2] & 0xFFFF]
    if kind == "S":
        return {0x2: False, 0x101: True}[state.r[2]]
    if kind == "V":
        return {0x0000: False, 0xFFFF: True}[state.vc[0] & 0xFFFF]
    return {0x1: True, 0x0: False}[state.r[2]]


RANK = "ASVB"


@pytest.mark.parametrize("position", range(4))
@pytest.mark.parametrize("second_kind", "ASVB")
@pytest.mark.parametrize("first_kind", "ASB")
def test_the_hardware_bundle_formation_probe(first_kind, second_kind, position):
    """Same bundle ⇔ the second word sees the state before the first (§2.1): iff the second
    is not at a multiple of 4 and its unit ranks strictly above the first's."""
    first, bit = FIRSTS[first_kind]
    second = SECONDS[second_kind] | bit << 5
    assert unit_of(first) == RANK.index(first_kind) and unit_of(second) == RANK.index(second_kind)
    same_bundle = (position + 1) % 4 != 0 and RANK.index(second_kind) > RANK.index(first_kind)
    machine = probe(first, second, position)
    assert saw_the_flag(second_kind, machine) == (not same_bundle)


@pytest.mark.parametrize("second", [0xD0000004, 0x6A000000])
def test_the_vector_first_probe_pairs(second):
    """``vmov $v0 0x0`` followed by ``ldavh $v0 $a0 0x0`` (A) or ``mov $v0 0x0 $r0`` (S): an
    A or S word after a V word always starts a new bundle, so the second's write lands last."""
    machine = Vp1Machine([0xAD000004, second, EXIT_DEAD])
    machine.state.r[0] = 0x44332211
    machine.store.data[:] = bytes(range(256)) * 32
    machine.run(max_bundles=10)
    expected_word0 = [0x11, 0x22, 0x33, 0x44] if second >> 24 == 0x6A else list(machine.store.read(list(range(4)), 0))
    assert machine.state.v[0][:4] == expected_word0


# --- loops, §9 and §13 -----------------------------------------------------------------------

def loop_program(counter: int) -> list[int]:
    """``mov $l1 $c1 counter|counter<<8``; body at 4: ``add $r1 $r1 1``; ``bra loop $l1 $l1``
    back to 4 (condition ``true``), delay slot bnop; then exit."""
    set_loop = encode(0xF0, imm16=counter | counter << 8, dst=1)
    loop_branch = encode(0xE1, 5, target=4, cond=1, slct=15, cdst=1)
    return [set_loop, BNOP, BNOP, BNOP, add_imm(1, 1, 1), loop_branch, BNOP, EXIT_DEAD]


@pytest.mark.parametrize("rule, runs", [("before", 4), ("after", 3), ("always", None)])
def test_loop_branches_follow_the_configured_rule(rule, runs):
    """Counter 3: with the default rule (taken while the counter was non-zero before the
    update) the body runs 4 times and ``$l1`` ends reloaded; "after" runs it 3 times; "always"
    never leaves the loop."""
    machine = Vp1Machine(loop_program(3), loop_taken=rule)
    if runs is None:
        with pytest.raises(BundleLimit):
            machine.run(max_bundles=500)
        return
    machine.run(max_bundles=500)
    assert machine.state.r[1] == runs
    assert machine.state.l[1] == (0x0303 if rule == "before" else 0x0300)


def test_a_loop_branch_writes_the_loop_flag():
    machine = Vp1Machine(loop_program(2))
    machine.run(max_bundles=100)
    assert machine.state.c[1] >> 13 & 1 == 0  # the last update reloaded a non-zero counter


# --- exit, limits, refusals ------------------------------------------------------------------

def test_exit_reports_its_code_and_interrupt_flag():
    machine = Vp1Machine([mov_imm(1, 5), 0xFF01BEEF, mov_imm(2, 6)])
    result = machine.run()
    assert (result.exit_code, result.interrupt, result.bundles) == (0xBEEF, True, 1)  # S + B: one bundle
    assert machine.state.r[1:3] == [5, 0]


def test_exit_with_a_delay_slot_when_configured():
    machine = run([0xFF000001, mov_imm(2, 6), mov_imm(3, 7)], exit_delay_slot=True)
    assert machine.state.r[2:4] == [6, 0]
    machine = run([0xFF000001, mov_imm(2, 6), mov_imm(3, 7)])
    assert machine.state.r[2:4] == [0, 0]


def test_a_program_without_exit_stops_at_its_bundle_budget():
    with pytest.raises(BundleLimit, match="after 100 bundles"):
        Vp1Machine([bra(0, 0), BNOP]).run(max_bundles=100)


def test_running_off_the_end_is_an_error():
    with pytest.raises(ProgramError, match="past the end of the program"):
        Vp1Machine([mov_imm(1, 1)]).run()


@pytest.mark.parametrize("word, what", [
    (0xC3000000, "xdld"), (0xC7000000, "xdst"), (0xCE000000, "xdbar"), (0xCF000000, "xdwait"),
    (0xDB000000, "0xdb"), (0x6A0000B8, "FIFO"), (0x6B000020, "field 4"), (0xE9000000, "0xe9"),
    (0xF7000000, "0xf7"),
])
def test_unmodelled_words_stop_a_program_naming_word_and_address(word, what):
    machine = Vp1Machine([BNOP, BNOP, BNOP, BNOP, BNOP, word, EXIT_DEAD])
    with pytest.raises(NotModelled, match=what) as caught:
        machine.run()
    message = str(caught.value)
    assert f"{word:08x}" in message and "word 0x5" in message and "not modelled" in message


def test_a_single_bundle_runs_the_register_effects_of_an_undocumented_branch_opcode():
    """What the hardware model knows of e9 (``[c]`` sets bit 13) runs as a single bundle."""
    machine = Vp1Machine()
    machine.execute_bundle([0xE9000002])
    assert machine.state.c[2] == 0xA000
