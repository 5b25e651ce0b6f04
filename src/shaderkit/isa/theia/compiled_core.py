"""The SIMT core compiled: one Numba kernel runs a whole routine call (``Core.call``).

:mod:`.simt` decodes code once into :class:`~.simt.Step` records and interprets them with
NumPy, one whole-row operation per instruction group. Here the same Steps are flattened once
more into an integer table (:class:`Flat`, one row per instruction, made once per
:class:`~.simt.Code`), and :func:`run_call` — the kernel — does everything ``Core.call``
does: it picks the group of live lanes at the lowest program counter, runs its instruction
with the scalar units of :mod:`.compiled_units`, lets the lanes of a divergent jump part and
meet again, counts every group against the budget and every instruction per lane in
``executed``, and stops at the first fault. The kernel never raises: it returns a status and
where it stopped, and :func:`call` raises the very error the NumPy path raises.

A group whose lanes are one contiguous run of register-file columns (every lane of a tile
until a jump divides them) is computed on views of the register file, in plain loops over
the lanes that LLVM vectorises; a scattered group on copies gathered into a scratch block and
scattered back. Both go through the one :func:`run_alu`.

The order of groups, the budget count, the per-lane counters and every register word are
the NumPy path's, bit for bit (the suite runs both on the same programs and compares).
The kernel is generic — the program is data in the table — so it is compiled once, and
cached on disk by :func:`shaderkit.core.jit.jit`.

That first compile (issue 15: under 3 s) is shaped by how the code is split into functions.
The units and the small helpers here are compiled once each and inlined by LLVM where they
are called (:func:`~.compiled_units.unit`); :func:`run_alu`, the one big callee, is compiled
once on its own and called by its address (:class:`shaderkit.core.jit.Subroutine`), so that its
code is not linked into :func:`run_call` and optimised there a second time. The rare
operations share one loop and :func:`lane_operation` serves all three lanes of the lane-wise
ones, so each unit's code is there once. :func:`call` makes the kernel's work arrays
(allocating them in the kernel would compile NumPy's allocators into it) and pauses Python's
garbage collector while the first call compiles, and no function is called with a literal
argument (Numba would compile it once more per value).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from numba.core import types

from ...core.jit import Subroutine, call_compiling, jit
from . import semantics, simt
from .compiled_units import (
    COMPARE_TEST_CODES,
    CORE_OPTIONS,
    LANE_X,
    LANE_Y,
    LANE_Z,
    ONE,
    SCALE,
    SCALED,
    WORD_MASK,
    ZERO,
    add,
    compare,
    cross_difference,
    divide,
    dot,
    magnitude_sqrt,
    multiply,
    sub,
    unit,
)

U64 = np.uint64

# The operations an ALU step can run, numbered for the table.
ALU_MNEMONICS = ("ADD", "SUB", "DIV", "MUL", "MAG", "COPY", "INC", "ZERO", "CROSS", "DOT", "MULP", "MOD",
                 "FRAC", "NEG", "DEC", "XCHANGEX", "IMUL", "UNSCALE", "INCX", "INCY", "INCZ", "SETX", "SETY",
                 "SETZ", "SWIZZLE3D", "INTP", "XCHANGEY", "XCHANGEZ", "RESCALE")
(ADD, SUB, DIV, MUL, MAG, COPY, INC, ZERO_ROW, CROSS, DOT, MULP, MOD, FRAC, NEG, DEC, XCHANGEX, IMUL, UNSCALE,
 INCX, INCY, INCZ, SETX, SETY, SETZ, SWIZZLE3D, INTP, XCHANGEY, XCHANGEZ, RESCALE) = range(len(ALU_MNEMONICS))

# Table columns.
(KIND, OPERATION, DST, S1, S2, IMMEDIATE, HAS_IMMEDIATE, STORES, TARGET, RETURNS_TRUE, JUMP_LANE,
 JUMP_TEST) = range(12)
COLUMNS = 12

# What the kernel returns (status, where).
FINISHED, FAULTED, NO_CODE, OUT_OF_BUDGET = range(4)

FRACTION_MASK = U64(semantics.FRACTION_MASK)
INTEGER_MASK = U64(semantics.INTEGER_MASK)
SWIZZLE_YXZ = 21
NO_PC = np.iinfo(np.int64).max
# The kernel's work arrays (made by call): per lane, its register-file column while in the
# group (IDS), its program counter once diverged (PCS), the live lanes and the group.
IDS, PCS, LIVE_LANES, GROUP = range(4)
LANE_WORK_ROWS = 4
SCRATCH_ROWS = 9  # A, B and D, three word rows each, of a scattered group


class Flat:
    """A program flattened for the kernel: the table, and a dense map from code address to table row."""

    def __init__(self, steps: Mapping[int, simt.Step]):
        self.steps = [steps[address] for address in sorted(steps)]
        self.table = np.zeros((len(self.steps), COLUMNS), dtype=np.int64)
        last = max(steps, default=-1)
        self.index_of = np.full(last + 2, -1, dtype=np.int64)
        names = {function: mnemonic for mnemonic, function in semantics.SEMANTICS.functions().items()}
        for index, step in enumerate(self.steps):
            self.index_of[step.address] = index
            self.table[index] = _row(step, names)


def _row(step: simt.Step, names: dict) -> list[int]:
    row = [0] * COLUMNS
    row[KIND] = step.kind
    row[DST], row[S1], row[S2], row[TARGET] = step.dst, step.s1, step.s2, step.target
    row[STORES] = step.stores
    row[RETURNS_TRUE] = step.returns_true
    if step.immediate is not None:
        row[HAS_IMMEDIATE] = 1
        row[IMMEDIATE] = int(step.immediate[0, 0])
    if step.kind == simt.ALU:
        row[OPERATION] = ALU_MNEMONICS.index(names[step.operation])
    elif step.kind == simt.JUMP:
        lane, test = semantics.JUMP_TESTS[names[step.operation]]
        row[JUMP_LANE], row[JUMP_TEST] = lane, COMPARE_TEST_CODES[test]
    return row


def call(code: simt.Code, lanes: simt.Lanes, entry: int, selection: np.ndarray | None, budget: int,
         routine: str) -> np.ndarray:
    """``Core.call`` compiled: run from ``entry`` on the selected lanes; their return values."""
    flat = code.flat
    count = lanes.count if selection is None else len(selection)
    returned = np.zeros(count, dtype=np.bool_)
    if count == 0:
        return returned
    chosen = np.arange(count, dtype=np.int64) if selection is None else np.asarray(selection, dtype=np.int64)
    # The kernel's work arrays are made here: allocating in the kernel would compile NumPy's
    # allocators into it, which takes longer than the rest of a small routine's compile.
    lane_work = np.empty((LANE_WORK_ROWS, count), dtype=np.int64)
    scratch = np.empty((SCRATCH_ROWS, count), dtype=np.uint32)
    arguments = (flat.table, flat.index_of, lanes.rows, lanes.executed, chosen, np.int64(entry), np.int64(budget),
                 returned, lane_work, scratch)
    status, where = call_compiling(run_call, *arguments, RUN_ALU.address())
    if status == FAULTED:
        raise flat.steps[where].fault()
    if status == NO_CODE:
        raise simt.no_code(where)
    if status == OUT_OF_BUDGET:
        raise simt.out_of_budget(routine, budget)
    return returned


# --------------------------------------------------------------------------- the kernel


@unit
def low_word(wide):
    """The low 32 bits of a 64-bit multiplier result (MUL, IMUL and MULP keep those, no splice)."""
    return wide & WORD_MASK


@unit
def alu(operation, a, b):
    """One lane of one of the operations :func:`run_alu` has no loop for: the three result words
    from the three words of A and of B (tuples), ``semantics.i_<MNEMONIC>`` for one lane."""
    if operation == MAG:
        squares = ZERO  # wraps modulo 2^64 like the hardware's 64-bit adders
        for k in range(3):
            squares += multiply(a[k], a[k], SCALED)
        length = magnitude_sqrt(squares)
        return length, length, length
    if operation == MULP:
        return a[0], a[1], low_word(multiply(a[0], a[1], SCALED))
    if operation == SWIZZLE3D:
        if a[0] == 0:
            return b[0], b[0], b[0]
        if a[0] == 1:
            return b[1], b[1], b[1]
        if a[0] == 2:
            return b[2], b[2], b[2]
        if a[0] == SWIZZLE_YXZ:
            return b[1], b[0], b[2]
        return ZERO, ZERO, ZERO
    return (lane_operation(operation, LANE_X, a[0], b[0]), lane_operation(operation, LANE_Y, a[1], b[1]),
            lane_operation(operation, LANE_Z, a[2], b[2]))


@unit
def lane_operation(operation, k, a, b):
    """Result lane ``k`` of an operation whose lane k depends only on lane k of A (word ``a``)
    and of B (word ``b``): one function for the three lanes, so each unit's code is there once."""
    if operation == MUL or operation == IMUL:
        return low_word(multiply(a, b, operation == MUL))
    if operation == INC or (operation == INCX and k == 0) or (operation == INCY and k == 1) or (
            operation == INCZ and k == 2):
        return add(a, ONE)
    if operation == DEC:
        return sub(a, ONE)
    if (operation == XCHANGEX and k == 0) or (operation == XCHANGEY and k == 1) or (operation == XCHANGEZ and k == 2):
        return b
    if operation == MOD:
        return a & low_word(b - ONE)
    if operation == FRAC:
        return a & FRACTION_MASK
    if operation == NEG:
        return low_word(~a + U64(1))
    if operation == UNSCALE:
        return a >> SCALE
    if operation == INTP:
        return a & INTEGER_MASK
    if operation == RESCALE:
        return low_word(a << SCALE)
    # The lanes INCX..INCZ and XCHANGEX..XCHANGEZ keep.
    return a


