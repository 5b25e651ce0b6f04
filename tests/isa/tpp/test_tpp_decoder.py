"""The TPP decoder is total and every decoded word round-trips (spec/tpp.md sections 2-3,
design invariants): all 65,536 words on both revisions, plus whole-image listings.

Which words are *clean* instructions is computed here independently from the spec's
field table (section 2), not from the description under test.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shaderkit.core.model import DATA
from shaderkit.isa.tpp import TinyPixelProcessor

ALL_WORDS = range(1 << 16)

# Spec 2.1: opcode -> (mnemonic, bits the instruction reads besides opcode and condition).
A_FIELD, B_FIELD, IMM_FIELD = 0x0700, 0x00E0, 0x00FC
SPEC_OPCODES = {
    0: ("NOP", 0),
    1: ("SET", A_FIELD | IMM_FIELD), 5: ("SL", A_FIELD | IMM_FIELD), 6: ("SR", A_FIELD | IMM_FIELD),
    **{op: (name, A_FIELD | B_FIELD) for op, name in [
        (2, "MOV"), (3, "ADD"), (4, "SUB"), (7, "AND"), (8, "NAND"), (9, "OR"), (10, "NOR"),
        (11, "XOR"), (13, "SIN"), (15, "RAMP"), (16, "SAW"), (17, "COMP")]},
    12: ("OUT", None),  # the field depends on the revision
    **{op: (name, A_FIELD) for op, name in [
        (18, "FH"), (19, "HSD"), (20, "TT"), (21, "Credits"), (22, "FlagP"), (23, "ESE")]},
}
WRITES_A_FIELD = {"SET", "SL", "SR", "MOV", "ADD", "SUB", "AND", "NAND", "OR", "NOR", "XOR",
                  "SIN", "RAMP", "SAW", "FH", "HSD", "TT", "Credits", "FlagP", "ESE"}


def spec_meaning(word: int, rev: str) -> tuple[str, int] | None:
    """(mnemonic, bits read) if ``word`` is a clean instruction on ``rev``, else None."""
    opcode = word >> 11
    if opcode not in SPEC_OPCODES or (rev == "A" and opcode >= 18):
        return None
    name, reads = SPEC_OPCODES[opcode]
    if name == "OUT":
        # Rev B reads bits 7-5 (the upstream word, bits 10-8 clear); rev A reads bits 10-8,
        # and its words carry the same register in bits 7-5 too (see isa/tpp/spec.py).
        if rev == "A":
            same_register = (word & A_FIELD) >> 8 == (word & B_FIELD) >> 5
            return (name, A_FIELD | B_FIELD) if same_register and word & 0x001C == 0 else None
        reads = B_FIELD
    used = 0xF800 | reads | 0x0003
    return (name, reads) if word & ~used == 0 else None


@pytest.fixture(scope="module", params=["A", "B"])
def tpp(request) -> TinyPixelProcessor:
    return TinyPixelProcessor(request.param)


@pytest.fixture(scope="module")
def decoded(tpp):
    """Every word decoded, in word order (decoding itself must never raise)."""
    return [tpp.decode([word], address=word % 20) for word in ALL_WORDS]


def test_decode_is_total_and_keeps_the_word(decoded):
    assert len(decoded) == 1 << 16
    for word, instruction in zip(ALL_WORDS, decoded):
        assert instruction.words == (word,)
        assert instruction.address == word % 20


def test_encode_of_decode_is_the_word(tpp, decoded):
    for word, instruction in zip(ALL_WORDS, decoded):
        assert tpp.encode(instruction) == (word,), hex(word)


def test_exactly_the_clean_words_decode_to_instructions(tpp, decoded):
    for word, instruction in zip(ALL_WORDS, decoded):
        meaning = spec_meaning(word, tpp.rev)
        if meaning is None:
            assert instruction.is_data, f"{word:#06x} decoded as {tpp.format(instruction)}"
        else:
            assert not instruction.is_data, f"{word:#06x}: {instruction.note}"
            assert instruction.mnemonic == meaning[0]


def test_number_of_clean_words(tpp, decoded):
    # NOP 4; SET/SL/SR 3 x 2048; MOV, 10 ALU ops, COMP 12 x 256; OUT 32; ROM ops 6 x 32 (rev B)
    expected = 4 + 3 * 2048 + 12 * 256 + 32 + (6 * 32 if tpp.rev == "B" else 0)
    assert sum(not instruction.is_data for instruction in decoded) == expected
    assert expected == (9444 if tpp.rev == "B" else 9252)


def test_parse_of_format_is_the_instruction(tpp, decoded):
    for word, instruction in zip(ALL_WORDS, decoded):
        if instruction.is_data:
            continue
        text = tpp.format(instruction)
        parsed = tpp.parse(text, special_writes=True)
        assert parsed == instruction, text
        assert tpp.encode(parsed) == (word,), text
        assert tpp.format(parsed) == text


def test_only_hardware_register_writes_need_the_permission(tpp, decoded):
    refused = 0
    for word, instruction in zip(ALL_WORDS, decoded):
        if instruction.is_data:
            continue
        writes_special = instruction.mnemonic in WRITES_A_FIELD and (word >> 8) & 7 >= 4
        text = tpp.format(instruction)
        try:
            tpp.parse(text)
        except Exception as error:  # noqa: BLE001 - the type is checked below
            assert writes_special, f"{text}: {error}"
            assert "hardware register" in str(error)
            refused += 1
        else:
            assert not writes_special, f"{text} was accepted without the permission"
    assert refused > 0


def test_canonical_text_shape(tpp, decoded):
    canonical = re.compile(r"(NOP|SET|MOV|ADD|SUB|SL|SR|AND|NAND|OR|NOR|XOR|OUT|SIN|RAMP|SAW|COMP"
                           r"|FH|HSD|TT|Credits|FlagP|ESE)(EQ|GT|LT)?"
                           r"( (R[0-3]|RX|RY|RT|RR))?( (R[0-3]|RX|RY|RT|RR)|( #([0-9]|[1-5][0-9]|6[0-3])))?")
    for instruction in decoded:
        text = tpp.format(instruction)
        if instruction.is_data:
            assert re.fullmatch(r"\.word 0x[0-9a-f]{4}", text), text
        else:
            assert canonical.fullmatch(text), text


def test_data_items_carry_a_note_and_parse_back(tpp, decoded):
    for word, instruction in zip(ALL_WORDS, decoded):
        if not instruction.is_data:
            continue
        assert instruction.mnemonic == DATA
        assert instruction.note.strip(), hex(word)
        text = tpp.format(instruction)
        assert text == f".word 0x{word:04x}"
        assert tpp.encode(tpp.parse(text)) == (word,)


def test_data_items_reassemble_through_the_assembler(tpp, decoded):
    # The full assembler on a sample (every 13th data word) keeps the suite fast.
    sample = [i for i in decoded if i.is_data][::13]
    assert len(sample) > 3000
    source = "\n".join(f"{tpp.format(i)}  // {i.note}" for i in sample)
    program = tpp.assembler.assemble(source, "data.s")
    assert program.words == [i.words[0] for i in sample]


# --------------------------------------------------------------------------------------
# notes for particular words


@pytest.mark.parametrize("rev", ["A", "B"])
def test_unused_bits_word(rev):
    tpp = TinyPixelProcessor(rev)
    instruction = tpp.decode([0x181F])
    assert instruction.is_data
    assert tpp.format(instruction) == ".word 0x181f"
    assert "unused bits" in instruction.note
    assert "ADD R0 R0" in instruction.note
    assert "0x1c" in instruction.note  # which bits


@pytest.mark.parametrize("rev", ["A", "B"])
@pytest.mark.parametrize("word, opcode", [(0x7003, 14), (0xC003, 24), (0xFFFF, 31), (0x7000, 14)])
def test_undecoded_opcodes_execute_as_nop(rev, word, opcode):
    tpp = TinyPixelProcessor(rev)
    instruction = tpp.decode([word])
    assert instruction.is_data
    assert tpp.format(instruction) == f".word 0x{word:04x}"
    assert "executes as NOP" in instruction.note
    assert f"opcode {opcode}" in instruction.note


@pytest.mark.parametrize("word, name", [(0x9003, "FH"), (0xA003, "TT"), (0xB803, "ESE")])
def test_rom_opcodes_are_data_on_rev_a(word, name):
    instruction = TinyPixelProcessor("A").decode([word])
    assert instruction.is_data
    assert TinyPixelProcessor("A").format(instruction) == f".word 0x{word:04x}"
    assert "executes as NOP" in instruction.note and name in instruction.note
    assert not TinyPixelProcessor("B").decode([word]).is_data


def test_same_register_in_both_out_fields_is_rev_a_out_and_rev_b_data():
    # spec 3: 0x6123 behaves as OUT R1 on both revisions; it is how rev A's OUT R1 is written,
    # while rev B's own word leaves bits 10-8 clear.
    assert TinyPixelProcessor("A").format(TinyPixelProcessor("A").decode([0x6123])) == "OUT R1"
    instruction = TinyPixelProcessor("B").decode([0x6123])
    assert instruction.is_data and "OUT R1" in instruction.note and "unused bits" in instruction.note


def test_decode_of_a_short_sequence_is_data():
    tpp = TinyPixelProcessor()
    assert tpp.decode([]).is_data
    assert tpp.decode([0x1083, 0x6003]).words == (0x1083,)


# --------------------------------------------------------------------------------------
# listings


def test_listing_with_addresses_and_notes():
    listing = TinyPixelProcessor().disassemble([0x1083, 0x181F, 0x7003, 0x6003])
    # An OUT the default reading would leave out of the upload: the listing reads as written.
    header, *lines = listing.splitlines()
    assert header == ".slots written"
    assert lines[0].startswith("MOV R0 RX") and lines[0].endswith("// 00: 1083")
    assert lines[1].startswith(".word 0x181f") and "01: 181f" in lines[1] and "unused bits" in lines[1]
    assert lines[2].startswith(".word 0x7003") and "executes as NOP" in lines[2]
    assert lines[3].startswith("OUT R0") and lines[3].endswith("// 03: 6003")
    assert TinyPixelProcessor().disassemble([0x1083, 0x6003], addresses=False) == ".slots written\nMOV R0 RX\nOUT R0\n"
    assert TinyPixelProcessor().disassemble([0x1083, 0x58A3], addresses=False) == "MOV R0 RX\nXOR R0 RY\n"
    # An image's slot 19 is OUT R0 in either reading.
    image = [0x1083] + [0x0000] * 18 + [0x6003]
    assert not TinyPixelProcessor().disassemble(image).startswith(".slots")


def test_listing_that_writes_hardware_registers_allows_it():
    tpp = TinyPixelProcessor()
    listing = tpp.disassemble([0x1C83, 0x6003])  # ADD RX RX
    assert listing.splitlines()[:2] == [".slots written", ".allow special-writes"]
    assert "ADD RX RX" in listing
    assert tpp.assemble(listing, "listing.s").words == [0x1C83, 0x6003]
    # reading RX, or unused bits that would write RX, need no permission
    assert not tpp.disassemble([0x1083, 0x8C83, 0x1C9F]).startswith(".allow")


@pytest.mark.parametrize("rev", ["A", "B"])
@settings(max_examples=150, deadline=None)
@given(words=st.lists(st.integers(0, 0xFFFF), min_size=19, max_size=19), addresses=st.booleans())
def test_random_image_listing_reassembles_to_the_image(rev, words, addresses):
    tpp = TinyPixelProcessor(rev)
    image = words + [0x6003]  # slot 19 is always OUT R0
    listing = tpp.disassemble(image, addresses=addresses)
    program = tpp.assemble(listing, "listing.s")
    assert program.words == image
    assert program.image == image


@pytest.mark.parametrize("rev", ["A", "B"])
@settings(max_examples=50, deadline=None)
@given(words=st.lists(st.sampled_from(
    # words that write each hardware register, mixed with clean ones
    [0x1C83, 0x0D07, 0x1E23, 0x5FE3, 0x2BFF, 0x1083, 0x8CC1, 0x0003, 0x0000]),
    min_size=1, max_size=19))
def test_listing_of_hardware_register_writes_reassembles(rev, words):
    tpp = TinyPixelProcessor(rev)
    program = tpp.assemble(tpp.disassemble(words), "listing.s")
    assert program.words == words
