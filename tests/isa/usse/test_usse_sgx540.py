"""``--core sgx540``: the older USSE family's opcode map (spec/usse.md §2.2). Every instruction the
map names decodes to its name from the words with only its opcode and selector bits set; the
selector values and opcodes the map calls invalid are data; any words read back as themselves."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from shaderkit.cli import main
from shaderkit.core.diagnostics import InputError
from shaderkit.core.model import bit_pattern
from shaderkit.isa.usse import make_isa
from shaderkit.isa.usse.sgx540 import OPCODES, pattern_of

ISA = make_isa(core="sgx540")


def words_of(value: int) -> list[int]:
    return [value & 0xFFFFFFFF, value >> 32]


@pytest.mark.parametrize("major, mnemonic, selectors, named", OPCODES, ids=[entry[1] for entry in OPCODES])
def test_each_named_instruction_decodes_from_its_opcode_and_selector(major, mnemonic, selectors, named):
    _, value = bit_pattern(pattern_of(major, selectors))
    instruction = ISA.decode(words_of(value))
    assert ISA.format(instruction) == mnemonic
    assert ISA.encode(ISA.parse(mnemonic)) == tuple(words_of(value))


@pytest.mark.parametrize("value, why", [
    (0x02 << 59 | 3 << 41, "DP's selector 3 is invalid"),
    (0x03 << 59 | 2 << 41, "MIN/MAX selector 2 is invalid"),
    (0x16 << 59 | 1 << 52, "ADIF/BILIN/FIRV selector 1 is invalid"),
    (0x1A << 59, "opcode 0x1a is invalid"),
    (0x1B << 59, "opcode 0x1b is invalid"),
    (0x1F << 59 | 6 << 38, "flow control sub-op 6 is invalid"),
    (0x1F << 59 | 3 << 52 | 2 << 56, "visibility sub-op 2 is invalid"),
])
def test_what_the_map_calls_invalid_is_data(value, why):
    assert ISA.decode(words_of(value)).is_data, why


def test_named_fields_and_the_other_bits_print_as_assignments():
    _, value = bit_pattern(pattern_of(0x1C, {"w1[9:8]": 1}))  # smpbias
    value |= 2 << 42 | 1 << 39 | 3 << 32 | 0x55
    text = ISA.format(ISA.decode(words_of(value)))
    assert text == "smpbias coord_dim=0x2 dest_type=0x1 drc=0x3 bits=0x55"
    assert ISA.encode(ISA.parse(text)) == tuple(words_of(value))


@given(st.integers(0, (1 << 64) - 1))
def test_any_words_read_back(value):
    instruction = ISA.decode(words_of(value))
    assert ISA.encode(instruction) == tuple(words_of(value))
    if not instruction.is_data:
        assert ISA.parse(ISA.format(instruction)) == instruction


def test_the_older_family_has_no_emulator_and_the_cli_selects_it(tmp_path):
    with pytest.raises(InputError, match="--core sgx540 has no emulator: the public knowledge"):
        ISA.machine([0, 0xF8000140])
    with pytest.raises(InputError, match="unknown USSE core 'sgx999'"):
        make_isa(core="sgx999")
    words = tmp_path / "nop.hex"
    words.write_text("00000000\nf8000140\n")
    result = CliRunner().invoke(main, ["disasm", "-m", "usse", "--core", "sgx540", str(words), "--no-addresses"])
    assert result.exit_code == 0 and result.output.strip() == "nop"
