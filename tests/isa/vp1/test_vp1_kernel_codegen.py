"""The compiled loop's kernel written per program (shaderkit.isa.vp1.compiled_codegen): the
pruner keeps what the possible opcodes reach and nothing else, a kernel written for a
program's opcodes runs it as the interpreter does, and a program of other opcodes never runs
in a kernel that lacks them."""

from __future__ import annotations

import ast
import inspect
import random
import textwrap
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import shaderkit.isa as isas
from shaderkit.isa.vp1 import Vp1, compiled, compiled_codegen, pictures
from shaderkit.isa.vp1.bench import BENCH_PROGRAM
from shaderkit.isa.vp1.machine import Vp1Machine

KIND = [opcode % 3 for opcode in range(256)]


def dispatch(word, out):
    """A toy unit: tests on the opcode (``word >> 24``), on names computed from it, on its high
    bits read off the word (``word >> 28``), and on the word itself."""
    op = word >> 24
    kind = KIND[op]
    low = op & 3
    out[0] = 0
    if op == 1:
        out[0] = 10
    elif op == 2 or op == 3:
        if op == 2:
            out[0] = 20
        else:
            out[0] = 30 + (word & 1)
    elif kind == 2 and word & 1:  # reads the word too: kept as written
        out[0] = 40
    elif word >> 28 & 1:  # opcode bit 4
        out[0] = 45 if word >> 29 & 1 else 46
    else:
        for i in range(2):
            if low == 1:
                out[i] += 50
            elif low == 0:
                out[i] += 60
            else:
                out[i] += 70 if op & 4 else 80
    if kind == 0:
        return 1
    out[1] += op
    return 2


def pruned(opcodes) -> tuple[str, object]:
    tree = ast.parse(textwrap.dedent(inspect.getsource(dispatch))).body[0]
    tree.body = compiled_codegen.Pruner({"word >> 24": frozenset(opcodes)}, {"KIND": KIND}).block(tree.body)
    source = ast.unparse(ast.fix_missing_locations(tree))
    scope = {"KIND": KIND}
    exec(source, scope)  # noqa: S102 - the test's own function
    return source, scope["dispatch"]


@settings(max_examples=200, deadline=None)
@given(st.sets(st.integers(min_value=0, max_value=255), min_size=1))
def test_the_pruned_function_does_what_the_whole_one_does_for_its_opcodes(opcodes):
    source, function = pruned(opcodes)
    for opcode in opcodes:
        for word in (opcode << 24, opcode << 24 | 1):
            whole, cut = [0, 0], [0, 0]
            assert function(word, cut) == dispatch(word, whole) and cut == whole, (hex(word), source)


def test_the_pruner_removes_the_branches_no_opcode_takes():
    source, _ = pruned({1})
    assert "out[0] = 10" in source and "20" not in source and "if op == 1" not in source
    assert "return 2" in source and "return 1" not in source  # KIND[1] == 1
    source, _ = pruned({2, 3})
    assert "out[0] = 10" not in source and "out[0] = 20" in source and "30" in source
    source, _ = pruned({5, 8})  # kind 2: the part of the test that reads the word stays
    assert "if word & 1:" in source and "kind == 2" not in source
    assert "+= 50" in source and "+= 60" in source
    assert "+= 70" not in source and "80" not in source
    source, _ = pruned({0x36, 0x1B})  # bit 4 set, bit 5 set in one: the word's high bits decide
    assert "word >> 28 & 1:" not in source and "out[0] = 45 if word >> 29 & 1 else 46" in source
    source, _ = pruned({0x3A})  # bit 4 set and bit 5 set: 45 alone
    assert "out[0] = 45\n" in source + "\n" and "46" not in source
    source, _ = pruned({0x06, 0x0A})  # low 2, with and without opcode bit 2: the IfExp stays
    assert "70 if op & 4 else 80" in source
    source, _ = pruned({0x06})
    assert "+= 70" in source and "80" not in source


