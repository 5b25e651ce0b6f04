"""RSX microcode in core's generic containers (raw, hex, readmemh, ihex, c) through the real CLI.

A word is one normalised 32-bit ucode word (spec/rsx.md section 1: the ``*.words.txt`` words);
raw and Intel HEX hold the bytes as RSX memory does: a vertex program's words big-endian, a
fragment program's big-endian with the two 16-bit halves of each word swapped. The expected
files below are built by hand from the corpus words (cgcomp's), never from our writers.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from conftest import assert_one_line_error, golden_dir, invoke_cli

ASM = golden_dir("rsx", "asm")
CUBE = Path(__file__).resolve().parents[2] / "examples" / "theia" / "models" / "cube.obj"
GENERIC = ("raw", "hex", "readmemh", "ihex", "c")
SUFFIX = {"raw": "bin", "hex": "hex", "readmemh": "mem", "ihex": "ihex", "c": "c"}
MACHINE = {"vp": "rsx-vp", "fp": "rsx-fp"}

# Vertex and fragment programs; the fragment ones read literal constants (the slot after the
# instruction), fp_if_else and vp_branch have flow.
PROGRAMS = ["vp_mvp_color", "vp_branch", "vp_dots", "fp_depth_out", "fp_arith_const", "fp_if_else"]

# The corpus words (tests/golden/rsx/asm/*.words.txt, cgcomp's ucode after normalisation).
MVP_COLOR_WORDS = [
    0x401F9C6C, 0x01C0000D, 0x8106C0C3, 0x60411F80,
    0x401F9C6C, 0x01C0100D, 0x8106C0C3, 0x60409F80,
    0x401F9C6C, 0x01C0200D, 0x8106C0C3, 0x60405F80,
    0x401F9C6C, 0x01C0300D, 0x8106C0C3, 0x60403F80,
    0x401F9C6C, 0x0040030D, 0x8106C083, 0x6041FF85,
]
DEPTH_OUT_WORDS = [  # MULR with the literal slot {0.5, 0, 0, 1} after it, then MOVR
    0x02008802, 0x1C9C0001, 0x00000002, 0xBFE1C800,
    0x3F000000, 0x00000000, 0x00000000, 0x3F800000,
    0x01003E01, 0x1C9DC801, 0x0001C800, 0x0001C800,
]
KNOWN = {"vp_mvp_color": MVP_COLOR_WORDS, "fp_depth_out": DEPTH_OUT_WORDS}


def source(name: str) -> Path:
    return ASM / f"{name}.{name[:2]}.txt"


def ucode(name: str) -> Path:
    return ASM / f"{name}.{name[:2]}o.bin"


def succeeded(result):
    assert result.exit_code == 0, (result.output, result.exception)
    return result


# --- the bytes, by hand ------------------------------------------------------------------------


def memory_bytes(word: int, fragment: bool) -> bytes:
    """spec/rsx.md section 1: an FP word is stored with its 16-bit halves swapped."""
    if fragment:
        word = (word >> 16) | (word & 0xFFFF) << 16
    return bytes([word >> 24, word >> 16 & 0xFF, word >> 8 & 0xFF, word & 0xFF])


def expected_raw(words: list[int], fragment: bool) -> bytes:
    return b"".join(memory_bytes(word, fragment) for word in words)


def expected_ihex(data: bytes) -> bytes:
    lines = []
    for address in range(0, len(data), 16):
        chunk = data[address:address + 16]
        record = bytes([len(chunk), address >> 8, address & 0xFF, 0]) + chunk
        lines.append(":" + record.hex().upper() + f"{(0x100 - sum(record) % 0x100) % 0x100:02X}\n")
    return ("".join(lines) + ":00000001FF\n").encode()


def expected_readmemh(words: list[int]) -> bytes:
    return (f"// shaderkit readmemh: {len(words)} words of 32 bits\n"
            + "".join(f"{word:08X}\n" for word in words)).encode()


def expected_c(words: list[int], name: str) -> bytes:
    rows = ["    " + " ".join(f"0x{word:08X}," for word in words[i:i + 8]) + "\n" for i in range(0, len(words), 8)]
    return (f"#include <stdint.h>\n\nconst uint32_t {name}[{len(words)}] = {{\n" + "".join(rows) + "};\n").encode()


def expected_hex(words: list[int]) -> bytes:
    return "".join(f"{slot:03d}: " + " ".join(f"{word:08x}" for word in words[slot * 4:slot * 4 + 4]) + "\n"
                   for slot in range(len(words) // 4)).encode()


def expected_file(name: str, fmt: str) -> bytes:
    words, fragment = KNOWN[name], name.startswith("fp_")
    return {"raw": lambda: expected_raw(words, fragment), "ihex": lambda: expected_ihex(expected_raw(words, fragment)),
            "readmemh": lambda: expected_readmemh(words), "c": lambda: expected_c(words, name),
            "hex": lambda: expected_hex(words)}[fmt]()


def test_the_hand_derived_memory_bytes_are_cgcomps():
    for name in KNOWN:
        assert expected_raw(KNOWN[name], name.startswith("fp_")) == ucode(name).read_bytes()
    assert expected_hex(DEPTH_OUT_WORDS) == (ASM / "fp_depth_out.fpo.words.txt").read_bytes()
    # spec/rsx.md section 1: the float 0.5 in an FP literal slot is stored as 00 00 3F 00.
    assert expected_raw(DEPTH_OUT_WORDS, True)[16:20] == bytes.fromhex("00003f00")


@pytest.mark.parametrize("fmt", GENERIC)
@pytest.mark.parametrize("name", sorted(KNOWN))
def test_asm_writes_exactly_the_hand_derived_bytes(tmp_path, name, fmt):
    target = tmp_path / f"out.{SUFFIX[fmt]}"
    succeeded(invoke_cli("asm", "-m", MACHINE[name[:2]], source(name), "-f", fmt, "-o", target))
    assert target.read_bytes() == expected_file(name, fmt)


@pytest.mark.parametrize("fmt", GENERIC)
@pytest.mark.parametrize("name", sorted(KNOWN))
def test_disasm_reads_the_hand_derived_bytes_as_the_program(tmp_path, name, fmt):
    machine = MACHINE[name[:2]]
    reference = succeeded(invoke_cli("disasm", "-m", machine, ucode(name), "-f", "raw")).stdout
    given = tmp_path / f"given.{SUFFIX[fmt]}"
    given.write_bytes(expected_file(name, fmt))
    assert succeeded(invoke_cli("disasm", "-m", machine, given, "-f", fmt)).stdout == reference
    assert succeeded(invoke_cli("disasm", "-m", machine, given)).stdout == reference  # format from the name


# --- round trips -------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", GENERIC)
@pytest.mark.parametrize("name", PROGRAMS)
def test_asm_then_disasm_gives_the_same_listing_in_every_format(tmp_path, name, fmt):
    machine = MACHINE[name[:2]]
    reference = succeeded(invoke_cli("disasm", "-m", machine, ucode(name), "-f", "raw")).stdout
    binary = tmp_path / f"program.{SUFFIX[fmt]}"
    succeeded(invoke_cli("asm", "-m", machine, source(name), "-f", fmt, "-o", binary))
    listing = succeeded(invoke_cli("disasm", "-m", machine, binary, "-f", fmt)).stdout
    assert listing == reference
    assert succeeded(invoke_cli("disasm", "-m", machine, binary)).stdout == reference
    # The listing assembles back to the same file (same stem: C names its array after the source).
    again = tmp_path / "again" / source(name).name
    again.parent.mkdir()
    again.write_text(listing)
    second = tmp_path / f"second.{SUFFIX[fmt]}"
    succeeded(invoke_cli("asm", "-m", machine, again, "-f", fmt, "-o", second))
    assert second.read_bytes() == binary.read_bytes()


@pytest.mark.parametrize("fmt", GENERIC)
def test_rsx_assembles_either_kind_into_every_format(tmp_path, fmt):
    for name in ("vp_mvp_color", "fp_depth_out"):
        result = succeeded(invoke_cli("asm", "-m", "rsx", source(name), "-f", fmt))
        assert result.stdout_bytes == expected_file(name, fmt)


@pytest.mark.parametrize("order", ["big", "little"])
@pytest.mark.parametrize("fmt", ["raw", "ihex"])
def test_an_explicit_byte_order_stores_the_words_in_it(tmp_path, fmt, order):
    target = tmp_path / f"out.{SUFFIX[fmt]}"
    succeeded(invoke_cli("asm", "-m", "rsx-fp", source("fp_depth_out"), "-f", fmt, "--byte-order", order,
                         "-o", target))
    data = b"".join(word.to_bytes(4, order) for word in DEPTH_OUT_WORDS)  # no half swap
    assert target.read_bytes() == (data if fmt == "raw" else expected_ihex(data))
    reference = succeeded(invoke_cli("disasm", "-m", "rsx-fp", ucode("fp_depth_out"))).stdout
    listing = invoke_cli("disasm", "-m", "rsx-fp", target, "-f", fmt, "--byte-order", order)
    assert succeeded(listing).stdout == reference


def test_rsx_hex_layout_is_detected_without_a_telling_name(tmp_path):
    target = tmp_path / "program.out"
    target.write_bytes((ASM / "fp_depth_out.fpo.words.txt").read_bytes())
    reference = succeeded(invoke_cli("disasm", "-m", "rsx-fp", ucode("fp_depth_out"))).stdout
    assert succeeded(invoke_cli("disasm", "-m", "rsx-fp", target)).stdout == reference


# --- runs and decompiling read them too --------------------------------------------------------


@pytest.mark.parametrize("fmt", ["ihex", "readmemh", "c"])
def test_fullscreen_run_of_a_generic_container_matches_the_raw_ucode(tmp_path, fmt):
    program = tmp_path / f"program.{SUFFIX[fmt]}"
    succeeded(invoke_cli("asm", "-m", "rsx-fp", source("fp_arith_const"), "-f", fmt, "-o", program))
    outputs = []
    for given in (ucode("fp_arith_const"), program):
        target = tmp_path / f"{given.suffix[1:]}.npy"
        succeeded(invoke_cli("run", "-m", "rsx-fp", given, "--fullscreen", "8x8", "-o", target))
        outputs.append(np.load(target))
    np.testing.assert_array_equal(outputs[0], outputs[1])


def test_pipeline_run_takes_programs_in_generic_containers(tmp_path):
    vertex, fragment = tmp_path / "vp.ihex", tmp_path / "fp.c"
    succeeded(invoke_cli("asm", "-m", "rsx", source("vp_mvp_color"), "-f", "ihex", "-o", vertex))
    succeeded(invoke_cli("asm", "-m", "rsx", source("fp_arith_const"), "-f", "c", "-o", fragment))
    pictures = []
    for vp, fp in ((source("vp_mvp_color"), source("fp_arith_const")), (vertex, fragment)):
        target = tmp_path / f"{len(pictures)}.npy"
        succeeded(invoke_cli("run", "-m", "rsx", "--vp", vp, "--fp", fp, "--mesh", CUBE, "--size", "16x16",
                             "--const", "c[0]=1,0,0,0", "--const", "c[1]=0,1,0,0", "--const", "c[2]=0,0,1,0",
                             "--const", "c[3]=0,0,0,1", "-o", target))
        pictures.append(np.load(target))
    np.testing.assert_array_equal(pictures[0], pictures[1])


def test_decompile_reads_a_generic_container(tmp_path):
    program = tmp_path / "program.mem"
    succeeded(invoke_cli("asm", "-m", "rsx-fp", source("fp_arith_const"), "-f", "readmemh", "-o", program))
    reference = succeeded(invoke_cli("decompile", "-m", "rsx-fp", ucode("fp_arith_const"))).stdout
    assert succeeded(invoke_cli("decompile", "-m", "rsx-fp", program)).stdout == reference


# --- bad input: one line, exit code 2 ----------------------------------------------------------


def written(tmp_path, name: str, data: bytes | str) -> Path:
    path = tmp_path / name
    path.write_bytes(data.encode() if isinstance(data, str) else data)
    return path


FP_RAW = expected_raw(DEPTH_OUT_WORDS, True)


@pytest.mark.parametrize("file, data, fmt, fragments", [
    # truncated files
    ("cut.bin", FP_RAW[:-4], "raw", ["cut.bin", "not a whole number of 16-byte slots"]),
    ("cut.ihex", expected_ihex(FP_RAW)[:-12], "ihex", ["cut.ihex", "missing end-of-file record"]),
    ("cut.ihex", expected_ihex(FP_RAW[:-3]), "ihex", ["cut.ihex", "only partly defined"]),
    ("cut.ihex", expected_ihex(FP_RAW[:-4]), "ihex", ["cut.ihex", "not a whole number of 16-byte slots"]),
    ("cut.mem", expected_readmemh(DEPTH_OUT_WORDS[:4]), "readmemh", ["cut.mem", "literal slot is missing"]),
    ("cut.mem", expected_readmemh(DEPTH_OUT_WORDS[:5]), "readmemh", ["cut.mem", "not a whole number of 16-byte"]),
    ("cut.c", expected_c(DEPTH_OUT_WORDS[:6], "p"), "c", ["cut.c", "not a whole number of 16-byte slots"]),
    ("cut.c", expected_c(DEPTH_OUT_WORDS, "p")[:-30], "c", ["cut.c", "no C array initialiser"]),
    ("cut.hex", "000: 02008802 1c9c0001\n", "hex", ["cut.hex", "not a whole number of 16-byte slots"]),
    # a file in another format than -f says
    ("p.bin", FP_RAW, "ihex", ["p.bin", "not UTF-8 text"]),
    ("p.ihex", expected_ihex(FP_RAW), "readmemh", ["p.ihex:1", "not a hex word"]),
    ("p.mem", expected_readmemh(DEPTH_OUT_WORDS), "c", ["p.mem", "no C array initialiser"]),
    ("p.c", expected_c(DEPTH_OUT_WORDS, "p"), "hex", ["p.c", "hex words"]),
    ("p.mem", expected_readmemh(DEPTH_OUT_WORDS), "raw", ["p.mem", "not a whole number of 16-byte slots"]),
    # an assembly source where ucode belongs
    ("p.fp.txt", source("fp_depth_out").read_text(), None, ["p.fp.txt", "assembly text", "asm -m rsx-fp"]),
])
def test_bad_files_are_one_line_errors(tmp_path, file, data, fmt, fragments):
    path = written(tmp_path, file, data)
    assert_one_line_error(invoke_cli("disasm", "-m", "rsx-fp", path, *(["-f", fmt] if fmt else [])), *fragments)


@pytest.mark.parametrize("fmt", GENERIC)
def test_bare_formats_need_a_kind(tmp_path, fmt):
    path = written(tmp_path, f"p.{SUFFIX[fmt]}", expected_file("fp_depth_out", fmt))
    assert_one_line_error(invoke_cli("disasm", "-m", "rsx", path, "-f", fmt), "use -m rsx-vp or -m rsx-fp")


def test_an_explicit_byte_order_on_a_ragged_file_is_one_line(tmp_path):
    path = written(tmp_path, "p.bin", FP_RAW[:-2])
    assert_one_line_error(invoke_cli("disasm", "-m", "rsx-fp", path, "--byte-order", "little"),
                          "not a whole number of 4-byte words")


def test_a_format_rsx_does_not_have_is_refused(tmp_path):
    result = invoke_cli("asm", "-m", "rsx-fp", source("fp_depth_out"), "-f", "imem")
    assert_one_line_error(result, "format 'imem' is not available for rsx-fp", "readmemh", "ihex", "fpo")
