"""The VP1 machine's single-bundle rules, each on a hand-built bundle whose result is worked out
from spec/vp1.md: write priorities (§2.3), shared read ports (§2.4), the s2v path (§6), ``$va``
wrap and rounding (§7.2), the banked data store (§8.1), address flags (§8.2), loop registers
(§9), chip variants (§13) and the exchange format of the state. The golden vectors check the
same rules on random states; these say which rule a failure breaks.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shaderkit.isa.vp1 import datastore
from shaderkit.isa.vp1.bundles import bundle_length, bundle_starts, slots, unit_of
from shaderkit.isa.vp1.fields import FIELDS
from shaderkit.isa.vp1.machine import Vp1Machine
from shaderkit.isa.vp1.state import NotModelled

from conftest import golden_dir

BUNDLES = golden_dir("vp1", "bundles")
FIRST_STATE = json.loads((BUNDLES / "states.jsonl").read_text().splitlines()[0])["before"]
DS_INIT = (BUNDLES / "ds_init.bin").read_bytes()


def encode(opcode: int, **fields) -> int:
    word = opcode << 24
    for name, raw in fields.items():
        word = FIELDS[name].write(word, raw)
    return word


# --- the state exchange format ---------------------------------------------------------------

def test_dump_state_gives_back_what_load_state_took():
    machine = Vp1Machine()
    machine.load_state(FIRST_STATE, DS_INIT)
    dumped = machine.dump_state()
    assert dumped == FIRST_STATE
    assert list(dumped) == list(FIRST_STATE)  # same keys, same order
    assert isinstance(machine.data_store, bytes) and machine.data_store == DS_INIT


def test_state_values_are_lowercase_fixed_width_hex():
    machine = Vp1Machine()
    machine.state.v[3] = list(range(0xF0, 0x100))
    machine.state.va[1] = 0xFFFFFFF
    machine.state.c[2] = 0xA0FF
    dumped = machine.dump_state()
    assert dumped["v"][3] == "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff"  # component 0 first
    assert dumped["va"][1] == "fffffff"
    assert dumped["c"][2] == "a0ff"
    assert dumped["r"][0] == "00000000"


@pytest.mark.parametrize("change, message", [
    (lambda state: state.pop("r"), "no 'r'"),
    (lambda state: state["a"].pop(), "31 entries"),
    (lambda state: state["m"].__setitem__(0, "xyz12345"), "not hexadecimal"),
    (lambda state: state["c"].__setitem__(0, "800"), "not 4 hex digits"),
    (lambda state: state.__setitem__("q", []), "unknown register files"),
])
def test_load_state_refuses_a_malformed_state(change, message):
    before = json.loads(json.dumps(FIRST_STATE))
    change(before)
    with pytest.raises(ValueError, match=message):
        Vp1Machine().load_state(before, DS_INIT)


def test_load_state_refuses_a_data_store_of_the_wrong_size():
    with pytest.raises(ValueError, match="8192 bytes"):
        Vp1Machine().load_state(FIRST_STATE, DS_INIT[:-1])


def test_r31_reads_zero_and_discards_writes():
    machine = Vp1Machine()
    machine.execute_bundle([0x65F80005])  # mov $r31 0x5
    machine.execute_bundle([encode(0x6C, dst=1, src1=31, imm=3, cdst=4)])  # add $r1 $r31 0x3
    assert machine.state.r[31] == 0 and machine.state.r[1] == 3


def test_execute_bundle_takes_one_to_four_words_in_unit_order():
    machine = Vp1Machine()
    with pytest.raises(ValueError, match="A, S, V, B order"):
        machine.execute_bundle([0x4FFFFFFF, 0xDFFFFFFF])
    with pytest.raises(ValueError, match="1 to 4 words"):
        machine.execute_bundle([])


# --- write priorities, §2.3 ------------------------------------------------------------------

LDAS_R5 = encode(0xD2, dst=5, src1=1, imm=0, cdst=4)  # ldas $r5 $a1 0x0


def machine_with_memory() -> Vp1Machine:
    machine = Vp1Machine()
    machine.data_store = bytes(range(256)) * 32
    machine.state.a[1] = 0x10  # stride 0, and below 0x20 the banks are not rotated: byte = address
    return machine


def test_a_scalar_result_beats_an_address_load_to_the_same_r():
    machine = machine_with_memory()
    machine.execute_bundle([LDAS_R5, encode(0x65, dst=5, imm19=0x123)])
    assert machine.state.r[5] == 0x123


def test_an_address_load_beats_a_scalar_move_from_a():
    machine = machine_with_memory()
    machine.state.a[9] = 0xABCD
    machine.execute_bundle([LDAS_R5, encode(0x6B, dst=5, src1=9, rfile=12, cdst=4)])  # mov $r5 $a9
    assert machine.state.r[5] == 0x13121110


def test_a_scalar_move_from_m_is_a_scalar_result():
    machine = machine_with_memory()
    machine.state.m[2] = 0x600DF00D
    machine.execute_bundle([LDAS_R5, encode(0x6B, dst=5, src1=2, rfile=20, cdst=4)])  # mov $r5 $m2
    assert machine.state.r[5] == 0x600DF00D


def test_vector_result_beats_address_load_beats_scalar_move_to_v():
    load_v3 = encode(0xD0, dst=3, src1=1, imm=0, cdst=4)  # ldavh $v3 $a1 0x0
    to_v3 = encode(0x6A, dst=3, src1=0, rfile=1, cdst=4)  # mov $v3 0x1 $r0
    vmov_v3 = encode(0xAD, dst=3, bimm=0x77, cdst=4)  # vmov $v3 0x77
    machine = machine_with_memory()
    machine.state.r[0] = 0xFFFFFFFF
    machine.execute_bundle([load_v3, to_v3])
    assert machine.state.v[3] == list(range(0x10, 0x20))  # the load replaces the whole register
    machine.execute_bundle([load_v3, to_v3, vmov_v3])
    assert machine.state.v[3] == [0x77] * 16
    machine.execute_bundle([to_v3])
    assert machine.state.v[3] == [0x77] * 4 + [0xFF] * 4 + [0x77] * 8


def test_a_scalar_move_to_a_beats_the_address_unit():
    machine = Vp1Machine()
    machine.state.r[7] = 0x1234
    aadd_a4 = encode(0xCA, dst=4, src2=5, slct=14, cdst=4)
    machine.state.a[5] = 1
    machine.execute_bundle([aadd_a4, encode(0x6A, dst=4, src1=7, rfile=12, cdst=4)])
    assert machine.state.a[4] == 0x1234


def test_the_branch_unit_beats_a_scalar_move_to_l():
    machine = Vp1Machine()
    machine.state.r[7] = 0x4444
    machine.execute_bundle([encode(0x6A, dst=1, src1=7, rfile=11, cdst=4), encode(0xF0, dst=1, imm16=0x0102)])
    assert machine.state.l[1] == 0x0102
    machine.execute_bundle([encode(0x6A, dst=1, src1=7, rfile=11, cdst=4)])
    assert machine.state.l[1] == 0x4444


def test_units_writing_different_c_bits_all_land():
    """Scalar flags (0–7), address flags (8–10) and the loop flag (13) of one $c merge."""
    machine = Vp1Machine()
    machine.execute_bundle([0xCB0001C1, 0x4CFFFFC1, 0xF0080000])  # add $a0 $c1 …, add 0x0 $c1 …, mov $l1 $c1 0
    assert machine.state.c[1] == 0x8000 | 1 << 13 | 1 << 9 | 1 << 1


# --- shared read ports, §2.4 -----------------------------------------------------------------

def test_a_vector_store_reads_the_v_the_scalar_move_reads():
    machine = Vp1Machine()
    machine.state.v[2] = [2] * 16
    machine.state.v[7] = [7] * 16
    stavh_v2 = encode(0xD4, src1=2, dst=1, imm=0, cdst=4)  # stavh $v2 $a1 0x0
    machine.execute_bundle([stavh_v2, encode(0x6B, dst=9, src1=7, rfile=0, cdst=4)])  # + mov $r9 $v7 0x0
    assert machine.store.read(datastore.horizontal_addresses(0), 0) == [7] * 16
    assert machine.state.r[9] == 0x07070707


def test_a_scalar_move_to_another_file_reads_the_r_the_address_store_reads():
    machine = Vp1Machine()
    machine.state.r[3], machine.state.r[9] = 0x33, 0x99
    stas_r9 = encode(0xD6, src1=9, dst=1, imm=0, cdst=4)  # stas $r9 $a1 0x0
    machine.execute_bundle([stas_r9, encode(0x6A, dst=0, src1=3, rfile=20, cdst=4)])  # mov $m0 $r3
    assert machine.state.m[0] == 0x99


def test_bvecmad_takes_over_the_address_store_source():
    """The third $r port of bvecmad reads B = $r[SRC2 | 2 | u]; a scalar store of the same
    bundle stores that register instead of its own."""
    machine = Vp1Machine()
    machine.state.r[9], machine.state.r[6] = 0x99999999, 0x66666666
    stas_r9 = encode(0xD6, src1=9, dst=1, imm=0, cdst=4)
    bvecmad = encode(0x04, src1=0, src2=4, cond=0, slct=14)  # quad $r4q, flag false: u = 0
    machine.execute_bundle([stas_r9, bvecmad])
    assert machine.store.read(datastore.scalar_addresses(0), 0) == [0x66] * 4


def test_a_move_from_l_beside_exit_writes_nothing():
    machine = Vp1Machine()
    machine.state.l[2], machine.state.r[4] = 0x0303, 0xAAAA
    mov_r4_l2 = encode(0x6B, dst=4, src1=2, rfile=11, cdst=4)
    machine.execute_bundle([mov_r4_l2, 0xFF000000])
    assert machine.state.r[4] == 0xAAAA
    machine.execute_bundle([mov_r4_l2, 0xEFFFFFFF])
    assert machine.state.r[4] == 0x0303


# --- the s2v path, §6, and the vector datapath, §7.2 -----------------------------------------

VEC_40 = encode(0x24, factor1=0x40, factor2=0x40)  # vec 0x40 0x40 $vc0 sf 0x0
VMAC2_V4 = encode(0x97, dst=4, src1=0)  # vmac2 u factor rd fract 0x0 hi $v4 u $v0d


def test_the_vector_unit_uses_the_factors_of_the_scalar_op_of_its_bundle():
    """acc = $va + V0·f1 + V1·f2 = 0 + 200·0x40 + 100·0x40 = 19200; the high byte is 75."""
    machine = Vp1Machine()
    machine.state.v[0], machine.state.v[1] = [200] * 16, [100] * 16
    machine.execute_bundle([VEC_40, VMAC2_V4])
    assert machine.state.v[4] == [75] * 16
    assert machine.state.va == [19200] * 16


def test_without_a_scalar_word_the_s2v_factors_are_zero():
    """The documented choice for §13's unknown: the empty scalar slot runs snop (0x4fffffff),
    whose default factors come from $r31 = 0."""
    machine = Vp1Machine()
    machine.state.v[0], machine.state.v[1] = [200] * 16, [100] * 16
    machine.state.v[4] = [1] * 16
    machine.execute_bundle([VMAC2_V4])
    assert machine.state.v[4] == [0] * 16
    configured = Vp1Machine(empty_scalar_word=VEC_40)
    configured.state.v[0], configured.state.v[1] = [200] * 16, [100] * 16
    configured.execute_bundle([VMAC2_V4])
    assert configured.state.v[4] == [75] * 16


def test_va_wraps_at_28_bits():
    machine = Vp1Machine()
    machine.state.va = [0x7FFFFFF] * 16
    machine.state.v[0], machine.state.v[1] = [1] * 16, [1] * 16
    machine.execute_bundle([0x93000200])  # vmac u rd fract 0x0 hi # u $v0 u $v1
    assert machine.state.va == [0x8000000] * 16  # 2**27 − 1 + 1 wraps to −2**27


@pytest.mark.parametrize("uccfg, expected", [(0, 1), (1, 0), (0x110, 1), (0x111, 0)])
def test_rounding_ties_go_down_when_uccfg_bit_0_is_set(uccfg, expected):
    """vmul u rn: 0x80 · 0x01 = 0x80 (one half of 0x100); rounding adds 0x80, or 0x7f when
    $uccfg bit 0 is set, so the tie reads out as 1 or 0. Other $uccfg bits do nothing."""
    machine = Vp1Machine()
    machine.state.uc[16] = uccfg
    machine.state.v[0], machine.state.v[1] = [0x80] * 16, [1] * 16
    machine.execute_bundle([0x91100300])  # vmul u rn fract 0x0 hi $v2 u $v0 u $v1
    assert machine.state.v[2] == [expected] * 16


# --- the data store, §8.1, and address flags, §8.2 -------------------------------------------

@pytest.mark.parametrize("stride", range(4))
def test_bank_translation_is_a_bijection_for_each_stride(stride):
    offsets = [datastore.offset(address, stride) for address in range(datastore.SIZE)]
    assert sorted(offsets) == list(range(datastore.SIZE))


def test_one_address_names_different_bytes_under_different_strides():
    assert len({datastore.offset(0x1E0, stride) for stride in range(4)}) > 1


@given(st.integers(0, 0xFFFF), st.integers(0, 3))
def test_a_vector_access_spreads_over_the_banks(address, stride):
    """A horizontal access, and a vertical one with stride 1–3, touches each bank once; a
    vertical stride-0 access (16-byte steps, rotation by bits 5–7) touches 8 banks twice."""
    horizontal = {datastore.offset(place, stride) % 16 for place in datastore.horizontal_addresses(address)}
    assert horizontal == set(range(16))
    vertical = [datastore.offset(place, stride) % 16 for place in datastore.vertical_addresses(address, stride)]
    assert len(set(vertical)) == (8 if stride == 0 else 16)


@given(st.integers(0, 0xFFFF), st.integers(0, 3), st.lists(st.integers(0, 255), min_size=16, max_size=16),
       st.booleans())
def test_a_stored_vector_loads_back_at_the_same_address_and_stride(address, stride, values, vertical):
    machine = Vp1Machine()
    machine.state.a[1] = stride << 30 | address
    machine.state.v[2] = values
    store = encode(0xDD if vertical else 0xDC, src1=2, dst=1, uimm=0, cdst=4)  # stvv/stvh $v2 $a1 0x0
    load = encode(0xD9 if vertical else 0xD8, dst=3, src1=1, uimm=0, cdst=4)  # ldvv/ldvh $v3 $a1 0x0
    machine.execute_bundle([store])
    machine.execute_bundle([load])
    assert machine.state.v[3] == values


@pytest.mark.parametrize("step, reached", [(0x10, True), (0x8, False)])
def test_the_short_flag_says_the_address_reached_its_limit(step, reached):
    machine = Vp1Machine()
    machine.state.a[1] = 0x20 << 16 | 0x10  # limit 0x20, address 0x10
    machine.execute_bundle([encode(0xD0, dst=0, src1=1, imm=step, cdst=1)])  # ldavh $v0 $c1 $a1 STEP
    assert machine.state.a[1] & 0xFFFF == 0x10 + step
    assert bool(machine.state.c[1] >> 10 & 1) == reached


def test_address_adds_wrap_inside_the_16_bit_address():
    machine = Vp1Machine()
    machine.state.a[1] = 0xC005FFF0
    machine.state.a[2] = 0x20
    machine.execute_bundle([encode(0xCA, dst=1, src2=2, slct=14, cdst=4)])  # aadd $a1 $a2
    assert machine.state.a[1] == 0xC0050010


# --- loop registers, §9 ----------------------------------------------------------------------

@pytest.mark.parametrize("before, after, flag", [(0x0503, 0x0502, 0), (0x0501, 0x0500, 1), (0x0500, 0x0505, 0)])
def test_loop_branches_count_down_and_reload(before, after, flag):
    machine = Vp1Machine()
    machine.state.l[2] = before
    machine.execute_bundle([encode(0xE1, cond=2, slct=15, cdst=1)])  # bra loop $l1 $c1 $l2 …
    assert machine.state.l[1] == after
    assert machine.state.c[1] >> 13 & 1 == flag


# --- chip variants, §13 ----------------------------------------------------------------------

def test_pre_g80_chips_have_no_x_registers_and_six_scalar_flags():
    machine = Vp1Machine(chip="nv41")
    machine.load_state(FIRST_STATE, DS_INIT)
    assert "x" not in machine.dump_state()
    assert all(int(value, 16) & 0xC0 == 0 for value in machine.dump_state()["c"])
    machine.state.r[0] = 0x000C0000  # bits 18 and 19: G80's flags 6 and 7
    machine.execute_bundle([encode(0x6A, dst=3, src1=0, rfile=24, cdst=4)])  # mov $x3 $r0: ignored
    machine.execute_bundle([encode(0x4C, dst=1, src1=0, src2=31, slct=14, cdst=0)])  # add $r1 $c0 $r0 0x0
    assert machine.state.c[0] & 0xFF == 0x04  # b19 only
    g80 = Vp1Machine()
    g80.state.r[0] = 0x000C0000
    g80.execute_bundle([encode(0x6A, dst=3, src1=0, rfile=24, cdst=4)])
    g80.execute_bundle([encode(0x4C, dst=1, src1=0, src2=31, slct=14, cdst=0)])
    assert g80.state.x[3] == 0x000C0000
    assert g80.state.c[0] & 0xFF == 0xC4


def test_pre_g80_file_fields_4_to_7_are_not_modelled():
    with pytest.raises(NotModelled, match="field 5 on nv44"):
        Vp1Machine(chip="nv44").execute_bundle([encode(0x6B, dst=1, src1=0, rfile=5, cdst=4)])
    Vp1Machine().execute_bundle([encode(0x6B, dst=1, src1=0, rfile=5, cdst=4)])  # G80: ignored


def test_an_unknown_chip_is_refused():
    with pytest.raises(ValueError, match="nv41, nv44, g80"):
        Vp1Machine(chip="nv50")


@pytest.mark.parametrize("word", [0xC3000000, 0xC7002000, 0xCE000000, 0xCF010000, 0xDB000000, 0x6A0000B8])
def test_dma_and_fifo_are_not_modelled_in_single_bundles_either(word):
    with pytest.raises(NotModelled, match="not modelled"):
        Vp1Machine().execute_bundle([word])


# --- bundle formation, §2.1 ------------------------------------------------------------------

KIND_WORDS = {"A": 0xDFFFFFFF, "S": 0x4FFFFFFF, "V": 0xBFFFFFFF, "B": 0xEFFFFFFF}


def starts_by_the_stated_rule(ranks: list[int]) -> list[int]:
    """§2.1 as the spec states it: a word joins the bundle before it iff its address is not a
    multiple of 4 and its rank is strictly greater than the previous word's."""
    return [address for address in range(len(ranks))
            if address % 4 == 0 or ranks[address] <= ranks[address - 1]]


