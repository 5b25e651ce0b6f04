"""RSX ucode bytes <-> words: one implementation, core.binfmt's, whoever converts.

The RSX package used to carry its own half-swap and word packing (``container.ucode_to_words``,
``words_to_ucode``); every caller now goes through ``binfmt.read_words``/``write_words`` with the
byte order ``container.UCODE_BYTE_ORDER`` names for the program's kind.
"""

from __future__ import annotations

import pytest

from shaderkit.core import binfmt
from shaderkit.isa import get
from shaderkit.isa.rsx import container
from shaderkit.isa.rsx import image as images
from shaderkit.isa.rsx.container import UCODE_BYTE_ORDER, ProgramKind
from conftest import golden_dir

GOLDEN = golden_dir("rsx")
VERTEX, FRAGMENT = ProgramKind.VERTEX, ProgramKind.FRAGMENT


@pytest.fixture
def conversions(monkeypatch):
    """Every binfmt raw conversion made while the test runs, as (direction, byte order)."""
    seen = []
    read, write = binfmt.read_words, binfmt.write_words

    def reading(data, fmt, **options):
        seen.append(("read", fmt, options["word_bits"], options.get("byte_order")))
        return read(data, fmt, **options)

    def writing(words, fmt, **options):
        seen.append(("write", fmt, options["word_bits"], options.get("byte_order")))
        return write(words, fmt, **options)

    monkeypatch.setattr(binfmt, "read_words", reading)
    monkeypatch.setattr(binfmt, "write_words", writing)
    return seen


def test_the_duplicates_are_gone():
    for name in ("ucode_to_words", "words_to_ucode", "_swap_halves"):
        assert not hasattr(container, name), name
        assert not hasattr(images, name), name


def test_the_byte_orders_are_the_specs():
    # spec/rsx.md section 1: VP words big-endian; FP words (code and literals) half-word swapped.
    assert UCODE_BYTE_ORDER == {VERTEX: "big", FRAGMENT: "big-halfswap"}
    assert container.UCODE_WORD_BITS == 32


@pytest.mark.parametrize("kind, name", [(VERTEX, "vp_dots.vpo.bin"), (FRAGMENT, "fp_arith_const.fpo.bin")])
def test_bare_ucode_is_read_and_written_by_binfmt(conversions, kind, name):
    data = (GOLDEN / "asm" / name).read_bytes()
    image = images.read_raw(data, kind, name)
    assert conversions == [("read", "raw", 32, UCODE_BYTE_ORDER[kind])]
    assert images.write_raw(image) == data
    assert get("rsx").containers["raw"][0](image) == data  # the CLI's raw writer
    assert conversions[1:] == [("write", "raw", 32, UCODE_BYTE_ORDER[kind])] * 2


@pytest.mark.parametrize("kind, name", [(VERTEX, "gs_gcm_cube_0x208dc.vpo"), (FRAGMENT, "gs_gcm_cube_0x38f80.fpo")])
def test_container_ucode_is_converted_by_binfmt(conversions, kind, name):
    data = (GOLDEN / "real" / name).read_bytes()
    image = images.read_container_image(data, name)
    assert ("read", "raw", 32, UCODE_BYTE_ORDER[kind]) in conversions
    conversions.clear()
    assert images.write_container_image(image, kind) == data
    assert conversions == [("write", "raw", 32, UCODE_BYTE_ORDER[kind])]


def test_run_loads_bare_ucode_through_binfmt(conversions):
    path = GOLDEN / "asm" / "fp_kil.fpo.bin"
    get("rsx").load_file(str(path), FRAGMENT)
    assert ("read", "raw", 32, "big-halfswap") in conversions
