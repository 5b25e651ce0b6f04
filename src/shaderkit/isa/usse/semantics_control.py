"""USSE control semantics (spec/usse.md §2.1, §4, §5): NOP, PHAS, BA/BR (with ``save_link``), the
return through the link register, the closing SPEC word, the ``end`` flag and SMLSI (MOE
increments for repeats).

A prepared closure returns None (go on with the next instruction), :data:`END` (the program is
over for the running lanes), the index of the next instruction (a taken branch) or a
:class:`Split` (a branch only some running lanes take).

Choices where the spec says "unknown":

* The closing word ``0xFB275000A0200000`` (SPEC, category 2, special 0; probably an EMIT of the
  vertex outputs with the END bit, §2.1) ends the program. Every other SPEC word stops the run as
  "not modelled", except a return (``w1[21:20]`` = 0, ``w1[22]`` = 0, ``w1[8:6]`` = 2, spec §2.1
  notes), which jumps to the link register.
* Branches are per lane. With ``any_inst`` set a branch is taken (by every running lane) when
  its predicate holds in any running lane, with ``all_inst`` set when it holds in all of them;
  with neither, each lane follows its own predicate. Lanes that part are run by the machine
  one PC at a time, lowest PC first, each instruction writing only the lanes at that PC, until
  they meet again (:class:`Split`; the usual reconvergence of structured code).
* Targets (Vita3K's analyser): BR goes to its own index plus the sign-extended 20-bit
  ``br_off``; BA to its own index plus ``br_off`` unsigned. ``save_link`` stores the index of the
  next instruction in the link register (one, shared by all lanes: every lane that saves it
  saves the same value); a return with no link stored stops the run. ``exception``,
  ``pwait``, ``sync_ext``, ``br_monitor`` and ``syncend`` have no effect.
* SMLSI is followed statically, in program order, while the program is prepared: it sets the
  MOE increments of the repeated instructions after it (:func:`~.operands.repeat_operand`),
  whatever branches do at run time; ``temp_limit``, ``pa_limit`` and ``sa_limit`` (meaning
  unknown) are ignored. SMBO (base offsets, meaning in execution unknown) is not modelled.
* NOP and PHAS have no effect (whatever their flag bits). An ``end`` field set on a modelled
  instruction ends the program after that instruction.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .operands import NotModelled, predicate_reader
from .tables import PREDICATES_EXTENDED

END = -1
CLOSING_WORD = 0xFB275000A0200000


def with_end(run, end):
    """``run`` followed by the end of the program when ``end`` is set."""
    if not end:
        return run

    def run_then_end(state):
        run(state)
        return END
    return run_then_end


def no_effect(state):
    return None


def prepare_nop(f, ctx):
    return no_effect


def prepare_phas(f, ctx):
    return no_effect


class Split(NamedTuple):
    """A branch the running lanes disagree on: ``taken`` (bool per lane) go to ``target``."""

    target: int
    taken: np.ndarray


def _taken(pred, state, any_inst: bool, all_inst: bool):
    """True / False for every running lane, or the per-lane decision (bool array)."""
    if pred is None:
        return True
    lanes = pred(state)
    considered = lanes if state.active is None else lanes[state.active]
    if any_inst:
        return bool(np.any(considered))
    if all_inst:
        return bool(np.all(considered))
    if np.all(considered):
        return True
    if not np.any(considered):
        return False
    return lanes


def branch_target(f, ctx) -> int:
    """A BR's (sign-extended 20-bit offset) or BA's (unsigned) target (the emulator's and the GLSL's)."""
    offset = f["br_off"]
    if f["br_type"] and offset & 0x80000:
        offset -= 1 << 20
    return ctx.index + offset


def prepare_br(f, ctx):
    target = branch_target(f, ctx)
    pred = predicate_reader(PREDICATES_EXTENDED, f["pred"])
    any_inst, all_inst, link = bool(f["any_inst"]), bool(f["all_inst"]), bool(f["save_link"])
    after = ctx.index + 1

    def run(state):
        taken = _taken(pred, state, any_inst, all_inst)
        if taken is False:
            return None
        if link:
            state.link = after
        return target if taken is True else Split(target, taken)
    return run


def spec_is_end(f, ctx) -> bool:
    """A SPEC word: True for the closing word, False for a return through the link register;
    any other is not modelled (the emulator's and the GLSL's)."""
    if ctx.word == CLOSING_WORD:
        return True
    if f["category"] == 0 and f["special"] == 0 and (ctx.word >> 32 >> 6) & 7 == 2:
        return False
    raise NotModelled(f"SPEC category {f['category']} special {f['special']}")


def prepare_spec(f, ctx):
    if spec_is_end(f, ctx):
        return lambda state: END

    def run(state):
        if state.link is None:
            raise NotModelled("return with no link stored")
        return state.link
    return run


def _signed8(value: int) -> int:
    return value - 256 if value & 0x80 else value


def prepare_smlsi(f, ctx):
    """SMLSI sets the MOE increments for the instructions after it in program order (a static
    model: the run itself does nothing); the limits are ignored."""
    ctx.moe.increments = tuple(
        (True, f[f"{role}_inc"]) if f[f"{role}_inc_mode"] else (False, _signed8(f[f"{role}_inc"]))
        for role in ("dest", "src0", "src1", "src2"))
    return no_effect


PREPARE = {"SMLSI": prepare_smlsi, "NOP": prepare_nop, "PHAS": prepare_phas, "BR": prepare_br, "SPEC": prepare_spec}
