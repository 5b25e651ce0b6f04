"""The RSX instruction descriptions in core's model against the RSX toolchain around them.

For every instruction of the golden programs (cgcomp binaries, real sce-cgc containers, the
example sources assembled) and for random instruction words, with the program-level names the
disassembler chooses (``c[k]`` literals and loop counts, ``L<n>`` labels):

* the description, decoding the words with those names, prints the disassembler's statement;
* ``encode(parse(text))`` — with the carried fields (end bit, block offsets) set as the driver
  would — differs from the words in exactly the bits the decoded instruction reports as lost
  (``unknown_bits``), so the ``#!`` hints rendered from them are the disassembler's hints,
  field for field, and put back every bit.

The words are the peers' (cgcomp, sce-cgc) or random; the texts and the assembler are ours, so
this checks that the descriptions lose nothing they do not report.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shaderkit.core.binfmt import read_words
from shaderkit.core.model import ParseContext
from shaderkit.isa.rsx import disassembler as old
from shaderkit.isa.rsx.assembly import assemble
from shaderkit.isa.rsx.container import UCODE_BYTE_ORDER, ProgramKind, read_container
from shaderkit.isa.rsx.description import hints, value_names
from shaderkit.isa.rsx.description_fragment import FRAGMENT
from shaderkit.isa.rsx.description_fragment import HINT_FIELDS as FRAGMENT_HINTS
from shaderkit.isa.rsx.description_vertex import HINT_FIELDS as VERTEX_HINTS
from shaderkit.isa.rsx.description_vertex import VERTEX
from shaderkit.isa.rsx.instruction import Program, decode_program, fragment_has_literal
from shaderkit.isa.rsx.printer import outline
from conftest import REPOSITORY_ROOT, golden_dir

VERTEX_KIND, FRAGMENT_KIND = ProgramKind.VERTEX, ProgramKind.FRAGMENT
GOLDEN = golden_dir("rsx")
EXAMPLES = REPOSITORY_ROOT / "examples" / "rsx"


def _combined(words) -> int:
    return sum(word << (32 * index) for index, word in enumerate(words))


def _old_lines(program: Program, parameters) -> dict[int, tuple[str, list[str]]]:
    """Slot → (statement, hints) as the old disassembler prints it."""
    lines = {}
    for line in old.disassemble(program, parameters, addresses=True).splitlines():
        found = re.match(r"(?P<text>[^;#]*);\s*(?:#! (?P<hints>.*?))?\s*# (?P<slot>\d{3}): ", line)
        if found:
            lines[int(found["slot"])] = (found["text"], (found["hints"] or "").split())
    return lines


def check_program(program: Program, parameters=()) -> int:
    """Check every instruction of ``program``; the number checked."""
    kind = program.kind
    description, partition = (VERTEX, VERTEX_HINTS) if kind is VERTEX_KIND else (FRAGMENT, FRAGMENT_HINTS)
    declarations = (old._vertex_declarations if kind is VERTEX_KIND else old._fragment_declarations)(program,
                                                                                                  parameters)
    label_slots = old._labels(program)
    structure = outline(program)
    lines = _old_lines(program, parameters)
    last = program.instructions[-1]
    for instruction in program.instructions:
        text, old_hints = lines[instruction.slot]
        words = instruction.words + (instruction.literal or ())
        names, labels = {}, {}
        if kind is VERTEX_KIND:
            labels = dict(label_slots)
        else:
            labels = {slot * 4: name for slot, name in label_slots.items()}
            if instruction.literal is not None:
                names["literal"] = {_combined(instruction.literal): f"c[{declarations.literal_index[instruction.slot]}]"}
            if instruction.slot in declarations.loop_index:
                view = instruction.view
                name = f"c[{declarations.loop_index[instruction.slot]}]"
                names["loop_counts"] = {view.loop_count | view.loop_start << 8 | view.loop_increment << 16: name}
                names["loop_count"] = {view.loop_count: name}
        decoded = description.decode(words, labels=labels, names=names)
        assert decoded.length == len(words), text
        assert description.format(decoded, labels=labels, names=names) == text
        # What the description makes of the statement, with the fields the driver carries in
        # (the end bit, FP block offsets) set as the program around it gives them.
        flow = structure.targets.get(instruction.slot)
        symbols = {name: (slot if kind is VERTEX_KIND else slot * 4) for slot, name in label_slots.items()}
        parsed = description.parse(text, ParseContext(symbols=symbols, value_names=value_names(names)))
        carried = {"end": int(instruction is last)}
        if flow is not None and kind is FRAGMENT_KIND:
            carried.update(else_offset=flow[0] * 4, end_offset=flow[1] * 4)
        carried = {name: value for name, value in carried.items() if name in parsed.declaration.carries}
        parsed = description.instance(parsed.declaration, {**parsed.fields, **carried})
        rebuilt = tuple(description.encode(parsed))
        if len(rebuilt) < len(words):  # a literal slot only the lost bits read
            rebuilt = rebuilt + (0,) * (len(words) - len(rebuilt))
        assert len(rebuilt) == len(words), text
        # Lost bits: exactly those the text does not reproduce (carried fields are the driver's).
        carried_lost = 0
        for name in decoded.declaration.carries:
            carried_lost |= description.fields[name].write(0, decoded.fields[name] ^ parsed.fields[name])
        lost = decoded.unknown_bits | carried_lost
        assert lost == _combined(words) ^ _combined(rebuilt), text
        rendered = hints(description, replace(decoded, unknown_bits=lost), partition)
        assert [hint for hint in old_hints if hint != "native"] == rendered, (text, old_hints, rendered)
    return len(program.instructions)


# --- golden programs -----------------------------------------------------------------------------------------


def _binary(path: Path) -> Program:
    kind = VERTEX_KIND if path.name.startswith("vp") else FRAGMENT_KIND
    words = read_words(path.read_bytes(), "raw", word_bits=32, byte_order=UCODE_BYTE_ORDER[kind])
    return decode_program(words, kind, path.name)


BINARIES = sorted((GOLDEN / "asm").glob("*.bin"))
CONTAINERS = sorted((GOLDEN / "real").glob("*.vpo")) + sorted((GOLDEN / "real").glob("*.fpo"))
WORD_FILES = sorted(GOLDEN.glob("*/*.words.txt"))
EXAMPLE_SOURCES = sorted(EXAMPLES.glob("*.vp")) + sorted(EXAMPLES.glob("*.fp"))


def _words_file(path: Path) -> Program:
    words = []
    for line in path.read_text().splitlines():
        found = re.match(r"\s*\d+:\s*((?:[0-9a-fA-F]{8}\s*){4})", line)
        if found:
            words.extend(int(word, 16) for word in found.group(1).split())
    kind = VERTEX_KIND if ".vp" in path.name or path.name.startswith("vp") else FRAGMENT_KIND
    return decode_program(words, kind, path.name)


GOLDEN_COUNTS: dict[str, int] = {}


@pytest.mark.parametrize("path", BINARIES + WORD_FILES, ids=lambda path: path.name)
def test_golden_binaries_agree(path):
    program = _binary(path) if path.suffix == ".bin" else _words_file(path)
    assert check_program(program) == len(program.instructions) > 0


@pytest.mark.parametrize("path", CONTAINERS, ids=lambda path: path.name)
def test_real_containers_agree(path):
    container = read_container(path.read_bytes(), path.name)
    program = decode_program(container.words, container.kind, path.name)
    assert check_program(program, container.parameters) > 0


@pytest.mark.parametrize("path", EXAMPLE_SOURCES, ids=lambda path: path.name)
def test_example_programs_agree(path):
    program = assemble(path.read_text(), path.name).program
    assert check_program(program) > 0


def test_the_corpora_are_all_here():
    assert (len(BINARIES), len(CONTAINERS), len(WORD_FILES)) == (22, 6, 28)
    assert len(EXAMPLE_SOURCES) >= 8


# --- spellings the descriptions read but never print ---------------------------------------------------------

OTHER_SPELLINGS = [
    (VERTEX_KIND, "SUB R0, R1, R2", "ADD R0, R1, -R2"),
    (VERTEX_KIND, "SUBC_SAT R0.x, -R1, v[0]", "ADDC_SAT R0.x, -R1, -vertex.position"),
    (VERTEX_KIND, "SUB R0, R1, |R2|", "ADD R0, R1, -|R2|"),
    (VERTEX_KIND, "ABS o[1].xy(NE.x), -c[3]", "MOV result.color.xy(NE.x), |c[3]|"),
    (VERTEX_KIND, "PUSHA v[0]", "PSH vertex.position"),
    (VERTEX_KIND, "POPA", "POP"),
    (FRAGMENT_KIND, "SUBR R0, {1, 2, 3, 4}, R1", "ADDR R0, {1, 2, 3, 4}, -R1"),
    (FRAGMENT_KIND, "SUBX_SAT H2.xy(GT.y), -|f[TEX0]|, -|R1|", "ADDX_SAT H2.xy(GT.y), -|fragment.texcoord[0]|, |R1|"),
    (FRAGMENT_KIND, "ABSH H0, -R1.x", "MOVH H0, |R1.x|"),
    (FRAGMENT_KIND, "PK2 R0, R1", "PK2H R0, R1"),
    (FRAGMENT_KIND, "REFLR R0, R1, R2", "RFLR R0, R1, R2"),
    (FRAGMENT_KIND, "PK4UBG R0, R1", "PKG R0, R1"),
    (FRAGMENT_KIND, "LITEX2R R0, R1", "LIFR R0, R1"),
    (FRAGMENT_KIND, "IFE NE.x", "IF NE.x"),
    # No precision suffix: R, as the old NV spelling has it.
    (FRAGMENT_KIND, "ADD R1, R0, R1", "ADDR R1, R0, R1"),
    (FRAGMENT_KIND, "MOV R0, f[TEX0]", "MOVR R0, fragment.texcoord[0]"),
    (FRAGMENT_KIND, "MULC_SAT_X2 H0.xy, R1, -H2", "MULRC_SAT_X2 H0.xy, R1, -H2"),
    (FRAGMENT_KIND, "SUB R0, R1, R2", "ADDR R0, R1, -R2"),
    (FRAGMENT_KIND, "TEX R0, f[TEX0], texture[1], 2D", "TEXR R0, fragment.texcoord[0], texture[1], 2D"),
    (FRAGMENT_KIND, "TXL R0, f[TEX0].xyzx, texture[0], 2D", "TXLR R0, fragment.texcoord[0].xyzx, texture[0], 2D"),
    # Suffixes on names that print without them: written into the bits, which print as hints.
    (FRAGMENT_KIND, "PK2HH R0, R1", "PK2H R0, R1"),
    (FRAGMENT_KIND, "PK2R R0, R1", "PK2H R0, R1"),
    (FRAGMENT_KIND, "NOPRC_SAT_X2", "NOP"),
]


@pytest.mark.parametrize("kind, text, printed", OTHER_SPELLINGS, ids=[text for _, text, _ in OTHER_SPELLINGS])
def test_other_spellings_read_as_the_instruction_printed(kind, text, printed):
    """Pseudo-instructions of one instruction (SUB, ABS) and opcode aliases: the words are those
    of the statement printed for them, under the one name the disassembler uses."""
    description = VERTEX if kind is VERTEX_KIND else FRAGMENT
    words = description.encode(description.parse(text))
    assert description.format(description.decode(words)) == printed
    if "HH " not in text and "PK2R" not in text and "NOPRC" not in text:  # those keep suffix bits as hints
        assert description.encode(description.parse(printed)) == words
    # One instruction, never expanded by the assembler.
    header = "!!ARBvp1.0\n" if kind is VERTEX_KIND else "!!ARBfp1.0\n"
    if text.startswith("IFE"):  # a block: its offsets come from its ENDIF
        words = description.encode(description.with_fields(description.parse(text), {"else_offset": 4, "end_offset": 4}))
        text += ";\nENDIF"
    [instruction] = assemble(f"{header}{text};\nEND\n").program.instructions
    end_word = 3 if kind is VERTEX_KIND else 0
    assembled = list(instruction.words + (instruction.literal or ()))
    assembled[end_word] &= ~1  # the end bit the program gives its last instruction
    assert tuple(assembled) == tuple(words)


# --- random words ---------------------------------------------------------------------------------------------

WORD = st.integers(0, 0xFFFFFFFF)
RANDOM = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _one_slot(kind, words, last: bool) -> Program:
    index = 3 if kind is VERTEX_KIND else 0
    words = list(words)
    words[index] = (words[index] & ~1) | int(last)
    if kind is FRAGMENT_KIND and fragment_has_literal(tuple(words[:4])) and len(words) == 4:
        words += [0x3F800000, 0, 0x40490FDB, 0xFFFFFFFF]
    return decode_program(words, kind)


@RANDOM
@given(st.tuples(WORD, WORD, WORD, WORD), st.booleans())
def test_random_vertex_words_agree(words, last):
    assert check_program(_one_slot(VERTEX_KIND, words, last)) == 1


@RANDOM
@given(st.tuples(WORD, WORD, WORD, WORD), st.booleans())
def test_random_fragment_words_agree(words, last):
    assert check_program(_one_slot(FRAGMENT_KIND, words, last)) == 1


@pytest.mark.parametrize("kind", [VERTEX_KIND, FRAGMENT_KIND])
def test_a_fixed_sample_of_random_words_agrees(kind):
    """1,000 raw random slots per kind, the same every run (hypothesis draws new ones)."""
    import random
    generator = random.Random(1)
    for _ in range(1000):
        words = tuple(generator.getrandbits(32) for _ in range(4))
        assert check_program(_one_slot(kind, words, generator.random() < 0.5)) == 1
