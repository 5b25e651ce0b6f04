"""The compiled SIMT core (shaderkit.isa.theia.compiled_core) against the NumPy core it replaces
(simt.Core.call_numpy): every operation on random and edge rows and on the golden RTL vectors,
every compare-jump on diverging lanes, random programs with loops, faults and budget
exhaustion, and whole renders (the bench scene, the upstream scenes, the example shaders).
Both paths must leave the same register files, per-lane instruction counts and return
values, or raise the same error."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from functools import cache
from pathlib import Path

import numpy as np
import pytest

from shaderkit.isa import get
from shaderkit.isa.theia import compiled_core, semantics
from shaderkit.isa.theia.bench import bench_scene
from shaderkit.isa.theia.machine import TheiaMachine
from shaderkit.isa.theia.registers import ADDRESSES, SWIZZLES, USER_CODE_START
from shaderkit.isa.theia.scene import load_scene
from shaderkit.isa.theia.simt import ALU, RETURN, Code, Core, Lanes, MachineFault, Step
from conftest import golden_dir

THEIA = get("theia", complete_isa=True)
ROOT = Path(__file__).resolve().parents[3]
GOLDEN_ALU = golden_dir("theia", "alu")
SCENES = golden_dir("theia", "scenes")
R1, R2, R3, R4 = (ADDRESSES[f"R{k}"] for k in range(1, 5))
EDGES = [0, 1, 0x20000, 0xFFFE0000, 0x7FFFFFFF, 0x80000000, 0x80000001, 0xFFFFFFFF, 0x55555556, 0xAAAAAAAB,
         0x0FFFFFFF, 0x10000]
LANES = 600


def random_lanes(count: int = LANES, seed: int = 15) -> Lanes:
    """Lanes whose rows 32..127 hold random words: small ones, any, and the edge values."""
    rng = np.random.default_rng(seed)
    lanes = Lanes.zeros(count)
    shape = lanes.rows[32:128].shape
    small = rng.integers(-(1 << 21), 1 << 21, shape).astype(np.uint32)
    anything = rng.integers(0, 1 << 32, shape, dtype=np.uint64).astype(np.uint32)
    edges = rng.choice(np.array(EDGES, dtype=np.uint32), shape)
    pick = rng.integers(0, 3, shape)
    lanes.rows[32:128] = np.choose(pick, [small, anything, edges])
    return lanes


def copy(lanes: Lanes) -> Lanes:
    return Lanes(lanes.rows.copy(), lanes.executed.copy())


def run_both(code: Code, lanes: Lanes, entry: int = USER_CODE_START, selection=None, budget: int = 10_000):
    """Run a call on both paths from the same lanes; assert they agree; the compiled outcome."""
    outcomes = []
    for compiled in (True, False):
        mine = copy(lanes)
        core = Core(code, mine, budget, compiled=compiled)
        try:
            result = core.call(entry, selection, routine="the test")
        except MachineFault as error:
            result = str(error)
        outcomes.append((result, mine))
    (compiled_result, compiled_lanes), (numpy_result, numpy_lanes) = outcomes
    if isinstance(numpy_result, str):
        assert compiled_result == numpy_result
    else:
        assert np.array_equal(compiled_result, numpy_result)
    assert np.array_equal(compiled_lanes.rows, numpy_lanes.rows)
    assert np.array_equal(compiled_lanes.executed, numpy_lanes.executed)
    return compiled_result, compiled_lanes


def code_of(source: str) -> Code:
    return TheiaMachine(THEIA.assemble(source).image, complete_isa=True).code


def code_of_steps(*steps: Step) -> Code:
    return Code({USER_CODE_START + index: step for index, step in enumerate(steps)})


def type_ii(mnemonic: str, immediate: int) -> Code:
    """``MNEMONIC R1 <immediate>`` (A = (IMM, 0, 0), B = old R1), then RETURN RT_TRUE."""
    return code_of_steps(
        Step(ALU, USER_CODE_START, mnemonic, semantics.SEMANTICS.function(mnemonic), dst=R1, s2=R1,
             immediate=np.array([[immediate], [0], [0]], dtype=np.uint32), stores=True),
        Step(RETURN, USER_CODE_START + 1, "RETURN RT_TRUE", semantics.i_RETURN, dst=0,
             immediate=np.array([[1], [0], [0]], dtype=np.uint32), returns_true=True))


TYPE_II = ("SETX", "SETY", "SETZ", "SWIZZLE3D")
TYPE_I = sorted(set(compiled_core.ALU_MNEMONICS) - set(TYPE_II))


def test_the_table_knows_every_operation():
    assert set(compiled_core.ALU_MNEMONICS) == set(semantics.SEMANTICS.functions()) - set(semantics.JUMP_TESTS) - {
        "RETURN"}


@pytest.mark.parametrize("mnemonic", TYPE_I)
def test_type_i_operations_on_random_and_edge_rows(mnemonic):
    run_both(code_of(f"{mnemonic} R1 R2 R3\nRETURN RT_TRUE\n"), random_lanes())
    # Operands aliasing the destination.
    run_both(code_of(f"{mnemonic} R2 R2 R2\nRETURN RT_TRUE\n"), random_lanes(seed=16))


@pytest.mark.parametrize("mnemonic", TYPE_II)
def test_type_ii_operations(mnemonic):
    immediates = sorted(SWIZZLES.values()) + [22, 23, 0xFFFFFFFF] if mnemonic == "SWIZZLE3D" else EDGES
    for immediate in immediates:
        run_both(type_ii(mnemonic, immediate), random_lanes(64))


@pytest.mark.parametrize("mnemonic", sorted(semantics.JUMP_TESTS))
def test_compare_jumps_diverge_and_reconverge(mnemonic):
    source = (f"{mnemonic} TAKEN R2 R3\nSETX R1 1.0\nINCY R4 R4\nRETURN RT_FALSE\n"
              "TAKEN:\nINCX R4 R4\nRETURN RT_TRUE\n")
    returned, _ = run_both(code_of(source), random_lanes())
    assert 0 < returned.sum() < LANES  # the lanes really parted


def golden_rows(mnemonic: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    lines = (GOLDEN_ALU / f"{mnemonic}.tsv").read_text().splitlines()
    fields = [[[int(word, 16) for word in column.split()] for column in line.split("\t")[1:]] for line in lines]
    a, b, expected = (np.array(column, dtype=np.uint32).T for column in zip(*fields))
    return a, b, expected


@pytest.mark.parametrize("mnemonic", sorted(path.stem for path in GOLDEN_ALU.glob("*.tsv")))
def test_golden_rtl_vectors(mnemonic):
    a, b, expected = golden_rows(mnemonic)
    lanes = Lanes.zeros(a.shape[1])
    if mnemonic in semantics.JUMP_TESTS:
        lanes.rows[R2], lanes.rows[R3] = a, b
        returned, _ = run_both(code_of(f"{mnemonic} TAKEN R2 R3\nRETURN RT_FALSE\nTAKEN:\nRETURN RT_TRUE\n"), lanes)
        assert np.array_equal(returned, expected[0] == 1)
    elif mnemonic in TYPE_II:
        for lane in range(a.shape[1]):
            lanes.rows[R1, :, lane] = b[:, lane]
            _, result = run_both(type_ii(mnemonic, int(a[0, lane])), lanes, selection=np.array([lane]))
            assert np.array_equal(result.rows[R1, :, lane], expected[:, lane])
    else:
        lanes.rows[R2], lanes.rows[R3] = a, b
        _, result = run_both(code_of(f"{mnemonic} R1 R2 R3\nRETURN RT_TRUE\n"), lanes)
        assert np.array_equal(result.rows[R1], expected)


# --------------------------------------------------------------------------- control flow

OPERATIONS = ["ADD", "SUB", "MUL", "DIV", "COPY", "CROSS", "DOT", "MAG", "NEG", "FRAC", "MOD", "INCX", "DEC"]


def random_program(rng: random.Random) -> str:
    """Straight code, divergent forward and backward jumps, returns, and now and then a fault."""
    length = rng.randint(4, 24)
    registers = ["R1", "R2", "R3", "R4", "CREG_CAMERA_POSITION"]
    lines = []
    for index in range(length):
        lines.append(f"L{index}:")
        roll = rng.random()
        if roll < 0.45:
            op = rng.choice(OPERATIONS)
            lines.append(f"{op} {rng.choice(registers)} {rng.choice(registers)} {rng.choice(registers)}")
        elif roll < 0.55:
            lines.append(f"{rng.choice(TYPE_II[:3])} {rng.choice(registers)} 0x{rng.getrandbits(32):x}")
        elif roll < 0.75:
            jump = rng.choice(sorted(semantics.JUMP_TESTS))
            lines.append(f"{jump} L{rng.randint(0, length)} {rng.choice(registers)} {rng.choice(registers)}")
        elif roll < 0.8:
            lines.append(f"JMP L{rng.randint(0, length)}")
        elif roll < 0.9:
            lines.append(rng.choice(["RETURN RT_TRUE", "RETURN RT_FALSE"]))
        elif roll < 0.95:
            lines.append("NOP RT_FALSE")
        else:
            lines.append(rng.choice(["INTP R1 R2 R3", "JMP 0x9000"]))
    lines.append(f"L{length}:")
    lines.append(rng.choice(["RETURN RT_TRUE", "RETURN RT_FALSE"]))
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("seed", range(60))
def test_random_programs(seed):
    rng = random.Random(seed)
    source = random_program(rng)
    # Odd seeds run INTP (complete ISA), even ones fault on it.
    code = TheiaMachine(THEIA.assemble(source).image, complete_isa=bool(seed % 2)).code
    lanes = random_lanes(64, seed)
    selection = None if seed % 3 else np.flatnonzero(np.random.default_rng(seed).random(64) < 0.5)
    run_both(code, lanes, selection=selection, budget=rng.choice([50, 500, 5000]))


def ending(result) -> str:
    if not isinstance(result, str):
        return "returned"
    for words, name in (("more than", "budget"), ("not implemented", "fault"), ("no code", "no code")):
        if words in result:
            return name
    return result


def test_the_random_programs_reach_every_ending():
    endings = set()
    for seed in range(60):
        rng = random.Random(seed)
        source = random_program(rng)
        code = TheiaMachine(THEIA.assemble(source).image, complete_isa=bool(seed % 2)).code
        result, _ = run_both(code, random_lanes(64, seed), budget=rng.choice([50, 500, 5000]))
        endings.add(ending(result))
    assert endings == {"returned", "budget", "fault", "no code"}


def test_budget_exhaustion_on_both_paths():
    result, _ = run_both(code_of("LOOP:\nINCX R1 R1\nJMP LOOP\n"), random_lanes(8), budget=77)
    assert "more than 77 instruction groups" in result


def test_fault_step_message_and_counters():
    code = TheiaMachine(THEIA.assemble("NOP RT_FALSE\nINTP R1 R2 R3\nRETURN RT_TRUE\n").image).code
    result, lanes = run_both(code, random_lanes(8))
    assert "INTP R1 R2 R3 at 0x800c" in result and "not implemented in V1" in result
    assert set(lanes.executed) == {2}


def test_empty_selection_returns_nothing():
    returned, _ = run_both(code_of("RETURN RT_TRUE\n"), random_lanes(8), selection=np.array([], dtype=np.int64))
    assert returned.shape == (0,)


# --------------------------------------------------------------------------- whole renders


def assert_same_render(machine_options: dict, scene, **render_options):
    compiled = TheiaMachine(**machine_options, compiled=True).render(scene, **render_options)
    reference = TheiaMachine(**machine_options, compiled=False).render(scene, **render_options)
    assert np.array_equal(compiled.memory, reference.memory)
    assert np.array_equal(compiled.instructions_per_pixel, reference.instructions_per_pixel)
    assert compiled.cores == reference.cores
    return compiled


def test_bench_scene_renders_the_same_on_both_paths():
    assert_same_render({}, bench_scene())


@cache
def upstream_scene(name: str):
    return load_scene(SCENES / name)


@pytest.mark.parametrize("name", ["example1", "example2", "example3", "shaders_example1"])
def test_upstream_scenes_render_the_same_on_both_paths(name):
    assert_same_render({}, upstream_scene(name))


@pytest.mark.parametrize("path", sorted((ROOT / "examples" / "theia").glob("*.s")), ids=lambda path: path.stem)
def test_example_shaders_render_the_same_on_both_paths(path):
    program = THEIA.assemble(path.read_text(encoding="utf-8"), str(path))
    assert_same_render({"ram_image": program.image}, upstream_scene("example1"), time=1.25)


# --------------------------------------------------------------------------- where it pays


@pytest.mark.parametrize("kernel_ready", [False, True])
def test_a_machine_left_to_choose_compiles_only_where_it_pays(monkeypatch, kernel_ready):
    from shaderkit.isa.theia import machine as machine_module
    monkeypatch.setattr(machine_module, "ready", lambda dispatcher: kernel_ready)
    scene = bench_scene()
    tests_per_render = scene.width * scene.height * scene.triangle_count
    monkeypatch.setattr(machine_module, "COLD_SWITCH_TESTS", 2 * tests_per_render + 1)
    chooser = TheiaMachine()
    choices = []
    for _ in range(3):
        choices.append(chooser.uses_compiled_core(scene))
        chooser.render(scene)
    # cold: two renders interpreted, then their tests and the next render's reach the threshold
    assert choices == ([True] * 3 if kernel_ready else [False, False, True])
    assert TheiaMachine(compiled=False).uses_compiled_core(scene) is False
    assert TheiaMachine(compiled=True).uses_compiled_core(scene) is True



# --------------------------------------------------------------------------- the first compile


FIRST_COMPILE = """
import json
from numba.core.registry import CPUDispatcher
from shaderkit.core.jit import Subroutine
from shaderkit.isa.theia import bench, compiled_core, compiled_units
bench._first_call_of_the_core()
scene = bench.bench_scene()
bench.limit_hit_test(scene, bench.ray_directions(scene))
print(json.dumps({f"{module.__name__}.{name}": [str(signature) for signature in value.signatures]
                  for module in (compiled_core, compiled_units, bench)
                  for name, value in {**vars(module), **{f"{name}.dispatcher": value.dispatcher
                                                         for name, value in vars(module).items()
                                                         if isinstance(value, Subroutine)}}.items()
                  if isinstance(value, CPUDispatcher)}))
"""


def test_a_cold_first_compile_compiles_every_function_once(tmp_path):
    """Issue 15 keeps the kernels' first compile short: a function called with a literal argument
    (or with int64 in one place and a literal in another) would be compiled once per value.
    Checked in a fresh process with an empty kernel cache, where everything is compiled."""
    environment = {**os.environ, "SHADERKIT_CACHE_DIR": str(tmp_path)}
    output = subprocess.run([sys.executable, "-c", FIRST_COMPILE], env=environment, check=True,
                            capture_output=True, text=True).stdout
    signatures = json.loads(output.splitlines()[-1])
    assert len(signatures["shaderkit.isa.theia.compiled_core.run_call"]) == 1
    assert len(signatures["shaderkit.isa.theia.compiled_core.RUN_ALU.dispatcher"]) == 1
    assert {name: kinds for name, kinds in signatures.items() if len(kinds) > 1} == {}
