"""RSX at the edges (issue 10): patterns that stay linear on adversarial text, numbers too long for
Python's int(), runaway programs stopped by the work and wall-time budget, and empty images.

The time bounds here are hang guards, not timings: each input took from tens of seconds to
hours before its fix and takes milliseconds after it."""

from __future__ import annotations

import time

import numpy as np
import pytest

from shaderkit.core.binfmt import read_words
from shaderkit.core.diagnostics import DiagnosticError, InputError
from shaderkit.isa import get
from shaderkit.isa.rsx.assembly import assemble
from shaderkit.isa.rsx.budget import DEFAULT_WORK, BudgetExhausted, RunBudget
from shaderkit.isa.rsx.container import ProgramKind, read_container, UCODE_BYTE_ORDER
from shaderkit.isa.rsx.fragment import fullscreen_inputs, run_fragment_program
from shaderkit.isa.rsx.image import read_hex
from shaderkit.isa.rsx.instruction import decode_program
from shaderkit.isa.rsx.pipeline import draw, vertex_attributes
from shaderkit.isa.rsx.vertex import run_vertex_program
from shaderkit.render.mesh import load_obj
from conftest import REPOSITORY_ROOT, golden_dir

HANG_GUARD_SECONDS = 10.0
EXAMPLES = REPOSITORY_ROOT / "examples" / "rsx"
VP = "!!ARBvp1.0\n"
HUGE = "9" * 5000  # past Python's 4,300-digit limit for int()


def finishes_quickly(action):
    """Run ``action`` and fail if it took longer than the hang guard."""
    start = time.monotonic()
    try:
        return action()
    finally:
        assert time.monotonic() - start < HANG_GUARD_SECONDS


def assembly_errors(source: str) -> list[str]:
    with pytest.raises(DiagnosticError) as caught:
        assemble(source, "bad.vp")
    return [diagnostic.message for diagnostic in caught.value.diagnostics]


# --- the hex reader --------------------------------------------------------------------------------


@pytest.mark.parametrize("line", ["0" * 40 + "g", "0" * 100_000 + "g", "1: " + "0 " * 50_000 + "g",
                                  "1" * 100_000 + ":", " " * 100_000 + "g"])
def test_hex_reader_refuses_adversarial_lines_quickly(line):
    # '0'*28 + 'g' took 53 s: the old line pattern could divide a digit run among words in
    # exponentially many ways before failing.
    with pytest.raises(InputError, match="expected hex words"):
        finishes_quickly(lambda: read_hex(line.encode(), ProgramKind.FRAGMENT, "bad.hex"))


@pytest.mark.parametrize("line", ["123456789 0 0 0", "0x120x34 0 0 0", "0x 0 0 0"])
def test_hex_words_are_separated_and_at_most_32_bits(line):
    # Words written together were accepted and then converted as one: a 36-bit word, or a
    # ValueError traceback for '0x120x34'.
    with pytest.raises(InputError, match="at most 8 digits"):
        read_hex(line.encode(), ProgramKind.FRAGMENT, "bad.hex")


def test_hex_reader_still_reads_slot_lines():
    image = read_hex(b"000: 0x00000000 00000000 0 1\n001:00000000 0 0 0\n", ProgramKind.VERTEX, "ok.hex")
    assert image.words[:4] == (0, 0, 0, 1)
    assert len(image.words) == 8


# --- the constant-register scan of the assembler ---------------------------------------------------


@pytest.mark.parametrize("line", ["MOV R0, c[" + "1" * 100_000 + ";", "MOV R0, " + "c[" * 50_000 + ";",
                                  "MOV R0, " + "c[1 " * 25_000 + ";"])
def test_constant_scan_is_linear_on_unclosed_brackets(line):
    # The scan for the c[] registers a program names took 5.8 s for 20,000 characters and grew
    # with the square of the length.
    messages = finishes_quickly(lambda: assembly_errors(VP + line + "\nEND\n"))
    assert messages


