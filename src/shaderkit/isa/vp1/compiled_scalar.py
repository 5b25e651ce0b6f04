"""The scalar unit in the compiled loop (:mod:`.compiled`): which scalar words it runs and what
they write, through the interpreter's own rules (:mod:`.semantics_scalar`, compiled with
:func:`.compiled_s2v.jit_rule`).

:data:`KINDS` sorts the scalar opcodes by the interpreter function that runs them (its own
opcode table, ``SCALAR_OPS``); :func:`compiled_scalar_word` says which words the compiled loop
runs; :func:`build` gives ``scalar_unit``, which records one word's writes in a small array
(the compiled twin of :class:`~.state.Pending`'s scalar fields, slots below) for the loop to
commit in the priorities of §2.3. The s2v value the word hands over is :mod:`.compiled_s2v`'s.

Compiled: every scalar opcode but ``mov`` (0x6a/0x6b) with register file 4–7 or 23 (``$f``),
which the interpreter refuses.
"""

from __future__ import annotations

import numpy as np

from . import semantics_scalar as scalar

# Slots of the scalar pending array (-1 in an index slot: no write).
R_INDEX, R_VALUE = 0, 1            # scalar result: wins over every other $r writer
RM_INDEX, RM_VALUE = 2, 3          # mov from $v/$a/$c/$l: loses to an address load
C_INDEX, C_BITS = 4, 5             # the scalar flags of $c
V_INDEX, V_WORD, V_VALUE = 6, 7, 8  # a $v word
A_INDEX, A_VALUE = 9, 10           # $a (wins over the address unit)
L_INDEX, L_VALUE = 11, 12          # $l (loses to the branch unit)
OTHER_FILE, OTHER_INDEX, OTHER_VALUE = 13, 14, 15  # $sr $mi $uc $m $d $x (OTHER_* codes)
PORT_V = 16                        # the $v an address store reads instead (§2.4), or -1
SLOTS = 17
OTHER_SR, OTHER_MI, OTHER_UC, OTHER_M, OTHER_D, OTHER_X = range(1, 7)

(NOT_COMPILED, NOTHING, CLEAR_FLAGS, BMUL, VECMS, ARITHMETIC, LOGIC_IMM, BITOP, BYTE, BYTE_LOGIC, MOV_IMM,
 SETHI, MOV_TO, MOV_FROM, PRODUCTS) = range(15)
_KINDS = {
    scalar.bmul_factors_only: NOTHING, scalar.bvec: NOTHING, scalar.vec: NOTHING, scalar.bvecmad: NOTHING,
    scalar.bvecmadsel: NOTHING, scalar.snop: NOTHING, scalar.unsigned_products: PRODUCTS,
    scalar.clearing_nop: CLEAR_FLAGS, scalar.bmul: BMUL, scalar.vecms: VECMS,
    scalar.mul: ARITHMETIC, scalar.smin: ARITHMETIC, scalar.smax: ARITHMETIC, scalar.sabs: ARITHMETIC,
    scalar.neg: ARITHMETIC, scalar.add: ARITHMETIC, scalar.sub: ARITHMETIC, scalar.shift: ARITHMETIC,
    scalar.and_imm: LOGIC_IMM, scalar.xor_imm: LOGIC_IMM, scalar.or_imm: LOGIC_IMM, scalar.scalar_bitop: BITOP,
    scalar.bmin: BYTE, scalar.bmax: BYTE, scalar.babs: BYTE, scalar.bneg: BYTE, scalar.badd: BYTE,
    scalar.bsub: BYTE, scalar.bshr: BYTE, scalar.band: BYTE_LOGIC, scalar.bor: BYTE_LOGIC,
    scalar.bxor: BYTE_LOGIC, scalar.mov_imm: MOV_IMM, scalar.sethi: SETHI, scalar.mov_to_file: MOV_TO,
    scalar.mov_from_file: MOV_FROM,
}
# The rule each function names (semantics_scalar's ARITH_*, LOGIC_*, BYTE_* numbers).
_SUBKINDS = {
    scalar.mul: scalar.ARITH_MUL, scalar.smin: scalar.ARITH_MIN, scalar.smax: scalar.ARITH_MAX,
    scalar.sabs: scalar.ARITH_ABS, scalar.neg: scalar.ARITH_NEG, scalar.add: scalar.ARITH_ADD,
    scalar.sub: scalar.ARITH_SUB, scalar.shift: scalar.ARITH_SHIFT,
    scalar.and_imm: scalar.LOGIC_AND, scalar.xor_imm: scalar.LOGIC_XOR, scalar.or_imm: scalar.LOGIC_OR,
    scalar.band: scalar.LOGIC_AND, scalar.bor: scalar.LOGIC_OR, scalar.bxor: scalar.LOGIC_XOR,
    scalar.bmin: scalar.BYTE_MIN, scalar.bmax: scalar.BYTE_MAX, scalar.babs: scalar.BYTE_ABS,
    scalar.bneg: scalar.BYTE_NEG, scalar.badd: scalar.BYTE_ADD, scalar.bsub: scalar.BYTE_SUB,
    scalar.bshr: scalar.BYTE_SHIFT,
}
KINDS = tuple(_KINDS[function] for function in scalar.SCALAR_OPS)  # by opcode
SUBKINDS = tuple(_SUBKINDS.get(function, 0) for function in scalar.SCALAR_OPS)
SCALAR_COMPILED = frozenset(opcode for opcode, kind in enumerate(KINDS) if kind != NOT_COMPILED)
UNMODELLED_FILES = frozenset({4, 5, 6, 7, 23})  # refused by the interpreter: left to it


