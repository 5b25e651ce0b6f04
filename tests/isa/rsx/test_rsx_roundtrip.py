"""RSX round trips: ``assemble(disassemble(p)) == p`` and cgcomp's sources against its binaries.

* The 22 ``asm`` binaries (bare ucode from cgcomp) read back exactly with no ``#!`` hint at all:
  the assembler reproduces every bit cgcomp fills in.
* The 6 real sce-cgc containers read back exactly (with their parameter tables); sce-cgc writes
  the 0x7FC displacement for a COL0 read where cgcomp writes 0, so the two fragment programs
  that read f[COL0] need one ``#! displacement=0x7fc`` hint each.
* Each ``asm/*.txt`` source assembles to its ``.bin`` byte for byte. All 22 are identical: their
  temps are declared in index order (``TEMP R0, R1, …``), so cgcomp's numbering by order of
  appearance keeps the written numbers, and the only rewrite they use, VP SUB, is reproduced.
* Hypothesis: random words (raw, and field-wise plausible with flow offsets and literals) round
  trip for both program kinds, trailing slots after the end bit included.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shaderkit.core.binfmt import read_words
from shaderkit.isa.rsx import fields as layout
from shaderkit.isa.rsx.assembly import assemble
from shaderkit.isa.rsx.container import (CgParameter, CgType, CgVariability, ProgramKind, read_container,
                                         UCODE_BYTE_ORDER)
from shaderkit.isa.rsx.disassembler import disassemble
from shaderkit.isa.rsx.instruction import Instruction, Program, decode_program, fragment_has_literal
from shaderkit.isa.rsx.opcodes import FP
from conftest import golden_dir

GOLDEN = golden_dir("rsx")
ASM = GOLDEN / "asm"
REAL = GOLDEN / "real"
VERTEX, FRAGMENT = ProgramKind.VERTEX, ProgramKind.FRAGMENT

BINARIES = sorted(ASM.glob("*.bin"))
CONTAINERS = sorted(REAL.glob("*.vpo")) + sorted(REAL.glob("*.fpo"))
SOURCES = sorted(path for path in ASM.glob("*.txt") if not path.name.endswith(".words.txt"))
REAL_HINTS = {"gs_gcm_basic_triangle_0x315b0.fpo": 1, "gs_gcm_cube_0x38f80.fpo": 1}


def kind_of(path: Path) -> ProgramKind:
    return VERTEX if path.name.startswith("vp") else FRAGMENT


def binary_program(path: Path) -> Program:
    words = read_words(path.read_bytes(), "raw", word_bits=32, byte_order=UCODE_BYTE_ORDER[kind_of(path)])
    return decode_program(words, kind_of(path), path.name)


def test_the_corpora_are_all_here():
    assert (len(BINARIES), len(CONTAINERS), len(SOURCES)) == (22, 6, 22)


@pytest.mark.parametrize("path", BINARIES, ids=lambda path: path.name)
def test_cgcomp_binaries_round_trip_without_hints(path):
    program = binary_program(path)
    text = disassemble(program)
    assert "#!" not in text
    assert assemble(text, path.name).program == program


@pytest.mark.parametrize("path", CONTAINERS, ids=lambda path: path.name)
def test_real_containers_round_trip(path):
    container = read_container(path.read_bytes(), path.name)
    program = decode_program(container.words, container.kind, path.name)
    text = disassemble(program, container.parameters)
    assert text.count("#!") == REAL_HINTS.get(path.name, 0)
    assert assemble(text, path.name).program == program


@pytest.mark.parametrize("path", SOURCES, ids=lambda path: path.name)
def test_cgcomp_sources_assemble_to_their_binaries(path):
    binary = ASM / path.name.replace(".vp.txt", ".vpo.bin").replace(".fp.txt", ".fpo.bin")
    assembled = assemble(path.read_text(), path.name)
    stored = read_words(binary.read_bytes(), "raw", word_bits=32, byte_order=UCODE_BYTE_ORDER[kind_of(path)])
    assert list(assembled.program.words()) == stored
    assert assembled.warnings == ()


def test_sources_report_their_constants():
    mvp = assemble((ASM / "vp_mvp_color.vp.txt").read_text()).uniforms
    assert [(uniform.name, uniform.type, uniform.index, uniform.count) for uniform in mvp] == [
        ("mvp", "float4x4", 0, 4)]
    arith = assemble((ASM / "fp_arith_const.fp.txt").read_text())
    assert arith.constants == {0: (0.5, 0.25, 2.0, 1.0), 1: (0.125, 0.375, -0.5, 0.0)}
    assert arith.literal_constants == {1: 0, 3: 1, 5: 0}  # literal slot -> the c[N] it holds


def test_container_uniforms_become_var_lines():
    container = read_container((REAL / "gs_gcm_basic_triangle_0x312e0.vpo").read_bytes(), "triangle")
    text = disassemble(decode_program(container.words, VERTEX), container.parameters)
    assert "#var float4x4 modelViewProj :  : c[256], 4 : 2 : 1" in text.splitlines()
    uniforms = assemble(text).uniforms
    assert [(uniform.name, uniform.index, uniform.count) for uniform in uniforms] == [("modelViewProj", 256, 4)]
    internal = read_container((REAL / "gs_gcm_cube_0x38c70.vpo").read_bytes(), "cube")
    text = disassemble(decode_program(internal.words, VERTEX), internal.parameters)
    assert "#const c[467] = 2 1 0.00390625 0.003921569" in text.splitlines()
    assert "#const c[466] = 65280 0 0 0" in text.splitlines()


def test_fragment_uniforms_are_named_from_the_embedded_constant_tables():
    """Literal slots a uniform patches print as its c[k] with #var (and #default) lines."""
    program = binary_program(ASM / "fp_dots.fpo.bin")  # literals in slots 1, 4 and 6
    tint = CgParameter(type=CgType.FLOAT4, resource=2757, variability=CgVariability.UNIFORM, resource_index=-1,
                       name="tint", default_value_bits=(0x3F000000, 0xBE800000, 0x3F800000, 0x40000000),
                       embedded_constant_offsets=(4 * 16, 6 * 16), semantic=None, direction=4097,
                       parameter_number=3, is_referenced=1, is_shared=0)
    text = disassemble(program, (tint,))
    assert text.splitlines()[2:5] == ["#const c[0] = 0.5 -0.25 1 2", "#var float4 tint :  : c[1] : 3 : 1",
                                      "#default tint = 0.5 -0.25 1 2"]
    assert "DP4R R0.z, fragment.texcoord[0], c[1];" in text.splitlines()
    assembled = assemble(text)
    assert assembled.program == program
    assert assembled.literal_constants == {1: 0, 4: 1, 6: 1}
    assert assembled.uniforms[0].default == ((0.5, -0.25, 1.0, 2.0),)