# --- numbers past int()'s limit ------------------------------------------------------------------


@pytest.mark.parametrize("source", [
    VP + f"#const c[{HUGE}] = 1 2 3 4\nMOV result.position, c[0];\nEND\n",
    VP + f"#const c[0] = 1{HUGE} 2 3 4\nMOV result.position, c[0];\nEND\n",
    VP + f"MOV result.position, c[{HUGE}];\nEND\n",
    VP + f"MOV R{HUGE}, c[0];\nEND\n",
    VP + f"ARL A0.x, c[0].x;\nMOV result.position, c[A0.x+{HUGE}];\nEND\n",
    VP + f"#var float4 x :  : c[{HUGE}] : -1 : 1\nMOV result.position, c[0];\nEND\n",
    VP + f"#var float4 x :  : c[0], {HUGE} : -1 : 1\nMOV result.position, c[0];\nEND\n",
    VP + f"MOV result.position, c[0];\nEND\n#! trailing {HUGE} 0 0 0\n",
    VP + f"MOV result.position, c[0]; #! opcode={HUGE}\nEND\n",
    f"{HUGE}: MOV result.position, c[0];\n",
    "!!ARBfp1.0\n" + f"MOV H{HUGE}, fragment.color;\nEND\n",
    "!!ARBfp1.0\n" + f"MOV R0, fragment.color; #! input={HUGE}\nEND\n",
], ids=["const-index", "const-value", "constant-register", "temp-register", "relative-offset", "var-index",
        "var-count", "trailing", "hint", "slot-number", "half-register", "fp-hint"])
def test_huge_numbers_are_source_errors(source):
    # Each of these was a ValueError traceback ("Exceeds the limit (4300 digits)").
    assert assembly_errors(source)


def test_var_paramno_past_int_limit_is_ignored_like_any_unreadable_number():
    assembled = assemble(VP + f"#var float4 x :  : c[0] : {HUGE} : 1\nMOV result.position, c[0];\nEND\n",
                         "ok.vp", ProgramKind.VERTEX)
    assert assembled.uniforms[0].parameter_number is None


def test_token_length_bound_names_the_token():
    messages = assembly_errors(VP + f"MOV R0, c[{HUGE}];\nEND\n")
    assert any("5,000 characters is too long" in message for message in messages)


def test_numbers_at_the_bound_still_read():
    # An exact decimal float of 150 digits and a 1000-character zero-padded index read as before.
    exact = "0." + "0" * 44 + "1401298464324817070923729583289916131280261941876515771757068283889791082685860601486638188362121582031"
    source = VP + f"#const c[{'0' * 997}7] = {exact} 0 0 0\nMOV result.position, c[7];\nEND\n"
    assembled = assemble(source, "ok.vp", ProgramKind.VERTEX)
    assert np.float32(assembled.constants[7][0]).view(np.uint32) == 1  # the smallest denormal's bits


# --- disassembling an empty image ------------------------------------------------------------------


@pytest.mark.parametrize("name", ["rsx", "rsx-vp", "rsx-fp"])
@pytest.mark.parametrize("suffix", [".bin", ".hex", ".vpo", ".fpo"])
def test_an_empty_file_is_an_error(tmp_path, name, suffix):
    processor = get(name)
    empty = tmp_path / f"program{suffix}"
    empty.write_bytes(b"")
    fmt = processor.detect_format(b"", str(empty))
    reader = processor.containers[fmt][1]
    with pytest.raises(InputError, match="empty"):
        reader(b"", str(empty))


@pytest.mark.parametrize("suffix", [".bin", ".hex", ".vpo", ".fp", ".vp"])
def test_an_empty_program_file_is_an_error_when_run(tmp_path, suffix):
    empty = tmp_path / f"program{suffix}"
    empty.write_bytes(b" \n")
    with pytest.raises(InputError, match="empty file"):
        get("rsx").load_file(str(empty), ProgramKind.VERTEX)


