"""The compiled fragment path against the interpreter, bit for bit (fragment_compiled, fragment_codegen).

Every program of the corpus (the golden/rsx asm and real fragment programs, the examples, the
bench program) and seeded random programs run both ways, as lanes (FragmentMachine.run) and as
full-screen images (run_fullscreen), on the README inputs and on inputs full of special values
(NaN, infinities, signed zeros, fp16 edges). Colour, depth, MRT, KIL flags: same bits, except that
two NaNs count as equal (see test_nan_payloads_agree_where_they_show for where they must agree;
a NaN made from literals alone is folded by LLVM at compile time to +NaN where NumPy gives the
processor's -NaN, docs/rsx.md).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from shaderkit.core.binfmt import read_words
from shaderkit.isa.rsx import fragment_compiled
from shaderkit.isa.rsx.assembly import assemble
from shaderkit.isa.rsx.bench import bench_program
from shaderkit.isa.rsx.container import UCODE_BYTE_ORDER, ProgramKind, read_container
from shaderkit.isa.rsx.fragment import (
    FP_INPUTS,
    FragmentMachine,
    fullscreen_inputs,
    run_fullscreen,
)
from shaderkit.isa.rsx.fragment_codegen import Layout
from shaderkit.isa.rsx.fragment_kernels import f16_to_f32, f32_to_f16
from shaderkit.isa.rsx.instruction import decode_program
from shaderkit.isa.rsx.textures import Texture
from conftest import golden_dir
from test_rsx_fragment import FLOW_PROGRAMS, R, H, Src, absolute, c, f, flow, op, program

F32 = np.float32
GOLDEN = golden_dir("rsx")
EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "rsx"
RAMP = Texture(np.linspace(0, 1, 8 * 8 * 4, dtype=F32).reshape(8, 8, 4))
TEXTURES = {0: RAMP, 1: Texture(np.linspace(1, -1, 4 * 6 * 4, dtype=F32).reshape(4, 6, 4), filter="nearest",
                                wrap="mirror")}
# Inputs that make the examples do real work (test_rsx_examples).
OVERRIDES = {"TEX1": (0.3, 0.4, 0.866, 0.0), "TEX2": (0.2, -0.1, -4.0, 1.0), "COL0": (0.9, 0.7, 0.5, 1.0)}
SPECIALS = np.array([0.0, -0.0, 1.0, -1.0, 0.5, np.nan, np.inf, -np.inf, 65504.0, 65520.0, -70000.0,
                     1e-8, -3e-5, 6e-8, 2.0, 1.999, 1e30, -0.75, 3.25, 127.5], dtype=F32)


def corpus() -> dict[str, object]:
    programs = {}
    for path in sorted((GOLDEN / "asm").glob("fp_*.fpo.bin")):
        words = read_words(path.read_bytes(), "raw", word_bits=32, byte_order=UCODE_BYTE_ORDER[ProgramKind.FRAGMENT])
        programs[path.name] = decode_program(words, ProgramKind.FRAGMENT, path.name)
    for path in sorted((GOLDEN / "real").glob("*.fpo")):
        container = read_container(path.read_bytes(), str(path))
        programs[path.name] = decode_program(container.words, ProgramKind.FRAGMENT, path.name)
    for path in sorted(EXAMPLES.glob("*.fp")):
        programs[path.name] = assemble(path.read_text(), str(path)).program
    programs["bench"] = bench_program()
    return programs


CORPUS = corpus()


def same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape:
        return False
    if a.dtype == bool:
        return bool(np.array_equal(a, b))
    a, b = np.ascontiguousarray(a, dtype=F32), np.ascontiguousarray(b, dtype=F32)
    return bool(np.all((a.view(np.uint32) == b.view(np.uint32)) | (np.isnan(a) & np.isnan(b))))


def assert_same_result(interpreted, compiled):
    assert same_bits(interpreted.killed, compiled.killed)
    assert same_bits(interpreted.color, compiled.color)
    assert same_bits(interpreted.depth, compiled.depth)
    for mine, theirs in zip(interpreted.mrt, compiled.mrt, strict=True):
        assert same_bits(mine, theirs)


def special_inputs(lanes: int, seed: int) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    inputs = {}
    for name in FP_INPUTS:
        values = rng.choice(SPECIALS, size=(lanes, 4))
        noise = rng.standard_normal((lanes, 4)).astype(F32) * F32(4.0)
        inputs[name] = np.where(rng.random((lanes, 4)) < 0.5, values, noise).astype(F32)
    return inputs


def both_ways(prog, inputs, grid, **options):
    machine = FragmentMachine(prog)
    interpreted = machine.interpret(inputs, grid=grid, **options)
    compiled = fragment_compiled.run_lanes(machine, inputs, grid=grid, **options)
    return machine, interpreted, compiled


# --- fp16 conversion ----------------------------------------------------------------------------

def test_fp16_rounding_matches_numpy_astype():
    # Every exponent and sign with many mantissas (ties, carries, subnormals, NaN payloads); the
    # whole 2**32 range was checked once when the routine was written.
    high = np.arange(1 << 16, dtype=np.uint32) << 16
    low = np.array([0, 1, 0x0FFF, 0x1000, 0x1001, 0x2000, 0x3000, 0x7FFF, 0x8000, 0xFFFF], dtype=np.uint32)
    words = (high[:, None] | low[None, :]).ravel()
    words = np.concatenate([words, np.random.default_rng(5).integers(0, 1 << 32, 200_000, dtype=np.uint64)
                            .astype(np.uint32)])
    values = words.view(F32)
    with np.errstate(over="ignore"):
        expected = values.astype(np.float16).view(np.uint16)
    converted = _convert(values)
    np.testing.assert_array_equal(converted, expected)


def test_fp16_widening_matches_numpy():
    halves = np.arange(1 << 16, dtype=np.int64)
    expected = halves.astype(np.uint16).view(np.float16).astype(F32)
    np.testing.assert_array_equal(_widen(halves).view(np.uint32), expected.view(np.uint32))


def _convert(values):
    from shaderkit.core.jit import jit

    @jit
    def convert(values, out):
        for i in range(values.size):
            out[i] = f32_to_f16(values[i])
    out = np.empty(values.size, dtype=np.int64)
    convert(values, out)
    return out


def _widen(halves):
    from shaderkit.core.jit import jit

    @jit
    def widen(halves, out):
        for i in range(halves.size):
            out[i] = f16_to_f32(halves[i])
    out = np.empty(halves.size, dtype=F32)
    widen(halves, out)
    return out


# --- the corpus -----------------------------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(CORPUS))
def test_corpus_program_compiled_equals_interpreted(name):
    prog = CORPUS[name]
    inputs = fullscreen_inputs(24, 18, OVERRIDES)
    machine, interpreted, compiled = both_ways(prog, inputs, (18, 24), textures=TEXTURES)
    assert compiled is not None, fragment_compiled.unsupported_reason(machine)
    assert_same_result(interpreted, compiled)
    _, interpreted, compiled = both_ways(prog, special_inputs(18 * 24, 1), (18, 24), textures=TEXTURES)
    assert_same_result(interpreted, compiled)
    _, interpreted, compiled = both_ways(prog, inputs, (18, 24), output_from_h0=True)
    assert_same_result(interpreted, compiled)


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_corpus_program_image_compiled_equals_interpreted(name, monkeypatch):
    prog = CORPUS[name]
    monkeypatch.setattr(fragment_compiled, "TILE_PIXELS", 64)  # many tiles, odd last band
    for width, height, overrides in ((21, 13, OVERRIDES), (16, 9, {})):
        image, killed = run_fullscreen(prog, width, height, overrides, textures=TEXTURES, compiled=False)
        machine = FragmentMachine(prog)
        done = fragment_compiled.run_image(machine, width, height, overrides, textures=TEXTURES)
        assert done is not None
        assert same_bits(image, done[0]) and same_bits(killed, done[1])


@pytest.mark.parametrize("name", ["bench", "fp_kil.fpo.bin", "fp_pack_unpack.fpo.bin"])
def test_tiles_on_numbas_pool_give_the_interpreters_image(name):
    """The one-call parallel path (``run_tiles``), driven directly so that it runs whatever the
    machine's thread count: uneven tiles, more tiles than threads, every pixel written once.
    Without a thread-safe Numba pool (CI installs libgomp1) the Python threads' path runs."""
    prog = CORPUS[name]
    width, height = 30, 22
    image, killed = run_fullscreen(prog, width, height, OVERRIDES, compiled=False)
    compiled = fragment_compiled.compiled_program(FragmentMachine(prog),
                                                  fragment_compiled.fullscreen_layout(OVERRIDES, False))
    assert compiled.parallel == fragment_compiled.parallel_loops_are_safe()
    mine = np.full((height, width, 4), np.nan, dtype=F32)
    mine_killed = np.zeros((height, width), dtype=bool)
    compiled.run(fragment_compiled.row_tiles(height, width, 100), 2, width, height, np.zeros((1, 4, 1), F32),
                 fragment_compiled._constant_inputs(OVERRIDES), mine.reshape(1, -1, 4), mine_killed.reshape(-1), {})
    assert same_bits(image, mine) and same_bits(killed, mine_killed)