@given(st.lists(st.sampled_from("ASVB"), min_size=1, max_size=40))
def test_bundle_formation_follows_the_stated_rule(kinds):
    words = [KIND_WORDS[kind] for kind in kinds]
    assert bundle_starts(words) == starts_by_the_stated_rule(["ASVB".index(kind) for kind in kinds])
    for start in bundle_starts(words):
        slots(words[start:start + bundle_length(words, start)])  # every bundle is in unit order


@pytest.mark.parametrize("kinds, bundles", [
    ("AAAAAAAA", ["A"] * 8),
    ("ASVBASVB", ["ASVB", "ASVB"]),
    ("AVSBSAVB", ["AV", "SB", "S", "AVB"]),
    ("AAASVBBB", ["A", "A", "AS", "VB", "B", "B"]),
    ("BVSABVSA", ["B", "V", "S", "A"] * 2),
])
def test_the_spec_bundle_examples(kinds, bundles):
    words = [KIND_WORDS[kind] for kind in kinds]
    formed = ["".join("ASVB"[unit_of(word)] for word in words[start:start + bundle_length(words, start)])
              for start in bundle_starts(words)]
    assert formed == bundles


# --- any bundle ------------------------------------------------------------------------------

UNIT_RANGES = {"A": (0xC0, 0xDF), "S": (0x00, 0x7F), "V": (0x80, 0xBF), "B": (0xE0, 0xFF)}
STATES = [json.loads(line)["before"] for line in (BUNDLES / "states.jsonl").read_text().splitlines()[:50]]


