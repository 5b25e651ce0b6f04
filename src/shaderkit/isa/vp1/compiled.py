"""A compiled run loop for VP1 programs (Numba): bundles formed and decoded once, then run in
machine code, with the interpreter (:mod:`.machine`) as the reference and the fallback.

:func:`run_compiled` runs a :class:`~.machine.Vp1Machine`'s program like ``machine.run()``.
Every bundle start of the program is formed once (:func:`~.bundles.bundle_length`,
:func:`~.bundles.slots`); a bundle is *compiled* when every word of it is one of the operations
below, else it is left to the interpreter. The compiled loop runs compiled bundles until it
reaches one that is not (or the program's end, or the bundle budget); that bundle runs in the
interpreter (``machine.step()``, which also raises the interpreter's errors), and the loop goes
on. The state goes from the machine's register files into arrays and back at each switch, so
the machine afterwards is exactly as the interpreter leaves it.

The kernel is the loop of :mod:`.compiled_loop` written for the program's opcodes
(:mod:`.compiled_codegen`: the branches of the opcodes the program does not use removed), so
that its first call compiles only those (2–3 s of CPU time for the bench program and the
examples, where the kernel of every opcode takes 8–12 s); it is cached on disk by
:mod:`shaderkit.core.jit` (a later process writes its source and loads it in about 0.3 s). A
kernel already compiled in this process that covers the program's opcodes is used instead of
compiling another (:func:`kernel_covering`). :func:`run_long`, what ``shaderkit run`` uses,
starts in the interpreter and goes on here only once the run has taken about as long as the
kernel's first call would.

Compiled operations:

* scalar (:mod:`.compiled_scalar`): every scalar opcode 0x00–0x7f — the byte ops, the bmul
  datapath and the unsigned products, the s2v emitters (``bvec``, ``vec``, ``vecms``,
  ``bvecmad``/``bvecmadsel``), the 32-bit arithmetic (``mul``, ``min``/``max``, ``abs``, ``neg``,
  ``add``, ``sub``, ``sar``/``shr``), ``bitop`` and the IMM logic ops, ``mov $r IMM19``, ``sethi``,
  ``snop`` and the flag-clearing undecoded opcodes, and ``mov`` to (0x6a) and from (0x6b) the
  other register files the interpreter models (``$v`` words, ``$sr $mi $uc $l $a $c $m $d $x``,
  with the §2.3 priorities, ``mov`` from ``$l`` beside ``exit``, and the ``$v`` read port a
  0x6b shares with an address store, §2.4) — but not ``mov`` with file 4–7 or 23 (``$f``),
  which the interpreter refuses;
* the s2v path (§6, :mod:`.compiled_s2v`): the factors and ``$vc`` selection every compiled
  scalar word (or the machine's empty scalar word) hands the vector unit, computed only where the
  bundle's vector op reads them;
* address (:mod:`.compiled_address`): every address opcode but the DMA words (c3 c7 ce cf) and
  db, which the interpreter refuses — vector loads/stores (``ldav``/``stav`` with their
  post-increment and short flag, ``ldv``/``stv`` at ``addr | UIMM``), the ``$r`` loads/stores
  (``ldas``/``stas`` c2 c6 d2 d6, ``lds``/``sts`` da de), ``ldax`` (c8 c9: ``$vx``), ``ldr``/``star``
  (d7), the ``$a`` arithmetic (``aadd`` ca, 32-bit ``add`` cb, ``bitop`` d3, ``setlo``/``sethi``
  cc cd) and ``anop`` (df); with the read ports it shares with the scalar unit (§2.4: a 0x6a or
  ``bvecmad``/``bvecmadsel`` beside a ``$r`` store, a 0x6b from ``$v`` beside a ``$v`` store or
  d7), which only a bundle with a scalar word of its own has;
* vector: every vector opcode 0x80–0xbf — the clipping ops (``vmin``/``vmax``/``vabs``/``vneg``/
  ``vadd``/``vsub``), ``vshr``, the logic ops (``vbitop``, ``vand``/``vxor``/``vor``), ``vswz``,
  ``vadd9``, ``vclip``, ``vminabs``, the moves (BIMM, ``$v``, ``$vc``), ``vnop``, ``vcmpad``
  (the s2v ``$vc`` selection), ``vlrp`` (90), ``vmul``/``vmac`` (``$va``), and the s2v factor
  readers beside any compiled scalar word: ``vmad2`` (84 85 95), ``vmac2`` (86 87 96 97 a6 a7),
  the lerp family ``vlrp2``/``vlrp4a``/``vlrpf``/``vlrp4b`` (b3–b7; b6/b7 read ``$vx``);
* branch: ``bra``/``bra not`` (e0/e2), ``bra loop``/``bra loop not`` (e1/e3), ``call`` and its
  loop/not forms (e4–e7), ``ret`` (e8), ``abra`` (ea), ``bnop`` (ef), ``mov $l`` (f0), ``exit``
  (ff), under the machine's options as ``Vp1Machine.step`` applies them (``loop_taken``,
  ``exit_delay_slot``, ``return_stack_depth``, ``ret_delay_slot``; a call's delay slot pushes
  the return address and sets ``$uc0``). A call on a full return stack and a ``ret`` on an
  empty one leave their bundle to the interpreter, which raises its error.

Not compiled (the interpreter runs the bundle, and raises its errors): only what the
interpreter refuses in a program — ``mov`` with register file 4–7 or 23, the DMA words (c3 c7
ce cf) and db, the undocumented branch opcodes (e9, eb–ee, f1–fe) — and tracing (``run`` with
``trace`` always interprets).
"""