SPECIAL_FLOATS = (0x7FC00000, 0xFFA00001, 0x7F800000, 0xFF800000, 0x80000000, 0x00000001, 0x7F7FFFFF, 0x3DCCCCCD)


def test_special_literal_values_read_back_bit_exactly():
    """NaN payloads, infinities, -0, denormals and FLT_MAX in FP literals (hex for non-finite)."""
    mov = layout.FP.encode({**{name: 0 for name in layout.FP.fields}, "opcode_low": 1, "mask": 0xF,
                            "condition": 7, "cc_swizzle": 0xE4, "source0": 0x1C802, "source1": 0x1C800,
                            "source2": 0x1C800})
    instructions = []
    for number, start in enumerate(range(0, len(SPECIAL_FLOATS), 4)):
        words = (mov[0] | (number == 1), *mov[1:])
        instructions.append(Instruction(FRAGMENT, words, SPECIAL_FLOATS[start:start + 4], 2 * number))
    program = Program(FRAGMENT, tuple(instructions))
    text = disassemble(program)
    assert "#const c[0] = 0x7fc00000 0xffa00001 0x7f800000 0xff800000" in text
    assert "#const c[1] = -0 1e-45 3.4028235e+38 0.1" in text
    assert assemble(text).program == program


def test_slots_after_the_end_bit_read_back():
    stored = read_words((ASM / "vp_mvp_color.vpo.bin").read_bytes(), "raw", word_bits=32,
                        byte_order=UCODE_BYTE_ORDER[VERTEX])
    words = tuple(stored) + (1, 2, 3, 0xFFFFFFFF)
    program = decode_program(words, VERTEX)
    text = disassemble(program)
    assert text.rstrip().endswith("#! trailing 0x00000001 0x00000002 0x00000003 0xffffffff")
    assert assemble(text).program == program