@unit
def repeated_lanes(a, b, count):
    """Whether every lane of A and of B holds one word in X, Y and Z."""
    differ = 0
    for j in range(count):
        differ |= (a[1][j] ^ a[0][j]) | (a[2][j] ^ a[0][j]) | (b[1][j] ^ b[0][j]) | (b[2][j] ^ b[0][j])
    return differ == 0


def run_alu(step, a, b, d, count):
    """The ALU step ``step`` (a table row) on ``count`` lanes of the rows A, B, D (each a tuple of
    three word arrays, X, Y, Z): results into D; lane j of each is element j.

    D is never A or B (:func:`run_call` sees to that), so plain loops over j vectorise.
    The operations the default microcode runs most have loops of their own, one row lane at a
    time so that each unit's code is in the loop once; the others go through :func:`alu` lane
    by lane.
    """
    operation = step[OPERATION]
    if operation == ZERO_ROW:
        for k in range(3):
            target = d[k]
            for j in range(count):
                target[j] = 0
    elif operation == DIV and repeated_lanes(a, b, count):
        # Rows made by DOT hold one value thrice (every DIV in BIU): divide once per lane.
        for j in range(count):
            quotient = divide(U64(a[0][j]), U64(b[0][j]))
            d[0][j], d[1][j], d[2][j] = quotient, quotient, quotient
    elif operation == ADD or operation == SUB or operation == DIV:
        for k in range(3):
            left, right, target = a[k], b[k], d[k]
            if operation == ADD:
                for j in range(count):
                    target[j] = add(U64(left[j]), U64(right[j]))
            elif operation == SUB:
                for j in range(count):
                    target[j] = sub(U64(left[j]), U64(right[j]))
            else:
                for j in range(count):
                    target[j] = divide(U64(left[j]), U64(right[j]))
    elif operation == CROSS:
        for k in range(3):
            following, after, target = (k + 1) % 3, (k + 2) % 3, d[k]
            a_next, b_after, a_after, b_next = a[following], b[after], a[after], b[following]
            for j in range(count):
                target[j] = cross_difference(U64(a_next[j]), U64(b_after[j]), U64(a_after[j]), U64(b_next[j]))
    elif operation == DOT:
        for j in range(count):
            word = dot((U64(a[0][j]), U64(a[1][j]), U64(a[2][j])), (U64(b[0][j]), U64(b[1][j]), U64(b[2][j])))
            d[0][j], d[1][j], d[2][j] = word, word, word
    else:
        has_immediate = step[HAS_IMMEDIATE] != 0
        immediate = U64(step[IMMEDIATE])
        for j in range(count):
            if has_immediate:  # type II: A = (IMM, 0, 0)
                x, y, z = immediate, ZERO, ZERO
            else:
                x, y, z = U64(a[0][j]), U64(a[1][j]), U64(a[2][j])
            x, y, z = alu(operation, (x, y, z), (U64(b[0][j]), U64(b[1][j]), U64(b[2][j])))
            d[0][j], d[1][j], d[2][j] = x, y, z


