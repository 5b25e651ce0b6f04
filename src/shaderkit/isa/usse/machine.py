"""The USSE (PowerVR SGX543, VEC34) program emulator: one lane per vertex, every register a NumPy
row over the lanes (spec/usse.md §3, §5, §8).

API::

    machine = UsseMachine(primary, secondary=(), lanes=1, budget=DEFAULT_BUDGET)
    machine.set_bank("pa", 0, values)   # values: (registers, lanes) uint32, or broadcastable
    machine.set_bank("sa", 32, literal_column)
    machine.run()                       # the secondary program, then the primary one
    outputs = machine.bank("o")         # (registers, lanes) uint32 copy

``primary`` and ``secondary`` are 64-bit instruction words (``w1 << 32 | w0``). Every word is
decoded once (:func:`~.description.fields_reading`: the first-match form and its raw fields,
with no text round trip) and prepared into a closure of the state; the run loop only calls
closures and follows the PC. Banks ``r``, ``o``, ``pa``, ``sa`` hold uint32
(F32 channel k in register ``n + k``, F16 channels ``2k``/``2k + 1`` in bits 15:0/31:16 of
register ``n + k``); internal registers ``i0``–``i3`` and predicates ``p0``–``p3`` are per lane
too (:mod:`.operands`).

Modelled forms: VMAD2, V32NMAD and V16NMAD (op2 0–2, 5–7), VMAD, VDP, VCOMP
(:mod:`.semantics_vector`); VMOV/VMOVC/VMOVCU8, VPCK, LIMM (:mod:`.semantics_move`); VTST,
VTSTMSK (:mod:`.semantics_test`); VBW (:mod:`.semantics_integer`); NOP, PHAS, BA/BR, the
return, the closing SPEC word, SMLSI (:mod:`.semantics_control`). Everything else — SMP, VLDST,
KILL, DEPTHF, VDUAL, SOP*, the integer MADs, I8MAD2, SMBO, data words, other SPEC words,
operands in the global/index banks — stops the run with ``InputError("not modelled: <form>
<16 hex digits> at instruction N (...)")`` when it is reached (the program's own words after the
end are never touched).

Execution model choices (spec §8 leaves them open):

* The secondary program runs first, once per lane, on the same lanes: each lane has its own
  ``sa`` bank (so one run can hold many draws' uniforms). Following Vita3K, every storage
  operand of the secondary program (``r``, ``o``, ``pa``, ``sa``) addresses the ``sa`` bank.
* Temporaries, internal registers and predicates start at zero, and the link register empty,
  for each of the two programs; ``o`` starts at zero and keeps what the programs write.
* A program ends at the closing SPEC word ``0xFB275000A0200000``, at an instruction whose
  ``end`` field is set (after it: VMAD, VDP, VCOMP, VPCK, VBW, LIMM, unconditional VMOV), or
  after its last word. ``skipinv``, ``nosched``, ``syncstart`` and ``syncend`` have no effect.
* Branches are per lane (:mod:`.semantics_control`): lanes that part run one PC at a time,
  lowest first, writing only their own lanes, until they meet again.
* Every run has an instruction budget (``budget`` instructions per program; a repeated
  instruction counts once, and while lanes are apart each PC group's instruction counts); a
  program that exceeds it — a loop — stops with an InputError naming the budget and the
  instruction it had reached.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ...core.diagnostics import InputError
from .description import fields_reading
from .operands import STORAGE_BANKS, Moe, NotModelled, UsseState, record_needs
from .semantics_control import END, Split
from .semantics_control import PREPARE as CONTROL
from .semantics_integer import PREPARE as INTEGER
from .semantics_move import PREPARE as MOVE
from .semantics_test import PREPARE as TEST
from .semantics_vector import PREPARE as VECTOR

DEFAULT_BUDGET = 100_000
PREPARE = {**VECTOR, **MOVE, **TEST, **INTEGER, **CONTROL}
MINIMUM_BANK = 16


@dataclass(frozen=True)
class Context:
    """What a prepare function may know about the instruction besides its fields."""

    index: int
    word: int
    secondary: bool
    moe: Moe  # the SMLSI state, shared by the program's instructions in program order


def form_name(instruction) -> str:
    form = instruction.form
    return form if isinstance(form, str) else getattr(form, "name", str(form))


def _not_modelled(message: str):
    def run(state):
        raise InputError(message)
    return run


def _guarded(run, form: str, word: int, index: int):
    """``run`` with a run-time NotModelled (a divergent branch, a return without link) turned
    into the InputError that names the instruction."""
    def guarded(state):
        try:
            return run(state)
        except NotModelled as error:
            raise InputError(f"not modelled: {form} {word:016X} at instruction {index} ({error})") from None
    return guarded


def prepare_program(words: Sequence[int], secondary: bool = False, needed: dict | None = None) -> list:
    """Decode every word once into a closure of the state (see the module docstring).
    ``needed`` (bank -> registers) receives how many registers of each bank the program uses."""
    record_needs({} if needed is None else needed)
    try:
        return _prepare(words, secondary)
    finally:
        record_needs(None)


def _prepare(words, secondary):
    description = fields_reading()
    program = []
    moe = Moe()
    for index, word in enumerate(words):
        word = int(word) & 0xFFFFFFFFFFFFFFFF
        instruction = description.decode([word & 0xFFFFFFFF, word >> 32])
        form = form_name(instruction)
        prepare = PREPARE.get(form)
        where = f"{form} {word:016X} at instruction {index}"
        if prepare is None:
            program.append(_not_modelled(f"not modelled: {where}"))
            continue
        try:
            run = prepare(dict(instruction.fields), Context(index, word, secondary, moe))
        except NotModelled as error:
            program.append(_not_modelled(f"not modelled: {where} ({error})"))
            continue
        program.append(_guarded(run, form, word, index) if form in ("BR", "SPEC") else run)
    return program


class UsseMachine:
    """Runs a vertex program's secondary and primary words over ``lanes`` vertices."""

    def __init__(self, primary: Sequence[int], secondary: Sequence[int] = (), lanes: int = 1,
                 budget: int = DEFAULT_BUDGET):
        if lanes < 1:
            raise InputError("a USSE run needs at least one lane")
        self.lanes, self.budget = lanes, budget
        needed = {name: MINIMUM_BANK for name in STORAGE_BANKS}
        self.primary = prepare_program(primary, needed=needed)
        self.secondary = prepare_program(secondary, secondary=True, needed=needed)
        self.state = UsseState(lanes, needed)

    def set_bank(self, bank: str, start: int, values) -> None:
        """Set registers ``start``, ``start + 1``, ... of ``bank`` (r, o, pa, sa) in every lane:
        ``values`` is (registers, lanes) uint32 or broadcastable to it."""
        if bank not in STORAGE_BANKS:
            raise InputError(f"unknown USSE bank {bank!r} (known: {', '.join(STORAGE_BANKS)})")
        values = np.asarray(values)
        if values.ndim < 2:
            values = values.reshape(-1, 1)
        values = np.broadcast_to(values.astype(np.uint32), (values.shape[0], self.lanes))
        array = self.state.ensure(bank, start + values.shape[0] + 4)
        array[start:start + values.shape[0]] = values

    def bank(self, bank: str) -> np.ndarray:
        if bank not in STORAGE_BANKS:
            raise InputError(f"unknown USSE bank {bank!r} (known: {', '.join(STORAGE_BANKS)})")
        return self.state.banks[bank].copy()

    def run(self) -> None:
        # IEEE results (inf, NaN) are what the programs compute, not errors to report.
        with np.errstate(all="ignore"):
            for program in (self.secondary, self.primary):
                self.state.reset_program_state()
                self._run(program)

    def _run(self, program: list) -> None:
        """Run from instruction 0. While every lane is at the same PC the state has no active
        mask; after a Split each lane has its own PC, the lowest one runs (only its lanes
        write) until all remaining lanes share a PC again."""
        state, size, budget = self.state, len(program), self.budget
        pc = executed = 0
        pcs = None  # per-lane PCs while lanes are apart; ``size`` marks a lane that has ended
        while True:
            if pcs is not None:
                running = pcs < size
                if not running.any():
                    return
                pc = int(pcs[running].min())
                active = pcs == pc
                if active.all():
                    pcs, state.active = None, None
                else:
                    state.active = active
            if not 0 <= pc < size:
                if pcs is None:
                    return
                pcs[state.active] = size
                continue
            executed += 1
            if executed > budget:
                raise InputError(f"instruction budget of {budget} exhausted at instruction {pc} (a loop?)")
            after = program[pc](state)
            if pcs is None:
                if after is None:
                    pc += 1
                elif after == END:
                    return
                elif isinstance(after, Split):
                    pcs = np.where(after.taken, after.target, pc + 1).astype(np.int64)
                else:
                    pc = after
                continue
            active = state.active
            if after is None:
                pcs[active] = pc + 1
            elif isinstance(after, Split):
                pcs[active] = np.where(after.taken, after.target, pc + 1)[active]
            elif after == END:
                pcs[active] = size
            else:
                pcs[active] = after