from __future__ import annotations

import functools

import numpy as np

from ...core.jit import LeanPipeline, call_compiling, compile_source, ready
from .bundles import bundle_length, slots
from .compiled_address import ADDRESS_COMPILED
from .compiled_codegen import BRANCH_COMPILED, EVERY_OPCODE, VECTOR_COMPILED, Features, features
from .compiled_s2v import word_parts
from .compiled_scalar import SCALAR_COMPILED, compiled_scalar_word

__all__ = ["SCALAR_COMPILED", "EVERY_OPCODE", "Features", "compiled_word", "decode", "run_compiled", "kernel",
           "kernel_covering"]

VECTOR_MAD2 = frozenset({0x84, 0x85, 0x95})
VECTOR_MAC2 = frozenset({0x86, 0x87, 0x96, 0x97, 0xA6, 0xA7})
VECTOR_LERP = frozenset({0xB3, 0xB4, 0xB5, 0xB6, 0xB7})
VECTOR_READS_S2V = VECTOR_MAD2 | VECTOR_MAC2 | VECTOR_LERP
LOOP_RULE_CODES = {"before": 0, "after": 1, "always": 2}
NONE = -1


def compiled_word(word: int, unit: int) -> bool:
    if unit == 1:
        return compiled_scalar_word(word)
    return word >> 24 in (ADDRESS_COMPILED, None, VECTOR_COMPILED, BRANCH_COMPILED)[unit]


def decode(program: list[int], empty_scalar_word: int) -> np.ndarray:
    """Per word address: [compiled?, length, A, S, V, B] (NONE for an empty slot; S is the
    empty scalar word where the bundle has none), then the word-only parts of S's s2v value
    (:func:`.compiled_s2v.word_parts`: emits?, vcidx, vcflag, vcxfrm, immediate), and whether the
    bundle has a scalar word of its own (the shared read ports, §2.4, need one)."""
    table = np.full((len(program), 12), NONE, dtype=np.int64)
    empty_ok = compiled_word(empty_scalar_word, 1)
    for pc in range(len(program)):
        length = bundle_length(program, pc)
        units = slots(program[pc:pc + length])
        has_scalar = units[1] is not None
        if not has_scalar:
            units[1] = empty_scalar_word
            ok = empty_ok
        else:
            ok = True
        ok = ok and all(word is None or compiled_word(word, unit) for unit, word in enumerate(units))
        table[pc] = [1 if ok else 0, length, *(NONE if word is None else word for word in units),
                     *word_parts(units[1]), int(has_scalar)]
    return table


_KERNELS: dict[Features, object] = {}  # the kernels asked for in this process, by what they cover


