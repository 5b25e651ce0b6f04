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

Compiled operations (a subset; all others run in the interpreter):

* scalar: ``add`` (0x4c 0x5c 0x6c 0x7c), ``sar``/``shr`` (0x4e 0x5e 0x6e 0x7e), ``bitop`` (0x42),
  ``mov $r IMM19`` (0x65), ``sethi $r`` (0x75), ``mov $v word $r`` (0x6a with RFILE 0–3 or 18),
  ``snop`` (0x4f, also the empty scalar slot when that is ``snop``), ``bmul``/``bmula``
  (01 11 21 31 02 12 22 32), ``vecms`` (45), and the words whose only effect is the s2v value:
  the bmul datapath's factors-only forms (00 03 10 13 20 23 30 33), the unsigned products
  (06 07 14–17 34–37; 1f 2f 3f also clear the scalar flags), ``bvecmad``/``bvecmadsel`` (04/05),
  ``bvec`` (0f), ``vec`` (24);
* the s2v path (§6, :mod:`.compiled_s2v`): the factors and ``$vc`` selection every compiled
  scalar word (or the machine's empty scalar word) hands the vector unit, computed only where the
  bundle's vector op reads them;
* address: ``ldavh``/``ldavv`` (c0 c1 d0 d1) and ``stavh``/``stavv`` (c4 c5 d4 d5) with their
  post-increment (mangled ``$a`` or IMM) and short flag, ``aadd`` (ca), ``setlo``/``sethi``
  (cc/cd), ``ldvh``/``ldvv`` (d8/d9), ``stvh``/``stvv`` (dc/dd), ``anop`` (df); the ``$a``
  arithmetic is the interpreter's ``address_add``/``short_flag``/``mangled_index``, compiled;
* vector: ``vmin``/``vmax``/``vabs``/``vneg``/``vadd``/``vsub``, register forms (88–8d, 98–9a 9c 9d)
  and immediate forms (a8 a9 b8 b9, ac bc bd), ``vand``/``vxor``/``vor`` (aa ab af),
  ``mov VD BIMM`` (ad), ``vswz`` (9b), ``vlrp`` (90: reads no s2v, writes no ``$va``),
  ``vmul``/``vmac`` (80–83 91–93 a0–a3 b0–b2: ``$va``, no s2v), and the s2v readers beside any
  compiled scalar word: ``vmad2`` (84 85 95), ``vmac2`` (86 87 96 97 a6 a7), the lerp family
  ``vlrp2``/``vlrp4a``/``vlrpf``/``vlrp4b`` (b3–b7; b6/b7 read ``$vx``);
* branch: ``bra``/``bra not`` (e0/e2), ``bra loop``/``bra loop not`` (e1/e3), ``bnop`` (ef),
  ``mov $l`` (f0), ``exit`` (ff).

Not compiled: the byte ops (08–0e 18–1e 28–2e 38–3e, band/bor/bxor 25–27) and the 32-bit ops
other than add/shift/bitop (mul, min/max, abs, neg, sub, and/xor/or IMM) and the undecoded
flag-clearing opcodes, ``mov`` to or from other register files (0x6a to files other than
``$v`` words, 0x6b), calls and returns, the address unit's ``$r`` loads/stores, ``$vx``
(ldr d7) and the other address ops, the shared read ports (no compiled pair of words shares
one), the vector ops vshr, vbitop, vcmpad, vadd9, vclip, vminabs, ``mov`` from ``$v``/``$vc``,
vnop, and tracing (``run`` with ``trace`` always interprets).
"""

from __future__ import annotations

import numpy as np

from .bundles import bundle_length, slots
from .compiled_s2v import word_parts

SCALAR_ADD = frozenset({0x4C, 0x5C, 0x6C, 0x7C})
SCALAR_SHIFT = frozenset({0x4E, 0x5E, 0x6E, 0x7E})
# Words whose only effect is the s2v value (compiled_s2v): the bmul datapath's factors-only forms,
# the unsigned products without $c, bvecmad/bvecmadsel, bvec, vec.
SCALAR_FACTORS_ONLY = frozenset({0x00, 0x10, 0x20, 0x30, 0x03, 0x13, 0x23, 0x33, 0x06, 0x07, 0x14, 0x15, 0x16,
                                 0x17, 0x34, 0x35, 0x36, 0x37, 0x04, 0x05, 0x0F, 0x24})
SCALAR_PRODUCTS_CLEAR = frozenset({0x1F, 0x2F, 0x3F})  # unsigned products that clear the scalar flags
SCALAR_BMUL = frozenset({0x01, 0x11, 0x21, 0x31, 0x02, 0x12, 0x22, 0x32})  # bmul/bmula: $r, no $c
SCALAR_VECMS = 0x45
SCALAR_COMPILED = SCALAR_ADD | SCALAR_SHIFT | SCALAR_FACTORS_ONLY | SCALAR_PRODUCTS_CLEAR | SCALAR_BMUL \
    | {0x42, 0x4F, 0x65, 0x6A, 0x75, SCALAR_VECMS}
MOV_TO_V_WORD_FILES = frozenset({0, 1, 2, 3, 18})  # 0x6a into a $v word (18: an alias of word 2)
ADDRESS_COMPILED = frozenset({0xC0, 0xC1, 0xC4, 0xC5, 0xCA, 0xCC, 0xCD, 0xD0, 0xD1, 0xD4, 0xD5,
                              0xD8, 0xD9, 0xDC, 0xDD, 0xDF})
VECTOR_CLIP = {0xA8: 0, 0xB8: 0, 0xA9: 1, 0xB9: 1, 0xAC: 2, 0xBC: 2, 0xBD: 3}  # min, max, add, sub
VECTOR_LOGIC = {0xAA: 0, 0xAB: 1, 0xAF: 2}  # and, xor, or
VECTOR_REGISTER_CLIP = frozenset({0x88, 0x89, 0x8A, 0x8B, 0x8C, 0x8D, 0x98, 0x99, 0x9A, 0x9C, 0x9D})
# vmul/vmac: opcode -> (A is $va, writes VD), as semantics_vector.MULTIPLY_FORMS says
VECTOR_MULTIPLY = frozenset({0x80, 0x81, 0x82, 0x83, 0x91, 0x92, 0x93, 0xA0, 0xA1, 0xA2, 0xA3, 0xB0, 0xB1, 0xB2})
VECTOR_MAD2 = frozenset({0x84, 0x85, 0x95})
VECTOR_MAC2 = frozenset({0x86, 0x87, 0x96, 0x97, 0xA6, 0xA7})
VECTOR_LERP = frozenset({0xB3, 0xB4, 0xB5, 0xB6, 0xB7})
VECTOR_READS_S2V = VECTOR_MAD2 | VECTOR_MAC2 | VECTOR_LERP
VECTOR_COMPILED = frozenset(VECTOR_CLIP) | frozenset(VECTOR_LOGIC) | VECTOR_REGISTER_CLIP | VECTOR_MULTIPLY \
    | VECTOR_READS_S2V | {0x90, 0x9B, 0xAD}
BRANCH_COMPILED = frozenset({0xE0, 0xE1, 0xE2, 0xE3, 0xEF, 0xF0, 0xFF})
LOOP_RULE_CODES = {"before": 0, "after": 1, "always": 2}
NONE = -1

_kernel = None


def compiled_word(word: int, unit: int) -> bool:
    opcode = word >> 24
    if unit == 1 and opcode == 0x6A:  # mov $v word from $r only; the other files are interpreted
        return (word >> 3 & 31) in MOV_TO_V_WORD_FILES
    return opcode in (ADDRESS_COMPILED, SCALAR_COMPILED, VECTOR_COMPILED, BRANCH_COMPILED)[unit]


def decode(program: list[int], empty_scalar_word: int) -> np.ndarray:
    """Per word address: [compiled?, length, A, S, V, B] (NONE for an empty slot; S is the
    empty scalar word where the bundle has none), then the word-only parts of S's s2v value
    (:func:`.compiled_s2v.word_parts`: emits?, vcidx, vcflag, vcxfrm, immediate)."""
    table = np.full((len(program), 11), NONE, dtype=np.int64)
    empty_ok = compiled_word(empty_scalar_word, 1)
    for pc in range(len(program)):
        length = bundle_length(program, pc)
        units = slots(program[pc:pc + length])
        if units[1] is None:
            units[1] = empty_scalar_word
            ok = empty_ok
        else:
            ok = True
        ok = ok and all(word is None or compiled_word(word, unit) for unit, word in enumerate(units))
        table[pc] = [1 if ok else 0, length, *(NONE if word is None else word for word in units),
                     *word_parts(units[1])]
    return table


def kernel():
    global _kernel
    if _kernel is None:
        _kernel = _build()
    return _kernel


def _build():
    from numba import njit

    from . import compiled_s2v, semantics_address, semantics_scalar, semantics_vector
    from . import state as state_module

    M32 = 0xFFFFFFFF
    C_ZERO = (1 << 11) | (1 << 12) | (1 << 14)
    C_ONE = 1 << 15

    @njit(cache=False)
    def sext(value, bits):
        value &= (1 << bits) - 1
        return value - (1 << bits) if value >> (bits - 1) else value

    @njit(cache=False)
    def full_flags(result, source1, g80):
        flags = (result >> 31 & 1) | (1 << 1 if result == 0 else 0) | ((result >> 19 & 1) << 2) \
            | (((result ^ source1) >> 20 & 1) << 3) | ((result >> 20 & 1) << 4) | ((result >> 21 & 1) << 5)
        if g80:
            flags |= ((result >> 19 & 1) << 6) | ((result >> 18 & 1) << 7)
        return flags

    # The interpreter's own truth-table rule, compiled (a plain function of integers).
    bitop = njit(cache=False)(semantics_scalar.bitop)
    # The interpreter's $a arithmetic (§8.2) and mangled source (§4.3), compiled likewise.
    address_add = njit(cache=False)(semantics_address.address_add)
    short_flag = njit(cache=False)(semantics_address.short_flag)
    mangled_index = njit(cache=False)(state_module.mangled_index)
    # The multiply-accumulate datapath's readout shift (§7.2), compiled likewise.
    readout_shift = njit(cache=False)(semantics_vector.readout_shift)
    VA_MASK = state_module.VA_MASK
    rules = compiled_s2v.build(njit)
    bmul_result, bmul_rounds, byte_products, component_factors, factor_masks = \
        rules.bmul_result, rules.bmul_rounds, rules.byte_products, rules.component_factors, rules.factor_masks
    lerp_mask, pair_mask, scalar_factors, sext8 = rules.lerp_mask, rules.pair_mask, rules.scalar_factors, rules.sext8
    accumulate_one = compiled_s2v.jit_rule(njit, semantics_vector.accumulate_one, sext=rules.sext)
    quad_register = njit(cache=False)(state_module.quad_register)
    reads_s2v = np.zeros(256, dtype=np.int64)
    reads_s2v[list(VECTOR_READS_S2V)] = 1
    factors_only = np.zeros(128, dtype=np.int64)
    factors_only[list(SCALAR_FACTORS_ONLY)] = 1
    bmul_op = np.zeros(128, dtype=np.int64)
    bmul_op[list(SCALAR_BMUL)] = 1
    multiply_form = np.zeros(256, dtype=np.int64)
    multiply_from_va = np.zeros(256, dtype=np.int64)
    multiply_writes_vd = np.zeros(256, dtype=np.int64)
    for opcode, (from_va, write_vd) in semantics_vector.MULTIPLY_FORMS.items():
        multiply_form[opcode], multiply_from_va[opcode], multiply_writes_vd[opcode] = 1, from_va, write_vd

    # The datapath's input conversion, rounding constant and readout (§7.2): the interpreter's.
    mad_rounding = njit(cache=False)(semantics_vector.rounding_constant)
    mad_input = njit(cache=False)(semantics_vector.convert)
    read_out = njit(cache=False)(semantics_vector.read_out_byte)

    @njit(cache=False)
    def store_offset(address, stride):
        address &= 0x1FFF
        if stride == 0:
            rotation = (address >> 5) & 7
        else:
            rotation = address >> (4 + stride)
        return (address & ~0xF) | ((address + rotation) & 0xF)

    @njit(cache=False)
    def vector_address(word, address, stride, i):
        if word >> 24 & 1:
            step = 0x10 << stride
            return (address & 0x1FFF & ~(0xF << (4 + stride))) + i * step
        return (address & 0x1FFF & ~0xF) + i

    @njit(cache=False)
    def run(table, r, v, vc, a, c, l, sr, va, vx, store, flow, g80, loop_rule, exit_delay_slot, budget,
            uccfg_down):
        """flow: [pc, redirect, stop_after_next, exited, exit_code, interrupt, bundles];
        uccfg_down: ``$uccfg`` bit 0 (ties round down), which no compiled op writes."""
        size = table.shape[0]
        new_v = np.zeros(16, dtype=np.int64)
        stores_at = np.zeros(16, dtype=np.int64)
        stores_value = np.zeros(16, dtype=np.int64)
        vector_result = np.zeros(16, dtype=np.int64)
        new_va = np.zeros(16, dtype=np.int64)
        executed = 0
        while flow[3] == 0 and executed < budget:
            pc = flow[0]
            if pc < 0 or pc >= size or table[pc, 0] != 1:
                break
            length = table[pc, 1]
            aw, sw, vw, bw = table[pc, 2], table[pc, 3], table[pc, 4], table[pc, 5]
            # pending writes
            r_index = -1
            r_value = 0
            av_index = -1
            vv_index = -1
            vc_index = -1
            vc_value = 0
            ac_index = -1
            ac_mask = 0
            ac_bits = 0
            sv_index = -1
            va_written = False
            sv_word = 0
            sv_value = 0
            aa_index = -1
            aa_value = 0
            sc_index = -1
            sc_bits = 0
            bc_index = -1
            bc_bits = 0
            bl_index = -1
            bl_value = 0
            store_count = 0
            flow_kind = 0  # 0 none, 1 jump, 2 exit
            condition = False
            target = 0
            has_loop = False
            loop_before = 0
            loop_after = 0
            exit_code = 0
            interrupt = 0
            # scalar
            op = sw >> 24
            if factors_only[op]:  # no visible write: its s2v value is below
                pass
            elif op == 0x1F or op == 0x2F or op == 0x3F:  # unsigned products: [c] clears the scalar flags
                if not sw & 4:
                    sc_index, sc_bits = sw & 3, 0
            elif op == 0x45:  # vecms: $r[SRC1] >>= 4 (arithmetic), no $c
                r_index = sw >> 14 & 31
                r_value = (sext(r[r_index], 32) >> 4) & M32
            elif bmul_op[op]:  # bmul/bmula (semantics_scalar.bmul): $r, no $c
                s2 = table[pc, 10] if sw >> 29 & 1 else r[sw >> 9 & 31]
                signed_result = not sw >> 28 & 1
                products = byte_products(r[sw >> 14 & 31], s2, sw >> 2 & 1 == 1, sw >> 1 & 1 == 1,
                                               signed_result, bmul_rounds(sw))
                r_index, r_value = sw >> 19 & 31, bmul_result(products, signed_result)
            elif op == 0x6A:  # mov $v[DST] word RFILE from $r[SRC1]; [c] clears the scalar flags
                rfile = sw >> 3 & 31
                sv_index, sv_word, sv_value = sw >> 19 & 31, 2 if rfile == 18 else rfile, r[sw >> 14 & 31]
                if not sw & 4:
                    sc_index, sc_bits = sw & 3, 0
            elif op == 0x65:  # mov $r IMM19: D = sext19(IMM19), no flags
                r_index, r_value = sw >> 19 & 31, sext(sw, 19) & M32
            elif op == 0x75:  # sethi $r: D = (D & 0xffff) | IMM16 << 16, no flags
                r_index = sw >> 19 & 31
                r_value = (r[r_index] & 0xFFFF) | (sw & 0xFFFF) << 16
            elif op != 0x4F:
                dst, src1, src2 = sw >> 19 & 31, sw >> 14 & 31, sw >> 9 & 31
                s1 = r[src1]
                if op == 0x42:
                    result = bitop(sw >> 3 & 15, r[src2], s1)
                    flags = full_flags(result, result, g80) & ~0x09
                else:
                    if sw >> 29 & 1:
                        s2 = sext(sw >> 3, 11) & M32
                    else:
                        cv = c[sw >> 3 & 3]
                        slct = sw >> 5 & 15
                        if slct == 4:
                            index = (src2 & ~3) | ((src2 + ((cv >> 4) & 3)) & 3)
                        else:
                            index = src2 ^ ((cv >> slct) & 1)
                        s2 = r[index]
                    if op & 0x0F == 0x0C:
                        result = (s1 + s2) & M32
                    else:
                        count = sext(s2, 6)
                        if count == -32:
                            result = s1
                        elif count < 0:
                            result = (s1 << -count) & M32
                        elif sw >> 28 & 1:
                            result = s1 >> count
                        else:
                            result = (sext(s1, 32) >> count) & M32
                    flags = full_flags(result, s1, g80)
                r_index, r_value = dst, result
                if not sw & 4:
                    sc_index, sc_bits = sw & 3, flags
            # address
            if aw != NONE:
                op = aw >> 24
                if op == 0xCC or op == 0xCD:  # setlo / sethi: no flags
                    index = aw >> 19 & 31
                    if op == 0xCC:
                        aa_index, aa_value = index, (a[index] & 0xFFFF0000) | (aw & 0xFFFF)
                    else:
                        aa_index, aa_value = index, (a[index] & 0xFFFF) | (aw & 0xFFFF) << 16
                elif op == 0xCA or (op & 0xEA) == 0xC0:  # aadd; ldav/stav c0 c1 c4 c5 d0 d1 d4 d5
                    if op == 0xCA or (op & 4):
                        index = aw >> 19 & 31
                    else:
                        index = aw >> 14 & 31
                    a_value = a[index]
                    if op >> 4 & 1:
                        step = sext(aw >> 3, 11)
                    else:
                        step = a[mangled_index(c[aw >> 3 & 3], aw >> 5 & 15, aw >> 9 & 31)]
                    moved = address_add(a_value, step)
                    aa_index, aa_value = index, moved
                    if not aw & 4:
                        ac_index, ac_mask, ac_bits = aw & 3, 1 << 10, short_flag(moved)
                    stride = a_value >> 30 & 3
                    if op == 0xCA:
                        pass
                    elif op & 4:
                        source = aw >> 14 & 31
                        for i in range(16):
                            stores_at[i] = store_offset(vector_address(aw, a_value, stride, i), stride)
                            stores_value[i] = v[source, i]
                        store_count = 16
                    else:
                        av_index = aw >> 19 & 31
                        for i in range(16):
                            new_v[i] = store[store_offset(vector_address(aw, a_value, stride, i), stride)]
                elif op != 0xDF:
                    index = aw >> 14 & 31 if op <= 0xD9 else aw >> 19 & 31
                    a_value = a[index]
                    uimm = aw >> 3 & 0x7FF
                    moved = (a_value & ~0xFFFF & M32) | ((a_value + uimm) & 0xFFFF)
                    if not aw & 4:
                        ac_index, ac_mask = aw & 3, 1 << 10
                        ac_bits = (1 << 10) if (moved & 0xFFFF) >= (moved >> 16 & 0x3FFF) else 0
                    address = (a_value & 0xFFFF) | uimm
                    stride = a_value >> 30 & 3
                    if op <= 0xD9:
                        av_index = aw >> 19 & 31
                        for i in range(16):
                            new_v[i] = store[store_offset(vector_address(aw, address, stride, i), stride)]
                    else:
                        source = aw >> 14 & 31
                        for i in range(16):
                            stores_at[i] = store_offset(vector_address(aw, address, stride, i), stride)
                            stores_value[i] = v[source, i]
                        store_count = 16
            # vector (reads v before the address load lands: the load is in new_v, not v)
            if vw != NONE:
                op = vw >> 24
                factors = (0, 0, 0, 0)
                s2v_valid, s2v_index, s2v_flag, s2v_xfrm = table[pc, 6], table[pc, 7], table[pc, 8], table[pc, 9]
                if reads_s2v[op]:  # the scalar word's s2v value, from the state before the bundle
                    factors = scalar_factors(sw, r, c, table[pc, 10])
                dst, src1 = vw >> 19 & 31, vw >> 14 & 31
                immediate = vw >> 3 & 0xFF
                signs = 0
                zeros = 0
                if op == 0x90:  # vlrp: acc = V[SRC1|1] << rs + (V1 - V[SRC1|1])·V2; unsigned fract high byte
                    rs = readout_shift(False, True, sext(vw >> 5, 3))
                    constant = mad_rounding(rs, False, vw >> 8 & 1, uccfg_down)
                    src2, partner = vw >> 9 & 31, src1 | 1
                    for i in range(16):
                        acc = sext((v[partner, i] << rs) + (v[src1, i] - v[partner, i]) * v[src2, i] + constant, 28)
                        vector_result[i] = read_out(acc, rs, True, False)
                elif reads_s2v[op] and op < 0xB3:
                    # vmad2 (84 85 95): acc = in(V2) << rs + V1·f1 + V[SRC1|1]·f2; vmac2 (86 87 96 97
                    # a6 a7): acc = $va + V1·f1 + W·f2, W = V3 for 96 a6 a7 (semantics_vector).
                    integer, unsigned_out, low = vw >> 3 & 1, vw >> 28 & 1, vw >> 4 & 1
                    rs = readout_shift(integer == 1, unsigned_out == 1, sext(vw >> 5, 3))
                    constant = mad_rounding(rs, low, vw >> 8 & 1, uccfg_down)
                    fract, sign1, sign2 = integer == 0, vw >> 2 & 1, vw >> 1 & 1
                    mask = pair_mask(vw, s2v_valid == 1, s2v_index, s2v_flag, s2v_xfrm, vc)
                    masks = factor_masks(factors)
                    src2 = vw >> 9 & 31
                    mac2 = op != 0x84 and op != 0x85 and op != 0x95
                    partner = vw >> 4 & 31 if op == 0x96 or op == 0xA6 or op == 0xA7 else src1 | 1
                    for i in range(16):
                        f1, f2 = component_factors(vw & 1 == 1, factors, masks, mask, i)
                        products = mad_input(v[src1, i], sign1, fract) * f1 + mad_input(v[partner, i], sign1, fract) * f2
                        if mac2:
                            base = sext(va[i], 28)
                        else:
                            base = mad_input(v[src2, i], sign2, fract) << rs
                        acc = accumulate_one(base, products, integer == 1, constant)
                        new_va[i] = acc & VA_MASK
                        vector_result[i] = read_out(acc, rs, unsigned_out, low)
                    va_written = True
                    if op == 0x84 or op == 0x86 or op == 0x96 or op == 0xA6:
                        vv_index = -2  # $va only
                elif reads_s2v[op]:  # the lerp family b3–b7 (semantics_vector.vlrp2 … vlrp4b)
                    mask = lerp_mask(vw, vc)
                    rotation, src2 = c[vw >> 3 & 3] >> 4 & 3, vw >> 9 & 31
                    q0, q1 = quad_register(src1, rotation, 0), quad_register(src1, rotation, 1)
                    q2, q3 = quad_register(src1, rotation, 2), quad_register(src1, rotation, 3)
                    if op == 0xB3:  # vlrp2: fract inputs of SIGNS (bit 9), start q0 ^ LRP2X, rounding full rs
                        unsigned_out, low = 1 - (vw >> 12 & 1), 0
                        rs = readout_shift(False, unsigned_out == 1, sext(vw >> 5, 3))
                        constant = mad_rounding(rs, False, vw >> 8 & 1, uccfg_down)
                    elif op <= 0xB5:  # vlrp4a, vlrpf: unsigned, low byte, $va only
                        unsigned_out, low = 1, 1
                        rs = readout_shift(False, True, sext(vw >> 5, 3))
                        constant = mad_rounding(rs, True, vw >> 8 & 1, uccfg_down)
                    else:  # vlrp4b: ALTSHIFT, ALTRND; b6 unsigned, b7 signed
                        unsigned_out, low = 1 - (op & 1), 0
                        rs = readout_shift(False, unsigned_out == 1, sext(vw >> 11, 3))
                        constant = mad_rounding(rs, False, vw >> 9 & 1, uccfg_down)
                        slct = vw >> 5 & 15
                        if slct != 4:
                            q0 = q1 = src1 ^ (c[vw >> 3 & 3] >> slct & 1)
                    signed_in, flip = vw >> 9 & 1, 0x80 if vw >> 10 & 1 else 0
                    for i in range(16):
                        f1, f2 = component_factors(False, factors, (0, 0), mask, i)
                        if op == 0xB3:
                            x0 = mad_input(v[q0, i], signed_in, True)
                            products = (mad_input(v[q2, i], signed_in, True) - x0) * f1 \
                                + (mad_input(v[q3, i], signed_in, True) - x0) * f2
                            base = mad_input(v[q0, i] ^ flip, signed_in, True) << rs
                        elif op == 0xB4:
                            products = (v[q2, i] - v[q0, i]) * f1 + (v[q3, i] - v[q0, i]) * f2
                            base = v[q0, i] << rs
                        elif op == 0xB5:
                            products = (v[q2, i] - v[q3, i]) * f1 + v[q3, i] * f2
                            base = sext8(v[src2, i]) << rs
                        else:
                            products = (v[q1, i] - v[q0, i]) * f1 + (vx[i] - v[q0, i]) * f2
                            base = sext(va[i], 28)
                        acc = accumulate_one(base, products, False, constant)
                        new_va[i] = acc & VA_MASK
                        vector_result[i] = read_out(acc, rs, unsigned_out, low)
                    va_written = op != 0xB3 or vw >> 11 & 1 == 1
                    if op == 0xB4 or op == 0xB5:
                        vv_index = -2  # $va only
                elif multiply_form[op]:
                    # vmul/vmac: acc = (0 or $va) + in(V1)·in(V2 or imm); $va always, VD in some forms
                    integer, unsigned_out, low = vw >> 3 & 1, vw >> 28 & 1, vw >> 4 & 1
                    rs = readout_shift(integer == 1, unsigned_out == 1, sext(vw >> 5, 3))
                    constant = mad_rounding(rs, low, vw >> 8 & 1, uccfg_down)
                    fract, sign1, sign2 = integer == 0, vw >> 2 & 1, vw >> 1 & 1
                    if not vw >> 29 & 1:
                        second = -1
                    elif op == 0xB0:
                        second = vw & 0xFF
                    else:
                        second = ((vw >> 9 & 31) | (vw & 1) << 5) * 4
                    src2 = vw >> 9 & 31
                    scale = 8 if integer else 0
                    for i in range(16):
                        x = mad_input(v[src1, i], sign1, fract)
                        y = mad_input(v[src2, i] if second < 0 else second, sign2, fract)
                        base = sext(va[i], 28) if multiply_from_va[op] else 0
                        acc = sext(base + ((x * y) << scale) + constant, 28)
                        new_va[i] = acc & VA_MASK
                        vector_result[i] = read_out(acc, rs, unsigned_out, low)
                    va_written = True
                elif op == 0x9B:  # vswz: component i from V1 or V2 as selector byte V3[i] says
                    src2, src3, high = vw >> 9 & 31, vw >> 4 & 31, vw >> 3 & 1
                    for i in range(16):
                        selector = v[src3, i]
                        if high:
                            component, source = selector >> 4, selector & 1
                        else:
                            component, source = selector & 0xF, selector >> 4 & 1
                        vector_result[i] = v[src2, component] if source else v[src1, component]
                elif op == 0xAD:  # mov VD BIMM: sf = BIMM bit 7, zf
                    for i in range(16):
                        vector_result[i] = immediate
                    signs = 0xFFFF if immediate & 0x80 else 0
                    zeros = 0xFFFF if immediate == 0 else 0
                elif op == 0xAA or op == 0xAB or op == 0xAF:
                    for i in range(16):
                        x = v[src1, i]
                        if op == 0xAA:
                            value = x & immediate
                        elif op == 0xAB:
                            value = x ^ immediate
                        else:
                            value = x | immediate
                        vector_result[i] = value
                        if value == 0:
                            zeros |= 1 << i
                else:
                    # immediate (opcode bit 5) or register forms; the low nibble names the op
                    unsigned = vw >> 28 & 1
                    use_immediate = vw >> 29 & 1
                    src2 = vw >> 9 & 31
                    kind = op & 0xF
                    for i in range(16):
                        x = v[src1, i]
                        y = immediate if use_immediate else v[src2, i]
                        if not unsigned:
                            x = x - 256 if x >> 7 else x
                            y = y - 256 if y >> 7 else y
                        if kind == 8:
                            raw = min(x, y)
                        elif kind == 9:
                            raw = max(x, y)
                        elif kind == 0xA:
                            raw = abs(x)
                        elif kind == 0xB:
                            raw = -x
                        elif kind == 0xD:
                            raw = x - y
                        else:
                            raw = x + y
                        if unsigned:
                            value = min(max(raw, 0), 255)
                            if raw >> 8 & 1:
                                signs |= 1 << i
                        else:
                            value = min(max(raw, -128), 127) & 0xFF
                            if raw < 0:
                                signs |= 1 << i
                        vector_result[i] = value
                        if value == 0:
                            zeros |= 1 << i
                vv_index = -1 if vv_index == -2 else dst
                if multiply_form[op] and not multiply_writes_vd[op]:
                    vv_index = -1  # the forms that write only $va
                if op != 0x9B and op != 0x90 and not reads_s2v[op] and not multiply_form[op] and not vw & 4:
                    # vswz, vlrp and the multiply-accumulate datapath write no $vc
                    vc_index, vc_value = vw & 3, (signs & 0xFFFF) | (zeros & 0xFFFF) << 16
            # branch
            if bw != NONE:
                op = bw >> 24
                if op >= 0xE0 and op <= 0xE3:  # bra, bra loop, and their "not" forms (bit 1)
                    cond, slct = bw >> 3 & 3, bw >> 5 & 15
                    if op & 1:
                        value = l[cond]
                        loop_before = value & 0xFF
                        value = value - 1 if loop_before else value | value >> 8
                        loop_after = value & 0xFF
                        has_loop = True
                        bl_index, bl_value = bw & 3, value
                        if not bw & 4:
                            bc_index = bw & 3
                            bc_bits = (1 << 13) if loop_after == 0 else 0
                    elif not bw & 4:
                        bc_index, bc_bits = bw & 3, 1 << 13
                    flow_kind = 1
                    condition = (c[cond] >> slct & 1) == (0 if op & 2 else 1)
                    target = sext(bw >> 9, 15) * 4 + (pc & ~3)
                elif op == 0xF0:
                    index = bw >> 19 & 3
                    value = bw & 0xFFFF
                    bl_index, bl_value = index, value
                    bc_index = index
                    bc_bits = (1 << 13) if value & 0xFF == 0 else 0
                elif op == 0xFF:
                    flow_kind = 2
                    exit_code = bw & 0xFFFF
                    interrupt = bw >> 16 & 1
            # commit (§2.3 priorities)
            if r_index >= 0:
                r[r_index] = r_value
            r[31] = 0
            if sv_index >= 0:  # lowest priority in $v: a load or a vector result overwrites it
                for k in range(4):
                    v[sv_index, 4 * sv_word + k] = sv_value >> (8 * k) & 0xFF
            if av_index >= 0:
                for i in range(16):
                    v[av_index, i] = new_v[i]
            if vv_index >= 0:
                for i in range(16):
                    v[vv_index, i] = vector_result[i]
            if va_written:
                for i in range(16):
                    va[i] = new_va[i]
            if vc_index >= 0:
                vc[vc_index] = vc_value
            if aa_index >= 0:
                a[aa_index] = aa_value
            if ac_index >= 0:
                c[ac_index] = (((c[ac_index] & ~ac_mask) | (ac_bits & ac_mask)) & ~C_ZERO) | C_ONE
            if sc_index >= 0:
                c[sc_index] = (((c[sc_index] & ~0xFF) | (sc_bits & 0xFF)) & ~C_ZERO) | C_ONE
            if bc_index >= 0:
                mask = 1 << 13
                c[bc_index] = (((c[bc_index] & ~mask) | (bc_bits & mask)) & ~C_ZERO) | C_ONE
            if bl_index >= 0:
                l[bl_index] = bl_value
            for i in range(store_count):
                store[stores_at[i]] = stores_value[i] & 0xFF
            sr[30] = (sr[30] + 1) & M32
            # control flow (Vp1Machine.step and _flow)
            executed += 1
            flow[6] += 1
            next_pc = pc + length
            if flow[2]:
                flow[3] = 1
            if flow[1] != NONE:
                next_pc = flow[1]
                flow[1] = NONE
            if flow_kind == 2:
                flow[4], flow[5] = exit_code, interrupt
                if exit_delay_slot:
                    flow[2] = 1
                else:
                    flow[3] = 1
            elif flow_kind == 1:
                if condition:
                    taken = True
                    if has_loop:
                        if loop_rule == 0:
                            taken = loop_before != 0
                        elif loop_rule == 1:
                            taken = loop_after != 0
                    if taken:
                        flow[1] = target
            flow[0] = next_pc
        return executed

    return run


class CompiledProgram:
    """The decoded program of one machine (rebuilt when its program or empty scalar word changes)."""

    def __init__(self, machine):
        self.program = list(machine.program)
        self.empty_scalar_word = machine.empty_scalar_word
        self.table = decode(self.program, machine.empty_scalar_word)

    def fits(self, machine) -> bool:
        return machine.program == self.program and machine.empty_scalar_word == self.empty_scalar_word


def _arrays(machine):
    state = machine.state
    return (np.array(state.r, dtype=np.int64), np.array(state.v, dtype=np.int64).reshape(32, 16),
            np.array(state.vc, dtype=np.int64), np.array(state.a, dtype=np.int64),
            np.array(state.c, dtype=np.int64), np.array(state.l, dtype=np.int64),
            np.array(state.sr, dtype=np.int64), np.array(state.va, dtype=np.int64),
            np.array(state.vx, dtype=np.int64), np.frombuffer(bytes(machine.store.data), dtype=np.uint8).astype(np.int64))


def _write_back(machine, arrays) -> None:
    r, v, vc, a, c, l, sr, va, _vx, store = arrays
    state = machine.state
    state.r = r.tolist()
    state.v = [row for row in v.tolist()]
    state.vc, state.a, state.c, state.l, state.sr = vc.tolist(), a.tolist(), c.tolist(), l.tolist(), sr.tolist()
    state.va = va.tolist()
    machine.store.data[:] = store.astype(np.uint8).tobytes()


def run_compiled(machine, max_bundles: int = 1_000_000):
    """``machine.run(max_bundles)`` with compiled bundles where they apply (module docstring);
    the same result, state, data store and errors."""
    from .machine import BundleLimit, RunResult
    from .state import UCCFG
    compiled = getattr(machine, "_compiled_program", None)
    if compiled is None or not compiled.fits(machine):
        compiled = machine._compiled_program = CompiledProgram(machine)
    run = kernel()
    start = machine.bundles
    loop_rule = LOOP_RULE_CODES[machine.loop_taken]
    while not machine.exited:
        left = max_bundles - (machine.bundles - start)
        if left <= 0:  # as Vp1Machine.run says it
            raise BundleLimit(f"stopped after {max_bundles:,} bundles without exit (at word {machine.pc:#x}); "
                              "raise --max-bundles if the program needs more")
        if machine.redirect_is_call:  # a call's delay slot: the interpreter pushes the return
            machine.step()
            continue
        flow = np.array([machine.pc, NONE if machine.redirect is None else machine.redirect,
                         int(machine.stop_after_next), int(machine.exited), machine.exit_code,
                         int(machine.interrupt), machine.bundles], dtype=np.int64)
        arrays = _arrays(machine)
        executed = run(compiled.table, *arrays, flow, machine.state.g80, loop_rule,
                       bool(machine.exit_delay_slot), left, machine.state.uc[UCCFG] & 1)
        if executed:
            _write_back(machine, arrays)
            machine.pc = int(flow[0])
            machine.redirect = None if flow[1] == NONE else int(flow[1])
            machine.stop_after_next, machine.exited = bool(flow[2]), bool(flow[3])
            machine.exit_code, machine.interrupt, machine.bundles = int(flow[4]), bool(flow[5]), int(flow[6])
        if not machine.exited and machine.bundles - start < max_bundles:
            machine.step()  # a bundle the compiled loop leaves to the interpreter
    return RunResult(machine.bundles - start, machine.exit_code, machine.interrupt, machine.pc)