# --- the run budget: lane-instructions and wall time -------------------------------------------------

FP = "!!ARBfp1.0\nOPTION NV_fragment_program2;\n"
# Three nested LOOPs of 255 iterations: 16.6 million instructions per pixel.
THREE_DEEP_LOOP_FP = FP + """#const c[0] = 255 0 1 0
PARAM c[1] = { { 255, 0, 1, 0 } };
TEMP R0;
MOVR R0, fragment.color;
LOOP c[0];
LOOP c[0];
LOOP c[0];
ADDR R0, R0, fragment.color;
ENDLOOP;
ENDLOOP;
ENDLOOP;
MOVR result.color, R0;
END
"""
ENDLESS_VP = VP + """OPTION NV_vertex_program3;
TEMP R0;
MOV R0, vertex.position;
top:
ADD R0, R0, vertex.normal;
BRA top;
MOV result.position, R0;
END
"""
PASS_THROUGH_VP = VP + "OPTION NV_vertex_program3;\nMOV result.position, vertex.position;\nEND\n"
GOLDEN = golden_dir("rsx")


def fragment_program(source: str):
    return assemble(source, "prog.fp", ProgramKind.FRAGMENT).program


def run_fullscreen(program, side: int, budget):
    return run_fragment_program(program, fullscreen_inputs(side, side), grid=(side, side), budget=budget)


def test_work_is_counted_per_lane():
    # The first budget counted instructions whatever the lane count, so 512×512 pixels ran
    # 262,144 times longer than the same budget on one pixel.
    program = assemble((GOLDEN / "asm" / "fp_loop.fp.txt").read_text(), "fp_loop.fp").program
    small, large = RunBudget(), RunBudget()
    run_fullscreen(program, 2, small)
    run_fullscreen(program, 8, large)
    spent_small, spent_large = small.work - small.remaining, large.work - large.remaining
    assert spent_small > 0
    assert spent_large == 16 * spent_small


def test_a_budget_of_exactly_the_work_suffices_and_one_less_does_not():
    program = assemble((GOLDEN / "asm" / "fp_loop.fp.txt").read_text(), "fp_loop.fp").program
    measured = RunBudget()
    run_fullscreen(program, 4, measured)
    spent = measured.work - measured.remaining
    run_fullscreen(program, 4, spent)
    with pytest.raises(BudgetExhausted, match=f"budget of {spent - 1:,} lane-instructions ran out at slot"):
        run_fullscreen(program, 4, spent - 1)


def test_three_deep_loop_at_512_by_512_stops_on_the_default_work():
    program = fragment_program(THREE_DEEP_LOOP_FP)
    with pytest.raises(BudgetExhausted, match=f"budget of {DEFAULT_WORK:,} lane-instructions ran out at slot"):
        finishes_quickly(lambda: run_fullscreen(program, 512, None))


def test_wall_time_stops_a_runaway_on_few_lanes():
    # On 8×8 pixels the default work is hundreds of millions of instructions: the wall time ends it.
    program = fragment_program(THREE_DEEP_LOOP_FP)
    budget = RunBudget(seconds=0.5, names={ProgramKind.FRAGMENT: "loops.fp"})
    with pytest.raises(BudgetExhausted, match=r"loops\.fp \(fragment program\): stopped at slot \d+ after 0\.5 s"):
        finishes_quickly(lambda: run_fullscreen(program, 8, budget))


def test_endless_vertex_program_stops_on_work_and_on_wall_time():
    program = assemble(ENDLESS_VP, "spin.vp", ProgramKind.VERTEX).program
    attributes = {0: np.zeros((1000, 4), np.float32), 2: np.ones((1000, 4), np.float32)}
    constants = np.zeros((468, 4), np.float32)
    with pytest.raises(BudgetExhausted, match="budget of 100,000 lane-instructions ran out at slot [12]"):
        run_vertex_program(program, attributes, constants, budget=100_000)
    budget = RunBudget(seconds=0.5, names={ProgramKind.VERTEX: "spin.vp"})
    with pytest.raises(BudgetExhausted, match=r"spin\.vp \(vertex program\): stopped at slot [12] after 0\.5 s.*"
                                              r"a mesh with fewer vertices"):
        finishes_quickly(lambda: run_vertex_program(program, attributes, constants, budget=budget))