# run_alu's arguments: a table row, the rows A, B and D (views of the register file or of
# scratch, contiguous either way), the lane count.
_WORDS = types.UniTuple(types.Array(types.uint32, 1, "C"), 3)
RUN_ALU = Subroutine(run_alu, (types.Array(types.int64, 1, "C"), _WORDS, _WORDS, _WORDS, types.int64),
                     **CORE_OPTIONS)
call_run_alu = RUN_ALU.call


@unit
def group_columns(chosen, group, group_size, ids):
    """Fill ``ids`` with the group's register-file columns; (the first one, how many lanes are
    out of one contiguous run from it)."""
    first = chosen[group[0]]
    gaps = 0
    for j in range(group_size):
        ids[j] = chosen[group[j]]
        gaps += ids[j] != first + j
    return first, gaps


@unit
def credit(executed, ids, group_size, instructions):
    """Count ``instructions`` more for each lane of the group."""
    for j in range(group_size):
        executed[ids[j]] += instructions


@jit(no_cfunc_wrapper=True, **CORE_OPTIONS)
def run_call(table, index_of, rows, executed, chosen, entry, budget, returned, lane_work, scratch, alu_address):
    """``Core.call`` on lanes ``chosen`` (register-file columns); (status, where) — see the module doc.

    ``group`` holds the positions (in ``chosen``) of the lanes that run the next instruction.
    While converged it is every live lane and ``pc`` their program counter; otherwise ``pcs``
    holds each lane's and ``live_lanes`` the lanes not yet returned, and the next group is the
    lanes at the lowest. The call starts that way, every lane at ``entry``, so the group is
    chosen in one place; every way out leaves the loop to the one ``credit`` after it.
    """
    count = chosen.shape[0]
    ids, pcs, live_lanes, group = lane_work[IDS], lane_work[PCS], lane_work[LIVE_LANES], lane_work[GROUP]
    for j in range(count):
        live_lanes[j] = j
        pcs[j] = entry
    group_size = np.int64(0)
    live = count
    converged = False
    pc = entry
    first = gaps = np.int64(0)
    # Instructions the current group has run that ``executed`` does not count yet: while the
    # group stays the same they are counted once, when it changes or the call ends.
    pending = np.int64(0)
    status, where = OUT_OF_BUDGET, np.int64(0)
    for _ in range(budget):
        if not converged:
            credit(executed, ids, group_size, pending)
            pending = 0
            # One pass: the lowest program counter so far, and the lanes at it.
            pc = NO_PC
            group_size = np.int64(0)  # not the literal 0, for which group_columns would be compiled again
            for j in range(live):
                lane_pc = pcs[live_lanes[j]]
                if lane_pc < pc:
                    pc = lane_pc
                    group_size = 0
                if lane_pc == pc:
                    group[group_size] = live_lanes[j]
                    group_size += 1
            first, gaps = group_columns(chosen, group, group_size, ids)
        if pc < 0 or pc >= index_of.shape[0] or index_of[pc] < 0:
            status, where = NO_CODE, pc
            break
        index = index_of[pc]
        step = table[index]
        pending += 1
        kind = step[KIND]
        next_pc = pc + 1
        if kind == simt.ALU:
            s1, s2, dst, operation = step[S1], step[S2], step[DST], step[OPERATION]
            if not step[STORES]:  # a dropped write has no other effect: skip the arithmetic
                pass
            elif operation == SETX or operation == SETY or operation == SETZ:
                # Type II on the old DST: only the replaced lane changes, in place.
                value = np.uint32(step[IMMEDIATE])
                for j in range(group_size):
                    rows[dst, operation - SETX, ids[j]] = value
            elif operation == COPY:
                # Straight from row to row, also for scattered lanes (no gathered copies).
                for j in range(group_size):
                    for k in range(3):
                        rows[dst, k, ids[j]] = rows[s1, k, ids[j]]
            else:
                contiguous = gaps == 0 and dst != s1 and dst != s2
                if contiguous:
                    # One contiguous run of lanes: run_alu works on views of the register file.
                    end = first + group_size
                    a = (rows[s1, 0, first:end], rows[s1, 1, first:end], rows[s1, 2, first:end])
                    b = (rows[s2, 0, first:end], rows[s2, 1, first:end], rows[s2, 2, first:end])
                    d = (rows[dst, 0, first:end], rows[dst, 1, first:end], rows[dst, 2, first:end])
                else:
                    # Scattered lanes, or DST is a source: on copies gathered into scratch.
                    for j in range(group_size):
                        for k in range(3):
                            scratch[k, j] = rows[s1, k, ids[j]]
                            scratch[3 + k, j] = rows[s2, k, ids[j]]
                    a = (scratch[0], scratch[1], scratch[2])
                    b = (scratch[3], scratch[4], scratch[5])
                    d = (scratch[6], scratch[7], scratch[8])
                call_run_alu(alu_address, (step, a, b, d, group_size))
                if not contiguous:
                    for j in range(group_size):
                        for k in range(3):
                            rows[dst, k, ids[j]] = scratch[6 + k, j]
        elif kind == simt.JUMP:
            lane_index = step[JUMP_LANE]
            test = step[JUMP_TEST]
            s1 = step[S1]
            s2 = step[S2]
            target = step[TARGET]
            taken_count = 0
            for j in range(group_size):
                lane = ids[j]
                if compare(test, U64(rows[s1, lane_index, lane]), U64(rows[s2, lane_index, lane])):
                    pcs[group[j]] = target
                    taken_count += 1
                else:
                    pcs[group[j]] = next_pc
            if converged and (taken_count == 0 or taken_count == group_size):
                if taken_count:
                    next_pc = target
            else:
                converged = False
                continue
        elif kind == simt.GOTO:
            next_pc = step[TARGET]
        elif kind == simt.RETURN:
            if step[STORES]:
                value = np.uint32(step[IMMEDIATE])
                for j in range(group_size):
                    lane = ids[j]
                    rows[step[DST], 0, lane] = value
                    rows[step[DST], 1, lane] = value
                    rows[step[DST], 2, lane] = value
            result = step[RETURNS_TRUE] != 0
            for j in range(group_size):
                returned[group[j]] = result
            if converged:
                status = FINISHED
                break
            for j in range(group_size):
                pcs[group[j]] = NO_PC
            kept = 0
            for j in range(live):
                if pcs[live_lanes[j]] != NO_PC:
                    live_lanes[kept] = live_lanes[j]
                    kept += 1
            live = kept
            if live == 0:
                status = FINISHED
                break
            continue
        elif kind != simt.NOTHING:
            status, where = FAULTED, index
            break
        if converged:
            pc = next_pc
        else:
            for j in range(group_size):
                pcs[group[j]] = next_pc
            if group_size == live:  # every live lane is here: run converged again
                converged = True
                pc = next_pc
    credit(executed, ids, group_size, pending)
    return status, where