@pytest.mark.parametrize(("pixels", "threads", "parallel", "expected"), [
    (4096, 2, True, 2048),            # a small picture: one tile per thread
    (36864, 2, True, 9216),           # 192²: four tiles, two per thread, not three
    (4096, 2, False, 16384),          # on Python threads a picture of one tile stays on the caller
    (65536, 2, False, 16384),
    (1000, 4, True, 1024),            # never below MINIMUM_PARALLEL_TILE
])
def test_tile_sizes(pixels, threads, parallel, expected):
    assert fragment_compiled._tile_pixels(pixels, threads, parallel) == expected


@pytest.mark.parametrize("name", ["bench", "fp_pack_unpack.fpo.bin", "fp_scalar_ops.fpo.bin"])
def test_arithmetic_transcendentals_and_packs_need_no_numpy_between_kernels(name):
    """One kernel per tile: no fixed NumPy cost per tile (what keeps a pixel's cost flat)."""
    plan = fragment_compiled.compiled_program(FragmentMachine(CORPUS[name]), Layout(
        fullscreen=True, procedural=fragment_compiled.PROCEDURAL_INPUTS)).plan
    assert plan.breaks == []


def test_the_corpus_compiles_whole():
    # Nothing of the corpus falls back to the interpreter.
    reasons = {name: fragment_compiled.unsupported_reason(FragmentMachine(prog)) for name, prog in CORPUS.items()}
    assert {name: reason for name, reason in reasons.items() if reason} == {}