def test_the_pipeline_spends_one_budget_for_both_programs():
    vertex = assemble(PASS_THROUGH_VP, "pass.vp", ProgramKind.VERTEX).program
    fragment = fragment_program(FP + "MOVR result.color, fragment.color;\nEND\n")
    mesh = load_obj(EXAMPLES / "models" / "torus.obj")
    constants = np.zeros((468, 4), np.float32)
    vertex_only = RunBudget()
    run_vertex_program(vertex, vertex_attributes(mesh.vertices()), constants, budget=vertex_only)
    both = RunBudget()
    draw(vertex, fragment, mesh, width=64, height=64, constants=constants, budget=both)
    vertex_work = vertex_only.work - vertex_only.remaining
    assert both.work - both.remaining > vertex_work > 0
    with pytest.raises(BudgetExhausted, match="fragment program"):
        draw(vertex, fragment, mesh, width=64, height=64, constants=constants, budget=vertex_work + 1)


def test_runaway_fragment_program_in_the_pipeline_stops():
    vertex = assemble(PASS_THROUGH_VP, "pass.vp", ProgramKind.VERTEX).program
    mesh = load_obj(EXAMPLES / "models" / "torus.obj")
    with pytest.raises(BudgetExhausted, match="fragment program"):
        finishes_quickly(lambda: draw(vertex, fragment_program(THREE_DEEP_LOOP_FP), mesh, width=512, height=512,
                                      constants=np.zeros((468, 4), np.float32)))


def golden_programs():
    for path in sorted((GOLDEN / "asm").glob("*.bin")):
        kind = ProgramKind.VERTEX if path.name.startswith("vp") else ProgramKind.FRAGMENT
        words = read_words(path.read_bytes(), "raw", word_bits=32, byte_order=UCODE_BYTE_ORDER[kind])
        yield path.name, decode_program(words, kind, path.name)
    for path in sorted((GOLDEN / "real").glob("*.?po")):
        container = read_container(path.read_bytes(), path.name)
        yield path.name, decode_program(container.words, container.kind, path.name)


GOLDEN_PROGRAMS = list(golden_programs())


@pytest.mark.parametrize("name, program", GOLDEN_PROGRAMS, ids=[name for name, _ in GOLDEN_PROGRAMS])
def test_every_golden_program_runs_well_within_the_default_limits(name, program):
    # The pipeline's default picture, and a thousand vertices: a tenth of the default work.
    budget = RunBudget.for_command(None, {program.kind: name})
    if program.kind is ProgramKind.FRAGMENT:
        run_fragment_program(program, fullscreen_inputs(256, 256), grid=(256, 256), budget=budget)
    else:
        attributes = {index: np.full((1000, 4), 0.5, np.float32) for index in range(16)}
        run_vertex_program(program, attributes, np.full((468, 4), 0.25, np.float32), budget=budget)
    assert 0 < budget.work - budget.remaining < DEFAULT_WORK // 10


def test_runs_for_one_picture_share_the_time_limit():
    program = fragment_program(THREE_DEEP_LOOP_FP)
    budget = RunBudget(seconds=0.3)
    with pytest.raises(BudgetExhausted, match="after 0.3 s"):
        run_fullscreen(program, 8, budget)
    trivial = fragment_program(FP + "MOVR result.color, fragment.color;\nEND\n")
    with pytest.raises(BudgetExhausted, match="stopped at slot 0 after 0.3 s"):
        run_fullscreen(trivial, 8, budget)  # the picture's time is spent: its next batch stops at once
    run_fullscreen(trivial, 8, RunBudget(seconds=0.3))
