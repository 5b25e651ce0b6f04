"""RSX field layouts, instruction views and the program walk, against the spec and the corpora."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shaderkit.core.binfmt import read_words
from shaderkit.core.diagnostics import InputError
from shaderkit.isa.rsx import fields
from shaderkit.isa.rsx.container import ProgramKind, read_container, UCODE_BYTE_ORDER
from shaderkit.isa.rsx.instruction import (
    Instruction,
    decode_program,
    fragment_has_literal,
    program_warnings,
)
from conftest import golden_dir

GOLDEN = golden_dir("rsx")
WORDS = st.integers(0, 0xFFFFFFFF)


def words_file(path: Path) -> tuple[int, ...]:
    words = []
    for line in path.read_text().splitlines():
        words += [int(word, 16) for word in line.split(":", 1)[1].split()]
    return tuple(words)


def bare(name: str) -> tuple[tuple[int, ...], ProgramKind]:
    kind = ProgramKind.VERTEX if name.startswith("vp_") else ProgramKind.FRAGMENT
    suffix = ".vpo.bin" if kind is ProgramKind.VERTEX else ".fpo.bin"
    data = (GOLDEN / "asm" / (name + suffix)).read_bytes()
    return tuple(read_words(data, "raw", word_bits=32, byte_order=UCODE_BYTE_ORDER[kind])), kind


@pytest.mark.parametrize("layout", [fields.VP, fields.FP], ids=["vp", "fp"])
@settings(max_examples=200, deadline=None)
@given(words=st.tuples(WORDS, WORDS, WORDS, WORDS))
def test_decode_then_encode_gives_the_same_words(layout, words):
    assert layout.encode(layout.decode(words)) == words


@pytest.mark.parametrize("layout", [fields.VP, fields.FP], ids=["vp", "fp"])
def test_each_field_moves_only_its_own_bits(layout):
    for name in layout.fields:
        values = {other: 0 for other in layout.fields}
        values[name] = (1 << layout.width(name)) - 1
        words = layout.encode(values)
        decoded = layout.decode(words)
        assert decoded[name] == values[name]
        assert all(decoded[other] == 0 for other in layout.fields if other != name)


def test_field_values_that_do_not_fit_are_refused():
    with pytest.raises(ValueError):
        fields.VP.encode({"vector_opcode": 32})


ALL_BARE = sorted(path.name.split(".")[0] for path in (GOLDEN / "asm").glob("*.bin"))


@pytest.mark.parametrize("name", ALL_BARE)
def test_corpus_programs_walk_to_their_end_bit_and_re_encode(name):
    words, kind = bare(name)
    program = decode_program(words, kind, name)
    assert program.words() == words
    assert program.trailing == ()
    assert program.instructions[-1].end and not any(i.end for i in program.instructions[:-1])
    assert program_warnings(program) == []
    suffix = ".vpo.words.txt" if kind is ProgramKind.VERTEX else ".fpo.words.txt"
    assert words == words_file(GOLDEN / "asm" / (name + suffix))


def test_real_fp_cube_slots_match_the_worked_example():
    container = read_container((GOLDEN / "real" / "gs_gcm_cube_0x2074c.fpo").read_bytes(), "cube")
    program = decode_program(container.words, ProgramKind.FRAGMENT)
    slots = [instruction.slot for instruction in program.instructions]
    assert slots == [0, 1, 3, 4]  # slot 2 is the literal of slot 1
    tex, movh, fence, last = (instruction.view for instruction in program.instructions)
    assert (tex.opcode.name, tex.texture_unit, tex.input, tex.mask) == ("TEX", 0, 4, (True, False, False, False))
    assert (movh.opcode.name, movh.precision, movh.literal) == ("MOV", 1, (0.0, 1.0, 0.0, 0.0))
    assert movh.mask == (False, True, False, True)
    assert movh.sources[0].file == "c" and movh.sources[0].swizzle == (0, 0, 1, 1)
    assert (fence.opcode.name, fence.no_destination, fence.destination) == ("FENCB", True, 63)
    assert last.end and last.opcode.name == "MOV"


def test_real_vp_basic_triangle_first_slot_is_mov_to_colour():
    container = read_container((GOLDEN / "real" / "gs_gcm_basic_triangle_0x312e0.vpo").read_bytes(), "tri")
    program = decode_program(container.words, ProgramKind.VERTEX)
    first = program.instructions[0].view
    assert first.vector.name == "MOV" and first.output == 1 and first.vector_to_output
    assert first.sources[0].file == "v" and first.sources[0].index == 3
    assert first.vector_temp is None and first.scalar.name == "NOP"
    last = program.instructions[-1].view
    assert last.end and last.vector.name == "DP4" and last.vector_mask == (True, False, False, False)
    assert last.sources[1].file == "c" and last.sources[1].index == 256


def test_vp_branch_target_and_condition():
    words, kind = bare("vp_branch")
    branch = decode_program(words, kind).instructions[2].view
    assert branch.scalar.name == "BRI" and branch.branch_target == 4
    assert branch.condition.name == "LE" and branch.condition.swizzle == (0, 0, 0, 0)


def test_vp_conditional_write_reads_cc_swizzle():
    words, kind = bare("vp_cond_codes")
    view = decode_program(words, kind).instructions[4].view  # MOV R0.zw(NE.zzww), c[0].w
    assert view.condition_test and view.condition.name == "NE"
    assert view.condition.swizzle == (2, 2, 3, 3)
    assert view.vector_mask == (False, False, True, True)
    update = decode_program(words, kind).instructions[6].view  # MOVC CC.x, vertex.color.w
    assert update.cc_update and update.vector_temp is None and update.output is None


def test_fp_flow_offsets_are_slots():
    words, kind = bare("fp_if_else")
    ife = decode_program(words, kind).instructions[1].view
    assert ife.opcode.name == "IFE" and (ife.else_slot, ife.end_slot) == (4, 6)
    words, kind = bare("fp_loop")
    loop = decode_program(words, kind).instructions[1].view
    assert loop.opcode.name == "LOOP"
    assert (loop.loop_count, loop.loop_start, loop.loop_increment, loop.end_slot) == (3, 0, 1, 4)


def test_flow_instructions_never_take_a_literal_slot():
    # LOOP's SRC words look like constant-type operands but flow ops have no literal (spec 3.1).
    loop = (0x43400000, 0x1C9C0002, 0x8008000E, 0x00000010)
    assert not fragment_has_literal(loop)
    mov_constant = (0x01001E01, 0x1C9DC802, 0x0001C800, 0x0001C800)
    assert fragment_has_literal(mov_constant)


def test_a_missing_literal_slot_is_a_truncated_program():
    mov_constant_end = (0x01001E01, 0x1C9DC802, 0x0001C800, 0x0001C800)
    with pytest.raises(InputError, match="literal slot is missing"):
        decode_program(mov_constant_end, ProgramKind.FRAGMENT, "t.bin")


def test_ragged_and_empty_programs_are_refused():
    with pytest.raises(InputError, match="16-byte slots"):
        decode_program((1, 2, 3), ProgramKind.VERTEX)
    with pytest.raises(InputError, match="empty"):
        decode_program((), ProgramKind.FRAGMENT)


def test_missing_end_bit_and_trailing_slots_are_reported():
    words, kind = bare("vp_mvp_color")
    no_end = words[:-1] + (words[-1] & ~1,)
    program = decode_program(no_end, kind)
    assert len(program.instructions) == len(words) // 4
    assert any("no instruction has the end bit" in w for w in program_warnings(program))
    padded = decode_program(words + (0, 0, 0, 0), kind)
    assert padded.trailing == (0, 0, 0, 0)
    assert any("after the end bit" in w for w in program_warnings(padded))


@settings(max_examples=150, deadline=None)
@given(st.lists(WORDS, min_size=4, max_size=40).map(lambda w: tuple(w[: len(w) // 4 * 4])),
       st.sampled_from(list(ProgramKind)))
def test_any_words_decode_or_fail_cleanly_and_views_never_raise(words, kind):
    try:
        program = decode_program(words, kind)
    except InputError:
        return
    assert program.words() == words
    for instruction in program.instructions:
        assert instruction.view is not None


def test_from_fields_builds_the_same_instruction():
    words, kind = bare("fp_arith_const")
    first = decode_program(words, kind).instructions[0]
    rebuilt = Instruction.from_fields(kind, first.fields, first.literal)
    assert rebuilt == first