# --- random programs ------------------------------------------------------------------------------

NATIVE_OPS = ["MOV", "MUL", "ADD", "MAD", "MIN", "MAX", "FRC", "FLR", "SLT", "SGE", "SLE", "SGT", "SNE",
              "SEQ", "DP2", "DP3", "DP4", "DP2A", "DST", "NRM", "REFL", "DIV", "DIVSQ", "LRP", "RCP",
              "RSQ", "STR", "SFL", "SIN", "COS", "EX2", "LG2", "LIF", "PK2", "UP2", "PK4", "UP4", "PKB", "UPB",
              "PK16", "UP16"]
NUMPY_OPS = ["PKG", "UPG", "DDX", "DDY", "TEX", "TXP", "TXB", "TXL"]
SOURCE_COUNT = {"MAD": 3, "DP2A": 3, "LRP": 3, "STR": 0, "SFL": 0, "TXL": 2}
ONE_SOURCE = {"MOV", "FRC", "FLR", "NRM", "RCP", "RSQ", "SIN", "COS", "EX2", "LG2", "LIF", "PK2", "UP2", "PK4",
              "UP4", "PKB", "UPB", "PK16", "UP16", *NUMPY_OPS} - {"TXL"}
LITERALS = [0.0, -0.0, 1.0, -1.0, 0.5, 2.0, 3.0, 65504.0, 1e-6, -7.25, 0.1, float("inf"), 100.0]