def test_constants_and_and_or_operands_decide_tests():
    def unit(word, out):
        op = word >> 24
        flag = False
        mode = 3
        if op == 7:
            flag = True
        if flag and out[0]:  # only op 7 sets flag
            out[1] = 1
        if out[0] or mode == 3:
            out[1] += 2
        out[0] = 4 if mode == 2 else 5

    tree = ast.parse(textwrap.dedent(inspect.getsource(unit))).body[0]
    tree.body = compiled_codegen.Pruner({"word >> 24": frozenset({1, 2})}, {}).block(tree.body)
    source = ast.unparse(tree)
    assert "out[1] = 1" not in source and "out[1] += 2" in source and "out[0] or" not in source
    assert "out[0] = 5" in source
    tree = ast.parse(textwrap.dedent(inspect.getsource(unit))).body[0]
    tree.body = compiled_codegen.Pruner({"word >> 24": frozenset({1, 7})}, {}).block(tree.body)
    assert "if flag and out[0]:" in ast.unparse(tree)  # flag differs by path: kept


def test_an_opcode_root_with_no_possible_opcode_leaves_no_branch():
    source, _ = pruned(set())
    assert "out[0] = 10" not in source and "+= 50" not in source


# --- the kernels of real programs -------------------------------------------------------------

EXAMPLES = sorted((Path(__file__).resolve().parents[3] / "examples" / "vp1").glob("*.s"))


def bench_machine() -> Vp1Machine:
    return Vp1Machine(Vp1().assemble(BENCH_PROGRAM, "<bench>").image)


def example_machine(source: Path) -> Vp1Machine:
    from conftest import load_gallery
    isa = isas.get("vp1")
    machine = isa.machine(isa.assemble(source.read_text(encoding="utf-8"), str(source)).words)
    arguments = list(load_gallery().demo_header(source).arguments)
    machine.data_store = pictures.load_picture(arguments[arguments.index("--image-in") + 1])
    return machine


def outcome(machine, run):
    try:
        result = run()
        ended = (result.bundles, result.exit_code, result.interrupt)
    except Exception as error:  # noqa: BLE001 - the same error is part of the equivalence
        ended = (type(error).__name__, str(error))
    state = machine.state
    return ended, machine.pc, machine.bundles, machine.dump_state(), machine.data_store, \
        (state.sr, state.mi, state.uc, state.d)


@pytest.mark.parametrize("program", ["bench", *EXAMPLES], ids=["bench", *(path.stem for path in EXAMPLES)])
def test_a_program_runs_in_the_kernel_of_its_own_opcodes_as_interpreted(program):
    make = bench_machine if program == "bench" else lambda: example_machine(program)
    interpreted, fast = make(), make()
    own = compiled.compiled_program(fast).features
    assert own != compiled.EVERY_OPCODE and compiled.EVERY_OPCODE.covers(own)
    assert outcome(fast, lambda: compiled.run_compiled(fast, 100_000, covered=own)) == \
        outcome(interpreted, lambda: interpreted.run(100_000))
    assert compiled.kernel(own).signatures  # it ran in that kernel


def test_the_kernel_of_a_program_has_only_its_opcodes_branches():
    source = compiled_codegen.kernel_source(compiled.compiled_program(bench_machine()).features)
    every = compiled_codegen.kernel_source(compiled.EVERY_OPCODE)
    for rule in ("readout_shift", "swizzle_source", "loop_step", "vector_place", "byte_lanes", "bmul_result"):
        assert rule in every
    assert "readout_shift" not in source and "swizzle_source" not in source  # no vlrp/vmul, no vswz
    assert "byte_lanes" not in source and "bmul_result" not in source  # no byte ops, no bmul
    assert "loop_step" in source and "vector_place" in source  # bra loop, ldvv/stvh


# Words of other opcodes than the bench's: vshr, vlrp, vswz (vector), bmul (scalar), ldas
# (address), one to a bundle, then exit.
OTHER_OPCODES = [0x8E, 0x90, 0x9B, 0x01, 0xC2]


