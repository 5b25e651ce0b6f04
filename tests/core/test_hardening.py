"""Issue 10, the ISA-independent part: inputs that never end, values that grow without bound,
numbers Python cannot print, option values at the edges and regular expressions that could
backtrack. Each case ends in a located diagnostic or a one-line error, quickly."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from shaderkit.core import asm as asm_module
from shaderkit.core.asm import Assembler
from shaderkit.core.diagnostics import Diagnostic, DiagnosticError, InputError, SourceError
from shaderkit.core.expr import MAX_VALUE_BITS, evaluate
from shaderkit.core.options import parse_numbers, parse_size
from shaderkit.isa.theia.spec import description as theia_description
from shaderkit.isa.tpp.spec import description as tpp_description

NOP = 0x0003


@pytest.fixture(scope="module")
def assembler() -> Assembler:
    return Assembler(tpp_description("B"))


def errors_of(assembler: Assembler, source: str, filename: str = "t.s") -> list[Diagnostic]:
    with pytest.raises(DiagnosticError) as caught:
        assembler.assemble(source, filename)
    return caught.value.diagnostics


# --- .include of files that never end, block or cannot be named ------------------------------

@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_including_a_device_is_an_error_at_the_include_line(assembler, tmp_path, device):
    main = tmp_path / "main.s"
    [error] = errors_of(assembler, f'NOP\n  .include "{device}"\n', str(main))
    assert (error.file, error.line, error.col) == (str(main), 2, 12)
    assert error.message == f"cannot include '{device}': " + error.message.split(": ", 1)[1]
    assert "not a regular file" in error.message


def test_including_a_fifo_is_refused_without_blocking(tmp_path):
    fifo = tmp_path / "pipe.s"
    os.mkfifo(fifo)
    main = tmp_path / "main.s"
    main.write_text('.include "pipe.s"\nNOP\n')
    # A subprocess, so a regression (open() blocking for ever) fails the test instead of hanging it.
    script = ("import sys\nfrom shaderkit.core.asm import Assembler\nfrom shaderkit.isa.tpp.spec import description\n"
              "from shaderkit.core.diagnostics import DiagnosticError\n"
              "try:\n    Assembler(description('B')).assemble(open(sys.argv[1]).read(), sys.argv[1])\n"
              "except DiagnosticError as error:\n    print(error.render())\n")
    result = subprocess.run([sys.executable, "-c", script, str(main)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(f"{main}:1:10: error: cannot include 'pipe.s': not a regular file")


def test_an_include_name_with_a_nul_character_is_a_diagnostic(assembler):
    [error] = errors_of(assembler, 'NOP\n.include "a\0b.s"\n')
    assert (error.line, error.col, error.length) == (2, 10, len('"a\0b.s"'))
    assert error.message == "a file name cannot contain a NUL character"


def test_an_include_past_the_input_size_cap_is_refused_before_it_is_read(assembler, tmp_path):
    with open(tmp_path / "huge.s", "wb") as handle:
        handle.truncate(300 * 1024 * 1024)  # sparse: no disk space used
    [error] = errors_of(assembler, '.include "huge.s"\n', str(tmp_path / "main.s"))
    assert error.message.startswith("cannot include 'huge.s': 314,572,800 bytes is more than the ")


def fan_out(folder: Path, levels: int, copies: int, leaf: str) -> Path:
    """level0.s includes level1.s ``copies`` times, which includes level2.s ``copies`` times, ..."""
    for level in range(levels):
        (folder / f"level{level}.s").write_text(f'.include "level{level + 1}.s"\n' * copies)
    (folder / f"level{levels}.s").write_text(leaf)
    return folder / "level0.s"


def test_includes_that_multiply_at_every_level_are_cut_off(assembler, tmp_path):
    # 10**8 include reads without a bound; none of them is a cycle.
    main = fan_out(tmp_path, levels=8, copies=10, leaf="")
    started = time.perf_counter()
    errors = errors_of(assembler, main.read_text(), str(main))
    assert time.perf_counter() - started < 30  # hang guard: unbounded, this ran for hours
    assert [error.message for error in errors] == [
        f"more than {asm_module.MAX_INCLUDES:,} files included in all (a file included repeatedly at every level?)"]


def test_included_text_is_bounded_in_total(assembler, tmp_path, monkeypatch):
    monkeypatch.setattr(asm_module, "MAX_INCLUDED_CHARACTERS", 10_000)
    main = fan_out(tmp_path, levels=2, copies=10, leaf="NOP\n" * 200)  # 100 copies of 800 characters
    errors = errors_of(assembler, main.read_text(), str(main))
    assert [error.message for error in errors] == ["included files add up to more than 10,000 characters"]
    assert Path(errors[0].file).name == "level1.s"


# --- constant folding with bounded values ----------------------------------------------------

def doubling_chain(count: int) -> str:
    """A0 = 2, A1 = A0*A0, ...: A(k) = 2**(2**k), wider than memory long before k = 40."""
    return "A0 = 2\n" + "".join(f"A{k} = A{k - 1}*A{k - 1}\n" for k in range(1, count))


@pytest.mark.parametrize("description, first_too_wide", [
    (tpp_description("B"), 4),   # A4 = 2**16 needs 17 bits; TPP words have 16
    (theia_description(), 6),    # A6 = 2**64 needs 65 bits; THEIA instructions have 64
])
def test_a_doubling_chain_fails_fast_at_the_first_constant_wider_than_the_isa(description, first_too_wide):
    started = time.perf_counter()
    errors = errors_of(Assembler(description), doubling_chain(40))
    assert time.perf_counter() - started < 10  # hang guard: unbounded, this filled memory in 20-40 s
    first = errors[0]
    assert (first.line, first.col) == (first_too_wide + 1, len(f"A{first_too_wide} = ") + 1)
    assert first.message == (f"'A{first_too_wide}' is {2 ** first_too_wide + 1} bits wide, wider than any field "
                             f"or word of {description.name} ({description.instruction_bits} bits)")
    # Later constants are reported on their own lines; A9 = 2**512 passes the expression limit.
    messages = {error.line: error.message for error in errors}
    assert all(messages[k + 1].startswith(f"'A{k}' is ") for k in range(first_too_wide, 9))
    assert messages[10] == f"value too large: {MAX_VALUE_BITS + 1} bits, where expressions allow {MAX_VALUE_BITS}"


def test_a_constant_as_wide_as_the_isa_is_accepted(assembler):
    program = assembler.assemble("FULL = 0xFFFF\nLOW = -0xFFFF\n.word FULL\n", "t.s")
    assert program.symbols["FULL"] == 0xFFFF and program.words == [0xFFFF]


@pytest.mark.parametrize("text, column, length", [
    ("A * A * A", 1, 9),                   # A * A is 401 bits; times A, 601
    ("1 + A * A * A", 5, 9),               # the caret covers the product, not the sum
    ("(1 << 256) * (1 << 256)", 1, 23),
    ("0x" + "f" * 200, 1, 202),            # a hexadecimal literal Python reads happily: 800 bits
    ("2 + -A * A * A", 5, 10),
])
def test_an_expression_value_wider_than_the_limit_is_an_error(text, column, length):
    values = {"A": 1 << 200}
    with pytest.raises(SourceError) as caught:
        evaluate(text, values.get)
    assert caught.value.message.startswith("value too large: ")
    assert caught.value.message.endswith(f"where expressions allow {MAX_VALUE_BITS}")
    assert (caught.value.col, caught.value.length) == (column, length)


def test_the_widest_value_an_expression_allows():
    half = f"(1 << 256) * (1 << {MAX_VALUE_BITS - 257})"
    assert evaluate(f"{half} - 1 + {half}", lambda name: None) == (1 << MAX_VALUE_BITS) - 1


@pytest.mark.parametrize("text", ["1 << 100000000000", "1 >> 99999999999999", "1 << -1"])
def test_huge_shift_counts_are_refused_without_computing(text):
    with pytest.raises(SourceError, match=r"shift count .* out of range \(0 to 256\)"):
        evaluate(text, lambda name: None)


def test_power_is_not_an_operator():
    with pytest.raises(SourceError, match="only integer arithmetic"):
        evaluate("2 ** 100000000", lambda name: None)


# --- integers past Python's 4,300-digit limit ------------------------------------------------

@pytest.mark.parametrize("prefix", ["X = ", ".equ X ", ".word ", "SET R0 #", "X = 1 + "])
def test_a_decimal_literal_past_python_s_digit_limit_is_a_diagnostic(assembler, prefix):
    digits = "9" * 5000
    [error] = errors_of(assembler, f"{prefix}{digits}\n")
    assert error.message == f"value too large: a number of 5000 digits, where expressions allow {MAX_VALUE_BITS} bits"
    assert (error.line, error.col, error.length) == (1, len(prefix) + 1, 5000)


# --- option values at the edges --------------------------------------------------------------

@pytest.mark.parametrize("text", ["²x2", "2x²", "١x2", "9" * 5000 + "x2", "0x2", "4097x1", "+2x2", " 2x2", "2 x2"])
def test_parse_size_refuses_anything_but_ascii_digits_in_range(text):
    with pytest.raises(InputError, match=re.escape(f"--size needs WIDTHxHEIGHT between 1 and 4096, not '{text}'")):
        parse_size(text, "--size")


def test_parse_size_accepts_the_edges():
    assert parse_size("1x4096", "--size") == (1, 4096)
    assert parse_size("64X48", "--size") == (64, 48)


@pytest.mark.parametrize("text", ["1e999,0,0", "nan,0,0", "1,2", "9" * 5000 + ",0,0"])
def test_parse_numbers_refuses_non_finite_and_miscounted(text):
    with pytest.raises(InputError, match="needs 3 numbers"):
        parse_numbers(text, 3, "--camera")


@pytest.mark.parametrize("text", ["1e39,0,0", "0,-3.5e38,0"])
def test_parse_numbers_for_float32_refuses_what_float32_cannot_hold(text):
    assert parse_numbers(text, 3, "--input") == tuple(float(part) for part in text.split(","))
    with pytest.raises(InputError, match=re.escape(f"--input {text}: ") + r".* is past the float32 range"):
        parse_numbers(text, 3, "--input", float32=True)


def test_parse_numbers_for_float32_accepts_its_largest_value():
    largest = float(np.finfo(np.float32).max)
    assert parse_numbers(f"{largest!r},-{largest!r},0", 3, "--input", float32=True) == (largest, -largest, 0.0)


# --- regular expressions applied to user input -----------------------------------------------

def hang_guarded(function, *arguments) -> float:
    started = time.perf_counter()
    try:
        function(*arguments)
    except (SourceError, DiagnosticError, InputError, ValueError):
        pass
    return time.perf_counter() - started


@pytest.mark.parametrize("line", [
    "a" * 20000 + "!",                          # label/assignment patterns on a long name
    "a." * 10000 + ":",
    " " * 20000 + "x",
    ".include" + " " * 20000 + "x",
    ".equ " + "x" * 20000 + " " * 20000 + ",",
    "ADD" + " " * 20000 + "R0" + " " * 20000 + "!",
])
def test_assembler_patterns_are_linear_on_long_lines(assembler, line):
    # Quadratic or exponential backtracking would take minutes on 40,000 characters.
    assert hang_guarded(assembler.assemble, line + "\n", "t.s") < 10


def test_c_array_comments_are_blanked_in_linear_time():
    from shaderkit.core.binfmt import read_words
    # 200 KB of unclosed '/*': the former /\*.*?\*/ pattern rescanned to the end at each one (30 s).
    started = time.perf_counter()
    with pytest.raises(InputError, match=r"x\.c:1: unterminated /\* comment"):
        read_words(b"/* x " * 40000, "c", word_bits=16, source="x.c")
    assert time.perf_counter() - started < 10
    # Comments still vanish as before, line numbers intact.
    text = b"// a /* b\nunsigned short w[] = { /* 1, */ 2, // 3,\n 4 };\n"
    assert read_words(text, "c", word_bits=16, source="x.c") == [2, 4]


# --- NumPy warnings in the shared mesh and raster code ---------------------------------------

def cube_obj(scale: float) -> str:
    corners = [(x, y, z) for x in (-1.0, 1.0) for y in (-1.0, 1.0) for z in (-1.0, 1.0)]
    lines = [f"v {x * scale!r} {y * scale!r} {z * scale!r}" for x, y, z in corners]
    faces = [(1, 2, 4, 3), (5, 7, 8, 6), (1, 5, 6, 2), (3, 4, 8, 7), (1, 3, 7, 5), (2, 6, 8, 4)]
    return "\n".join(lines + [f"f {a} {b} {c} {d}" for a, b, c, d in faces]) + "\n"


@pytest.mark.filterwarnings("error::RuntimeWarning")
@pytest.mark.parametrize("scale", [2.0 ** 1000, 2.0 ** -1000])
def test_computed_normals_do_not_depend_on_the_scale(tmp_path, scale):
    from shaderkit.render.mesh import load_obj
    (tmp_path / "unit.obj").write_text(cube_obj(1.0))
    (tmp_path / "scaled.obj").write_text(cube_obj(scale))  # near the float maximum / minimum
    unit, scaled = load_obj(tmp_path / "unit.obj"), load_obj(tmp_path / "scaled.obj")
    assert np.array_equal(unit.normals, scaled.normals)


def triangles(scale: float) -> np.ndarray:
    return np.array([[[-0.5, -0.5, 0.0, 1.0], [0.7, -0.4, 0.2, 1.5], [0.1, 0.8, -0.3, 0.9]],
                     [[-2.0, -0.5, 0.0, 1.0], [0.7, 3.0, 0.5, 1.0], [0.1, 0.2, -3.0, 0.5]]]) * scale


@pytest.mark.filterwarnings("error::RuntimeWarning")
@pytest.mark.parametrize("scale", [2.0 ** 1000, 2.0 ** -1000])
def test_rasterising_is_exactly_scale_free(scale):
    from shaderkit.render.raster import rasterize
    plain, scaled = rasterize(triangles(1.0), 32, 32), rasterize(triangles(scale), 32, 32)
    assert len(plain) > 100
    for name in ("x", "y", "triangle", "front"):
        assert np.array_equal(getattr(plain, name), getattr(scaled, name)), name
    assert np.array_equal(plain.barycentric, scaled.barycentric)
    assert np.array_equal(plain.depth, scaled.depth)
    assert np.array_equal(plain.inverse_w, scaled.inverse_w * scale)  # 1 / w scales inversely


@pytest.mark.filterwarnings("error::RuntimeWarning")
@pytest.mark.parametrize("bad", [np.inf, -np.inf, np.nan, 1.7e308])
def test_a_triangle_with_a_non_finite_or_extreme_coordinate_is_no_warning(bad):
    from shaderkit.render.raster import rasterize
    clip = triangles(1.0)
    clip[1, 2, 0] = bad
    good = rasterize(triangles(1.0)[:1], 32, 32)
    fragments = rasterize(clip, 32, 32)
    if not np.isfinite(bad):  # dropped; the other triangle is untouched
        assert set(fragments.triangle) == {0} and np.array_equal(fragments.x, good.x)
    assert np.isfinite(fragments.barycentric[fragments.triangle == 0]).all()


@pytest.mark.filterwarnings("error::RuntimeWarning")
def test_a_clipped_corner_far_outside_int64_is_no_warning():
    from shaderkit.render.raster import rasterize
    # Found by fuzzing: clipping this gives a corner whose window x is past int64.
    clip = np.array([[[-1e20, -3.4e38, 0.0, 3.4e38], [-1e20, 2.0, 2.0, 0.5], [-1.4e-45, -1.4e-45, 0.5, 1.0]]])
    rasterize(clip, 16, 16)