def random_source(rng, input_name: str) -> Src:
    kind = rng.choice(["R", "R", "H", "f", "c"])
    swizzle = "".join(rng.choice(list("xyzw"), 4))
    if kind == "R":
        source = Src("R", int(rng.integers(0, 4)), swizzle)
    elif kind == "H":
        source = Src("H", int(rng.integers(0, 8)), swizzle)
    elif kind == "f":
        source = f(input_name, swizzle)
    else:
        source = c(swizzle)
    if rng.random() < 0.2:
        source = -source
    if rng.random() < 0.15:
        source = absolute(source, int(rng.integers(0, 4)))
    return source


def random_instruction(rng, ops: list[str]) -> list[int]:
    name = str(rng.choice(ops))
    count = SOURCE_COUNT.get(name, 1 if name in ONE_SOURCE else 2)
    input_name = str(rng.choice(["TEX0", "TEX1", "WPOS", "COL0", "TEX2"]))
    sources = [random_source(rng, input_name) for _ in range(count)]
    literal = [float(rng.choice(LITERALS)) for _ in range(4)] if any(s.file == "c" for s in sources) else None
    mask = "".join(letter for letter in "xyzw" if rng.random() < 0.6) or "x"
    destination = None if rng.random() < 0.1 else f"{rng.choice(['R', 'R', 'R', 'H'])}{rng.integers(0, 4)}"
    set_cc = int(rng.integers(0, 2)) if destination is None or rng.random() < 0.3 else None
    condition = ("TR",)
    if rng.random() < 0.25:
        condition = (str(rng.choice(["LT", "EQ", "LE", "GT", "NE", "GE", "FL"])),
                     "".join(rng.choice(list("xyzw"), 4)), int(rng.integers(0, 2)))
    return op(name, destination, *sources, mask=mask, literal=literal,
              precision=str(rng.choice(["R", "R", "R", "H", "X", "B"])), saturate=bool(rng.random() < 0.2),
              set_cc=set_cc, condition=condition, scale=int(rng.choice([0, 0, 0, 1, 2, 3, 5, 6, 7])),
              unit=int(rng.integers(0, 3)), expand=bool(rng.random() < 0.3))


def random_block(rng, depth: int, in_loop: bool, slot: int, ops_inside: list[str]) -> tuple[list[list[int]], int]:
    """Parts of a block starting at ``slot``, and the slot after it."""
    parts = []
    for _ in range(int(rng.integers(1, 5))):
        roll = rng.random()
        if depth < 2 and roll < 0.15:
            condition = str(rng.choice(["LT", "GT", "NE", "GE", "TR"]))
            swizzle = "".join(rng.choice(list("xyzw"), 4))
            then_parts, else_slot = random_block(rng, depth + 1, in_loop, slot + 1, ops_inside)
            else_parts, end_slot = random_block(rng, depth + 1, in_loop, else_slot, ops_inside) \
                if rng.random() < 0.5 else ([], else_slot)
            parts.append(flow("IFE", condition, swizzle, else_slot=else_slot, end_slot=end_slot))
            parts += then_parts + else_parts
            slot = end_slot
        elif depth < 2 and roll < 0.25:
            kind = str(rng.choice(["LOOP", "REP"]))
            body, end_slot = random_block(rng, depth + 1, True, slot + 1, ops_inside)
            parts.append(flow(kind, end_slot=end_slot, count=int(rng.integers(0, 4)), start=int(rng.integers(0, 3)),
                              increment=int(rng.integers(0, 2))))
            parts += body
            slot = end_slot
        elif roll < 0.32:
            parts.append(op("KIL", None, condition=(str(rng.choice(["LT", "GT", "EQ"])), "xyzw",
                                                   int(rng.integers(0, 2)))))
            slot += 1
        elif in_loop and roll < 0.38:
            parts.append(flow("BRK", str(rng.choice(["LT", "GT", "NE"])), "".join(rng.choice(list("xyzw"), 4))))
            slot += 1
        elif depth and roll < 0.41:
            parts.append(flow("RET", str(rng.choice(["LT", "GT"])), "xxxx"))
            slot += 1
        else:
            part = random_instruction(rng, ops_inside if depth else NATIVE_OPS + NUMPY_OPS)
            parts.append(part)
            slot += len(part) // 4
    return parts, slot


