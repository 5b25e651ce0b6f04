"""Images without an entry table (issue 12): the upstream examples ship an Instructions.mem whose
table is an older revision's, 10 words; any image's listing must re-assemble to the identical
image, table or not. The images here are ours, with that shape."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from shaderkit.isa import get
from shaderkit.isa.theia import NO_ENTRY_TABLE
from conftest import invoke_cli as invoke

THEIA = get("theia")
# An older revision's entry table: ten code addresses (the current table has eleven).
OLD_TABLE = [0x800A, 0x8010, 0x8018, 0x8020, 0x8028, 0x8030, 0x8038, 0x8040, 0x8048, 0x8050]


def test_a_ten_word_table_lists_as_a_bare_image_and_reassembles_to_itself():
    text = THEIA.disassemble(OLD_TABLE)
    assert text.splitlines()[0].startswith(NO_ENTRY_TABLE)
    assert THEIA.assemble(text).image == OLD_TABLE


def test_the_upstream_file_format_round_trips_byte_for_byte(tmp_path):
    original = tmp_path / "Instructions.mem"
    listing, again = tmp_path / "old.s", tmp_path / "again.mem"
    assert invoke("asm", "-m", "theia", _source_of(OLD_TABLE, tmp_path), "-f", "imem", "-o", original).exit_code == 0
    assert invoke("disasm", "-m", "theia", original, "-o", listing).exit_code == 0
    assert invoke("asm", "-m", "theia", listing, "-f", "imem", "-o", again).exit_code == 0
    assert again.read_bytes() == original.read_bytes()
    assert int(original.read_text().split()[0], 16) == 2 * len(OLD_TABLE)  # the count of 32-bit halves: ten words


def _source_of(words, tmp_path):
    source = tmp_path / "table.s"
    source.write_text(f"{NO_ENTRY_TABLE}\n" + "".join(f".word 0x{word:x}\n" for word in words))
    return source


def test_a_program_with_the_current_table_keeps_it():
    program = THEIA.assemble("ADD R1 R2 R3\n")
    assert len(program.image) == 11 + 1 and program.entries is not None
    assert THEIA.assemble(THEIA.disassemble(program.image)).image == program.image


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, (1 << 64) - 1), min_size=1, max_size=24))
def test_any_image_listing_reassembles_to_the_identical_image(words):
    assert THEIA.assemble(THEIA.disassemble(words)).image == words