def kernel(covered: Features = EVERY_OPCODE):
    """The kernel running the opcodes ``covered`` (:mod:`.compiled_codegen`): compiled on its
    first call, or loaded from the disk cache (:mod:`shaderkit.core.jit`)."""
    if covered not in _KERNELS:
        from .compiled_codegen import KERNEL, kernel_source
        (_KERNELS[covered],) = compile_source(kernel_source(covered), (KERNEL,), no_cfunc_wrapper=True,
                                              pipeline_class=LeanPipeline)
    return _KERNELS[covered]


def kernel_covering(needed: Features):
    """The kernel for a program of the opcodes ``needed``: one compiled in this process
    already that covers them (a first call costs nothing more), else the kernel of exactly
    ``needed``."""
    for covered, compiled_kernel in _KERNELS.items():
        if compiled_kernel.signatures and covered.covers(needed):
            return compiled_kernel
    return kernel(needed)


def kernel_ready(machine) -> bool:
    """Whether the first call of ``machine``'s kernel is cheap: compiled in this process
    already, or cached."""
    return ready(kernel_covering(compiled_program(machine).features))


# When run_long goes on in the compiled loop: once interpreting has taken about as long as the
# kernel's first call would (a rule that costs at most twice the better choice in hindsight).
# The interpreter runs about 50,000 bundles/s; writing a program's kernel and loading it from
# the cache takes about 0.3 s, writing and compiling it about 2.5 s (2-3 s by program).
CACHED_SWITCH = 15_000
COLD_SWITCH = 150_000


def run_long(machine, max_bundles: int = 1_000_000):
    """``machine.run(max_bundles)`` — the same result, state, data store and errors — that goes
    on in the compiled loop (:func:`run_compiled`) once the run proves long: after
    :data:`CACHED_SWITCH` bundles where the kernel is ready (:func:`kernel_ready`), after
    :data:`COLD_SWITCH` where it must be compiled first. Short runs never touch Numba."""
    from .machine import RunResult
    start = machine.bundles

    def interpret(bundles: int) -> None:
        until = start + min(bundles, max_bundles)
        while not machine.exited and machine.bundles < until:
            machine.step()

    interpret(CACHED_SWITCH)
    if not machine.exited and max_bundles > CACHED_SWITCH and not kernel_ready(machine):
        interpret(COLD_SWITCH)
    if machine.exited:
        return RunResult(machine.bundles - start, machine.exit_code, machine.interrupt, machine.pc)
    if machine.bundles - start >= max_bundles:
        raise _bundle_limit(machine, max_bundles)
    return run_compiled(machine, max_bundles, counted_from=start)


def _bundle_limit(machine, max_bundles: int):
    """The error ``Vp1Machine.run`` raises when the budget is spent, as it says it."""
    from .machine import BundleLimit
    return BundleLimit(f"stopped after {max_bundles:,} bundles without exit (at word {machine.pc:#x}); "
                       "raise --max-bundles if the program needs more")


class CompiledProgram:
    """The decoded program of one machine and the opcodes it compiles (rebuilt when its program
    or empty scalar word changes)."""

    def __init__(self, machine):
        self.program = list(machine.program)
        self.empty_scalar_word = machine.empty_scalar_word
        self.table, self.features = _decoded(tuple(self.program), machine.empty_scalar_word)

    def fits(self, machine) -> bool:
        return machine.program == self.program and machine.empty_scalar_word == self.empty_scalar_word


@functools.lru_cache(maxsize=64)
def _decoded(program: tuple[int, ...], empty_scalar_word: int) -> tuple[np.ndarray, Features]:
    """A program's table and opcodes, decoded once for every machine that runs it (a fresh
    machine per run, as the bench and the pictures make, would decode it again: 80 µs for the
    bench program's 772 bundles, a fifth of the run). The kernel never writes the table."""
    table = decode(list(program), empty_scalar_word)
    return table, features(table)


def compiled_program(machine) -> CompiledProgram:
    """``machine``'s decoded program, kept on the machine while it fits."""
    compiled = getattr(machine, "_compiled_program", None)
    if compiled is None or not compiled.fits(machine):
        compiled = machine._compiled_program = CompiledProgram(machine)
    return compiled