def random_program(seed: int):
    rng = np.random.default_rng(seed)
    # Odd seeds put NumPy instructions in blocks too: predicated IFs, loops that fall back.
    parts, _ = random_block(rng, 0, False, 0, NATIVE_OPS + NUMPY_OPS if seed % 2 else NATIVE_OPS)
    parts.append(op("MOV", "R1", R(2, "wzyx"), mask="z"))
    parts.append(op("MAD", "R0", R(0), H(1, "xzyw"), R(3)))
    return program(*parts)


@pytest.mark.parametrize("seed", range(32))
def test_random_program_compiled_equals_interpreted(seed):
    prog = random_program(seed)
    lanes = 16 * 10
    for inputs in (fullscreen_inputs(16, 10, OVERRIDES), special_inputs(lanes, seed)):
        machine, interpreted, compiled = both_ways(prog, inputs, (10, 16), textures=TEXTURES)
        if compiled is None:
            assert fragment_compiled.unsupported_reason(machine, _lanes_layout(machine, inputs))
            continue
        assert_same_result(interpreted, compiled)


def _lanes_layout(machine, inputs):
    varying = tuple(sorted(machine.inputs_read))
    exports = tuple(r for r in fragment_compiled.EXPORTED_REGISTERS if r in machine.register_rows)
    return Layout(fullscreen=False, varying=varying, exports=exports)


def test_most_random_programs_compile():
    compiled = sum(fragment_compiled.unsupported_reason(FragmentMachine(random_program(seed))) is None
                   for seed in range(40))
    assert compiled >= 25


# --- dispatch, budget, fallbacks ------------------------------------------------------------------

def test_run_uses_the_compiled_path_when_asked_and_the_interpreter_otherwise(monkeypatch):
    prog = CORPUS["bench"]
    machine = FragmentMachine(prog)
    inputs = fullscreen_inputs(32, 32)
    calls = []
    real = fragment_compiled.run_lanes
    monkeypatch.setattr(fragment_compiled, "run_lanes", lambda *a, **k: calls.append(1) or real(*a, **k))
    machine.run(inputs, grid=(32, 32), compiled=False)
    machine.run(inputs, grid=(32, 32))  # small: interpreted
    assert calls == []
    machine.run(inputs, grid=(32, 32), compiled=True)
    assert calls == [1]


def test_straight_line_budget_is_charged_as_the_interpreter_charges():
    from shaderkit.isa.rsx.budget import RunBudget
    prog = CORPUS["bench"]
    inputs = fullscreen_inputs(32, 32)
    interpreted, compiled = RunBudget(10 ** 9), RunBudget(10 ** 9)
    FragmentMachine(prog).run(inputs, grid=(32, 32), budget=interpreted, compiled=False)
    FragmentMachine(prog).run(inputs, grid=(32, 32), budget=compiled, compiled=True)
    assert interpreted.remaining == compiled.remaining


def test_a_budget_the_run_may_exceed_goes_to_the_interpreter_which_stops_it():
    from shaderkit.isa.rsx.budget import BudgetExhausted
    with pytest.raises(BudgetExhausted, match="slot"):
        FragmentMachine(CORPUS["bench"]).run(fullscreen_inputs(32, 32), grid=(32, 32), budget=5000, compiled=True)


def test_derivatives_without_a_grid_fall_back_and_raise_as_before():
    from shaderkit.core.diagnostics import InputError
    prog = program(op("DDX", "R0", f("TEX0")))
    inputs = fullscreen_inputs(8, 8)
    with pytest.raises(InputError, match="grid"):
        FragmentMachine(prog).run(inputs, compiled=True)


def test_numpy_instruction_inside_a_loop_falls_back_with_the_same_answer():
    prog = program(flow("REP", count=2, end_slot=2), op("PKG", "R0", R(0)), op("MOV", "R1", R(0)))
    machine = FragmentMachine(prog)
    assert "needs NumPy" in fragment_compiled.unsupported_reason(machine)
    inputs = fullscreen_inputs(16, 16)
    assert_same_result(machine.interpret(inputs, grid=(16, 16)), machine.run(inputs, grid=(16, 16), compiled=True))


