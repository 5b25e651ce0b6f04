"""USSE integer and bitwise semantics (spec/usse.md §5): VBW — AND, OR, XOR, SHL, ROL, SHR, ASR on
32-bit registers (16 bits with ``bitwise_partial``), with source 2 rotated and inverted.

The integer multiply-adds (I8MAD, I8MAD2, I16MAD, I32MAD, I32MAD2) and SOP2/SOP2M/SOP3 are not
modelled: the spec gives their fields but not their saturation, rounding and selection rules.

Choices where the spec says "unknown":

* ``ROL`` (not implemented by Vita3K) rotates source 1 left by source 2' (modulo the width).
  Shift amounts are taken modulo the width (32, or 16 when partial); ``SHR`` is logical, ``ASR``
  arithmetic. XOR ignores ``op2``.
* ``src2_rot`` rotates source 2 left within 32 bits (16 when partial), before the inversion.
* ``bitwise_partial``: the operation uses the low 16 bits of both sources and writes the 16-bit
  result to bits 15:0 of the destination, keeping bits 31:16.
* Registers are not doubled (§3.2); a temporary number of 124 or more is ``i(n - 124)``.
  ``repeat_sel`` 1 repeats ``repeat_count + 1`` times, operands stepping by the MOE increment
  (:func:`~.operands.repeat_operand`: k without SMLSI, not doubled; SMLSI roles dest, src1,
  src2); ``repeat_sel`` 0 with a non-zero mask is not modelled.
"""

from __future__ import annotations

import numpy as np

from .operands import (
    DEST, SRC1, SRC2, NotModelled, Immediate, dest_operand, predicate_reader, write_lanes, repeat_operand, src12_operand,
)
from .semantics_control import with_end
from .semantics_vector import sequence
from .tables import PREDICATES_EXTENDED

MNEMONICS = {(2, 0): "AND", (2, 1): "OR", (3, 0): "XOR", (3, 1): "XOR", (4, 0): "SHL", (4, 1): "ROL",
             (5, 0): "SHR", (5, 1): "ASR"}


def _rotate(value, amount, width):
    mask = (1 << width) - 1
    amount %= width
    value = np.asarray(value, np.uint64) & np.uint64(mask)
    if not amount:
        return value
    return ((value << np.uint64(amount)) | (value >> np.uint64(width - amount))) & np.uint64(mask)


def bitwise(mnemonic: str, a, b, width: int):
    """One VBW operation on unsigned values (uint64 arrays holding ``width``-bit numbers)."""
    mask = np.uint64((1 << width) - 1)
    a, b = np.asarray(a, np.uint64) & mask, np.asarray(b, np.uint64) & mask
    shift = b % np.uint64(width)
    if mnemonic == "AND":
        return a & b
    if mnemonic == "OR":
        return a | b
    if mnemonic == "XOR":
        return a ^ b
    if mnemonic == "SHL":
        return (a << shift) & mask
    if mnemonic == "SHR":
        return a >> shift
    if mnemonic == "ROL":
        return ((a << shift) | (a >> ((np.uint64(width) - shift) % np.uint64(width)))) & mask
    # ASR
    top = np.uint64(1 << (width - 1))
    signed = a.astype(np.int64) - np.where(a & top, np.int64(1 << width), np.int64(0))
    return (signed >> shift.astype(np.int64)).astype(np.uint64) & mask


def vbw_operands(f, ctx, predicate):
    """VBW's fields decoded (the emulator's and the GLSL's): the operation's mnemonic, the width
    (16 or 32), source 2's rotation (not yet taken modulo the width) and inversion, the predicate
    (``predicate(table, code)``) and, per repeat iteration, the operands (dest, src1, src2)."""
    key = (f["op1"], f["op2"] if f["op1"] != 3 else 0)
    if key not in MNEMONICS:
        raise NotModelled(f"VBW op1 {f['op1']}")
    mnemonic = MNEMONICS[key]
    if not f["repeat_sel"] and f["repeat_count"]:
        raise NotModelled("VBW repeat mask")
    count = f["repeat_count"] + 1 if f["repeat_sel"] else 1
    width = 16 if f["bitwise_partial"] else 32
    kw = dict(doubled=False, bits=7, secondary=ctx.secondary)
    dest0 = dest_operand(f["dest_bank"], f["dest_ext"], f["dest_n"], **kw)
    src1 = src12_operand(f["src1_bank"], f["src1_ext"], f["src1_n"], **kw)
    src2 = src12_operand(f["src2_bank"], f["src2_ext"], f["src2_n"], **kw)
    if isinstance(src2, Immediate):
        src2 = Immediate(f["src2_n"] | f["src2_sel"] << 7 | f["src2_exth"] << 14)
    pred = predicate(PREDICATES_EXTENDED, f["pred"])
    iterations = [tuple(repeat_operand(operand, ctx.moe, role, k, False)
                        for role, operand in ((DEST, dest0), (SRC1, src1), (SRC2, src2))) for k in range(count)]
    return mnemonic, width, f["src2_rot"], bool(f["src2_invert"]), pred, iterations


def prepare_vbw(f, ctx):
    mnemonic, width, rot, invert, pred, iterations = vbw_operands(f, ctx, predicate_reader)
    mask = np.uint64((1 << width) - 1)
    closures = []
    for dest, s1, s2 in iterations:
        def run(state, dest=dest, s1=s1, s2=s2):
            b = _rotate(s2.word(state, 0), rot, width)
            if invert:
                b = ~b & mask
            result = bitwise(mnemonic, s1.word(state, 0), b, width)
            if width == 16:
                old = np.asarray(dest.word(state, 0), np.uint64)
                result = (old & np.uint64(0xFFFF0000)) | result
            dest.write_word(state, 0, result.astype(np.uint32), write_lanes(pred, state))
        closures.append(run)
    return with_end(sequence(closures), f["end"])


PREPARE = {"VBW": prepare_vbw}