def _arrays(machine):
    state = machine.state
    return (np.array(state.r, dtype=np.int64), np.array(state.v, dtype=np.int64).reshape(32, 16),
            np.array(state.vc, dtype=np.int64), np.array(state.a, dtype=np.int64),
            np.array(state.c, dtype=np.int64), np.array(state.l, dtype=np.int64),
            np.array(state.sr, dtype=np.int64), np.array(state.va, dtype=np.int64),
            np.array(state.vx, dtype=np.int64), np.array(state.mi, dtype=np.int64),
            np.array(state.uc, dtype=np.int64), np.array(state.m, dtype=np.int64), np.array(state.d, dtype=np.int64),
            np.array(state.x, dtype=np.int64), np.frombuffer(bytes(machine.store.data), dtype=np.uint8).astype(np.int64))


def _write_back(machine, arrays) -> None:
    r, v, vc, a, c, l, sr, va, vx, mi, uc, m, d, x, store = arrays
    state = machine.state
    state.vx = vx.tolist()
    state.mi, state.uc, state.m, state.d, state.x = mi.tolist(), uc.tolist(), m.tolist(), d.tolist(), x.tolist()
    state.r = r.tolist()
    state.v = [row for row in v.tolist()]
    state.vc, state.a, state.c, state.l, state.sr = vc.tolist(), a.tolist(), c.tolist(), l.tolist(), sr.tolist()
    state.va = va.tolist()
    machine.store.data[:] = store.astype(np.uint8).tobytes()


def run_compiled(machine, max_bundles: int = 1_000_000, counted_from: int | None = None,
                 covered: Features | None = None):
    """``machine.run(max_bundles)`` with compiled bundles where they apply (module docstring);
    the same result, state, data store and errors. ``counted_from``: the machine's bundle count
    the budget and the result count from (default: where it is now), for a run begun elsewhere.
    ``covered``: run the kernel of these opcodes (which must cover the program's) rather than
    the one :func:`kernel_covering` picks."""
    from .machine import RunResult
    compiled = compiled_program(machine)
    if covered is None:
        run = kernel_covering(compiled.features)
    elif covered.covers(compiled.features):
        run = kernel(covered)
    else:
        raise ValueError("run_compiled: the kernel asked for does not cover the program's opcodes")
    from .compiled_loop import work_arrays
    work = work_arrays()
    start = machine.bundles if counted_from is None else counted_from
    loop_rule = LOOP_RULE_CODES[machine.loop_taken]
    while not machine.exited:
        left = max_bundles - (machine.bundles - start)
        if left <= 0:
            raise _bundle_limit(machine, max_bundles)
        flow = np.array([machine.pc, NONE if machine.redirect is None else machine.redirect,
                         int(machine.stop_after_next), int(machine.exited), machine.exit_code,
                         int(machine.interrupt), machine.bundles, int(machine.redirect_is_call),
                         len(machine.return_stack)], dtype=np.int64)
        stack = np.zeros(machine.return_stack_depth, dtype=np.int64)
        stack[:len(machine.return_stack)] = machine.return_stack
        arrays = _arrays(machine)
        arguments = (compiled.table, *arrays, flow, machine.state.g80, loop_rule, bool(machine.exit_delay_slot),
                     left, stack, bool(machine.ret_delay_slot), work)
        executed = call_compiling(run, *arguments)
        if executed:
            _write_back(machine, arrays)
            machine.pc = int(flow[0])
            machine.redirect = None if flow[1] == NONE else int(flow[1])
            machine.stop_after_next, machine.exited = bool(flow[2]), bool(flow[3])
            machine.exit_code, machine.interrupt, machine.bundles = int(flow[4]), bool(flow[5]), int(flow[6])
            machine.redirect_is_call = bool(flow[7])
            machine.return_stack = stack[:flow[8]].tolist()
        if not machine.exited and machine.bundles - start < max_bundles:
            machine.step()  # a bundle the compiled loop leaves to the interpreter
    return RunResult(machine.bundles - start, machine.exit_code, machine.interrupt, machine.pc)