@st.composite
def bundles(draw):
    units = draw(st.sets(st.sampled_from("ASVB"), min_size=1))
    words = []
    for unit in sorted(units, key="ASVB".index):
        low, high = UNIT_RANGES[unit]
        word = draw(st.integers(low, high)) << 24 | draw(st.integers(0, 0xFFFFFF))
        words.append(word)
    return words


@settings(max_examples=300)
@given(bundles(), st.integers(0, len(STATES) - 1), st.sampled_from(["g80", "nv41"]))
def test_any_bundle_keeps_every_register_in_its_width(words, state_index, chip):
    """Whatever a bundle holds, it runs (or is refused as not modelled) and leaves values that
    fit the exchange format: $r31 zero, $c bits 11, 12, 14 clear and 15 set, and widths kept."""
    machine = Vp1Machine(chip=chip)
    machine.load_state(STATES[state_index], DS_INIT)
    try:
        machine.execute_bundle(words)
    except NotModelled:
        return
    state = machine.state
    assert state.r[31] == 0
    assert all(0 <= value < 1 << 32 for file in (state.r, state.a, state.m, state.x, state.vc) for value in file)
    assert all(0 <= value < 1 << 28 for value in state.va)
    assert all(len(value) == 16 and all(0 <= byte < 256 for byte in value) for value in [*state.v, state.vx])
    assert all(c & 0x5800 == 0 and c & 0x8000 for c in state.c)
    assert all(0 <= value < 1 << 16 for value in [*state.c, *state.l])
    if chip != "g80":
        assert all(c & 0xC0 == 0 for c in state.c)
    machine.load_state(machine.dump_state())  # the dump is a valid state
    assert len(machine.data_store) == 8192