# --- hypothesis --------------------------------------------------------------------------------

WORDS = st.integers(0, 0xFFFFFFFF)


def clear_end(kind: ProgramKind, words: tuple[int, ...], last: bool) -> tuple[int, ...]:
    index = 3 if kind is VERTEX else 0
    words = list(words)
    words[index] = (words[index] & ~1) | last
    return tuple(words)


@st.composite
def vertex_slots(draw):
    """Plausible VP slots: cgcomp's defaults with random opcodes, registers, masks and flags."""
    values = {name: 0 for name in layout.VP.fields}
    values.update(cc_swizzle=0x1B, condition=7, vector_temp=0x3F, scalar_temp=0x3F, output=0x1F,
                  source0=0x1B02, source1=0x1B02, source2=0x1B02)
    for name in draw(st.lists(st.sampled_from(sorted(layout.VP.fields)), max_size=10)):
        values[name] = draw(st.integers(0, (1 << layout.VP.width(name)) - 1))
    return layout.VP.encode(values)


@st.composite
def fragment_slots(draw, count: int):
    """Plausible FP slots: a table opcode, random fields, flow offsets near the program."""
    values = {name: 0 for name in layout.FP.fields}
    opcode = draw(st.sampled_from(sorted(FP)))
    values.update(condition=7, cc_swizzle=0xE4, source0=0x1C800, source1=0x1C800, source2=0x1C800, mask=0xF,
                  opcode_low=opcode & 0x3F, opcode_high=opcode >> 6)
    for name in draw(st.lists(st.sampled_from(sorted(layout.FP.fields)), max_size=8)):
        if name not in ("opcode_low", "opcode_high"):
            values[name] = draw(st.integers(0, (1 << layout.FP.width(name)) - 1))
    words = list(layout.FP.encode(values))
    if FP[opcode].flow:
        words[2] = 1 << 31 | draw(st.integers(0, count + 2)) * 4
        words[3] = draw(st.integers(0, count + 2)) * 4
    return tuple(words)


@st.composite
def vertex_programs(draw):
    count = draw(st.integers(1, 6))
    words = []
    for number in range(count):
        slot = draw(st.one_of(st.tuples(WORDS, WORDS, WORDS, WORDS), vertex_slots()))
        words.extend(clear_end(VERTEX, slot, number == count - 1) if draw(st.booleans()) else slot)
    return decode_program(words, VERTEX)


@st.composite
def fragment_programs(draw):
    count = draw(st.integers(1, 6))
    words = []
    for number in range(count):
        slot = draw(st.one_of(st.tuples(WORDS, WORDS, WORDS, WORDS), fragment_slots(count)))
        slot = clear_end(FRAGMENT, slot, number == count - 1)
        words.extend(slot)
        if fragment_has_literal(slot):
            words.extend(draw(st.tuples(WORDS, WORDS, WORDS, WORDS)))
    return decode_program(words, FRAGMENT)


RANDOM = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@RANDOM
@given(vertex_programs())
def test_random_vertex_programs_round_trip(program):
    assert assemble(disassemble(program)).program.words() == program.words()


@RANDOM
@given(fragment_programs())
def test_random_fragment_programs_round_trip(program):
    assembled = assemble(disassemble(program)).program
    assert assembled.words() == program.words()
    assert assembled == program


def test_constants_print_with_at_most_nine_significant_digits():
    """The shortest decimal that reads back to the bits; some values need all nine digits."""
    literal = (0x3EAAAAAB, 0xFCF249F3, 0x4D1FE09F, 0x40C90FDB)  # 1/3, -1.0e37, 167643632, 2 pi
    program = Program(FRAGMENT, (Instruction(FRAGMENT, (0x01001E01, 0x1C9DC802, 0x0001C800, 0x0001C800),
                                             literal, 0),))
    text = disassemble(program)
    printed = next(line for line in text.splitlines() if line.startswith("#const")).split("=")[1].split()
    assert printed == ["0.33333334", "-1.00642857e+37", "167643632", "6.2831855"]
    assert assemble(text).program == program