def compiled_scalar_word(word: int) -> bool:
    opcode = word >> 24
    if opcode in (0x6A, 0x6B):
        return (word >> 3 & 31) not in UNMODELLED_FILES
    return KINDS[opcode] != NOT_COMPILED


def build(njit, rules):
    """``scalar_unit(sw, aw, bw, out, immediate, port_r, r, v, a, c, l, sr, mi, uc, m, d, x, g80)``:
    the writes of scalar word ``sw`` (beside address word ``aw`` — NONE = -1 when absent or when
    the bundle has no scalar word of its own, so no shared read port — and branch word ``bw``)
    into ``out`` (slots above); ``immediate`` is the word-only source 2 of the byte-product
    forms (:func:`.compiled_s2v.word_parts`); ``port_r`` the ``$r`` a 0x6a reads instead of
    SRC1 (the port it shares with an address ``$r`` store, §2.4), or -1."""
    from .compiled_s2v import jit_rule

    sext, sext8, byte, clip = rules.sext, rules.sext8, rules.byte, rules.clip
    mangled_index = rules.mangled_index
    full_flags = jit_rule(njit, scalar.full_flags)
    partial_flags = jit_rule(njit, scalar.partial_flags, full_flags=full_flags)
    shift32 = jit_rule(njit, scalar.shift32, sext=sext)
    arithmetic_value = jit_rule(njit, scalar.arithmetic_value, sext=sext, shift32=shift32, full_flags=full_flags)
    logic_value = jit_rule(njit, scalar.logic_value)
    bitop = rules.bitop
    replicate = jit_rule(njit, scalar.replicate)
    shift_byte = jit_rule(njit, scalar.shift_byte, sext=sext)
    clip_byte = jit_rule(njit, scalar.clip_byte, clip=clip)
    byte_lane = jit_rule(njit, scalar.byte_lane, shift_byte=shift_byte, clip_byte=clip_byte)
    byte_lanes = jit_rule(njit, scalar.byte_lanes, byte=byte, sext8=sext8, byte_lane=byte_lane)
    m_index = jit_rule(njit, scalar.m_index)
    byte_products, bmul_rounds, bmul_result = rules.byte_products, rules.bmul_rounds, rules.bmul_result
    from .machine import V_STORES  # the address ops that read a $v through the shared port

    v_stores = np.zeros(256, dtype=np.int64)
    v_stores[list(V_STORES)] = 1
    kinds = np.array(KINDS, dtype=np.int64)
    subkinds = np.array(SUBKINDS, dtype=np.int64)
    M32 = 0xFFFFFFFF

    @njit(cache=False)
    def scalar_unit(sw, aw, bw, out, immediate, port_r, r, v, a, c, l, sr, mi, uc, m, d, x, g80):
        for slot in (R_INDEX, RM_INDEX, C_INDEX, V_INDEX, A_INDEX, L_INDEX, PORT_V):
            out[slot] = -1
        out[OTHER_FILE] = 0
        op = sw >> 24
        kind = kinds[op]
        dst, src1, src2 = sw >> 19 & 31, sw >> 14 & 31, sw >> 9 & 31
        clear = False  # [c]: the scalar flags take flags
        flags = 0
        if kind == CLEAR_FLAGS or (kind == PRODUCTS and op & 0xF == 0xF) or kind == BYTE or kind == BYTE_LOGIC:
            clear = True
        if kind == BMUL:  # bmul/bmula: $r, no $c
            s2 = immediate if sw >> 29 & 1 else r[src2]
            signed_result = not sw >> 28 & 1
            products = byte_products(r[src1], s2, sw >> 2 & 1 == 1, sw >> 1 & 1 == 1, signed_result,
                                     bmul_rounds(sw))
            out[R_INDEX], out[R_VALUE] = dst, bmul_result(products, signed_result)
        elif kind == VECMS:  # $r[SRC1] >>= 4 (arithmetic), no $c
            out[R_INDEX], out[R_VALUE] = src1, (sext(r[src1], 32) >> 4) & M32
        elif kind == ARITHMETIC or kind == BYTE:
            if kind == BYTE and sw >> 29 & 1:
                s2 = replicate(sw >> 3 & 0xFF)  # BIMM
            elif sw >> 29 & 1:
                s2 = sext(sw >> 3, 11) & M32  # IMM
            else:
                s2 = r[mangled_index(c[sw >> 3 & 3], sw >> 5 & 15, src2)]
            if kind == BYTE:
                out[R_INDEX], out[R_VALUE] = dst, byte_lanes(subkinds[op], r[src1], s2, not sw >> 28 & 1)
            else:
                result, flags = arithmetic_value(subkinds[op], r[src1], s2, not sw >> 28 & 1, g80)
                out[R_INDEX], out[R_VALUE] = dst, result
                clear = True
        elif kind == LOGIC_IMM or kind == BYTE_LOGIC:
            s2 = replicate(sw >> 3 & 0xFF) if kind == BYTE_LOGIC else sext(sw >> 3, 11)
            result = logic_value(subkinds[op], r[src1], s2)
            out[R_INDEX], out[R_VALUE] = dst, result
            if kind == LOGIC_IMM:
                flags, clear = partial_flags(result, g80), True
        elif kind == BITOP:  # bitop(BITOP, S2 unmangled, S1); partial flags
            result = bitop(sw >> 3 & 15, r[src2], r[src1], 32)
            out[R_INDEX], out[R_VALUE] = dst, result
            flags, clear = partial_flags(result, g80), True
        elif kind == MOV_IMM:  # D = sext19(IMM19), no flags
            out[R_INDEX], out[R_VALUE] = dst, sext(sw, 19) & M32
        elif kind == SETHI:  # D = (D & 0xffff) | IMM16 << 16, no flags
            out[R_INDEX], out[R_VALUE] = dst, (r[dst] & 0xFFFF) | (sw & 0xFFFF) << 16
        elif kind == MOV_TO:  # semantics_scalar.mov_to_file (port_r: the $r an address store names, §2.4)
            value = r[src1 if port_r < 0 else port_r]
            rfile = sw >> 3 & 31
            clear = True
            if rfile < 4 or rfile == 18:
                out[V_INDEX], out[V_WORD], out[V_VALUE] = dst, 2 if rfile == 18 else rfile, value
            elif rfile == 8 or rfile == 9 or rfile == 10:
                out[OTHER_FILE], out[OTHER_INDEX], out[OTHER_VALUE] = rfile - 7, dst, value  # sr mi uc
            elif rfile == 11:
                if dst < 4:
                    out[L_INDEX], out[L_VALUE] = dst, value & 0xFFFF
            elif rfile == 12:
                out[A_INDEX], out[A_VALUE] = dst, value
            elif rfile == 20 or rfile == 21:
                out[OTHER_FILE], out[OTHER_INDEX], out[OTHER_VALUE] = OTHER_M, m_index(sw, dst), value
            elif rfile == 22 and g80:
                out[OTHER_FILE], out[OTHER_INDEX], out[OTHER_VALUE] = OTHER_D, dst & 7, value & 0x1FFFF
            elif rfile == 24 and g80:
                out[OTHER_FILE], out[OTHER_INDEX], out[OTHER_VALUE] = OTHER_X, dst & 15, value
        elif kind == MOV_FROM:  # semantics_scalar.mov_from_file
            rfile = sw >> 3 & 31
            clear = True
            if rfile < 4:
                value = 0
                for k in range(4):
                    value |= v[src1, 4 * rfile + k] << (8 * k)
                out[RM_INDEX], out[RM_VALUE] = dst, value
            elif rfile == 8:
                out[R_INDEX], out[R_VALUE] = dst, sr[src1]
            elif rfile == 9:
                out[R_INDEX], out[R_VALUE] = dst, mi[src1]
            elif rfile == 10:
                out[R_INDEX], out[R_VALUE] = dst, uc[src1]
            elif rfile == 11:
                if bw >> 24 != 0xFF:  # from $l beside exit: nothing (§2.4)
                    out[RM_INDEX], out[RM_VALUE] = dst, l[src1 & 3]
            elif rfile == 12:
                out[RM_INDEX], out[RM_VALUE] = dst, a[src1]
            elif rfile == 13:
                out[RM_INDEX], out[RM_VALUE] = dst, c[src1] if src1 < 4 else 0
            elif rfile == 20 or rfile == 21:
                out[R_INDEX], out[R_VALUE] = dst, m[m_index(sw, src1)]
            elif rfile == 22 and g80:
                out[R_INDEX], out[R_VALUE] = dst, d[src1 & 7]
            elif rfile == 24 and g80:
                out[R_INDEX], out[R_VALUE] = dst, x[src1 & 15]
            if rfile < 4 and aw >= 0 and v_stores[aw >> 24]:  # the store reads this $v through the port (§2.4)
                out[PORT_V] = src1
        if clear and not sw & 4:
            out[C_INDEX], out[C_BITS] = sw & 3, flags

    return scalar_unit