def other_machine(seed: int) -> Vp1Machine:
    generator = random.Random(seed)
    words = [opcode << 24 | generator.getrandbits(24) for opcode in OTHER_OPCODES] + [0xFF000000]
    machine = Vp1Machine(words)
    state = machine.state
    state.r = [generator.getrandbits(32) for _ in range(31)] + [0]
    state.v = [[generator.getrandbits(8) for _ in range(16)] for _ in range(32)]
    state.a = [generator.getrandbits(12) for _ in range(32)]
    machine.data_store = bytes(generator.getrandbits(8) for _ in range(8192))
    return machine


def test_a_program_of_other_opcodes_gets_a_kernel_that_covers_them():
    bench = bench_machine()
    bench_features = compiled.compiled_program(bench).features
    compiled.run_compiled(bench, covered=bench_features)
    interpreted, fast = other_machine(5), other_machine(5)
    table = compiled.compiled_program(fast).table
    assert table[[0, 1, 2, 3, 4], 0].all()  # every bundle compiled
    needed = compiled.compiled_program(fast).features
    assert not bench_features.covers(needed)
    with pytest.raises(ValueError, match="does not cover"):
        compiled.run_compiled(fast, covered=bench_features)
    chosen = compiled.kernel_covering(needed)
    assert any(covered.covers(needed) for covered, kernel in compiled._KERNELS.items() if kernel is chosen)
    assert outcome(fast, lambda: compiled.run_compiled(fast)) == outcome(interpreted, lambda: interpreted.run())


def test_the_kernel_of_every_opcode_keeps_every_branch_as_written():
    # one description: the kernel of every opcode is the loop and units as written
    for function, roots in compiled_codegen._pruned_functions():
        whole = compiled_codegen._function_tree(function)
        pruned = compiled_codegen._function_tree(function)
        every = {root: getattr(compiled.EVERY_OPCODE, unit) for root, unit in roots.items()}
        pruned.body = compiled_codegen.Pruner(every, compiled_codegen._scope(function)).block(pruned.body)
        count = [sum(isinstance(node, (ast.If, ast.IfExp, ast.For)) for node in ast.walk(tree))
                 for tree in (whole, pruned)]
        assert count[0] == count[1], function.__name__


def test_features_count_every_compiled_word_not_only_the_bundle_starts():
    words = Vp1().assemble(BENCH_PROGRAM, "<bench>").image
    table = compiled.decode(words, 0x4FFFFFFF)
    covered = compiled_codegen.features(table)
    for unit, column in zip(covered[:4], (2, 3, 4, 5), strict=True):
        assert unit == {int(word) >> 24 for word, ok in zip(table[:, column], table[:, 0], strict=True)
                        if ok == 1 and word >= 0}
    rows = [row for row in table.tolist() if row[0] == 1]
    assert covered.files == {row[3] >> 3 & 31 for row in rows}
    assert covered.s2v == {row[3] >> 24 for row in rows if row[4] >= 0 and row[4] >> 24 in compiled.VECTOR_READS_S2V}


def test_the_kernel_leaves_out_the_moves_and_commits_of_files_no_mov_names():
    # inverse_hadamard moves $r into $v words only (mov $vN W $rM: files 0-3); smooth's s2v
    # readers sit beside vec and snop, not beside its bmul factors word (00)
    hadamard = example_machine(next(path for path in EXAMPLES if path.stem == "inverse_hadamard"))
    source = compiled_codegen.kernel_source(compiled.compiled_program(hadamard).features)
    assert "out[V_INDEX]" in source and "out[A_INDEX]" not in source and "out[OTHER_FILE], " not in source
    assert "a[sp[A_INDEX]]" not in source and "l[sp[L_INDEX]]" not in source and "sr[sp[OTHER_INDEX]]" not in source
    smooth = compiled.compiled_program(example_machine(next(path for path in EXAMPLES if path.stem == "smooth")))
    assert 0x00 in smooth.features.scalar and 0x00 not in smooth.features.s2v
    assert "byte_products" not in compiled_codegen.kernel_source(smooth.features)