def test_lanes_without_a_grid_run_in_chunks(monkeypatch):
    monkeypatch.setattr(fragment_compiled, "TILE_PIXELS", 48)
    prog = CORPUS["fp_scalar_ops.fpo.bin"]
    inputs = special_inputs(200, 3)
    machine, interpreted, compiled = both_ways(prog, inputs, None)
    assert_same_result(interpreted, compiled)


def test_nan_payloads_agree_where_they_show():
    # A NaN written to an H register is visible bit for bit through R: both paths keep the
    # payload NumPy's conversion keeps.
    prog = program(op("MOV", "H0", f("TEX2")), op("MOV", "R1", R(0), mask="xy"))
    lanes = 8 * 8
    words = np.array([0x7FC00001, 0xFFC12345, 0x7F800001, 0x7FFFFFFF], dtype=np.uint32)
    tex2 = np.resize(words, (lanes, 4)).view(F32)
    inputs = {"TEX2": tex2}
    _, interpreted, compiled = both_ways(prog, inputs, (8, 8))
    assert np.array_equal(np.ascontiguousarray(interpreted.color).view(np.uint32),
                          np.ascontiguousarray(compiled.color).view(np.uint32))


def flow_programs():
    """The flow-control programs of test_rsx_fragment, and an indexed input read in nested loops."""
    return {
        **FLOW_PROGRAMS,
        "indexed input": program(
            flow("LOOP", count=3, start=1, increment=2, end_slot=4),
            flow("REP", count=2, start=2, increment=2, end_slot=4),
            op("ADD", "R0", R(0), f("TEX0"), displacement=-1),
            op("ADD", "R2", R(2), f("TEX0", "yxwz"), displacement=2),
            op("MUL", "R3", f("TEX0"), c(), displacement=0, literal=(1, 2, 3, 4))),
        "numpy in if and else": program(
            op("ADD", None, f("TEX0", "xyxy"), -c(), literal=(0.5, 0.25, 0.75, 0.5), set_cc=0),
            flow("IFE", "GT", "xxxx", else_slot=9, end_slot=11),
            op("SIN", "R0", f("TEX0", "y"), mask="xz"),
            flow("IFE", "LT", "yyyy", else_slot=7, end_slot=8),
            op("TEX", "R1", f("TEX0"), unit=0),
            op("DDX", "R2", R(1), mask="xw"),
            op("KIL", None, condition=("LT", "zzzz")),
            op("ADD", "R3", R(2), R(0), condition=("GT", "wwww")),
            op("LG2", "R0", f("TEX0", "x"), mask="y", set_cc=1),
            op("EX2", "R0", R(0, "y"), mask="w", condition=("NE", "yyyy", 1)),
            op("PK2", "H2", R(0), saturate=True),
            op("UP2", "R4", H(2, "xxxx"))),
        "kil in an if": program(
            op("ADD", None, f("TEX1", "y"), -c(), mask="x", literal=(0.25, 0, 0, 0), set_cc=1),
            flow("IFE", "LT", "xxxx", else_slot=4, end_slot=5),
            op("KIL", None, condition=("TR",)),
            op("MOV", "H0", f("WPOS"), precision="H"),
            op("ADD", "H1", H(0), -f("WPOS"), saturate=True)),
    }


@pytest.mark.parametrize("name", sorted(flow_programs()))
def test_flow_program_compiled_equals_interpreted(name):
    prog = flow_programs()[name]
    inputs = fullscreen_inputs(16, 10)
    inputs["TEX3"] = special_inputs(160, 9)["TEX3"]
    machine, interpreted, compiled = both_ways(prog, inputs, (10, 16), textures=TEXTURES)
    assert compiled is not None, fragment_compiled.unsupported_reason(machine)
    assert_same_result(interpreted, compiled)
    _, interpreted, compiled = both_ways(prog, inputs, (10, 16), output_from_h0=True)
    assert_same_result(interpreted, compiled)
